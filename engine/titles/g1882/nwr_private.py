"""1882's own step: the North West Rebellion private moves a station into an NWR city.

The hexes and the two powers' use counts are the private's abilities (a ``token`` ability with ``move`` and a
``tile_lay`` ability with ``token_hex``, engine/core/abilities.py); the step is how the move is carried out.
"""

from __future__ import annotations

from typing import Any

from ...core import events as ev
from ...core.abilities import TileLay, TokenAbility
from ...core.actions import Action, entity_action, opt_whole, text
from ...core.entities import Company, Corporation, Entity, Token, as_company, as_corporation
from ...core.errors import illegal
from ...core.round import InterruptStep
from ...core.steps.operating import tile_lay_choices
from ...core.tiles import TokenKind
from .state import Game1882


class SpecialNWR(InterruptStep[Game1882]):
    """NWR (P3): remove one of the owner's stations outside the NWR hexes, place it in an open
    NWR city, then optionally lay or upgrade a tile there (rules §7.1)."""

    name = "North West Rebellion"
    blocks = True

    def round_setup(self) -> None:
        self.state: str | None = None
        self.destination: str | None = None

    def setup(self) -> None:
        pass

    def _usable(self, entity: Entity) -> bool:
        if not isinstance(entity, Company) or not _moves_stations(entity) or entity.closed:
            return False
        owner = entity.owner
        if not isinstance(owner, Corporation) or owner is not self.round.entity():
            return False
        # Its two powers are used up separately: the station move, then the extra tile lay there.
        if self.state in (None, "place_token"):
            if not _move_token(entity).left:
                return False
        elif not any(a.left for a in entity.abilities_of(TileLay)):
            return False
        return not getattr(self.round, "routes", None)

    def actions(self, entity: Entity) -> list[str]:
        if not self._usable(entity):
            return []
        if self.state is None:
            return ["remove_token"]
        if self.state == "place_token":
            return ["place_token"]
        return ["lay_tile", "pass"]

    def blocking(self) -> bool:
        return self.state is not None

    def active_entities(self) -> list[Any]:
        return [c for c in self.game.companies.values() if _moves_stations(c)]

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind not in ("remove_token", "place_token", "lay_tile"):
            return super().choices(entity, kind)
        entity = as_company(entity)
        owner = as_corporation(entity.owner)
        if kind == "remove_token":
            out = []
            for token in owner.tokens:
                if not token.used or token.neutral or token.hex is None:
                    continue
                hx = self.game.board.hexes[token.hex]
                home = token is owner.tokens[0]
                if (home and any("CN" in s for s in hx.tile.tokens.values())) or "nwr" in hx.tags:
                    continue
                out.append({**entity_action(entity, "remove_token"), "city": f"{hx.tile.id}-{token.node}",
                            "slot": token.slot})
            return out
        if kind == "place_token":
            return [{**entity_action(entity, "place_token"), "city": f"{hx.tile.id}-{node}", "slot": 0}
                    for hx in (self.game.board.hexes[h] for h in _move_token(entity).hexes)
                    for node in hx.tile.tokens if self.game.can_token_city(owner, hx, node)]
        return tile_lay_choices(self.game, entity, owner, only_hex=self.destination)

    def process_remove_token(self, action: Action, entity: Entity) -> None:
        entity = as_company(entity)
        owner = as_corporation(entity.owner)
        hx, node = self.game.track.city_by_id(text(action, "city"))
        slots = hx.tile.tokens[node]
        slot = int(action.get("slot", 0))
        if slots[slot] != owner.sym or hx.tile.neutral[node][slot]:
            raise illegal(f"only a {owner.sym} station can be moved")
        if "nwr" in hx.tags:
            raise illegal("a station already in an NWR hex cannot be moved")
        token = next(t for t in owner.tokens if t.used and t.hex == hx.id and not t.neutral)
        home = token is owner.tokens[0]
        if home and any("CN" in s for s in hx.tile.tokens.values()):
            raise illegal("the home station cannot move while a neutral station shares its hex")
        slots[slot] = None
        token.used, token.hex, token.node, token.slot = False, None, -1, -1
        ev.emit(ev.StationChanged(hx.id, node, slot, owner.sym, "CN" if home else None))
        if home:
            # The home station is replaced by a neutral station (it belongs to CN): a marker of CN's own, so that
            # track arriving on a trackless two-city hex can ask where it goes (TrackPart.rechoose_city).
            slots[slot] = "CN"
            hx.tile.neutral[node][slot] = True
            self.game.corporations["CN"].tokens.append(
                Token("CN", 0, kind=TokenKind.NEUTRAL, used=True, hex=hx.id, node=node, slot=slot))

            self.game.log(f"{owner.sym} moves its home station from {hx.id}; a neutral station replaces it")
        else:
            self.game.log(f"{owner.sym} removes its station from {hx.id}")
        self.game.track.board_changed()
        self.state = "place_token"

    def process_place_token(self, action: Action, entity: Entity) -> None:
        entity = as_company(entity)
        owner = as_corporation(entity.owner)
        hx, node = self.game.track.city_by_id(text(action, "city"))
        hexes = _move_token(entity).hexes
        if hx.id not in hexes:
            raise illegal(f"{entity.sym} stations go to {', '.join(hexes)}")
        token = next((t for t in owner.tokens if not t.used and not t.neutral), None)
        if token is None or not self.game.can_token_city(owner, hx, node):
            raise illegal(f"{owner.sym} cannot place a station in {hx.id}")
        self.game.track.place_token(owner, token, hx, node, free=True, slot=opt_whole(action, "slot"))
        _move_token(entity).use()
        self.game.routes_seen.discard(owner.sym)  # 18xx.games forgets the owner's routes here: it may have none
        self.destination = hx.id
        self.state = "lay_tile"

    def process_lay_tile(self, action: Action, entity: Entity) -> None:
        entity = as_company(entity)
        owner = as_corporation(entity.owner)
        if text(action, "hex") != self.destination:
            raise illegal(f"the NWR tile lay must be on {self.destination}")
        self.game.track.lay_tile(owner, action)
        next(a for a in entity.abilities_of(TileLay) if a.left).use()
        self.state = None

    def process_pass(self, action: Action, entity: Entity) -> None:
        # The unused tile lay stays with the private (18xx.games keeps the ability until NWR closes).
        self.state = None


def _moves_stations(company: Company) -> bool:
    return any(a.move for a in company.abilities_of(TokenAbility))


def _move_token(company: Company) -> TokenAbility:
    """The private's station-move power (its token ability with ``move``)."""
    return next(a for a in company.abilities_of(TokenAbility) if a.move)
