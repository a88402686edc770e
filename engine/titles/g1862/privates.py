"""1862's privates' powers (§6, §3.5): the B&O's marker in Baltimore, the Erie Steamship's tile, the Rocky
Mountain Company's free-terrain tile, the NYSH's par of NYH, closing a private at will, and the privates a
company's float or first dividend closes."""

from __future__ import annotations

from typing import Any

from ...core import events as ev
from ...core.abilities import Shares
from ...core.actions import Action, entity_action, register_action, text, whole
from ...core.board import _blank_side
from ...core.entities import Company, Corporation, Entity, Player, as_company, as_corporation, as_player
from ...core.errors import illegal
from ...core.round import InterruptStep, Step
from ...core.steps.auction import CompanyPendingPar
from ...core.steps.operating import RouteStep, tile_lay_choices
from ...core.tiles import Tile, TokenKind
from ...core.track import move_tokens
from .state import Game1862

CLOSE = "close_company"
register_action(CLOSE, "company")
BALTIMORE = "G30"
BO_MARKER = "B&O"
ERIE_HEX = "E28"
# The private a company's first dividend closes (§6).
CLOSED_BY_FIRST_DIVIDEND = {"NYC": "FNY", "WP": "PSC"}


def granted_certificates(company: Company) -> int:
    """The certificates that come with a private (the NYSH's NYH president's certificate)."""
    return sum(len(a.certificates) for a in company.abilities_of(Shares))


def place_bo_marker(game: Game1862) -> None:
    """The B&O's buyer puts its station marker in Baltimore."""
    hx = game.board[BALTIMORE]
    node = hx.tile.tdef.cities[0]
    slot = game.track.free_slot(hx, node, BO_MARKER)
    if slot is not None:
        hx.tile.tokens[node][slot] = BO_MARKER
        hx.tile.kinds[node][slot] = TokenKind.BLOCKING
        ev.emit(ev.StationChanged(hx.id, node, slot, None, BO_MARKER, TokenKind.BLOCKING.value))
        game.track.board_changed()
        game.log(f"The B&O station marker is placed in Baltimore ({BALTIMORE})")


def close_voluntarily(game: Game1862, company: Company) -> None:
    """A private its owner closes; closing the B&O takes its marker off Baltimore."""
    if company.sym == BO_MARKER:
        for hx in game.board.hexes.values():
            for node, slots in hx.tile.tokens.items():
                for i, s in enumerate(slots):
                    if s == BO_MARKER:
                        slots[i] = None
                        hx.tile.kinds[node][i] = TokenKind.NORMAL
                        ev.emit(ev.StationChanged(hx.id, node, i, BO_MARKER, None))
        game.track.board_changed()
    game.shares.close_company(company)


def erie_placed(game: Game1862) -> bool:
    return game.board[ERIE_HEX].tile.name == "ERIE"


def place_erie_tile(game: Game1862) -> None:
    hx = game.board[ERIE_HEX]
    tile = Tile("ERIE-0", game.tile_defs["ERIE"], 0, preprinted=True)
    move_tokens(hx.tile, tile)
    old = hx.tile
    hx.tile = hx.original = tile
    ev.emit(ev.TileLaid(hx.id, tile.name, tile.id, tile.rotation, old.name, ""))
    # Edges facing E28 open where the Erie tile now has track (§2.1 exit rule (b)).
    for h in [hx, *(game.board.hexes[n] for n in hx.neighbors.values())]:
        h.sealed = frozenset(e for e, other in h.neighbors.items()
                             if _blank_side(game.board.hexes[other], (e + 3) % 6))
    game.track.board_changed()
    game.log("The special Erie tile is placed on E28")


def close_all(game: Game1862, companies: list[Company]) -> None:
    """Every private still open closes (the first 5-train with its switch): the Erie tile is placed first, the
    B&O marker stays (D-13)."""
    for company in companies:
        if company.closed:
            continue
        if company.sym == "ERIE" and not erie_placed(game):
            place_erie_tile(game)
        game.shares.close_company(company)


def after_float(game: Game1862, corp: Corporation) -> None:
    """NYH's float closes the NYSH; the SOC closes once CPR and UP have both floated, its revenue falls to $15
    when one has."""
    if corp.sym == "NYH":
        game.shares.close_company(game.companies["NYSH"])
    soc = game.companies["SOC"]
    if corp.sym in ("CPR", "UP") and not soc.closed:
        if game.corporations["CPR"].floated and game.corporations["UP"].floated:
            game.shares.close_company(soc)
        else:
            soc.revenue = 15
            game.log("SOC's revenue falls to $15")


def after_payout(game: Game1862, corp: Corporation) -> None:
    first = CLOSED_BY_FIRST_DIVIDEND.get(corp.sym)
    if first is not None:
        game.shares.close_company(game.companies[first])


