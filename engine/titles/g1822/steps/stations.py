"""The station steps: a station waiting for its city, the destination station, and the token step with its
free and exchange stations.
"""

from __future__ import annotations

from typing import Any

from ....core.actions import Action, entity_action, opt_text, opt_whole, text
from ....core.board import Hex
from ....core.entities import Company, Corporation, CorporationKind, Entity, Token, as_corporation
from ....core.errors import illegal
from ....core.round import Step
from ....core.steps.operating import TokenStep
from ....core.steps.stock import HomeToken
from ....core.tiles import TokenKind
from ..destinations import (
    destination_connected,
    destination_of,
    destination_token,
    place_destination_token,
    remove_extra_tokens,
)
from ..private_choices import company_choices, make_company_choice, token_choices
from ..state import Game1822
from ..stations import (
    channel_station_power,
    free_token_hexes,
    offers_city,
    p5_holds_token_step,
    place_channel_station,
    place_pending_token,
)
from .common import channel_station_actions, company_choice_actions, in_turn


class PendingToken(HomeToken[Game1822]):
    """A station waiting for its city (minor 14's home and the station a major gets for it): any city of the
    hex the company has no station in, in a space of its own if the city is full."""

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "place_token":
            return super().choices(entity, kind)
        actor, hexes, _token = self.pending()[0]
        out = []
        for hex_id in hexes:
            hx = self.game.board[hex_id]
            for node, slots in hx.tile.tokens.items():
                if actor.sym not in slots and self.reaches(actor, hx, node):
                    out.append({**entity_action(entity, "place_token"), "city": f"{hx.tile.id}-{node}", "slot": 0})
        return out

    def reaches(self, actor: Corporation, hx: Hex, node: int) -> bool:
        """Minor 14's home may go in any city of London; a major's station replacing a minor's must be in a city
        its track reaches (18xx.games)."""
        return actor.sym == "14" or self.game.track.reaches_node(actor, (hx.id, node))

    def process_place_token(self, action: Action, entity: Entity) -> None:
        actor, hexes, pending = self.pending()[0]
        token: Token = pending
        hx, node = self.game.track.city_by_id(text(action, "city"))
        if hx.id not in hexes:
            raise illegal(f"{actor.sym}'s token must go in {', '.join(hexes)}")
        slots = hx.tile.tokens[node]
        if actor.sym in slots:
            raise illegal(f"{actor.sym} cannot have two stations in one city")
        if not self.reaches(actor, hx, node):
            raise illegal(f"{actor.sym}'s track does not reach that city of {hx.id}")
        place_pending_token(self.game, actor, token, hx, node)
        self.pending().pop(0)


class DestinationToken(Step[Game1822]):
    """A major places its destination station once its home reaches the destination (it may not pass then)."""

    name = "Place the destination token"

    def actions(self, entity: Entity) -> list[str]:
        if not in_turn(entity, self) or entity.kind is not CorporationKind.MAJOR:
            return []
        if destination_token(self.game, entity) is None:
            return []
        return ["hex_token", "pass"]

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "hex_token":
            corp = as_corporation(entity)  # the major in turn (actions)
            if not destination_connected(self.game, corp):
                return []
            return [{**entity_action(corp, "hex_token"), "hex": destination_of(corp), "token_type": "destination"}]
        if kind == "pass" and isinstance(entity, Corporation) and destination_connected(self.game, entity):
            return []
        return super().choices(entity, kind)

    # 18xx.games checks the connection only when a move is made live, never when a game is loaded; recorded
    # games hold placements and passes its live check would judge otherwise, so only the choices offered check it.
    def process_hex_token(self, action: Action, entity: Corporation) -> None:
        destination = destination_of(entity)
        if text(action, "hex") != destination:
            raise illegal(f"{entity.sym}'s destination is {destination}")
        place_destination_token(self.game, entity)
        remove_extra_tokens(self.game, self.game.board.hexes[destination])
        self.pass_()


