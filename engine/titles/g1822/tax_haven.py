"""P16, the tax haven: an off-shore charter that buys one major's share (one a stock round under the variant),
earns its dividends, and is its owner's at the end of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import events as ev
from ...core.entities import Company, Corporation, CorporationKind, Holder, Player, Share, pay
from .market import share_worth
from .optional_rules import tax_haven_multiple

if TYPE_CHECKING:
    from .state import Game1822


TAX_HAVEN = "P16"




def tax_haven_company(game: Game1822) -> Company | None:
    comp = game.companies.get(TAX_HAVEN)
    return comp if comp is not None and not comp.closed else None


def tax_haven_owner(game: Game1822) -> Player | None:
    comp = tax_haven_company(game)
    return comp.owner if comp is not None and isinstance(comp.owner, Player) else None


def tax_haven_value(game: Game1822) -> int:
    """The tax haven's cash and its shares at their price: its owner's at the end of the game."""
    return game.tax_haven.cash + share_worth(game, game.tax_haven.shares)


def company_value(game: Game1822, company: Company) -> int:
    """What a private is worth in the status: P16 is worth what its tax haven holds."""
    return tax_haven_value(game) if company.sym == TAX_HAVEN else int(company.value)


def tax_haven_spender(game: Game1822) -> Holder | None:
    """Who pays for the tax haven's share: its owner; under the variant, the tax haven itself once it holds
    something."""
    owner = tax_haven_owner(game)
    if owner is not None and tax_haven_multiple(game) and tax_haven_value(game) > 0:
        return game.tax_haven
    return owner


def tax_haven_share(game: Game1822, choice: str) -> Share | None:
    """The certificate a choice ``<major>_ipo`` or ``<major>_market`` buys: the first of the company's own or of
    the market's, or None for a choice naming neither."""
    sym, _, source = choice.rpartition("_")
    corp = game.corporations.get(sym)
    if corp is None or corp.kind is not CorporationKind.MAJOR or source not in ("ipo", "market"):
        return None
    holder: Holder = corp if source == "ipo" else game.pool
    return next((s for s in holder.shares_of(sym) if not s.president), None)


def tax_haven_choices(game: Game1822, available: int) -> list[str]:
    """What the tax haven may buy now with ``available`` cash of its spender: one share of a major with a
    price that it holds no share of, from the company or the market, at the share price; under the
    variant one such share a stock round, otherwise one in the game."""
    if tax_haven_owner(game) is None:
        return []
    if tax_haven_value(game) > 0 and not tax_haven_multiple(game):
        return []
    out = []
    for corp in game.corporations.values():
        cell = game.market.location.get(corp.sym)
        if corp.kind is not CorporationKind.MAJOR or corp.closed or cell is None or cell.price <= 0:
            continue
        if game.tax_haven.percent_of(corp.sym) or cell.price > available:
            continue
        for source in ("ipo", "market"):
            if tax_haven_share(game, f"{corp.sym}_{source}") is not None:
                out.append(f"{corp.sym}_{source}")
    return out


def sale_ties_tax_haven_for_presidency(game: Game1822, player: Player, shares: list[Share], percent: int) -> bool:
    """Whether a sale would hand a presidency on while the tax haven ties for the largest holding.

    18xx.games counts the tax haven among the holders a presidency may pass to and then cannot process the
    sale (its seat is nowhere at the table), so the move does not exist there. It can happen only to a
    company whose president's certificate is one share (LNWR)."""
    sym = shares[0].corp
    haven = game.tax_haven.percent_of(sym)
    if not haven or game.corporations[sym].owner is not player:
        return False
    pres = next((s.percent for h in game._holders() for s in h.shares if s.corp == sym and s.president), 0)
    top = max([haven, *(p.percent_of(sym) for p in game.players if p is not player)])
    return haven == top >= pres and player.percent_of(sym) - percent < top


def tax_haven_buy(game: Game1822, choice: str) -> None:
    """The tax haven buys the certificate ``choice`` names: the company is paid for one of its own (even
    fully capitalised, whose float then returns the money), the bank for one from the market. ``choice`` is one of
    the stock step's tax_haven_choices (it refuses any other)."""
    share = tax_haven_share(game, choice)
    spender = tax_haven_spender(game)
    assert share is not None and spender is not None
    corp = game.corporation(share.corp)
    price = game.market.location[corp.sym].price
    receiver: Holder = corp if share.owner is corp else game.bank
    pay(spender, receiver, price, ev.Why.SHARES)
    game.shares.transfer_share(share, game.tax_haven)
    owner = tax_haven_owner(game)
    where = "its treasury" if receiver is corp else "the market"
    payer = "the tax haven" if spender is game.tax_haven else spender.name
    game.log(f"{payer} pays {game.format_money(price)} and the tax haven ({owner.name if owner else ''}) "
             f"gains a share of {corp.sym} from {where}")
    game.shares.check_float(corp)


def tax_haven_payout(game: Game1822, corp: Corporation, per_share: float) -> int:
    """Dividends on the tax haven's shares go onto its charter; returns what it got."""
    count = game.tax_haven.percent_of(corp.sym) // corp.share_percent
    amount = int(count * per_share)
    if amount > 0:
        game.bank.spend(amount, game.tax_haven, ev.Why.DIVIDEND)
        game.log(f"{corp.sym} pays out {game.format_money(amount)} to the tax haven")
    return max(amount, 0)
