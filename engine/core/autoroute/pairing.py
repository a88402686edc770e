"""A train alone that earns the sum of its stops: routes as two arms from a station, paired by bitsets."""

from __future__ import annotations

from .candidates import Candidate, Pricing
from .graph import Link, RouteGraph
from .trains import UNLIMITED, TrainSpec

# An arm: value, counted stops, stops, track, tiles, links, end node, whether it ends at a station.
Arm = tuple[int, int, int, int, int, tuple[int, ...], int, int]
Step = tuple[int, int, int, int, int, int, int, int, bool]


# Arms listed from one station before pairing gives way to the route walk: an unlimited train (1822's E) on a
# late board has millions of arms, and listing them has no deadline, while the walk checks one.
ARM_CAP = 50_000


class _TooManyArms(Exception):
    pass


def _arms(a: int, hexbit: int, room: int, steps_from: list[list[Step]]) -> list[Arm]:
    """Every arm from station ``a``: a simple path that never meets a lower-numbered station, by value.

    Raises:
        _TooManyArms: past ``ARM_CAP`` arms.
    """
    arms: list[Arm] = [(0, 0, 0, 0, 0, (), a, 1)]
    path: list[int] = []

    def grow(i: int, val: int, counted: int, stops: int, used: int, hexes: int) -> None:
        for j, m, li, hb, hj, w, tk, vj, pj in steps_from[i]:
            if j == a or stops >> j & 1 or used & m or (tk and j < a) or hb & hexes:
                continue
            hb |= hexes
            if hj & hb:
                continue
            c = counted + w
            if c > room:
                continue
            if len(arms) >= ARM_CAP:
                raise _TooManyArms
            path.append(li)
            arms.append((val + vj, c, stops | (1 << j), used | m, (hb | hj) & ~hexbit, tuple(path), j, tk))
            if pj:
                grow(j, val + vj, c, stops | (1 << j), used | m, hb | hj)
            path.pop()

    grow(a, 0, 0, 0, 0, hexbit)
    arms.sort(key=lambda arm: -arm[0])
    return arms


class _ArmTable:
    """The arms of one station with, for each stop, link, tile and count, the bitset of the arms using it."""

    def __init__(self, arms: list[Arm], links: list[Link], room: int, through: bool, stations_only: bool) -> None:
        self.arms = arms
        self.room = room
        self.through = through
        width = (len(arms) + 7) // 8
        by_stop: dict[int, bytearray] = {}
        by_link: dict[int, bytearray] = {}
        by_tile: dict[int, bytearray] = {}
        by_count: dict[int, bytearray] = {}
        ends_ok = bytearray(width)
        self.empty = 0
        for k, (_v, c, stops, _used, tiles, path_k, _end, tk) in enumerate(arms):
            byte, bit = k >> 3, 1 << (k & 7)
            for table, mask in ((by_stop, stops), (by_tile, tiles)):
                while mask:
                    low = mask & -mask
                    table.setdefault(low, bytearray(width))[byte] |= bit
                    mask ^= low
            for li in path_k:
                by_link.setdefault(li, bytearray(width))[byte] |= bit
            by_count.setdefault(c, bytearray(width))[byte] |= bit
            if tk or not stations_only:
                ends_ok[byte] |= bit
            if not path_k:
                self.empty = 1 << k
        self.stop_sets = {b: int.from_bytes(v, "little") for b, v in by_stop.items()}
        self.tile_sets = {b: int.from_bytes(v, "little") for b, v in by_tile.items()}
        link_sets = {li: int.from_bytes(v, "little") for li, v in by_link.items()}
        self.meets: dict[int, int] = {}
        for li in link_sets:
            acc = 0
            for other, arms_using in link_sets.items():
                if links[other].mask & links[li].mask:
                    acc |= arms_using
            self.meets[li] = acc
        self.counts = sorted(by_count)
        self.upto: dict[int, int] = {}
        acc = 0
        for c in self.counts:
            acc |= int.from_bytes(by_count[c], "little")
            self.upto[c] = acc
        self.valid = int.from_bytes(ends_ok, "little")

    def partners(self, k: int) -> int:
        """The bitset of the arms that make a legal route with arm ``k``."""
        _v, c, stops, _used, tiles, path_k, _end, _tk = self.arms[k]
        fits = max((x for x in self.counts if x <= self.room - c), default=None)
        if fits is None:
            return 0
        ok = self.upto[fits] & self.valid & ~(1 << k)
        if path_k and not self.through:
            ok &= self.empty  # the station cannot be passed through: the route ends there
        conf = 0
        for table, mask in ((self.stop_sets, stops), (self.tile_sets, tiles)):
            while mask:
                low = mask & -mask
                conf |= table[low]
                mask ^= low
        for li in path_k:
            conf |= self.meets[li]
        return ok & ~conf


def _alone(graph: RouteGraph, spec: TrainSpec, pricing: Pricing, value: list[int], weight: list[int],
           steps_from: list[list[Step]]) -> list[Candidate]:
    """The routes of a train that runs alone and earns the sum of its stops: the best one, and with a
    set-level bonus every one within ``set_bound`` of it.

    A route is two *arms* from its first station (its lowest-numbered one) that share no stop, track or
    tile; every arm is listed once, and the best partner of an arm is the lowest set bit of a bitset (arms
    in value order, less those that meet it), instead of walking every route.
    """
    nodes = graph.nodes
    limit = UNLIMITED if spec.limit is None else spec.limit
    slack = pricing.set_bound
    best = -UNLIMITED
    pairs: list[tuple[int, Arm, Arm]] = []
    for a, node in enumerate(nodes):
        if not node.token or weight[a] > limit:
            continue
        room = limit - weight[a]
        table = _ArmTable(_arms(a, node.hexbit, room, steps_from), graph.links, room, node.passable,
                          spec.stations_only)
        arms = table.arms
        top = arms[0][0]
        va = value[a]
        for k in range(len(arms)):
            if not table.valid >> k & 1:
                continue
            if arms[k][0] + top + va < best - slack or (not slack and arms[k][0] + top + va <= best):
                break
            ok = table.partners(k)
            while ok:
                low = ok & -ok
                j = low.bit_length() - 1
                total = arms[k][0] + arms[j][0] + va
                if total < best - slack:
                    break
                ok ^= low
                pairs.append((total, arms[k], arms[j]))
                best = max(best, total)
                if not slack:
                    break
    found: dict[int, tuple[int, int, tuple[int, ...]]] = {}
    for total, arm1, arm2 in pairs:
        if total < best - slack or total <= 0:
            continue
        mask = arm1[3] | arm2[3]
        got = found.get(mask)
        if got is None or got[0] < total:
            found[mask] = (total, arm1[6], (*reversed(arm1[5]), *arm2[5]))
    mult = spec.multiplier
    out = [Candidate(total * mult, mask, start, path_links, spec.name)
           for mask, (total, start, path_links) in found.items()]
    out.sort(key=lambda c: -c.value)
    return out
