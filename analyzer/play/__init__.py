"""`pushluck play`: a companion that follows a real game at the table.

What belongs here, one small module each:

============== ================================================================================
table.py       the game-free part of a table record: entries typed one by one, applied to a
               copy of the state (an impossible entry changes nothing and raises a one-line
               UserError), undo by replaying every entry but the last, completion of words
toml_text.py   a tiny TOML writer for the position files the tables write
trash_pandas.py Trash Pandas: the entry language, the table-side state, the public
               ``[[history]]``, the position in the ``trash-pandas decide`` format
ten.py         Ten: the entry language, the state, the position in the ``ten decide`` format
answer.py      the chance of winning at one of my choices: the same code ``decide`` runs
script.py      the non-interactive mode (``--script FILE``): entries from a file, printed
app.py         the Textual app (imported only by ``pushluck play`` without ``--script``)
============== ================================================================================

The tables never need the hidden cards: they keep what my seat sees (my hand and stash by
type; every other seat's counts and face-up cards; the public piles) and, for Trash Pandas, the
public history the belief of ``decide`` replays. Plain Python: no NumPy until an answer runs.
"""
