"""Trash Pandas: Monte Carlo of one turn (with its bonus turn) under a policy given as tables.

Model
-----
The die has six equally likely faces, one per token (0 trash … 5 recycle). A turn keeps the held
set ``H`` (6-bit mask), the mode (0 main turn, cap 6; 1 bonus turn, cap ``bonus_cap``) and the
Blammo!/Nanners/MMM Pie! cards in hand ``(b, n, p)``. Every decision comes from flat tables indexed
by ``idx(mode, H, b, n, p) = (((mode·64 + H)·B1 + b)·N1 + n)·P1 + p`` (see
analyzer/games/trash_pandas/play.py, which builds them from the exact solver or from a rule of
thumb):

* after each roll of face ``f``: ``after[idx·6 + f]`` ∈ {0 take (or bust if f ∈ H), 1 spend
  Blammo! and roll again, 2 spend Nanners and stop};
* after taking a token below the cap: ``roll[idx]`` ∈ {0 stop, 1 roll};
* on stopping: ``stop_pies[(mode·64 + H)·P1 + p]`` pies are used; the resolve value is
  ``resolve_val[(mode·64 + H)·7 + q]``; on collecting all six, ``six_pies[(b·N1 + n)·P1 + p]``
  pies are used in the first resolve, then the bonus turn starts from an empty held set.

Value accounting: resolve values (pies' costs included) + ``bust_value`` on a bust − ``card``
per Blammo!/Nanners spent. Per-block sums (columns, named in :data:`COLUMNS`): 0 Σvalue,
1 Σvalue², 2 main-turn busts, 3 Σtokens resolved, 4 Σtokens², 5 turns that collected all six,
6 Σrolls, 7 bonus-turn busts, 8 Σrolls², then the same sums restricted to the turns that
collected all six (the rare, large contributions behind the skewed means; see
:func:`analyzer.stats.mean_with_rare`): 9 Σtokens, 10 Σtokens², 11 Σvalue, 12 Σvalue².
Faces come two per 64-bit draw (its 32-bit halves), each exactly uniform (Lemire + rejection).
"""
import numpy as np
from numba import njit, prange

from kernels.rng import bounded_pair, lemire_threshold, pair_face, seed_words

#: Names of the per-block sum columns, in order (module doc).
COLUMNS = ("sum_value", "sum_value2", "main_busts", "sum_tokens", "sum_tokens2", "all_six",
           "rolls", "bonus_busts", "rolls2", "six_tokens", "six_tokens2", "six_value",
           "six_value2")
NSUMS = len(COLUMNS)


@njit(cache=True, inline="always")
def _store(out, blk, s_val, s_val2, busts, s_tok, s_tok2, sixes, rolls, bonus_busts, rolls2,
           x_tok, x_tok2, x_val, x_val2):
    """Write one block's sums in the column order of the module doc."""
    out[blk, 0] = s_val
    out[blk, 1] = s_val2
    out[blk, 2] = busts
    out[blk, 3] = s_tok
    out[blk, 4] = s_tok2
    out[blk, 5] = sixes
    out[blk, 6] = rolls
    out[blk, 7] = bonus_busts
    out[blk, 8] = rolls2
    out[blk, 9] = x_tok
    out[blk, 10] = x_tok2
    out[blk, 11] = x_val
    out[blk, 12] = x_val2


@njit(cache=True, parallel=True)
def simulate_turns(keys, counts, B, N, P, B1, N1, P1, bonus_turn, bonus_cap, card, bust_value,
                   after, roll, stop_pies, six_pies, resolve_val):
    """Per-block sums of turns played under the policy tables (see module doc)."""
    m = keys.shape[0]
    out = np.zeros((m, NSUMS), dtype=np.float64)
    for blk in prange(m):
        s_val = 0.0
        s_val2 = 0.0
        busts = 0
        s_tok = 0
        s_tok2 = 0
        sixes = 0
        rolls = 0
        bonus_busts = 0
        rolls2 = 0
        x_tok = 0
        x_tok2 = 0
        x_val = 0.0
        x_val2 = 0.0
        k0, k1, k2, k3 = keys[blk, 0], keys[blk, 1], keys[blk, 2], keys[blk, 3]
        for t in range(counts[blk]):
            s0, s1, s2, s3 = seed_words(k0, k1, k2, k3, t)
            buf = np.uint64(0)
            have = 0
            mode = 0
            h = 0
            nh = 0
            b = B
            n = N
            p = P
            value = 0.0
            tokens = 0
            r_t = 0
            six = False
            while True:
                face, buf, have, s0, s1, s2, s3 = bounded_pair(6, buf, have, s0, s1, s2, s3)
                rolls += 1
                r_t += 1
                idx = (((mode * 64 + h) * B1 + b) * N1 + n) * P1 + p
                d = after[idx * 6 + face]
                if d == 1:  # Blammo!: ignore the roll, roll again
                    b -= 1
                    value -= card
                    continue
                if d == 2:  # Nanners: cancel the roll and stop
                    n -= 1
                    value -= card
                    q = stop_pies[(mode * 64 + h) * P1 + p]
                    value += resolve_val[(mode * 64 + h) * 7 + q]
                    tokens += nh
                    break
                bit = 1 << face
                if h & bit:  # bust
                    value += bust_value
                    if mode == 0:
                        busts += 1
                    else:
                        bonus_busts += 1
                    break
                h |= bit
                nh += 1
                if mode == 0 and nh == 6:
                    sixes += 1
                    six = True
                    q = six_pies[(b * N1 + n) * P1 + p]
                    value += resolve_val[(0 * 64 + 63) * 7 + q]
                    p -= q
                    tokens += 6
                    if bonus_turn:
                        mode = 1
                        h = 0
                        nh = 0
                        continue
                    break
                cap = 6 if mode == 0 else bonus_cap
                if nh >= cap or roll[(((mode * 64 + h) * B1 + b) * N1 + n) * P1 + p] == 0:
                    q = stop_pies[(mode * 64 + h) * P1 + p]
                    value += resolve_val[(mode * 64 + h) * 7 + q]
                    tokens += nh
                    break
            s_val += value
            s_val2 += value * value
            s_tok += tokens
            s_tok2 += tokens * tokens
            rolls2 += r_t * r_t
            if six:
                x_tok += tokens
                x_tok2 += tokens * tokens
                x_val += value
                x_val2 += value * value
        _store(out, blk, s_val, s_val2, busts, s_tok, s_tok2, sixes, rolls, bonus_busts, rolls2,
               x_tok, x_tok2, x_val, x_val2)
    return out


