"""``python -m analyzer``: the same as the ``pushluck`` script. The signal handlers and the
environment checks come first (:mod:`analyzer.startup`), before Typer and the rest load."""
from analyzer.startup import begin

begin()

from analyzer.cli.main import main  # noqa: E402 - after the handler is in place

main()
