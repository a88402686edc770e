"""1822's operating round: its step list, and the steps that differ from the core's.

A minor's first turn may start with buying the next L train; minors lay one tile, majors from phase 3 two yellow
or one upgrade; L trains run from one of the company's stations (plus one town); minors always pay half, majors
choose payout, half or withhold; an L train may be upgraded to a 2 train.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...core.actions import Action, entity_action
from ...core.entities import Company, Corporation, CorporationKind, Player, Train
from ...core.errors import GameError, illegal, malformed
from ...core.game import Game
from ...core.round import OperatingRound, Step
from ...core.routes import Route
from ...core.steps.operating import (
    BuyTrain,
    DiscardTrain,
    Dividend,
    RouteStep,
    TokenStep,
    Track,
    tile_lay_choices,
)
from ...core.steps.stock import HomeToken
from ...core.tiles import TokenKind

# The steps reach the title's rules through ``self.game`` (its G1822); they never import the game module, which
# builds their rounds.


def operating_round(game: Any, number: int) -> OperatingRound:
    return OperatingRound(game, [DiscardTrain1822, PendingToken, FirstTurnHousekeeping, AcquireCompany, SpecialChoose,
                                 SpecialTrack,
                                 Track1822,
                                 DestinationToken, Token1822, Route1822, Dividend1822, BuyTrain1822,
                                 MinorAcquisition, IssueShares], number)


class DiscardTrain1822(DiscardTrain[Any]):
    """A crowded company discards down to its limit, or one of two permanent private trains or two Pullmans."""

    game: Any

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != "discard_train":
            return super().choices(entity, kind)
        return [{**entity_action(entity, "discard_train"), "train": t.id} for t in self.game.discardable_trains(entity)]

    def process_discard_train(self, action: dict[str, Any], entity: Any) -> None:
        train = self.game.all_trains.get(str(action["train"]))
        if train is None or train not in self.game.discardable_trains(entity):
            raise illegal(f"{entity.sym} cannot discard train {action['train']} now")
        self.game.discard_train(entity, train)


def company_choice_actions(game: Any, entity: Any, time: str) -> list[Action]:
    """choose_ability actions of a private (or of the privates of a company) at one step of the turn."""
    comps = [entity] if isinstance(entity, Company) else list(getattr(entity, "companies", []))
    return [{**entity_action(c, "choose_ability"), "choice": k} for c in comps for k in game.company_choices(c, time)]


def channel_station_actions(game: Any, company: Company) -> list[Action]:
    """P5's English Channel stations, in its company's token step or right after its Channel upgrade."""
    return [{**entity_action(company, "place_token"), "city": f"{hx.tile.id}-{node}"}
            for hx, node in game.channel_station_cities(company)]


def _current(step: Step[Any], entity: Any) -> bool:
    return isinstance(entity, Corporation) and entity is step.round.entity()


class PendingToken(HomeToken[Any]):
    """A station waiting for its city (minor 14's home and the station a major gets for it): any city of the
    hex the company has no station in, in a space of its own if the city is full."""
    game: Any  # the G1822 game, whose module imports this one

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != "place_token":
            return super().choices(entity, kind)
        actor, hexes, _token = self.pending()[0]
        out = []
        for hex_id in hexes:
            hx = self.game.board[hex_id]
            for node, slots in hx.tile.tokens.items():
                if actor.sym not in slots and self.reaches(actor, hx, node):
                    out.append({**entity_action(entity, "place_token"), "city": f"{hx.tile.id}-{node}", "slot": 0})
        return out

    def reaches(self, actor: Corporation, hx: Any, node: int) -> bool:
        """Minor 14's home may go in any city of London; a major's station replacing a minor's must be in a city
        its track reaches (18xx.games)."""
        return actor.sym == "14" or (hx.id, node) in self.game.network(actor).nodes

    def process_place_token(self, action: dict[str, Any], entity: Any) -> None:
        actor, hexes, token = self.pending()[0]
        hx, node = self.game.city_by_id(action["city"])
        if hx.id not in hexes:
            raise illegal(f"{actor.sym}'s token must go in {', '.join(hexes)}")
        slots = hx.tile.tokens[node]
        if actor.sym in slots:
            raise illegal(f"{actor.sym} cannot have two stations in one city")
        if not self.reaches(actor, hx, node):
            raise illegal(f"{actor.sym}'s track does not reach that city of {hx.id}")
        self.game.place_pending_token(actor, token, hx, node)
        self.pending().pop(0)


class FirstTurnHousekeeping(Step[Any]):
    """A minor's first turn: it may buy the next L train before laying track (18xx.games buys the depot's next)."""

    name = "Buy a first L train"
    game: Any

    def actions(self, entity: Any) -> list[str]:
        if not _current(self, entity) or entity.kind is not CorporationKind.MINOR or entity.operated:
            return []
        depot = self.game.available_depot_trains()
        if not depot or depot[0].sym != "L" or entity.cash < depot[0].price:
            return []
        if entity.trains_in_limit() >= self.game.train_limit(entity):
            return []
        return ["buy_train", "pass"]

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != "buy_train":
            return super().choices(entity, kind)
        train = self.game.available_depot_trains()[0]
        return [{**entity_action(entity, "buy_train"), "train": train.id, "price": train.price, "variant": "L"}]

    def process_buy_train(self, action: dict[str, Any], entity: Any) -> None:
        train = self.game.available_depot_trains()[0]
        price = int(action["price"])
        if price != train.price:
            raise illegal(f"the L train costs {self.game.format_money(train.price)}")
        if action.get("variant") not in (None, "L"):
            raise illegal("only an L train may be bought now")
        self.game.buy_train(entity, train, price)
        self.pass_()


class AcquireCompany(Step[Any]):
    """A company may take over privates any player owns, as the private's card allows (its phase and whether
    minors may); the players settle the price among themselves, so the engine moves no money."""

    name = "Acquire private companies"
    game: Any

    def actions(self, entity: Any) -> list[str]:
        if not _current(self, entity) or not self.game.purchasable_companies(entity):
            return []
        return ["acquire_company", "pass"]

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != "acquire_company":
            return super().choices(entity, kind)
        return [{**entity_action(entity, "acquire_company"), "company": c.sym}
                for c in self.game.purchasable_companies(entity)]

    def process_acquire_company(self, action: dict[str, Any], entity: Any) -> None:
        company = self.game.company(action["company"])
        if company not in self.game.purchasable_companies(entity):
            raise illegal(f"{entity.sym} cannot acquire {company.sym} now")
        self.game.acquire_private(entity, company)
        self.game.acquired_this_round.add(company.sym)
        if not self.game.purchasable_companies(entity):
            self.pass_()


class DestinationToken(Step[Any]):
    """A major places its destination station once its home reaches the destination (it may not pass then)."""

    name = "Place the destination token"
    game: Any

    def actions(self, entity: Any) -> list[str]:
        if not _current(self, entity) or entity.kind is not CorporationKind.MAJOR:
            return []
        if self.game.destination_token(entity) is None:
            return []
        return ["hex_token", "pass"]

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind == "hex_token":
            if not self.game.destination_connected(entity):
                return []
            return [{**entity_action(entity, "hex_token"), "hex": entity.data["destination"],
                     "token_type": "destination"}]
        if kind == "pass" and self.game.destination_connected(entity):
            return []
        return super().choices(entity, kind)

    # 18xx.games checks the connection only when a move is made live, never when a game is loaded; recorded
    # games hold placements and passes its live check would judge otherwise, so only the choices offered check it.
    def process_hex_token(self, action: dict[str, Any], entity: Any) -> None:
        if action["hex"] != entity.data["destination"]:
            raise illegal(f"{entity.sym}'s destination is {entity.data['destination']}")
        self.game.place_destination_token(entity)
        self.game.remove_extra_tokens(self.game.board.hexes[entity.data["destination"]])
        self.pass_()


class SpecialTrack(Step[Game]):
    """Privates that lay track for the company that owns them, during its track step (P2, P5, P8, P10, P11, P12,
    P21). P12's extra lays and P21's bridge lays must be made together once begun; P5's English Channel upgrade
    is followed at once by its station there (18xx.games offers no pass)."""

    name = "Lay track for a private"
    game: Any
    blocks = False
    teleported: Company | None = None  # P5, once it has upgraded the English Channel, until its station is placed

    @property
    def company(self) -> Any:
        """The private whose lays must be made together, once begun: until it finishes, the company's turn goes
        no further (nothing after this step is skipped, as in 18xx.games)."""
        return self._company

    @company.setter
    def company(self, value: Any) -> None:
        self._company = value
        self.blocks = value is not None

    def round_setup(self) -> None:
        self.company = None
        self.teleported = None

    def setup(self) -> None:
        self.company = None
        self.teleported = None
        self.laid_extra = False

    def blocking(self) -> bool:
        return self.company is not None or self.station_pending()

    def station_pending(self) -> bool:
        """P5 has upgraded the English Channel and must now place its station there."""
        return self.teleported is not None and self.game.channel_station_power(self.teleported)

    def active_entities(self) -> list[Any]:
        if self.station_pending():
            return [self.teleported]
        return [self.company] if self.company is not None else super().active_entities()

    def actions(self, entity: Any) -> list[str]:
        if self.station_pending():
            return ["place_token"] if entity is self.teleported else []
        if self.company is not None:
            return ["lay_tile", "pass"] if entity is self.company else []
        corp = self.round.entity()
        if not self.game.track_power_usable(entity, corp) or not self.may_begin(entity, corp):
            return []
        if not isinstance(self.round.active_step(), Track1822):
            return []
        return ["lay_tile"]

    def may_begin(self, company: Company, corp: Corporation) -> bool:
        """P21 is used by a company with a station in Hull or Grimsby, before it lays any track this turn; P5 when
        the English Channel is full and can be upgraded."""
        power = self.game.track_power(company)
        if power.get("teleport") and not self.game.teleport_open(company):
            return False
        if power.get("station_in_hexes") and not any(t.used and t.hex in power.get("hexes", ()) for t in corp.tokens):
            return False
        track = next(s for s in self.round.steps if isinstance(s, Track1822))
        return not (power.get("before_own_lay") and track.lays > 0)

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind == "place_token" and self.station_pending():
            return channel_station_actions(self.game, entity)
        if kind != "lay_tile":
            return super().choices(entity, kind)
        corp = entity.owner
        power = self.game.track_power(entity)
        if power.get("teleport"):
            lays = [{**entity_action(entity, "lay_tile"), **lay} for lay in self.game.teleport_lays(entity)]
            return [a for a in lays if self.lay_left(power, a)]
        self.game.laying_private = entity
        try:
            out = tile_lay_choices(self.game, entity, corp, spec=None)
        finally:
            self.game.laying_private = None
        if corp.kind is CorporationKind.MINOR:
            out = [a for a in out if self.game.tile_from_supply(a["tile"]).colour in ("yellow", "green")]
        return [a for a in out if self.game.track_power_allows(entity, corp, power, a) and self.lay_left(power, a)]

    def lay_left(self, power: dict[str, Any], action: dict[str, Any]) -> bool:
        """A private's lay other than P12's takes one of the company's own lays, which must still allow it."""
        if power.get("extra"):
            return True
        track = next(s for s in self.round.steps if isinstance(s, Track1822))
        spec = track.next_lay()
        if spec is None:
            return False
        upgrade = self.game.board[action["hex"]].tile.colour != "white"
        return bool(spec.get("upgrade", True) if upgrade else spec.get("lay", True))

    def process_lay_tile(self, action: dict[str, Any], entity: Any) -> None:
        corp = entity.owner
        if not isinstance(corp, Corporation) or corp is not self.round.entity():
            raise illegal(f"{entity.sym} lays track only in its company's turn")
        power = self.game.track_power(entity)
        if not self.game.track_power_allows(entity, corp, power, action):
            raise illegal(f"{entity.sym} cannot lay that tile there")
        if not self.lay_left(power, action):
            raise illegal(f"{corp.sym} has no tile lay of that kind left for {entity.sym} to use")
        tile = self.game.tile_from_supply(str(action["tile"]))
        upgrade = self.game.board[action["hex"]].tile.colour != "white"
        if corp.kind is CorporationKind.MINOR and tile.colour in ("brown", "gray"):
            raise illegal("a minor cannot upgrade past green")
        self.game.laying_private = entity
        try:
            if power.get("teleport"):
                if int(action.get("rotation", 0)) != 0 or \
                        not any(lay["tile"] == action["tile"] for lay in self.game.teleport_lays(entity)):
                    raise illegal(f"{entity.sym} upgrades the English Channel only to make room for its station, "
                                  f"with tile {' or '.join(power.get('tiles', ()))} at rotation 0")
                self.game.lay_tile(corp, action, check_connection=False)
            elif power.get("free"):
                # A free lay costs nothing at all: terrain nor estuary crossing (18xx.games).
                hx = self.game.board[action["hex"]]
                rot = int(action.get("rotation", 0))
                exits = frozenset((e + rot) % 6 for e in tile.tdef.edges())
                free = self.game.upgrade_cost(corp, hx, tile) + self.game.crossing_estimate(corp, hx, exits)
                self.game.lay_tile(corp, action, extra_cost=-free)
            elif power.get("estuary"):
                self.game.lay_tile(corp, action, extra_cost=-40)  # P10 pays £40 less for the crossing
            else:
                self.game.lay_tile(corp, action)
        finally:
            self.game.laying_private = None
        self.game.use_track_power(entity, corp, upgrade)
        if power.get("extra"):
            # P12's lays come all before or all after the company's own: begun after one own lay, they take the
            # second (18xx.games).
            track = next(s for s in self.round.steps if isinstance(s, Track1822))
            if track.lays == 1:
                track.lays = 2
        else:
            # Every private but P12 lays in place of one of the company's own lays.
            track = next(s for s in self.round.steps if isinstance(s, Track1822))
            track.lays += 1
            track.upgraded = track.upgraded or upgrade
            if track.next_lay() is None and not self.game.track_powers_block(corp):
                track.pass_()
        if power.get("must_lay_together") and self.game.track_power_usable(entity, corp):
            self.company = entity
        else:
            self.company = None
        if power.get("teleport"):
            self.teleported = entity

    def process_place_token(self, action: dict[str, Any], entity: Any) -> None:
        if not self.station_pending() or entity is not self.teleported:
            raise illegal(f"{entity.sym} places a station here only right after upgrading the English Channel")
        hx, node = self.game.city_by_id(action["city"])
        self.game.place_channel_station(entity, hx, node, action.get("slot"))
        self.teleported = None

    def process_pass(self, action: dict[str, Any], entity: Any) -> None:
        if self.company is entity:
            self.game.close_company(entity)
            self.company = None


