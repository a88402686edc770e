"""1828's operating-round steps: track lays by company, privates' lays and station, coal markers, shells."""

from __future__ import annotations

from typing import Any

from ...core.actions import Action, entity_action
from ...core.entities import Company, Corporation, CorporationKind
from ...core.errors import illegal, insufficient
from ...core.round import InterruptStep, Step
from ...core.steps.operating import Track, tile_lay_choices


def _current(step: Step[Any]) -> Any:
    return step.round.entity()


def round_laid(step: Step[Any]) -> list[str]:
    laid: list[str] | None = getattr(step.round, "laid_hexes", None)
    if laid is None:
        laid = []
        step.round.laid_hexes = laid  # type: ignore[attr-defined]
    return laid


class Track1828(Track[Any]):
    """One lay or upgrade (rules 8.1); a system has two; B&M and NYH, and systems holding them, one more yellow
    lay for $40 when nothing was upgraded. A hex laid this turn is not upgraded again. A company owning the
    E&K keeps its track step open for that private's extra lay."""
    game: Any  # the G1828 game, whose module imports this one

    def setup(self) -> None:
        super().setup()
        self.round.laid_hexes = []  # type: ignore[attr-defined]
        self.round.upgraded_track = False  # type: ignore[attr-defined]

    def next_lay(self) -> dict[str, Any] | None:
        corp = _current(self)
        lays = self.game.tile_lays_for(corp)
        if self.lays >= len(lays):
            return None
        spec = dict(lays[self.lays])
        upgraded = bool(getattr(self.round, "upgraded_track", False))
        for key in ("lay", "upgrade"):
            if spec.get(key) == "not_if_upgraded":
                spec[key] = not upgraded
        return spec

    def can_lay(self, entity: Corporation) -> bool:
        # As on 18xx.games, the step also waits while a private with a track-step lay could still be bought.
        if self.game.track_ability_waits(entity) or self.game.track_company_buyable(entity):
            return True
        spec = self.next_lay()
        if spec is None or not (spec.get("lay") or spec.get("upgrade")):
            return False
        return bool(entity.tokens) and entity.cash >= int(spec.get("cost", 0))

    def actions(self, entity: Any) -> list[str]:
        if entity is not _current(self) or not isinstance(entity, Corporation):
            return []
        if not self.game.can_lay_track(entity) and not self.game.track_ability_waits(entity):
            return []
        return ["lay_tile", "pass"] if self.can_lay(entity) else []

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind != "lay_tile":
            return super().choices(entity, kind)
        spec = self.next_lay()
        if spec is None or not (spec.get("lay") or spec.get("upgrade")):
            return []
        laid = round_laid(self)
        return [c for c in tile_lay_choices(self.game, entity, entity, spec=spec)
                if c["hex"] not in laid and self.game.lay_allowed(c["hex"], c["tile"])]

    def process_lay_tile(self, action: dict[str, Any], entity: Any) -> None:
        spec = self.next_lay()
        if spec is None or not (spec.get("lay") or spec.get("upgrade")):
            raise illegal(f"{entity.sym} has no tile lay left this turn")
        tile = self.game.tile_from_supply(str(action["tile"]))
        upgrade = tile.colour != "yellow"
        if upgrade and not spec.get("upgrade"):
            raise illegal("this tile lay cannot be an upgrade")
        if not upgrade and not spec.get("lay"):
            raise illegal("this tile lay cannot be a yellow tile")
        if action["hex"] in round_laid(self):
            raise illegal(f"{action['hex']} already had a tile laid this turn")
        self.game.check_lay_allowed(action["hex"], str(action["tile"]))
        self.game.lay_tile(entity, action, extra_cost=int(spec.get("cost", 0)))
        self.count_lay(entity, action["hex"], upgrade)

    def count_lay(self, corp: Corporation, hex_id: str, upgrade: bool) -> None:
        """A lay in ``hex_id`` takes one of ``corp``'s lays this turn (its own, or a private's that counts as one)."""
        self.lays += 1
        round_laid(self).append(hex_id)
        if upgrade:
            self.round.upgraded_track = True  # type: ignore[attr-defined]
            self.upgraded = True
        if not self.can_lay(corp):
            self.pass_()


