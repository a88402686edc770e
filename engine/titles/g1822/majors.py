"""Majors: starting one from its concession, paying for shares, floating (fully capitalised from phase 5), and
the events that close the concessions and fully capitalise later floats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import events as ev
from ...core.entities import Company, Corporation, CorporationKind, Holder, Player, pay
from ...core.market import Cell
from .state import phase_status

if TYPE_CHECKING:
    from .state import Game1822


def concession_of(game: Game1822, corp: Corporation) -> Company | None:
    """The concession that starts ``corp`` (until concessions close in phase 5)."""
    if corp.data.get("no_concession"):
        return None
    return game.shares.par_exchange(corp)


def can_par(game: Game1822, corp: Corporation, player: Player) -> bool:
    if corp.kind is not CorporationKind.MAJOR or corp.ipoed or corp.closed:
        return False
    status = phase_status(game)
    if "can_convert_concessions" not in status and "can_par" not in status:
        return False
    concession = concession_of(game, corp)
    return concession is None or (not concession.closed and concession.owner is player)


def start_major(game: Game1822, player: Player, corp: Corporation, cell: Cell, cost: int) -> None:
    """The director's certificate for ``cost`` (a concession counts towards it; the bank adds its value)."""
    concession = concession_of(game, corp)
    game.shares.set_par(corp, cell)
    pres = corp.shares[0]
    game.shares.buy_shares(player, [pres], cost, receiver=corp)
    if concession is not None:
        full = cell.price * pres.percent // corp.share_percent
        money = concession.value if full - concession.value >= 0 else cell.price
        game.bank.spend(money, corp, ev.Why.CAPITAL)
        game.shares.close_company(concession)
    game.log(f"{player.name} starts {corp.sym} at {game.format_money(cell.price)}")


def share_payee(game: Game1822, corp: Corporation, receiver: Holder | None) -> Holder | None:
    if corp.sym in game.fully_capitalised and (receiver is None or receiver is corp):
        return game.bank  # the company is paid in full when it floats
    return receiver


def float_corporation(game: Game1822, corp: Corporation) -> None:
    if "full_capitalisation" in phase_status(game) and corp.kind is CorporationKind.MAJOR:
        # What the shares sold so far paid goes back to the bank, and the unsold shares go to the market.
        if corp.cash > 0:
            pay(corp, game.bank, corp.cash, ev.Why.CAPITAL)
        for share in list(corp.shares):
            game.shares.transfer_share(share, game.pool)
        game.log(f"{corp.sym}'s remaining shares are transferred to the market")
    corp.floated = True
    ev.emit(ev.CompanyFloated(corp.sym))
    game.log(f"{corp.sym} floats")
    if corp.sym in game.fully_capitalised:
        game.fully_capitalised.discard(corp.sym)
        capital = int(corp.par_price or 0) * (100 // corp.share_percent)
        game.bank.spend(capital, corp, ev.Why.CAPITAL)
        game.log(f"{corp.sym} receives {game.format_money(capital)}")


def event_close_concessions(game: Game1822) -> None:
    game.log("-- Event: Concessions close --")
    for comp in game.companies.values():
        if comp.sym[0] == "C" and not comp.closed:
            game.shares.close_company(comp)
    for corp in game.corporations.values():
        if not corp.floated and corp.kind is CorporationKind.MAJOR:
            corp.float_percent = 50
            corp.data = {**corp.data, "no_concession": True}


def event_full_capitalisation(game: Game1822) -> None:
    game.log("-- Event: Major companies receive full capitalisation when floated --")
    game.fully_capitalised |= {c.sym for c in game.corporations.values()
                               if c.kind is CorporationKind.MAJOR and not c.floated}
