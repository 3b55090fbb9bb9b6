"""A pairwise covering set whose constraints are learned from an oracle (the combination soak,
soak.py, asks the simulator's own validation): every pair of values of every two options is in
some accepted row, unless no accepted row can hold it.

Option i has values 0..sizes[i]-1, value 0 being the base (the base config's own). A row is a
tuple of value indices; the all-base row must be accepted. `check(row)` returns None for an
accepted row, else the reason (the refusal message).

Rows are built greedily, one at a time (AETG: Cohen et al., "The AETG system", IEEE TSE 1997):
a row starts from an uncovered pair and takes, option by option in a seeded random order, the
value that covers most uncovered pairs with the values already chosen, avoiding the forbidden
tuples learned so far. A refused row is shrunk by delta debugging over its non-base values
(base for the rest) to a minimal set refused for the same reason: that set is a forbidden tuple.
A single value refused alone is retried beside each other option's values; those it is accepted
with rescue it, and it is forbidden beside every other value of the rescuing options (with none,
it is forbidden alone). Each refusal teaches a tuple the row did not contain, so it ends.
"""
import random
import re

from .minimise import ddmin


def signature(reason):
    """The rule a refusal names, without its numbers or origin: refusals of one rule match."""
    first = reason.strip().splitlines()[0] if reason.strip() else ""
    first = re.sub(r"^ssdtlm: error: ", "", first)
    first = re.sub(r"^[^:]*? with --set: |^[^ :]+\.json: ", "", first)
    return re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "N", first)