class SpecialTrack1828(InterruptStep[Any]):
    """Lays a private gives its owning company (the ``special_lays`` of game.toml): C&StL at Burlington, any time
    in the company's turn; E&K at Adrian & Ann Arbor at once when bought, then one more yellow tile for $20 in
    the track step; D&H in Scranton for $120 as one of the company's own lays or upgrades (then SpecialToken1828
    offers its station)."""
    game: Any  # the G1828 game, whose module imports this one

    name = "Lay track for a private"
    blocks = False

    def round_setup(self) -> None:
        self.round.just_sold_company = None  # type: ignore[attr-defined]

    def lay_for(self, company: Any) -> tuple[int, dict[str, Any]] | None:
        """The lay ``company`` may make now: its index among the private's lays, and the lay."""
        if not isinstance(company, Company) or company.closed:
            return None
        corp = company.owner
        if not isinstance(corp, Corporation) or corp is not _current(self):
            return None
        for index, lay in enumerate(company.data.get("special_lays", ())):
            if self.game.special_lay_used(company, index):
                continue
            when = lay.get("when")
            if when == "sold":
                if getattr(self.round, "just_sold_company", None) is company:
                    return index, lay
            elif when == "turn" or (when == "track" and self.game.in_track_step(self.round, corp)):
                if lay.get("normal") and self.own_lay() is None:
                    continue
                return index, lay
        return None

    def track_step(self) -> Track1828:
        return next(s for s in self.round.steps if isinstance(s, Track1828))

    def own_lay(self) -> dict[str, Any] | None:
        """The company's next lay of its track step, which a ``normal`` private lay (the D&H's) takes: None when it
        has none left."""
        spec = self.track_step().next_lay()
        return spec if spec is not None and (spec.get("lay") or spec.get("upgrade")) else None

    def lay_tiles(self, lay: dict[str, Any], spec: dict[str, Any] | None) -> list[Any]:
        """One tile of each kind ``lay`` may put down: its ``tiles``, or else every tile the phase allows; with
        ``spec`` (the company's own lay it takes), only yellow tiles or only upgrades as that lay allows."""
        supply = list(self.game.tile_supply.values())
        if lay.get("tiles"):
            named = [next((t for t in supply if t.name == name), None) for name in lay["tiles"]]
            tiles = [t for t in named if t is not None]
        else:
            by_name: dict[str, Any] = {}
            for t in supply:
                if t.colour in self.game.phase["tiles"]:
                    by_name.setdefault(t.name, t)
            tiles = list(by_name.values())
        if spec is not None:
            tiles = [t for t in tiles if spec.get("upgrade" if t.colour != "yellow" else "lay")]
        return tiles

    def lay_cost(self, entity: Any, action: Action) -> tuple[int, int, int]:
        """One of this step's lays priced for the query layer: terrain, river crossings and the lay's fee."""
        from ...core.track import crossing_cost
        found = self.lay_for(entity)
        if found is None:
            return 0, 0, 0
        lay = found[1]
        hx = self.game.board.hexes[str(action["hex"])]
        tile = self.game.tile_from_supply(str(action["tile"]))
        free = bool(lay.get("free") or lay.get("teleport"))
        terrain = hx.terrain_cost if hx.tile is hx.original and not free else 0
        exits = frozenset((e + int(action["rotation"])) % 6 for e in tile.tdef.edges())
        spec = self.own_lay() if lay.get("normal") else None
        fee = int(lay.get("cost", 0)) + (int(spec.get("cost", 0)) if spec is not None else 0)
        return terrain, int(crossing_cost(self.game, hx, exits)), fee

    def offered_by_reference(self, entity: Any, action: Action) -> bool:
        found = self.lay_for(entity)
        return found is None or found[1].get("reference", True) is not False

    def blocking(self) -> bool:
        sold = getattr(self.round, "just_sold_company", None)
        return sold is not None and self.lay_for(sold) is not None and self.lay_for(sold)[1].get("when") == "sold"  # type: ignore[index]

    def active_entities(self) -> list[Any]:
        sold = getattr(self.round, "just_sold_company", None)
        if self.blocking():
            return [sold]
        return super().active_entities()

    def actions(self, entity: Any) -> list[str]:
        found = self.lay_for(entity)
        if found is None:
            return []
        if self.blocking() and entity is not self.round.just_sold_company:  # type: ignore[attr-defined]
            return []
        return ["lay_tile"]

    def choices(self, entity: Any, kind: str) -> list[Action]:
        found = self.lay_for(entity)
        if kind != "lay_tile" or found is None:
            return super().choices(entity, kind)
        _, lay = found
        corp: Corporation = entity.owner
        spec = self.own_lay() if lay.get("normal") else None
        if lay.get("when") == "track" and not lay.get("normal") and getattr(self.round, "upgraded_track", False):
            return []
        extra = int(spec.get("cost", 0)) if spec is not None else 0
        out = []
        for hex_id in lay.get("hexes") or sorted(self.game.network(corp).hex_edges):
            hx = self.game.board.hexes[hex_id]
            if self.game.blocked_hex(hx) is not None or hex_id in round_laid(self):
                continue
            for tile in self.lay_tiles(lay, spec):
                for rot in self.game.special_lay_rotations(corp, lay, hx, tile):
                    if self.game.special_lay_cost(lay, hx, tile, rot) + extra > corp.cash:
                        continue
                    out.append({**entity_action(entity, "lay_tile"), "hex": hex_id, "tile": tile.id, "rotation": rot})
        return out

    def process_lay_tile(self, action: dict[str, Any], entity: Any) -> None:
        found = self.lay_for(entity)
        if found is None:
            raise illegal(f"{entity.sym} has no tile lay to make now")
        index, lay = found
        corp: Corporation = entity.owner
        hexes = lay.get("hexes") or []
        if hexes and action["hex"] not in hexes:
            raise illegal(f"{entity.sym} lays tiles only in {', '.join(hexes)}")
        tile = self.game.tile_from_supply(str(action["tile"]))
        if lay.get("tiles") and tile.name not in lay["tiles"]:
            raise illegal(f"{entity.sym} lays only tiles {', '.join(lay['tiles'])}")
        if lay.get("normal"):
            self.own_lay_tile(action, entity, lay, tile)
            return
        if lay.get("when") == "track":
            if getattr(self.round, "upgraded_track", False):
                raise illegal(f"cannot use {entity.sym} after a tile upgrade")
            self.round.upgraded_track = True  # type: ignore[attr-defined]
        cost = int(lay.get("cost", 0))
        if cost > corp.cash:
            raise insufficient(f"{corp.sym} cannot pay {self.game.format_money(cost)} for this lay")
        self.game.special_lay(corp, action, lay, entity)
        self.game.use_special_lay(entity, index)
        round_laid(self).append(action["hex"])
        if lay.get("when") == "sold":
            self.round.just_sold_company = None  # type: ignore[attr-defined]

    def own_lay_tile(self, action: dict[str, Any], entity: Company, lay: dict[str, Any], tile: Any) -> None:
        """A private's lay that is the company's own lay or upgrade of its track step (the D&H's, rules
        13.2.2.4): off its network, for the lay's fee instead of terrain; a station may follow."""
        corp = entity.owner
        spec = self.own_lay()
        assert isinstance(corp, Corporation) and spec is not None  # lay_for found the lay
        upgrade = tile.colour != "yellow"
        if upgrade and not spec.get("upgrade"):
            raise illegal(f"{corp.sym} has no upgrade left this turn, so {entity.sym} may only lay a yellow tile")
        if not upgrade and not spec.get("lay"):
            raise illegal(f"{corp.sym} has no yellow lay left this turn, so {entity.sym} may only upgrade")
        if action["hex"] in round_laid(self):
            raise illegal(f"{action['hex']} already had a tile laid this turn")
        cost = int(lay.get("cost", 0)) + int(spec.get("cost", 0))
        if cost > corp.cash:
            raise insufficient(f"{corp.sym} cannot pay {self.game.format_money(cost)} to use {entity.sym}: "
                               f"treasury {self.game.format_money(corp.cash)}")
        self.game.special_lay(corp, action, {**lay, "cost": cost}, entity)
        self.track_step().count_lay(corp, action["hex"], upgrade)
        if lay.get("station"):
            self.game.lay_station_offer(entity, action["hex"])