class Token1822(TokenStep[Any]):
    """Place a station; P5 (LC&DR) and P18 (C&HPR) may instead move tokens between the exchange area and the
    charter (a choose_ability by the private)."""

    game: Any

    def actions(self, entity: Any) -> list[str]:
        if isinstance(entity, Company):
            corp = self.round.entity()
            if entity.owner is not corp:
                return []
            out = ["place_token"] if self.game.channel_station_power(entity) else []
            return out + (["choose_ability"] if self.game.company_choices(entity, "token") else [])
        if not _current(self, entity):
            return []
        out = list(super().actions(entity))
        if not out and self.normal_tokens(entity) and (
                self.game.free_token_hexes(entity) or self.game.p5_holds_token_step(entity)):
            # 18xx.games stops here while a company holds a station power it has not used (SECR's free station,
            # P5's English Channel station), wherever the company can reach.
            out = ["place_token", "pass"]
        # Only an exchange token that P5 or P18 could bring out keeps the step open for a company that could not
        # place a station otherwise (18xx.games).
        swaps = any(c.sym in ("P5", "P18") and not c.closed for c in entity.companies) \
            and self.game.exchange_tokens.get(entity.sym, 0) > 0
        if (out or swaps) and any(self.game.token_choices(c) for c in entity.companies) \
                and "choose_ability" not in out:
            out.append("choose_ability")
        if out and "pass" not in out:
            out.append("pass")
        return out

    def normal_tokens(self, corp: Corporation) -> list[Any]:
        return [t for t in corp.unused_tokens() if t.kind == TokenKind.NORMAL]

    def free_cities(self, corp: Corporation) -> list[tuple[Any, int]]:
        """Cities of the free-station hexes that ``corp`` reaches and may take a station in."""
        token = next(iter(self.normal_tokens(corp)), None)
        if token is None:
            return []
        free = set(self.game.free_token_hexes(corp))
        out = []
        for hex_id, node in sorted(self.game.network(corp).nodes):
            hx = self.game.board.hexes[hex_id]
            if hex_id in free and node in hx.tile.tokens and self.game.can_token_city(corp, hx, node, token):
                out.append((hx, node))
        return out

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind == "choose_ability":
            return company_choice_actions(self.game, entity, "token")
        if isinstance(entity, Company):
            if kind != "place_token":
                return super().choices(entity, kind)
            return channel_station_actions(self.game, entity)
        out = super().choices(entity, kind)
        if kind == "place_token" and isinstance(entity, Corporation):
            out = [a for a in out if self.game.offers_city(entity, *self.game.city_by_id(a["city"]))]
            cities = {a["city"] for a in out}
            out += [{**entity_action(entity, "place_token"), "city": f"{hx.tile.id}-{node}"}
                    for hx, node in self.free_cities(entity) if f"{hx.tile.id}-{node}" not in cities]
        return out

    def process_place_token(self, action: dict[str, Any], entity: Any) -> None:
        hx, node = self.game.city_by_id(action["city"])
        if isinstance(entity, Company):
            # P5's station is an extra action: the company's own station placement is still to come.
            self.game.place_channel_station(entity, hx, node, action.get("slot"))
            return
        if isinstance(entity, Corporation) and action.get("token_type") is None \
                and (hx, node) in self.free_cities(entity):
            token = self.normal_tokens(entity)[0]
            self.game.place_token(entity, token, hx, node, free=True, slot=action.get("slot"))
            self.game.free_tokens_used.add(entity.sym)
            self.pass_()
            return
        super().process_place_token(action, entity)

    def process_choose_ability(self, action: dict[str, Any], entity: Any) -> None:
        if not isinstance(entity, Company):
            raise illegal("a private makes that choice")
        self.game.make_company_choice(entity, str(action["choice"]), "token")


