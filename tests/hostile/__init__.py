"""The hostile suite of issue 58 (a package, so its conftest does not shadow tests/conftest.py)."""
