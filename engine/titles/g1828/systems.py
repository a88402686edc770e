"""1828's systems (rules 7.5): the company two merged public companies become, with their cash, trains (each
member's in its own shell), stations, privates and a coal marker; its price, its floating and its members'
closing."""

from __future__ import annotations

from ...core import events as ev
from ...core.entities import Corporation, Token, pay
from ...core.game_setup import issue_certificates
from . import stations
from .market import share_price_of, system_market_price
from .shells import Shell
from .state import Game1828


def create_system(game: Game1828, corps: list[Corporation]) -> Corporation:
    """The system of two companies (rules 7.5.2): their cash, trains (each company's in its own shell),
    stations, privates and coal marker; where both had a station in one city, a blocking marker."""
    merger, target = corps
    data = dict(merger.data)
    sym = f"{merger.sym}-{target.sym}"
    data.update(sym=sym, kind="system", entity_type="system", tokens=[], float_percent=50,
                homes=[h for h in (merger.home, target.home) if h])
    data.pop("home", None)
    data.pop("home_city", None)
    system = Corporation(data)
    system.full_name = merger.full_name
    game.corporations[sym] = system
    issue_certificates(system)
    for share in system.shares:
        ev.emit(ev.ShareCreated(share.id, sym, share.percent, system.party))
    game.shells[sym] = []
    used: list[Token] = []
    unused: list[Token] = []
    for corp in corps:
        _transfer_to_system(game, corp, system, used, unused)
    if system.trains:
        # 18xx.games hands the members' trains over as purchases by the system, which closes both members'
        # $250 privates as a bought train would.
        game.close_on_train_bought(system)
    system.tokens = sorted(used, key=lambda t: t.price) + sorted(unused, key=lambda t: t.price)
    stations.block_shared_cities(game, system)
    if system.markers.count("coal") > 1:
        system.markers = ["coal"]
        game.coal_on_fields += 1
        game.log(f"{sym} cannot have two coal markers, returning one to Virginia Coalfields")
    cells = [game.market.location[c.sym] for c in corps]
    game.shares.set_par(system, system_market_price(game, cells))
    game.track.board_changed()
    game.log(f"Merging {target.sym} into {merger.sym}. The {merger.sym} system receives "
             f"{game.format_money(system.cash)} cash, trains: {', '.join(t.name for t in system.trains) or 'none'}"
             f" and tokens ({len(system.tokens)}). New share price is "
             f"{game.format_money(share_price_of(game, system))}")
    return system


def _transfer_to_system(game: Game1828, corp: Corporation, system: Corporation, used: list[Token],
                        unused: list[Token]) -> None:
    if corp.cash:
        pay(corp, system, corp.cash, ev.Why.MERGER)
    for token in corp.tokens:
        new = Token(system.sym, token.price)
        if token.used and token.hex is not None:
            hx = game.board.hexes[token.hex]
            hx.tile.tokens[token.node][token.slot] = system.sym
            ev.emit(ev.StationChanged(hx.id, token.node, token.slot, corp.sym, system.sym))
            new.used, new.hex, new.node, new.slot = True, token.hex, token.node, token.slot
            used.append(new)
        else:
            unused.append(new)
        token.used, token.hex, token.node, token.slot = False, None, -1, -1
    corp.tokens = []
    for company in list(corp.companies):
        corp.companies.remove(company)
        company.owner = system
        system.companies.append(company)
        ev.emit(ev.PrivateMoved(company.sym, corp.party, system.party))
    system.markers.extend(corp.markers)
    corp.markers = []
    shell = Shell(corp.sym)
    for train in list(corp.trains):
        corp.trains.remove(train)
        train.owner = system
        system.trains.append(train)
        shell.trains.append(train)
        ev.emit(ev.TrainMoved(train.id, train.name, corp.party, system.party, ev.TrainHow.HANDED))
    game.shells[system.sym].append(shell)


def check_system_floats(game: Game1828) -> None:
    """A system has floated once at most four of its shares are left in its IPO (its treasury share aside);
    it never unfloats (18xx.games)."""
    for sym in game.shells:  # every system has its shells from its creation on
        corp = game.corporations[sym]
        if not corp.floated and not corp.closed and corp.ipo_percent() <= 40:
            game.round.forget()  # after the action (action_processed): what the steps answered no longer holds
            corp.floated = True


def finish_system(game: Game1828, system: Corporation, merger: Corporation, target: Corporation) -> None:
    """Closes the merger: its treasury (see below) and its two companies; the system's and the merging companies'
    floats are settled before (merger.check_merging_floats)."""
    # 18xx.games resets the treasury of a system whose members had not both floated, but by then it has moved
    # their whole IPOs into the exchange, so it counts both as floated and the reset never happens.
    if not merger.floated or not target.floated:
        pay(system, game.bank, system.cash, ev.Why.MERGER)
        if system.floated:
            capital = share_price_of(game, system) * 10
            game.bank.spend(capital, system, ev.Why.CAPITAL)
            game.log(f"Setting {system.sym}'s treasury to 10 times market price")
        else:
            game.log(f"{system.sym} not yet floated, discarding treasury")
    for corp in (merger, target):
        close_member(game, corp)


def close_member(game: Game1828, corp: Corporation) -> None:
    """A merged company closes: its certificates go back to it, its market marker leaves."""
    for holder in game._holders():
        for share in [s for s in holder.shares if s.corp == corp.sym]:
            game.shares.transfer_share(share, corp)
    game.market.remove(corp.sym)
    corp.closed = True
    corp.owner = None
    ev.emit(ev.CompanyClosed(corp.sym, "merger"))
    game.track.board_changed()
