"""Lays 1828's privates give their companies (rules 13.2): the ``special_lays`` of game.toml, their hexes,
tiles, fees and terrain, and the step that carries them out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.actions import Action, entity_action, text, whole
from ...core.board import Hex
from ...core.entities import Company, Corporation, Entity, as_company, as_corporation, sym_of
from ...core.errors import illegal, insufficient
from ...core.round import InterruptStep
from ...core.tiles import Tile
from . import coal, privates
from .operating_round import operating_round_of
from .state import Game1828
from .track import Track1828, current, in_track_step, round_laid, special_lay_used


def lay_rotations(game: Game1828, corp: Corporation, lay: dict[str, Any], hx: Hex, tile: Tile) -> list[int]:
    from ...core.track import legal_rotations
    if not coal.lay_allowed(game, hx.id, tile.id):
        return []
    edges = game.track.network(corp).hex_edges.get(hx.id, set()) if lay.get("reachable") else None
    if edges is not None and not edges:
        return []
    return legal_rotations(game, hx, tile.tdef, edges)


def lay_cost(game: Game1828, lay: dict[str, Any], hx: Hex, tile: Tile, rotation: int) -> int:
    from ...core.track import crossing_cost
    free = bool(lay.get("free") or lay.get("teleport"))
    terrain = hx.terrain_cost if hx.tile is hx.original and not free else 0
    exits = frozenset((e + rotation) % 6 for e in tile.tdef.edges())
    return int(lay.get("cost", 0)) + terrain + int(crossing_cost(game, hx, exits))


def special_lay(game: Game1828, corp: Corporation, action: Action, lay: dict[str, Any]) -> None:
    coal.check_lay_allowed(game, text(action, "hex"), text(action, "tile"))
    game.track.lay_tile(corp, action, extra_cost=int(lay.get("cost", 0)), check_connection=bool(lay.get("reachable")),
                  free_terrain=bool(lay.get("free") or lay.get("teleport")))


class SpecialTrack1828(InterruptStep[Game1828]):
    """Lays a private gives its owning company (the ``special_lays`` of game.toml): C&StL at Burlington, any time
    in the company's turn; E&K at Adrian & Ann Arbor at once when bought, then one more yellow tile for $20 in
    the track step; D&H in Scranton for $120 as one of the company's own lays or upgrades (then SpecialToken1828
    offers its station)."""

    name = "Lay track for a private"
    blocks = False

    def round_setup(self) -> None:
        operating_round_of(self).just_sold_company = None

    def lay_for(self, company: Entity) -> tuple[int, dict[str, Any]] | None:
        """The lay ``company`` may make now: its index among the private's lays, and the lay."""
        if not isinstance(company, Company) or company.closed:
            return None
        corp = company.owner
        if not isinstance(corp, Corporation) or corp is not current(self):
            return None
        lays: Sequence[dict[str, Any]] = company.data.get("special_lays", ())
        for index, lay in enumerate(lays):
            if special_lay_used(self.game, company, index):
                continue
            when = lay.get("when")
            if when == "sold":
                if operating_round_of(self).just_sold_company is company:
                    return index, lay
            elif when == "turn" or (when == "track" and in_track_step(self.round, corp)):
                if lay.get("normal") and self.own_lay() is None:
                    continue
                return index, lay
        return None

    def track_step(self) -> Track1828:
        return next(s for s in self.round.steps if isinstance(s, Track1828))

    def own_lay(self) -> dict[str, Any] | None:
        """The company's next lay of its track step, which a ``normal`` private lay (the D&H's) takes: None when it
        has none left."""
        spec = self.track_step().next_lay()
        return spec if spec is not None and (spec.get("lay") or spec.get("upgrade")) else None

    def lay_tiles(self, lay: dict[str, Any], spec: dict[str, Any] | None) -> list[Any]:
        """One tile of each kind ``lay`` may put down: its ``tiles``, or else every tile the phase allows; with
        ``spec`` (the company's own lay it takes), only yellow tiles or only upgrades as that lay allows."""
        supply = list(self.game.tile_supply.values())
        if lay.get("tiles"):
            named = [next((t for t in supply if t.name == name), None) for name in lay["tiles"]]
            tiles = [t for t in named if t is not None]
        else:
            by_name: dict[str, Any] = {}
            for t in supply:
                if t.colour in self.game.phase["tiles"]:
                    by_name.setdefault(t.name, t)
            tiles = list(by_name.values())
        if spec is not None:
            tiles = [t for t in tiles if spec.get("upgrade" if t.colour != "yellow" else "lay")]
        return tiles

    def lay_cost(self, entity: Entity, action: Action) -> tuple[int, int, int]:
        """One of this step's lays priced for the query layer: terrain, river crossings and the lay's fee."""
        from ...core.track import crossing_cost
        found = self.lay_for(entity)
        if found is None:
            return 0, 0, 0
        lay = found[1]
        hx = self.game.board.hexes[text(action, "hex")]
        tile = self.game.track.tile_from_supply(text(action, "tile"))
        free = bool(lay.get("free") or lay.get("teleport"))
        terrain = hx.terrain_cost if hx.tile is hx.original and not free else 0
        exits = frozenset((e + whole(action, "rotation")) % 6 for e in tile.tdef.edges())
        spec = self.own_lay() if lay.get("normal") else None
        fee = int(lay.get("cost", 0)) + (int(spec.get("cost", 0)) if spec is not None else 0)
        return terrain, int(crossing_cost(self.game, hx, exits)), fee

    def offered_by_reference(self, entity: Entity, action: Action) -> bool:
        found = self.lay_for(entity)
        return found is None or found[1].get("reference", True) is not False

    def blocking(self) -> bool:
        sold = operating_round_of(self).just_sold_company
        return sold is not None and self.lay_for(sold) is not None and self.lay_for(sold)[1].get("when") == "sold"  # type: ignore[index]

    def active_entities(self) -> list[Any]:
        sold = operating_round_of(self).just_sold_company
        if self.blocking():
            return [sold]
        return super().active_entities()

    def actions(self, entity: Entity) -> list[str]:
        found = self.lay_for(entity)
        if found is None:
            return []
        if self.blocking() and entity is not operating_round_of(self).just_sold_company:
            return []
        return ["lay_tile"]

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        found = self.lay_for(entity)
        if kind != "lay_tile" or found is None:
            return super().choices(entity, kind)
        _, lay = found
        entity = as_company(entity)
        corp = as_corporation(entity.owner)
        spec = self.own_lay() if lay.get("normal") else None
        if lay.get("when") == "track" and not lay.get("normal") and operating_round_of(self).upgraded_track:
            return []
        extra = int(spec.get("cost", 0)) if spec is not None else 0
        out = []
        for hex_id in lay.get("hexes") or sorted(self.game.track.network(corp).hex_edges):
            hx = self.game.board.hexes[hex_id]
            if self.game.track.blocked_hex(hx) is not None or hex_id in round_laid(self):
                continue
            for tile in self.lay_tiles(lay, spec):
                for rot in lay_rotations(self.game, corp, lay, hx, tile):
                    if lay_cost(self.game, lay, hx, tile, rot) + extra > corp.cash:
                        continue
                    out.append({**entity_action(entity, "lay_tile"), "hex": hex_id, "tile": tile.id, "rotation": rot})
        return out

    def process_lay_tile(self, action: Action, entity: Entity) -> None:
        found = self.lay_for(entity)
        if found is None:
            raise illegal(f"{sym_of(entity)} has no tile lay to make now")
        index, lay = found
        entity = as_company(entity)
        corp = as_corporation(entity.owner)
        hexes = lay.get("hexes") or []
        if hexes and text(action, "hex") not in hexes:
            raise illegal(f"{entity.sym} lays tiles only in {', '.join(hexes)}")
        tile = self.game.track.tile_from_supply(text(action, "tile"))
        if lay.get("tiles") and tile.name not in lay["tiles"]:
            raise illegal(f"{entity.sym} lays only tiles {', '.join(lay['tiles'])}")
        if lay.get("normal"):
            self.own_lay_tile(action, entity, lay, tile)
            return
        if lay.get("when") == "track":
            if operating_round_of(self).upgraded_track:
                raise illegal(f"cannot use {entity.sym} after a tile upgrade")
            operating_round_of(self).upgraded_track = True
        cost = int(lay.get("cost", 0))
        if cost > corp.cash:
            raise insufficient(f"{corp.sym} cannot pay {self.game.format_money(cost)} for this lay")
        special_lay(self.game, corp, action, lay)
        self.game.special_lays_used.add((entity.sym, index))
        round_laid(self).append(text(action, "hex"))
        if lay.get("when") == "sold":
            operating_round_of(self).just_sold_company = None

    def own_lay_tile(self, action: Action, entity: Company, lay: dict[str, Any], tile: Tile) -> None:
        """A private's lay that is the company's own lay or upgrade of its track step (the D&H's, rules
        13.2.2.4): off its network, for the lay's fee instead of terrain; a station may follow."""
        corp = entity.owner
        spec = self.own_lay()
        assert isinstance(corp, Corporation) and spec is not None  # lay_for found the lay
        upgrade = tile.colour != "yellow"
        if upgrade and not spec.get("upgrade"):
            raise illegal(f"{corp.sym} has no upgrade left this turn, so {entity.sym} may only lay a yellow tile")
        # (A lay that allows no yellow tile allows no upgrade either: own_lay() then offers none.)
        if text(action, "hex") in round_laid(self):
            raise illegal(f"{text(action, 'hex')} already had a tile laid this turn")
        cost = int(lay.get("cost", 0)) + int(spec.get("cost", 0))
        if cost > corp.cash:
            raise insufficient(f"{corp.sym} cannot pay {self.game.format_money(cost)} to use {entity.sym}: "
                               f"treasury {self.game.format_money(corp.cash)}")
        special_lay(self.game, corp, action, {**lay, "cost": cost})
        self.track_step().count_lay(corp, text(action, "hex"), upgrade)
        if lay.get("station"):
            privates.lay_station_offer(self.game, entity, text(action, "hex"))

