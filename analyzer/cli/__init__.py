"""The command-line interface: one Typer sub-app per game plus the cross-game verbs."""
