"""1830's stock round (18xx.games): a player may buy another player's private, at a price of their own agreeing,
from the second stock round while the phase allows it (phases 2 to 4), as the purchase of the turn; several
brown-zone shares in one turn come from the market only, unless the optional rule multiple_brown_from_ipo."""

from __future__ import annotations

from ...core import events as ev
from ...core.abilities import NoBuy, Shares
from ...core.actions import Action, entity_action, opt_text, share_ids, whole
from ...core.entities import Company, Entity, Player, Share, as_player, pay
from ...core.errors import illegal, insufficient
from ...core.steps.stock import BuySellParShares
from .rules import Rules1830


class BuySellParShares1830(BuySellParShares[Rules1830]):

    def setup(self) -> None:
        super().setup()
        self.bought_from_ipo = False

    def bought(self) -> bool:
        # A private bought from a player is the purchase of the turn too.
        return any(a["type"] in ("buy_shares", "par", "buy_company") for a in self.current)

    # --- brown shares: more than one a turn only from the market
    def can_buy(self, player: Player, share: Share | None) -> bool:
        if (share is not None and self.bought() and not self.game.brown_from_ipo()
                and (share.owner is not self.game.pool or self.bought_from_ipo)):
            return False
        return super().can_buy(player, share)

    def process_buy_shares(self, action: Action, entity: Entity) -> None:
        shares = [self.game.share_by_id(sid) for sid in share_ids(action)]
        from_ipo = any(s.owner is not self.game.pool for s in shares)
        if self.bought() and not self.game.brown_from_ipo() and (from_ipo or self.bought_from_ipo):
            raise illegal(f"{entity.name} has already bought this turn; more brown-zone shares come from the "
                          "market only")
        super().process_buy_shares(action, entity)
        self.bought_from_ipo = self.bought_from_ipo or from_ipo

    # --- privates between players
    def tradeable_companies(self, player: Player) -> list[Company]:
        """The other players' privates ``player`` may buy now (18xx.games: not in the first stock round, only in the
        phases marked ``trade_companies``, one purchase a turn, with some cash)."""
        if self.bought() or player.cash <= 0 or self.game.turn == 1 or not self.game.phase.get("trade_companies"):
            return []
        return [c for c in self.game.companies.values()
                if not c.closed and isinstance(c.owner, Player) and c.owner is not player and not c.abilities_of(NoBuy)]

    def certificates_free(self, company: Company) -> bool:
        """Whether the certificates that come with ``company`` can follow it: 18xx.games hands them to every buyer
        again, from the market, and refuses the purchase while a player holds one (the C&A's PRR share)."""
        return not any(isinstance(self.game.share_by_id(sid).owner, Player)
                       for ability in company.abilities_of(Shares) for sid in ability.certificates)

    def actions(self, entity: Entity) -> list[str]:
        out = super().actions(entity)
        if out == ["sell_shares"] or not isinstance(entity, Player) or entity is not self.round.entity():
            return out
        if self.tradeable_companies(entity):
            at = out.index("sell_shares") if "sell_shares" in out else len(out)
            out.insert(at, "buy_company")
            if "pass" not in out:
                out.append("pass")
        return out

    def offers(self, entity: Entity, kind: str) -> bool:
        # actions(entity) holds ``kind``, asked without listing the rest.
        if not isinstance(entity, Player) or entity is not self.round.entity():
            return False
        if kind == "buy_company" or (kind == "pass" and not self.offered(entity, "pass")):
            return not self.must_sell(entity) and bool(self.tradeable_companies(entity))
        return self.offered(entity, kind)

    def has_any_action(self, player: Player) -> bool:
        return super().has_any_action(player) or bool(self.tradeable_companies(player))

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "buy_company":
            entity = as_player(entity)
            return [{**entity_action(entity, "buy_company"), "company": c.sym, "price": min(c.value, entity.cash)}
                    for c in self.tradeable_companies(entity) if self.certificates_free(c)]
        return super().choices(entity, kind)

    def price_range(self, entity: Entity, action: Action) -> tuple[int, int] | None:
        if action.get("type") == "buy_company":
            return 1, as_player(entity).cash
        return super().price_range(entity, action)

    def process_buy_company(self, action: Action, entity: Entity) -> None:
        entity = as_player(entity)
        company = self.game.companies.get(str(opt_text(action, "company")))
        if company is None or company not in self.tradeable_companies(entity):
            raise illegal(f"{entity.name} cannot buy {opt_text(action, 'company')} now; another player's private is "
                          "bought from the second stock round, in phases 2 to 4, as the one purchase of a turn")
        if not self.certificates_free(company):
            raise illegal(f"{company.sym} cannot change hands while a player holds the certificate that comes with it")
        price = whole(action, "price")
        if price < 1:
            raise illegal("a private is bought for at least $1")
        if price > entity.cash:
            money = self.game.format_money
            raise insufficient(f"{entity.name} has {money(entity.cash)} and cannot pay {money(price)}")
        seller = company.owner
        assert isinstance(seller, Player)
        seller.companies.remove(company)
        company.owner = entity
        entity.companies.append(company)
        pay(entity, seller, price, ev.Why.PRIVATE)
        ev.emit(ev.PrivateMoved(company.sym, seller.party, entity.party, price))
        self.game.log(f"{entity.name} buys {company.sym} from {seller.name} for {self.game.format_money(price)}")
        # 18xx.games hands the buyer the private's certificate again, from the market (the C&A's PRR share):
        # docs/conformance.md.
        for ability in company.abilities_of(Shares):
            for share_id in ability.certificates:
                share = self.game.share_by_id(share_id)
                if share.president:
                    continue
                corp = self.game.corporations[share.corp]
                previous = corp.owner
                self.game.shares.transfer_share(share, entity)
                self.game.log(f"{entity.name} receives a {share.percent}% share of {share.corp} with {company.sym}")
                if corp.ipoed:
                    self.game.check_presidency(corp, previous=previous)
        self.current.append(action)
        self.round.last_to_act = entity
