"""1828's track (rules 8.1, 13.3, 16): one lay or upgrade a turn, a system two, an extra yellow lay for the
B&M and the NYH, no second lay in a hex the same turn, the Virginia Tunnel's own tile; privates' lays that keep
the track step open."""

from __future__ import annotations

from typing import Any

from ...core.actions import Action, text
from ...core.entities import Company, Corporation, CorporationKind, Entity, as_corporation
from ...core.errors import illegal
from ...core.flow import RoundState
from ...core.round import Step
from ...core.steps.operating import Track, tile_lay_choices
from . import coal
from .operating_round import operating_round_of
from .state import Game1828


def current(step: Step[Any]) -> Entity | None:
    return step.round.entity()


def round_laid(step: Step[Any]) -> list[str]:
    """The hexes laid in this operating turn (no second lay in one hex)."""
    return operating_round_of(step).laid_hexes


def tile_lays_for(game: Game1828, corp: Corporation) -> list[dict[str, Any]]:
    """One lay or upgrade; a system a second; B&M and NYH (or a system holding one) a yellow lay for $40
    when nothing was upgraded, each (rules 8.1, 13.3)."""
    lays: list[dict[str, Any]] = [{"lay": True, "upgrade": "not_if_upgraded"}]
    members = [s.name for s in game.shells.get(corp.sym, [])] if corp.kind is CorporationKind.SYSTEM \
        else [corp.sym]
    if corp.kind is CorporationKind.SYSTEM:
        lays.append({"lay": True, "upgrade": "not_if_upgraded"})
    track: dict[str, Any] = game.data()["game"]["track"]
    for sym in members:
        if sym in track["extra_yellow"]:
            lays.append({"lay": "not_if_upgraded", "upgrade": False, "cost": int(track["extra_yellow_cost"])})
    return lays


def special_lay_used(game: Game1828, company: Company, index: int) -> bool:
    return (company.sym, index) in game.special_lays_used


def track_ability_waits(game: Game1828, corp: Corporation) -> bool:
    """A private's extra lay for the track step (the E&K's) keeps the step open until used or passed; one that
    is one of the company's own lays (the D&H's) does not."""
    return any(lay.get("when") == "track" and not lay.get("normal") and not special_lay_used(game, company, i)
               for company in corp.companies if not company.closed
               for i, lay in enumerate(company.data.get("special_lays", ())))


def turn_lay_waits(game: Game1828, corp: Corporation) -> bool:
    return any(lay.get("when") == "turn" and not special_lay_used(game, company, i)
               for company in corp.companies if not company.closed
               for i, lay in enumerate(company.data.get("special_lays", ())))


def track_company_buyable(game: Game1828, corp: Corporation) -> bool:
    if not game.phase.get("can_buy_companies") or corp.kind is CorporationKind.MINOR or corp.cash < 1:
        return False
    return any(game.runs.company_for_sale(c) and any(lay.get("when") == "track" and not lay.get("normal")
                                                for lay in c.data.get("special_lays", ()))
               for c in game.companies.values())


def in_track_step(rnd: RoundState, corp: Corporation) -> bool:
    step = next((s for s in getattr(rnd, "steps", ()) if isinstance(s, Track1828)), None)
    return step is not None and step.active() and not step.passed and rnd.entity() is corp


class Track1828(Track[Game1828]):
    """One lay or upgrade (rules 8.1); a system has two; B&M and NYH, and systems holding them, one more yellow
    lay for $40 when nothing was upgraded. A hex laid this turn is not upgraded again. A company owning the
    E&K keeps its track step open for that private's extra lay."""

    def setup(self) -> None:
        super().setup()
        operating_round_of(self).laid_hexes = []
        operating_round_of(self).upgraded_track = False

    def next_lay(self) -> dict[str, Any] | None:
        corp = as_corporation(current(self))
        lays = tile_lays_for(self.game, corp)
        if self.lays >= len(lays):
            return None
        spec = dict(lays[self.lays])
        upgraded = operating_round_of(self).upgraded_track
        for key in ("lay", "upgrade"):
            if spec.get(key) == "not_if_upgraded":
                spec[key] = not upgraded
        return spec

    def can_lay(self, entity: Corporation) -> bool:
        # As on 18xx.games, the step also waits while a private with a track-step lay could still be bought.
        if track_ability_waits(self.game, entity) or track_company_buyable(self.game, entity):
            return True
        spec = self.next_lay()
        if spec is None or not (spec.get("lay") or spec.get("upgrade")):
            return False
        return bool(entity.tokens) and entity.cash >= int(spec.get("cost", 0))

    def actions(self, entity: Entity) -> list[str]:
        if entity is not current(self) or not isinstance(entity, Corporation):
            return []
        if not self.game.can_lay_track(entity) and not track_ability_waits(self.game, entity):
            return []
        return ["lay_tile", "pass"] if self.can_lay(entity) else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "lay_tile":
            return super().choices(entity, kind)
        spec = self.next_lay()
        if spec is None or not (spec.get("lay") or spec.get("upgrade")):
            return []
        laid = round_laid(self)
        entity = as_corporation(entity)
        return [c for c in tile_lay_choices(self.game, entity, entity, spec=spec)
                if c["hex"] not in laid and coal.lay_allowed(self.game, c["hex"], c["tile"])]

    def process_lay_tile(self, action: Action, entity: Entity) -> None:
        entity = as_corporation(entity)
        spec = self.next_lay()
        if spec is None or not (spec.get("lay") or spec.get("upgrade")):
            raise illegal(f"{entity.sym} has no tile lay left this turn")
        tile = self.game.track.tile_from_supply(text(action, "tile"))
        upgrade = tile.colour != "yellow"
        # A lay that allows no yellow tile allows no upgrade either (tile_lays_for), and is refused above.
        if upgrade and not spec.get("upgrade"):
            raise illegal("this tile lay cannot be an upgrade")
        if text(action, "hex") in round_laid(self):
            raise illegal(f"{text(action, 'hex')} already had a tile laid this turn")
        coal.check_lay_allowed(self.game, text(action, "hex"), text(action, "tile"))
        self.game.track.lay_tile(entity, action, extra_cost=int(spec.get("cost", 0)))
        self.count_lay(entity, text(action, "hex"), upgrade)

    def count_lay(self, corp: Corporation, hex_id: str, upgrade: bool) -> None:
        """A lay in ``hex_id`` takes one of ``corp``'s lays this turn (its own, or a private's that counts as one)."""
        self.lays += 1
        round_laid(self).append(hex_id)
        if upgrade:
            operating_round_of(self).upgraded_track = True
            self.upgraded = True
        if not self.can_lay(corp):
            self.pass_()

