"""1862's companies leaving the game and bankruptcy that continues the game (§4.4, §10.1): a company at a $0
price or of a bankrupt president leaves (trains gone, treasury to the bank, debt cancelled, certificates out of
play, markers blank); a bankrupt player sells what he may, pays what he has and leaves with a fixed score."""

from __future__ import annotations

from ...core import events as ev
from ...core.entities import Corporation, Player, pay
from ...core.tiles import TokenKind
from . import certificates as shares
from . import forced_purchase, privates
from .state import Game1862
from .switches import PRICE_ZERO_MARKERS_REMOVED


def check_price_zero(game: Game1862, corp: Corporation) -> None:
    cell = game.market.location.get(corp.sym)
    if cell is not None and cell.price == 0:
        game.log(f"{corp.sym}'s share price falls to $0: it leaves the game")
        remove_corporation(game, corp, compensate=False, markers_stay=not game.switch(PRICE_ZERO_MARKERS_REMOVED))


def remove_corporation(game: Game1862, corp: Corporation, *, compensate: bool, bankrupt: Player | None = None,
                       markers_stay: bool = True) -> None:
    """A company leaves the game (§4.4, §10.1): trains gone, treasury to the bank, debt cancelled,
    certificates out of play (other holders compensated at the current price after a bankruptcy), markers
    turned blank (or taken off the map: ``markers_stay`` False)."""
    for p in game.players:
        held = p.shares_of(corp.sym)
        if compensate and p is not bankrupt and held:
            amount = sum(shares.cert_price(game, corp, s) for s in held)
            game.bank.spend(amount, p, ev.Why.CLOSING)
            game.log(f"{p.name} is compensated {game.format_money(amount)} for {corp.sym}")
    for holder in (*game.players, game.pool, corp.treasury):
        for s in holder.shares_of(corp.sym):
            game.shares.transfer_share(s, corp)
    for t in list(corp.trains):
        corp.trains.remove(t)
        t.owner = None
        t.rusted = True
        ev.emit(ev.TrainMoved(t.id, t.name, corp.party, ev.NOBODY, ev.TrainHow.LEFT))
    if corp.cash:
        pay(corp, game.bank, corp.cash, ev.Why.CLOSING)
    if corp.debt:
        ev.emit(ev.LoanChanged(corp.party, -corp.debt, "debt"))
    corp.debt = 0
    for hx in game.board.hexes.values():
        for node, slots in hx.tile.tokens.items():
            for i, owner in enumerate(slots):
                if owner == corp.sym and markers_stay:
                    hx.tile.kinds[node][i] = TokenKind.BLOCKING
                elif owner == corp.sym:
                    slots[i] = None
                    hx.tile.kinds[node][i] = TokenKind.NORMAL
                    ev.emit(ev.StationChanged(hx.id, node, i, corp.sym, None))
    corp.closed = True
    game.market.remove(corp.sym)
    game.track.board_changed()
    shares.update_cert_limit(game)
    game.log(f"{corp.sym} is out of the game")
    ev.emit(ev.CompanyClosed(corp.sym, "bankruptcy" if bankrupt is not None else "price"))


def go_bankrupt(game: Game1862, corp: Corporation) -> None:
    """Bankruptcy that continues the game (§10.1)."""
    player = corp.owner
    assert isinstance(player, Player)
    owed = (game.min_depot_price() or 0) - corp.cash
    game.log(f"{player.name} goes bankrupt")
    for sym in sorted({s.corp for s in player.shares if s.corp in game.market.location},
                      key=game.market.order_key):
        while True:
            sales = [(sold, percent) for sold, percent in game.shares.sell_bundles(player, game.corporations[sym])
                     if forced_purchase.bundle_legal(game, player, sold, percent)]
            if not sales:
                break
            sold, percent = max(sales, key=lambda sale: sale[1])
            game.sell_shares(player, sold, percent)
    unpaid = max(0, owed - player.cash)
    pay(player, game.bank, player.cash, ev.Why.BANKRUPTCY)
    player.bankrupt = True
    game.bankruptcies += 1
    for company in list(player.companies):
        if company.sym == "ERIE" and not privates.erie_placed(game):
            privates.place_erie_tile(game)
        game.shares.close_company(company)
    for c in [c for c in game.corporations.values() if c.owner is player and not c.closed]:
        remove_corporation(game, c, compensate=True, bankrupt=player)
    dumped = 0
    for s in list(player.shares):
        owner = game.corporations[s.corp]
        if s.corp in game.market.location and owner.ipoed:
            dumped += shares.cert_price(game, owner, s)
            game.shares.transfer_share(s, game.pool)
        else:
            game.shares.transfer_share(s, owner)
    game.fixed_scores[player.id] = dumped - unpaid
    shares.update_cert_limit(game)
    game.log(f"{player.name} leaves the game with a score of {game.format_money(dumped - unpaid)}")
