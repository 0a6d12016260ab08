"""A `pushluck` process asks BLAS for one thread unless the user chose (analyzer/startup.py), and
the belief's fit takes its Gram matrices from BLAS (analyzer/games/trash_pandas/belief.py)."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

_SHOW = ("from analyzer.startup import begin; begin(); import os; "
         "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['MKL_NUM_THREADS'])")


def _run(env):
    clean = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS",
                                                               "MKL_NUM_THREADS")}
    proc = subprocess.run([sys.executable, "-c", _SHOW], env={**clean, **env},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_blas_gets_one_thread_unless_the_user_set_it():
    assert _run({}) == ["1", "1"]
    assert _run({"OPENBLAS_NUM_THREADS": "3"}) == ["3", "1"]
    assert _run({"MKL_NUM_THREADS": "2", "OPENBLAS_NUM_THREADS": "4"}) == ["4", "2"]


def test_gram_matrix_by_hand():
    from analyzer.games.trash_pandas.belief import _gram

    x = np.array([[1.0, 2.0], [3.0, 4.0], [0.0, -1.0]])
    # columns (1, 3, 0) and (2, 4, -1): 1+9+0 = 10, 2+12+0 = 14, 4+16+1 = 21
    assert _gram(x).tolist() == [[10.0, 14.0], [14.0, 21.0]]
