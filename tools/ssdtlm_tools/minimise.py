"""Shrinking a failure (soak.py, pairwise.py): delta debugging over a set of changes, and
bisection over a request count.
"""


def ddmin(items, fails):
    """A 1-minimal sublist of `items` (order kept) for which fails(sublist) holds: removing any
    one element makes it pass. fails(items) must hold. Zeller and Hildebrandt, "Simplifying and
    isolating failure-inducing input", IEEE TSE 2002: try each of n chunks alone, then each
    complement, doubling n when neither fails."""
    items = list(items)
    if fails([]):
        return []
    n = 2
    while len(items) >= 2:
        size = len(items) / n
        chunks = [items[round(i * size):round((i + 1) * size)] for i in range(n)]
        chunks = [c for c in chunks if c]
        for c in chunks:
            if fails(c):
                items, n = c, 2
                break
        else:
            for i in range(len(chunks)):
                rest = [x for j, c in enumerate(chunks) if j != i for x in c]
                if fails(rest):
                    items, n = rest, max(n - 1, 2)
                    break
            else:
                if n >= len(items):
                    break
                n = min(2 * n, len(items))
    return items


def smallest_failing(n, fails):
    """The smallest m in 1..n with fails(m), given fails(n) and that a failing count stays
    failing with more requests (the run's first m requests are those of any longer run)."""
    lo, hi = 1, n
    while lo < hi:
        mid = (lo + hi) // 2
        if fails(mid):
            hi = mid
        else:
            lo = mid + 1
    return hi