class ErieTile(InterruptStep[Game1862]):
    """The Erie Steamship Company's owner places the special Erie tile on E28, at any decision point of a stock
    or operating round, out of turn too (§3.5); this closes the private. It never blocks."""

    name = "Erie tile"
    blocks = False


    def blocking(self) -> bool:
        return False

    def active_entities(self) -> list[Any]:
        return []

    def actions(self, entity: Entity) -> list[str]:
        if not isinstance(entity, Company) or entity.sym != "ERIE":
            return []
        if entity.closed or not isinstance(entity.owner, Player) or erie_placed(self.game):
            return []
        if self.game.private_sale.auction is not None:
            return []  # not inside an auction of privates (§3.5)
        return ["lay_tile"]

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "lay_tile":
            return super().choices(entity, kind)
        return [{**entity_action(entity, "lay_tile"), "hex": "E28", "tile": "ERIE", "rotation": 0}]

    def process_lay_tile(self, action: Action, entity: Entity) -> None:
        if text(action, "hex") != "E28":
            raise illegal("the Erie tile may only be placed on the Erie hex E28")
        if text(action, "tile").split("-")[0] != "ERIE":
            raise illegal("the Erie Steamship Company places only the special Erie tile")
        if whole(action, "rotation") != 0:
            raise illegal("the Erie tile fits E28 one way only (exits W, NE and SE): rotation 0")
        place_erie_tile(self.game)
        self.game.shares.close_company(as_company(entity))


class RockyMountainTile(Step[Game1862]):
    """The Rocky Mountain Company's extra yellow tile for a company its owner presides, terrain up to $160 free
    (§6); using it closes the private. It may be used at any point of the company's track or token steps."""

    name = "Rocky Mountain Company tile"
    blocks = False


    def setup(self) -> None:
        self.passed = False

    def blocking(self) -> bool:
        return False

    def active_entities(self) -> list[Any]:
        return []

    def _company(self, entity: Entity) -> Company | None:
        if not isinstance(entity, Company) or entity.sym != "RMC" or entity.closed:
            return None
        corp = self.round.entity()
        if not isinstance(corp, Corporation) or corp.owner is not entity.owner or corp.closed:
            return None
        if getattr(self.round, "routes", None) or not self.game.can_lay_track(corp):
            return None
        if self.game.rules_edition >= 2 and self._trains_ran():
            return None
        return entity

    def _trains_ran(self) -> bool:
        """Whether the company's turn is past its route step (D-08: the tile comes before the trains run; the
        dividend clears the routes, so they cannot tell)."""
        steps = list(self.round.steps)
        active = self.round.active_step()
        route = next((n for n, s in enumerate(steps) if isinstance(s, RouteStep)), None)
        return route is not None and active is not None and steps.index(active) > route

    def actions(self, entity: Entity) -> list[str]:
        return ["lay_tile"] if self._company(entity) is not None else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "lay_tile":
            return super().choices(entity, kind)
        corp = as_corporation(self.round.entity())
        spec = {"lay": True, "upgrade": False, "cost": -self.game.RMC_DISCOUNT}
        return tile_lay_choices(self.game, entity, corp, spec=spec)

    def process_lay_tile(self, action: Action, entity: Entity) -> None:
        corp = as_corporation(self.round.entity())
        tile = self.game.track.tile_from_supply(text(action, "tile"))
        if tile.colour != "yellow":
            raise illegal("the Rocky Mountain Company lays a yellow tile")
        hx = self.game.board[text(action, "hex")]
        discount = min(self.game.RMC_DISCOUNT, hx.terrain_cost if hx.tile is hx.original else 0)
        self.game.track.lay_tile(corp, action, extra_cost=-discount)
        self.game.shares.close_company(as_company(entity))


class ClosePrivate(InterruptStep[Game1862]):
    """A player closes one of his privates (all but ERIE) in his stock turn or a turn of a company he presides
    (§6); closing B&O takes its marker off Baltimore. Never blocks."""

    name = "Close a private"
    blocks = False

    def blocking(self) -> bool:
        return False

    def active_entities(self) -> list[Any]:
        return []

    def _owner_acts(self, player: Any) -> bool:
        ent = self.round.entity()
        return ent is player or (isinstance(ent, Corporation) and ent.owner is player)

    def actions(self, entity: Entity) -> list[str]:
        if not isinstance(entity, Player) or not self._owner_acts(entity):
            return []
        return [CLOSE] if any(c.sym != "ERIE" and not c.closed for c in entity.companies) else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != CLOSE:
            return super().choices(entity, kind)
        return [{**entity_action(entity, CLOSE), "company": c.sym} for c in as_player(entity).companies
                if c.sym != "ERIE" and not c.closed]

    def process_close_company(self, action: Action, entity: Entity) -> None:
        company = self.game.company(text(action, "company"))
        if company.owner is not entity or company.closed:
            raise illegal(f"{entity.name} does not own an open {company.sym}")
        if company.sym == "ERIE":
            raise illegal("the Erie Steamship Company closes only by placing the Erie tile")
        close_voluntarily(self.game, company)


class NyhPar(CompanyPendingPar[Game1862]):
    """The NYSH buyer pars NYH at once (D-01); with the §14.2 switch ``nyh_par_locked`` only at $100."""

    def _locked(self) -> bool:
        return "nyh_par_locked" in (self.game.options.get("optional_rules") or [])

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        got = super().choices(entity, kind)
        if kind == "par" and self._locked():
            got = [a for a in got if self.game.parse_price(a["share_price"], par=True).price == 100]
        return got

    def process_par(self, action: Action, entity: Entity) -> None:
        if self._locked() and self.game.parse_price(action["share_price"], par=True).price != 100:
            raise illegal("NYH's par price is locked to $100 in this game")
        super().process_par(action, entity)
