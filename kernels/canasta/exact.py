"""Railroad Canasta: exact counting of the initial-meld chance of a dealt hand.

Model
-----
A dealt hand of ``hand_size`` cards is a multivariate hypergeometric draw from 106·P cards in
14 classes (jokers, twos, threes of both colours pooled since neither can count toward the
requirement, and the 11 natural ranks). Every composition is enumerated iteratively (about
10^7 for 13 cards) and weighted by Π C(K_i, k_i) / C(N, n); the hand meets the requirement when
the closed-form maximum first-meld value ``max_initial_value`` reaches it.
"""
import numpy as np
from numba import njit

from kernels.canasta.layout import VAL

@njit(cache=True)
def _binom(n, k):
    if k < 0 or k > n:
        return 0.0
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


@njit(cache=True)
def max_initial_value(h, maxw, w7):
    """Closed form of the largest first-meld value of a hand ``h`` (15 counts).

    T = Σ over ranks held 3+ times of min(count, 7)·value; pairs (not sevens unless wilds may
    join them) each take one wild: the k = min(wilds, pairs) most valuable pairs add 2·value;
    every wild card adds its value when it has somewhere to go (3+ wilds make a wild meld,
    otherwise a natural meld must exist to host it)."""
    t = 0
    host = False
    p20 = 0
    p10 = 0
    p5 = 0
    for r in range(4, 15):
        c = h[r]
        okw = r != 7 or w7
        if c >= 3:
            t += min(c, 7) * VAL[r]
            if c < 7 and okw:
                host = True
        elif c == 2 and okw and maxw >= 1:
            if VAL[r] == 20:
                p20 += 1
            elif VAL[r] == 10:
                p10 += 1
            else:
                p5 += 1
    w = h[0] + h[1]
    k = w
    a = min(k, p20)
    pv = 40 * a
    k -= a
    a = min(k, p10)
    pv += 20 * a
    k -= a
    a = min(k, p5)
    pv += 10 * a
    k -= a
    used = w - k
    if used == 0 and not host:
        if w < 3:
            return t
        # only a wild meld can take them: at most 7 (jokers first) in one action
        j7 = min(h[0], 7)
        wv = j7 * 50 + (7 - j7) * 20 if w >= 7 else h[0] * 50 + h[1] * 20
        return t + pv + wv
    return t + pv + h[0] * 50 + h[1] * 20


@njit(cache=True)
def exact_deal_probability(P, hand_size, req, maxw, w7):
    """P(maximum first-meld value of a dealt hand >= req), by enumerating every composition
    of the hand over 14 card classes (red and black threes pooled: neither counts) weighted by
    the multivariate hypergeometric probability. Dealt red threes are placed without
    replacement, so they simply occupy hand slots here."""
    ncls = 14
    sizes = np.zeros(ncls, dtype=np.int64)
    sizes[0] = 2 * P
    sizes[1] = 8 * P
    sizes[2] = 8 * P  # threes, both colours
    for i in range(3, ncls):
        sizes[i] = 8 * P
    total = 106 * P
    # binomial tables
    bt = np.zeros((ncls, hand_size + 1), dtype=np.float64)
    for i in range(ncls):
        for k in range(hand_size + 1):
            bt[i, k] = _binom(sizes[i], k)
    denom = _binom(total, hand_size)
    cnt = np.zeros(ncls, dtype=np.int64)
    h = np.zeros(15, dtype=np.int64)
    prob = 0.0
    # iterative enumeration: cnt[0..ncls-2] free, the last class takes the remainder
    rem = np.zeros(ncls + 1, dtype=np.int64)
    wt = np.zeros(ncls + 1, dtype=np.float64)
    i = 0
    rem[0] = hand_size
    wt[0] = 1.0
    cnt[0] = -1
    while i >= 0:
        cnt[i] += 1
        if cnt[i] > rem[i] or cnt[i] > sizes[i]:
            i -= 1
            continue
        rem[i + 1] = rem[i] - cnt[i]
        wt[i + 1] = wt[i] * bt[i, cnt[i]]
        if i == ncls - 2:
            last = rem[i + 1]
            if last <= sizes[ncls - 1]:
                cnt[ncls - 1] = last
                w = wt[i + 1] * bt[ncls - 1, last]
                # classes: 0 joker, 1 two, 2 threes, 3.. ranks 4..14
                h[0] = cnt[0]
                h[1] = cnt[1]
                for j in range(3, ncls):
                    h[j + 1] = cnt[j]
                if max_initial_value(h, maxw, w7) >= req:
                    prob += w
            continue
        i += 1
        cnt[i] = -1
    return prob / denom
