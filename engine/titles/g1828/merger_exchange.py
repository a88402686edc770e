"""The share exchange of a 1828 merger (rules 7.5.2): holders trade pairs of old shares for system shares,
trading among themselves to complete pairs, then trade up or sell an odd share; the market's, the IPO's and the
discarded shares follow. Functions of the Merger step, whose state (the companies, the boxes, the decision
waiting) they read and change."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ...core import events as ev
from ...core.entities import Corporation, Holder, Player, Share, pay
from ...core.round import Round
from .market import share_price_of, share_value
from .merger_rules import stock_step_sold
from .state import Game1828


class MergerInProgress(Protocol):
    """What the share exchange reads and changes of the merger step in progress (merger.Merger)."""

    game: Game1828
    round: Round
    merger: Corporation | None
    target: Corporation | None
    system: Corporation | None
    discard: ShareBox
    used: ShareBox
    ipo: ShareBox
    trade_order: list[Player]
    player_choice: PlayerChoice | None
    player_selection: str | None
    exchange_selection: str | None
    odd_share: Share | None

    def run_short(self, holder: Holder) -> None: ...


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


def _shares(step: MergerInProgress, holder: Holder, corp: Corporation | None) -> list[Share]:
    return [] if corp is None else holder.shares_of(corp.sym)


def move_share(step: MergerInProgress, share: Share, to: Holder) -> None:
    step.game.shares.transfer_share(share, to)


def system_shares(step: MergerInProgress) -> list[Share]:
    assert step.system is not None
    return step.system.shares_of(step.system.sym)


def _give_system_shares(step: MergerInProgress, shares: list[Share], entity: Holder) -> None:
    if entity is step.ipo:
        return
    if not shares:
        step.run_short(entity)
    assert step.system is not None
    previous = step.system.owner
    for share in shares:
        move_share(step, share, entity)
    step.game.check_presidency(step.system, previous=previous)


def _price(step: MergerInProgress, share: Share) -> int:
    return share_value(step.game, share)


def exchange_pairs(step: MergerInProgress, entity: Holder) -> None:
    merger, target, system = step.merger, step.target, step.system
    assert merger is not None and target is not None and system is not None
    while True:
        if num_shares(entity, merger) + num_shares(entity, target) < 2 or step.player_choice is not None:
            return
        if _pool_out_of_system_shares(step, entity):
            return
        merger_p = next((s for s in _shares(step, entity, merger) if s.president), None)
        target_p = next((s for s in _shares(step, entity, target) if s.president), None)
        needed = 2 if merger_p or target_p else 1
        source = _exchange_source(step, entity, needed)
        if step.player_choice is not None:
            return
        if source is None:
            _discard_shares(step, entity)
            return
        if source is entity:
            exchanged = [merger_p] if merger_p else _shares(step, entity, merger)[:needed]
            for s in exchanged:
                move_share(step, s, step.used)
            discarded = [target_p] if target_p else (_shares(step, entity, target)
                                                     + _shares(step, entity, merger))[:needed]
            for s in discarded:
                move_share(step, s, step.discard)
            system_p = next((s for s in system_shares(step) if s.president), None)
            # One share's worth takes the first certificate left, the director's too (18xx.games; a departure
            # from rule 7.5.2 we follow, docs/conformance.md): it leaves the system a share short.
            given = [system_p] if needed == 2 and system_p else system_shares(step)[:needed]
            step.game.log(f"{step.game.describe(entity)} exchanges {len(exchanged) + len(discarded)} "
                          f"certificates for {needed} system share{'s' if needed > 1 else ''}")
            _give_system_shares(step, given, entity)
        else:
            to_trade = [merger_p or target_p or _shares(step, entity, target)[0]]
            from_merger = [s for s in _shares(step, source, merger) if not s.president]
            from_target = [s for s in _shares(step, source, target) if not s.president]
            receive = [s for s in (from_merger[0] if from_merger else None,
                                   from_target[0] if from_target else None,
                                   from_merger[1] if len(from_merger) > 1 else None) if s is not None]
            _trade(step, entity, to_trade, source, receive[:needed])
            exchanged_one = _shares(step, entity, merger)[0]
            move_share(step, exchanged_one, step.used)
            discarded_one = (_shares(step, entity, target) + _shares(step, entity, merger))[0]
            move_share(step, discarded_one, step.discard)
            system_share = next((s for s in system_shares(step) if not s.president), None)
            step.game.log(f"{step.game.describe(entity)} exchanges 2 certificates for 1 system share")
            if system_share is not None:
                _give_system_shares(step, [system_share], entity)
            else:
                step.run_short(entity)
        if not (num_shares(entity, merger) or num_shares(entity, target)):
            return


def hide_odd_share(step: MergerInProgress, entity: Holder) -> None:
    if step.odd_share is None:
        _identify_odd_share(step, entity)
    if step.odd_share is not None:
        move_share(step, step.odd_share, step.used)


def _identify_odd_share(step: MergerInProgress, entity: Holder) -> None:
    merger, target = step.merger, step.target
    assert merger is not None and target is not None
    if (num_shares(entity, merger) + num_shares(entity, target)) % 2 == 0:
        return
    merger_share = next((s for s in _shares(step, entity, merger) if not s.president), None)
    target_share = next((s for s in _shares(step, entity, target) if not s.president), None)
    if step.player_selection is not None:
        step.odd_share = merger_share if merger.sym in step.player_selection else target_share
        step.player_selection = None
    elif isinstance(entity, Player) and merger_share and target_share:
        step.game.log(f"{entity.name} chooses which odd share to keep for trading up")
        step.player_choice = PlayerChoice(
            "Choose the odd share to keep for trading up",
            [f"{c.sym} ({step.game.format_money(share_price_of(step.game, c))})" for c in (merger, target)],
            {c.sym: f"keep the {c.sym} share ({step.game.format_money(share_price_of(step.game, c))}) to trade up"
             for c in (merger, target)})
    else:
        step.odd_share = merger_share or target_share


def restore_odd_share(step: MergerInProgress, entity: Holder) -> None:
    if step.odd_share is not None and step.odd_share.owner is step.used:
        move_share(step, step.odd_share, entity)


def exchange_singles(step: MergerInProgress, entity: Holder) -> None:
    merger, target, system = step.merger, step.target, step.system
    assert merger is not None and target is not None and system is not None
    if not num_shares(entity, merger) and not num_shares(entity, target):
        return
    if _pool_out_of_system_shares(step, entity):
        return
    if step.exchange_selection is None and step.player_selection is not None:
        step.exchange_selection = step.player_selection
        step.player_selection = None
    share = (_shares(step, entity, merger) + _shares(step, entity, target))[0]
    corp = merger if share.corp == merger.sym else target
    system_price = share_price_of(step.game, system)
    is_player = isinstance(entity, Player)
    if isinstance(entity, Player) and (has_sold(step, entity, merger) or has_sold(step, entity, target)
                      or _price(step, share) + entity.cash < system_price or not system_shares(step)
                      or (step.exchange_selection is not None and "Sell" in step.exchange_selection)):
        move_share(step, share, step.discard)
        mark_sold(step, entity, corp)
        price = _price(step, share)
        step.game.bank.spend(price, entity, ev.Why.SHARE_SALE)
        step.exchange_selection = None
        step.game.log(f"{entity.name} discards 1 {corp.sym} share and receives {step.game.format_money(price)}"
                      " from the bank")
    elif is_player and step.exchange_selection is None:
        cost = _price(step, share) - system_price  # shown as 18xx.games shows it (negative: the player pays)
        step.game.log(f"{entity.name} chooses whether to trade up or sell a single {corp.sym} share")
        money = step.game.format_money
        trade = (f"trade the {corp.sym} share and {money(-cost)} for a system share" if cost < 0 else
                 f"trade the {corp.sym} share for a system share and {money(cost)}" if cost > 0 else
                 f"trade the {corp.sym} share for a system share")
        step.player_choice = PlayerChoice(
            "Trade up or sell share", [f"Exchange ({money(cost)})", f"Sell ({money(_price(step, share))})"],
            {"Exchange": trade, "Sell": f"sell the {corp.sym} share to the bank for {money(_price(step, share))}"})
    else:
        source = _exchange_source(step, entity)
        if step.player_choice is not None:
            return
        if source is None:
            _discard_shares(step, entity)
            return
        if source is not entity:
            receive = [s for s in _shares(step, source, merger) if not s.president][:1]
            _trade(step, entity, [share], source, receive)
        paid = ""
        if is_player:
            price = system_price - _price(step, share)
            pay(entity, step.game.bank, price, ev.Why.MERGER)
            paid = f" and {step.game.format_money(price)}"
        move_share(step, _shares(step, entity, merger)[0], step.used)
        step.game.log(f"{step.game.describe(entity)} exchanges 1 {corp.sym} share{paid} for 1 system share")
        _give_system_shares(step, system_shares(step)[:1], entity)
        step.exchange_selection = None


def _pool_out_of_system_shares(step: MergerInProgress, entity: Holder) -> bool:
    """Rules 7.5.2.1: once no system share is left, the market's shares still to trade are discarded.
    With shares of the surviving company among them, the system ran short only because a trade worth one share
    took the director's certificate; 18xx.games then stops with an error (docs/conformance.md)."""
    if entity is not step.game.pool or system_shares(step):
        return False
    if any(num_shares(h, step.merger) for h in (entity, step.discard, step.merger) if h is not None):
        step.run_short(entity)  # 18xx.games finds a share of the surviving company to trade, but no system share
    for corp in (step.merger, step.target):
        for share in list(_shares(step, entity, corp)):
            move_share(step, share, step.discard)
    step.game.log("No system share is left: the market's shares of the merging companies are discarded")
    return True


