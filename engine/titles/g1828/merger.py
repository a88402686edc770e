"""1828's merger of two public companies into a system, during a stock round (rules 7.5).

The player who starts a merger names the surviving company (a ``choose`` in the stock turn) and then the other
one (``merge``). The system is formed at once; then every holder, starting with that player, trades pairs of
old shares for system shares, trading with others to complete pairs, and finally decides about an odd share
(trade it up, paying the difference, or sell it to the bank). The market's and the IPO's old shares follow.
The president donates one system share to the system's treasury; without three shares the merger fails and
the players undo it (18xx.games asks for an undo to before the merger, then records ``failed_merge``).

Decisions during the exchange are ``choose`` actions of the player whose decision it is: which odd share to keep
for trading up (a company's name), whom to trade with (a player's name), and "Exchange" or "Sell".
"""

from __future__ import annotations

from typing import Any

from ...core.actions import Action, entity_action, opt_text, text
from ...core.entities import Corporation, Entity, Holder, Player, Share, as_player
from ...core.errors import GameError, illegal
from ...core.round import InterruptStep
from . import merger_exchange as exchange
from .merger_exchange import PlayerChoice, ShareBox, num_shares
from .merger_rules import finishable_merges, merge_candidates, trial_copy
from .state import Game1828
from .stations import shared_hexes
from .stock_round import stock_round_of
from .systems import check_system_floats, create_system, finish_system


