"""The Textual app of ``pushluck play`` (imported only when the app opens).

One screen that fits 80×24: the position panel (``table.describe()``), the answer panel, a
message line (what the last entry did, or why it was refused) and the input line, with
completion of entry words, card and token names (Tab takes the suggestion). Every key is listed
in the help panel (F1) and in the footer.

At each of my choices the answer is computed in a worker thread, first with few playouts
(about a second) and then refined with more (``levels``) while the user thinks; an entry made
meanwhile cancels the refinement (the worker checks between levels) and a stale answer is never
shown for a newer position.
"""
from __future__ import annotations

import copy

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.suggester import Suggester
from textual.widgets import Footer, Input, Static

from analyzer.errors import IOFailure, UserError


ANSWER_ROWS = 5  # choices shown in the answer panel (the best ones), so that 80×24 holds it


class EntrySuggester(Suggester):
    """Suggests the completion of the last word of the entry (analyzer/play/table.py)."""

    def __init__(self, table):
        super().__init__(use_cache=False, case_sensitive=False)
        self.table = table

    async def get_suggestion(self, value: str) -> str | None:
        if not value or value.endswith(" "):
            return None
        words = self.table.completions(value)
        if not words:
            return None
        head = value.rsplit(" ", 1)[0] + " " if " " in value else ""
        return head + words[0]


class EntryInput(Input):
    """The input line; Tab takes the completion shown (and adds a space)."""

    BINDINGS = [Binding("tab", "complete", "Complete", show=False)]

    def action_complete(self) -> None:
        if self._suggestion and len(self._suggestion) > len(self.value):
            self.value = self._suggestion + " "
            self.cursor_position = len(self.value)


def help_text(table) -> str:
    keys = ["Keys:",
            "  Enter        apply the entry        Tab / →   take the completion",
            "  Ctrl+Z       undo the last entry    Ctrl+S    save the position",
            "  F1           this help (again: off) Ctrl+Q    quit",
            "  Esc          leave the input: then u undo, s save, ? help, q quit, i input",
            "Entries (@N first: seat N did it):"]
    return "\n".join(keys + [f"  {w}" for w in table.WORDS.values()])


class PlayApp(App):
    """Follows a game entry by entry; answers at my choices (see the module doc)."""

    CSS = """
    Screen { layout: vertical; }
    #position { height: auto; max-height: 11; border: round $accent; padding: 0 1; }
    #answer { height: auto; min-height: 3; max-height: 11; border: round $success;
              padding: 0 1; }
    #help { display: none; height: auto; max-height: 19; border: round $warning;
            padding: 0 1; }
    #help.shown { display: block; }
    #message { height: 1; padding: 0 1; }
    #entry { dock: bottom; margin-bottom: 1; }
    Footer { dock: bottom; }
    """
    BINDINGS = [
        Binding("ctrl+z", "undo", "Undo"),
        Binding("ctrl+s", "save", "Save"),
        Binding("f1", "toggle_help", "Help"),
        Binding("ctrl+q", "quit", "Quit"),
        Binding("u", "undo", "Undo", show=False),
        Binding("s", "save", "Save", show=False),
        Binding("question_mark", "toggle_help", "Help", show=False),
        Binding("q", "quit", "Quit", show=False),
        Binding("i", "focus_entry", "Input", show=False),
        Binding("escape", "leave_entry", "Leave input", show=False),
    ]

    def __init__(self, table, levels, seed: int, save_path, ask_kw: dict | None = None,
                 ask=None):
        super().__init__()
        self.table = table
        self.levels = tuple(levels)
        self.seed = seed
        # a path, or a callable that saves and returns the path (cli/play.py Saver: inside
        # --out, its folder checked at the first save)
        self.save_path = save_path
        self.ask_kw = ask_kw or {}
        self.ask = ask  # answer(table, n, seed, **ask_kw); analyzer/play/answer.py by default
        self.version = 0  # bumped by every change of the position
        self.last_answer: dict | None = None
        self.title = f"pushluck play {table.GAME}"

    def compose(self) -> ComposeResult:
        yield Static(id="position")
        yield VerticalScroll(Static(help_text(self.table)), id="help")
        yield Static("", id="answer")
        yield Static("", id="message")
        yield EntryInput(placeholder="an entry, e.g. roll paw — F1: help", id="entry",
                         suggester=EntrySuggester(self.table))
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#position").border_title = f"position · I am seat {self.table.me + 1}"
        self.query_one("#answer").border_title = "my choice, in chance of winning"
        self.query_one("#help").border_title = "help (F1 closes)"
        self.refresh_position()
        self.query_one("#entry", Input).focus()

    # ---- the panels
    def say(self, text: str) -> None:
        self.query_one("#message", Static).update(text)

    def refresh_position(self) -> None:
        self.version += 1
        self.query_one("#position", Static).update(self.table.describe())
        self.last_answer = None
        if self.table.my_choice():
            self.query_one("#answer", Static).update("my choice: thinking…")
            self.think(copy.deepcopy(self.table), self.version)
        else:
            self.query_one("#answer", Static).update("no choice of mine now")

    @work(thread=True, exclusive=True, group="answer")
    def think(self, table, version: int) -> None:
        """Answer with each number of playouts in turn; stop when the position changed."""
        from textual.worker import get_current_worker

        from analyzer.play.answer import answer, answer_lines

        ask = self.ask or answer
        worker = get_current_worker()
        for n in self.levels:
            if worker.is_cancelled or version != self.version:
                return
            try:
                out = ask(table, n, self.seed, **self.ask_kw)
            except UserError as exc:
                self.call_from_thread(self.show_answer, version, None, f"no answer: {exc}")
                return
            self.call_from_thread(self.show_answer, version, out,
                                  "\n".join(answer_lines(out, ANSWER_ROWS)))
            if out.get("exact"):
                return  # more playouts would not change an exact answer

    def show_answer(self, version: int, out, text: str) -> None:
        if version != self.version:
            return  # an answer for a position that is gone
        self.last_answer = out
        self.query_one("#answer", Static).update(text)

    # ---- entries and keys
    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            return
        try:
            said = self.table.enter(text)
        except UserError as exc:
            self.say(f"refused: {exc}")
            return
        event.input.value = ""
        self.say(said)
        self.refresh_position()

    def action_undo(self) -> None:
        last = self.table.undo()
        self.say(f"undone: {last}" if last else "nothing to undo")
        self.refresh_position()

    def action_save(self) -> None:
        try:
            if callable(self.save_path):
                path = self.save_path()
            else:
                path = self.save_path
                self.table.save(path)
        except (UserError, IOFailure, OSError) as exc:
            self.say(f"not saved: {exc}")
            return
        why = self.table.save_refusal()
        self.say(f"saved {path} (pushluck {self.table.GAME} decide {path})" if why is None else
                 f"saved {path}: the entries only, reopen with --load ({why})")

    def action_toggle_help(self) -> None:
        """The help panel takes the place of the position and answer panels (80×24)."""
        shown = self.query_one("#help").toggle_class("shown").has_class("shown")
        self.query_one("#position").display = not shown
        self.query_one("#answer").display = not shown

    def action_focus_entry(self) -> None:
        self.query_one("#entry", Input).focus()

    def action_leave_entry(self) -> None:
        self.set_focus(None)


def run_app(table, n: int, seed: int, save_path, ask_kw: dict) -> None:
    """Open the app: answers with n playouts, then 4n and 16n while the user thinks."""
    PlayApp(table, (n, 4 * n, 16 * n), seed, save_path, ask_kw).run()
