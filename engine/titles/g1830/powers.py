"""The steps that carry out 1830's private powers (their records: abilities.py; their data: game.toml).

- the C&StL (``extra_lay``): once, at any time in its owning corporation's turn, a town tile in Burlington, off
  the corporation's network and beyond its own lay;
- the D&H (``teleport``): while its owning corporation is in its track step, tile 57 in empty Scranton as its lay
  of the turn, off its network, paying the mountain; then a station there for nothing, or a pass;
- the M&H (``share_exchange``): its player owner exchanges it for an NYC share from the IPO or the market, at any
  time of a stock or operating round (18xx.games: between other players' turns too), which closes it.
"""

from __future__ import annotations

from typing import Any

from ...core.actions import Action, entity_action, opt_whole, share_ids, text
from ...core.entities import Company, Corporation, Entity, Player, Share, as_company, as_corporation, sym_of
from ...core.errors import illegal
from ...core.round import InterruptStep
from ...core.steps.operating import TokenStep, Track
from .abilities import ExtraLay, ShareExchange, Teleport
from .rules import Rules1830


def _operating_owner(step: InterruptStep[Any], company: Entity) -> Corporation | None:
    """The corporation owning ``company`` when it is the one operating now."""
    if not isinstance(company, Company) or company.closed or step.round.kind != "operating":
        return None
    corp = company.owner
    if not isinstance(corp, Corporation) or corp is not step.round.entity():
        return None
    return corp


class SpecialTrack1830(InterruptStep[Rules1830]):
    """The C&StL's extra lay and the D&H's lay in Scranton, made by the private for its owning corporation."""

    name = "Lay track for a private"
    blocks = False

    def _track(self) -> Track[Any] | None:
        return next((s for s in self.round.steps if isinstance(s, Track)), None)

    def power(self, company: Entity) -> ExtraLay | Teleport | None:
        corp = _operating_owner(self, company)
        if corp is None or not isinstance(company, Company):
            return None
        lays: list[ExtraLay] = company.active(ExtraLay)
        if lays:
            return lays[0]
        for teleport in company.active(Teleport):
            # As the corporation's own lay: only while its track step is open with a yellow lay left.
            track = self._track()
            if track is None or not track.active() or self.round.active_step() is not track:
                return None
            spec = track.next_lay()
            return teleport if spec is not None and spec.get("lay", True) else None
        return None

    def actions(self, entity: Entity) -> list[str]:
        return ["lay_tile"] if self.power(entity) is not None else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        power = self.power(entity)
        if kind != "lay_tile" or power is None:
            return super().choices(entity, kind)
        corp = as_corporation(as_company(entity).owner)
        out: list[Action] = []
        for hex_id in power.hexes:
            hx = self.game.board.hexes[hex_id]
            for name in power.tiles:
                tile = next((t for t in self.game.tile_supply.values() if t.name == name), None)
                if tile is None or tile.colour not in self.game.phase["tiles"]:
                    continue
                terrain = self.game.upgrade_cost(corp, hx, tile)
                for rot in self.game.tile_rotations(corp, hx, tile.tdef, None):
                    exits = frozenset((e + rot) % 6 for e in tile.tdef.edges())
                    if terrain + self.game.crossing_estimate(corp, hx, exits) > corp.cash:
                        continue
                    out.append({**entity_action(entity, "lay_tile"), "hex": hex_id, "tile": tile.id, "rotation": rot})
        return out

    def process_lay_tile(self, action: Action, entity: Entity) -> None:
        power = self.power(entity)
        assert power is not None
        entity = as_company(entity)
        corp = as_corporation(entity.owner)
        tile = self.game.track.tile_from_supply(text(action, "tile"))
        if text(action, "hex") not in power.hexes or tile.name not in power.tiles:
            raise illegal(f"{entity.sym} lays tile {' or '.join(power.tiles)} in {' or '.join(power.hexes)}")
        if isinstance(power, Teleport) and self.game.board[text(action, "hex")].tile is not self.game.board[
                text(action, "hex")].original:
            raise illegal(f"{entity.sym}'s lay needs {text(action, 'hex')} empty")
        self.game.track.lay_tile(corp, action, check_connection=False)
        power.use()
        if isinstance(power, Teleport):
            track = self._track()
            assert track is not None
            track.lays += 1  # the corporation's lay of the turn
            if corp.unused_tokens():
                self.game.teleported = (entity, text(action, "hex"))


