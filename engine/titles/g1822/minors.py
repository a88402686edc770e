"""A minor won in a bid box: its par from the winning bid and the money it starts with.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import events as ev
from ...core.entities import Company, Player, pay
from ...core.market import Cell

if TYPE_CHECKING:
    from .state import Game1822


def minor_par_cell(game: Game1822, price: int) -> Cell:
    pars = sorted(game.market.par_cells(), key=lambda c: (c.price, c.col, c.row), reverse=True)
    top = pars[0].price
    target = int(game.bidding["minor_start_par"]) if game.phase["name"] == "1" else price // 2
    target = min(target, top)
    return next(c for c in pars if c.price <= target)


def float_minor(game: Game1822, comp: Company, player: Player, price: int) -> None:
    minor = game.corporations[comp.sym[1:]]
    cell = minor_par_cell(game, price)
    game.shares.set_par(minor, cell)
    presidency = cell.price * 2
    share = minor.shares[0]
    game.shares.transfer_share(share, player)
    minor.owner = player
    pay(player, game.bank, price, ev.Why.AUCTION)
    treasury = presidency if int(game.phase["name"]) < 3 else price
    game.bank.spend(treasury, minor, ev.Why.CAPITAL)
    minor.floated = True
    ev.emit(ev.CompanyFloated(minor.sym))
    del game.companies[comp.sym]
    comp.owner = None
    game.log(f"{player.name} wins minor {minor.sym} for {game.format_money(price)}; it floats at "
             f"{game.format_money(cell.price)} with {game.format_money(treasury)}")
    ev.emit(ev.AuctionWon(comp.sym, player.party, price))