class SpecialChoose(Step[Any]):
    """P8 (E&GR), just acquired, makes its owner choose: a free lay on rough ground (the token), or £20 off
    every hill and mountain for good (the discount)."""

    name = "Choose for a private"
    game: Any

    def company(self, entity: Any) -> Company | None:
        comp = self.game.companies.get("P8")
        if comp is None or comp.closed or comp.owner is not entity or not _current(self, entity):
            return None
        return comp if comp.sym not in self.game.egr_choice and comp.sym in self.game.acquired_this_round else None

    def actions(self, entity: Any) -> list[str]:
        return ["choose"] if self.company(entity) is not None else []

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind == "choose":
            return [{**entity_action(entity, "choose"), "choice": c} for c in ("token", "discount")]
        return super().choices(entity, kind)

    def process_choose(self, action: dict[str, Any], entity: Any) -> None:
        choice = str(action["choice"])
        if choice not in ("token", "discount"):
            raise illegal("choose token or discount")
        self.game.egr_choice["P8"] = choice
        self.game.log(f"{entity.sym} chooses the {choice} of P8")


class Track1822(Track[Any]):
    game: Any

    def actions(self, entity: Any) -> list[str]:
        if isinstance(entity, Company):
            # P18's station swap and P17's card move may also be made during the track step.
            return ["choose_ability"] if (entity.owner is self.round.entity()
                                          and self.game.company_choices(entity, "track")) else []
        if not _current(self, entity):
            return []
        if entity.sym == "14" and not self.game.turns_operated(entity):
            return []  # minor 14's first station in London is its tile lay
        out = super().actions(entity)
        if not out and self.game.track_powers_block(entity):
            return ["pass"]
        return out

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind == "choose_ability":
            return company_choice_actions(self.game, entity, "track")
        return super().choices(entity, kind)

    def process_choose_ability(self, action: dict[str, Any], entity: Any) -> None:
        if not isinstance(entity, Company):
            raise illegal("a private makes that choice")
        self.game.make_company_choice(entity, str(action["choice"]), "track")

    def next_lay(self) -> dict[str, Any] | None:
        corp = self.round.entity()
        lays = self.game.tile_lays_for(corp)
        if self.lays >= len(lays):
            return None
        spec: dict[str, Any] = lays[self.lays]
        if self.upgraded and spec.get("not_if_upgraded"):
            return None
        return spec

    def process_lay_tile(self, action: dict[str, Any], entity: Any) -> None:
        super().process_lay_tile(action, entity)
        if self.next_lay() is None and not self.game.track_powers_block(entity):
            self.pass_()