class Generator:
    """Builds the rows; `rows`, `forbidden` (tuples of (option, value)), `infeasible` (pair ->
    why no accepted row holds it) and `checks` (oracle calls) after run()."""

    def __init__(self, sizes, check, seed=1, names=None, attempts=8, related=None):
        self.sizes = list(sizes)
        self.check = check
        # related(reason): the options a refusal names, and the others of its section (two
        # lists): where the shrinking and the rescue search look first.
        self.related = related or (lambda reason: ([], []))
        self.rng = random.Random(seed)
        self.names = names or [str(i) for i in range(len(sizes))]
        self.attempts = attempts
        self.rows, self.forbidden, self.infeasible = [], [], {}
        self.by_value = {}  # (option, value) -> the forbidden tuples holding it
        self.rescues = {}  # values refused together (base for the rest) -> what rescues them
        self.checks, self.cache = 0, {}
        n = len(sizes)
        self.uncovered = {((i, a), (j, b)) for i in range(n) for j in range(i + 1, n)
                          for a in range(sizes[i]) for b in range(sizes[j])}
        self.total_pairs = len(self.uncovered)

    def ask(self, row):
        row = tuple(row)
        if row not in self.cache:
            self.checks += 1
            self.cache[row] = self.check(row)
        return self.cache[row]

    def with_values(self, values):
        row = [0] * len(self.sizes)
        for i, v in values:
            row[i] = v
        return tuple(row)

    def forbid(self, values):
        t = frozenset(values)
        if any(f <= t for v in t for f in self.by_value.get(v, [])):
            return
        self.forbidden.append(t)
        for v in t:
            self.by_value.setdefault(v, []).append(t)

    def violates(self, row, i, v):
        """Whether giving option i value v completes a forbidden tuple (`row`: a dict)."""
        return any(all(row.get(o) == w for o, w in t if o != i)
                   for t in self.by_value.get((i, v), []))

    def gain(self, row, i, v):
        return sum(((min(i, o), v if i < o else w), (max(i, o), w if i < o else v))
                   in self.uncovered for o, w in row.items())

    def build(self, i, a, j, b):
        """A row holding (i, a) and (j, b) that breaks no known tuple, or None."""
        if self.violates({}, i, a) or self.violates({i: a}, j, b):
            return None
        for _ in range(self.attempts):
            row = {i: a}
            row[j] = b
            order = [o for o in range(len(self.sizes)) if o not in (i, j)]
            self.rng.shuffle(order)
            for o in order:
                values = list(range(self.sizes[o]))
                self.rng.shuffle(values)
                ok = [v for v in values if not self.violates(row, o, v)]
                if not ok:
                    break
                row[o] = max(ok, key=lambda v: self.gain(row, o, v))  # ties: shuffled
            else:
                return tuple(row[o] for o in range(len(self.sizes)))
        return None

    def learn(self, row, reason):
        """The forbidden tuples a refused row teaches."""
        sig = signature(reason)
        changed = [(i, v) for i, v in enumerate(row) if v != 0]

        def refused(values):
            why = self.ask(self.with_values(values))
            return why is not None and signature(why) == sig

        named, section = self.related(reason)
        first = [(i, v) for i, v in changed if i in named or i in section]
        found = ddmin(first if first and refused(first) else changed, refused)
        key = frozenset(found)
        if key in self.rescues:  # refused again beside a rescuer: that combination is out
            rescuers = {o for o, _ in self.rescues[key]}
            self.forbid(found + [(o, row[o]) for o in sorted(rescuers)])
            return
        self.rescue(found)

    def rescue(self, values):
        """Which values make `values` (refused with the base for the rest) valid: a base value
        may be part of the refusal (a cap of 0). A single value is tried beside every other
        option's values, those of the options its refusal names or shares a section with first;
        a value that changes the refusal without ending it is needed too (a cap that then wants
        its section enabled), and the search goes on beside it, up to three such. A set of
        values is tried beside the options its refusal names only, and follows such a chain
        too (TLC with one-shot programming needs a write buffer, then the NAND ordering rules:
        without the chain, TLC and one-shot programming were forbidden together)."""
        single = len(values) == 1
        chain, rescue = [], []
        stuck = set()  # chain options' values tried that left the refusal as it was
        while not rescue and len(chain) < 3:
            reason = self.ask(self.with_values(values + chain))
            named, section = self.related(reason)
            fixes = None
            for scope in ([named + section, range(len(self.sizes))] if single else [named]):
                taken = {o for o, _ in values + chain}
                tries = [(o, w) for o in scope if o not in taken for w in range(1, self.sizes[o])]
                answers = [(t, self.ask(self.with_values(values + chain + [t]))) for t in tries]
                rescue = [t for t, why in answers if why is None]
                fixes = fixes or next((t for t, why in answers
                                       if why is not None and signature(why) != signature(reason)),
                                      None)
                if rescue or fixes:
                    break
            if rescue or fixes is None:
                break
            chain.append(fixes)
            sig = signature(reason)
            stuck |= {t for t, why in answers
                      if t[0] == fixes[0] and why is not None and signature(why) == sig}
        self.rescues[frozenset(values)] = rescue + chain
        if not rescue:
            self.forbid(values)
            return
        # Needed: forbidden beside the values of its option that left the refusal as it was
        # (the base's among them); another that changed it too may be a way of its own (TLC
        # with one-shot programming, where MLC came first).
        for o, _ in chain:
            for w in range(self.sizes[o]):
                if w == 0 or (o, w) in stuck:
                    self.forbid(values + [(o, w)])
        options = sorted({o for o, _ in rescue})
        # Forbidden beside every combination of the rescuing options' other values.
        combos = [[]]
        for o in options:
            others = [w for w in range(self.sizes[o]) if (o, w) not in rescue]
            combos = [c + [(o, w)] for c in combos for w in others]
        for c in combos:
            self.forbid(values + c)

    def run(self, progress=None, limit=None):
        """The rows, all of them or the first `limit` (those covering most pairs)."""
        assert self.ask(self.with_values([])) is None, "the base config itself is refused"
        pairs = sorted(self.uncovered)
        self.rng.shuffle(pairs)
        for pair in pairs:
            if limit is not None and len(self.rows) >= limit:
                break
            while pair in self.uncovered:
                (i, a), (j, b) = pair
                row = self.build(i, a, j, b)
                if row is None:
                    self.uncovered.discard(pair)
                    self.infeasible[pair] = self.why_infeasible(pair)
                    break
                reason = self.ask(row)
                if reason is not None:
                    self.learn(row, reason)
                    continue
                self.rows.append(row)
                self.uncovered -= {((p, row[p]), (q, row[q])) for p in range(len(row))
                                   for q in range(p + 1, len(row))}
                if progress:
                    progress(self)
        return self.rows

    def why_infeasible(self, pair):
        """The learned tuple that rules the pair out, as text, or a note that no row avoided
        the tuples together."""
        for t in self.forbidden:
            if t <= set(pair):
                return " and ".join(f"{self.names[o]}#{v}" for o, v in sorted(t))
        return "no row holding it avoids every forbidden tuple"
