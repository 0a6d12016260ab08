"""`pushluck trash-pandas …` (being written)."""
import typer

app = typer.Typer(no_args_is_help=True, help="Trash Pandas: dice bust odds and stop-or-continue.")
