"""pushluck: exact and Monte Carlo strategy analysis for push-your-luck tabletop games."""
__version__ = "0.1.0"
