"""Majors taking over minors: which minors a major may acquire, for money or shares, and what happens to the
minor's treasury, trains, privates and station.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import events as ev
from ...core.entities import Corporation, CorporationKind, Token, pay
from .bidboxes import bidbox_minors
from .state import phase_status
from .stations import move_exchange_token, place_pending_token, remove_minor_station, remove_station
from .turn_order import turns_operated

if TYPE_CHECKING:
    from .state import Game1822


def potential_minors(game: Game1822, major: Corporation) -> list[Corporation]:
    out = [c for c in game.corporations.values() if c.kind is CorporationKind.MINOR and c.floated and not c.closed
           and turns_operated(game, c) > 1 and minor_pay_choices(game, major, c)]
    if "can_acquire_minor_bidbox" in phase_status(game):
        out += [game.corporations[c.sym[1:]] for c in bidbox_minors(game)
                if major.cash >= int(game.bidding["minor_box_price"])]
    return out


def minor_connected(game: Game1822, major: Corporation, minor: Corporation) -> bool:
    if minor.floated and minor.tokens[0].used:
        token = minor.tokens[0]
        cities = {(str(token.hex), token.node)}
    elif minor.home is None:
        return False
    else:
        hx = game.board.hexes[minor.home]
        if minor.home_city is not None:
            cities = {(hx.id, hx.tile.tdef.cities[minor.home_city])}
        else:
            cities = {(hx.id, n) for n in hx.tile.tokens}
    return game.track.any_node(major, lambda h, n: (h, n) in cities)


def minor_pay_choices(game: Game1822, major: Corporation, minor: Corporation) -> list[str]:
    if not minor.floated:
        return ["money"] if major.cash >= int(game.bidding["minor_box_price"]) else []
    owner = minor.owner
    worth = game.market.location[minor.sym].price * 2
    price = game.market.location[major.sym].price
    out = []
    if major.cash >= worth:
        out.append("money")
    ipo = len([s for s in major.shares if not s.president])
    for n, name in ((1, "one_share"), (2, "two_shares")):
        if ipo < n:
            continue
        if n == 2 and owner is not None and game.num_certs(owner) >= game.cert_limit:
            cell = game.market.location[major.sym]
            if cell.zone != "yellow":
                continue
        diff = worth - price * n
        if diff < 0 and owner is not None and -diff > owner.cash:
            continue
        if diff > 0 and diff > major.cash:
            continue
        out.append(name)
    return out


def acquire_minor(game: Game1822, major: Corporation, minor: Corporation, shares: int, token_choice: str) -> None:
    owner = minor.owner
    if minor.floated and owner is not None:
        diff = game.market.location[minor.sym].price * 2 - game.market.location[major.sym].price * shares
        if diff < 0:
            pay(owner, major, -diff, ev.Why.MERGER)
        elif diff > 0:
            pay(major, owner, diff, ev.Why.MERGER)
        for _ in range(shares):
            share = next(s for s in major.shares if not s.president)
            game.shares.transfer_share(share, owner)
        treasury = minor.cash
        pay(minor, major, minor.cash, ev.Why.MERGER)
        companies = tuple(c.sym for c in minor.companies)
        for comp in list(minor.companies):
            minor.companies.remove(comp)
            comp.owner = major
            major.companies.append(comp)
            ev.emit(ev.PrivateMoved(comp.sym, minor.party, major.party))
        trains = tuple(t.name for t in minor.trains)
        for train in list(minor.trains):
            minor.trains.remove(train)
            train.owner = major
            major.trains.append(train)
            ev.emit(ev.TrainMoved(train.id, train.name, minor.party, major.party, ev.TrainHow.HANDED))
        token = minor.tokens[0]
        hx = game.board.hexes[token.hex] if token.hex else None
        if token_choice == "replace" and hx is not None:
            if hx.tile.holds_station(token.node, major.sym):
                move_exchange_token(game, major)
                remove_minor_station(game, minor, token)
            else:
                game.exchange_tokens[major.sym] -= 1
                new = Token(major.sym, 0, used=True, hex=hx.id, node=token.node, slot=token.slot)
                ev.emit(ev.StationChanged(hx.id, token.node, token.slot, hx.tile.tokens[token.node][token.slot],
                                          major.sym))
                hx.tile.tokens[token.node][token.slot] = major.sym
                major.tokens.append(new)
                token.used, token.hex = False, None
        elif token_choice == "exchange":
            move_exchange_token(game, major)
            remove_minor_station(game, minor, token)
        else:
            remove_station(game, minor, token)
        game.log(f"{major.sym} acquires {minor.sym}")
        ev.emit(ev.Acquired(major.sym, minor.sym, treasury, trains, companies,
                            (f"{hx.id}: {token_choice}",) if hx is not None else ()))
    else:
        pay(major, game.bank, int(game.bidding["minor_box_price"]), ev.Why.MERGER)
        ev.emit(ev.Acquired(major.sym, minor.sym, 0, (), (), (token_choice,)))
        # The minor's home reservation ends first: a replacing station takes that space (18xx.games).
        close_corporation(game, minor)
        if token_choice == "exchange":
            move_exchange_token(game, major)
        elif token_choice == "replace":
            _replace_bidbox_minor(game, major, minor)
        box = game.companies.pop(f"M{minor.sym}") if f"M{minor.sym}" in game.companies else None
        if box is not None:
            box.owner = None
        game.log(f"{major.sym} acquires {minor.sym} from the bid box")
    if not minor.closed:
        close_corporation(game, minor)
    game.track.board_changed()


def _replace_bidbox_minor(game: Game1822, major: Corporation, minor: Corporation) -> None:
    """A minor bought from a bid box leaves the major a station in its home city (minor 14: in a London city
    of the major's choice)."""
    assert minor.home is not None
    hx = game.board.hexes[minor.home]
    if minor.home_city is None and len(hx.tile.tdef.cities) > 1:
        game.exchange_tokens[major.sym] -= 1
        token = Token(major.sym, int(game.rules["minor_14_station_price"]))
        major.tokens.append(token)
        game.pending_tokens.append((major, [hx.id], token))
        return
    node = hx.tile.tdef.cities[minor.home_city or 0]
    if hx.tile.holds_station(node, major.sym):
        move_exchange_token(game, major)
        return
    game.exchange_tokens[major.sym] -= 1
    token = Token(major.sym, 0)
    major.tokens.append(token)
    place_pending_token(game, major, token, hx, node)


def close_corporation(game: Game1822, corp: Corporation) -> None:
    corp.closed = True
    ev.emit(ev.CompanyClosed(corp.sym, "acquired"))
    for token in corp.tokens:
        remove_station(game, corp, token)
    for holder in [*game.players, game.pool, game.tax_haven]:
        for share in holder.shares_of(corp.sym):
            game.shares.transfer_share(share, corp)  # its certificates leave play with it
    game.market.remove(corp.sym)
    corp.owner = None
    game.track.board_changed()
