"""1828's stock-round and operating-round steps over the shared core steps."""

from __future__ import annotations

from typing import Any

from ...core import events as ev
from ...core.actions import Action, entity_action, register_action
from ...core.entities import Company, Corporation, CorporationKind, Player, Share
from ...core.errors import illegal
from ...core.game import Game
from ...core.round import InterruptStep, Round, Step, StockRound
from ...core.steps.operating import (
    Bankrupt,
    BlockingBuyCompany,
    BuyCompany,
    BuyTrain,
    DiscardTrain,
    Dividend,
    RouteStep,
    TokenStep,
)
from ...core.steps.stock import BuySellParShares, HomeToken
from ...core.tiles import TokenKind
from ...core.transfer import BLOCKING_OWNER
from .merger import Merger
from .operating import SpecialBuy1828, SpecialToken1828, SpecialTrack1828, SwapTrain, Track1828

register_action("failed_merge", "corporations")


class StockRound1828(StockRound):
    """Players' order in the next stock round is the order in which they passed (rules 7.1)."""

    def __init__(self, game: Any, step_classes: list[type[Step[Any]]], number: int = 1) -> None:
        super().__init__(game, step_classes, number)
        self.pass_order: list[Player] = []


class BuySellParShares1828(BuySellParShares[Any]):
    """No certificate limit; in the gray zone shares may be held above 60% and the president may buy two at a
    time (rules 12.1); a par needs cash for the president's certificate (twice the par)."""
    game: Any  # the G1828 game, whose module imports this one

    GRAY = "gray"

    def must_sell(self, player: Player) -> bool:
        return False

    def holding_ok(self, player: Player, corp: Corporation, gained: list[Share]) -> bool:
        if self.zone(corp) == self.GRAY:
            return True
        return super().holding_ok(player, corp, gained)

    def share_cost(self, share: Share) -> int:
        corp = self.game.corporation(share.corp)
        if corp.kind is CorporationKind.SYSTEM:
            # A system's shares always sell at its market price, from its IPO too (18xx.games).
            return int(self.game.share_value(share))
        return super().share_cost(share)

    def can_buy_multiple(self, corp: Corporation) -> bool:
        player = self.round.entity()
        if self.zone(corp) != self.GRAY or corp.owner is not player:
            return False
        if any(a["type"] == "par" for a in self.current) or not self.bought_corps() <= {corp.sym}:
            return False
        return sum(1 for a in self.current if a["type"] == "buy_shares") < 2

    def bought(self) -> bool:
        return any(a["type"] in ("buy_shares", "par", "choose", "failed_merge") for a in self.current)

    def actions(self, entity: Any) -> list[str]:
        out = super().actions(entity)
        if entity is not self.round.entity() or not isinstance(entity, Player) or self.bought():
            return out
        extra = []
        if self.game.can_merge_any(entity):
            extra += ["choose", "failed_merge"]
        if "buy_shares" not in out and any(self.game.exchange_shares(c) for c in entity.companies):
            extra.append("buy_shares")
        if extra and "pass" not in out:
            extra.append("pass")
        return [*out, *[a for a in extra if a not in out]]

    def has_any_action(self, player: Player) -> bool:
        if super().has_any_action(player):
            return True
        return not self.bought() and (self.game.can_merge_any(player)
                                      or any(self.game.exchange_shares(c) for c in player.companies))

    def choices(self, entity: Any, kind: str) -> list[Action]:
        failed = self.game.undone_failed_merge(entity)
        if kind == "failed_merge":
            return [] if failed is None else [{**entity_action(entity, "failed_merge"), "corporations": failed}]
        if kind == "choose":
            if failed is not None:
                return []  # the merger just undone failed: record that, do not start it again
            # A company without a share price cannot start a merger (its new price needs one), though 18xx.games
            # counts it when it offers the choice.
            # Nor, right after its undo, the company whose merger 18xx.games could not run (Merger.choices).
            undone = self.game.undone_unfinishable_merge(entity)
            return [{**entity_action(entity, "choose"), "choice": c.sym} for c in self.game.corporations.values()
                    if c.ipoed and c.sym != undone and self.game.merge_candidates(entity, c)]
        if failed is not None:
            return []
        return super().choices(entity, kind)

    def process_choose(self, action: dict[str, Any], entity: Any) -> None:
        corp = self.game.corporations.get(str(action["choice"]))
        if corp is None or not self.game.merge_candidates(entity, corp):
            raise illegal(f"{action['choice']} has no company to merge with")
        self.round.acting_player = entity  # type: ignore[attr-defined]
        self.round.merge_initiator = corp  # type: ignore[attr-defined]
        self.round.merge_start_id = self.game.last_action_id  # type: ignore[attr-defined]
        self.current.append(action)
        self.round.last_to_act = entity

    def process_failed_merge(self, action: dict[str, Any], entity: Any) -> None:
        if not self.game.can_merge_any(entity):
            raise illegal(f"{entity.name} has no merger to record as failed")
        names = " and ".join(str(c) for c in action.get("corporations") or [])
        self.game.log(f"{entity.name} failed to merge {names}")
        self.current.append(action)
        self.round.last_to_act = entity

    def pass_(self) -> None:
        player = self.round.entity()
        super().pass_()
        order: list[Player] = self.round.pass_order  # type: ignore[attr-defined]
        if self.current:
            if player in order:
                order.remove(player)
        elif player not in order:
            order.append(player)