def _exchange_source(step: MergerInProgress, entity: Holder, needed: int = 1) -> Holder | None:
    merger, target = step.merger, step.target
    assert merger is not None and target is not None
    if step.player_selection is not None:
        name = step.player_selection
        step.player_selection = None
        return next((p for p in step.trade_order if getattr(p, "name", None) == name), None)
    if num_shares(entity, merger) >= needed:
        return entity
    candidates: list[Holder] = [step.discard, *step.trade_order[1:], merger, step.game.pool]
    sources = []
    for src in candidates:
        m = [s for s in _shares(step, src, merger) if not s.president]
        t = [s for s in _shares(step, src, target) if not s.president]
        if m and len(m) + len(t) >= needed:
            sources.append(src)
    if sources and isinstance(sources[0], Player):
        players = [s for s in sources if s in step.trade_order]
        if len(players) > 1:
            step.game.log(f"{step.game.describe(entity)} chooses a player to trade a {target.sym} share to "
                          f"for a {merger.sym} share")
            step.player_choice = PlayerChoice(f"Trade a {target.sym} share for a {merger.sym} share",
                                              [p.name for p in players])
    return sources[0] if sources else None


def _discard_shares(step: MergerInProgress, entity: Holder) -> None:
    for share in list(_shares(step, entity, step.target)):
        move_share(step, share, step.discard)
    step.game.log(f"{step.game.describe(entity)} discards its {step.target.sym if step.target else ''} shares")