class Merger(InterruptStep[Any]):
    """The merger in progress, started by a ``choose`` in BuySellParShares1828."""

    name = "Merger"

    def round_setup(self) -> None:
        stock_round_of(self).merge_initiator = None
        stock_round_of(self).acting_player = None
        stock_round_of(self).corporation_removing_tokens = None
        stock_round_of(self).hexes_to_remove_tokens = []
        self._reset()

    def _reset(self) -> None:
        self.state: str | None = None
        self.merger: Corporation | None = None
        self.target: Corporation | None = None
        self.system: Corporation | None = None
        self.players: list[Player] | None = None
        self.trade_order: list[Player] = []
        self.player_choice: PlayerChoice | None = None
        self.player_selection: str | None = None
        self.exchange_selection: str | None = None
        self.odd_share: Share | None = None
        self.discard = ShareBox("the discard")
        self.used = ShareBox("the used shares")
        self.ipo = ShareBox("the IPO")
        self._trials: dict[str, bool] = {}  # an option's key -> whether 18xx.games would refuse it (this state)

    # --- queries
    def mergeable_entity(self) -> Corporation | None:
        if self.state is None and stock_round_of(self).merge_initiator is not None:
            self.state = "select_target"
        initiator: Corporation | None = stock_round_of(self).merge_initiator
        return self.system or initiator

    def in_progress(self) -> bool:
        return self.mergeable_entity() is not None

    def blocking(self) -> bool:
        return self.in_progress()

    def active(self) -> bool:
        return True

    def actions(self, entity: Entity) -> list[str]:
        if not self.in_progress():
            return []
        if self.state == "select_target":
            # The initiating player acts, with the surviving company as the action's entity (18xx.games).
            return ["merge"] if entity is self.mergeable_entity() else []
        if entity not in self.active_entities():
            return []
        if self.state == "failed":
            return ["failed_merge"]
        return ["choose"]

    def active_entities(self) -> list[Any]:
        if not self.in_progress():
            return []
        if self.player_choice is not None and self.players:
            return [self.players[0]]
        return [stock_round_of(self).acting_player]

    def description(self) -> str:
        if self.player_choice is not None:
            return f"Merger - {self.player_choice.description}"
        entity = self.mergeable_entity()
        return f"Merger - select a company to merge with {entity.sym if entity else ''}"

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "merge" and self.state == "select_target":
            initiator = self.mergeable_entity()
            assert initiator is not None
            player = as_player(stock_round_of(self).acting_player)
            # Only mergers 18xx.games can run are offered; with none left, the way out is the undo of the choice.
            targets = finishable_merges(self.game, player, initiator)
            return ([{**entity_action(entity, "merge"), "corporation": c.sym} for c in targets]
                    or [self._undo_merger(player)])
        if kind == "failed_merge" and self.state == "failed":
            # The merger cannot stand: 18xx.games undoes it (to before the merger began), then the player records
            # failed_merge. Offered as that undo; BuySellParShares1828 then offers failed_merge.
            return [{"type": "undo", "entity": as_player(entity).id, "entity_type": "player",
                     "action_id": int(stock_round_of(self).merge_start_id)}]
        if kind == "choose" and self.player_choice is not None:
            options = [{**entity_action(entity, "choose"), "choice": c.split(" (")[0]}
                       for c in self.player_choice.choices]
            # Only what 18xx.games can process is offered; when it would refuse every option, the merger can only
            # be undone (docs/conformance.md). The others stay accepted, so games recorded before still load.
            offered = [o for o in options if not self._refused_by_reference(o)]
            return offered or [self._undo_merger(as_player(entity))]
        return super().choices(entity, kind)

    def _undo_merger(self, player: Player) -> Action:
        """The undo to before the merger began (as 18xx.games' players undo a merger it cannot finish)."""
        return {"type": "undo", "entity": player.id, "entity_type": "player",
                "action_id": int(stock_round_of(self).merge_start_id)}

    def _refused_by_reference(self, action: Action) -> bool:
        """Whether 18xx.games would refuse ``action``: it hands out system shares without checking that one is
        left, and stops with an error where none is. Tried on a copy of the game whose merger stops there too."""
        if self.game.merger_strict or not self._may_run_short():
            return False  # a trial tries one action, not the options after it
        key = repr(sorted(action.items()))
        if key not in self._trials:
            trial = trial_copy(self.game)
            trial.merger_strict = True
            try:
                trial._apply(dict(action))
            except GameError:
                self._trials[key] = True
            else:
                self._trials[key] = False
        return self._trials[key]

    def _may_run_short(self) -> bool:
        """Whether the system may yet lack a share. Each system share handed out takes a share of the surviving
        company still held outside the used ones (the IPO's take none), and one trade may take the director's
        certificate for one share's worth (docs/conformance.md): with that many left, no share can lack."""
        merger, system = self.merger, self.system
        if merger is None or system is None:
            return True
        left = exchange.system_shares(self)
        holders: list[Holder] = [*self._entities(), self.game.pool, self.discard, merger]
        owed = sum(num_shares(h, merger) for h in holders) + any(s.president for s in left)
        return sum(s.percent for s in left) // system.share_percent < owed

    def run_short(self, holder: Holder) -> None:
        """A system share is needed and none is left: only after a trade worth one share took the director's
        certificate (docs/conformance.md). 18xx.games stops with an error here; a trial copy does too."""
        if self.game.merger_strict:
            raise illegal(f"no system share is left for {self.game.describe(holder)} (18xx.games cannot go on)")

    def choice_label(self, entity: Entity, action: Action) -> str | None:
        """What a trade-up or odd-share option costs or brings the player (the word alone gives no price)."""
        if self.player_choice is None:
            return None
        return self.player_choice.labels.get(str(opt_text(action, "choice")))

    # --- processing
    def process_merge(self, action: Action, entity: Entity) -> None:
        if self.state != "select_target":
            raise illegal("no merger is waiting for its second company")
        target = self.game.corporation(text(action, "corporation"))
        initiator = self.mergeable_entity()
        if initiator is None or entity is not initiator:
            raise illegal(f"the merger is {initiator.sym if initiator else 'nobody'}'s, not {action['entity']}'s")
        player = as_player(stock_round_of(self).acting_player)
        if target not in merge_candidates(self.game, player, entity):
            raise illegal(f"{initiator.sym} cannot merge with {target.sym}")
        if not initiator.ipoed:
            raise illegal(f"{initiator.sym} has no share price and cannot start a merger")
        self.merger = initiator
        self.target = target
        self._enter("start_merge")

    def process_choose(self, action: Action, entity: Entity) -> None:
        if self.player_choice is None:
            raise illegal("there is no merger decision to make")
        if not self.players or entity is not self.players[0]:
            raise illegal(f"the decision is {self.game.describe(self.players[0]) if self.players else 'nobody'}'s")
        choice = text(action, "choice")
        if not any(choice in c for c in self.player_choice.choices):
            raise illegal(f"choose one of: {', '.join(self.player_choice.choices)}")
        self.player_selection = choice
        self.player_choice = None
        self._enter(self.state or "")

    # --- the state machine
    def _enter(self, state: str) -> None:
        self._trials.clear()
        self.state = state
        if state == "start_merge":
            self._start_merge()
        elif state == "token_removal":
            if stock_round_of(self).corporation_removing_tokens is None:
                self._enter("exchange_pairs")
        elif state == "exchange_pairs":
            self._exchange_pairs_state()
        elif state == "exchange_singles":
            self._exchange_singles_state()
        elif state == "complete_merger":
            self._complete_state()

    def resume_after_token_removal(self) -> None:
        if self.state == "token_removal":
            self._enter("token_removal")

    def _start_merge(self) -> None:
        assert self.merger is not None and self.target is not None
        self.system = create_system(self.game, [self.merger, self.target])
        hexes = shared_hexes(self.system)
        if hexes:
            stock_round_of(self).corporation_removing_tokens = self.system
            stock_round_of(self).hexes_to_remove_tokens = hexes
            self._enter("token_removal")
        else:
            self._enter("exchange_pairs")

    def _entities(self) -> list[Player]:
        return list(self.round.entities)

    def _rotate(self, items: list[Player], start: int) -> list[Player]:
        start %= len(items)
        return items[start:] + items[:start]

    def _exchange_pairs_state(self) -> None:
        players = self._entities()
        if not self.players:
            self.players = self._rotate(players, players.index(as_player(stock_round_of(self).acting_player)))
        while self.players:
            player = self.players[0]
            self.trade_order = self._rotate(players, players.index(player))
            exchange.hide_odd_share(self, player)
            exchange.exchange_pairs(self, player)
            exchange.restore_odd_share(self, player)
            if self.player_choice is not None:
                return
            self.odd_share = None
            self.players.pop(0)
        self._enter("exchange_singles")

    def _exchange_singles_state(self) -> None:
        players = self._entities()
        if not self.players:
            self.players = self._rotate(players, players.index(as_player(stock_round_of(self).acting_player)) + 1)
        while self.players:
            self.trade_order = self.players
            exchange.exchange_singles(self, self.players[0])
            if self.player_choice is not None:
                return
            self.players.pop(0)
        self._enter("complete_merger")

    def _complete_state(self) -> None:
        self.players = []
        pool = self.game.pool
        exchange.exchange_pairs(self, pool)
        exchange.exchange_singles(self, pool)
        exchange.combine_ipo_shares(self)
        exchange.exchange_pairs(self, self.ipo)
        exchange.exchange_singles(self, self.ipo)
        exchange.exchange_discarded(self)
        self._complete_merger()

    def _complete_merger(self) -> None:
        merger, target, system = self.merger, self.target, self.system
        assert merger is not None and target is not None and system is not None
        for box in (self.discard, self.used):
            for share in list(box.shares):
                exchange.move_share(self, share, self.game.corporation(share.corp))
        for player in self._entities():
            if exchange.has_sold(self, player, target) or exchange.has_sold(self, player, merger):
                exchange.mark_sold(self, player, system)
        owner = system.owner
        if owner is None or num_shares(owner, system) < 3:
            self.state = "failed"
            return
        share = next(s for s in owner.shares_of(system.sym) if not s.president)
        exchange.move_share(self, share, system.treasury)
        self.game.check_presidency(system, previous=owner)  # the donation may leave another player ahead
        self.game.log(f"President ({owner.name}) contributes 1 system share to the {system.sym} treasury")
        check_system_floats(self.game)
        check_merging_floats(self.game)
        finish_system(self.game, system, merger, target)
        stock_round_of(self).merge_initiator = None
        stock_round_of(self).acting_player = None
        self._reset()


def merger_step(game: Game1828) -> Merger | None:
    """The current round's merger step (a stock round's), or None; looked for once per round, whose steps
    never change, since every action asks (check_merging_floats)."""
    rnd = game.round
    known = game.merger_of
    if known[0] is not rnd:
        known = game.merger_of = (rnd, next((s for s in getattr(rnd, "steps", ()) if isinstance(s, Merger)), None))
    step: Merger | None = known[1]
    return step


def check_merging_floats(game: Game1828) -> None:
    """18xx.games counts a company as floated once at most 40% is left in its IPO, whenever it looks; in a
    merger the two companies' IPOs drain, so they count as floated from then on (no money comes with it)."""
    step = merger_step(game)
    for corp in (step.merger, step.target) if step is not None else ():
        if corp is not None and not corp.floated and corp.percent_of(corp.sym) <= 100 - corp.float_percent:
            game.round.forget()  # after the action (action_processed): what the steps answered no longer holds
            corp.floated = True


def merger_boxes(game: Game1828) -> list[Holder]:
    """During a merger old certificates wait in the merger's boxes (discarded, exchanged, the joint IPO)."""
    step = merger_step(game)
    return [step.discard, step.used, step.ipo] if step is not None else []
