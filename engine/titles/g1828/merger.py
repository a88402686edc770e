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

from dataclasses import dataclass, field
from typing import Any

from ...core import events as ev
from ...core.actions import Action, entity_action
from ...core.entities import Corporation, Holder, Player, Share, pay
from ...core.errors import GameError, illegal
from ...core.round import InterruptStep


class ShareBox(Holder):
    """A place old shares wait during the exchange: the discard, the used shares, the combined IPO."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.cash = 0
        self.shares: list[Share] = []


@dataclass
class PlayerChoice:
    description: str
    choices: list[str] = field(default_factory=list)
    # What each option (its word, before " (") means for the player, in words the chat shows beside it.
    labels: dict[str, str] = field(default_factory=dict)


def num_shares(holder: Holder, corp: Corporation | None) -> int:
    if corp is None:
        return 0
    return sum(s.percent for s in holder.shares if s.corp == corp.sym) // corp.share_percent


class Merger(InterruptStep[Any]):
    """The merger in progress, started by a ``choose`` in BuySellParShares1828."""
    game: Any  # the G1828 game, whose module imports this one

    name = "Merger"

    def round_setup(self) -> None:
        self.round.merge_initiator = None  # type: ignore[attr-defined]
        self.round.acting_player = None  # type: ignore[attr-defined]
        self.round.corporation_removing_tokens = None  # type: ignore[attr-defined]
        self.round.hexes_to_remove_tokens = []  # type: ignore[attr-defined]
        self._reset()

    def _reset(self) -> None:
        self.state: str | None = None
        self.merger: Corporation | None = None
        self.target: Corporation | None = None
        self.system: Corporation | None = None
        self.players: list[Any] | None = None
        self.trade_order: list[Any] = []
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
        if self.state is None and self.round.merge_initiator is not None:  # type: ignore[attr-defined]
            self.state = "select_target"
        initiator: Corporation | None = self.round.merge_initiator  # type: ignore[attr-defined]
        return self.system or initiator

    def in_progress(self) -> bool:
        return self.mergeable_entity() is not None

    def blocking(self) -> bool:
        return self.in_progress()

    def active(self) -> bool:
        return True

    def actions(self, entity: Any) -> list[str]:
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
        return [self.round.acting_player]  # type: ignore[attr-defined]

    def description(self) -> str:
        if self.player_choice is not None:
            return f"Merger - {self.player_choice.description}"
        entity = self.mergeable_entity()
        return f"Merger - select a company to merge with {entity.sym if entity else ''}"

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind == "merge" and self.state == "select_target":
            initiator = self.mergeable_entity()
            assert initiator is not None
            player = self.round.acting_player  # type: ignore[attr-defined]
            # Only mergers 18xx.games can run are offered; with none left, the way out is the undo of the choice.
            targets = self.game.finishable_merges(player, initiator)
            return ([{**entity_action(entity, "merge"), "corporation": c.sym} for c in targets]
                    or [self._undo_merger(player)])
        if kind == "failed_merge" and self.state == "failed":
            # The merger cannot stand: 18xx.games undoes it (to before the merger began), then the player records
            # failed_merge. Offered as that undo; BuySellParShares1828 then offers failed_merge.
            return [{"type": "undo", "entity": entity.id, "entity_type": "player",
                     "action_id": int(self.round.merge_start_id)}]  # type: ignore[attr-defined]
        if kind == "choose" and self.player_choice is not None:
            options = [{**entity_action(entity, "choose"), "choice": c.split(" (")[0]}
                       for c in self.player_choice.choices]
            # Only what 18xx.games can process is offered; when it would refuse every option, the merger can only
            # be undone (docs/conformance.md). The others stay accepted, so games recorded before still load.
            offered = [o for o in options if not self._refused_by_reference(o)]
            return offered or [self._undo_merger(entity)]
        return super().choices(entity, kind)

    def _undo_merger(self, player: Player) -> Action:
        """The undo to before the merger began (as 18xx.games' players undo a merger it cannot finish)."""
        return {"type": "undo", "entity": player.id, "entity_type": "player",
                "action_id": int(self.round.merge_start_id)}  # type: ignore[attr-defined]

    def _refused_by_reference(self, action: Action) -> bool:
        """Whether 18xx.games would refuse ``action``: it hands out system shares without checking that one is
        left, and stops with an error where none is. Tried on a copy of the game whose merger stops there too."""
        if self.game.merger_strict or not self._may_run_short():
            return False  # a trial tries one action, not the options after it
        key = repr(sorted(action.items()))
        if key not in self._trials:
            trial = self.game.trial_copy()
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
        left = self._system_shares()
        holders: list[Holder] = [*self._entities(), self.game.pool, self.discard, merger]
        owed = sum(num_shares(h, merger) for h in holders) + any(s.president for s in left)
        return sum(s.percent for s in left) // system.share_percent < owed

    def _short(self, holder: Holder) -> None:
        """A system share is needed and none is left: only after a trade worth one share took the director's
        certificate (docs/conformance.md). 18xx.games stops with an error here; a trial copy does too."""
        if self.game.merger_strict:
            raise illegal(f"no system share is left for {self.game.describe(holder)} (18xx.games cannot go on)")

    def choice_label(self, entity: Any, action: Action) -> str | None:
        """What a trade-up or odd-share option costs or brings the player (the word alone gives no price)."""
        if self.player_choice is None:
            return None
        return self.player_choice.labels.get(str(action.get("choice")))

    # --- processing
    def process_merge(self, action: dict[str, Any], entity: Any) -> None:
        if self.state != "select_target":
            raise illegal("no merger is waiting for its second company")
        target = self.game.corporation(action["corporation"])
        initiator = self.mergeable_entity()
        if initiator is None or entity is not initiator:
            raise illegal(f"the merger is {initiator.sym if initiator else 'nobody'}'s, not {action['entity']}'s")
        player = self.round.acting_player  # type: ignore[attr-defined]
        if target not in self.game.merge_candidates(player, entity):
            raise illegal(f"{initiator.sym} cannot merge with {target.sym}")
        if not initiator.ipoed:
            raise illegal(f"{initiator.sym} has no share price and cannot start a merger")
        self.merger = initiator
        self.target = target
        self._enter("start_merge")

    def process_choose(self, action: dict[str, Any], entity: Any) -> None:
        if self.player_choice is None:
            raise illegal("there is no merger decision to make")
        if not self.players or entity is not self.players[0]:
            raise illegal(f"the decision is {self.game.describe(self.players[0]) if self.players else 'nobody'}'s")
        choice = str(action["choice"])
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
            if self.round.corporation_removing_tokens is None:  # type: ignore[attr-defined]
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
        self.system = self.game.create_system([self.merger, self.target])
        hexes = self.game.system_shared_hexes(self.system)
        if hexes:
            self.round.corporation_removing_tokens = self.system  # type: ignore[attr-defined]
            self.round.hexes_to_remove_tokens = hexes  # type: ignore[attr-defined]
            self._enter("token_removal")
        else:
            self._enter("exchange_pairs")

    def _entities(self) -> list[Any]:
        return list(self.round.entities)

    def _rotate(self, items: list[Any], start: int) -> list[Any]:
        start %= len(items)
        return items[start:] + items[:start]

    def _exchange_pairs_state(self) -> None:
        players = self._entities()
        if not self.players:
            self.players = self._rotate(players, players.index(self.round.acting_player))  # type: ignore[attr-defined]
        while self.players:
            player = self.players[0]
            self.trade_order = self._rotate(players, players.index(player))
            self._hide_odd_share(player)
            self._exchange_pairs(player)
            self._restore_odd_share(player)
            if self.player_choice is not None:
                return
            self.odd_share = None
            self.players.pop(0)
        self._enter("exchange_singles")

    def _exchange_singles_state(self) -> None:
        players = self._entities()
        if not self.players:
            self.players = self._rotate(players, players.index(self.round.acting_player) + 1)  # type: ignore[attr-defined]
        while self.players:
            self.trade_order = self.players
            self._exchange_singles(self.players[0])
            if self.player_choice is not None:
                return
            self.players.pop(0)
        self._enter("complete_merger")

    def _complete_state(self) -> None:
        self.players = []
        pool = self.game.pool
        self._exchange_pairs(pool)
        self._exchange_singles(pool)
        self._combine_ipo_shares()
        self._exchange_pairs(self.ipo)
        self._exchange_singles(self.ipo)
        self._exchange_discarded()
        self._complete_merger()

    # --- helpers over shares
    def _shares(self, holder: Holder, corp: Corporation | None) -> list[Share]:
        return [] if corp is None else holder.shares_of(corp.sym)

    def _move(self, share: Share, to: Holder) -> None:
        self.game.transfer_share(share, to)

    def _system_shares(self) -> list[Share]:
        assert self.system is not None
        return self.system.shares_of(self.system.sym)

    def _give_system_shares(self, shares: list[Share], entity: Holder) -> None:
        if entity is self.ipo:
            return
        if not shares:
            self._short(entity)
        assert self.system is not None
        previous = self.system.owner
        for share in shares:
            self._move(share, entity)
        self.game.check_presidency(self.system, previous=previous)

    def _price(self, share: Share) -> int:
        return int(self.game.share_value(share))

    def _exchange_pairs(self, entity: Holder) -> None:
        merger, target, system = self.merger, self.target, self.system
        assert merger is not None and target is not None and system is not None
        while True:
            if num_shares(entity, merger) + num_shares(entity, target) < 2 or self.player_choice is not None:
                return
            if self._pool_out_of_system_shares(entity):
                return
            merger_p = next((s for s in self._shares(entity, merger) if s.president), None)
            target_p = next((s for s in self._shares(entity, target) if s.president), None)
            needed = 2 if merger_p or target_p else 1
            source = self._exchange_source(entity, needed)
            if self.player_choice is not None:
                return
            if source is None:
                self._discard_shares(entity)
                return
            if source is entity:
                exchanged = [merger_p] if merger_p else self._shares(entity, merger)[:needed]
                for s in exchanged:
                    self._move(s, self.used)
                discarded = [target_p] if target_p else (self._shares(entity, target)
                                                         + self._shares(entity, merger))[:needed]
                for s in discarded:
                    self._move(s, self.discard)
                system_p = next((s for s in self._system_shares() if s.president), None)
                # One share's worth takes the first certificate left, the director's too (18xx.games; a departure
                # from rule 7.5.2 we follow, docs/conformance.md): it leaves the system a share short.
                given = [system_p] if needed == 2 and system_p else self._system_shares()[:needed]
                self.game.log(f"{self.game.describe(entity)} exchanges {len(exchanged) + len(discarded)} "
                              f"certificates for {needed} system share{'s' if needed > 1 else ''}")
                self._give_system_shares(given, entity)
            else:
                to_trade = [merger_p or target_p or self._shares(entity, target)[0]]
                from_merger = [s for s in self._shares(source, merger) if not s.president]
                from_target = [s for s in self._shares(source, target) if not s.president]
                receive = [s for s in (from_merger[0] if from_merger else None,
                                       from_target[0] if from_target else None,
                                       from_merger[1] if len(from_merger) > 1 else None) if s is not None]
                self._trade(entity, to_trade, source, receive[:needed])
                exchanged_one = self._shares(entity, merger)[0]
                self._move(exchanged_one, self.used)
                discarded_one = (self._shares(entity, target) + self._shares(entity, merger))[0]
                self._move(discarded_one, self.discard)
                system_share = next((s for s in self._system_shares() if not s.president), None)
                self.game.log(f"{self.game.describe(entity)} exchanges 2 certificates for 1 system share")
                if system_share is not None:
                    self._give_system_shares([system_share], entity)
                else:
                    self._short(entity)
            if not (num_shares(entity, merger) or num_shares(entity, target)):
                return

    def _hide_odd_share(self, entity: Any) -> None:
        if self.odd_share is None:
            self._identify_odd_share(entity)
        if self.odd_share is not None:
            self._move(self.odd_share, self.used)

    def _identify_odd_share(self, entity: Any) -> None:
        merger, target = self.merger, self.target
        assert merger is not None and target is not None
        if (num_shares(entity, merger) + num_shares(entity, target)) % 2 == 0:
            return
        merger_share = next((s for s in self._shares(entity, merger) if not s.president), None)
        target_share = next((s for s in self._shares(entity, target) if not s.president), None)
        if self.player_selection is not None:
            self.odd_share = merger_share if merger.sym in self.player_selection else target_share
            self.player_selection = None
        elif isinstance(entity, Player) and merger_share and target_share:
            self.game.log(f"{entity.name} chooses which odd share to keep for trading up")
            self.player_choice = PlayerChoice(
                "Choose the odd share to keep for trading up",
                [f"{c.sym} ({self.game.format_money(self.game.share_price_of(c))})" for c in (merger, target)],
                {c.sym: f"keep the {c.sym} share ({self.game.format_money(self.game.share_price_of(c))}) to trade up"
                 for c in (merger, target)})
        else:
            self.odd_share = merger_share or target_share

    def _restore_odd_share(self, entity: Any) -> None:
        if self.odd_share is not None and self.odd_share.owner is self.used:
            self._move(self.odd_share, entity)

    def _exchange_singles(self, entity: Holder) -> None:
        merger, target, system = self.merger, self.target, self.system
        assert merger is not None and target is not None and system is not None
        if not num_shares(entity, merger) and not num_shares(entity, target):
            return
        if self._pool_out_of_system_shares(entity):
            return
        if self.exchange_selection is None and self.player_selection is not None:
            self.exchange_selection = self.player_selection
            self.player_selection = None
        share = (self._shares(entity, merger) + self._shares(entity, target))[0]
        corp = merger if share.corp == merger.sym else target
        system_price = self.game.share_price_of(system)
        is_player = isinstance(entity, Player)
        if isinstance(entity, Player) and (self._sold(entity, merger) or self._sold(entity, target)
                          or self._price(share) + entity.cash < system_price or not self._system_shares()
                          or (self.exchange_selection is not None and "Sell" in self.exchange_selection)):
            self._move(share, self.discard)
            self._mark_sold(entity, corp)
            price = self._price(share)
            self.game.bank.spend(price, entity, ev.Why.SHARE_SALE)
            self.exchange_selection = None
            self.game.log(f"{entity.name} discards 1 {corp.sym} share and receives {self.game.format_money(price)}"
                          " from the bank")
        elif is_player and self.exchange_selection is None:
            cost = self._price(share) - system_price  # shown as 18xx.games shows it (negative: the player pays)
            self.game.log(f"{entity.name} chooses whether to trade up or sell a single {corp.sym} share")
            money = self.game.format_money
            trade = (f"trade the {corp.sym} share and {money(-cost)} for a system share" if cost < 0 else
                     f"trade the {corp.sym} share for a system share and {money(cost)}" if cost > 0 else
                     f"trade the {corp.sym} share for a system share")
            self.player_choice = PlayerChoice(
                "Trade up or sell share", [f"Exchange ({money(cost)})", f"Sell ({money(self._price(share))})"],
                {"Exchange": trade, "Sell": f"sell the {corp.sym} share to the bank for {money(self._price(share))}"})
        else:
            source = self._exchange_source(entity)
            if self.player_choice is not None:
                return
            if source is None:
                self._discard_shares(entity)
                return
            if source is not entity:
                receive = [s for s in self._shares(source, merger) if not s.president][:1]
                self._trade(entity, [share], source, receive)
            paid = ""
            if is_player:
                price = system_price - self._price(share)
                pay(entity, self.game.bank, price, ev.Why.MERGER)
                paid = f" and {self.game.format_money(price)}"
            self._move(self._shares(entity, merger)[0], self.used)
            self.game.log(f"{self.game.describe(entity)} exchanges 1 {corp.sym} share{paid} for 1 system share")
            self._give_system_shares(self._system_shares()[:1], entity)
            self.exchange_selection = None

    def _pool_out_of_system_shares(self, entity: Holder) -> bool:
        """Rules 7.5.2.1: once no system share is left, the market's shares still to trade are discarded.
        With shares of the surviving company among them, the system ran short only because a trade worth one share
        took the director's certificate; 18xx.games then stops with an error (docs/conformance.md)."""
        if entity is not self.game.pool or self._system_shares():
            return False
        if any(num_shares(h, self.merger) for h in (entity, self.discard, self.merger) if h is not None):
            self._short(entity)  # 18xx.games finds a share of the surviving company to trade, but no system share
        for corp in (self.merger, self.target):
            for share in list(self._shares(entity, corp)):
                self._move(share, self.discard)
        self.game.log("No system share is left: the market's shares of the merging companies are discarded")
        return True

    def _exchange_source(self, entity: Holder, needed: int = 1) -> Holder | None:
        merger, target = self.merger, self.target
        assert merger is not None and target is not None
        if self.player_selection is not None:
            name = self.player_selection
            self.player_selection = None
            return next((p for p in self.trade_order if getattr(p, "name", None) == name), None)
        if num_shares(entity, merger) >= needed:
            return entity
        candidates: list[Holder] = [self.discard, *self.trade_order[1:], merger, self.game.pool]
        sources = []
        for src in candidates:
            m = [s for s in self._shares(src, merger) if not s.president]
            t = [s for s in self._shares(src, target) if not s.president]
            if m and len(m) + len(t) >= needed:
                sources.append(src)
        if sources and isinstance(sources[0], Player):
            players = [s for s in sources if s in self.trade_order]
            if len(players) > 1:
                self.game.log(f"{self.game.describe(entity)} chooses a player to trade a {target.sym} share to "
                              f"for a {merger.sym} share")
                self.player_choice = PlayerChoice(f"Trade a {target.sym} share for a {merger.sym} share",
                                                  [p.name for p in players])
        return sources[0] if sources else None

    def _discard_shares(self, entity: Holder) -> None:
        for share in list(self._shares(entity, self.target)):
            self._move(share, self.discard)
        self.game.log(f"{self.game.describe(entity)} discards its {self.target.sym if self.target else ''} shares")

    def _trade(self, a: Holder, shares_a: list[Share], b: Holder, shares_b: list[Share]) -> None:
        merger, target = self.merger, self.target
        for s in shares_a:
            self._move(s, b)
        for s in shares_b:
            self._move(s, a)
        self.game.log(f"{self.game.describe(a)} trades {len(shares_a)} share(s) to {self.game.describe(b)} "
                      f"for {len(shares_b)} share(s)")
        if not (isinstance(b, Player) and len(shares_b) == 1):
            return
        if (num_shares(b, merger) + num_shares(b, target)) % 2 == 0:
            return
        difference = self._price(shares_b[0]) - self._price(shares_a[0])
        if difference > 0:
            self.game.bank.spend(difference, b, ev.Why.MERGER)
        elif difference < 0:
            if b.cash >= -difference:
                pay(b, self.game.bank, -difference, ev.Why.MERGER)
            else:
                discard = shares_a[0]
                self._move(discard, self.discard)
                corp = self.game.corporation(discard.corp)
                self._mark_sold(b, corp)
                self.game.bank.spend(self._price(discard), b, ev.Why.SHARE_SALE)

    def _combine_ipo_shares(self) -> None:
        for corp in (self.merger, self.target):
            assert corp is not None
            for share in list(corp.shares):  # every certificate it holds, the other's traded to it too
                self._move(share, self.ipo)

    def _exchange_discarded(self) -> None:
        total = num_shares(self.discard, self.merger)
        if total and not self._system_shares():
            self._short(self.game.pool)
        if total:
            for share in self._system_shares()[:total]:
                self._move(share, self.game.pool)
            self.game.log(f"{total} discarded system shares placed in the market")

    def _sold(self, player: Player, corp: Corporation) -> bool:
        return bool(self.game.stock_step_sold(self.round).get(player.id, {}).get(corp.sym))

    def _mark_sold(self, player: Player, corp: Corporation) -> None:
        self.game.stock_step_sold(self.round).setdefault(player.id, {})[corp.sym] = True

    def _complete_merger(self) -> None:
        merger, target, system = self.merger, self.target, self.system
        assert merger is not None and target is not None and system is not None
        for box in (self.discard, self.used):
            for share in list(box.shares):
                self._move(share, self.game.corporation(share.corp))
        for player in self._entities():
            if self._sold(player, target) or self._sold(player, merger):
                self._mark_sold(player, system)
        owner = system.owner
        if owner is None or num_shares(owner, system) < 3:
            self.state = "failed"
            return
        share = next(s for s in owner.shares_of(system.sym) if not s.president)
        self._move(share, system.treasury)
        self.game.check_presidency(system, previous=owner)  # the donation may leave another player ahead
        self.game.log(f"President ({owner.name}) contributes 1 system share to the {system.sym} treasury")
        self.game.finish_system(system, merger, target)
        self.round.merge_initiator = None  # type: ignore[attr-defined]
        self.round.acting_player = None  # type: ignore[attr-defined]
        self._reset()
