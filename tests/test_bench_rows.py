"""What `pushluck bench` says about scaling, and how the runner sizes batches for the threads.
(Speed itself is never asserted: these check the wording rules and the batch arithmetic.)"""
import numba

from analyzer.benchkit import BenchCase
from analyzer.cli.bench import scaling_note
from analyzer.runner import _batch_size


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


def test_batches_are_a_multiple_of_the_threads():
    before = numba.get_num_threads()
    try:
        for threads in range(1, before + 1):
            numba.set_num_threads(threads)
            for want in (0.2, 1, 2.5, 3, 7.9, 100.4, 5000):
                b = _batch_size(want)
                assert b % threads == 0 and threads <= b <= 4096
                assert b >= min(int(want), 4096 // threads * threads)
    finally:
        numba.set_num_threads(before)