class RemoveTokens(InterruptStep[Game]):
    """A new system with two stations in one hex (in different cities) removes one; a blocking marker takes
    its place (rules 7.5.2)."""

    name = "Choose a station to remove"

    def system(self) -> Corporation | None:
        return self.round.corporation_removing_tokens  # type: ignore[attr-defined,no-any-return]

    def active(self) -> bool:
        return self.system() is not None

    def blocking(self) -> bool:
        return self.system() is not None

    def active_entities(self) -> list[Any]:
        system = self.system()
        return [system] if system is not None else []

    def actions(self, entity: Any) -> list[str]:
        return ["remove_token"] if entity is not None and entity is self.system() else []

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != "remove_token":
            return super().choices(entity, kind)
        hexes = self.round.hexes_to_remove_tokens  # type: ignore[attr-defined]
        return [{**entity_action(entity, "remove_token"), "city": f"{self.game.board.hexes[t.hex].tile.id}-{t.node}",
                 "slot": t.slot} for t in entity.tokens if t.used and t.hex in hexes]

    def process_remove_token(self, action: dict[str, Any], entity: Any) -> None:
        hx, node = self.game.city_by_id(action["city"])
        slot = int(action.get("slot", 0))
        hexes: list[str] = self.round.hexes_to_remove_tokens  # type: ignore[attr-defined]
        if hx.id not in hexes:
            raise illegal(f"{entity.sym} has no second station to remove in {hx.id}")
        token = next((t for t in entity.tokens if t.used and t.hex == hx.id and t.node == node and t.slot == slot),
                     None)
        if token is None:
            raise illegal(f"there is no {entity.sym} station in that space")
        entity.tokens.remove(token)
        ev.emit(ev.StationChanged(hx.id, node, slot, hx.tile.tokens[node][slot], BLOCKING_OWNER,
                                  TokenKind.BLOCKING.value))
        hx.tile.tokens[node][slot] = BLOCKING_OWNER
        hx.tile.kinds[node][slot] = TokenKind.BLOCKING
        self.game.log(f"{entity.sym} removes its station from {hx.id}; a blocking marker takes its place")
        self.game.board_changed()
        hexes.remove(hx.id)
        if not hexes:
            self.round.corporation_removing_tokens = None  # type: ignore[attr-defined]
            merger = next(s for s in self.round.steps if isinstance(s, Merger))
            merger.resume_after_token_removal()


