"""Privates that move cards and tokens: P5 and P18 move exchange tokens, P17 moves a card of the bank's stacks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.entities import Company, Corporation
from ...core.errors import illegal
from .bidboxes import bank_companies, bidbox_concessions, bidbox_minors, bidbox_privates
from .stations import move_exchange_token

if TYPE_CHECKING:
    from .state import Game1822


def token_choices(game: Game1822, company: Company) -> list[str]:
    """P5 moves an exchange token to the charter; P18 moves one either way (each then closes)."""
    corp = company.owner
    if company.closed or not isinstance(corp, Corporation):
        return []
    left = game.exchange_tokens.get(corp.sym, 0)
    if company.sym == "P5":
        return ["exchange"] if left > 0 else []
    if company.sym == "P18":
        out = ["exchange"] if left > 0 else []
        if corp.unused_tokens() and left < int(game.rules["exchange_tokens"].get(corp.sym, 0)):
            out.append("available")
        return out
    return []


def make_token_choice(game: Game1822, company: Company, choice: str) -> None:
    corp = company.owner
    assert isinstance(corp, Corporation)
    if choice == "exchange":
        move_exchange_token(game, corp)
        game.log(f"{corp.sym} moves an exchange token to its available tokens")
    else:
        token = corp.unused_tokens()[0]
        corp.tokens.remove(token)
        game.exchange_tokens[corp.sym] = game.exchange_tokens.get(corp.sym, 0) + 1
        game.log(f"{corp.sym} moves an available token to its exchange tokens")
    game.shares.close_company(company)


def company_choices(game: Game1822, company: Company, time: str) -> list[str]:
    """The choose_ability choices of a private at a step of its company's turn (``token``, ``track`` or
    ``issue``): P5's and P18's token moves, P17's card moves."""
    if company.sym == "P17":
        return move_card_choices(game, company)
    if (company.sym == "P18" and time in ("token", "track")) or (company.sym == "P5" and time == "token"):
        return token_choices(game, company)
    return []


def make_company_choice(game: Game1822, company: Company, choice: str, time: str) -> None:
    if choice not in company_choices(game, company, time):
        raise illegal("that choice is not available now")
    if company.sym == "P17":
        move_card(game, company, choice)
    else:
        make_token_choice(game, company, choice)


def move_card_choices(game: Game1822, company: Company) -> list[str]:
    """P17 moves a minor, concession or private of the bank's stacks (not one in a bid box) to the top of
    its stack, under the bid boxes, or to the bottom: choices ``<sym>_top`` and ``<sym>_bottom``."""
    if company.sym != "P17" or company.closed or not isinstance(company.owner, Corporation):
        return []
    out = []
    for prefix, boxed in (("M", bidbox_minors(game)), ("C", bidbox_concessions(game)),
                          ("P", bidbox_privates(game))):
        for comp in bank_companies(game, prefix):
            if comp not in boxed:
                out += [f"{comp.sym}_top", f"{comp.sym}_bottom"] if boxed else [f"{comp.sym}_bottom"]
    return out


def move_card(game: Game1822, company: Company, choice: str) -> None:
    """P17's move ``choice``, one of move_card_choices (make_company_choice checks it)."""
    sym, where = choice.rsplit("_", 1)
    moved = game.companies[sym]
    order = [c for c in game.companies.values() if c is not moved]
    if where == "top":
        boxed = {"M": bidbox_minors, "C": bidbox_concessions}.get(sym[0], bidbox_privates)(game)
        order.insert(order.index(boxed[-1]) + 1, moved)
    else:
        order.append(moved)
    game.companies = {c.sym: c for c in order}
    game.log(f"{game.describe(company.owner)} moves {moved.name} to the {where} of its stack")
    game.shares.close_company(company)