class Route1822(RouteStep[Any]):
    """Runs routes; L trains run from one station of the company, optionally to a town beside it."""

    game: Any

    def actions(self, entity: Any) -> list[str]:
        if not _current(self, entity) or not self.game.route_trains(entity):
            return []
        if entity.kind is CorporationKind.MINOR and all(t.name == "E" for t in self.game.route_trains(entity)):
            return []  # a minor's E train does not run
        # 18xx.games remembers for good that the company had a route, even once its track no longer joins two
        # stops: it then still runs (nothing). A remembered route needs no walk.
        if entity.sym not in self.game.routes_seen:
            if self.game.network(entity).route_possible:
                self.game.routes_seen.add(entity.sym)
            elif not any(t.name in ("L", "LP") for t in entity.trains):
                return []
        if self.pullman is None and self.pullman_choices(entity) and \
                any(t.name == "P+" for t in entity.trains):
            return ["run_routes", "choose"]
        return ["run_routes"]

    def setup(self) -> None:
        super().setup()
        self.pullman: Train | None = None

    def pullman_choices(self, corp: Corporation) -> list[Train]:
        return [t for t in self.game.route_trains(corp) if t.name not in ("L", "LP", "E")]

    def choice_label(self, entity: Any, action: Action) -> str | None:
        """The Pullman's train, which the option names only by its place in the list."""
        trains = self.pullman_choices(entity)
        index = str(action.get("choice"))
        if not index.isdigit() or int(index) >= len(trains):
            return None
        return f"the Pullman runs with the {trains[int(index)].name} train"

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind == "choose":
            return [{**entity_action(entity, "choose"), "choice": str(i)}
                    for i, _ in enumerate(self.pullman_choices(entity))]
        if kind == "run_routes":
            return [{**entity_action(entity, "run_routes"), "routes": self.game.suggest_routes(entity)}]
        return super().choices(entity, kind)

    def process_choose(self, action: dict[str, Any], entity: Any) -> None:
        options = self.pullman_choices(entity)
        try:
            train = options[int(action["choice"])]
        except (ValueError, IndexError):
            raise illegal(f"choose a train from 0 to {len(options) - 1}") from None
        self.pullman = train
        train.name += "+"
        self.game.log(f"{entity.sym} attaches the pullman to a {train.sym} train")

    def process_run_routes(self, action: dict[str, Any], entity: Any) -> None:
        corp: Corporation = entity
        routes: list[Route] = []
        total = 0
        used: set[str] = set()
        recorded = self.game.recorded_run(action)
        for data in action["routes"]:
            train = self.game.all_trains.get(str(data.get("train")))
            if train is None or train.owner is not corp:
                raise illegal(f"{corp.sym} does not own train {data.get('train')}")
            if train.id in used:
                raise illegal(f"train {train.id} can only run once")
            used.add(train.id)
            try:
                routes.append(self.game.trace_1822_route(corp, train, data))
            except GameError:
                if not recorded:
                    raise
                routes.append(self.game.recorded_route(train, data))
        self.game.add_route_bonuses(corp, routes)
        for route, data in zip(routes, action["routes"], strict=True):
            claimed = data.get("revenue")
            if recorded:
                route.revenue = int(claimed)
            if claimed is not None and int(claimed) != route.revenue:
                money = self.game.format_money
                raise illegal(f"the {route.train.name} train's route earns {money(route.revenue)}, "
                              f"not {money(claimed)}")
            total += route.revenue
        for route in routes:
            route.train.operated = True
        self.round.routes = routes  # type: ignore[attr-defined]
        self.round.revenue = total  # type: ignore[attr-defined]
        self.game.last_routes = [{"train": r.train.id, "hexes": list(r.hexes), "revenue": r.revenue}
                                 for r in routes]
        self.game.log(f"{corp.sym} runs for {self.game.format_money(total)}")
        self.game.routes_run(corp, routes)
        if self.pullman is not None:
            self.pullman.name = self.pullman.name[:-1]
            self.pullman = None
        self.pass_()


