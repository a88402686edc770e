"""1862's share redemption (§9): from phase 3, once per company at the end of its turn, the company buys back
half of every certificate, from its treasury or with a debt certificate; a redeemed company pays its dividends
by 5% units and keeps its own 50%."""

from __future__ import annotations

from ...core import events as ev
from ...core.actions import Action, entity_action, register_action, text
from ...core.entities import Corporation, Entity, Holder, Player, Share, as_corporation, pay
from ...core.errors import illegal, insufficient, malformed
from ...core.round import Step
from . import debt, rules
from .state import Game1862

REDEEM = "redeem_shares"
register_action(REDEEM, "kind")
REDEEM_KINDS = ("treasury", "debt")


def may_redeem(game: Game1862, corp: Corporation) -> bool:
    return (corp.floated and not corp.closed and corp.sym not in game.redeemed
            and int(game.phase.get("debt_rate", 0)) > 0)


def _redeemable(corp: Corporation, holders: tuple[Holder, ...]) -> list[Share]:
    return [s for h in holders for s in h.shares if s.corp == corp.sym]


def payment(game: Game1862, corp: Corporation) -> int:
    """What redeeming half of every certificate costs the company."""
    price = game.market.location[corp.sym].price
    return sum(rules.redemption_cash(price, s.percent, s.president)
               for s in _redeemable(corp, (*game.players, game.pool, corp)))


def redeem(game: Game1862, corp: Corporation, kind: str) -> None:
    """Buy back half of every certificate (§9.2): 10% -> 5%, 30% president -> 10% president + 5%,
    20% president -> 10% president; the company takes its 50% certificate."""
    if not may_redeem(game, corp):
        raise illegal(f"{corp.sym} cannot redeem its shares now")
    price = game.market.location[corp.sym].price
    needed = payment(game, corp)
    if kind == "treasury":
        if corp.cash < needed:
            raise insufficient(f"{corp.sym} needs {game.format_money(needed)} and has "
                               f"{game.format_money(corp.cash)}; take debt instead")
    else:
        debt.take_debt(game, corp, needed)
    fresh = iter(Share(f"{corp.sym}_R{i}", corp.sym, 5, False, corp) for i in range(1, 9))
    for holder in (*game.players, game.pool, corp):
        for old in [s for s in holder.shares if s.corp == corp.sym]:
            price_paid = rules.redemption_cash(price, old.percent, old.president)
            pay(corp, holder if isinstance(holder, Player) else game.bank, price_paid, ev.Why.SHARES)
            holder.shares.remove(old)
            ev.emit(ev.ShareCreated(old.id, corp.sym, old.percent, holder.party, gone=True))
            new: list[Share] = []
            if old.president:
                new.append(Share(f"{corp.sym}_R0", corp.sym, 10, True, holder))
            if old.percent in (10, 30):
                new.append(next(fresh))
            for share in new:
                share.owner = holder
                holder.shares.append(share)
                ev.emit(ev.ShareCreated(share.id, corp.sym, share.percent, holder.party))
    corp.treasury.shares.append(Share(f"{corp.sym}_R9", corp.sym, 50, False, corp.treasury))
    ev.emit(ev.ShareCreated(f"{corp.sym}_R9", corp.sym, 50, corp.treasury.party))
    game.redeemed.add(corp.sym)
    game.redemptions += 1
    game.log(f"{corp.sym} redeems half of its shares for {game.format_money(needed)}; "
             f"it holds its own 50% certificate")


def payout_parts(game: Game1862, corp: Corporation, revenue: int) -> tuple[list[ev.HolderPart], int]:
    """A payout's parts for the players, and what the company keeps: by 5% units once redeemed, its own 50%
    kept (§9.4); else by percent, nothing kept."""
    parts: list[ev.HolderPart] = []
    if corp.sym in game.redeemed:
        unit = rules.dividend_unit(revenue)
        for p in game.players:
            units = sum(s.percent // 5 for s in p.shares_of(corp.sym))
            if units:
                parts.append(game.runs.pay_holder(p, units * unit))
        kept = revenue - 10 * unit
        game.bank.spend(kept, corp, ev.Why.REVENUE)
        return parts, kept
    for p in game.players:
        percent = p.percent_of(corp.sym)
        if percent:
            parts.append(game.runs.pay_holder(p, revenue * percent // 100))
    return parts, 0


class Redeem(Step[Game1862]):
    """Share redemption at the end of the company's turn, from phase 3, once per company (§9.1)."""

    name = "Redeem shares"

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.round.entity() or not isinstance(entity, Corporation):
            return []
        return [REDEEM, "pass"] if may_redeem(self.game, entity) else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != REDEEM:
            return super().choices(entity, kind)
        entity = as_corporation(entity)
        kinds = ["debt"]
        if entity.cash >= payment(self.game, entity):
            kinds.insert(0, "treasury")
        return [{**entity_action(entity, REDEEM), "kind": k} for k in kinds]

    def process_redeem_shares(self, action: Action, entity: Entity) -> None:
        kind = text(action, "kind")
        if kind not in REDEEM_KINDS:
            raise malformed(f"pay the redemption from the treasury or with debt, not {kind!r}")
        redeem(self.game, as_corporation(entity), kind)
        self.pass_()
