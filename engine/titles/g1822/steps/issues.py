"""A major issuing or redeeming shares at the end of its turn.
"""

from __future__ import annotations

from ....core.actions import Action, entity_action, share_ids, text
from ....core.entities import Company, Corporation, Entity, as_corporation
from ....core.errors import illegal
from ....core.round import Step
from ..private_choices import company_choices, make_company_choice
from ..share_issues import issuable, issue_shares, redeem_shares, redeemable
from ..state import Game1822
from .common import company_choice_actions, in_turn


class IssueShares(Step[Game1822]):
    """A major that has operated twice may issue treasury shares to the market or redeem shares from it."""

    name = "Issue or redeem shares"

    def actions(self, entity: Entity) -> list[str]:
        if isinstance(entity, Company):
            corp = self.round.entity()
            return ["choose_ability"] if entity.owner is corp and company_choices(self.game, entity, "issue") else []
        if not in_turn(entity, self):
            return []
        out = []
        if redeemable(self.game, entity):
            out.append("buy_shares")
        if issuable(self.game, entity):
            out.append("sell_shares")
        if any(c.sym == "P17" for c in entity.companies):
            # 18xx.games stops here for a company that owns P17, even with no card to move.
            out.append("choose_ability")
        return [*out, "pass"] if out else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "choose_ability":
            # P17 itself acts; its company only waits here.
            return company_choice_actions(self.game, entity, "issue") if isinstance(entity, Company) else []
        if kind == "sell_shares":
            corp = as_corporation(entity)  # a company issues and redeems (a private only chooses, above)
            return [{**entity_action(corp, "sell_shares"), "shares": [s.id for s in b], "percent": sum(
                s.percent for s in b), "share_price": price} for b, price in issuable(self.game, corp)]
        if kind == "buy_shares":
            corp = as_corporation(entity)
            return [{**entity_action(corp, "buy_shares"), "shares": [s.id for s in b],
                     "percent": sum(s.percent for s in b)} for b in redeemable(self.game, corp)]
        return super().choices(entity, kind)

    def process_choose_ability(self, action: Action, entity: Entity) -> None:
        if not isinstance(entity, Company):
            raise illegal("a private makes that choice")
        make_company_choice(self.game, entity, text(action, "choice"), "issue")

    def process_sell_shares(self, action: Action, entity: Corporation) -> None:
        given = share_ids(action)
        ids = [str(s) for s in given]
        for bundle, price in issuable(self.game, entity):
            if [s.id for s in bundle] == ids or sorted(s.id for s in bundle) == sorted(ids):
                issue_shares(self.game, entity, bundle, price)
                self.pass_()
                return
        raise illegal(f"{entity.sym} cannot issue {', '.join(ids)}")

    def process_buy_shares(self, action: Action, entity: Corporation) -> None:
        given = share_ids(action)
        ids = sorted(str(s) for s in given)
        for bundle in redeemable(self.game, entity):
            if sorted(s.id for s in bundle) == ids:
                redeem_shares(self.game, entity, bundle)
                self.pass_()
                return
        raise illegal(f"{entity.sym} cannot redeem {', '.join(ids)}")
