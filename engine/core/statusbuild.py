"""The status snapshot (:class:`engine.core.views.StatusView`): players, companies, privates, bank, trains, phase and
who must act, read once from a live game into frozen dataclasses (as :mod:`engine.core.viewbuild` does for the board
and the market).

>>> import engine
>>> status_view(engine.new_game("1882", [(1, "Ann"), (2, "Ben"), (3, "Cy")])).round_name
'Auction Round'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .entities import Corporation, Player
from .game_end import end_reason_text
from .query import actors, high_bids
from .rounds import OperatingRound
from .viewbuild import view_title
from .views import CompanyStatus, CorporationStatus, PlayerStatus, StatusView, TrainStock

if TYPE_CHECKING:
    from .game import Game

__all__ = ["bank_unlimited", "status_view"]


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _phase_notes(game: Game) -> tuple[str, ...]:
    phase = game.phase
    minors = f" (minors {phase['minor_train_limit']})" if "minor_train_limit" in phase else ""
    notes = [f"train limit {phase['train_limit']}{minors}"]
    tiles = [str(c) for c in phase["tiles"]]
    notes.append(f"{_and(tiles)} tiles" if tiles else "no tiles")
    n = int(phase["operating_rounds"])
    notes.append(f"{n} OR{'s' if n != 1 else ''} per set")
    if any(h.revenue for h in game.board.hexes.values()):
        notes.append(f"off-boards pay {game.phase_colour()} values")
    if phase.get("can_buy_companies") and any(game.runs.company_for_sale(c) for c in game.companies.values()):
        notes.append("companies may buy privates")
    return tuple(notes)


def _operated_this_round(game: Game) -> set[str]:
    rnd = game.round
    if not isinstance(rnd, OperatingRound):
        return set()
    done = rnd.entities if rnd.done or game.finished else rnd.entities[: rnd.entity_index]
    return {c.sym for c in done}


def _player(game: Game, p: Player, acting: list[Any]) -> PlayerStatus:
    percents: dict[str, int] = {}
    for s in p.shares:
        percents[s.corp] = percents.get(s.corp, 0) + s.percent
    order = list(game.corporations)
    shares = tuple(sorted(percents.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99))
    return PlayerStatus(
        id=str(p.id), name=p.name, cash=p.cash, shares=shares,
        privates=tuple(c.sym for c in p.companies if not c.closed),
        certificates=round(game.num_certs(p)), certificate_limit=int(game.cert_limit),
        value=game.player_value(p), priority=p is game.players[0], acting=p in acting, debt=int(p.debt),
        in_bids=int(game.committed_cash(p)),
    )


def _corporation(game: Game, corp: Corporation, operated: set[str]) -> CorporationStatus:
    own = [t for t in corp.tokens if t.corp == corp.sym and not t.neutral]
    cell = game.market.location.get(corp.sym)
    return CorporationStatus(
        sym=corp.sym, name=corp.full_name,
        president=corp.owner.name if isinstance(corp.owner, Player) else None,
        treasury=corp.cash, trains=tuple(t.name for t in corp.trains),
        tokens_left=sum(1 for t in own if not t.used), tokens_total=len(own),
        share_price=cell.price if cell is not None else None,
        ipo_percent=corp.ipo_percent(), pool_percent=game.pool.percent_of(corp.sym),
        floated=corp.floated, last_revenue=corp.last_revenue,
        colour=corp.colour, text_colour=corp.text_colour,
        privates=tuple(c.sym for c in corp.companies if not c.closed),
        operated=corp.sym in operated,
        token_hexes=tuple(str(t.hex) for t in own if t.used and t.hex is not None),
        token_prices=tuple(int(t.price) for t in own if not t.used),
        kind=corp.kind.value,
        shells=tuple(game.train_groups(corp)),
        loans=int(corp.loans),
        markers=tuple(str(m) for m in corp.markers),
        debt=corp.debt,
    )


def _high_bids(game: Game) -> dict[str, tuple[int, str]]:
    """Per private in an auction, the highest bid and its bidder's name."""
    return {sym: (price, game.describe(who)) for sym, (who, price) in high_bids(game).items()}


def _bid_boxes(game: Game) -> set[str]:
    """The companies in 1822's bid boxes now (titles without bid boxes have none)."""
    return {str(c.sym) for c in game.bidbox_companies()}


def _company(game: Game, comp: Any, bids: dict[str, tuple[int, str]], boxes: set[str]) -> CompanyStatus:
    owner = comp.owner
    holder = owner.name if isinstance(owner, Player) else owner.sym if isinstance(owner, Corporation) else None
    bid = bids.get(comp.sym)
    value = int(game.company_value(comp))
    return CompanyStatus(
        sym=comp.sym, name=comp.name, value=value, revenue=int(comp.revenue), description=comp.desc,
        owner=holder, high_bid=bid[0] if bid else None, high_bidder=bid[1] if bid else None, closed=comp.closed,
        bid_box=comp.sym in boxes,
        in_stack=bool(boxes) and comp.sym not in boxes and holder is None and not comp.closed,
    )


def _train_stock(game: Game) -> tuple[TrainStock, ...]:
    specs = {s["name"]: s for s in game.data()["game"]["trains"]}
    out = []
    for t in game.trains.available_depot_trains():
        unlimited = specs.get(t.name, {}).get("count") == "unlimited"
        left = sum(1 for x in game.depot if x.name == t.name and not x.reserved)
        out.append(TrainStock(t.name, t.price, None if unlimited else left))
    return tuple(out)




def bank_unlimited(game: Game) -> bool:
    """Whether the bank pays without limit: no end of the game waits for it to break (1828)."""
    return not any(t.reason == "bank" for t in game.end_conditions.conditions)


def status_view(game: Game) -> StatusView:
    """Players, companies, bank, trains and phase; who must act now."""
    acting_players = game.acting_players()
    operated = _operated_this_round(game)
    live = [c for c in game.corporations.values() if not c.closed]
    started = sorted((c for c in live if c.sym in game.market.location),
                     key=lambda c: game.market.order_key(c.sym))
    waiting = [c for c in live if c.sym not in game.market.location]
    bids = _high_bids(game)
    boxes = _bid_boxes(game)
    return StatusView(
        title=view_title(game),
        round_name=game.round.name(),
        phase=str(game.phase["name"]),
        phase_notes=_phase_notes(game),
        bank_cash=game.bank.cash,
        players=tuple(_player(game, p, acting_players) for p in game.players),
        corporations=tuple(_corporation(game, c, operated) for c in [*started, *waiting]),
        trains_available=_train_stock(game),
        pool_trains=tuple(t.name for t in game.pool_trains),
        acting=tuple(a.label for a in actors(game)),
        finished=game.finished,
        bank_unlimited=bank_unlimited(game),
        game_end_reason=end_reason_text(game.game_end_reason),
        companies=tuple(_company(game, c, bids, boxes) for c in game.companies.values()),
        currency=game.config.currency,
    )
