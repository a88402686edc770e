"""Rules for track and stations: tile lays and upgrades, the tokens on the map, home stations, reservations
and the company networks they make.
"""

from __future__ import annotations

from typing import Any

from . import events as ev
from .abilities import (
    BlocksHexes,
    TileIncome,
    TokenAbility,
)
from .board import Hex
from .entities import Company, Corporation, Token, pay
from .errors import illegal, insufficient, malformed
from .graph import Network, company_network
from .play_shares import ShareRules
from .tiles import Tile, TokenKind
from .track import border_cost, crossing_cost, legal_rotations, move_tokens


class TrackRules(ShareRules):
    def tile_lays(self) -> list[dict[str, Any]]:
        return [{"lay": True, "upgrade": True}]

    def can_lay_track(self, corp: Corporation) -> bool:
        return any(t.used for t in corp.tokens)

    def blocked_hex(self, hx: Hex) -> Company | None:
        # Asked on every lay: only a private whose card names the hex is asked whether its block works now.
        hex_id = hx.id
        return next((comp for comp in self.companies.values()
                     if any(isinstance(a, BlocksHexes) and hex_id in a.hexes for a in comp.abilities)
                     and any(hex_id in a.hexes for a in comp.active(BlocksHexes))), None)

    def tile_from_supply(self, tile_id: str) -> Tile:
        tile = self.tile_supply.get(tile_id)
        if tile is None:
            name = tile_id.rsplit("-", 1)[0]
            if name in self.unlimited_tiles and name in self.tile_defs:
                tile = Tile(tile_id, self.tile_defs[name])
                return tile
            raise illegal(f"tile {tile_id} is not available")
        return tile

    def lay_tile(self, corp: Corporation, action: dict[str, Any], *, extra_cost: int = 0,
                 check_connection: bool = True, payer: Corporation | None = None, free_terrain: bool = False) -> None:
        hx = self.board[action["hex"]]
        rotation = int(action["rotation"])
        if not 0 <= rotation <= 5:
            raise malformed(f"rotation must be 0 to 5, not {rotation}")
        blocker = self.blocked_hex(hx)
        if blocker is not None:
            raise illegal(f"{hx.id} is blocked by {blocker.sym} while a player owns it")
        tile = self.tile_from_supply(str(action["tile"]))
        if tile.colour not in self.phase["tiles"]:
            raise illegal(f"{tile.colour} tiles are not available in phase {self.phase['name']}")
        edges = self.network(corp).hex_edges.get(hx.id, set()) if check_connection else None
        if check_connection and not edges:
            raise illegal(f"{hx.id} is not connected to {corp.sym}'s network")
        rotations = self.tile_rotations(corp, hx, tile.tdef, edges)
        if rotation not in rotations and not self._equivalent_rotation(hx, tile, rotation, rotations):
            if not rotations:
                raise illegal(f"tile {tile.name} cannot be laid on {hx.id}")
            raise illegal(f"tile {tile.name} cannot be laid on {hx.id} at rotation {rotation}; "
                          f"legal rotations: {', '.join(map(str, rotations))}")
        payer = payer or corp
        terrain = 0 if free_terrain else self.upgrade_cost(corp, hx, tile)
        old = hx.tile
        tile.rotation = rotation
        cost = terrain + extra_cost
        # River crossings are paid when the new track meets track across the river.
        hx.tile = tile
        river, crossings = self.lay_crossings(corp, hx, tile)
        cost += river
        if cost > payer.cash:
            hx.tile = old
            raise insufficient(f"{payer.sym} cannot afford this tile lay: treasury {self.format_money(payer.cash)}, "
                               f"cost {self.format_money(cost)}")
        move_tokens(old, tile)
        self._retarget_tokens(hx)
        if not old.tdef.paths and tile.tdef.paths and len(tile.tdef.cities) > 1:
            self._rechoose_city(hx, tile, corp)
        self.tile_supply.pop(tile.id, None)
        if not old.preprinted:
            old.rotation = 0
            self.tile_supply[old.id] = old
        if cost:
            pay(payer, self.bank, cost, ev.Why.TILE)
        ev.emit(ev.TileLaid(hx.id, tile.name, tile.id, rotation, None if old.preprinted else old.name, corp.sym))
        self.last_tile_hex = hx.id
        self.hex_changed(hx, corp)
        self.log(f"{corp.sym} lays tile {tile.name} on {hx.id} (rotation {rotation})"
                 + (f" for {self.format_money(cost)}" if cost else ""))
        self.pay_tile_income(crossings)
        self.after_tile_laid(corp, hx, tile, crossings)

    def lay_crossings(self, corp: Corporation, hx: Hex, tile: Tile) -> tuple[int, int]:
        """Title hook: the river crossings laying ``tile`` (already on ``hx``) pays for, as (cost, count); they
        are removed from the map. By default a crossing is paid when it completes track on both sides."""
        return border_cost(self, hx, tile)

    def crossing_estimate(self, corp: Corporation, hx: Hex, exits: frozenset[int]) -> int:
        """Title hook: what the crossings of a tile with these exits would cost on ``hx`` (nothing changes)."""
        return crossing_cost(self, hx, exits)

    def tile_rotations(self, corp: Corporation, hx: Hex, tdef: Any, edges: set[int] | None) -> list[int]:
        """Title hook: the rotations at which ``tdef`` may be laid on ``hx`` (track rules, connected to
        ``edges`` when given); titles with special upgrades (1822's Swansea, future labels) change it."""
        return legal_rotations(self, hx, tdef, edges)

    def upgrade_cost(self, corp: Corporation, hx: Hex, tile: Tile) -> int:
        """What laying ``tile`` on ``hx`` costs before river crossings: the printed hex's terrain on its first lay,
        later the printed upgrade cost of the tile being replaced (1822's London). Titles add discounts."""
        return hx.terrain_cost if hx.tile is hx.original else hx.tile.tdef.upgrade_cost

    def pay_tile_income(self, water_crossings: int) -> None:
        """Privates with tile income earn it from the bank for the river crossings a lay paid for."""
        if not water_crossings:
            return
        for comp in self.companies.values():
            for ability in comp.active(TileIncome):
                income = ability.income * water_crossings
                assert comp.owner is not None
                self.bank.spend(income, comp.owner)
                self.log(f"{comp.owner.name} earns {self.format_money(income)} from {comp.sym}")

    def _rechoose_city(self, hx: Hex, tile: Tile, layer: Corporation) -> None:
        """Every token on a trackless multi-city hex is re-placed once track arrives, by the company that laid
        the track (as 18xx.games asks; the rules are silent)."""
        if self.remembers_routes() and any(owner == layer.sym for slots in tile.tokens.values() for owner in slots):
            # 18xx.games looks at the layer's track while its station still sits in the city of the same number
            # on the new tile, before asking where it goes; a route seen then is remembered.
            self.board_changed()
            self.remember_route(layer)
        for node, slots in tile.tokens.items():
            for slot, owner in enumerate(slots):
                if owner is None or tile.kinds[node][slot] is TokenKind.BLOCKING:
                    continue  # a blocking marker is no company's token to re-place: it keeps its space
                kind = tile.kinds[node][slot]
                token = next(t for t in self.all_tokens() if t.used and t.hex == hx.id and t.corp == owner
                             and t.kind == kind)
                slots[slot] = None
                tile.kinds[node][slot] = TokenKind.NORMAL
                ev.emit(ev.StationChanged(hx.id, node, slot, owner, None))
                token.used, token.hex, token.node, token.slot = False, None, -1, -1
                self.pending_tokens.append((layer, [hx.id], token))

    def all_tokens(self) -> list[Token]:
        return [t for c in self.corporations.values() for t in c.tokens]

    def _equivalent_rotation(self, hx: Hex, tile: Tile, rotation: int, rotations: list[int]) -> bool:
        exits = frozenset((e + rotation) % 6 for e in tile.tdef.edges())
        from .track import path_signatures
        sig = sorted(map(repr, path_signatures(tile.tdef, rotation)))
        for r in rotations:
            if frozenset((e + r) % 6 for e in tile.tdef.edges()) == exits and \
                    sorted(map(repr, path_signatures(tile.tdef, r))) == sig:
                return True
        return False

    def _retarget_tokens(self, hx: Hex) -> None:
        """Point each station in ``hx`` at its space on the new tile, one station per space: a station whose
        space still holds it keeps it (a company may have several stations in one hex, as in 1822's London)."""
        placed = [t for corp in self.corporations.values() for t in corp.tokens if t.used and t.hex == hx.id]
        spaces = [(node, slot, owner, hx.tile.kinds[node][slot]) for node, slots in hx.tile.tokens.items()
                  for slot, owner in enumerate(slots) if owner is not None]
        taken: set[tuple[int, int]] = set()
        moved = []
        for token in placed:
            here = (token.node, token.slot)
            if any((n, s) == here and o == token.corp and k == token.kind for n, s, o, k in spaces):
                taken.add(here)
            else:
                moved.append(token)
        for token in moved:
            for node, slot, owner, kind in spaces:
                if (node, slot) not in taken and owner == token.corp and kind == token.kind:
                    token.node, token.slot = node, slot
                    taken.add((node, slot))
                    break

    def after_tile_laid(self, corp: Corporation, hx: Hex, tile: Tile, water_crossings: int) -> None:
        """Title hook (river income, bonuses)."""

    def board_changed(self) -> None:
        """Forget everything derived from tiles and tokens."""
        self.networks.clear()
        self.board_cache.clear()
        self.board_refreshed()

    def hex_changed(self, hx: Hex, corp: Corporation) -> None:
        """Forget what a new tile or station of ``corp`` in ``hx`` alone can change: of every network, the walks
        from its stations that the change may alter (``TokenWalk.may_change``). A network that lost a walk, or
        whose stations may have changed (``corp``'s, those with a station in ``hx``), is built again when next
        asked, walking only from the stations whose walks are gone if its stations are the same (walking the
        track again is most of the cost of a replay)."""
        self.board_cache.clear()
        hex_id = hx.id
        owners = {owner for slots in hx.tile.tokens.values() for owner in slots}
        for sym, net in self.networks.items():
            dropped = [ref for ref, walk in net.walks.items() if walk.may_change(hx)]
            for ref in dropped:
                del net.walks[ref]
            if dropped or sym == corp.sym or sym in owners or any(h == hex_id for h, _ in net.token_nodes):
                net.stale = True
        self.board_refreshed()

    def board_refreshed(self) -> None:
        """Title hook: recompute what the title derives from the board, after any change to it."""

    def network(self, corp: Corporation) -> Network:
        net = self.networks.get(corp.sym)
        if net is None or net.stale:
            net = company_network(self.board, corp.sym, optional_stops=self.optional_stops(), stale=net)
            self.networks[corp.sym] = net
        self.network_read(corp, net)
        return net

    def network_read(self, corp: Corporation, net: Network) -> None:
        """Title hook: each time a company's network is read (1828 remembers then that it once had a route)."""

    def remembers_routes(self) -> bool:
        """Title hook: whether a company that once had a route keeps running and must own a train after its
        track is cut off (18xx.games' memory of routes; see TrainRules.route_available)."""
        return False

    def remember_route(self, corp: Corporation) -> None:
        """Remember for good that the company's track joins two stops now (18xx.games' graph keeps that answer
        when the map changes; the title calls this where 18xx.games looks)."""
        if corp.sym not in self.routes_seen and not corp.closed and self.network(corp).route_possible:
            self.routes_seen.add(corp.sym)

    def optional_stops(self) -> frozenset[tuple[str, int]]:
        return self.board.optional_stops

    def city_by_id(self, city_id: str) -> tuple[Hex, int]:
        tile_id, _, index = str(city_id).rpartition("-")
        for hx in self.board.hexes.values():
            # Games stored before printed tiles carried their copy number name them "HEX-0".
            if hx.tile.id == tile_id or (hx.tile.preprinted and tile_id == f"{hx.id}-0"):
                node = int(index)
                if node not in hx.tile.tokens:
                    raise malformed(f"{city_id} is not a city")
                return hx, node
        raise malformed(f"there is no city {city_id} on the map")

    def token_for(self, corp: Corporation, token_type: str | None) -> Token | None:
        want_neutral = token_type == "neutral"
        for t in corp.unused_tokens():
            if t.neutral == want_neutral:
                return t
        return None

    def can_place_token(self, corp: Corporation) -> bool:
        unused = corp.unused_tokens()
        prices = [t.price for t in unused] + self.token_ability_prices(corp)
        if not unused or min(prices) > corp.cash:
            return False
        net = self.network(corp)
        for hex_id, node in net.nodes:
            hx = self.board.hexes[hex_id]
            # As on 18xx.games, affordability and placeability are checked separately.
            if node in hx.tile.tokens and any(self.can_token_city(corp, hx, node, t) for t in unused):
                return True
        return False

    def token_ability_prices(self, corp: Corporation) -> list[int]:
        """Prices of station placements that privates owned by ``corp`` offer (their unused token abilities)."""
        return [a.price for comp in self.companies.values() if comp.owner is corp for a in comp.active(TokenAbility)]

    def place_home_choice(self, corp: Corporation, hx: Hex, node: int, slot: int | None,
                          token: Token | None = None) -> None:
        self.place_token(corp, token or corp.tokens[0], hx, node, free=True, slot=slot)

    def may_replace_neutral(self, corp: Corporation) -> bool:
        """Title hook: whether this company's home station may take a neutral station's space."""
        return False

    def token_owner(self, token: Token, default: Corporation) -> Corporation:
        return self.corporations.get(token.corp, default)

    def home_token_spots(self, corp: Corporation, hexes: list[str]) -> list[tuple[Hex, int, int]]:
        """(hex, city, slot) where a pending home or re-placed station of ``corp`` may go: an open space, or a
        neutral station's space for a company that may replace it."""
        replace = self.may_replace_neutral(corp)
        out: list[tuple[Hex, int, int]] = []
        for hex_id in hexes:
            hx = self.board[hex_id]
            for node, slots in hx.tile.tokens.items():
                for slot, owner in enumerate(slots):
                    if owner is None:
                        if self.free_slot(hx, node, corp.sym) is not None:
                            out.append((hx, node, slot))
                            break  # the open spaces of one city are all the same
                    elif replace and owner == "CN" and hx.tile.kinds[node][slot] is TokenKind.NEUTRAL:
                        out.append((hx, node, slot))
        return out

    def place_home_token(self, corp: Corporation) -> None:
        if not corp.tokens or corp.tokens[0].used or corp.home is None:
            return
        hx = self.board[corp.home]
        if self.home_reserved_on_tile(corp, hx) and hx.tile.tdef.paths:
            # The president chooses the city, whatever tile lies there now: the home-token step asks for it.
            # (On a trackless printed tile the first city is taken, and track arriving later asks again.)
            if all(p[0] is not corp for p in self.pending_tokens):
                self.pending_tokens.append((corp, [hx.id], corp.tokens[0]))
            return
        self.place_token(corp, corp.tokens[0], hx, self.home_node(corp, hx), free=True)
        self.after_home_token(corp)

    def after_home_token(self, corp: Corporation) -> None:
        """Title hook: after ``corp``'s home station was placed by the core (not chosen in the home-token step)."""

    def place_token(self, corp: Corporation, token: Token, hx: Hex, node: int, *, free: bool = False,
                    slot: int | None = None) -> None:
        extra = 0 if free else self.station_surcharge(corp, token, hx)
        slots = hx.tile.tokens[node]
        if slot is None or slots[slot] is not None:
            slot = self.free_slot(hx, node, corp.sym)
        if slot is None:
            raise illegal(f"no free token space in {hx.id}")
        if not free and token.price:
            if corp.cash < token.price:
                raise insufficient(f"{corp.sym} cannot afford a token: treasury {self.format_money(corp.cash)}, "
                                   f"price {self.format_money(token.price)}")
            pay(corp, self.bank, token.price, ev.Why.STATION)
        old_owner = slots[slot]
        slots[slot] = token.corp
        hx.tile.kinds[node][slot] = token.kind
        ev.emit(ev.StationChanged(hx.id, node, slot, old_owner, token.corp, token.kind.value))
        token.used = True
        token.hex, token.node, token.slot = hx.id, node, slot
        self.reservations_release(corp.sym, hx)
        self.hex_changed(hx, corp)
        self.log(f"{corp.sym} places a token on {hx.id}")
        if extra:
            pay(corp, self.bank, extra, ev.Why.STATION)

    def station_surcharge(self, corp: Corporation, token: Token, hx: Hex) -> int:
        """Title hook: what ``corp`` pays beyond the station's price to place ``token`` on ``hx`` (1862: half again
        across the border), paid after it; raises GameError when ``corp`` cannot pay both."""
        return 0

    def free_slot(self, hx: Hex, node: int, corp: str) -> int | None:
        slots = hx.tile.tokens[node]
        if None not in slots:
            return None  # a full city: no reservation to look for
        reserved = self.reserved_slots(hx, node)
        for i, s in enumerate(slots):
            if s is None and (reserved.get(i) in (None, corp)):
                return i
        return None

    def home_node(self, corp: Corporation, hx: Hex) -> int:
        """Title hook: the city of the hex's tile where ``corp``'s home station goes (and is reserved): the one its
        ``home_city`` names, or the first."""
        cities = hx.tile.tdef.cities
        return cities[corp.home_city or 0] if corp.home_city is not None else cities[0]

    @staticmethod
    def home_reserved_on_tile(corp: Corporation, hx: Hex) -> bool:
        """A home given as a hex whose printed tile has several cities holds a space somewhere in the hex, not in
        one city, until the company places it (18xx.games keeps that reservation through upgrades)."""
        return corp.home == hx.id and corp.home_city is None and len(hx.original.tdef.cities) > 1

    # Reservations: (hex, node) -> {slot: corp}
    def reserved_slots(self, hx: Hex, node: int) -> dict[int, str]:
        out: dict[int, str] = {}
        for corp in self.corporations.values():
            if corp.home != hx.id or not corp.tokens or corp.tokens[0].used or corp.closed:
                continue
            if self.home_reserved_on_tile(corp, hx):
                continue
            if self.home_node(corp, hx) != node:
                continue
            slots = hx.tile.tokens[node]
            for i, s in enumerate(slots):
                if s is None and i not in out:
                    out[i] = corp.sym
                    break
        return out

    def reservations_release(self, corp: str, hx: Hex) -> None:
        pass

    def tile_home_holders(self, hx: Hex, corp: str) -> list[Corporation]:
        """Other companies whose home in this multi-city hex (no city given) is still to be placed."""
        return [c for c in self.corporations.values()
                if c.home == hx.id and c.sym != corp and c.tokens and not c.tokens[0].used
                and not c.closed and self.home_reserved_on_tile(c, hx)]

    def token_blocked_by_reservation(self, hx: Hex, corp: str) -> bool:
        """Multi-city homes (no city given) keep one free slot in the hex for their company."""
        holders = self.tile_home_holders(hx, corp)
        if not holders:
            return False
        free = sum(1 for slots in hx.tile.tokens.values() for s in slots if s is None)
        return free <= len(holders)

    def can_token_city(self, corp: Corporation, hx: Hex, node: int, token: Token | None = None) -> bool:
        """A city takes a token with a free slot when the token's owner has none in the hex yet (rules 11.4: one
        station per company per hex; a neutral token belongs to CN, so it may join its placer's hex, once)."""
        if node not in hx.tile.tokens:
            return False
        owner = token.corp if token is not None else corp.sym
        if any(owner in slots for slots in hx.tile.tokens.values()):
            return False
        if self.free_slot(hx, node, owner) is None:
            return False
        return not self.token_blocked_by_reservation(hx, owner)
