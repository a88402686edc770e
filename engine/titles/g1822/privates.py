"""The privates' money: phase revenue kept on P15's and P20's charters, revenue paid to owners, and a major's
purchase of a private from a player (with its train or its money).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import events as ev
from ...core.entities import Company, Corporation, Player

if TYPE_CHECKING:
    from .state import Game1822


def private_card(game: Game1822, sym: str) -> ev.Party:
    """The charter of a private holding money until it closes or a company acquires it (P15, P20)."""
    return ev.Party(ev.PartyKind.HOLDER, f"{sym}'s charter")


def cash_aside(game: Game1822) -> dict[ev.Party, int]:
    return {private_card(game, sym): cash for sym, cash in game.phase_revenue_cash.items()}


def payout_companies(game: Game1822) -> None:
    game.acquired_this_round = set()  # a new operating round begins
    phase = int(game.phase["name"])
    for sym in game.phase_revenue_cash:
        comp = game.companies.get(sym)
        if comp is None or comp.closed or comp.owner is None:
            continue
        comp.revenue = phase * (10 if sym == "P15" else 5)
        game.bank.withdraw(comp.revenue)
        game.phase_revenue_cash[sym] += comp.revenue
        ev.emit(ev.MoneyMoved(ev.BANK, private_card(game, sym), comp.revenue, ev.Why.PRIVATE_REVENUE))
    p9 = game.companies.get("P9")
    if p9 is not None and isinstance(p9.owner, Corporation):
        p9.revenue = game.rules["double_cash_revenue"][phase]
    for comp in game.companies.values():
        if comp.closed or comp.owner is None or comp.owner is game.bank or comp.revenue <= 0:
            continue
        game.bank.spend(comp.revenue, comp.owner, ev.Why.PRIVATE_REVENUE)
        game.log(f"{comp.owner.name} collects {game.format_money(comp.revenue)} from {comp.sym}")


def event_phase_revenue(game: Game1822) -> None:
    game.log("-- Event: Phase revenue companies close with money returned to the bank --")
    for sym in list(game.phase_revenue_cash):
        comp = game.companies.get(sym)
        if comp is None or comp.closed:
            continue
        returned = game.phase_revenue_cash.pop(sym)
        game.bank.cash += returned
        ev.emit(ev.MoneyMoved(private_card(game, sym), ev.BANK, returned, ev.Why.CLOSING))
        game.shares.close_company(comp)


def purchasable_companies(game: Game1822, corp: Corporation) -> list[Company]:
    phase = int(game.phase["name"])
    kind = corp.kind.value
    return [c for c in game.companies.values()
            if c.sym[0] == "P" and not c.closed and isinstance(c.owner, Player)
            and kind in c.data.get("acquire", ()) and phase >= int(c.data.get("acquire_phase", 99))]


def acquire_private(game: Game1822, corp: Corporation, company: Company) -> None:
    owner = company.owner
    if isinstance(owner, Player) and company in owner.companies:
        owner.companies.remove(company)
    company.owner = corp
    corp.companies.append(company)
    game.log(f"{corp.sym} acquires {company.name} from {getattr(owner, 'name', 'the bank')}")
    ev.emit(ev.PrivateMoved(company.sym, owner.party if owner is not None else ev.BANK, corp.party))
    train = game.company_trains.pop(company.sym, None)
    if train is not None:
        train.reserved = False
        train.owner = corp
        corp.trains.append(train)
        ev.emit(ev.TrainMoved(train.id, train.name, ev.DEPOT, corp.party, ev.TrainHow.HANDED))
        game.log(f"{corp.sym} gains a {train.name} train")
        game.shares.close_company(company)
    elif company.sym in game.phase_revenue_cash:
        gained = game.phase_revenue_cash.pop(company.sym)
        corp.cash += gained
        ev.emit(ev.MoneyMoved(private_card(game, company.sym), corp.party, gained, ev.Why.PRIVATE))
        game.log(f"{corp.sym} gains {game.format_money(gained)}")
        game.shares.close_company(company)
    elif company.sym == "P9":
        company.revenue = game.rules["double_cash_revenue"][int(game.phase["name"])]
    elif company.sym in ("P5", "P6", "P7", "P8", "P10", "P17", "P18", "P21"):
        company.revenue = 0
