"""The ladder's default sizes, apart from analyzer/ladder.py so that a command's help can name them
without importing NumPy (`pushluck --help` and the queries must not: tests/test_query_imports.py)."""

#: deals per line-up by default, and when a bot that thinks (rollout, search) plays
DEFAULT_DEALS, THINKING_DEALS = 2_000, 60