class Dividend1822(Dividend[Any]):
    """Majors pay out, half pay or withhold (a permanent train's run may be paid differently, chosen first);
    minors always half pay."""

    game: Any
    KINDS = ("payout", "half", "withhold")

    def setup(self) -> None:
        self.extra_choice: str | None = None

    def actions(self, entity: Any) -> list[str]:
        if not _current(self, entity) or entity.kind is CorporationKind.MINOR:
            return []
        if not getattr(self.round, "routes", None):
            return []
        if self.extra_choice is None and self.extra_route(entity) is not None and len(entity.trains) > 1:
            return ["dividend", "choose"]
        return ["dividend"]

    def extra_route(self, corp: Corporation) -> Any:
        """The permanent train's route when it earned something and not everything."""
        routes = getattr(self.round, "routes", None) or []
        total = sum(r.revenue for r in routes)
        for route in routes:
            if route.train.name in ("2P", "LP") and 0 < route.revenue != total:
                return route
        return None

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind == "choose":
            return [{**entity_action(entity, "choose"), "choice": k} for k in self.KINDS]
        return super().choices(entity, kind)

    def process_choose(self, action: dict[str, Any], entity: Any) -> None:
        if action["choice"] not in self.KINDS:
            raise illegal(f"choose one of {', '.join(self.KINDS)}")
        self.extra_choice = str(action["choice"])

    def process_dividend(self, action: dict[str, Any], entity: Any) -> None:
        kind = action["kind"]
        if kind not in self.KINDS:
            raise malformed(f"dividend must be one of {', '.join(self.KINDS)}, not {kind!r}")
        revenue = int(getattr(self.round, "revenue", 0))
        extra = self.extra_route(entity) if self.extra_choice is not None else None
        subsidy = self.game.mail_subsidy(entity, getattr(self.round, "routes", None) or [])
        self.game.pay_dividend(entity, revenue, kind, extra=(extra.revenue, self.extra_choice) if extra else None,
                               subsidy=subsidy)
        self.game.count_operation(entity)
        self.round.routes = []  # type: ignore[attr-defined]
        self.extra_choice = None
        self.pass_()

    def skip(self) -> None:
        corp = self.round.entity()
        if isinstance(corp, Corporation):
            revenue = int(getattr(self.round, "revenue", 0)) if getattr(self.round, "routes", None) else 0
            kind = "half" if corp.kind is CorporationKind.MINOR and revenue > 0 else "withhold"
            subsidy = self.game.mail_subsidy(corp, getattr(self.round, "routes", None) or [])
            self.game.pay_dividend(corp, revenue, kind, subsidy=subsidy)
            self.game.count_operation(corp)
            self.round.routes = []  # type: ignore[attr-defined]
        self.pass_()