class Exchange1828(InterruptStep[Any]):
    """The M&H's owner exchanges it for a 10% share of any company from the IPO or the market (rules 13.2): in
    a stock round on their turn, instead of buying; in an operating round at any time."""
    game: Any  # the G1828 game, whose module imports this one

    name = "Exchange a private for a share"
    blocks = False

    def _stock_step(self) -> BuySellParShares1828 | None:
        return next((s for s in self.round.steps if isinstance(s, BuySellParShares1828)), None)

    def actions(self, entity: Any) -> list[str]:
        if not isinstance(entity, Company) or not self.game.exchange_shares(entity):
            return []
        stock = self._stock_step()
        if stock is not None and (entity.owner is not self.round.entity() or stock.bought()):
            return []
        return ["buy_shares"]

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != "buy_shares":
            return super().choices(entity, kind)
        return [{**entity_action(entity, "buy_shares"), "shares": [s.id], "percent": s.percent}
                for s in self.game.exchange_shares(entity)]

    def process_buy_shares(self, action: dict[str, Any], entity: Any) -> None:
        shares = [self.game.share_by_id(str(sid)) for sid in action["shares"]]
        offered = self.game.exchange_shares(entity)
        if len(shares) != 1 or shares[0] not in offered:
            raise illegal(f"{entity.sym} is exchanged for one 10% share from the IPO or the market")
        self.game.exchange_company(entity, shares[0])
        stock = self._stock_step()
        if stock is not None:
            stock.current.append(action)


class HomeToken1828(HomeToken[Game]):
    """A station on Dunkirk & Buffalo's trackless printed tile is re-placed by its own company when track
    arrives (18xx.games: the token's owner decides), not by the company that laid the tile."""

    def _chooser(self) -> Any:
        actor, _, token = self.pending()[0]
        return self.game.token_owner(token, actor)

    def actions(self, entity: Any) -> list[str]:
        return ["place_token"] if self.pending() and entity is self._chooser() else []

    def active_entities(self) -> list[Any]:
        return [self._chooser()] if self.pending() else []


class DiscardTrain1828(DiscardTrain[Any]):
    """A system over the limit discards from the shell that is over it (rules 7.5.4)."""
    game: Any  # the G1828 game, whose module imports this one

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != "discard_train":
            return super().choices(entity, kind)
        return [{**entity_action(entity, "discard_train"), "train": t.id}
                for t in self.game.discardable_trains(entity)]

    def process_discard_train(self, action: dict[str, Any], entity: Any) -> None:
        train = self.game.all_trains.get(str(action["train"]))
        if train is None or train not in self.game.discardable_trains(entity):
            raise illegal(f"{entity.sym} cannot discard train {action['train']} now")
        self.game.discard_train(entity, train)


class Dividend1828(Dividend[Any]):
    """The C&P pays half its run to its owner and keeps half, without a decision (rules 13.2)."""
    game: Any  # the G1828 game, whose module imports this one

    def actions(self, entity: Any) -> list[str]:
        if isinstance(entity, Corporation) and entity.kind is CorporationKind.MINOR:
            return []
        return super().actions(entity)

    def skip(self) -> None:
        corp = self.round.entity()
        if isinstance(corp, Corporation) and corp.kind is CorporationKind.MINOR:
            self.game.minor_half_pay(corp, int(getattr(self.round, "revenue", 0) or 0))
            self.round.routes = []  # type: ignore[attr-defined]
            self.pass_()
            return
        super().skip()


