"""1828's stock round (rules 7, 12): no certificate limit, the gray zone, mergers started from a stock turn, a
new system's second station in one hex removed, the M&H's exchange, and the next round's order by passing."""

from __future__ import annotations

from typing import Any

from ...core import events as ev
from ...core.actions import Action, entity_action, register_action, share_ids, text
from ...core.entities import (
    Company,
    Corporation,
    CorporationKind,
    Entity,
    Player,
    Share,
    as_company,
    as_corporation,
    as_player,
)
from ...core.errors import illegal
from ...core.round import InterruptStep
from ...core.steps.stock import BuySellParShares, HomeToken
from ...core.tiles import TokenKind
from ...core.transfer import BLOCKING_OWNER
from .market import share_value
from .merger import Merger
from .merger_rules import can_merge_any, merge_candidates, undone_failed_merge, undone_unfinishable_merge
from .privates import exchange_company, exchange_shares
from .state import Game1828
from .stock_round import stock_round_of

register_action("failed_merge", "corporations")


class BuySellParShares1828(BuySellParShares[Game1828]):
    """No certificate limit; in the gray zone shares may be held above 60% and the president may buy two at a
    time (rules 12.1); a par needs cash for the president's certificate (twice the par)."""

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
            return share_value(self.game, share)
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

    def actions(self, entity: Entity) -> list[str]:
        out = super().actions(entity)
        if entity is not self.round.entity() or not isinstance(entity, Player) or self.bought():
            return out
        extra = []
        if can_merge_any(self.game, entity):
            extra += ["choose", "failed_merge"]
        if "buy_shares" not in out and any(exchange_shares(self.game, c) for c in entity.companies):
            extra.append("buy_shares")
        if extra and "pass" not in out:
            extra.append("pass")
        return [*out, *[a for a in extra if a not in out]]

    def offers(self, entity: Entity, kind: str) -> bool:
        # actions(entity) holds ``kind``, asked without listing the rest.
        if not isinstance(entity, Player) or entity is not self.round.entity():
            return False
        if self.offered(entity, kind):
            return True
        if kind not in ("choose", "failed_merge", "buy_shares", "pass") or self.bought():
            return False
        if kind == "buy_shares":
            return any(exchange_shares(self.game, c) for c in entity.companies)
        if can_merge_any(self.game, entity):
            return True  # choose, failed_merge, and the pass they bring
        return kind == "pass" and not self.offered(entity, "buy_shares") and \
            any(exchange_shares(self.game, c) for c in entity.companies)

    def has_any_action(self, player: Player) -> bool:
        if super().has_any_action(player):
            return True
        return not self.bought() and (can_merge_any(self.game, player)
                                      or any(exchange_shares(self.game, c) for c in player.companies))

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if not isinstance(entity, Player):  # only the player in turn merges
            return super().choices(entity, kind)
        failed = undone_failed_merge(self.game, entity)
        if kind == "failed_merge":
            return [] if failed is None else [{**entity_action(entity, "failed_merge"), "corporations": failed}]
        if kind == "choose":
            if failed is not None:
                return []  # the merger just undone failed: record that, do not start it again
            # A company without a share price cannot start a merger (its new price needs one), though 18xx.games
            # counts it when it offers the choice.
            # Nor, right after its undo, the company whose merger 18xx.games could not run (Merger.choices).
            undone = undone_unfinishable_merge(self.game, entity)
            return [{**entity_action(entity, "choose"), "choice": c.sym} for c in self.game.corporations.values()
                    if c.ipoed and c.sym != undone and merge_candidates(self.game, entity, c)]
        if failed is not None:
            return []
        return super().choices(entity, kind)

    def process_choose(self, action: Action, entity: Entity) -> None:
        entity = as_player(entity)
        corp = self.game.corporations.get(text(action, "choice"))
        if corp is None or not merge_candidates(self.game, entity, corp):
            raise illegal(f"{text(action, 'choice')} has no company to merge with")
        stock_round_of(self).acting_player = entity
        stock_round_of(self).merge_initiator = corp
        stock_round_of(self).merge_start_id = self.game.last_action_id
        self.current.append(action)
        self.round.last_to_act = entity

    def process_failed_merge(self, action: Action, entity: Entity) -> None:
        entity = as_player(entity)
        if not can_merge_any(self.game, entity):
            raise illegal(f"{entity.name} has no merger to record as failed")
        names = " and ".join(str(c) for c in action.get("corporations") or [])
        self.game.log(f"{entity.name} failed to merge {names}")
        self.current.append(action)
        self.round.last_to_act = entity

    def pass_(self) -> None:
        player = as_player(self.round.entity())
        super().pass_()
        order: list[Player] = stock_round_of(self).pass_order
        if self.current:
            if player in order:
                order.remove(player)
        elif player not in order:
            order.append(player)


