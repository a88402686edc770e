"""1862's shares (§4.3, §5, §8.3, §10.3): the company groups on sale in turn, certificates of 5% to 30% valued
from the price per 10%, one selling action per company a turn that moves the price one row, the sold-out rise,
the certificate limit by players and companies left, and a player's value."""

from __future__ import annotations

from ...core import events as ev
from ...core.actions import Action
from ...core.entities import Corporation, Entity, Player, Share
from ...core.steps.stock import BuySellParShares
from . import rules
from .bankruptcy import check_price_zero
from .certificates import cert_price, players_in_game
from .private_sale import unsold_privates
from .state import Game1862
from .switches import GROUP2_AFTER_FLOATS


def bankrupt_or_out(entity: Entity) -> bool:
    return isinstance(entity, Player) and entity.bankrupt


def group_open(game: Game1862, group: int) -> bool:
    """Whether a company group is on sale (§5.3); companies out of the game are ignored."""
    if any(c.owner is None and not c.closed for c in game.companies.values()):
        return False
    if group >= 2 and any(c.shares for c in game.groups[1] if not c.closed):
        return False
    if group >= 2 and game.switch(GROUP2_AFTER_FLOATS) and not all(c.floated for c in game.groups[1]
                                                                   if not c.closed):
        return False
    return group < 3 or all(c.floated for c in game.groups[2] if not c.closed)


def sell_shares(game: Game1862, seller: Player, sold: list[Share]) -> int:
    """One selling action: the price moves one row down; a floated company pays the price before the drop,
    an unfloated one the price after it (§4.3, §8.5)."""
    corp = game.corporation(sold[0].corp)
    if not corp.floated:
        game.market.down(corp.sym)
    proceeds = sum(cert_price(game, corp, s) for s in sold)
    previous = corp.owner
    for s in sold:
        game.shares.transfer_share(s, game.pool)
    game.bank.spend(proceeds, seller, ev.Why.SHARE_SALE)
    game.check_presidency(corp, previous, seller)
    if corp.floated:
        game.market.down(corp.sym)
    game.log(f"{seller.name} sells {sum(s.percent for s in sold)}% of {corp.sym} for "
             f"{game.format_money(proceeds)}")
    check_price_zero(game, corp)
    return proceeds


def sold_out_rise(game: Game1862) -> None:
    """A company none of whose certificates is in the initial offering or the pool rises a row (§4.3)."""
    for corp in game.operating_order():
        if not corp.shares and not game.pool.shares_of(corp.sym):
            game.market.up(corp.sym)
            price = game.market.location[corp.sym].price
            game.log(f"{corp.sym} is sold out and rises to {game.format_money(price)}")


def player_value(game: Game1862, player: Player) -> int:
    """Cash and certificates at their price (5% ones rounded up), less debt charged to him; privates $0
    (§10.3). A player bankrupt during play keeps the score fixed when he left (§10.1)."""
    if player.bankrupt and player.id in game.fixed_scores:
        return game.fixed_scores[player.id]
    value = player.cash - player.debt
    for s in player.shares:
        value += cert_price(game, game.corporations[s.corp], s)
    return value


class Shares1862(BuySellParShares[Game1862]):
    """A stock turn: sell any number of shares, then buy one certificate; buying ends the turn (§8.3).

    Each company is sold at most once per turn (one selling action moves the price one row, §4.3); president's
    certificates are never sold (§5.6); a player over the certificate limit must sell first (§8.3).
    """


    def sales_allowed(self) -> bool:
        return True

    def holding_ok(self, player: Player, corp: Corporation, gained: list[Share]) -> bool:
        held = player.percent_of(corp.sym) + sum(s.percent for s in gained)
        return held <= rules.holding_cap(players_in_game(self.game))

    def share_cost(self, share: Share) -> int:
        corp = self.game.corporation(share.corp)
        if share.owner is corp:
            assert corp.par_price is not None
            return rules.cert_value(corp.par_price, share.percent)
        return rules.cert_value(self.game.market.location[corp.sym].price, share.percent)

    def can_buy(self, player: Player, share: Share | None) -> bool:
        if share is not None and share.owner is self.game.corporation(share.corp).treasury:
            return False
        return super().can_buy(player, share)

    def can_sell(self, player: Player, shares: list[Share], percent: int | None = None) -> bool:
        if not self.sales_allowed() or any(s.president for s in shares):
            return False
        if shares[0].corp in self.sold_this_turn():
            return False
        return super().can_sell(player, shares, percent)

    def sold_this_turn(self) -> set[str]:
        return {str(a["shares"][0]).rsplit("_", 1)[0] for a in self.current if a["type"] == "sell_shares"}

    def must_sell(self, player: Player) -> bool:
        return self.game.num_certs(player) > self.game.cert_limit and self.can_sell_any(player)

    def actions(self, entity: Entity) -> list[str]:
        if bankrupt_or_out(entity):
            return []
        return super().actions(entity)

    def blocking(self) -> bool:
        # The same answer as any(self.actions(...)), asked after every action: stop at the first thing the
        # player may do instead of listing them all (13 companies make the full list slow).
        entity = self.round.entity()
        if not isinstance(entity, Player) or bankrupt_or_out(entity):
            return False
        return self.can_buy_any(entity) or self.can_sell_any(entity) or self.can_par_any(entity)

    def process_buy_shares(self, action: Action, entity: Entity) -> None:
        super().process_buy_shares(action, entity)
        self.pass_()

    def process_par(self, action: Action, entity: Entity) -> None:
        super().process_par(action, entity)
        self.pass_()


class InitialShares(Shares1862):
    """The initial stock round once every private is sold: group 1 is on sale, nothing may be sold (S2)."""

    def sales_allowed(self) -> bool:
        return False

    def actions(self, entity: Entity) -> list[str]:
        if unsold_privates(self.game):
            return []
        return super().actions(entity)

    def blocking(self) -> bool:
        return not unsold_privates(self.game) and super().blocking()
