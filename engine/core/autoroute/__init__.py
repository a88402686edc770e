"""Optimal routes for a company's trains: the maximum total revenue, proven, and route validation.

The package's modules: ``trains`` (what the finder asks of a game, :class:`TrainSpec`), ``graph`` (the route
graph), ``candidates`` (pricing, the candidate record, the deadline), ``walk`` (listing candidates), ``pairing``
(a train alone: arms paired by bitsets), ``combine`` (branch and bound over trains), ``optimum`` (the answer) and
``validate`` (routes entered by players).

Rules (1882 §11.1 and §11.5, and the shared 18xx route rules every title starts from):

* a route visits at least two stops, one of them a city holding the company's station (CN: a neutral one);
* it visits no stop (city, town, off-board) twice and never uses a track segment twice;
* off-boards only end a route; cities full of other companies' tokens cannot be passed through (neutral
  stations never block);
* a train counts at most ``distance`` stops, except free stops (1882's fishing exit, ``hex.optional_node``);
  D trains are unlimited;
* the trains of a company never share track: a hexside (or a node-to-node path inside a hex) belongs to
  one train at most, so two paths that fork at a hex edge conflict as the rules require.

The search (see ``shared/reference/routes.md``):

1. **Graph.** The track is reduced to revenue centres joined by *links*: maximal chains of plain track
   between two nodes, each with a bitmask (a Python int) of the track units it uses and its hex chain.
2. **Candidates.** For each distinct train kind (kinds that weigh stops alike share one walk), a depth-first
   search lists every legal route once, from its lowest-numbered station outwards in two arms, deduplicated
   by track mask (equal masks visit the same stops), priced by the stop values plus route-level bonuses,
   sorted by value. A route is dropped when the route without an end stop is legal and pays as much (an
   express train's long routes mostly), and, with several trains, when even the best routes of the other
   trains cannot lift it over a greedy set. A train alone in its group walks bounded: a path is cut when the
   stops it can still reach cannot beat the best route of any signature it may end with, and when the walk
   meets a path state it met before (same ends, stops, tiles, first link and the used track a later link may
   meet), which can add nothing (1822's E trains on rich boards: many paths through the same stops).
3. **Combination.** Branch and bound over trains: candidates in value order, and two bounds on what the
   remaining trains can add: the exact optimum of those trains on their own (solved first, last train
   upwards), and each one's best candidates still compatible with the track in use. Each train's
   candidates are a bitset, with for every link the bitset of those whose track meets it, so the compatible
   ones are a big-int expression and the best of them its lowest set bit. Identical trains take candidates
   in increasing index order. A deadline makes it anytime: the best found is returned, flagged
   ``proven=False``.

The values are the engine's: ``board.node_revenue`` per stop plus ``game.route_bonus`` per candidate, the
same code that prices the routes players enter (a title may supply faster equivalent rules, see
:class:`Pricing`).

Extension points for later titles are :class:`TrainSpec` (free stop kinds for + trains and Pullmans,
unpaid stop kinds for 1828's 8E, express trains that earn their best ``limit`` of any number of stops, a
revenue multiplier for 3+D, track-sharing groups such as 1822 E trains) and :class:`Pricing` (route-level
bonuses; set-level bonuses with an optimistic bound used while searching and exact evaluation at the
leaves). :meth:`TrainSpec.earnings` prices a route's stops for the finder and for routes typed by hand
alike (``Game.route_revenue``), so the two can never disagree.

Limits, none of which 1882 meets: a junction tile centre ("j") is one unit of track, so two trains may
not cross there; a node-to-node path inside one hex cannot be written as 18xx.games ``connections``.
"""

from .candidates import BonusRule, Candidate, Deadline, Pricing, engine_pricing, pricing_for
from .graph import Link, Node, RouteGraph, build_graph, hexside_unit, junction_unit, node_is_token, path_unit
from .optimum import WORK_BUDGET, Solution, best_routes_for, solve
from .pairing import ARM_CAP
from .trains import CUT_SHORT, ORDINARY, UNLIMITED, NodeRef, RouteRules, TrainSpec, Unit, train_spec
from .validate import TracedRoute, route_price, route_value, stop_earnings, trace_route, validate_route, validate_routes
from .walk import enumerate_candidates, enumerate_shared, walk_key

__all__ = [
    "ARM_CAP",
    "CUT_SHORT",
    "ORDINARY",
    "UNLIMITED",
    "WORK_BUDGET",
    "BonusRule",
    "Candidate",
    "Deadline",
    "Link",
    "Node",
    "NodeRef",
    "Pricing",
    "RouteGraph",
    "RouteRules",
    "Solution",
    "TracedRoute",
    "TrainSpec",
    "Unit",
    "best_routes_for",
    "build_graph",
    "engine_pricing",
    "enumerate_candidates",
    "enumerate_shared",
    "hexside_unit",
    "junction_unit",
    "node_is_token",
    "path_unit",
    "pricing_for",
    "route_price",
    "route_value",
    "solve",
    "stop_earnings",
    "trace_route",
    "train_spec",
    "validate_route",
    "validate_routes",
    "walk_key",
]
