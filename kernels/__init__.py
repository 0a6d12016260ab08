"""Numba kernels only: no Typer, pandas or matplotlib imports in this package."""