class SpecialToken1828(InterruptStep[Any]):
    """A company that buys the C&P places a station in Peterborough for free, or the space gets a blocking
    marker (rules 13.2); after the D&H's lay in Scranton its company may place a station there for free (rules
    13.2.2.4)."""
    game: Any  # the G1828 game, whose module imports this one

    name = "Place a private's station"

    def pending(self) -> Company | None:
        company = getattr(self.round, "just_sold_company", None)
        if isinstance(company, Company) and company.data.get("minor") and self.game.cp_token_pending(company):
            return company
        return self.lay_station_company()

    def lay_station_company(self) -> Company | None:
        corp = _current(self)
        if not isinstance(corp, Corporation):
            return None
        return next((c for c in corp.companies if c.sym in self.game.lay_station_owed), None)

    def token_price(self, entity: Any, action: Action) -> int:
        return 0  # both private stations are free

    def offered_by_reference(self, entity: Any, action: Action) -> bool:
        company = self.lay_station_company()
        lays = company.data.get("special_lays", ()) if company is not None and entity is company else ()
        return all(lay.get("reference", True) is not False for lay in lays if lay.get("station"))

    def blocking(self) -> bool:
        return self.pending() is not None

    def active_entities(self) -> list[Any]:
        company = self.pending()
        return [company] if company is not None else []

    def actions(self, entity: Any) -> list[str]:
        return ["place_token", "pass"] if entity is not None and entity is self.pending() else []

    def choices(self, entity: Any, kind: str) -> list[Action]:
        company = self.lay_station_company()
        if kind == "place_token" and company is not None and entity is company:
            corp = _current(self)
            hex_id = self.game.lay_station_owed[company.sym]
            hx = self.game.board[hex_id]
            return [{**entity_action(company, "place_token"), "city": f"{hx.tile.id}-{node}",
                     "slot": self.game.free_slot(hx, node, corp.sym)}
                    for node in self.game.lay_station_cities(corp, hex_id)]
        if kind == "place_token":
            hx = self.game.board[self.game.cp_hex()]
            return [{**entity_action(entity, "place_token"), "city": f"{hx.tile.id}-{node}", "slot": 0}
                    for node in hx.tile.tdef.cities]
        return super().choices(entity, kind)

    def process_place_token(self, action: dict[str, Any], entity: Any) -> None:
        company = self.lay_station_company()
        if company is not None and entity is company:
            self.game.lay_station_place(company, action)
            return
        self.game.cp_place_token(entity, action)
        self.round.just_sold_company = None  # type: ignore[attr-defined]

    def process_pass(self, action: dict[str, Any], entity: Any) -> None:
        company = self.lay_station_company()
        if company is not None and entity is company:
            self.game.lay_station_pass(company)
            return
        self.game.cp_pass_token(entity)
        self.round.just_sold_company = None  # type: ignore[attr-defined]