class MinorAcquisition(Step[Game]):
    """A major that has operated twice may take over a connected minor that has too (or, from phase 5, a minor
    still in a bid box for £200): it pays in cash or one or two treasury shares, then chooses what becomes of
    the minor's station."""

    name = "Acquire a minor"
    game: Any
    PAY: ClassVar[dict[str, int]] = {"money": 0, "one_share": 1, "two_shares": 2}

    def setup(self) -> None:
        self.state = "select"
        self.minor: Corporation | None = None
        self.shares = 0

    def blocking(self) -> bool:
        return self.state != "select" or super().blocking()

    def actions(self, entity: Any) -> list[str]:
        if not _current(self, entity):
            return []
        if self.state != "select":
            return ["choose"]
        if entity.kind is not CorporationKind.MAJOR or self.game.turns_operated(entity) < 2:
            return []
        if not self.game.potential_minors(entity):
            return []
        return ["merge", "pass"]

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind == "merge":
            return [{**entity_action(entity, "merge"), "corporation": m.sym}
                    for m in self.game.potential_minors(entity) if self.game.minor_connected(entity, m)]
        if kind == "choose":
            options = self.pay_choices(entity) if self.state == "pay" else self.token_choices(entity)
            return [{**entity_action(entity, "choose"), "choice": c} for c in options]
        return super().choices(entity, kind)

    def choice_label(self, entity: Any, action: Action) -> str | None:
        """How a floated minor's price (twice its share price) is paid: in cash, or with shares of the major and
        the difference in cash one way or the other."""
        minor, choice = self.minor, str(action.get("choice"))
        if self.state == "token" and minor is not None:
            return self.station_label(entity, minor, choice)
        if self.state != "pay" or minor is None or not minor.floated or minor.owner is None or choice not in self.PAY:
            return None
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
        return list(self.game.minor_pay_choices(entity, self.minor))

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
        nodes = self.game.network(major).nodes
        return any((hx.id, n) in nodes and major.sym not in slots for n, slots in hx.tile.tokens.items())

    def process_merge(self, action: dict[str, Any], entity: Any) -> None:
        minor = self.game.corporation(action["corporation"])
        if minor not in self.game.potential_minors(entity):
            raise illegal(f"{entity.sym} cannot acquire {minor.sym}")
        if not self.game.minor_connected(entity, minor):
            raise illegal(f"{entity.sym} cannot acquire {minor.sym}: it is not connected")
        self.minor = minor
        self.state = "pay"

    def process_choose(self, action: dict[str, Any], entity: Any) -> None:
        choice = str(action["choice"])
        if self.state == "pay":
            if choice not in self.pay_choices(entity):
                raise illegal(f"choose one of {', '.join(self.pay_choices(entity))}")
            self.shares = self.PAY[choice]
            self.state = "token"
            return
        if choice not in self.token_choices(entity):
            raise illegal(f"choose one of {', '.join(self.token_choices(entity))}")
        assert self.minor is not None
        self.game.acquire_minor(entity, self.minor, self.shares, choice)
        self.state = "select"
        self.minor = None
        self.pass_()

    def process_pass(self, action: dict[str, Any], entity: Any) -> None:
        if self.state != "select":
            raise illegal("finish the acquisition first")
        self.pass_()


