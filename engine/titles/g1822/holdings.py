"""What players hold and are worth: certificate counts, share values, selling, the presidency's handover and
which emergency sales are allowed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.actions import Action, opt_whole, whole
from ...core.entities import Corporation, CorporationKind, Player, Share
from ...core.game import Game
from .market import share_worth
from .tax_haven import TAX_HAVEN, sale_ties_tax_haven_for_presidency, tax_haven_owner, tax_haven_value
from .turn_order import turns_operated

if TYPE_CHECKING:
    from .state import Game1822


def num_certs(game: Game1822, player: Player) -> float:
    total = Game.num_certs(game, player)
    if any(c.sym == TAX_HAVEN for c in player.companies):
        total -= 1  # P16 does not count against the certificate limit
    return total


def player_value(game: Game1822, player: Player) -> int:
    """Cash less loans, shares at their price, concessions, and for P16's owner what the tax haven holds."""
    value = player.cash - player.debt + share_worth(game, player.shares)
    value += sum(c.value for c in player.companies if not c.closed and c.sym[0] == "C")
    if tax_haven_owner(game) is player:
        value += tax_haven_value(game)
    return value


def private_worth(game: Game1822, player: Player) -> int:
    """Only concessions count at their value (the tax haven's certificates count as shares)."""
    return sum(c.value for c in player.companies if not c.closed and c.sym[0] == "C")


def sell_shares(game: Game1822, seller: Player, shares: list[Share], percent: int | None = None) -> int:
    game.selling = {s.id for s in shares}  # which certificates the presidency check sees changing hands
    try:
        return int(Game.sell_shares(game, seller, shares, percent))
    finally:
        game.selling = set()


def check_presidency(game: Game1822, corp: Corporation, previous: Player | None, seller: Player | None = None) -> None:
    """As the core, with 18xx.games' handover: the presidency passes to the largest holder (the first after
    the president among equals) who holds at least the president's certificate's percent, and the
    certificate changes hands only when it was just sold or the outgoing president holds it. A seller who
    still holds the most (shares can change hands without a presidency check, as in a minor's acquisition)
    becomes president without it, as does anybody while it sits elsewhere (a company that redeemed it)."""
    pres = next((s for h in game._holders() for s in h.shares if s.corp == corp.sym and s.president), None)
    if pres is None or previous is None or previous not in game.players:
        Game.check_presidency(game, corp, previous, seller)
        return
    holdings = {p: p.percent_of(corp.sym) for p in game.players}
    top = max(holdings.values())
    if holdings[previous] == top or top < pres.percent:
        return
    start = game.players.index(previous) + 1
    new = next(p for p in game.players[start:] + game.players[:start] if holdings[p] == top)
    if new is seller or (pres.id not in game.selling and pres.owner is not previous):
        corp.owner = new
        game.log(f"{new.name} becomes the president of {corp.sym}")
        return
    Game.check_presidency(game, corp, previous, seller if seller is previous else None)


def splits_anothers_directors_certificate(game: Game1822, action: Action) -> bool:
    """Whether ``action`` sells part of a director's certificate its seller holds without directing the
    company. 18xx.games leaves a certificate so (above: a seller who stays the largest holder after a
    minor's owner was paid in shares becomes director without it); selling half of it, 18xx.games moves the
    whole certificate to the market and pays for one share, where we give the other share back from the
    market as for any director's certificate sold in part (docs/conformance.md)."""
    if action.get("type") != "sell_shares":
        return False
    shares = [game.share_by_id(str(i)) for i in action.get("shares") or []]
    pres = next((s for s in shares if s.president), None)
    if pres is None or opt_whole(action, "percent") is None:
        return False
    corp = game.corporation(pres.corp)
    return pres.owner is not corp.owner and whole(action, "percent") < sum(s.percent for s in shares)


def emergency_bundle_legal(game: Game1822, player: Player, corp: Corporation, shares: list[Share],
                           percent: int) -> bool:
    # Shares of a major are sold once it has operated; the company whose train is being bought must have
    # finished an operating turn before this one (18xx.games' full_or_turn).
    target = game.corporations.get(shares[0].corp) if shares else None
    if target is None or target.kind is not CorporationKind.MAJOR:
        return False
    if turns_operated(game, target) < (2 if target is corp else 1):
        return False
    if sale_ties_tax_haven_for_presidency(game, player, shares, percent):
        return False
    return Game.emergency_bundle_legal(game, player, corp, shares, percent)