class SpecialBuy1828(InterruptStep[Any]):
    """A company connected to the Virginia Coalfields buys one of its coal markers for $120 (rules 16)."""
    game: Any  # the G1828 game, whose module imports this one

    name = "Buy a coal marker"
    blocks = False

    def actions(self, entity: Any) -> list[str]:
        if entity is _current(self) and isinstance(entity, Corporation) and self.game.can_buy_coal_marker(entity):
            return ["special_buy"]
        return []

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind == "special_buy":
            return [{**entity_action(entity, "special_buy"), "description": "Coal Marker",
                     "cost": int(self.game.coal["price"])}]
        return super().choices(entity, kind)

    def process_special_buy(self, action: dict[str, Any], entity: Any) -> None:
        if str(action.get("description")) != "Coal Marker":
            raise illegal(f"there is no {action.get('description')} for sale")
        if not self.game.can_buy_coal_marker(entity):
            raise illegal(f"{entity.sym} must be connected to the Virginia Coalfields, hold no coal marker and "
                          f"have {self.game.format_money(int(self.game.coal['price']))}")
        self.game.buy_coal_marker(entity)


class SwapTrain(Step[Any]):
    """A system moves trains between its two shells, each within the train limit (rules 7.5.4)."""
    game: Any  # the G1828 game, whose module imports this one

    name = "Arrange trains between shells"

    def setup(self) -> None:
        self.round.ignore_train_limit = False  # type: ignore[attr-defined]

    def actions(self, entity: Any) -> list[str]:
        if entity is not _current(self) or not isinstance(entity, Corporation):
            return []
        if entity.kind is not CorporationKind.SYSTEM or not entity.trains:
            return []
        if self.game.shell_over_limit(entity):
            return ["swap_train"]
        return ["swap_train", "pass"]

    def pass_(self) -> None:
        self.round.ignore_train_limit = False  # type: ignore[attr-defined]
        super().pass_()

    def choices(self, entity: Any, kind: str) -> list[Action]:
        if kind == "swap_train":
            return [{**entity_action(entity, "swap_train"), "train": t.id} for t in entity.trains]
        return super().choices(entity, kind)

    def process_swap_train(self, action: dict[str, Any], entity: Any) -> None:
        train = self.game.all_trains.get(str(action["train"]))
        if train is None or train.owner is not entity:
            raise illegal(f"{entity.sym} does not own train {action['train']}")
        self.game.swap_train(entity, train)
        self.round.ignore_train_limit = True  # type: ignore[attr-defined]
