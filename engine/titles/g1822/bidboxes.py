"""The bid boxes: the stacks of minors, concessions and privates, the boxes open to bids, the bids, and their
resolution at the end of each stock round (winners take their cards, minors float, unsold minors export trains).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import events as ev
from ...core.entities import Company, CorporationKind, Player, pay
from .minors import float_minor
from .optional_rules import PLUS_NO_REMOVALS, PLUS_SINGLE_STACK, optional_rules, plus
from .trains import export_l_trains, export_next_train

if TYPE_CHECKING:
    from .state import Game1822


def setup_stacks(game: Game1822) -> None:
    comps = game.rng.shuffled(list(game.companies.values()))
    minors = [c for c in comps if c.sym[0] == "M"]
    concessions = [c for c in comps if c.sym[0] == "C"]
    privates = [c for c in comps if c.sym[0] == "P"]
    for group, first in ((minors, game.bidding["start_minor"]), (concessions, game.bidding["start_concession"]),
                         (privates, game.bidding["start_private"])):
        head = next(c for c in group if c.sym == first)
        group.remove(head)
        group.insert(0, head)
    if plus(game) and PLUS_NO_REMOVALS not in optional_rules(game):
        boxes = game.bidding["plus_boxes"]
        privates = [c for box in boxes for c in privates if c.sym in box]
        removed = [next(c for c in privates if c.sym in boxes[1] and c.sym != "P5")]
        removed += [c for c in privates if c.sym in boxes[2]][:2]
        for comp in removed:
            privates.remove(comp)
            game.log(f"{comp.name} has been removed from the game")
    game.companies = {c.sym: c for c in minors + concessions + privates}
    game.company_trains = {}
    for comp in privates:
        train_id = comp.data.get("train")
        if train_id:
            train = game.all_trains[str(train_id)]
            game.depot.remove(train)
            train.reserved = True
            game.company_trains[comp.sym] = train
    for spec_id in ("2P-0", "2P-1", "5P-0", "P+-0", "P+-1", "LP-0"):
        spare = game.all_trains.get(spec_id)
        if spare is not None and spare in game.depot:
            game.depot.remove(spare)
            spare.reserved = True


def bank_companies(game: Game1822, prefix: str) -> list[Company]:
    bank = game.bank
    return [c for c in game.companies.values()
            if c.sym[0] == prefix and (c.owner is None or c.owner is bank) and not c.closed]


def bidbox_minors(game: Game1822) -> list[Company]:
    first = bank_companies(game, "M")[: int(game.bidding["minor_boxes"])]
    return [c for c in first if c.sym in game.bidbox_minor_cache]


def bidbox_concessions(game: Game1822) -> list[Company]:
    return bank_companies(game, "C")[: int(game.bidding["concession_boxes"])]


def bidbox_privates(game: Game1822) -> list[Company]:
    privates = bank_companies(game, "P")
    if plus(game) and PLUS_SINGLE_STACK not in optional_rules(game):
        out = []
        for box in game.bidding["plus_boxes"]:
            found = next((c for c in privates if c.sym in box), None)
            if found is not None:
                out.append(found)
        return out
    return privates[: int(game.bidding["private_boxes"])]


def bidbox_companies(game: Game1822) -> list[Company]:
    return [*bidbox_minors(game), *bidbox_concessions(game), *bidbox_privates(game)]


def refill_minor_boxes(game: Game1822) -> None:
    game.bidbox_minor_cache = [c.sym for c in bank_companies(game, "M")[: int(game.bidding["minor_boxes"])]]


def setup_bidboxes(game: Game1822) -> None:
    refill_minor_boxes(game)
    for comp in bidbox_companies(game):
        comp.owner = game.bank
    game.double_cash_choice = None


def min_bid(game: Game1822, company: Company) -> int:
    bids = game.bids.get(company.sym)
    if bids:
        return max(p for _, p in bids) + game.MIN_BID_INCREMENT
    return company.value if company.sym[0] in "CM" else 0


def highest_bid(game: Game1822, company: Company) -> tuple[Player, int] | None:
    bids = game.bids.get(company.sym)
    if not bids:
        return None
    best = bids[0]
    for bid in bids[1:]:
        if bid[1] > best[1]:
            best = bid
    return best


def committed_cash(game: Game1822, player: Player) -> int:
    """What the player's winning bids hold back from their cash."""
    return sum(price for sym in game.bids
               if (best := highest_bid(game, game.companies[sym])) is not None
               for who, price in [best] if who is player)


def winning_bids(game: Game1822, player: Player) -> int:
    return sum(1 for sym in game.bids if (best := highest_bid(game, game.companies[sym])) is not None
               and best[0] is player)


def bids_placed(game: Game1822, player: Player) -> int:
    return sum(1 for bids in game.bids.values() if any(who is player for who, _ in bids))


def resolve_bid_boxes(game: Game1822) -> None:
    """The end of a stock round: winners take concessions and privates, minors float in order of their bid,
    and unsold minors export L trains (an unsold first box closes its minor and exports the next train)."""
    float_minors: list[tuple[tuple[Player, int], int, Company]] = []
    remove_l = 0
    remove_minor: Company | None = None
    minors = bidbox_minors(game)
    for index, minor in enumerate(minors):
        bid = highest_bid(game, minor)
        if bid is not None:
            float_minors.append((bid, index, minor))
        else:
            minor.owner = None
            remove_l += 1
            if index == 0:
                remove_minor = minor
    for comp in [*bidbox_concessions(game), *bidbox_privates(game)]:
        bid = highest_bid(game, comp)
        if bid is not None:
            _win_company(game, comp, *bid)
        else:
            comp.owner = None
    count = len(minors)
    for bid, _, minor in sorted(float_minors, key=lambda m: (m[0][1], count - m[1]), reverse=True):
        float_minor(game, minor, *bid)
    upcoming = game.trains.available_depot_trains()
    if remove_l and upcoming and upcoming[0].sym == "L":
        export_l_trains(game, remove_l)
    if remove_minor is not None:
        train = export_next_train(game)
        game.log(f"No bids on minor {remove_minor.sym}, it will close and a {train.name} train is removed")
        corp = game.corporations[remove_minor.sym[1:]]
        corp.closed = True
        remove_minor.closed = True
        del game.companies[remove_minor.sym]
    refill_minor_boxes(game)
    game.bids = {}
    for p in game.players:
        if p.debt:
            interest = (p.debt + 1) // 2  # 50% interest on player loans, rounded up
            p.debt += interest
            ev.emit(ev.LoanChanged(p.party, interest, "interest"))


def _win_company(game: Game1822, comp: Company, player: Player, price: int) -> None:
    comp.owner = player
    player.companies.append(comp)
    if price:
        pay(player, game.bank, price, ev.Why.AUCTION)
    ev.emit(ev.PrivateMoved(comp.sym, ev.BANK, player.party, price))
    game.log(f"{player.name} wins the bid {comp.name} for {game.format_money(price)}")
    ev.emit(ev.AuctionWon(comp.sym, player.party, price))


def finish_stock_round(game: Game1822) -> None:
    if game.nothing_sold:
        # Nothing bought or bid on in the first stock round: 18xx.games ends the game ("dnf").
        game.end_game("dnf")
        return
    resolve_bid_boxes(game)
    for corp in game.operating_order():
        if corp.kind is not CorporationKind.MAJOR:
            continue
        if sum(h.percent_of(corp.sym) for h in (*game.players, game.tax_haven)) == 100:
            game.market.up(corp.sym)
