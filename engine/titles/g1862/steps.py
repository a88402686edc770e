"""1862's own steps: the stock turn, the Erie tile, the Rocky Mountain tile, routes and share redemption.

Spec: /work/shared/rules/1862-reconstruction.md (section numbers below are its).
"""

from __future__ import annotations

from typing import Any

from ...core.actions import Action, entity_action, register_action
from ...core.entities import Company, Corporation, Player, Share
from ...core.errors import illegal, malformed
from ...core.game import Game
from ...core.round import InterruptStep, Step
from ...core.steps.auction import CompanyPendingPar
from ...core.steps.operating import RouteStep, tile_lay_choices
from ...core.steps.stock import BuySellParShares
from . import rules

REDEEM = "redeem_shares"
register_action(REDEEM, "kind")
CLOSE = "close_company"
register_action(CLOSE, "company")
REDEEM_KINDS = ("treasury", "debt")


class Shares1862(BuySellParShares[Game]):
    """A stock turn: sell any number of shares, then buy one certificate; buying ends the turn (§8.3).

    Each company is sold at most once per turn (one selling action moves the price one row, §4.3); president's
    certificates are never sold (§5.6); a player over the certificate limit must sell first (§8.3).
    """

    @property
    def g(self) -> Any:
        return self.game  # the G1862 (typed loosely: the game module imports this one)

    def sales_allowed(self) -> bool:
        return True

    def holding_ok(self, player: Player, corp: Corporation, gained: list[Share]) -> bool:
        held = player.percent_of(corp.sym) + sum(s.percent for s in gained)
        return held <= rules.holding_cap(self.g.players_in_game())

    def share_cost(self, share: Share) -> int:
        corp = self.game.corporation(share.corp)
        if share.owner is corp:
            assert corp.par_price is not None
            return rules.cert_value(corp.par_price, share.percent)
        return rules.cert_value(self.game.market.location[corp.sym].price, share.percent)

    def can_buy(self, player: Player, share: Share | None) -> bool:
        if share is not None and share.owner is self.game.corporation(share.corp).treasury:
            return False
        return super().can_buy(player, share)

    def can_sell(self, player: Player, shares: list[Share], percent: int | None = None) -> bool:
        if not self.sales_allowed() or any(s.president for s in shares):
            return False
        if shares[0].corp in self.sold_this_turn():
            return False
        return super().can_sell(player, shares, percent)

    def sold_this_turn(self) -> set[str]:
        return {str(a["shares"][0]).rsplit("_", 1)[0] for a in self.current if a["type"] == "sell_shares"}

    def must_sell(self, player: Player) -> bool:
        return self.game.num_certs(player) > self.game.cert_limit and self.can_sell_any(player)

    def actions(self, entity: Any) -> list[str]:
        if self.g.bankrupt_or_out(entity):
            return []
        return super().actions(entity)

    def blocking(self) -> bool:
        # The same answer as any(self.actions(...)), asked after every action: stop at the first thing the
        # player may do instead of listing them all (13 companies make the full list slow).
        entity = self.round.entity()
        if not isinstance(entity, Player) or self.g.bankrupt_or_out(entity):
            return False
        return self.can_buy_any(entity) or self.can_sell_any(entity) or self.can_par_any(entity)

    def process_buy_shares(self, action: dict[str, Any], entity: Any) -> None:
        super().process_buy_shares(action, entity)
        self.pass_()

    def process_par(self, action: dict[str, Any], entity: Any) -> None:
        super().process_par(action, entity)
        self.pass_()


class InitialShares(Shares1862):
    """The initial stock round once every private is sold: group 1 is on sale, nothing may be sold (S2)."""

    def sales_allowed(self) -> bool:
        return False

    def actions(self, entity: Any) -> list[str]:
        if self.g.unsold_privates():
            return []
        return super().actions(entity)

    def blocking(self) -> bool:
        return not self.g.unsold_privates() and super().blocking()


class ErieTile(InterruptStep[Game]):
    """The Erie Steamship Company's owner places the special Erie tile on E28, at any decision point of a stock
    or operating round, out of turn too (§3.5); this closes the private. It never blocks."""

    name = "Erie tile"
    blocks = False

    @property
    def g(self) -> Any:
        return self.game  # the G1862 (typed loosely: the game module imports this one)

    def blocking(self) -> bool:
        return False

    def active_entities(self) -> list[Any]:
        return []

    def actions(self, entity: Any) -> list[str]:
        if not isinstance(entity, Company) or entity.sym != "ERIE":
            return []
        if entity.closed or not isinstance(entity.owner, Player) or self.g.erie_placed():
            return []
        if self.g.private_sale.auction is not None:
            return []  # not inside an auction of privates (§3.5)
        return ["lay_tile"]

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != "lay_tile":
            return super().choices(entity, kind)
        return [{**entity_action(entity, "lay_tile"), "hex": "E28", "tile": "ERIE", "rotation": 0}]

    def process_lay_tile(self, action: dict[str, Any], entity: Any) -> None:
        if str(action["hex"]) != "E28":
            raise illegal("the Erie tile may only be placed on the Erie hex E28")
        if str(action["tile"]).split("-")[0] != "ERIE":
            raise illegal("the Erie Steamship Company places only the special Erie tile")
        if int(action["rotation"]) != 0:
            raise illegal("the Erie tile fits E28 one way only (exits W, NE and SE): rotation 0")
        self.g.place_erie_tile()
        self.game.close_company(entity)


