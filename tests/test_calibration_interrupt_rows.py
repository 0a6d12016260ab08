"""analyzer/calibration.py ``run_positions``: a Ctrl-C keeps the finished positions, and a bias
needs two of them (fewer: the one-line Interrupted error)."""
from __future__ import annotations

import pytest

from analyzer.calibration import run_positions
from analyzer.errors import Interrupted


def _value_until(stop_at: int):
    def value(j, position):
        if j == stop_at:
            raise KeyboardInterrupt
        return {"j": j, "position": position}

    return value


def test_a_ctrl_c_keeps_the_finished_positions():
    rows, interrupted = run_positions("t", 10, iter("abcdef"), _value_until(2), progress=False)
    assert interrupted is True and rows == [{"j": 0, "position": "a"}, {"j": 1, "position": "b"}]
    rows, interrupted = run_positions("t", 3, iter("abcdef"), _value_until(99), progress=False)
    assert interrupted is False and [r["position"] for r in rows] == ["a", "b", "c"]


@pytest.mark.parametrize("stop_at, words", [(0, "no position had finished"),
                                            (1, "one position only had finished")])
def test_fewer_than_two_finished_is_the_one_line_error(stop_at, words):
    with pytest.raises(Interrupted) as exc:
        run_positions("t", 10, iter("abcdef"), _value_until(stop_at), progress=False)
    assert str(exc.value) == words