class Token1822(TokenStep[Game1822]):
    """Place a station; P5 (LC&DR) and P18 (C&HPR) may instead move tokens between the exchange area and the
    charter (a choose_ability by the private)."""


    def actions(self, entity: Entity) -> list[str]:
        if isinstance(entity, Company):
            corp = self.round.entity()
            if entity.owner is not corp:
                return []
            out = ["place_token"] if channel_station_power(self.game, entity) else []
            return out + (["choose_ability"] if company_choices(self.game, entity, "token") else [])
        if not in_turn(entity, self):
            return []
        out = list(super().actions(entity))
        if not out and self.normal_tokens(entity) and (
                free_token_hexes(self.game, entity) or p5_holds_token_step(self.game, entity)):
            # 18xx.games stops here while a company holds a station power it has not used (SECR's free station,
            # P5's English Channel station), wherever the company can reach.
            out = ["place_token", "pass"]
        # Only an exchange token that P5 or P18 could bring out keeps the step open for a company that could not
        # place a station otherwise (18xx.games).
        swaps = any(c.sym in ("P5", "P18") and not c.closed for c in entity.companies) \
            and self.game.exchange_tokens.get(entity.sym, 0) > 0
        if (out or swaps) and any(token_choices(self.game, c) for c in entity.companies) \
                and "choose_ability" not in out:
            out.append("choose_ability")
        if out and "pass" not in out:
            out.append("pass")
        return out

    def normal_tokens(self, corp: Corporation) -> list[Token]:
        return [t for t in corp.unused_tokens() if t.kind == TokenKind.NORMAL]

    def free_city(self, corp: Corporation, hx: Hex, node: int) -> bool:
        """Whether this city is one of ``free_cities``."""
        token = next(iter(self.normal_tokens(corp)), None)
        return token is not None and hx.id in free_token_hexes(self.game, corp) and node in hx.tile.tokens \
            and self.game.can_token_city(corp, hx, node, token) and self.game.track.reaches_node(corp, (hx.id, node))

    def free_cities(self, corp: Corporation) -> list[tuple[Any, int]]:
        """Cities of the free-station hexes that ``corp`` reaches and may take a station in."""
        token = next(iter(self.normal_tokens(corp)), None)
        if token is None:
            return []
        free = set(free_token_hexes(self.game, corp))
        out = []
        for hex_id, node in sorted(self.game.track.network(corp).nodes):
            hx = self.game.board.hexes[hex_id]
            if hex_id in free and node in hx.tile.tokens and self.game.can_token_city(corp, hx, node, token):
                out.append((hx, node))
        return out

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "choose_ability":
            return company_choice_actions(self.game, entity, "token")
        if isinstance(entity, Company):
            if kind != "place_token":
                return super().choices(entity, kind)
            return channel_station_actions(self.game, entity)
        out = super().choices(entity, kind)
        if kind == "place_token" and isinstance(entity, Corporation):
            out = [a for a in out if offers_city(self.game, entity, *self.game.track.city_by_id(a["city"]))]
            cities = {a["city"] for a in out}
            out += [{**entity_action(entity, "place_token"), "city": f"{hx.tile.id}-{node}"}
                    for hx, node in self.free_cities(entity) if f"{hx.tile.id}-{node}" not in cities]
        return out

    def process_place_token(self, action: Action, entity: Entity) -> None:
        hx, node = self.game.track.city_by_id(text(action, "city"))
        if isinstance(entity, Company):
            # P5's station is an extra action: the company's own station placement is still to come.
            place_channel_station(self.game, entity, hx, node, opt_whole(action, "slot"))
            return
        if isinstance(entity, Corporation) and opt_text(action, "token_type") is None \
                and self.free_city(entity, hx, node):
            token: Token = self.normal_tokens(entity)[0]
            self.game.track.place_token(entity, token, hx, node, free=True, slot=opt_whole(action, "slot"))
            self.game.free_tokens_used.add(entity.sym)
            self.pass_()
            return
        super().process_place_token(action, entity)

    def process_choose_ability(self, action: Action, entity: Entity) -> None:
        if not isinstance(entity, Company):
            raise illegal("a private makes that choice")
        make_company_choice(self.game, entity, text(action, "choice"), "token")
