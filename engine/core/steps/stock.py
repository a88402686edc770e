"""Stock round: buy, sell and par shares; and home tokens that wait for a choice of city."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import events as ev
from .. import shares as units
from ..actions import Action, entity_action, opt_whole, sale_actions, share_ids, text
from ..config import LimitBasis
from ..entities import Corporation, Entity, Player, Share, as_player
from ..errors import illegal, insufficient, malformed
from ..round import G, InterruptStep, Step
from ..tiles import TokenKind


class BuySellParShares(Step[G]):
    """One player's stock turn: sell, buy (one certificate, or several in a brown zone), sell."""

    name = "Buy or sell shares"

    def round_setup(self) -> None:
        self.sold: dict[int, dict[str, bool]] = {}  # player id -> corp -> sold this round

    def setup(self) -> None:
        self.current: list[dict[str, Any]] = []

    # --- queries
    def bought(self) -> bool:
        return any(a["type"] in ("buy_shares", "par") for a in self.current)

    def bought_corps(self) -> set[str]:
        out: set[str] = set()
        for a in self.current:
            if a["type"] == "buy_shares":
                out.add(str(a["shares"][0]).rsplit("_", 1)[0])
        return out

    def actions(self, entity: Entity) -> list[str]:
        if entity is not self.round.entity() or not isinstance(entity, Player):
            return []
        if self.must_sell(entity):
            return ["sell_shares"]
        out: list[str] = []
        if self.can_buy_any(entity):
            out.append("buy_shares")
        if self.can_par_any(entity):
            out.append("par")
        if self.can_sell_any(entity):
            out.append("sell_shares")
        if out:
            out.append("pass")
        return out

    def offers(self, entity: Entity, kind: str) -> bool:
        # What the round asks before each stock action: only the one kind is looked for, not the whole list.
        if type(self).actions is not BuySellParShares.actions:
            return super().offers(entity, kind)  # a title's own list
        return self.offered(entity, kind)

    def offered(self, entity: Entity, kind: str) -> bool:
        """Whether this class's ``actions(entity)`` lists ``kind``; a title that lists more answers its own
        ``offers`` with this for the kinds it keeps."""
        if entity is not self.round.entity() or not isinstance(entity, Player):
            return False
        if self.must_sell(entity):
            return kind == "sell_shares"
        if kind == "buy_shares":
            return self.can_buy_any(entity)
        if kind == "par":
            return self.can_par_any(entity)
        if kind == "sell_shares":
            return self.can_sell_any(entity)
        if kind == "pass":
            return self.can_buy_any(entity) or self.can_par_any(entity) or self.can_sell_any(entity)
        return False

    def blocking(self) -> bool:
        # Every step's blocking is asked several times an action, so this stops at the first kind of action found
        # (``has_any_action``), unless a title lists other actions without saying how to find the first.
        cls = type(self)
        if cls.actions is not BuySellParShares.actions and cls.has_any_action is BuySellParShares.has_any_action:
            return super().blocking()
        ent = self.round.entity()
        return self.blocks and isinstance(ent, Player) and self.has_any_action(ent)

    def has_any_action(self, player: Player) -> bool:
        """Whether ``actions(player)`` lists anything, for the round's entity (a player who must sell can sell)."""
        return self.can_buy_any(player) or self.can_par_any(player) or self.can_sell_any(player)

    def must_sell(self, player: Player) -> bool:
        return self.round.recall(self._must_sell, player)

    def _must_sell(self, player: Player) -> bool:
        # Over a limit with nothing sellable, the player plays on as usual (18xx.games does the same).
        if self.game.num_certs(player) > self.game.cert_limit:
            return self.can_sell_any(player)
        # Only a company the player holds can be over the holding limit.
        by_corp: dict[str, list[Share]] = {}
        for s in player.shares:
            by_corp.setdefault(s.corp, []).append(s)
        held = [self.game.corporation(sym) for sym in by_corp]
        if type(self).holding_ok is not BuySellParShares.holding_ok:
            return any(not self.holding_ok(player, c, []) and self.can_sell_any(player, c) for c in held)
        # holding_ok, with each company's certificates sorted out in one pass over the player's.
        rules = self.game.config.shares
        return any(self.zone(c) not in ("orange", "brown") and not units.holding_allows(rules, mine, [])
                   and self.can_sell_any(player, c) for c, mine in zip(held, by_corp.values(), strict=True))

    def zone(self, corp: Corporation) -> str:
        cell = self.game.market.location.get(corp.sym)
        return cell.zone if cell is not None else ""

    def holding_ok(self, player: Player, corp: Corporation, gained: list[Share]) -> bool:
        if self.zone(corp) in ("orange", "brown"):
            return True
        return units.holding_allows(self.game.config.shares, player.shares_of(corp.sym), gained)

    def can_gain(self, player: Player, shares: list[Share]) -> bool:
        corp = self.game.corporation(shares[0].corp)
        if not self.holding_ok(player, corp, shares):
            return False
        counts = 0 if self.zone(corp) in ("yellow", "orange", "brown") else len(shares)
        return self.game.num_certs(player) + counts <= self.game.cert_limit

    def share_cost(self, share: Share) -> int:
        corp = self.game.corporation(share.corp)
        if share.owner is corp:
            assert corp.par_price is not None
            return units.value(corp, corp.par_price, share.percent)
        cell = self.game.market.location[corp.sym]
        return units.value(corp, cell.price, share.percent)

    def can_buy_multiple(self, corp: Corporation) -> bool:
        return (self.zone(corp) == "brown" and not any(a["type"] == "par" for a in self.current)
                and self.bought_corps() <= {corp.sym})

    def can_buy(self, player: Player, share: Share | None) -> bool:
        if share is None:
            return False
        corp = self.game.corporation(share.corp)
        if not corp.ipoed or corp.closed:
            return False
        if self.sold.get(player.id, {}).get(corp.sym):
            return False
        if self.bought() and not self.can_buy_multiple(corp):
            return False
        return player.cash >= self.share_cost(share) and self.can_gain(player, [share])

    def buyable_shares(self, player: Player) -> list[Share]:
        return list(self._buyable(player))

    def _buyable(self, player: Player) -> Iterator[Share]:
        pool_first: dict[str, Share] = {}
        for s in self.game.pool.shares:
            pool_first.setdefault(s.corp, s)
        for corp in self.game.corporations.values():
            if not corp.ipoed or corp.closed:
                continue
            ipo = next((s for s in corp.shares if not s.president), None)
            if ipo is not None and self.can_buy(player, ipo):
                yield ipo
            pool = pool_first.get(corp.sym)
            if pool is not None and self.can_buy(player, pool):
                yield pool

    def can_buy_any(self, player: Player) -> bool:
        return self.round.recall(self._can_buy_any, player)

    def _can_buy_any(self, player: Player) -> bool:
        return next(self._buyable(player), None) is not None

    def parable(self, player: Player) -> list[Corporation]:
        return list(self._parable(player))

    def _parable(self, player: Player) -> Iterator[Corporation]:
        if self.bought():
            return
        low: int | None = None  # the lowest par price, looked up once a company could be parred
        for corp in self.game.corporations.values():
            if corp.ipoed or corp.closed or not self.game.can_par(corp, player):
                continue
            if low is None:
                low = min(c.price for c in self.game.market.par_cells())
            if player.cash >= self.game.par_cost(corp, low) and self.can_gain(player, [corp.shares[0]]):
                yield corp

    def can_par_any(self, player: Player) -> bool:
        return self.round.recall(self._can_par_any, player)

    def _can_par_any(self, player: Player) -> bool:
        if type(self).parable is not BuySellParShares.parable:
            return bool(self.parable(player))  # a title's own list
        return next(self._parable(player), None) is not None

    def can_sell(self, player: Player, shares: list[Share], percent: int | None = None) -> bool:
        if self.game.turn <= 1 and self.game.SELL_AFTER_FIRST_SR:
            return False
        corp = self.game.corporation(shares[0].corp)
        if corp.sym not in self.game.market.location:
            return False
        if percent is None:
            percent = sum(s.percent for s in shares)
        if not units.pool_accepts(self.game.config.shares, corp, self.game.pool.shares_of(corp.sym), shares, percent):
            return False
        return self.game.shares.can_dump(player, shares)

    def sellable_bundles(self, player: Player) -> list[tuple[list[Share], int]]:
        out = []
        for sym in sorted({s.corp for s in player.shares}):
            corp = self.game.corporation(sym)
            out += [b for b in self.game.shares.sell_bundles(player, corp) if self.can_sell(player, *b)]
        return out

    def can_sell_any(self, player: Player, corp: Corporation | None = None) -> bool:
        return self.round.recall(self._can_sell_any, player, corp)

    def _can_sell_any(self, player: Player, corp: Corporation | None) -> bool:
        corps = [corp] if corp is not None else [self.game.corporation(c) for c in {s.corp for s in player.shares}]
        return any(self.can_sell(player, *b) for c in corps for b in self.game.shares.sell_bundles(player, c))

    # --- processing
    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "par":
            player = as_player(entity)
            return [{**entity_action(player, "par"), "corporation": corp.sym, "share_price": cell.text}
                    for corp in self.parable(player) for cell in self.game.market.par_cells()
                    if self.game.par_cost(corp, cell.price) <= player.cash]
        if kind == "buy_shares":
            return [{**entity_action(entity, "buy_shares"), "shares": [s.id], "percent": s.percent}
                    for s in self.buyable_shares(as_player(entity))]
        if kind == "sell_shares":
            return sale_actions(entity, self.sellable_bundles(as_player(entity)))
        return super().choices(entity, kind)

    def process_buy_shares(self, action: Action, entity: Entity) -> None:
        entity = as_player(entity)
        shares = [self.game.share_by_id(sid) for sid in share_ids(action)]
        corp = self.game.corporation(shares[0].corp)
        if any(s.corp != corp.sym for s in shares):
            raise malformed("buy certificates of one company at a time")
        if len(shares) > 1 and not self.can_buy_multiple(corp):
            raise illegal(f"only one certificate at a time unless {corp.sym} is in the brown zone")
        for s in shares:
            if s.owner is not corp and s.owner is not self.game.pool:
                raise illegal(f"{s.id} is not for sale")
            if s.president:
                raise illegal("the president's certificate is bought by setting a par price")
        if not corp.ipoed:
            raise illegal(f"{corp.sym} has no par price yet")
        if self.sold.get(entity.id, {}).get(corp.sym):
            raise illegal(f"{entity.name} sold {corp.sym} this round and cannot buy it back")
        if self.bought() and not self.can_buy_multiple(corp):
            raise illegal(f"{entity.name} has already bought this turn")
        cost = sum(self.share_cost(s) for s in shares)
        if cost > entity.cash:
            money = self.game.format_money
            raise insufficient(f"{entity.name} cannot afford {corp.sym}: cash {money(entity.cash)}, "
                               f"price {money(cost)}")
        if not self.can_gain(entity, shares):
            rules = self.game.config.shares
            limit = (f"{rules.hold_limit}%" if rules.hold_limit_basis is LimitBasis.PERCENT
                     else f"{rules.hold_limit}-certificate")
            raise illegal(f"{entity.name} would exceed the certificate limit or the {limit} holding limit")
        # The purchase is told before what it causes (the company floating).
        self.game.log(f"{entity.name} buys {sum(s.percent for s in shares)}% of {corp.sym} "
                      f"for {self.game.format_money(cost)}")
        self.game.shares.buy_shares(entity, shares, cost)
        self.current.append(action)
        self.round.last_to_act = entity

    def process_par(self, action: Action, entity: Entity) -> None:
        entity = as_player(entity)
        corp = self.game.corporation(text(action, "corporation"))
        if self.bought():
            raise illegal(f"{entity.name} has already bought this turn")
        if corp.ipoed:
            raise illegal(f"{corp.sym} already has a par price")
        if not self.game.can_par(corp, entity):
            raise illegal(f"{entity.name} cannot start {corp.sym} now")
        cell = self.game.parse_price(action["share_price"], par=True)
        self.game.shares.par_corporation(entity, corp, cell)
        self.current.append(action)
        self.round.last_to_act = entity

    def process_sell_shares(self, action: Action, entity: Entity) -> None:
        entity = as_player(entity)
        shares = [self.game.share_by_id(sid) for sid in share_ids(action)]
        corp = self.game.corporation(shares[0].corp)
        if any(s.owner is not entity for s in shares):
            raise illegal(f"{entity.name} does not own {', '.join(s.id for s in shares)}")
        percent = int(opt_whole(action, "percent") or sum(s.percent for s in shares))
        if not self.game.shares.valid_bundle(entity, shares, percent):
            raise illegal(f"{entity.name} cannot sell {percent}% as {', '.join(s.id for s in shares)}")
        if not self.can_sell(entity, shares, percent):
            raise illegal(f"{entity.name} cannot sell {corp.sym} now")
        self.sold.setdefault(entity.id, {})[corp.sym] = True
        self.game.sell_shares(entity, shares, percent)
        self.current.append(action)
        self.round.last_to_act = entity

    def pass_(self) -> None:
        super().pass_()
        player = as_player(self.round.entity())
        player.passed = not self.current

    def skip(self) -> None:
        self.pass_()


