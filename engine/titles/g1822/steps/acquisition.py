"""A major acquiring a private from a player, and a minor (its payment and its station).
"""

from __future__ import annotations

from typing import ClassVar

from ....core.actions import Action, entity_action, opt_text, text
from ....core.entities import Corporation, CorporationKind, Entity, as_corporation
from ....core.errors import illegal
from ....core.round import Step
from ..acquisition import acquire_minor, minor_connected, minor_pay_choices, potential_minors
from ..bidboxes import bidbox_minors
from ..privates import acquire_private, purchasable_companies
from ..state import Game1822, phase_status
from ..turn_order import turns_operated
from .common import in_turn


class AcquireCompany(Step[Game1822]):
    """A company may take over privates any player owns, as the private's card allows (its phase and whether
    minors may); the players settle the price among themselves, so the engine moves no money."""

    name = "Acquire private companies"

    def actions(self, entity: Entity) -> list[str]:
        if not in_turn(entity, self) or not purchasable_companies(self.game, entity):
            return []
        return ["acquire_company", "pass"]

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "acquire_company":
            return super().choices(entity, kind)
        return [{**entity_action(entity, "acquire_company"), "company": c.sym}
                for c in purchasable_companies(self.game, as_corporation(entity))]

    def process_acquire_company(self, action: Action, entity: Corporation) -> None:
        company = self.game.company(text(action, "company"))
        if company not in purchasable_companies(self.game, entity):
            raise illegal(f"{entity.sym} cannot acquire {company.sym} now")
        acquire_private(self.game, entity, company)
        self.game.acquired_this_round.add(company.sym)
        if not purchasable_companies(self.game, entity):
            self.pass_()