class SpecialToken1830(InterruptStep[Rules1830]):
    """After the D&H's lay, its corporation may place a station in Scranton at no cost, off its network, as its
    station of the turn; or pass."""

    name = "Place a station for a private"

    def pending(self) -> tuple[Company, str] | None:
        got: tuple[Company, str] | None = getattr(self.game, "teleported", None)
        return got

    def blocking(self) -> bool:
        return self.pending() is not None

    def active_entities(self) -> list[Any]:
        got = self.pending()
        return [got[0]] if got is not None else []

    def actions(self, entity: Entity) -> list[str]:
        got = self.pending()
        return ["place_token", "pass"] if got is not None and entity is got[0] else []

    def _corporation(self) -> Corporation:
        got = self.pending()
        assert got is not None and isinstance(got[0].owner, Corporation)
        return got[0].owner

    def _cities(self) -> list[int]:
        got = self.pending()
        assert got is not None
        corp = self._corporation()
        hx = self.game.board[got[1]]
        token = next(iter(corp.unused_tokens()), None)
        return [node for node in hx.tile.tdef.cities if token is not None
                and self.game.can_token_city(corp, hx, node, token)]

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        got = self.pending()
        if kind != "place_token" or got is None:
            return super().choices(entity, kind)
        hx = self.game.board[got[1]]
        return [{**entity_action(entity, "place_token"), "city": f"{hx.tile.id}-{node}"} for node in self._cities()]

    def token_price(self, entity: Entity, action: Action) -> int:
        return 0

    def process_place_token(self, action: Action, entity: Entity) -> None:
        got = self.pending()
        assert got is not None
        corp = self._corporation()
        hx, node = self.game.track.city_by_id(text(action, "city"))
        if hx.id != got[1] or node not in self._cities():
            raise illegal(f"{got[0].sym}'s station goes in {got[1]}")
        self.game.track.place_token(corp, corp.unused_tokens()[0], hx, node, free=True, slot=opt_whole(action, "slot"))
        self.game.teleported = None
        token_step = next((s for s in self.round.steps if isinstance(s, TokenStep)), None)
        if token_step is not None:
            token_step.pass_()  # the station of the turn

    def process_pass(self, action: Action, entity: Entity) -> None:
        got = self.pending()
        assert got is not None
        self.game.log(f"{self.game.describe(got[0].owner)} places no station in {got[1]} with {sym_of(entity)}")
        self.game.teleported = None


class Exchange1830(InterruptStep[Rules1830]):
    """The M&H's owner exchanges it for an NYC share from the IPO or the market."""

    name = "Exchange a private for a share"
    blocks = False

    def offered(self, entity: Entity) -> list[Share]:
        if not isinstance(entity, Company) or entity.closed or not isinstance(entity.owner, Player):
            return []
        out: list[Share] = []
        for power in entity.active(ShareExchange):
            corp = self.game.corporations[power.corporation]
            if corp.closed:
                continue
            ipo = next((s for s in corp.shares if not s.president), None)
            pool = next((s for s in self.game.pool.shares if s.corp == corp.sym), None)
            out += [s for s in (ipo, pool) if s is not None and self.game.exchange_allowed(entity.owner, s)]
        return out

    def actions(self, entity: Entity) -> list[str]:
        return ["buy_shares"] if self.offered(entity) else []

    def choices(self, entity: Entity, kind: str) -> list[Action]:
        if kind != "buy_shares":
            return super().choices(entity, kind)
        return [{**entity_action(entity, "buy_shares"), "shares": [s.id], "percent": s.percent}
                for s in self.offered(entity)]

    def process_buy_shares(self, action: Action, entity: Entity) -> None:
        entity = as_company(entity)
        shares = [self.game.share_by_id(str(sid)) for sid in share_ids(action)]
        if len(shares) != 1 or shares[0] not in self.offered(entity):
            raise illegal(f"{entity.sym} is exchanged for one NYC share from the IPO or the market, by a player "
                          "holding less than 60% of the NYC")
        self.game.exchange_company(entity, shares[0])
