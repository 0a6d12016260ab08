"""Numba kernels of the whole Trash Pandas game (state.py, bots.py, engine.py, decide.py)."""
