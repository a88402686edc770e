"""Rules shared by titles for parring, track, tokens, revenue, trains and money raising.

Mixed into :class:`engine.core.game.Game`; title modules override the named hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import shares as units
from .abilities import (
    TURN_ABILITIES,
    BlocksHexes,
    Close,
    CloseWhen,
    Exchange,
    NoBuy,
    Shares,
    TileIncome,
    TokenAbility,
)
from .entities import Company, Corporation, Player, Share, Token, Train
from .errors import illegal, insufficient, malformed
from .market import Cell, parse_price_text
from .routes import Route
from .tiles import Tile, TokenKind
from .track import border_cost, crossing_cost, legal_rotations, move_tokens

if TYPE_CHECKING:
    from .board import Hex

# PlayRules is mixed into Game and uses Game's state freely. Typing it as a Game subclass would make the two
# classes depend on each other, which mypy cannot resolve, so its ``self`` is typed loosely instead.
_Base: Any = object


class PlayRules(_Base):
    pending_tokens: list[tuple[Corporation, list[str], Token]]

    # ------------------------------------------------------------------ par
    def parse_price(self, text: str, *, par: bool = False) -> Cell:
        price, row, col = parse_price_text(text)
        cell = self.market.at(row, col)
        if cell is None or cell.price != price:
            raise malformed(f"there is no share price {self.format_money(price)} at row {row}, column {col}")
        if par and not cell.par:
            pars = ", ".join(self.format_money(c.price) for c in self.market.par_cells())
            raise illegal(f"{self.format_money(price)} is not a par price; par prices: {pars}")
        return cell

    def can_par(self, corp: Corporation, player: Player) -> bool:
        if corp.ipoed or corp.closed:
            return False
        # A corporation a private converts into starts only by that exchange, by the private's owner.
        source = self.par_exchange(corp)
        return source is None or (bool(source.active(Exchange)) and source.owner is player)

    def par_exchange(self, corp: Corporation) -> Company | None:
        """The private whose exchange ability starts ``corp`` (``from = "par"``), open or not."""
        return self.par_exchanges.get(corp.sym)

    def par_cost(self, corp: Corporation, price: int) -> int:
        percent = corp.shares[0].percent
        if self.par_exchange(corp) is not None:
            percent -= corp.share_percent  # the private counts as one share of the president's certificate
        return units.value(corp, price, percent)

    def par_corporation(self, player: Player, corp: Corporation, cell: Cell) -> None:
        cost = self.par_cost(corp, cell.price)
        if cost > player.cash:
            raise insufficient(f"{player.name} cannot afford to start {corp.sym} at {self.format_money(cell.price)}: "
                               f"cash {self.format_money(player.cash)}, cost {self.format_money(cost)}")
        self.set_par(corp, cell)
        self.buy_shares(player, [corp.shares[0]], cost)
        self.log(f"{player.name} pars {corp.sym} at {self.format_money(cell.price)}")
        source = self.par_exchange(corp)
        if source is not None:
            self.close_company(source)  # exchanged for the president's certificate

    def can_dump(self, player: Player, shares: list[Share]) -> bool:
        """A sale that includes the president's certificate needs another player able to take it."""
        pres = next((s for s in shares if s.president), None)
        if pres is None:
            return True
        others = max((p.percent_of(pres.corp) for p in self.players if p is not player), default=0)
        return others >= pres.percent

    def sell_bundles(self, player: Player, corp: Corporation) -> list[tuple[list[Share], int]]:
        """What a player may offer for sale of one company, as (certificates, percent), smallest first.

        One, two, ... ordinary certificates; then all of them with the president's certificate; and,
        as 18xx.games offers, all of them with only part of the president's certificate sold: the new
        president hands back ordinary certificates, and the seller keeps the unsold part as those.
        """
        mine = player.shares_of(corp.sym)
        plain = [s for s in mine if not s.president]
        out = [(plain[:n], sum(s.percent for s in plain[:n])) for n in range(1, len(plain) + 1)]
        pres = next((s for s in mine if s.president), None)
        if pres is not None:
            total = sum(s.percent for s in mine)
            unit = self.share_unit(corp)
            out += [([*plain, pres], total - unit * k) for k in range(pres.percent // unit)]
        return sorted(out, key=lambda bundle: bundle[1])

    def share_unit(self, corp: Corporation) -> int:
        return corp.share_percent

    def valid_bundle(self, player: Player, shares: list[Share], percent: int) -> bool:
        """A bundle the sale rules know: ordinary certificates sold whole, or every certificate the
        seller holds with part of the president's certificate kept (in whole ordinary shares)."""
        if not shares or len({s.id for s in shares}) != len(shares) or any(s.owner is not player for s in shares):
            return False
        total = sum(s.percent for s in shares)
        pres = next((s for s in shares if s.president), None)
        if pres is None:
            return percent == total
        unit = self.share_unit(self.corporations[pres.corp])
        kept = total - percent
        return (set(shares) == set(player.shares_of(pres.corp)) and 0 <= kept < pres.percent
                and kept % unit == 0)

    def after_buy_company(self, player: Player, company: Company, price: int) -> None:
        """A private bought in the auction brings its certificates: a president's certificate makes the buyer set
        the par at once (the auction's CompanyPendingPar step), another one is handed over."""
        for ability in company.abilities_of(Shares):
            for share_id in ability.certificates:
                share = self.share_by_id(share_id)
                if share.president:
                    self.round.pending_par.append((company, share.corp))
                    continue
                self.transfer_share(share, player)
                self.log(f"{player.name} receives {share_id} with {company.sym}")

    # ------------------------------------------------------------------ track
    def tile_lays(self) -> list[dict[str, Any]]:
        return [{"lay": True, "upgrade": True}]

    def can_lay_track(self, corp: Corporation) -> bool:
        return any(t.used for t in corp.tokens)

    def blocked_hex(self, hx: Hex) -> Company | None:
        return next((comp for comp in self.companies.values()
                     if any(hx.id in a.hexes for a in comp.active(BlocksHexes))), None)

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
            payer.cash -= cost
            self.bank.cash += cost
        self.last_tile_hex = hx.id
        self.board_changed()
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
        for node, slots in tile.tokens.items():
            for slot, owner in enumerate(slots):
                if owner is None or tile.kinds[node][slot] is TokenKind.BLOCKING:
                    continue  # a blocking marker is no company's token to re-place: it keeps its space
                kind = tile.kinds[node][slot]
                token = next(t for t in self.all_tokens() if t.used and t.hex == hx.id and t.corp == owner
                             and t.kind == kind)
                slots[slot] = None
                tile.kinds[node][slot] = TokenKind.NORMAL
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

    # ------------------------------------------------------------------ tokens
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

    # ------------------------------------------------------------------ routes and dividends
    def route_trains(self, corp: Corporation) -> list[Train]:
        return list(corp.trains)

    def route_revenue(self, corp: Corporation, route: Route) -> int:
        # The same pricing as the route finder's, so that `run auto` and hand-typed routes always agree.
        from .autoroute import route_price, train_spec
        return route_price(self, route, train_spec(self, route.train))

    def best_routes(self, corp: Corporation) -> list[dict[str, Any]]:
        """Routes (as run_routes data) with the highest revenue for the company's trains."""
        try:
            from .autoroute import best_routes_for
        except ImportError:
            return []
        return best_routes_for(self, corp)

    def route_anchors(self, corp: Corporation) -> list[tuple[str, int]] | None:
        """Title hook: the stops a route of ``corp`` must include one of, when not its stations (None)."""
        return None

    def route_needs_station(self, corp: Corporation) -> bool:
        """Title hook: whether each route must include one of the company's stations (1828's C&P need not)."""
        return True

    def has_route_bonus(self) -> bool:
        """Title hook: True when ``route_bonus`` can be more than 0 (the route finder then prices every candidate)."""
        return False

    def route_bonus(self, route: Route) -> int:
        return 0

    # Titles with half pay (1822) or other splits extend this and ``pay_dividend``.
    DIVIDEND_KINDS: tuple[str, ...] = ("payout", "withhold")

    def dividend_kinds(self, corp: Corporation) -> tuple[str, ...]:
        return self.DIVIDEND_KINDS

    @staticmethod
    def holder_payout(revenue: int, percent: int) -> int:
        """A holder's part of a payout, rounded up as 18xx.games does; works for 10% and 5% shares alike."""
        return -(-revenue * percent // 100)

    def pay_dividend(self, corp: Corporation, revenue: int, kind: str) -> None:
        corp.last_revenue = revenue
        if kind == "payout" and revenue > 0:
            for p in self.players:
                percent = p.percent_of(corp.sym)
                if percent:
                    self.bank.spend(self.holder_payout(revenue, percent), p)
            # Pool shares pay the company itself; IPO shares pay nobody (1882 rules, dividends).
            pool = self.pool.percent_of(corp.sym)
            if pool:
                self.bank.spend(self.holder_payout(revenue, pool), corp)
            self.log(f"{corp.sym} pays out {self.format_money(revenue)}")
            self.market.right(corp.sym)
        else:
            if revenue:
                self.bank.spend(revenue, corp)
            self.log(f"{corp.sym} withholds {self.format_money(revenue)}")
            self.market.left(corp.sym)

    # ------------------------------------------------------------------ trains
    def must_buy_train(self, corp: Corporation) -> bool:
        return not corp.trains and self.network(corp).route_possible

    def exchange_price(self, corp: Corporation, train: Train) -> tuple[int, Train | None]:
        """Cheapest trade-in price for a depot train, and the train traded in (None: no trade-in)."""
        best: tuple[int, Train | None] = (train.price, None)
        for own in corp.trains:
            off = train.discount.get(own.name)
            if off and train.price - off < best[0]:
                best = (train.price - off, own)
        return best

    def president_may_contribute(self, corp: Corporation) -> bool:
        """Title hook: the president may pay towards a train from their own cash (emergency money)."""
        return self.must_buy_train(corp)

    def other_train_price_range(self, corp: Corporation, train: Train,
                                last_sale_price: int | None = None) -> tuple[int, int]:
        """Lowest and highest price ``corp`` may pay for another company's train.

        Below the train's face value the company pays from its treasury. With the president's help it may pay
        up to the face value, and, as on 18xx.games, once the president has sold shares for it the price must
        make the last sale necessary: it must exceed what the two had before that sale.
        """
        player = corp.owner
        if corp.cash >= train.price or player is None:
            return 1, corp.cash
        most = corp.cash + player.cash
        least = most - last_sale_price + 1 if last_sale_price else 1
        return least, min(train.price, most)

    def buy_train_action(self, corp: Corporation, train: Train, price: int, *, exchange: Train | None,
                         must_buy: bool, last_sale_price: int | None = None, variant: str | None = None) -> None:
        source = train.owner
        if variant is not None and variant != train.name:
            if source is not None:
                raise illegal(f"{train.id} was bought as a {train.name} train; only new trains choose a variant")
            chosen = train.variant(variant)
            if chosen is None:
                names = ", ".join(v.name for v in train.variants) or train.name
                raise illegal(f"a {train.sym} train is bought as {names}, not {variant}")
        if source is corp:
            raise illegal(f"{corp.sym} already owns {train.id}")
        if train.counts_for_limit and corp.trains_in_limit() >= self.train_limit(corp) and exchange is None:
            raise illegal(f"{corp.sym} is at its train limit of {self.train_limit(corp)}")
        if source is None:
            if train not in self.available_depot_trains():
                names = ", ".join(sorted({t.name for t in self.available_depot_trains()}))
                raise illegal(f"{train.id} is not for sale; the depot sells: {names}")
            face = train.price if variant is None else (train.variant(variant) or train).price
            expected = face
            if exchange is not None:
                if exchange.owner is not corp:
                    raise illegal(f"{corp.sym} does not own {exchange.id}")
                off = train.discount.get(exchange.name)
                if not off:
                    raise illegal(f"a {exchange.name} train cannot be traded in for a {train.name}")
                expected = face - off
            if price != expected:
                raise illegal(f"the {train.name} train costs {self.format_money(expected)}, "
                              f"not {self.format_money(price)}")
        elif source is self.pool:
            if price != train.price:
                raise illegal(f"the {train.name} train from the pool costs {self.format_money(train.price)}")
        else:
            if not isinstance(source, Corporation):
                raise illegal(f"{train.id} is not for sale")
            low, high = self.other_train_price_range(corp, train, last_sale_price)
            if not low <= price <= high:
                raise illegal(f"{corp.sym} may spend {self.format_money(low)} to {self.format_money(high)} "
                              f"on {source.sym}'s {train.name} train, not {self.format_money(price)}")
        if price > corp.cash:
            player = corp.owner
            if not must_buy or player is None:
                raise insufficient(f"{corp.sym} cannot afford the {train.name} train: "
                                   f"treasury {self.format_money(corp.cash)}, price {self.format_money(price)}")
            if exchange is not None:
                raise illegal("the president cannot contribute towards a trade-in")
            if source is None or source is self.pool:
                cheapest = min(t.price for t in [*self.available_depot_trains(), *self.pool_trains])
                if price > cheapest:
                    raise illegal(f"with emergency money {corp.sym} must buy the cheapest train "
                                  f"({self.format_money(cheapest)})")
            need = price - corp.cash
            if need > player.cash:
                short = self.format_money(need - player.cash)
                raise insufficient(f"{player.name} must raise {short} more by selling shares")
            player.cash -= need
            corp.cash += need
            self.log(f"{player.name} contributes {self.format_money(need)}")
        if variant is not None and variant != train.name:
            train.choose_variant(variant)
        self.buy_train(corp, train, price, exchange=exchange)
        self.close_on_train_bought(corp)
        self.after_train_bought(corp, train)

    def close_on_train_bought(self, corp: Corporation) -> None:
        """Close the privates whose close ability waits for ``corp`` to buy a train (1882's CP and the CPR)."""
        for comp in self.companies.values():
            if any(a.when is CloseWhen.TRAIN_BOUGHT and a.corporation == corp.sym for a in comp.abilities_of(Close)):
                self.close_company(comp)

    def after_train_bought(self, corp: Corporation, train: Train) -> None:
        """Title hook."""

    # ------------------------------------------------------------------ emergency money
    def min_depot_price(self) -> int | None:
        prices = [t.price for t in self.available_depot_trains()]
        return min(prices) if prices else None

    def emergency_need(self, corp: Corporation) -> int:
        """What the company and its president together lack for the cheapest new train (0 or less: nothing)."""
        player = corp.owner
        cheapest = self.min_depot_price()
        if not isinstance(player, Player) or cheapest is None:
            return 0
        return cheapest - corp.cash - player.cash

    def emergency_bundle_legal(self, player: Player, corp: Corporation, shares: list[Share], percent: int) -> bool:
        """A sale the president may make to raise money for ``corp``'s train, leaving aside how much is needed.

        It must fit in the pool and may dump another company's presidency on a player who holds enough, but
        never that of ``corp`` itself, whose train is being bought.
        """
        sym = shares[0].corp
        if sym not in self.market.location or any(s.owner is not player or s.corp != sym for s in shares):
            return False
        target = self.corporations[sym]
        if not units.pool_accepts(self.config.shares, target, self.pool.shares_of(sym), shares, percent):
            return False
        others = max((p.percent_of(sym) for p in self.players if p is not player), default=0)
        if sym == corp.sym and player.percent_of(sym) - percent < others:
            return False
        pres = next((s for s in shares if s.president), None)
        return pres is None or others >= pres.percent

    def emergency_bundle_needed(self, corp: Corporation, shares: list[Share], percent: int) -> bool:
        """18xx.games forbids selling more than needed: without its smallest certificate the sale must fall short."""
        price = self.market.location[shares[0].corp].price
        smallest = min(price * s.percent // 10 for s in shares)
        return price * percent // 10 - smallest < self.emergency_need(corp)

    def emergency_bundles(self, player: Player, corp: Corporation) -> list[tuple[list[Share], int]]:
        """The sales the president may make now to raise money for ``corp``'s train."""
        return [(shares, percent)
                for sym in sorted({s.corp for s in player.shares})
                for shares, percent in self.sell_bundles(player, self.corporations[sym])
                if self.emergency_bundle_legal(player, corp, shares, percent)
                and self.emergency_bundle_needed(corp, shares, percent)]

    def emergency_sell(self, player: Player, corp: Corporation, shares: list[Share], percent: int) -> int:
        """Sell for ``corp``'s train; returns the price per 10% share the sale was made at."""
        if not self.emergency_bundle_legal(player, corp, shares, percent):
            raise illegal(f"{player.name} cannot sell {percent}% of {shares[0].corp} now")
        if not self.emergency_bundle_needed(corp, shares, percent):
            raise illegal(f"{player.name} may not sell more than is needed for {corp.sym}'s train")
        price = self.market.location[shares[0].corp].price
        self.sell_shares(player, shares, percent)
        return price

    # ------------------------------------------------------------------ privates
    def can_buy_company(self, corp: Corporation) -> bool:
        if not self.phase.get("can_buy_companies"):
            return False
        prices = [self.company_price_range(corp, c)[0] for c in self.companies.values() if self.company_for_sale(c)]
        return bool(prices) and min(prices) <= corp.cash

    def company_price_range(self, corp: Corporation, company: Company) -> tuple[int, int]:
        """Title hook: what a company may pay a player for ``company``; half to twice its face value by default."""
        return (company.value + 1) // 2, company.value * 2

    def company_for_sale(self, company: Company) -> bool:
        """Whether corporations may buy ``company`` now that companies may buy privates: an open private a
        player owns, without a no_buy ability."""
        return not company.closed and isinstance(company.owner, Player) and not company.abilities_of(NoBuy)

    def has_turn_ability(self, corp: Corporation) -> bool:
        """The company owns a private with a power it may still use during its turn (a token or tile lay)."""
        return any(comp.owner is corp and comp.active(kind) for comp in self.companies.values()
                   for kind in TURN_ABILITIES)

    def corporation_buys_company(self, corp: Corporation, company: Company, price: int) -> None:
        if not self.phase.get("can_buy_companies"):
            raise illegal(f"companies cannot buy privates in phase {self.phase['name']}")
        if company.closed or not isinstance(company.owner, Player):
            raise illegal(f"{company.sym} is not owned by a player")
        if company.abilities_of(NoBuy):
            raise illegal(f"{company.sym} cannot be bought by a company")
        low, high = self.company_price_range(corp, company)
        if not low <= price <= high:
            raise illegal(f"{company.sym} may be bought for {self.format_money(low)} to {self.format_money(high)}")
        if price > corp.cash:
            raise insufficient(f"{corp.sym} cannot pay {self.format_money(price)}: "
                               f"treasury {self.format_money(corp.cash)}")
        seller = company.owner
        corp.cash -= price
        seller.cash += price
        seller.companies.remove(company)
        company.owner = corp
        corp.companies.append(company)
        self.log(f"{corp.sym} buys {company.sym} from {seller.name} for {self.format_money(price)}")

    # ------------------------------------------------------------------ bankruptcy
    def can_go_bankrupt(self, corp: Corporation) -> bool:
        """Bankruptcy is declared when even selling every sellable share cannot pay for a train."""
        if not self.must_buy_train(corp):
            return False
        player = corp.owner
        cheapest = self.min_depot_price()
        if not isinstance(player, Player) or cheapest is None:
            return False
        return corp.cash + player.cash + self.emergency_liquidity(player, corp) < cheapest

    def emergency_liquidity(self, player: Player, corp: Corporation) -> int:
        """What the president could raise: the largest sale the emergency rules allow in each company."""
        total = 0
        for sym in {s.corp for s in player.shares}:
            cell = self.market.location.get(sym)
            if cell is None:
                continue
            bundles = self.sell_bundles(player, self.corporations[sym])
            total += max((units.value(self.corporations[sym], cell.price, percent) for shares, percent in bundles
                          if self.emergency_bundle_legal(player, corp, shares, percent)), default=0)
        return total

    def go_bankrupt(self, corp: Corporation) -> None:
        """The president sells what the emergency rules allow, largest sale first in each company, and their
        cash goes to the bank; the company keeps its treasury (as on 18xx.games)."""
        player = corp.owner
        assert isinstance(player, Player)
        self.log(f"{player.name} goes bankrupt and sells remaining shares")
        # Companies in operating order as it stands before the sales, as on 18xx.games.
        order = sorted({s.corp for s in player.shares if s.corp in self.market.location}, key=self.market.order_key)
        for sym in order:
            while True:
                sales = [(shares, percent) for shares, percent in self.sell_bundles(player, self.corporations[sym])
                         if self.emergency_bundle_legal(player, corp, shares, percent)
                         and self.emergency_bundle_needed(corp, shares, percent)]
                if not sales:
                    break
                shares, percent = max(sales, key=lambda sale: sale[1])
                self.sell_shares(player, shares, percent)
        self.bank.cash += player.cash
        player.cash = 0
        player.bankrupt = True
