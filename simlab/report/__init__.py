"""Floor 8, what a person reads: the report's sections (``build``), its HTML and Markdown (``render``) and every
plot (``plots``: a frame and an Axes in, nothing out)."""
