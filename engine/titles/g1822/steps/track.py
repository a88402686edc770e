"""The track steps: the privates' lays (their own step, then the company's), the company's lays and P8's choice.
"""

from __future__ import annotations

from typing import Any, cast

from ....core.actions import Action, entity_action, opt_whole, text
from ....core.entities import Company, Corporation, CorporationKind, Entity, as_company, as_corporation, sym_of
from ....core.errors import illegal
from ....core.round import Step
from ....core.steps.operating import Track, tile_lay_choices
from ..private_choices import company_choices, make_company_choice
from ..state import Game1822, TrackPower
from ..stations import (
    channel_station_power,
    place_channel_station,
)
from ..track import tile_lays_for
from ..track_powers import (
    teleport_lays,
    teleport_open,
    track_power,
    track_power_allows,
    track_power_usable,
    track_powers_block,
    use_track_power,
)
from ..turn_order import turns_operated
from .common import channel_station_actions, company_choice_actions, in_turn


class SpecialChoose(Step[Game1822]):
    """P8 (E&GR), just acquired, makes its owner choose: a free lay on rough ground (the token), or £20 off
    every hill and mountain for good (the discount)."""

    name = "Choose for a private"

    def company(self, entity: Entity) -> Company | None:
        comp = self.game.companies.get("P8")
        if comp is None or comp.closed or comp.owner is not entity or not in_turn(entity, self):
            return None
        return comp if comp.sym not in self.game.egr_choice and comp.sym in self.game.acquired_this_round else None

    def actions(self, entity: Entity) -> list[str]:
        return ["choose"] if self.company(entity) is not None else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "choose":
            return [{**entity_action(entity, "choose"), "choice": c} for c in ("token", "discount")]
        return super().choices(entity, kind)

    def process_choose(self, action: Action, entity: Entity) -> None:
        choice = text(action, "choice")
        if choice not in ("token", "discount"):
            raise illegal("choose token or discount")
        self.game.egr_choice["P8"] = choice
        self.game.log(f"{sym_of(entity)} chooses the {choice} of P8")