def _trade(step: MergerInProgress, a: Holder, shares_a: list[Share], b: Holder, shares_b: list[Share]) -> None:
    merger, target = step.merger, step.target
    for s in shares_a:
        move_share(step, s, b)
    for s in shares_b:
        move_share(step, s, a)
    step.game.log(f"{step.game.describe(a)} trades {len(shares_a)} share(s) to {step.game.describe(b)} "
                  f"for {len(shares_b)} share(s)")
    if not (isinstance(b, Player) and len(shares_b) == 1):
        return
    if (num_shares(b, merger) + num_shares(b, target)) % 2 == 0:
        return
    difference = _price(step, shares_b[0]) - _price(step, shares_a[0])
    if difference > 0:
        step.game.bank.spend(difference, b, ev.Why.MERGER)
    elif difference < 0:
        if b.cash >= -difference:
            pay(b, step.game.bank, -difference, ev.Why.MERGER)
        else:
            discard = shares_a[0]
            move_share(step, discard, step.discard)
            corp = step.game.corporation(discard.corp)
            mark_sold(step, b, corp)
            step.game.bank.spend(_price(step, discard), b, ev.Why.SHARE_SALE)


def combine_ipo_shares(step: MergerInProgress) -> None:
    for corp in (step.merger, step.target):
        assert corp is not None
        for share in list(corp.shares):  # every certificate it holds, the other's traded to it too
            move_share(step, share, step.ipo)


def exchange_discarded(step: MergerInProgress) -> None:
    total = num_shares(step.discard, step.merger)
    if total and not system_shares(step):
        step.run_short(step.game.pool)
    if total:
        for share in system_shares(step)[:total]:
            move_share(step, share, step.game.pool)
        step.game.log(f"{total} discarded system shares placed in the market")


def has_sold(step: MergerInProgress, player: Player, corp: Corporation) -> bool:
    return bool(stock_step_sold(step.round).get(player.id, {}).get(corp.sym))


def mark_sold(step: MergerInProgress, player: Player, corp: Corporation) -> None:
    stock_step_sold(step.round).setdefault(player.id, {})[corp.sym] = True