class MinorAcquisition(Step[Game1822]):
    """A major that has operated twice may take over a connected minor that has too (or, from phase 5, a minor
    still in a bid box for £200): it pays in cash or one or two treasury shares, then chooses what becomes of
    the minor's station."""

    name = "Acquire a minor"
    PAY: ClassVar[dict[str, int]] = {"money": 0, "one_share": 1, "two_shares": 2}

    def setup(self) -> None:
        self.state = "select"
        self.minor: Corporation | None = None
        self.shares = 0

    def blocking(self) -> bool:
        return self.state != "select" or super().blocking()

    def actions(self, entity: Entity) -> list[str]:
        if not in_turn(entity, self):
            return []
        if self.state != "select":
            return ["choose"]
        if entity.kind is not CorporationKind.MAJOR or turns_operated(self.game, entity) < 2:
            return []
        if not potential_minors(self.game, entity):
            return []
        return ["merge", "pass"]

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind == "merge":
            major = as_corporation(entity)  # the major in turn (actions)
            return [{**entity_action(major, "merge"), "corporation": m.sym}
                    for m in potential_minors(self.game, major) if minor_connected(self.game, major, m)]
        if kind == "choose":
            buyer = as_corporation(entity)
            options = self.pay_choices(buyer) if self.state == "pay" else self.token_choices(buyer)
            return [{**entity_action(buyer, "choose"), "choice": c} for c in options]
        return super().choices(entity, kind)

    def choice_label(self, entity: Entity, action: Action) -> str | None:
        """How a floated minor's price (twice its share price) is paid: in cash, or with shares of the major and
        the difference in cash one way or the other."""
        minor, choice = self.minor, str(opt_text(action, "choice"))
        if self.state == "token" and minor is not None:
            return self.station_label(as_corporation(entity), minor, choice)
        if self.state != "pay" or minor is None or not minor.floated or minor.owner is None or choice not in self.PAY:
            return None
        entity = as_corporation(entity)  # the major acquiring
        money = self.game.format_money
        owner = minor.owner.name
        worth = self.game.market.location[minor.sym].price * 2
        shares = self.PAY[choice]
        if shares == 0:
            return f"{entity.sym} pays {owner} {money(worth)}"
        diff = worth - self.game.market.location[entity.sym].price * shares
        what = f"{owner} gets {'one' if shares == 1 else 'two'} {entity.sym} share{'s' if shares > 1 else ''}"
        if diff > 0:
            return f"{what} and {money(diff)} from {entity.sym}"
        if diff < 0:
            return f"{what} and pays {entity.sym} {money(-diff)}"
        return what

    def station_label(self, major: Corporation, minor: Corporation, choice: str) -> str | None:
        """What becomes of the minor's station (``acquire_minor``): taken over by the major, or gone from the map
        with a station added to the major's charter."""
        token = minor.tokens[0] if minor.tokens else None
        where = f" in {token.hex}" if token is not None and token.used and token.hex else ""
        hx = self.game.board.hexes[token.hex] if token is not None and token.used and token.hex else None
        spare = f"{major.sym} gains a station to place later"
        if hx is None:  # a minor from a bid box: no station on the map yet
            if choice == "replace":
                return f"{major.sym} places a station where {minor.sym}'s home would be"
            return spare if choice == "exchange" else None
        if choice == "replace":
            if hx.tile.holds_station(token.node, major.sym):  # type: ignore[union-attr]
                return f"{minor.sym}'s station{where} leaves ({major.sym} is there already); {spare}"
            return f"{major.sym}'s station takes the place of {minor.sym}'s{where}"
        if choice == "exchange":
            return f"{minor.sym}'s station{where} leaves the map; {spare}"
        if choice == "remove":
            return f"{minor.sym}'s station{where} leaves the map"
        return None

    def pay_choices(self, entity: Corporation) -> list[str]:
        assert self.minor is not None
        return list(minor_pay_choices(self.game, entity, self.minor))

    def token_choices(self, entity: Corporation) -> list[str]:
        if self.game.exchange_tokens.get(entity.sym, 0) <= 0:
            return ["remove"]
        minor = self.minor
        if minor is not None and minor.sym == "14" and not minor.floated and not self.london_station_open(entity):
            return ["exchange"]
        return ["replace", "exchange"]

    def london_station_open(self, major: Corporation) -> bool:
        """Whether the major could place the London station minor 14 from a bid box leaves it: in a city its track
        reaches, for £20 after the minor's price. 18xx.games takes the choice either way and then waits for a
        station that can never be placed."""
        rules = self.game.rules
        cash_after = major.cash - int(self.game.bidding["minor_box_price"])
        return self.london_city_free(major) and cash_after >= int(rules["minor_14_station_price"])

    def london_city_free(self, major: Corporation) -> bool:
        hx = self.game.board[self.game.rules["london"]]
        nodes = self.game.track.network(major).nodes
        return any((hx.id, n) in nodes and major.sym not in slots for n, slots in hx.tile.tokens.items())

    def process_merge(self, action: Action, entity: Corporation) -> None:
        minor = self.game.corporation(text(action, "corporation"))
        if minor not in potential_minors(self.game, entity):
            raise illegal(f"{entity.sym} cannot acquire {minor.sym}: {self.not_acquirable(entity, minor)}")
        if not minor_connected(self.game, entity, minor):
            raise illegal(f"{entity.sym} cannot acquire {minor.sym}: it is not connected")
        self.minor = minor
        self.state = "pay"

    def not_acquirable(self, major: Corporation, minor: Corporation) -> str:
        """Why ``minor`` is not one ``major`` may acquire now, for the refusal."""
        if minor.kind is not CorporationKind.MINOR:
            return f"{minor.sym} is not a minor company"
        if minor.closed:
            return f"{minor.sym} has closed"
        if not minor.floated:
            if minor.sym not in {c.sym[1:] for c in bidbox_minors(self.game)}:
                return f"{minor.sym} has not started and is not in a bid box"
            if "can_acquire_minor_bidbox" not in phase_status(self.game):
                return f"{minor.sym} is still in a bid box, which majors may buy from only in a later phase"
            price = self.game.format_money(self.game.bidding["minor_box_price"])
            return f"{minor.sym} is still in a bid box and costs {price}; {major.sym} has " \
                   f"{self.game.format_money(major.cash)}"
        if turns_operated(self.game, minor) < 2:
            return f"{minor.sym} has not operated twice yet"
        return f"{major.sym} can pay for it neither in money nor with its treasury shares"

    def process_choose(self, action: Action, entity: Corporation) -> None:
        choice = text(action, "choice")
        if self.state == "pay":
            if choice not in self.pay_choices(entity):
                raise illegal(f"choose one of {', '.join(self.pay_choices(entity))}")
            self.shares = self.PAY[choice]
            self.state = "token"
            return
        if choice not in self.token_choices(entity):
            raise illegal(f"choose one of {', '.join(self.token_choices(entity))}")
        assert self.minor is not None
        acquire_minor(self.game, entity, self.minor, self.shares, choice)
        self.state = "select"
        self.minor = None
        self.pass_()