class RockyMountainTile(Step[Game]):
    """The Rocky Mountain Company's extra yellow tile for a company its owner presides, terrain up to $160 free
    (§6); using it closes the private. It may be used at any point of the company's track or token steps."""

    name = "Rocky Mountain Company tile"
    blocks = False

    @property
    def g(self) -> Any:
        return self.game  # the G1862 (typed loosely: the game module imports this one)

    def setup(self) -> None:
        self.passed = False

    def blocking(self) -> bool:
        return False

    def active_entities(self) -> list[Any]:
        return []

    def _company(self, entity: Any) -> Company | None:
        if not isinstance(entity, Company) or entity.sym != "RMC" or entity.closed:
            return None
        corp = self.round.entity()
        if not isinstance(corp, Corporation) or corp.owner is not entity.owner or corp.closed:
            return None
        if getattr(self.round, "routes", None) or not self.g.can_lay_track(corp):
            return None
        if self.g.rules_edition >= 2 and self._trains_ran():
            return None
        return entity

    def _trains_ran(self) -> bool:
        """Whether the company's turn is past its route step (D-08: the tile comes before the trains run; the
        dividend clears the routes, so they cannot tell)."""
        steps = list(self.round.steps)
        active = self.round.active_step()
        route = next((n for n, s in enumerate(steps) if isinstance(s, RouteStep)), None)
        return route is not None and active is not None and steps.index(active) > route

    def actions(self, entity: Any) -> list[str]:
        return ["lay_tile"] if self._company(entity) is not None else []

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != "lay_tile":
            return super().choices(entity, kind)
        corp = self.round.entity()
        spec = {"lay": True, "upgrade": False, "cost": -self.g.RMC_DISCOUNT}
        return tile_lay_choices(self.game, entity, corp, spec=spec)

    def process_lay_tile(self, action: dict[str, Any], entity: Any) -> None:
        corp = self.round.entity()
        tile = self.game.tile_from_supply(str(action["tile"]))
        if tile.colour != "yellow":
            raise illegal("the Rocky Mountain Company lays a yellow tile")
        hx = self.game.board[str(action["hex"])]
        discount = min(self.g.RMC_DISCOUNT, hx.terrain_cost if hx.tile is hx.original else 0)
        self.game.lay_tile(corp, action, extra_cost=-discount)
        self.game.close_company(entity)


class Routes1862(RouteStep[Any]):
    """Routes may not include the same tile twice, except New York's two separate stations, and include at most
    one of the two Mexico hexes (§7.4)."""
    game: Any  # the G1862 game, whose module imports this one

    def process_run_routes(self, action: dict[str, Any], entity: Any) -> None:
        g = self.game
        for data in action["routes"]:
            problem = g.route_problem(data)
            if problem:
                raise illegal(problem)
        super().process_run_routes(action, entity)


class Redeem(Step[Game]):
    """Share redemption at the end of the company's turn, from phase 3, once per company (§9.1)."""

    name = "Redeem shares"

    @property
    def g(self) -> Any:
        return self.game  # the G1862 (typed loosely: the game module imports this one)

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.round.entity() or not isinstance(entity, Corporation):
            return []
        return [REDEEM, "pass"] if self.g.may_redeem(entity) else []

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != REDEEM:
            return super().choices(entity, kind)
        kinds = ["debt"]
        if entity.cash >= self.g.redemption_payment(entity):
            kinds.insert(0, "treasury")
        return [{**entity_action(entity, REDEEM), "kind": k} for k in kinds]

    def process_redeem_shares(self, action: dict[str, Any], entity: Any) -> None:
        kind = str(action["kind"])
        if kind not in REDEEM_KINDS:
            raise malformed(f"pay the redemption from the treasury or with debt, not {kind!r}")
        self.g.redeem(entity, kind)
        self.pass_()


class ClosePrivate(InterruptStep[Any]):
    """A player closes one of his privates (all but ERIE) in his stock turn or a turn of a company he presides
    (§6); closing B&O takes its marker off Baltimore. Never blocks."""
    game: Any  # the G1862 game, whose module imports this one

    name = "Close a private"
    blocks = False

    def blocking(self) -> bool:
        return False

    def active_entities(self) -> list[Any]:
        return []

    def _owner_acts(self, player: Any) -> bool:
        ent = self.round.entity()
        return ent is player or (isinstance(ent, Corporation) and ent.owner is player)

    def actions(self, entity: Any) -> list[str]:
        if not isinstance(entity, Player) or not self._owner_acts(entity):
            return []
        return [CLOSE] if any(c.sym != "ERIE" and not c.closed for c in entity.companies) else []

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != CLOSE:
            return super().choices(entity, kind)
        return [{**entity_action(entity, CLOSE), "company": c.sym} for c in entity.companies
                if c.sym != "ERIE" and not c.closed]

    def process_close_company(self, action: dict[str, Any], entity: Any) -> None:
        company = self.game.company(action["company"])
        if company.owner is not entity or company.closed:
            raise illegal(f"{entity.name} does not own an open {company.sym}")
        if company.sym == "ERIE":
            raise illegal("the Erie Steamship Company closes only by placing the Erie tile")
        g = self.game
        g.close_private_voluntarily(company)


class NyhPar(CompanyPendingPar[Game]):
    """The NYSH buyer pars NYH at once (D-01); with the §14.2 switch ``nyh_par_locked`` only at $100."""

    def _locked(self) -> bool:
        return "nyh_par_locked" in (self.game.options.get("optional_rules") or [])

    def choices(self, entity: Any, kind: str) -> list[Action]:
        got = super().choices(entity, kind)
        if kind == "par" and self._locked():
            got = [a for a in got if self.game.parse_price(a["share_price"], par=True).price == 100]
        return got

    def process_par(self, action: dict[str, Any], entity: Any) -> None:
        if self._locked() and self.game.parse_price(action["share_price"], par=True).price != 100:
            raise illegal("NYH's par price is locked to $100 in this game")
        super().process_par(action, entity)