class SpecialTrack(Step[Game1822]):
    """Privates that lay track for the company that owns them, during its track step (P2, P5, P8, P10, P11, P12,
    P21). P12's extra lays and P21's bridge lays must be made together once begun; P5's English Channel upgrade
    is followed at once by its station there (18xx.games offers no pass)."""

    name = "Lay track for a private"
    blocks = False
    teleported: Company | None = None  # P5, once it has upgraded the English Channel, until its station is placed

    @property
    def company(self) -> Company | None:
        """The private whose lays must be made together, once begun: until it finishes, the company's turn goes
        no further (nothing after this step is skipped, as in 18xx.games)."""
        return self._company

    @company.setter
    def company(self, value: Company | None) -> None:
        self._company = value
        self.blocks = value is not None

    def round_setup(self) -> None:
        self.company = None
        self.teleported = None

    def setup(self) -> None:
        self.company = None
        self.teleported = None
        self.laid_extra = False

    def blocking(self) -> bool:
        return self.company is not None or self.station_pending()

    def station_pending(self) -> bool:
        """P5 has upgraded the English Channel and must now place its station there."""
        return self.teleported is not None and channel_station_power(self.game, self.teleported)

    def active_entities(self) -> list[Any]:
        if self.station_pending():
            return [self.teleported]
        return [self.company] if self.company is not None else super().active_entities()

    def actions(self, entity: Entity) -> list[str]:
        if self.station_pending():
            return ["place_token"] if entity is self.teleported else []
        if self.company is not None:
            return ["lay_tile", "pass"] if entity is self.company else []
        corp = as_corporation(self.round.entity())
        if (not track_power_usable(self.game, entity, corp) or not isinstance(entity, Company)
                or not self.may_begin(entity, corp)):
            return []
        if not isinstance(self.round.active_step(), Track1822):
            return []
        return ["lay_tile"]

    def may_begin(self, company: Company, corp: Corporation) -> bool:
        """P21 is used by a company with a station in Hull or Grimsby, before it lays any track this turn; P5 when
        the English Channel is full and can be upgraded."""
        power = track_power(self.game, company)
        if power.get("teleport") and not teleport_open(self.game, company):
            return False
        if power.get("station_in_hexes") and not any(t.used and t.hex in power.get("hexes", ()) for t in corp.tokens):
            return False
        track = next(s for s in self.round.steps if isinstance(s, Track1822))
        return not (power.get("before_own_lay") and track.lays > 0)

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "place_token" and self.station_pending():
            return channel_station_actions(self.game, as_company(entity))
        if kind != "lay_tile":
            return super().choices(entity, kind)
        company = as_company(entity)  # only a private with a usable track power lays here
        corp = cast(Corporation, company.owner)
        power = track_power(self.game, company)
        if power.get("teleport"):
            lays = [{**entity_action(company, "lay_tile"), **lay} for lay in teleport_lays(self.game, company)]
            return [a for a in lays if self.lay_left(power, a)]
        self.game.laying_private = company
        try:
            out = tile_lay_choices(self.game, company, corp, spec=None)
        finally:
            self.game.laying_private = None
        if corp.kind is CorporationKind.MINOR:
            out = [a for a in out if self.game.track.tile_from_supply(a["tile"]).colour in ("yellow", "green")]
        return [a for a in out if track_power_allows(self.game, company, corp, power, a) and self.lay_left(power, a)]

    def lay_left(self, power: TrackPower, action: Action) -> bool:
        """A private's lay other than P12's takes one of the company's own lays, which must still allow it."""
        if power.get("extra"):
            return True
        track = next(s for s in self.round.steps if isinstance(s, Track1822))
        spec = track.next_lay()
        if spec is None:
            return False
        upgrade = self.game.board[text(action, "hex")].tile.colour != "white"
        allowed: object = spec.get("upgrade" if upgrade else "lay", True)
        return bool(allowed)

    def process_lay_tile(self, action: Action, entity: Company) -> None:
        corp = entity.owner
        if not isinstance(corp, Corporation) or corp is not self.round.entity():
            raise illegal(f"{entity.sym} lays track only in its company's turn")
        power = track_power(self.game, entity)
        if not track_power_allows(self.game, entity, corp, power, action):
            raise illegal(f"{entity.sym} cannot lay that tile there")
        if not self.lay_left(power, action):
            raise illegal(f"{corp.sym} has no tile lay of that kind left for {entity.sym} to use")
        tile = self.game.track.tile_from_supply(text(action, "tile"))
        upgrade = self.game.board[text(action, "hex")].tile.colour != "white"
        if corp.kind is CorporationKind.MINOR and tile.colour in ("brown", "gray"):
            raise illegal("a minor cannot upgrade past green")
        self.game.laying_private = entity
        try:
            if power.get("teleport"):
                if int(action.get("rotation", 0)) != 0 or \
                        not any(lay["tile"] == text(action, "tile") for lay in teleport_lays(self.game, entity)):
                    raise illegal(f"{entity.sym} upgrades the English Channel only to make room for its station, "
                                  f"with tile {' or '.join(power.get('tiles', ()))} at rotation 0")
                self.game.track.lay_tile(corp, action, check_connection=False)
            elif power.get("free"):
                # A free lay costs nothing at all: terrain nor estuary crossing (18xx.games).
                hx = self.game.board[text(action, "hex")]
                rot = int(action.get("rotation", 0))
                exits = frozenset((e + rot) % 6 for e in tile.tdef.edges())
                free = self.game.upgrade_cost(corp, hx, tile) + self.game.crossing_estimate(corp, hx, exits)
                self.game.track.lay_tile(corp, action, extra_cost=-free)
            elif power.get("estuary"):
                self.game.track.lay_tile(corp, action, extra_cost=-40)  # P10 pays £40 less for the crossing
            else:
                self.game.track.lay_tile(corp, action)
        finally:
            self.game.laying_private = None
        use_track_power(self.game, entity, corp, upgrade)
        if power.get("extra"):
            # P12's lays come all before or all after the company's own: begun after one own lay, they take the
            # second (18xx.games).
            track = next(s for s in self.round.steps if isinstance(s, Track1822))
            if track.lays == 1:
                track.lays = 2
        else:
            # Every private but P12 lays in place of one of the company's own lays.
            track = next(s for s in self.round.steps if isinstance(s, Track1822))
            track.lays += 1
            track.upgraded = track.upgraded or upgrade
            if track.next_lay() is None and not track_powers_block(self.game, corp):
                track.pass_()
        if power.get("must_lay_together") and track_power_usable(self.game, entity, corp):
            self.company = entity
        else:
            self.company = None
        if power.get("teleport"):
            self.teleported = entity

    def process_place_token(self, action: Action, entity: Company) -> None:
        company = self.teleported
        if not self.station_pending() or company is None or entity is not company:
            raise illegal(f"{entity.sym} places a station here only right after upgrading the English Channel")
        hx, node = self.game.track.city_by_id(text(action, "city"))
        place_channel_station(self.game, company, hx, node, opt_whole(action, "slot"))
        self.teleported = None

    def process_pass(self, action: Action, entity: Entity) -> None:
        if self.company is not None and self.company is entity:
            self.game.shares.close_company(self.company)
            self.company = None


class Track1822(Track[Game1822]):

    def actions(self, entity: Entity) -> list[str]:
        if isinstance(entity, Company):
            # P18's station swap and P17's card move may also be made during the track step.
            return ["choose_ability"] if (entity.owner is self.round.entity()
                                          and company_choices(self.game, entity, "track")) else []
        if not in_turn(entity, self):
            return []
        if entity.sym == "14" and not turns_operated(self.game, entity):
            return []  # minor 14's first station in London is its tile lay
        out = super().actions(entity)
        if not out and track_powers_block(self.game, entity):
            return ["pass"]
        return out

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "choose_ability":
            return company_choice_actions(self.game, entity, "track")
        return super().choices(entity, kind)

    def process_choose_ability(self, action: Action, entity: Entity) -> None:
        if not isinstance(entity, Company):
            raise illegal("a private makes that choice")
        make_company_choice(self.game, entity, text(action, "choice"), "track")

    def next_lay(self) -> dict[str, Any] | None:
        corp = as_corporation(self.round.entity())
        lays = tile_lays_for(self.game, corp)
        if self.lays >= len(lays):
            return None
        spec: dict[str, Any] = lays[self.lays]
        if self.upgraded and spec.get("not_if_upgraded"):
            return None
        return spec

    def process_lay_tile(self, action: Action, entity: Entity) -> None:
        entity = as_corporation(entity)
        super().process_lay_tile(action, entity)
        if self.next_lay() is None and not track_powers_block(self.game, entity):
            self.pass_()
