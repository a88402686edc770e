"""The C&P, 1828's one minor company (rules 13.2): it runs a 2-train from Peterborough, pays half its run to its
owner, and leaves the game when a company buys its private (its station replaced, or a blocking marker) or when
the privates close."""

from __future__ import annotations

from ...core import events as ev
from ...core.actions import Action, opt_whole, text
from ...core.entities import Company, Corporation, pay
from ...core.errors import illegal
from ...core.tiles import TokenKind
from ...core.transfer import BLOCKING_OWNER
from . import stations
from .state import Game1828

CP = "C&P"


def setup_minor(game: Game1828) -> None:
    """The C&P runs the second 2-train, which never rusts and is never for sale, from its Peterborough station
    (18xx.games' reading of rules 13.2's half of a 2-train route)."""
    minor = game.corporations[CP]
    train = [t for t in game.depot if t.name == "2"][1]
    game.depot.remove(train)
    train.rusts_on = None
    train.owner = minor
    minor.trains.append(train)
    hx = game.board[minor.home or ""]
    game.track.place_token(minor, minor.tokens[0], hx, hx.tile.tdef.cities[0], free=True)


def remove_minor(game: Game1828, minor: Corporation, *, block: bool = False) -> None:
    """The minor leaves the game: its cash to the bank, its station gone (or a blocking marker with ``block``),
    its train with it."""
    if minor.cash:
        pay(minor, game.bank, minor.cash, ev.Why.CLOSING)
    for token in minor.tokens:
        if token.used and token.hex is not None:
            hx = game.board.hexes[token.hex]
            slots = hx.tile.tokens[token.node]
            ev.emit(ev.StationChanged(hx.id, token.node, token.slot, slots[token.slot],
                                      BLOCKING_OWNER if block else None))
            if block:
                slots[token.slot] = BLOCKING_OWNER
                hx.tile.kinds[token.node][token.slot] = TokenKind.BLOCKING
                game.log(f"Placing a blocking token on {hx.id}")
            else:
                slots[token.slot] = None
            token.used, token.hex, token.node, token.slot = False, None, -1, -1
    for train in list(minor.trains):
        minor.trains.remove(train)
        train.owner = None
        ev.emit(ev.TrainMoved(train.id, train.name, minor.party, ev.NOBODY, ev.TrainHow.LEFT))
    minor.closed = True
    ev.emit(ev.CompanyClosed(minor.sym))
    game.track.board_changed()


def close_with_privates(game: Game1828) -> None:
    """When the privates close, the C&P leaves a blocking marker in Peterborough."""
    minor = game.corporations.get(CP)
    if minor is not None and not minor.closed:
        remove_minor(game, minor, block=True)


def end_auction_revenue(game: Game1828) -> None:
    """The C&P earns its special revenue only during the auction (rules 6.1)."""
    for company in game.companies.values():
        if company.data.get("minor") and company.owner is not None:
            company.revenue = 0


def half_pay(game: Game1828, minor: Corporation, revenue: int) -> None:
    """The C&P pays half its run to its owner and keeps half (rules 13.2)."""
    game.operated_once.add(minor.sym)
    minor.last_revenue = revenue
    if revenue <= 0:
        return
    kept = revenue // 2
    game.bank.spend(kept, minor, ev.Why.REVENUE)
    parts = []
    if minor.owner is not None:
        parts.append(game.runs.pay_holder(minor.owner, revenue - kept))
    game.runs.dividend_paid(minor, ev.DividendKind.HALF, revenue, parts, kept)
    game.log(f"{minor.sym} pays {game.format_money(revenue - kept)} to its owner and keeps "
             f"{game.format_money(kept)}")


def bought_by_company(game: Game1828, corp: Corporation, company: Company, minor_sym: str) -> None:
    """A company that buys the C&P's private takes its treasury, earns $15 from it and is owed a free station in
    Peterborough; the minor leaves the game."""
    minor = game.corporations[minor_sym]
    if minor.cash:
        game.log(f"{corp.sym} receives {game.format_money(minor.cash)} from {minor.sym}'s treasury")
        pay(minor, corp, minor.cash, ev.Why.MERGER)
    company.revenue = 15
    game.cp_token_owed.add(company.sym)
    remove_minor(game, minor)


def cp_hex(game: Game1828) -> str:
    return str(game.corporations[CP].home)


def token_pending(game: Game1828, company: Company) -> bool:
    """Whether the company that bought ``company`` still places its Peterborough station; when it cannot, a
    blocking marker takes the space."""
    if company.sym not in game.cp_token_owed:
        return False
    corp = company.owner
    if not isinstance(corp, Corporation) or not corp.unused_tokens() or corp.sym in game.tokened_this_round:
        game.cp_token_owed.discard(company.sym)
        game.log(f"{game.describe(corp)} does not have the option to replace {company.sym}'s token")
        stations.place_blocking_token(game, cp_hex(game))
        return False
    return True


def place_token(game: Game1828, company: Company, action: Action) -> None:
    corp = company.owner
    assert isinstance(corp, Corporation)
    hx, node = game.track.city_by_id(text(action, "city"))
    if hx.id != cp_hex(game):
        raise illegal(f"{company.sym}'s station goes in {cp_hex(game)}")
    token = corp.unused_tokens()[0]
    game.track.place_token(corp, token, hx, node, free=True, slot=opt_whole(action, "slot"))
    game.cp_token_owed.discard(company.sym)
    game.tokened_this_round.add(corp.sym)


def pass_token(game: Game1828, company: Company) -> None:
    game.log(f"{game.describe(company.owner)} passes placing a token on {cp_hex(game)}")
    stations.place_blocking_token(game, cp_hex(game))
    game.cp_token_owed.discard(company.sym)
