"""Floor 0: every error a user may see. Each is shown as one line (the CLI exits with code 2): its message names the
bad value and the valid choices. Nothing here imports from simlab."""


class InputError(ValueError):
    """Bad user input: the message names the bad value and the valid choices."""


class WriteError(InputError):
    """An output that cannot be written (a full disk or quota, a folder refusing files); names the path and, for
    a full disk, the space needed (:mod:`simlab.data.durable`)."""


class EditError(InputError):
    """A card edit the engine cannot apply (unknown card or attribute, bad value)."""


class ConfigError(InputError):
    """An experiment file the toolkit cannot use; the message names the file and key."""


class CardDataError(ValueError):
    """Card or board data that the engine cannot use."""


class RuleError(ValueError):
    """An unknown rule variant or value, or a villain's ``[[rule]]`` table that does not fit."""


class BackendError(ValueError):
    """A backend that cannot be used (unreachable scheduler, mismatched workers); shown as one line."""


class StrategyError(ValueError):
    """An unknown strategy, or a strategy file with unknown keys or bad values."""


# What a command shows as one line with exit code 2 (no traceback). A StrategyError reaches the user as an InputError
# (the engine names the seat it was given for).
USER_ERRORS = (InputError, RuleError, CardDataError, BackendError)