@njit(cache=True, inline="always")
def _stop_block(k0, k1, k2, k3, n, k_stop, thr, exact):
    """Trials 0..n-1 of one block of :func:`stop_at_plain`: returns (busts, Σtokens, sixes, rej).

    With ``exact=False`` faces are the branch-free multiply-shift values of :func:`pair_face` and
    ``rej`` says whether any word would have been rejected (then the caller redoes the block with
    ``exact=True``, which gives the values of :func:`bounded_pair`).
    """
    busts = 0
    s_tok = 0
    sixes = 0
    rej = 0
    for t in range(n):
        s0, s1, s2, s3 = seed_words(k0, k1, k2, k3, t)
        h = 0
        nh = 0
        have = 0
        buf = np.uint64(0)
        while True:
            face, r, buf, have, s0, s1, s2, s3 = pair_face(6, thr, exact, buf, have,
                                                           s0, s1, s2, s3)
            rej |= r
            bit = 1 << face
            if h & bit:
                busts += 1
                break
            h |= bit
            nh += 1
            if nh >= k_stop:
                s_tok += nh
                if nh == 6:
                    sixes += 1
                break
    return busts, s_tok, sixes, rej


@njit(cache=True)
def _stop_block_sums(k0, k1, k2, k3, n, k_stop, thr):
    """One block of :func:`stop_at_plain`: (busts, Σtokens, sixes) with exact faces.

    Stop at 6 (the bench's case) runs the fast branch-free loop with the 6 as a literal, so LLVM
    can bound the turn length, unroll it and vectorise over trials; a block in which a word would
    have been rejected, and every other ``k_stop``, runs the exact loop (same sums: the exact
    faces are the fast ones whenever no word is rejected). Two inlined copies of the turn loop
    only (with five literal copies and their exact replays the kernel took about 56 s of the cold
    compile; with two fast copies and two replays 10 s). A function of its own: the parallel loop
    of the caller holds no branch-assigned variable (Numba's reduction analysis of a prange body
    met one as an "unexpected cycle in lookup()", in some fresh compiles)."""
    if k_stop == 6:
        busts, s_tok, sixes, rej = _stop_block(k0, k1, k2, k3, n, 6, thr, False)
        if rej == 0:
            return busts, s_tok, sixes
    busts, s_tok, sixes, rej = _stop_block(k0, k1, k2, k3, n, k_stop, thr, True)
    return busts, s_tok, sixes


@njit(cache=True, parallel=True)
def stop_at_plain(keys, counts, k_stop):
    """The minimal turn loop: no cards, no bonus turn, stop once ``k_stop`` tokens are held.

    Per-block sums: 0 busts, 1 Σtokens, 2 turns reaching six. Faces exactly uniform (a block that
    met a word Lemire would reject, probability ≈ 1e-9 per face, is replayed with the exact
    helper), so the sums equal those of :func:`bounded_pair` (:func:`_stop_block_sums`).
    """
    m = keys.shape[0]
    out = np.zeros((m, 3), dtype=np.float64)
    thr = lemire_threshold(6)
    for blk in prange(m):
        busts, s_tok, sixes = _stop_block_sums(keys[blk, 0], keys[blk, 1], keys[blk, 2],
                                               keys[blk, 3], counts[blk], k_stop, thr)
        out[blk, 0] = busts
        out[blk, 1] = s_tok
        out[blk, 2] = sixes
    return out