class RemoveTokens(InterruptStep[Game1828]):
    """A new system with two stations in one hex (in different cities) removes one; a blocking marker takes
    its place (rules 7.5.2)."""

    name = "Choose a station to remove"

    def system(self) -> Corporation | None:
        return stock_round_of(self).corporation_removing_tokens

    def active(self) -> bool:
        return self.system() is not None

    def blocking(self) -> bool:
        return self.system() is not None

    def active_entities(self) -> list[Any]:
        system = self.system()
        return [system] if system is not None else []

    def actions(self, entity: Entity) -> list[str]:
        return ["remove_token"] if entity is not None and entity is self.system() else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "remove_token":
            return super().choices(entity, kind)
        hexes = stock_round_of(self).hexes_to_remove_tokens
        entity = as_corporation(entity)
        board = self.game.board.hexes
        return [{**entity_action(entity, "remove_token"), "city": f"{board[str(t.hex)].tile.id}-{t.node}",
                 "slot": t.slot} for t in entity.tokens if t.used and t.hex in hexes]

    def process_remove_token(self, action: Action, entity: Entity) -> None:
        entity = as_corporation(entity)
        hx, node = self.game.track.city_by_id(text(action, "city"))
        slot = int(action.get("slot", 0))
        hexes: list[str] = stock_round_of(self).hexes_to_remove_tokens
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
        self.game.track.board_changed()
        hexes.remove(hx.id)
        if not hexes:
            stock_round_of(self).corporation_removing_tokens = None
            merger = next(s for s in self.round.steps if isinstance(s, Merger))
            merger.resume_after_token_removal()


class Exchange1828(InterruptStep[Game1828]):
    """The M&H's owner exchanges it for a 10% share of any company from the IPO or the market (rules 13.2): in
    a stock round on their turn, instead of buying; in an operating round at any time."""

    name = "Exchange a private for a share"
    blocks = False

    def _stock_step(self) -> BuySellParShares1828 | None:
        return next((s for s in self.round.steps if isinstance(s, BuySellParShares1828)), None)

    def actions(self, entity: Entity) -> list[str]:
        if not isinstance(entity, Company) or not exchange_shares(self.game, entity):
            return []
        stock = self._stock_step()
        if stock is not None and (entity.owner is not self.round.entity() or stock.bought()):
            return []
        return ["buy_shares"]

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "buy_shares":
            return super().choices(entity, kind)
        return [{**entity_action(entity, "buy_shares"), "shares": [s.id], "percent": s.percent}
                for s in exchange_shares(self.game, as_company(entity))]

    def process_buy_shares(self, action: Action, entity: Entity) -> None:
        entity = as_company(entity)
        shares = [self.game.share_by_id(str(sid)) for sid in share_ids(action)]
        offered = exchange_shares(self.game, entity)
        if len(shares) != 1 or shares[0] not in offered:
            raise illegal(f"{entity.sym} is exchanged for one 10% share from the IPO or the market")
        exchange_company(self.game, entity, shares[0])
        stock = self._stock_step()
        if stock is not None:
            stock.current.append(action)


class HomeToken1828(HomeToken[Game1828]):
    """A station on Dunkirk & Buffalo's trackless printed tile is re-placed by its own company when track
    arrives (18xx.games: the token's owner decides), not by the company that laid the tile."""

    def _chooser(self) -> Any:
        actor, _, token = self.pending()[0]
        return self.game.track.token_owner(token, actor)

    def actions(self, entity: Entity) -> list[str]:
        return ["place_token"] if self.pending() and entity is self._chooser() else []

    def active_entities(self) -> list[Any]:
        return [self._chooser()] if self.pending() else []
