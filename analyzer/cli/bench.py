"""`pushluck bench` (being written)."""


def bench():
    """Measure kernel throughput."""