class HomeToken(InterruptStep[G]):
    """A company whose home is a choice of cities (or of hexes) places it before anything else."""

    name = "Place home token"

    def pending(self) -> list[tuple[Corporation, list[str], Any]]:
        return self.game.pending_tokens

    def actions(self, entity: Entity) -> list[str]:
        if self.pending() and entity is self.pending()[0][0]:
            return ["place_token"]
        return []

    def active_entities(self) -> list[Any]:
        return [self.pending()[0][0]] if self.pending() else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "place_token":
            return super().choices(entity, kind)
        actor, hexes, token = self.pending()[0]
        spots = self.game.track.home_token_spots(self.game.track.token_owner(token, actor), hexes)
        return [{**entity_action(entity, "place_token"), "city": f"{hx.tile.id}-{node}", "slot": slot}
                for hx, node, slot in spots]

    def process_place_token(self, action: Action, entity: Entity) -> None:
        actor, hexes, token = self.pending()[0]
        corp = self.game.track.token_owner(token, actor)  # the acting company may re-place another's station
        hx, node = self.game.track.city_by_id(text(action, "city"))
        if hx.id not in hexes:
            raise illegal(f"{corp.sym}'s token must go in {', '.join(hexes)}")
        slots = hx.tile.tokens[node]
        slot = opt_whole(action, "slot")
        if slot is not None and not 0 <= int(slot) < len(slots):
            raise malformed(f"{hx.id} city {node} has no space {slot}")
        spots = self.game.track.home_token_spots(corp, hexes)
        if slot is not None and slots[int(slot)] is not None:
            if (hx, node, int(slot)) not in spots:
                raise illegal(f"{corp.sym} may not replace {slots[int(slot)]}'s station in {hx.id}")
            # A neutral station whose space a home takes leaves the game (1882 rules 7.1 P2).
            neutral_owner = slots[int(slot)]
            slots[int(slot)] = None
            ev.emit(ev.StationChanged(hx.id, node, int(slot), neutral_owner, None))
            hx.tile.kinds[node][int(slot)] = TokenKind.NORMAL
            self.game.log(f"{corp.sym} removes the neutral token from {hx.id}")
            self.game.routes_seen.discard(neutral_owner)  # it may have lost its route (18xx.games forgets it)
        elif not any(h is hx and n == node for h, n, _ in spots):
            raise illegal(f"{hx.id} city {node} has no space {corp.sym} may use")
        self.game.track.place_home_choice(corp, hx, node, slot, token)
        self.pending().pop(0)
