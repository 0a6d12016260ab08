"""User-facing errors: printed as one line on stderr (exit code 2 for bad input, 1 for a failed
write), never a traceback."""


class UserError(Exception):
    """Bad input from the user (a malformed card, an impossible state, an unknown rule key...)."""


class IOFailure(Exception):
    """The system failed a write (a full disk, a quota, an I/O error) or the output stream is
    full or closed: one line on stderr, exit code 1 (bad input keeps exit code 2)."""


class Interrupted(Exception):
    """Ctrl-C before anything finished: one line on stderr, exit code 130."""


#: Set when a run was interrupted after some work finished: the command still prints what
#: finished (its JSON says ``"interrupted": true``) and `pushluck` then exits with code 130.
#: ``told``: a line saying so is already on stderr ("interrupted: keeping the N finished …").
INTERRUPTED = {"flag": False, "told": False}


def mark_interrupted() -> None:
    INTERRUPTED["flag"] = True


def was_interrupted() -> bool:
    return INTERRUPTED["flag"]


def reset_interrupted() -> None:
    """Forget an earlier interrupt (tests run many commands in one process)."""
    INTERRUPTED["flag"] = False
    INTERRUPTED["told"] = False
