"""1862's frozen game (D-22, rules edition 3): the game ends when nothing can ever change any more.

S2's four ends (§10.2) all need a floated company: only dividends move a price up to $400, only withholding takes
a price to $0 (an unfloated company's marker stops at the foot of the par column, $60, §4.1), only a forced train
purchase bankrupts a player, and only operating and sales can break the bank. Without a floated company and without
a private paying revenue, no player's money can grow: a sale pays at most the current price, a certificate costs at
least that price (at par from the initial offering), and unfloated prices only fall. So once no player can pay for
the cheapest certificate of the initial offering (a company floats only by such purchases, §5.4) and no player can
ever hold more of a company than its president's certificate (the only way a president's certificate, which is
never sold, could become sellable), no company can float again and the game can never end by S2's rules.
A plainer case is exact and applies to every rules edition: with no floated company and no open private, a stock
round that ends with nobody able to act is followed by empty operating rounds and the same stock round again, for
ever (1862-p6-seeker-s120034 went round them inside one action). No stored game can have got past such a round, so
ending there changes no replay.

When one of S2's ends is met at the same moment (the last floated company is the 8th to leave), that end names
the game's end and ends it in its own time.

The check is sound rather than exact: it may leave a dead game running a little longer (it over-estimates what
each player can raise), but it never ends a game in which a company could still float. Once true it stays true, as
an end check must: money, prices and holdings can only move towards it.
"""

from __future__ import annotations

from ...core.entities import Corporation, Player
from ...core.market import Cell
from . import rules
from .certificates import cert_price
from .state import Game1862

# The rules edition from which a frozen game ends (D-22); earlier games replay as they were played.
EDITION = 3
FROZEN = "frozen"  # the end reason, in game.toml's [game_end]


def frozen(game: Game1862) -> bool:
    """Whether no public company can ever float or operate again (D-22); see the module's reasoning."""
    in_game = [c for c in game.corporations.values() if not c.closed]
    if any(c.floated for c in in_game) or any(not c.closed for c in game.companies.values()):
        return False  # a company operates or a private pays: money still comes into play
    checks = game.end_checks()
    if any(checks[end.reason]() for end in game.end_conditions.conditions if end.reason != FROZEN):
        return False  # one of S2's ends is met: it ends the game in its own time and name
    if game.idle_stock_rounds:
        # A whole stock round ended in which nobody could act: every later round is the same, and the engine
        # would go round them for ever (edition 2 included: no stored game can have got past this point).
        return True
    if game.rules_edition < EDITION:
        return False
    players = [p for p in game.players if not p.bankrupt]
    means = {p.id: liquid(game, p) for p in players}
    cheapest = cheapest_offering(game, in_game)
    if cheapest is not None and any(m >= cheapest for m in means.values()):
        return False
    return not any(presidency_open(game, corp, players, means) for corp in in_game if corp.par_price is not None)


def liquid(game: Game1862, player: Player) -> int:
    """The most cash ``player`` can ever hold while no presidency changes: his cash and every certificate he may
    sell (not a president's, not of a company without a par) at today's price, which sales only lower."""
    total = player.cash
    for share in player.shares:
        corp = game.corporations[share.corp]
        if not share.president and corp.par_price is not None and not corp.closed:
            total += cert_price(game, corp, share)
    return total


def cheapest_offering(game: Game1862, in_game: list[Corporation]) -> int | None:
    """The least a certificate of the initial offering can cost: at its par, or for a company without a par its
    president's certificate at the lowest par (None when nothing is left in any initial offering)."""
    lowest_par = min(cell.price for cell in game.market.par_cells())
    costs: list[int] = []
    for corp in in_game:
        if corp.par_price is not None:
            costs.extend(rules.cert_value(corp.par_price, s.percent) for s in corp.shares)
        else:
            costs.extend(rules.cert_value(lowest_par, s.percent) for s in corp.shares if s.president)
    return min(costs, default=None)


def presidency_open(game: Game1862, corp: Corporation, players: list[Player], means: dict[int, int]) -> bool:
    """Whether another player could come to hold more of ``corp`` than its president's certificate, so that the
    presidency could pass and that certificate become sellable: every 10% costs at least the lowest price the
    company's marker can fall to."""
    president = corp.owner
    held = max((s.percent for s in president.shares_of(corp.sym) if s.president), default=0) \
        if isinstance(president, Player) else 0
    floor = max(lowest_price(game, game.market.location[corp.sym]), 1)
    return any(means[p.id] * 10 // floor > held for p in players if p is not president)


def lowest_price(game: Game1862, cell: Cell) -> int:
    """The price of the cell sales would at most take a marker to: down its column to the foot or a ledge."""
    market = game.market
    while cell.coords not in market.ledges:
        below = market.at(cell.row + 1, cell.col)
        if below is None:
            break
        cell = below
    return cell.price
