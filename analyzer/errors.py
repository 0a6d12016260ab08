"""User-facing errors: printed as one line on stderr with exit code 2, never a traceback."""


class UserError(Exception):
    """Bad input from the user (a malformed card, an impossible state, an unknown rule key...)."""