class RouteStep1828(RouteStep[Any]):
    """Coal barring and the C&P's run over its own tile (game.check_route); the C&P runs only after a lay."""
    game: Any  # the G1828 game, whose module imports this one

    def actions(self, entity: Any) -> list[str]:
        if _minor(entity) and not getattr(self.round, "laid_hexes", None):
            return []
        return super().actions(entity)

    def process_run_routes(self, action: dict[str, Any], entity: Any) -> None:
        laid = list(getattr(self.round, "laid_hexes", []) or [])
        if not self.game.recorded_run(action):  # a run as recorded on 18xx.games stands unchecked there
            for data in action["routes"]:
                hexes = {h for leg in data.get("connections") or [] for h in leg} | set(data.get("hexes") or [])
                stops = set(data.get("hexes") or []) | {str(n).rsplit("-", 1)[0] for n in data.get("nodes") or []}
                self.game.check_route(entity, hexes, stops, laid)
        super().process_run_routes(action, entity)


class TokenStep1828(TokenStep[Any]):
    """No station in the Virginia Coalfields (rules 16); a company places one station a turn, the C&P's
    included."""
    game: Any  # the G1828 game, whose module imports this one

    def actions(self, entity: Any) -> list[str]:
        if isinstance(entity, Corporation) and entity.sym in self.game.tokened_this_round:
            return []
        return super().actions(entity)

    def choices(self, entity: Any, kind: str) -> list[Action]:
        coal = self.game.coal["coalfields"]
        return [c for c in super().choices(entity, kind) if kind != "place_token"
                or self.game.city_by_id(c["city"])[0].id != coal]

    def process_place_token(self, action: dict[str, Any], entity: Any) -> None:
        if self.game.city_by_id(action["city"])[0].id == self.game.coal["coalfields"]:
            raise illegal("the Virginia Coalfields may not be tokened")
        super().process_place_token(action, entity)
        self.game.tokened_this_round.add(entity.sym)


def _minor(entity: Any) -> bool:
    return isinstance(entity, Corporation) and entity.kind is CorporationKind.MINOR