class IssueShares(Step[Any]):
    """A major that has operated twice may issue treasury shares to the market or redeem shares from it."""

    name = "Issue or redeem shares"
    game: Any

    def actions(self, entity: Any) -> list[str]:
        if isinstance(entity, Company):
            corp = self.round.entity()
            return ["choose_ability"] if entity.owner is corp and self.game.company_choices(entity, "issue") else []
        if not _current(self, entity):
            return []
        out = []
        if self.game.redeemable(entity):
            out.append("buy_shares")
        if self.game.issuable(entity):
            out.append("sell_shares")
        if any(c.sym == "P17" for c in entity.companies):
            # 18xx.games stops here for a company that owns P17, even with no card to move.
            out.append("choose_ability")
        return [*out, "pass"] if out else []

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind == "choose_ability":
            # P17 itself acts; its company only waits here.
            return company_choice_actions(self.game, entity, "issue") if isinstance(entity, Company) else []
        if kind == "sell_shares":
            return [{**entity_action(entity, "sell_shares"), "shares": [s.id for s in b], "percent": sum(
                s.percent for s in b), "share_price": price} for b, price in self.game.issuable(entity)]
        if kind == "buy_shares":
            return [{**entity_action(entity, "buy_shares"), "shares": [s.id for s in b],
                     "percent": sum(s.percent for s in b)} for b in self.game.redeemable(entity)]
        return super().choices(entity, kind)

    def process_choose_ability(self, action: dict[str, Any], entity: Any) -> None:
        if not isinstance(entity, Company):
            raise illegal("a private makes that choice")
        self.game.make_company_choice(entity, str(action["choice"]), "issue")

    def process_sell_shares(self, action: dict[str, Any], entity: Any) -> None:
        ids = [str(s) for s in action["shares"]]
        for bundle, price in self.game.issuable(entity):
            if [s.id for s in bundle] == ids or sorted(s.id for s in bundle) == sorted(ids):
                self.game.issue_shares(entity, bundle, price)
                self.pass_()
                return
        raise illegal(f"{entity.sym} cannot issue {', '.join(ids)}")

    def process_buy_shares(self, action: dict[str, Any], entity: Any) -> None:
        ids = sorted(str(s) for s in action["shares"])
        for bundle in self.game.redeemable(entity):
            if sorted(s.id for s in bundle) == ids:
                self.game.redeem_shares(entity, bundle)
                self.pass_()
                return
        raise illegal(f"{entity.sym} cannot redeem {', '.join(ids)}")


