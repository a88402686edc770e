"""Track and stations, a part the game owns (``game.track``): tile lays and upgrades, the tokens on the map, home
stations, reservations and the company networks they make.

The hooks of these rules (``hooks.TrackHooks``) stay on :class:`engine.core.game.Game`, where titles implement
them; the longer defaults are here (the ``Game`` default hands over to the method of the same name), and every
hook this part asks goes through the game, so a title's implementation is the one that answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from . import events as ev
from .abilities import (
    BlocksHexes,
    TileIncome,
    TokenAbility,
)
from .board import Board, Hex
from .entities import Bank, Company, Corporation, Token, pay
from .errors import illegal, insufficient, malformed
from .graph import Network, company_network
from .hooks import TrackHooks
from .tiles import Tile, TileDef, TokenKind
from .track import move_tokens

if TYPE_CHECKING:
    from .flow import RoundState


class TrackHost(TrackHooks, Protocol):
    """What the part reads of its game: the state below, and the hooks it asks."""

    board: Board
    bank: Bank
    companies: dict[str, Company]
    corporations: dict[str, Corporation]
    tile_supply: dict[str, Tile]
    tile_defs: dict[str, TileDef]
    unlimited_tiles: set[str]
    last_tile_hex: str | None
    networks: dict[str, Network]
    board_cache: dict[str, Any]
    pending_tokens: list[tuple[Corporation, list[str], Token]]
    routes_seen: set[str]
    round: RoundState

    @property
    def phase(self) -> dict[str, Any]: ...

    def log(self, line: str) -> None: ...

    def format_money(self, amount: int) -> str: ...


class TrackPart:
    """Tile lays, stations, home stations, reservations and the networks they make, for one game."""

    def __init__(self, game: TrackHost) -> None:
        self.game = game

    def blocked_hex(self, hx: Hex) -> Company | None:
        # Asked on every lay: only a private whose card names the hex is asked whether its block works now.
        hex_id = hx.id
        for comp in self.game.companies.values():
            for ability in comp.abilities:
                if isinstance(ability, BlocksHexes) and hex_id in ability.hexes:
                    if any(hex_id in a.hexes for a in comp.active(BlocksHexes)):
                        return comp
                    break
        return None

    def tile_from_supply(self, tile_id: str) -> Tile:
        game = self.game
        tile = game.tile_supply.get(tile_id)
        if tile is None:
            name = tile_id.rsplit("-", 1)[0]
            if name in game.unlimited_tiles and name in game.tile_defs:
                tile = Tile(tile_id, game.tile_defs[name])
                return tile
            raise illegal(f"tile {tile_id} is not available")
        return tile

    def lay_tile(self, corp: Corporation, action: dict[str, Any], *, extra_cost: int = 0,
                 check_connection: bool = True, payer: Corporation | None = None, free_terrain: bool = False) -> None:
        game = self.game
        hx = game.board[action["hex"]]
        rotation = int(action["rotation"])
        if not 0 <= rotation <= 5:
            raise malformed(f"rotation must be 0 to 5, not {rotation}")
        blocker = self.blocked_hex(hx)
        if blocker is not None:
            raise illegal(f"{hx.id} is blocked by {blocker.sym} while a player owns it")
        tile = self.tile_from_supply(str(action["tile"]))
        if tile.colour not in game.phase["tiles"]:
            raise illegal(f"{tile.colour} tiles are not available in phase {game.phase['name']}")
        if check_connection:
            def allowed(sides: set[int]) -> bool:
                return bool(sides) and self.rotation_allowed(hx, tile, rotation,
                                                             game.tile_rotations(corp, hx, tile.tdef, sides))

            # A rotation legal with some connected sides stays legal with more, so most lays are allowed by part
            # of the network (Network.sides_allow).
            near = self.reach(corp)
            if near.sides_allow(hx.id, allowed):
                rotations = [rotation]
            else:
                # Every station was walked: the whole network says why not.
                edges = near.hex_edges.get(hx.id)
                if not edges:
                    raise illegal(f"{hx.id} is not connected to {corp.sym}'s network")
                rotations = game.tile_rotations(corp, hx, tile.tdef, edges)
        else:
            rotations = game.tile_rotations(corp, hx, tile.tdef, None)
        if not self.rotation_allowed(hx, tile, rotation, rotations):
            if not rotations:
                raise illegal(f"tile {tile.name} cannot be laid on {hx.id}")
            raise illegal(f"tile {tile.name} cannot be laid on {hx.id} at rotation {rotation}; "
                          f"legal rotations: {', '.join(map(str, rotations))}")
        payer = payer or corp
        terrain = 0 if free_terrain else game.upgrade_cost(corp, hx, tile)
        old = hx.tile
        tile.rotation = rotation
        cost = terrain + extra_cost
        # River crossings are paid when the new track meets track across the river.
        hx.tile = tile
        river, crossings = game.lay_crossings(corp, hx, tile)
        cost += river
        if cost > payer.cash:
            hx.tile = old
            raise insufficient(f"{payer.sym} cannot afford this tile lay: treasury {game.format_money(payer.cash)}, "
                               f"cost {game.format_money(cost)}")
        move_tokens(old, tile)
        self.retarget_tokens(hx)
        if not old.tdef.paths and tile.tdef.paths and len(tile.tdef.cities) > 1:
            self.rechoose_city(hx, tile, corp)
        game.tile_supply.pop(tile.id, None)
        if not old.preprinted:
            old.rotation = 0
            game.tile_supply[old.id] = old
        if cost:
            pay(payer, game.bank, cost, ev.Why.TILE)
        ev.emit(ev.TileLaid(hx.id, tile.name, tile.id, rotation, None if old.preprinted else old.name, corp.sym))
        game.last_tile_hex = hx.id
        self.hex_changed(hx, corp)
        game.log(f"{corp.sym} lays tile {tile.name} on {hx.id} (rotation {rotation})"
                 + (f" for {game.format_money(cost)}" if cost else ""))
        self.pay_tile_income(crossings)
        game.after_tile_laid(corp, hx, tile, crossings)

    def pay_tile_income(self, water_crossings: int) -> None:
        """Privates with tile income earn it from the bank for the river crossings a lay paid for."""
        game = self.game
        if not water_crossings:
            return
        for comp in game.companies.values():
            for ability in comp.active(TileIncome):
                income = ability.income * water_crossings
                assert comp.owner is not None
                game.bank.spend(income, comp.owner)
                game.log(f"{comp.owner.name} earns {game.format_money(income)} from {comp.sym}")

    def rechoose_city(self, hx: Hex, tile: Tile, layer: Corporation) -> None:
        """Every token on a trackless multi-city hex is re-placed once track arrives, by the company that laid
        the track (as 18xx.games asks; the rules are silent)."""
        if self.game.remembers_routes() and any(owner == layer.sym for slots in tile.tokens.values()
                                                for owner in slots):
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
                self.game.pending_tokens.append((layer, [hx.id], token))

    def all_tokens(self) -> list[Token]:
        return [t for c in self.game.corporations.values() for t in c.tokens]

    def rotation_allowed(self, hx: Hex, tile: Tile, rotation: int, rotations: list[int]) -> bool:
        return rotation in rotations or self.equivalent_rotation(hx, tile, rotation, rotations)

    def equivalent_rotation(self, hx: Hex, tile: Tile, rotation: int, rotations: list[int]) -> bool:
        exits = frozenset((e + rotation) % 6 for e in tile.tdef.edges())
        from .track import path_signatures
        sig = sorted(map(repr, path_signatures(tile.tdef, rotation)))
        for r in rotations:
            if frozenset((e + r) % 6 for e in tile.tdef.edges()) == exits and \
                    sorted(map(repr, path_signatures(tile.tdef, r))) == sig:
                return True
        return False

    def retarget_tokens(self, hx: Hex) -> None:
        """Point each station in ``hx`` at its space on the new tile, one station per space: a station whose
        space still holds it keeps it (a company may have several stations in one hex, as in 1822's London)."""
        spaces = [(node, slot, owner, hx.tile.kinds[node][slot]) for node, slots in hx.tile.tokens.items()
                  for slot, owner in enumerate(slots) if owner is not None]
        if not spaces:
            return  # no station to point anywhere (most lays)
        placed = [t for corp in self.game.corporations.values() for t in corp.tokens if t.used and t.hex == hx.id]
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

    def board_changed(self) -> None:
        """Forget everything derived from tiles and tokens."""
        game = self.game
        game.networks.clear()
        game.board_cache.clear()
        game.board_refreshed()

    def hex_changed(self, hx: Hex, corp: Corporation) -> None:
        """Forget what a new tile or station of ``corp`` in ``hx`` alone can change: of every network, the walks
        from its stations that the change may alter (``TokenWalk.may_change``). A network that lost a walk, or
        whose stations may have changed (``corp``'s, those with a station in ``hx``), is built again when next
        asked, walking only from the stations whose walks are gone if its stations are the same (walking the
        track again is most of the cost of a replay)."""
        game = self.game
        game.board_cache.clear()
        hex_id = hx.id
        owners = {owner for slots in hx.tile.tokens.values() for owner in slots}
        for sym, net in game.networks.items():
            dropped = [ref for ref, walk in net.walks.items() if walk.may_change(hx)]
            for ref in dropped:
                del net.walks[ref]
            if dropped or sym == corp.sym or sym in owners or any(h == hex_id for h, _ in net.token_nodes) \
                    or any(walk.may_change(hx) for walk in net.partial.values()):
                net.stale = True
        game.board_refreshed()

    def network(self, corp: Corporation) -> Network:
        """The company's whole network."""
        net = self.whole(self._cached(corp))
        self.game.network_read(corp, net)
        return net

    def reach(self, corp: Corporation) -> Network:
        """The company's network as far as it is known without walking again from the stations whose walks a
        change dropped (``Network.missing``): a node or side it holds, the whole network holds; one it lacks
        asks ``whole``. Its route flags are exact (they complete it when the part known shows no route)."""
        net = self._cached(corp)
        self.game.network_read(corp, net)
        return net

    @staticmethod
    def whole(net: Network) -> Network:
        """``net`` (a company's network from ``reach``) completed."""
        net.complete()
        return net

    def _cached(self, corp: Corporation) -> Network:
        game = self.game
        net = game.networks.get(corp.sym)
        if net is None or net.stale:
            net = company_network(game.board, corp.sym, optional_stops=self.optional_stops(), stale=net, lazy=True)
            game.networks[corp.sym] = net
        return net

    def shows(self, corp: Corporation, question: Callable[[Network], bool]) -> bool:
        """Whether the company's network shows what ``question`` looks for, asked first of the part known without
        walking again (``reach``) and of the whole network only when that part does not: ``question`` must be
        one that more of the network can only turn from no to yes (a node or a side reached)."""
        return self.reach(corp).complete_until(question)

    def reaches_node(self, corp: Corporation, ref: tuple[str, int]) -> bool:
        """Whether the company's network reaches the node ``ref``, asked where the answer is wanted once (a station
        about to be placed there): a walk stops as soon as it reaches the node, and is not kept."""
        return self.reach(corp).node_wanted(lambda found: found == ref)

    def any_node(self, corp: Corporation, wanted: Callable[[str, int], bool]) -> bool:
        """Whether a node of the company's network is ``wanted``."""
        return self.reach(corp).node_wanted(lambda ref: wanted(*ref))

    def remember_route(self, corp: Corporation) -> None:
        """Remember for good that the company's track joins two stops now (18xx.games' graph keeps that answer
        when the map changes; the title calls this where 18xx.games looks)."""
        if corp.sym not in self.game.routes_seen and not corp.closed and self.reach(corp).route_possible:
            self.game.round.forget()  # a step's answers may change with it (core.memory)
            self.game.routes_seen.add(corp.sym)

    def optional_stops(self) -> frozenset[tuple[str, int]]:
        return self.game.board.optional_stops

    def city_by_id(self, city_id: str) -> tuple[Hex, int]:
        tile_id, _, index = str(city_id).rpartition("-")
        for hx in self.game.board.hexes.values():
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
        hexes = self.game.board.hexes
        # As on 18xx.games, affordability and placeability are checked separately.
        return self.any_node(corp, lambda hex_id, node: node in hexes[hex_id].tile.tokens and any(
            self.game.can_token_city(corp, hexes[hex_id], node, t) for t in unused))

    def token_ability_prices(self, corp: Corporation) -> list[int]:
        """Prices of station placements that privates owned by ``corp`` offer (their unused token abilities)."""
        return [a.price for comp in self.game.companies.values() if comp.owner is corp
                for a in comp.active(TokenAbility)]

    def place_home_choice(self, corp: Corporation, hx: Hex, node: int, slot: int | None,
                          token: Token | None = None) -> None:
        self.place_token(corp, token or corp.tokens[0], hx, node, free=True, slot=slot)

    def token_owner(self, token: Token, default: Corporation) -> Corporation:
        return self.game.corporations.get(token.corp, default)

    def home_token_spots(self, corp: Corporation, hexes: list[str]) -> list[tuple[Hex, int, int]]:
        """(hex, city, slot) where a pending home or re-placed station of ``corp`` may go: an open space, or a
        neutral station's space for a company that may replace it."""
        replace = self.game.may_replace_neutral(corp)
        out: list[tuple[Hex, int, int]] = []
        for hex_id in hexes:
            hx = self.game.board[hex_id]
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
        game = self.game
        if not corp.tokens or corp.tokens[0].used or corp.home is None:
            return
        hx = game.board[corp.home]
        if self.home_reserved_on_tile(corp, hx) and hx.tile.tdef.paths:
            # The president chooses the city, whatever tile lies there now: the home-token step asks for it.
            # (On a trackless printed tile the first city is taken, and track arriving later asks again.)
            if all(p[0] is not corp for p in game.pending_tokens):
                game.pending_tokens.append((corp, [hx.id], corp.tokens[0]))
            return
        self.place_token(corp, corp.tokens[0], hx, game.home_node(corp, hx), free=True)
        game.after_home_token(corp)

    def place_token(self, corp: Corporation, token: Token, hx: Hex, node: int, *, free: bool = False,
                    slot: int | None = None) -> None:
        game = self.game
        extra = 0 if free else game.station_surcharge(corp, token, hx)
        slots = hx.tile.tokens[node]
        if slot is None or slots[slot] is not None:
            slot = self.free_slot(hx, node, corp.sym)
        if slot is None:
            raise illegal(f"no free token space in {hx.id}")
        if not free and token.price:
            if corp.cash < token.price:
                raise insufficient(f"{corp.sym} cannot afford a token: treasury {game.format_money(corp.cash)}, "
                                   f"price {game.format_money(token.price)}")
            pay(corp, game.bank, token.price, ev.Why.STATION)
        old_owner = slots[slot]
        slots[slot] = token.corp
        hx.tile.kinds[node][slot] = token.kind
        ev.emit(ev.StationChanged(hx.id, node, slot, old_owner, token.corp, token.kind.value))
        token.used = True
        token.hex, token.node, token.slot = hx.id, node, slot
        self.hex_changed(hx, corp)
        game.log(f"{corp.sym} places a token on {hx.id}")
        if extra:
            pay(corp, game.bank, extra, ev.Why.STATION)

    def free_slot(self, hx: Hex, node: int, corp: str) -> int | None:
        slots = hx.tile.tokens[node]
        if None not in slots:
            return None  # a full city: no reservation to look for
        reserved = self.game.reserved_slots(hx, node)
        for i, s in enumerate(slots):
            if s is None and (reserved.get(i) in (None, corp)):
                return i
        return None

    @staticmethod
    def home_reserved_on_tile(corp: Corporation, hx: Hex) -> bool:
        """A home given as a hex whose printed tile has several cities holds a space somewhere in the hex, not in
        one city, until the company places it (18xx.games keeps that reservation through upgrades)."""
        return corp.home == hx.id and corp.home_city is None and len(hx.original.tdef.cities) > 1

    def reserved_slots(self, hx: Hex, node: int) -> dict[int, str]:
        out: dict[int, str] = {}
        for corp in self.game.corporations.values():
            if corp.home != hx.id or not corp.tokens or corp.tokens[0].used or corp.closed:
                continue
            if self.home_reserved_on_tile(corp, hx):
                continue
            if self.game.home_node(corp, hx) != node:
                continue
            slots = hx.tile.tokens[node]
            for i, s in enumerate(slots):
                if s is None and i not in out:
                    out[i] = corp.sym
                    break
        return out

    def tile_home_holders(self, hx: Hex, corp: str) -> list[Corporation]:
        """Other companies whose home in this multi-city hex (no city given) is still to be placed."""
        return [c for c in self.game.corporations.values()
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
        return not self.game.token_blocked_by_reservation(hx, owner)
