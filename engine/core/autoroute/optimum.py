"""The optimal routes of a company: graph, candidates, combination, and the answer (:class:`Solution`)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .candidates import Candidate, Deadline, Pricing, PricingRules, engine_pricing, pricing_for
from .combine import _Combiner
from .graph import RouteGraph, build_graph
from .trains import CUT_SHORT, NodeRef, RouteRules, TrainSpec, train_spec
from .validate import route_value
from .walk import enumerate_shared, walk_key

if TYPE_CHECKING:
    from ..entities import Corporation, Train


@dataclass(slots=True)
class Solution:
    total: int
    proven: bool
    routes: list[tuple[Train, Candidate]]  # trains that run, with their routes
    graph: RouteGraph
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)

    def stops(self, cand: Candidate) -> list[NodeRef]:
        return [self.graph.nodes[k].ref for k in cand.nodes(self.graph)]

    def connections(self, cand: Candidate) -> list[list[str]]:
        """The route as 18xx.games ``connections``: one hex chain per leg, from stop to stop."""
        if cand.local:
            return [["local", self.graph.nodes[cand.start].ref[0]]]
        out: list[list[str]] = []
        cur = cand.start
        for li in cand.links:
            link = self.graph.links[li]
            if link.a == cur:
                out.append(list(link.hexes))
                cur = link.b
            else:
                out.append(list(reversed(link.hexes)))
                cur = link.a
        return out

    def action_routes(self) -> list[dict[str, Any]]:
        """The ``routes`` of a run_routes action (the engine prices them itself)."""
        out = []
        for train, cand in self.routes:
            nodes = [f"{h}-{n}" for h, n in self.stops(cand)]
            out.append({"train": train.id, "connections": self.connections(cand), "nodes": nodes})
        return out

    def describe(self) -> list[dict[str, Any]]:
        return [{"train": t.id, "revenue": c.value, "stops": ["-".join(map(str, s)) for s in self.stops(c)],
                 "connections": self.connections(c)} for t, c in self.routes]


# The search work ``run auto`` and every playout may spend (Deadline checks, 10-30 ms each): about 2 s, and the
# same answer under any load, so that playouts, replays and digests are reproducible.
WORK_BUDGET = 150


def solve(game: PricingRules, corp: Corporation, trains: Sequence[Train] | None = None,
          time_budget: float | None = 5.0, work_budget: int | None = None) -> Solution:
    """The routes with the maximum total revenue for ``corp``'s trains (all of them by default).

    ``proven`` is False only when ``time_budget`` seconds or ``work_budget`` checks ran out first; the best found is
    returned.
    """
    started = time.perf_counter()
    deadline = Deadline(time_budget, work_budget)
    run = list(game.route_trains(corp) if trains is None else trains)
    graph = build_graph(game, corp)
    pricing = pricing_for(game, graph)
    sol = _solve(game, graph, run, pricing, deadline, started)
    if pricing.route_hook is None and pricing.set_bonus is None and pricing.verify and not _engine_agrees(game, sol):
        # The title's fast bonus rules disagree with its route_bonus: the engine's word is final.
        sol = _solve(game, graph, run, engine_pricing(game), deadline, started)
    sol.seconds = time.perf_counter() - started
    return sol


def _engine_agrees(game: RouteRules, sol: Solution) -> bool:
    return all(route_value(game, sol.stops(cand), train_spec(game, train)) == cand.value for train, cand in sol.routes)


def _drop_hopeless(by_spec: dict[TrainSpec, list[Candidate]], specs: list[TrainSpec],
                   set_bound: int = 0, exclusive: int = -1) -> dict[TrainSpec, list[Candidate]]:
    """Each kind's candidates without those that cannot be part of a better set than a greedy one.

    A greedy set (each train in ``specs`` order takes its best route free of the track taken before) is worth
    ``low``. A route worth ``v`` for a train is part of sets worth at most ``v`` plus the best route of every
    other train and the set-level allowance, so below ``low`` minus those it is hopeless. The greedy routes
    themselves stay.
    """
    tops = {spec: (cands[0].value if cands else 0) for spec, cands in by_spec.items()}
    used: dict[str, int] = {}
    taken: dict[TrainSpec, int] = {}
    low = 0
    for spec in specs:
        mask = used.get(spec.group, 0)
        cands = by_spec[spec]
        for k in range(taken.get(spec, 0), len(cands)):
            cand = cands[k]
            if not cand.mask & mask:
                used[spec.group] = mask | (cand.mask & exclusive)
                low += cand.value
                taken[spec] = k + 1
                break
    everything = sum(tops[spec] for spec in specs)
    out = {}
    for spec, cands in by_spec.items():
        floor = low - (everything - tops[spec]) - set_bound
        keep = len(cands)
        while keep and cands[keep - 1].value < floor:
            keep -= 1
        out[spec] = cands[:keep]
    return out


def _solve(game: RouteRules, graph: RouteGraph, run: list[Train], pricing: Pricing, deadline: Deadline,
           started: float) -> Solution:
    t_graph = time.perf_counter() - started
    specs = [train_spec(game, t) for t in run]
    by_spec: dict[TrainSpec, list[Candidate]] = {}
    complete = True
    kinds: dict[tuple[frozenset[str], frozenset[str], bool], list[TrainSpec]] = {}
    for spec in specs:
        same = kinds.setdefault(walk_key(spec), [])
        if spec not in same:
            same.append(spec)
    # A train whose group holds no other train shares track with none: its routes that cannot beat its best one
    # by more than the set-level allowance are never part of a better set, so its walk is bounded as if alone.
    groups = [s.group for s in specs]
    for same in kinds.values():
        lists, done = enumerate_shared(graph, same, pricing, deadline, [run[specs.index(s)] for s in same],
                                       alone=len(run) == 1,
                                       bound=len(same) == 1 and groups.count(same[0].group) == 1)
        by_spec.update(zip(same, lists, strict=True))
        complete = complete and done
    t_enum = time.perf_counter() - started - t_graph
    # Most valuable trains first: they decide most. Identical trains sit next to each other.
    order = sorted(range(len(run)), key=lambda i: (-(by_spec[specs[i]][0].value if by_spec[specs[i]] else 0),
                                                    specs[i].name, run[i].id))
    if len(run) > 1:
        by_spec = _drop_hopeless(by_spec, [specs[i] for i in order], pricing.set_bound, graph.exclusive())
    if not complete:
        # Out of time: the answer is not proven anyway; the combination gets the best routes listed so far
        # only, so that it ends soon after the deadline.
        by_spec = {spec: cands[:CUT_SHORT] for spec, cands in by_spec.items()}
    lists = [by_spec[specs[i]] for i in order]
    combiner = _Combiner(lists, [specs[i] for i in order], deadline, pricing.set_bound, pricing.set_bonus,
                         graph.links, graph.exclusive())
    total, choice = combiner.solve() if run else (0, [])
    routes = [(run[order[pos]], lists[pos][k]) for pos, k in enumerate(choice) if k >= 0]
    routes.sort(key=lambda r: run.index(r[0]))
    stats = {"nodes": len(graph.nodes), "links": len(graph.links), "units": len(graph.units),
             "candidates": {s.name: len(c) for s, c in by_spec.items()}, "bb_nodes": combiner.nodes_visited,
             "graph_s": round(t_graph, 4), "enum_s": round(t_enum, 4)}
    return Solution(total, complete and not combiner.timed_out, routes, graph,
                    time.perf_counter() - started, stats)


def best_routes_for(game: PricingRules, corp: Corporation, time_budget: float | None = None,
                    work_budget: int | None = WORK_BUDGET) -> list[dict[str, Any]]:
    """The optimal routes for the company's trains as run_routes ``routes`` data (the bot's ``run auto``, and every
    playout's run): bounded by search work, not wall time, so the answer never depends on the machine's load."""
    return solve(game, corp, time_budget=time_budget, work_budget=work_budget).action_routes()