class BuyTrain1822(BuyTrain[Any]):
    """Trains from the depot (and from other companies from phase 3); an L train may become a 2 train."""

    game: Any

    def room(self, corp: Corporation) -> bool:
        return corp.trains_in_limit() < int(self.game.train_limit(corp))

    def can_buy(self, corp: Corporation) -> bool:
        if any(t.sym == "L" and t.name == "L" for t in corp.trains) and self.game.l_upgrade_open() \
                and corp.cash >= self.game.l_upgrade_price():
            return True
        return super().can_buy(corp)

    def other_trains(self, corp: Corporation) -> list[Train]:
        # 18xx.games keeps the step open for them even before they may be bought (its cheapest-train check).
        return [t for t in super().other_trains(corp) if self.tradeable(t)]

    def process_sell_shares(self, action: dict[str, Any], entity: Any) -> None:
        super().process_sell_shares(action, entity)
        # 18xx.games sorts the companies still to operate again after an emergency sale moved a price.
        rnd = self.round
        rest = rnd.entities[rnd.entity_index + 1:]
        rnd.entities[rnd.entity_index + 1:] = [c for c in self.game.operating_order() if c in rest]

    def offered_by_reference(self, entity: Any, action: Action) -> bool:
        """Oracle playouts make no emergency sale of half a director's certificate whose holder does not direct
        the company, which 18xx.games settles differently (docs/conformance.md)."""
        return not self.game.splits_anothers_directors_certificate(action)

    def offered_from_pool(self, train: Train) -> bool:
        """Of the discarded trains of one type, 18xx.games sells only the first discarded."""
        if train not in self.game.pool_trains:
            return True
        return next(t for t in self.game.pool_trains if t.name == train.name) is train

    def tradeable(self, train: Train) -> bool:
        """The privates' trains (2P, LP, P+) stay with the company that gained them."""
        return not isinstance(train.owner, Corporation) or train.name not in ("2P", "LP", "P+")

    def choices(self, entity: Any, kind: str) -> list[Action]:
        out = super().choices(entity, kind)
        owner = entity.owner if isinstance(entity, Corporation) else None
        lowest = self.game.min_depot_price()
        if kind == "buy_train" and ("can_buy_trains" not in self.game.phase.get("status", []) or (
                self.last_sale_price is not None and lowest is not None and entity.cash < lowest)):
            # Before phase 3, and once the director has sold shares for a train the company cannot afford, only
            # new trains are offered (18xx.games).
            out = [a for a in out if not isinstance(self.game.all_trains[a["train"]].owner, Corporation)]
        if kind == "buy_train":
            has_e = any(t.name == "E" for t in entity.trains)
            out = [a for a in out if self.tradeable(self.game.all_trains[a["train"]])
                   and self.offered_from_pool(self.game.all_trains[a["train"]])
                   and not (has_e and a.get("variant") == "E")]
        if kind == "buy_train" and not any(not isinstance(self.game.all_trains[a["train"]].owner, Corporation)
                                           for a in out) \
                and self.game.must_buy_train(entity) and isinstance(owner, Player) \
                and not self.game.emergency_bundles(owner, entity):
            # Nothing left to sell: the director borrows for the cheapest train, even where another company's
            # train is offered too (18xx.games lends for the depot's cheapest train whatever else is for sale).
            cheapest = self.game.cheapest_train_on_sale()
            if cheapest is not None:
                out = [{**entity_action(entity, "buy_train"), "train": cheapest.id, "price": cheapest.price}]
        if kind == "buy_train" and self.game.l_upgrade_open():
            price = self.game.l_upgrade_price()
            if price <= entity.cash:
                out += [{**entity_action(entity, "buy_train"), "train": t.id, "price": price, "variant": "2",
                         "exchange": t.id} for t in entity.trains if t.sym == "L" and t.name == "L"]
        return out

    def process_buy_train(self, action: dict[str, Any], entity: Any) -> None:
        exchange = action.get("exchange")
        if exchange:
            train = self.game.all_trains.get(str(exchange))
            if train is None or not isinstance(entity, Corporation) or train.owner is not entity \
                    or train.name != "L" or str(action["train"]) != train.id:
                raise illegal(f"{entity.sym} can only upgrade its own L trains to 2 trains")
            if action.get("variant") != "2":
                raise malformed("an L train is upgraded to a 2 train (variant 2)")
            self.game.upgrade_l_train(entity, train, int(action["price"]))
            if not self.can_buy(entity):
                self.pass_()
            return
        train = self.game.all_trains.get(str(action["train"]))
        if action.get("variant") == "E" and any(t.name == "E" for t in entity.trains):
            raise illegal(f"{entity.sym} can only own one E train")
        if train is not None and not self.offered_from_pool(train):
            raise illegal(f"the first discarded {train.name} train is sold before {train.id}")
        if train is not None and train.owner is not entity and not self.tradeable(train):
            raise illegal(f"a {train.name} train cannot be bought from another company")
        if train is not None and isinstance(train.owner, Corporation) and \
                "can_buy_trains" not in self.game.phase.get("status", []):
            raise illegal(f"trains cannot be bought from other companies in phase {self.game.phase['name']}")
        super().process_buy_train(action, entity)