class BuyTrain1828(BuyTrain[Any]):
    """The C&P never buys trains; a system keeps its trains in two shells, each within the limit, and names the
    shell a new train goes to (rules 7.5.4)."""
    game: Any  # the G1828 game, whose module imports this one

    def setup(self) -> None:
        super().setup()
        self.sold_for_train = False

    def actions(self, entity: Any) -> list[str]:
        if _minor(self.round.entity()):
            return []
        out = super().actions(entity)
        # Once the president has sold shares for a train, the company buys before it may pass (18xx.games).
        if self.sold_for_train and "pass" in out:
            out = [a for a in out if a != "pass"]
        return out

    def process_sell_shares(self, action: dict[str, Any], entity: Any) -> None:
        super().process_sell_shares(action, entity)
        self.sold_for_train = True

    def needs_emergency_sale(self, corp: Corporation) -> bool:
        player = corp.owner
        if corp.kind is not CorporationKind.SYSTEM or self.game.must_buy_train(corp):
            return super().needs_emergency_sale(corp)
        if not isinstance(player, Player) or not self.game.president_may_contribute(corp):
            return False
        # Only sales that can complete the purchase: a system with trains is never forced to buy.
        cheapest = self.game.min_depot_price()
        if cheapest is None or corp.cash + player.cash + self.game.emergency_liquidity(player, corp) < cheapest:
            return False
        return bool(self.sellable_bundles(player))

    def can_buy(self, corp: Corporation) -> bool:
        # A system with an empty shell may buy for it whatever its treasury holds (18xx.games).
        if corp.kind is CorporationKind.SYSTEM and any(not s.trains for s in self.game.shells.get(corp.sym, [])):
            return True
        return super().can_buy(corp)

    def room(self, corp: Corporation) -> bool:
        if corp.kind is CorporationKind.SYSTEM:
            return bool(self.game.shells_with_room(corp))
        return super().room(corp)

    def other_trains(self, corp: Corporation) -> list[Any]:
        return [t for t in super().other_trains(corp) if not _minor(t.owner)]  # the C&P's train is never sold

    def choices(self, entity: Any, kind: str) -> list[Action]:
        out = super().choices(entity, kind)
        if kind == "buy_train":
            out = [c for c in out if not _minor(self.game.all_trains[c["train"]].owner)]
        if kind != "buy_train" or entity.kind is not CorporationKind.SYSTEM:
            return out
        out = [{**c, "shell": shell.name} for c in out for shell in self.game.shells_with_room(entity)
               if int(c["price"]) <= entity.cash or not shell.trains]
        empty = [s for s in self.game.shells.get(entity.sym, []) if not s.trains]
        depot = self.game.available_depot_trains()
        owner = entity.owner
        if empty and depot and isinstance(owner, Player):
            # With its president's money, the cheapest new train for an empty shell.
            cheapest = min(depot, key=lambda t: t.price)
            if entity.cash < cheapest.price <= entity.cash + owner.cash:
                offer = {**entity_action(entity, "buy_train"), "train": cheapest.id, "price": cheapest.price}
                out += [{**offer, "shell": s.name} for s in empty if {**offer, "shell": s.name} not in out]
        return out

    def process_buy_train(self, action: dict[str, Any], entity: Any) -> None:
        shell = None
        if isinstance(entity, Corporation) and entity.kind is CorporationKind.SYSTEM:
            shells = self.game.shells_with_room(entity)
            shell = next((s for s in shells if s.name == action.get("shell")), None)
            if shell is None:
                names = ", ".join(s.name for s in shells) or "none"
                raise illegal(f"name the shell the train goes to: one with room ({names})")
        train = self.game.all_trains.get(str(action["train"]))
        if train is not None and _minor(train.owner):
            raise illegal(f"train {train.id} runs for the C&P and is not for sale")
        if shell is None:
            super().process_buy_train(action, entity)
            self.sold_for_train = False
            return
        if train is None:
            raise illegal(f"there is no train {action['train']}")
        # The president helps only with a train for an empty shell (or when the system has no train at all).
        must = self.game.must_buy_train(entity) or not shell.trains
        exchange = self.game.all_trains.get(str(action["exchange"])) if action.get("exchange") else None
        variant = str(action["variant"]) if action.get("variant") else None
        self.game.buy_train_action(entity, train, int(action["price"]), exchange=exchange, must_buy=must,
                                   last_sale_price=self.last_sale_price, variant=variant)
        shell.trains.append(train)
        self.sold_for_train = False
        if not self.can_buy(entity):
            self.pass_()


class BuyCompany1828(BuyCompany[Game]):
    def actions(self, entity: Any) -> list[str]:
        return [] if _minor(entity) else super().actions(entity)


class BlockingBuyCompany1828(BlockingBuyCompany[Any]):
    """The last chance of the turn to buy privates, or to use a private's lay that may come any time in the
    company's turn (the C&StL's): the company passes it explicitly (18xx.games)."""
    game: Any  # the G1828 game, whose module imports this one

    def actions(self, entity: Any) -> list[str]:
        if _minor(entity):
            return []
        out = super().actions(entity)
        if not out and isinstance(entity, Corporation) and entity is self.round.entity() \
                and self.game.turn_lay_waits(entity):
            return ["pass"]
        return out


def stock_round(game: Any) -> Round:
    return StockRound1828(game, [DiscardTrain1828, RemoveTokens, Merger, Exchange1828, HomeToken1828,
                                 BuySellParShares1828])


def operating_steps() -> list[type[Step[Any]]]:
    # The order of 18xx.games' 1828 operating round.
    return [Bankrupt, Exchange1828, DiscardTrain1828, HomeToken1828, BuyCompany1828, SpecialTrack1828,
            SpecialToken1828, SpecialBuy1828, Track1828, TokenStep1828, RouteStep1828, Dividend1828, SwapTrain,
            BuyTrain1828, BlockingBuyCompany1828]



_ = (CorporationKind,)
