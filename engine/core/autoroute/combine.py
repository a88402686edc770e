"""The combination: branch and bound over a company's trains and their candidate routes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .candidates import Candidate, Deadline
from .graph import Link
from .trains import TrainSpec


class _Combiner:
    """Branch and bound over trains with exact suffix bounds.

    Each train's candidates are a bitset in value order (bit k: candidate k), and for every link the set of
    the train's candidates whose track meets that link's is precomputed, so the candidates still compatible
    with the routes chosen so far are one big-int expression and the best of them is the lowest set bit.
    """

    def __init__(self, lists: list[list[Candidate]], specs: list[TrainSpec], deadline: Deadline,
                 set_bound: int = 0, set_bonus: Callable[[list[Candidate]], int] | None = None,
                 links: Sequence[Link] = (), exclusive: int = -1) -> None:
        self.exclusive = exclusive
        self.vals = [[c.value for c in lst] for lst in lists]
        self.cand_links = [[c.links for c in lst] for lst in lists]
        self.cands = lists
        self.n = len(lists)
        self.groups = sorted({s.group for s in specs})
        self.group_of = [self.groups.index(s.group) for s in specs]
        self.same_as_prev = [i > 0 and specs[i] == specs[i - 1] and lists[i] is lists[i - 1]
                             for i in range(self.n)]
        self.full = [(1 << len(lst)) - 1 for lst in lists]
        self.link_list = list(links)
        self.deadline = deadline
        self.set_bound = set_bound
        self.set_bonus = set_bonus
        self.nodes_visited = 0
        self.timed_out = False
        self.meets: list[list[int]] = []
        if self.n > 1:
            cache: dict[int, list[int]] = {}
            for lst in lists:
                got = cache.get(id(lst))
                if got is None:
                    got = cache[id(lst)] = self._meets(lst)
                self.meets.append(got)

    def _meets(self, lst: list[Candidate]) -> list[int]:
        """For each link, the bitset of the candidates whose track shares a unit with it."""
        links = self.link_list
        nl = len(links)
        size = (len(lst) + 7) // 8
        uses = [bytearray(size) for _ in range(nl)]
        for k, cand in enumerate(lst):
            byte = k >> 3
            bit = 1 << (k & 7)
            for li in cand.links:
                uses[li][byte] |= bit
        sets = [int.from_bytes(u, "little") for u in uses]
        out = []
        for a in links:
            acc = 0
            mine = a.mask & self.exclusive
            for li, b in enumerate(links):
                if mine & b.mask:
                    acc |= sets[li]
            out.append(acc)
        return out

    def solve(self) -> tuple[int, list[int]]:
        n = self.n
        bound = [0] * (n + 1)
        best_choice: list[int] = [-1] * n
        best = 0
        for first in range(n - 1, -1, -1):
            value, choice = self._search(first, bound)
            bound[first] = value
            if first == 0:
                best, best_choice = value, choice
        return best, best_choice

    def _search(self, first: int, bound: list[int]) -> tuple[int, list[int]]:
        n = self.n
        vals = self.vals
        cand_links = self.cand_links
        meets = self.meets
        full = self.full
        same = self.same_as_prev
        group_of = self.group_of
        chosen = [-1] * n
        best_choice = [-1] * n
        state = {"best": -1}
        # Greedy incumbent: each train takes its best candidate compatible with those taken before.
        conf = [0] * n
        total = 0
        prev = -1
        for i in range(first, n):
            lo = prev + 1 if same[i] and i > first else 0
            ok = full[i] & ~conf[i]
            ok = ok >> lo << lo
            pick = -1
            if ok:
                pick = (ok & -ok).bit_length() - 1
                total += vals[i][pick]
                self._take(i, pick, conf)
            chosen[i] = pick
            prev = pick if pick >= 0 else len(vals[i])
        state["best"] = self._exact(chosen, first, total)
        best_choice[:] = chosen
        conf = [0] * n
        extra = self.set_bound
        deadline = self.deadline
        counter = [0]
        leaf_shortcut = self.set_bonus is None
        # Trains after i in i's group: their compatible sets shrink when i takes a route.
        later = [[j for j in range(i + 1, n) if group_of[j] == group_of[i]] for i in range(n)]
        tail = [0] * n  # identical trains right after train i
        for i in range(n - 2, -1, -1):
            tail[i] = tail[i + 1] + 1 if same[i + 1] else 0

        def rest_bound(i: int, lo: int) -> int:
            # Each remaining train takes its best candidates compatible with the track already used
            # (identical trains: the best r distinct ones), ignoring conflicts among themselves.
            total = 0
            j = i
            while j < n:
                r = 1
                while j + r < n and same[j + r]:
                    r += 1
                ok = full[j] & ~conf[j]
                if j == i and same[j] and j > first:
                    ok = ok >> lo << lo
                vj = vals[j]
                while r and ok:
                    low = ok & -ok
                    total += vj[low.bit_length() - 1]
                    ok ^= low
                    r -= 1
                j = j + 1
                while j < n and same[j]:
                    j += 1
            return total

        def rec(i: int, acc: int, lo: int) -> None:
            if i == n:
                val = self._exact(chosen, first, acc)
                if val > state["best"]:
                    state["best"] = val
                    best_choice[:] = chosen
                return
            counter[0] += 1
            if deadline.expired or (counter[0] & 1023 == 0 and deadline.check()):
                self.timed_out = True
                return
            if i + 1 < n and acc + extra + rest_bound(i, lo) <= state["best"]:
                return
            vi = vals[i]
            nxt = bound[i + 1] + extra
            start = lo if same[i] and i > first else 0
            ok = full[i] & ~conf[i]
            ok = ok >> start << start
            follows = i + 1 < n and same[i + 1]
            if i + 1 == n and leaf_shortcut:
                # The last train: its best compatible candidate is all it can do.
                if ok:
                    k = (ok & -ok).bit_length() - 1
                    if acc + vi[k] > state["best"]:
                        chosen[i] = k
                        state["best"] = acc + vi[k]
                        best_choice[:] = chosen
                        chosen[i] = -1
                elif acc > state["best"]:
                    state["best"] = acc
                    best_choice[:] = chosen
                return
            after = later[i]
            links_i = cand_links[i]
            # Identical trains after this one take later candidates, worth no more than this one's.
            twins = tail[i]
            beyond = bound[i + 1 + twins] + extra
            while ok:
                low = ok & -ok
                k = low.bit_length() - 1
                v = vi[k]
                if acc + v + min(nxt, v * twins + beyond) <= state["best"]:
                    break
                ok ^= low
                chosen[i] = k
                saved = [conf[j] for j in after]
                for j in after:
                    mj = meets[j]
                    x = conf[j]
                    for li in links_i[k]:
                        x |= mj[li]
                    conf[j] = x
                rec(i + 1, acc + v, k + 1 if follows else 0)
                for j, x in zip(after, saved, strict=True):
                    conf[j] = x
            # This train runs nothing (then neither do identical trains after it).
            if acc + nxt > state["best"]:
                chosen[i] = -1
                rec(i + 1, acc, len(vi))
            chosen[i] = -1

        rec(first, 0, 0)
        self.nodes_visited += counter[0]
        return state["best"], list(best_choice)

    def _take(self, i: int, k: int, conf: list[int]) -> None:
        g = self.group_of[i]
        for j in range(i + 1, self.n):
            if self.group_of[j] == g:
                mj = self.meets[j]
                for li in self.cand_links[i][k]:
                    conf[j] |= mj[li]

    def _exact(self, chosen: list[int], first: int, acc: int) -> int:
        if self.set_bonus is None:
            return acc
        picked = [self.cands[i][k] for i, k in enumerate(chosen) if i >= first and k >= 0]
        return acc + self.set_bonus(picked)
