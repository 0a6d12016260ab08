"""What `pushluck bench` says about a row's scaling (speed itself is never asserted: these check
when a row gets a note and which reason it gives)."""
from analyzer.benchkit import BenchCase
from analyzer.cli.bench import scaling_note


def _case(note=None):
    return BenchCase("pig", "games", "games", lambda: None, 1000, scaling_note=note)


def test_no_note_at_or_above_the_target():
    assert scaling_note(_case(), 1.8, 2, 100, 9.0, 2) is None
    assert scaling_note(_case(), 1.0, 1, 100, 0.0, 1) is None  # one core: nothing to scale


def test_the_reason_below_the_target():
    assert scaling_note(_case("one long block"), 1.2, 2, 100, 0.1, 2) == "one long block"
    assert "3 blocks per run" in scaling_note(_case(), 1.2, 2, 3, 0.1, 2)
    assert "load average 4.0 on 2 CPUs" in scaling_note(_case(), 1.2, 2, 100, 4.0, 2)
    assert "not known" in scaling_note(_case(), 1.2, 2, 100, 1.0, 2)


def test_cores_taken_during_the_run_itself():
    """A lagging load average below the threshold, but the all-core run got 1.1 of 2 CPUs: the
    note names that; with the CPUs it asked for, the reason stays unknown."""
    assert "got 1.1 CPUs" in scaling_note(_case(), 1.0, 2, 100, 2.1, 2, 1.1)
    assert "not known" in scaling_note(_case(), 1.0, 2, 100, 2.1, 2, 1.95)
