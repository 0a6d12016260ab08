"""Ten's balance figures from the per-game records of `ten game`'s engine.

The engine's ``game_details`` plays games 0 … n − 1 of a block key one at a time and returns
each game's record (kernels/ten/whole_layout.py ``REC_NAMES``): the same games as the parallel
run of ``game_blocks`` with the same seed (block k of ``block_keys(seed, 0, ·)``, trial t), so
the figures here describe the games `ten game --seed S -n N` plays. From the records:

* each seat's win share (ties after the tie-break shared) against 1/P;
* games whose top score is tied on points, and those the tie-break (most tokens, then fewest
  cards) decides;
* the winner's margin over the runner-up in points;
* game length in turns (mean and distribution);
* busts per turn (a ratio over games, delta-method SE);
* lead changes per game (the strict leader by points after every turn and after the final buy
  round) and how often the strict leader at the end of the first turn with three quarters of
  the draw pile drawn wins (the clock: cards drawn; kernels/lead.py states the definitions).
"""
from __future__ import annotations

import numpy as np

from analyzer.balance import Balance, add_seats, decisiveness, ratio
from analyzer.stats import mean_from_sums, wilson


def records(setup, games: int, seed: int, lineup: int = 0) -> np.ndarray:
    """float64[games, NREC]: the records of the first ``games`` games of ``setup``'s run under
    ``seed`` (module doc), block by block."""
    from analyzer.rng import block_keys

    size = setup.block_size
    blocks = -(-games // size)
    keys = block_keys(seed, 0, blocks)
    out = []
    for b in range(blocks):
        n = min(size, games - b * size)
        recs, _finals, _toks = setup.details(keys[b], n, lineup)
        out.append(np.array(recs))
    return np.concatenate(out)


def balance_of(recs: np.ndarray, players: int, seed: int, group: str) -> Balance:
    """The :class:`Balance` of the games whose records are ``recs`` (module doc)."""
    from kernels.ten.whole_layout import RC

    n = recs.shape[0]
    col = {name: recs[:, i] for name, i in RC.items()}
    b = Balance(group, players, n, seed, length_unit="turns", clock="cards drawn")
    add_seats(b, [mean_from_sums(float(col[f"win_{q}"].sum()),
                                 float((col[f"win_{q}"] ** 2).sum()), n)
                  for q in range(players)])
    scores = np.stack([col[f"score_{q}"] for q in range(players)], axis=1)
    top = scores.max(axis=1)
    on_top = (scores == top[:, None]).sum(axis=1)
    tied_points = on_top > 1
    b.add("tie", wilson(float(tied_points.sum()), n))
    broken = tied_points & (col["tied"] == 0)
    if tied_points.any():
        b.add("tiebreak", wilson(float(broken.sum()), n))
    b.add("decisive", decisiveness(float(col["leader_3q_win"].sum()),
                                   float(col["leader_3q"].sum())))
    ch = col["lead_changes"]
    b.add("lead_changes", mean_from_sums(float(ch.sum()), float((ch ** 2).sum()), n))
    second = np.sort(scores, axis=1)[:, -2] if players > 1 else top
    margin = top - second
    b.add("margin", mean_from_sums(float(margin.sum()), float((margin ** 2).sum()), n),
          unit="points")
    turns = col["turns"]
    b.add("length", mean_from_sums(float(turns.sum()), float((turns ** 2).sum()), n),
          unit="turns")
    busts = col["busts"]
    b.add("bust", ratio(float(busts.sum()), float((busts ** 2).sum()),
                        float((busts * turns).sum()), float(turns.sum()),
                        float((turns ** 2).sum()), n))
    values, counts = np.unique(turns.astype(np.int64), return_counts=True)
    b.length_counts = [(int(v), int(c)) for v, c in zip(values, counts)]
    return b
