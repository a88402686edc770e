"""1828.Games: the title's hooks over the shared core (rules: /work/shared/rules/1828-rules.md).

Where the rules are silent, 18xx.games' implementation (title ``1828.Games``) decides; departures are listed in
docs/conformance.md.
"""

from __future__ import annotations

import io
import pickle
from typing import Any

from ...core import events as ev
from ...core.autoroute import TrainSpec
from ...core.entities import Company, Corporation, CorporationKind, Holder, Player, Share, Token, Train, pay
from ...core.errors import GameError, illegal
from ...core.game import Game
from ...core.game_end import EndCheck
from ...core.graph import Network, reaches
from ...core.market import Cell
from ...core.round import AuctionRound, OperatingRound, Round
from ...core.routes import Route
from ...core.sequence import STANDARD_PLAN
from ...core.tiles import NODE_BASE, TokenKind
from ...core.transfer import BLOCKING_OWNER
from .auction import CompanyPendingPar1828, TieredAuction
from .market import Market1828
from .merger import Merger
from .shells import Shell

CP = "C&P"


class G1828(Game):
    TITLE = "1828"
    EXPORT_TITLE = "1828.Games"
    DATA_PACKAGE = "engine.titles.g1828"
    # The private auction, then stock rounds and sets of operating rounds in turn (rules 5).
    ROUND_PLAN = STANDARD_PLAN
    # Set on a trial copy only: its merger refuses, as 18xx.games does, to hand out a system share none is left of.
    merger_strict = False

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        g = self.data()["game"]
        self.market: Market1828 = Market1828(g["market"])
        self.coal = dict(g["coal"])
        self.coal_on_fields = int(self.coal["markers"])
        self.shells: dict[str, list[Shell]] = {}  # a system's two shells, each with its own trains
        self._merger_of: tuple[Any, Merger | None] = (None, None)  # (round, its merger step): see merger_step
        self.operated_once: set[str] = set()
        self.last_action_id = 0
        self.special_lays_used: set[tuple[str, int]] = set()
        self.tunnel_coal = True
        self.cp_token_owed: set[str] = set()
        self.lay_station_owed: dict[str, str] = {}  # a private whose lay lets its company station there: hex
        self.tokened_this_round: set[str] = set()
        self.pass_order: list[Player] = []
        self.purple_cleanup_done = False
        self._setup_minor()
        self._remove_extra_privates()
        if len(self.players) < 5:
            six = [t for t in self.depot if t.name == "6"][-1]
            self.depot.remove(six)
            del self.all_trains[six.id]
            self.log("Removing 6 train")
        self.board_changed()  # closes the coalfields to every company without a coal marker

    def _setup_minor(self) -> None:
        """The C&P runs the second 2-train, which never rusts and is never for sale, from its Peterborough
        station (18xx.games' reading of rules 13.2's half of a 2-train route)."""
        minor = self.corporations[CP]
        train = [t for t in self.depot if t.name == "2"][1]
        self.depot.remove(train)
        train.rusts_on = None
        train.owner = minor
        minor.trains.append(train)
        hx = self.board[minor.home or ""]
        self.place_token(minor, minor.tokens[0], hx, hx.tile.tdef.cities[0], free=True)

    def _remove_extra_privates(self) -> None:
        big = [c for c in self.companies.values() if c.value == 250]
        for company in self.rng.shuffled(big)[: 7 - len(self.players)]:
            company.closed = True
            # Say "private" and the price: the public company of the same symbol (MC, NYC, ...) stays in play.
            self.log(f"The ${company.value} private {company.sym} ({company.name}) is removed")

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("_merge_trials", None)  # a cache (finishable_merges): snapshots and trial copies start without it
        return state

    def trial_copy(self) -> G1828:
        """A throw-away copy of the game, to try an action on (Merger.choices) without touching this one."""
        clone = object.__new__(type(self))
        unpickler = pickle.Unpickler(io.BytesIO(self._snapshot()))
        unpickler.persistent_load = lambda pid: clone  # type: ignore[method-assign]
        clone.__dict__.update(unpickler.load())
        return clone

    # ------------------------------------------------------------------ rounds
    def initial_round(self) -> Round:
        return AuctionRound(self, [CompanyPendingPar1828, TieredAuction])

    def stock_round(self) -> Round:
        from .steps import stock_round
        rnd = stock_round(self)
        if self.phase["name"] == "Purple":
            self.remove_unparred_corporations()
        return rnd

    def remove_unparred_corporations(self) -> None:
        """From the first purple stock round, companies never started leave the game and blocking markers take
        their home spaces (rules 7.1, 17.7)."""
        for corp in self.corporations.values():
            if corp.kind is not CorporationKind.MAJOR or corp.ipoed or corp.closed or corp.home is None:
                continue
            hx = self.board[corp.home]
            if corp.home_city is None and len(hx.original.tdef.cities) > 1:
                for node in hx.tile.tdef.cities:
                    self.place_blocking_token(hx.id, node)
            else:
                cities = hx.tile.tdef.cities
                self.place_blocking_token(hx.id, cities[corp.home_city or 0])
            self.log(f"Removing {corp.sym}")
            corp.closed = True

    def operating_round(self, number: int) -> Round:
        from .steps import operating_steps
        self.tokened_this_round = set()
        return OperatingRound(self, operating_steps(), number)

    def start_operating(self, corp: Corporation) -> None:
        if corp.kind is CorporationKind.SYSTEM:
            self.place_system_homes(corp)
            return
        super().start_operating(corp)

    def place_system_homes(self, system: Corporation) -> None:
        """A system whose members never operated places both members' home stations when it first operates."""
        if not system.tokens or system.tokens[0].used:
            return
        for shell in self.shells.get(system.sym, []):
            member = self.corporations[shell.name]
            token = next((t for t in system.tokens if not t.used and t.price == 0
                          and all(p[2] is not t for p in self.pending_tokens)), None)
            if token is None or member.home is None:
                continue
            hx = self.board[member.home]
            cities = hx.tile.tdef.cities
            if len(hx.original.tdef.cities) > 1 and member.home_city is None and hx.tile.tdef.paths:
                self.pending_tokens.append((system, [hx.id], token))
                continue
            node = cities[member.home_city] if member.home_city is not None else cities[0]
            if self.free_slot(hx, node, system.sym) is None:
                continue
            self.place_token(system, token, hx, node, free=True)
        if system.tokens and not system.tokens[0].used:
            system.tokens.sort(key=lambda t: not t.used)

    def unplaced_system_homes(self, hex_id: str) -> list[tuple[Corporation, Corporation]]:
        """(system, member) for each member whose home is ``hex_id`` and which the system has yet to place: the
        member's reservation outlives it until the system first operates (18xx.games keeps it on the city)."""
        out = []
        for system in self.corporations.values():
            if system.kind is not CorporationKind.SYSTEM or system.closed or not system.tokens \
                    or system.tokens[0].used:
                continue
            for shell in self.shells.get(system.sym, []):
                member = self.corporations[shell.name]
                if member.home == hex_id:
                    out.append((system, member))
        return out

    def home_holders(self, hx: Any) -> list[tuple[Corporation, Corporation]]:
        """(holder, company whose home it is) for each home in ``hx`` still to be placed: a company's own, or a
        system's for its member (a system's ``home`` is only its first member's, so systems count by member)."""
        own = [(c, c) for c in self.corporations.values()
               if c.kind is not CorporationKind.SYSTEM and c.home == hx.id and c.tokens and not c.tokens[0].used
               and not c.closed]
        return own + self.unplaced_system_homes(hx.id)

    def reserved_slots(self, hx: Any, node: int) -> dict[int, str]:
        out: dict[int, str] = {}
        cities = hx.tile.tdef.cities
        for holder, member in self.home_holders(hx):
            if self.home_reserved_on_tile(member, hx):
                continue
            if (cities[member.home_city] if member.home_city is not None else cities[0]) != node:
                continue
            free = next((i for i, s in enumerate(hx.tile.tokens[node]) if s is None and i not in out), None)
            if free is not None:
                out[free] = holder.sym
        return out

    def token_blocked_by_reservation(self, hx: Any, corp: str) -> bool:
        """A home held somewhere in a multi-city hex (Dunkirk & Buffalo) closes the whole hex to other companies'
        stations until it is placed, however many spaces are free (18xx.games; the rules are silent)."""
        return any(holder.sym != corp and self.home_reserved_on_tile(member, hx)
                   for holder, member in self.home_holders(hx))

    def reorder_players(self) -> None:
        finished = self.round
        if finished.kind == "auction":
            # The C&P earns its special revenue only during the auction (rules 6.1).
            for company in self.companies.values():
                if company.data.get("minor") and company.owner is not None:
                    company.revenue = 0
        if finished.kind == "stock":
            order = getattr(finished, "pass_order", [])
            if order:
                self.players = [*order, *[p for p in self.players if p not in order]]
                self.log(f"{self.players[0].name} has priority deal")
            return
        super().reorder_players()

    def operating_order(self) -> list[Corporation]:
        minors = [c for c in self.corporations.values()
                  if c.kind is CorporationKind.MINOR and c.floated and not c.closed]
        majors = [c for c in self.corporations.values()
                  if c.kind is not CorporationKind.MINOR and c.floated and not c.closed]
        return minors + sorted(majors, key=lambda c: self.market.order_key(c.sym))

    def finish_stock_round(self) -> None:
        """Sold-out companies rise (rules 12.2): one row, two from the gray zone, one more when the president
        holds 80% or more. A system's treasury share does not count against being sold out."""
        for corp in self.operating_order():
            if corp.kind is CorporationKind.MINOR:
                continue
            held = sum(p.percent_of(corp.sym) for p in self.players)
            if held != (90 if corp.kind is CorporationKind.SYSTEM else 100):
                continue
            cell = self.market.location[corp.sym]
            if cell.zone == "gray":
                self.market.up(corp.sym)
            self.market.up(corp.sym)
            if corp.owner is not None and corp.owner.percent_of(corp.sym) >= 80:
                self.market.up(corp.sym)
            price = self.market.location[corp.sym].price
            self.log(f"{corp.sym} is sold out and rises to {self.format_money(price)}")

    # ------------------------------------------------------------------ par
    def parse_price(self, text: str, *, par: bool = False) -> Cell:
        cell = super().parse_price(text, par=par)
        if par and cell not in self.market.par_cells():
            pars = ", ".join(self.format_money(c.price) for c in self.market.par_cells())
            raise illegal(f"{self.format_money(cell.price)} is not an open par price; par prices: {pars}")
        return cell

    def can_par(self, corp: Corporation, player: Player) -> bool:
        if corp.kind is not CorporationKind.MAJOR:
            return False
        return super().can_par(corp, player)

    # ------------------------------------------------------------------ events
    def event_close_companies(self) -> None:
        super().event_close_companies()
        minor = self.corporations.get(CP)
        if minor is not None and not minor.closed:
            self.remove_minor(minor, block=True)

    def event_remove_corporations(self) -> None:
        self.log("-- Event: Unparred corporations removed at the beginning of the next stock round --")

    def phase_changed(self) -> None:
        super().phase_changed()
        colour = self.phase.get("par_colour")
        if colour and colour not in self.market.open_colours:
            self.market.open_colours.append(colour)

    def remove_minor(self, minor: Corporation, *, block: bool = False) -> None:
        if minor.cash:
            pay(minor, self.bank, minor.cash, ev.Why.CLOSING)
        for token in minor.tokens:
            if token.used and token.hex is not None:
                hx = self.board.hexes[token.hex]
                slots = hx.tile.tokens[token.node]
                ev.emit(ev.StationChanged(hx.id, token.node, token.slot, slots[token.slot],
                                          BLOCKING_OWNER if block else None))
                if block:
                    slots[token.slot] = BLOCKING_OWNER
                    hx.tile.kinds[token.node][token.slot] = TokenKind.BLOCKING
                    self.log(f"Placing a blocking token on {hx.id}")
                else:
                    slots[token.slot] = None
                token.used, token.hex, token.node, token.slot = False, None, -1, -1
        for train in list(minor.trains):
            minor.trains.remove(train)
            train.owner = None
            ev.emit(ev.TrainMoved(train.id, train.name, minor.party, ev.NOBODY, ev.TrainHow.LEFT))
        minor.closed = True
        ev.emit(ev.CompanyClosed(minor.sym))
        self.board_changed()

    def place_blocking_token(self, hex_id: str, node: int | None = None) -> None:
        hx = self.board[hex_id]
        city = node if node is not None else hx.tile.tdef.cities[0]
        slots = hx.tile.tokens[city]
        slot = next((i for i, s in enumerate(slots) if s is None), None)
        if slot is None:
            return
        slots[slot] = BLOCKING_OWNER
        hx.tile.kinds[city][slot] = TokenKind.BLOCKING
        ev.emit(ev.StationChanged(hx.id, city, slot, None, BLOCKING_OWNER, TokenKind.BLOCKING.value))
        self.log(f"Placing a blocking token on {hx.id}")
        self.board_changed()

    # ------------------------------------------------------------------ privates
    def after_buy_company(self, player: Player, company: Company, price: int) -> None:
        super().after_buy_company(player, company, price)
        minor_sym = company.data.get("minor")
        if minor_sym:
            minor = self.corporations[str(minor_sym)]
            minor.owner = player
            minor.floated = True
            minor.ipoed = True

    def or_set_finished(self) -> None:
        super().or_set_finished()

    # ------------------------------------------------------------------ mergers (rules 7.5, 13.4)
    def merge_candidates(self, player: Player, corp: Corporation) -> list[Corporation]:
        if corp.kind is CorporationKind.SYSTEM:
            return []
        return [c for c in self.corporations.values() if self.merge_candidate(player, corp, c)]

    def merge_candidate(self, player: Player, corp: Corporation, candidate: Corporation) -> bool:
        """Two public companies merge when one is the player's, they have both operated or neither has, one has
        floated, and some player holds six of their shares together (five, having sold neither this round)."""
        return self._merge_pair_open(player, corp, candidate) and self._merge_shares_held(corp, candidate)

    def _merge_pair_open(self, player: Player, corp: Corporation, candidate: Corporation) -> bool:
        if (candidate is corp or candidate.kind is not CorporationKind.MAJOR or corp.kind is not CorporationKind.MAJOR
                or candidate.closed or corp.closed or not candidate.ipoed):
            return False
        if corp.owner is not player and candidate.owner is not player:
            return False
        return self.has_operated(candidate) == self.has_operated(corp) and (candidate.floated or corp.floated)

    def _merge_shares_held(self, corp: Corporation, candidate: Corporation) -> bool:
        sold = self.stock_step_sold(self.round)
        for p in self.players:
            n = self.num_shares(p, candidate) + self.num_shares(p, corp)
            if n >= 6 or (n == 5 and not sold.get(p.id, {}).get(candidate.sym)
                          and not sold.get(p.id, {}).get(corp.sym)):
                return True
        return False

    def exchange_shares(self, company: Company) -> list[Share]:
        """The shares the M&H may be exchanged for: the first ordinary share in each company's IPO and in the
        market (18xx.games offers any company, started or not)."""
        if company.closed or not company.data.get("exchange_any") or not isinstance(company.owner, Player):
            return []
        out = []
        for corp in self.corporations.values():
            if corp.closed or corp.kind is CorporationKind.MINOR:
                continue
            ipo = next((s for s in corp.shares if not s.president), None)
            pool = next((s for s in self.pool.shares if s.corp == corp.sym), None)
            out += [s for s in (ipo, pool) if s is not None]
        return out

    def exchange_company(self, company: Company, share: Share) -> None:
        owner = company.owner
        assert isinstance(owner, Player)
        corp = self.corporations[share.corp]
        previous = corp.owner
        self.transfer_share(share, owner)
        self.log(f"{owner.name} exchanges {company.sym} for a {share.percent}% share of {corp.sym}")
        self.close_company(company)
        self._check_float(corp)
        if corp.ipoed:
            self.check_presidency(corp, previous=previous)
        else:
            self.take_unparred_directorship(owner, corp)

    def take_unparred_directorship(self, player: Player, corp: Corporation) -> None:
        """A player whom the exchange brings to the director's share of a company nobody has parred (the C&A's 10%
        of the PRR and the M&H) swaps two certificates for the director's certificate and presides it unparred;
        whoever pars it later buys an ordinary certificate (18xx.games; rule 13.3.3 read to the letter)."""
        cert = next((s for s in corp.shares if s.president), None)
        if cert is None or player.percent_of(corp.sym) < cert.percent:
            return
        plain = [s for s in player.shares_of(corp.sym) if not s.president][:cert.percent // corp.share_percent]
        for share in plain:
            self.transfer_share(share, corp)
        self.transfer_share(cert, player)
        corp.owner = player
        self.log(f"{player.name} becomes the president of {corp.sym}")

    def finishable_merges(self, player: Player, corp: Corporation) -> list[Corporation]:
        """The companies ``player``, having chosen ``corp`` to start a merger, may merge it with and whose merger
        18xx.games can run up to its first decision (or its end). It hands out system shares without checking that
        one is left, and stops with an error where none is (docs/conformance.md); a merger that runs short before
        any decision is left unoffered, though still accepted."""
        return [c for c in self.merge_candidates(player, corp) if self._merge_finishable(player, corp, c)]

    def _merge_finishable(self, player: Player, corp: Corporation, target: Corporation) -> bool:
        if self.merger_strict:
            return True  # a trial tries one merger, not the ones it would offer next
        # Up to its first decision the exchange depends only on who holds which shares of the two companies and
        # who starts it, so one trial (a copy of the whole game) serves every look at one position.
        holders = [*self.players, self.pool, corp, target]
        key = (player.id, corp.sym, target.sym,
               tuple(tuple(s.id for s in h.shares if s.corp in (corp.sym, target.sym)) for h in holders))
        known: dict[Any, bool] | None = getattr(self, "_merge_trials", None)
        if known is None:
            known = {}
            self._merge_trials = known
        if key not in known:
            trial = self.trial_copy()
            trial.merger_strict = True
            try:
                trial._apply({"type": "merge", "entity": corp.sym, "entity_type": "corporation",
                              "corporation": target.sym})
            except GameError:
                known[key] = False
            else:
                known[key] = True
        return known[key]

    def can_merge_any(self, player: Player) -> bool:
        majors = {c.sym: c for c in self.corporations.values() if c.kind is CorporationKind.MAJOR and not c.closed}
        # A merger needs one of the pair to be the player's (merge_candidate), and five shares of the pair in one
        # hand, so only such pairs are examined; the answer does not depend on the order they are looked at in.
        owned = [c for c in majors.values() if c.owner is player]
        if not owned:
            return False
        holdings = []
        for p in self.players:
            held: dict[str, int] = {}
            for share in p.shares:
                corp = majors.get(share.corp)
                if corp is not None:
                    held[share.corp] = held.get(share.corp, 0) + share.percent // corp.share_percent
            if held:
                holdings.append(held)
        for a in owned:
            for b in majors.values():
                if b is a or not any(h.get(a.sym, 0) + h.get(b.sym, 0) >= 5 for h in holdings):
                    continue
                if (b.ipoed and self.merge_candidate(player, a, b)) or (a.ipoed and self.merge_candidate(player, b, a)):
                    return True
        return False

    @staticmethod
    def num_shares(holder: Any, corp: Corporation) -> int:
        return int(holder.percent_of(corp.sym) // corp.share_percent)

    def has_operated(self, corp: Corporation) -> bool:
        return corp.sym in self.operated_once

    def stock_step_sold(self, rnd: Any) -> dict[int, dict[str, bool]]:
        for step in getattr(rnd, "steps", ()):
            sold = getattr(step, "sold", None)
            if isinstance(sold, dict):
                return sold
        return {}

    def share_price_of(self, corp: Corporation) -> int:
        return self.market.location[corp.sym].price

    def share_value(self, share: Share) -> int:
        corp = self.corporations[share.corp]
        return self.share_price_of(corp) * share.percent // corp.share_percent

    def create_system(self, corps: list[Corporation]) -> Corporation:
        """The system of two companies (rules 7.5.2): their cash, trains (each company's in its own shell),
        stations, privates and coal marker; where both had a station in one city, a blocking marker."""
        merger, target = corps
        data = dict(merger.data)
        sym = f"{merger.sym}-{target.sym}"
        data.update(sym=sym, kind="system", entity_type="system", tokens=[], float_percent=50,
                    homes=[h for h in (merger.home, target.home) if h])
        data.pop("home", None)
        data.pop("home_city", None)
        system = Corporation(data)
        system.full_name = merger.full_name
        self.corporations[sym] = system
        self._init_shares(system)
        for share in system.shares:
            ev.emit(ev.ShareCreated(share.id, sym, share.percent, system.party))
        self.shells[sym] = []
        used: list[Token] = []
        unused: list[Token] = []
        for corp in corps:
            self._transfer_to_system(corp, system, used, unused)
        if system.trains:
            # 18xx.games hands the members' trains over as purchases by the system, which closes both members'
            # $250 privates as a bought train would.
            self.close_on_train_bought(system)
        system.tokens = sorted(used, key=lambda t: t.price) + sorted(unused, key=lambda t: t.price)
        self._block_shared_cities(system)
        if len([m for m in system.markers if m == "coal"]) > 1 or self._coal_count(system) > 1:
            system.markers = ["coal"]
            self.coal_on_fields += 1
            self.log(f"{sym} cannot have two coal markers, returning one to Virginia Coalfields")
        cells = [self.market.location[c.sym] for c in corps]
        self.set_par(system, self.system_market_price(cells))
        self.board_changed()
        self.log(f"Merging {target.sym} into {merger.sym}. The {merger.sym} system receives "
                 f"{self.format_money(system.cash)} cash, trains: {', '.join(t.name for t in system.trains) or 'none'}"
                 f" and tokens ({len(system.tokens)}). New share price is "
                 f"{self.format_money(self.share_price_of(system))}")
        return system

    def _coal_count(self, corp: Corporation) -> int:
        return corp.markers.count("coal")

    def _transfer_to_system(self, corp: Corporation, system: Corporation, used: list[Token],
                            unused: list[Token]) -> None:
        if corp.cash:
            pay(corp, system, corp.cash, ev.Why.MERGER)
        for token in corp.tokens:
            new = Token(system.sym, token.price)
            if token.used and token.hex is not None:
                hx = self.board.hexes[token.hex]
                hx.tile.tokens[token.node][token.slot] = system.sym
                ev.emit(ev.StationChanged(hx.id, token.node, token.slot, corp.sym, system.sym))
                new.used, new.hex, new.node, new.slot = True, token.hex, token.node, token.slot
                used.append(new)
            else:
                unused.append(new)
            token.used, token.hex, token.node, token.slot = False, None, -1, -1
        corp.tokens = []
        for company in list(corp.companies):
            corp.companies.remove(company)
            company.owner = system
            system.companies.append(company)
            ev.emit(ev.PrivateMoved(company.sym, corp.party, system.party))
        system.markers.extend(corp.markers)
        corp.markers = []
        shell = Shell(corp.sym)
        for train in list(corp.trains):
            corp.trains.remove(train)
            train.owner = system
            system.trains.append(train)
            shell.trains.append(train)
            ev.emit(ev.TrainMoved(train.id, train.name, corp.party, system.party, ev.TrainHow.HANDED))
        self.shells[system.sym].append(shell)

    def _block_shared_cities(self, system: Corporation) -> None:
        seen: dict[tuple[str, int], Token] = {}
        for token in [t for t in system.tokens if t.used]:
            assert token.hex is not None
            key = (token.hex, token.node)
            if key not in seen:
                seen[key] = token
                continue
            # The second station goes back to the system's charter, where it keeps its place in the list.
            hx = self.board.hexes[token.hex]
            ev.emit(ev.StationChanged(hx.id, token.node, token.slot, hx.tile.tokens[token.node][token.slot],
                                      BLOCKING_OWNER, TokenKind.BLOCKING.value))
            hx.tile.tokens[token.node][token.slot] = BLOCKING_OWNER
            hx.tile.kinds[token.node][token.slot] = TokenKind.BLOCKING
            token.used, token.hex, token.node, token.slot = False, None, -1, -1
            self.log(f"Placing a blocking token on {hx.id}")

    def system_shared_hexes(self, system: Corporation) -> list[str]:
        """Hexes where the system has two stations (in different cities): it removes one (rules 7.5.2)."""
        counts: dict[str, int] = {}
        for token in system.tokens:
            if token.used and token.hex is not None:
                counts[token.hex] = counts.get(token.hex, 0) + 1
        return [h for h, n in counts.items() if n > 1]

    def system_market_price(self, cells: list[Cell]) -> Cell:
        """The new price (rules 7.5.3): the higher price plus half the lower, on the row of the leftmost marker's
        column, or along the top row when even its top cell is lower."""
        values = sorted(c.price for c in cells)
        col = min(c.col for c in cells)
        target = values[1] + values[0] // 2
        top = self.market.rows[0]
        top_cell = top[col]
        assert top_cell is not None
        if top_cell.price < target:
            i = len(top) - 1
            while (cell := top[i]) is not None and cell.price > target:
                i -= 1
            found = top[i]
        else:
            i = 0
            while (cell := self.market.at(i, col)) is not None and cell.price > target:
                i += 1
            found = self.market.at(i, col)
        assert found is not None
        return found

    def float_corporation(self, corp: Corporation) -> None:
        if corp.kind is CorporationKind.SYSTEM:
            corp.par_price = self.share_price_of(corp)  # a system's "par" is always its market price
        super().float_corporation(corp)

    def check_system_floats(self) -> None:
        """A system has floated once at most four of its shares are left in its IPO (its treasury share aside);
        it never unfloats (18xx.games)."""
        for sym in self.shells:  # every system has its shells from its creation on
            corp = self.corporations[sym]
            if not corp.floated and not corp.closed and corp.ipo_percent() <= 40:
                corp.floated = True

    def action_processed(self, action: dict[str, Any]) -> None:
        self.check_system_floats()
        self.check_merging_floats()
        if action.get("type") != "message":
            self.last_action_id = int(action.get("id") or 0)

    def undone_failed_merge(self, player: Player) -> list[str] | None:
        """The two companies of ``player``'s merger that the log's last entry undid because it failed (the player
        then records failed_merge, as on 18xx.games), or None."""
        undone = self._undone_by_last_undo()
        if not undone or undone[0].get("type") != "choose" or str(undone[0].get("entity")) != str(player.id):
            return None
        merge = next((a for a in undone if a.get("type") == "merge"), None)
        if merge is None:
            return None
        return [str(merge["entity"]), str(merge["corporation"])]

    def undone_unfinishable_merge(self, player: Player) -> str | None:
        """The company ``player`` just chose to start a merger with, when the log's last entry undid that choice
        and nothing after it (the way out of a merger 18xx.games cannot run, Merger.choices), or None."""
        undone = self._undone_by_last_undo()
        if len(undone) != 1 or undone[0].get("type") != "choose" or str(undone[0].get("entity")) != str(player.id):
            return None
        return str(undone[0].get("choice"))

    def _undone_by_last_undo(self) -> list[dict[str, Any]]:
        """The actions the log's last entry undid, when it is an undo to a given action, else none."""
        raw = self.raw_actions
        if not raw or raw[-1].get("type") != "undo" or raw[-1].get("action_id") is None:
            return []
        start = int(raw[-1]["action_id"])
        return [a for a in raw[:-1] if int(a.get("id") or 0) > start and a.get("type") not in ("undo", "redo")]

    def check_merging_floats(self) -> None:
        """18xx.games counts a company as floated once at most 40% is left in its IPO, whenever it looks; in a
        merger the two companies' IPOs drain, so they count as floated from then on (no money comes with it)."""
        step = self.merger_step()
        for corp in (step.merger, step.target) if step is not None else ():
            if corp is not None and not corp.floated and corp.percent_of(corp.sym) <= 100 - corp.float_percent:
                corp.floated = True

    def finish_system(self, system: Corporation, merger: Corporation, target: Corporation) -> None:
        self.check_system_floats()
        self.check_merging_floats()
        # 18xx.games resets the treasury of a system whose members had not both floated, but by then it has moved
        # their whole IPOs into the exchange, so it counts both as floated and the reset never happens.
        if not merger.floated or not target.floated:
            pay(system, self.bank, system.cash, ev.Why.MERGER)
            if system.floated:
                capital = self.share_price_of(system) * 10
                self.bank.spend(capital, system, ev.Why.CAPITAL)
                self.log(f"Setting {system.sym}'s treasury to 10 times market price")
            else:
                self.log(f"{system.sym} not yet floated, discarding treasury")
        for corp in (merger, target):
            self.close_corporation(corp)

    def extra_holders(self, corp: Corporation | None = None) -> list[Holder]:
        # During a merger old certificates wait in the merger's boxes (discarded, exchanged, the joint IPO).
        step = self.merger_step()
        return [step.discard, step.used, step.ipo] if step is not None else []

    def merger_step(self) -> Merger | None:
        """The current round's merger step (a stock round's), or None; looked for once per round, whose steps
        never change, since every action asks (check_merging_floats)."""
        rnd = self.round
        known = self._merger_of
        if known[0] is not rnd:
            known = self._merger_of = (rnd, next((s for s in getattr(rnd, "steps", ()) if isinstance(s, Merger)), None))
        return known[1]

    def close_corporation(self, corp: Corporation) -> None:
        for holder in self._holders():
            for share in [s for s in holder.shares if s.corp == corp.sym]:
                self.transfer_share(share, corp)
        self.market.remove(corp.sym)
        corp.closed = True
        corp.owner = None
        ev.emit(ev.CompanyClosed(corp.sym, "merger"))
        self.board_changed()

    def shell_limit(self) -> int:
        return int(self.phase["train_limit"])

    def train_limit(self, corp: Corporation) -> int:
        """A system's limit applies to each of its shells (rules 7.5.4); counted over the whole system here,
        and per shell by the title's train steps."""
        shells = len(self.shells.get(corp.sym, ())) if corp.kind is CorporationKind.SYSTEM else 1
        return self.shell_limit() * max(shells, 1)

    def other_train_price_range(self, corp: Corporation, train: Train,
                                last_sale_price: int | None = None) -> tuple[int, int]:
        """18xx.games' 1828 bounds a train bought from another company by its face value once the president has
        sold shares this turn, even when the treasury alone could pay more, and the price must still make the last
        sale necessary (so the range can be empty). Without a sale: up to the treasury, or with the president's
        help up to face value."""
        player = corp.owner
        if player is None:
            return 1, corp.cash
        most = corp.cash + player.cash
        if last_sale_price:
            return most - last_sale_price + 1, min(train.price, most)
        if corp.cash > train.price:
            return 1, corp.cash
        return 1, min(train.price, most)

    def president_may_contribute(self, corp: Corporation) -> bool:
        # A system with an empty shell may use its president's money for that shell's train (18xx.games).
        if corp.kind is CorporationKind.SYSTEM and any(not s.trains for s in self.shells.get(corp.sym, [])):
            return True
        return super().president_may_contribute(corp)

    def check_presidency(self, corp: Corporation, previous: Player | None, seller: Player | None = None) -> None:
        # Nobody presides a system until someone holds its president's share's worth (18xx.games).
        if max((p.percent_of(corp.sym) for p in self.players), default=0) < corp.president_percent:
            return
        super().check_presidency(corp, previous, seller)

    def close_on_train_bought(self, corp: Corporation) -> None:
        # A system's train counts for each member: the $250 privates close when their company buys one.
        super().close_on_train_bought(corp)
        if corp.kind is CorporationKind.SYSTEM:
            for shell in self.shells.get(corp.sym, []):
                super().close_on_train_bought(self.corporations[shell.name])

    def describe(self, entity: Any) -> str:
        name = getattr(entity, "name", None)
        if not isinstance(entity, (Player, Corporation, Company)) and isinstance(name, str):
            return name  # the market, the IPO, the discard in a merger
        return super().describe(entity)

    def shells_with_room(self, corp: Corporation) -> list[Shell]:
        return [s for s in self.shells.get(corp.sym, []) if len(s.trains) < self.shell_limit()]

    # ------------------------------------------------------------------ track
    def tile_lays_for(self, corp: Corporation) -> list[dict[str, Any]]:
        """One lay or upgrade; a system a second; B&M and NYH (or a system holding one) a yellow lay for $40
        when nothing was upgraded, each (rules 8.1, 13.3)."""
        lays: list[dict[str, Any]] = [{"lay": True, "upgrade": "not_if_upgraded"}]
        members = [s.name for s in self.shells.get(corp.sym, [])] if corp.kind is CorporationKind.SYSTEM \
            else [corp.sym]
        if corp.kind is CorporationKind.SYSTEM:
            lays.append({"lay": True, "upgrade": "not_if_upgraded"})
        track = self.data()["game"]["track"]
        for sym in members:
            if sym in track["extra_yellow"]:
                lays.append({"lay": "not_if_upgraded", "upgrade": False, "cost": int(track["extra_yellow_cost"])})
        return lays

    def track_ability_waits(self, corp: Corporation) -> bool:
        """A private's extra lay for the track step (the E&K's) keeps the step open until used or passed; one that
        is one of the company's own lays (the D&H's) does not."""
        return any(lay.get("when") == "track" and not lay.get("normal") and not self.special_lay_used(company, i)
                   for company in corp.companies if not company.closed
                   for i, lay in enumerate(company.data.get("special_lays", ())))

    def turn_lay_waits(self, corp: Corporation) -> bool:
        return any(lay.get("when") == "turn" and not self.special_lay_used(company, i)
                   for company in corp.companies if not company.closed
                   for i, lay in enumerate(company.data.get("special_lays", ())))

    def track_company_buyable(self, corp: Corporation) -> bool:
        if not self.phase.get("can_buy_companies") or corp.kind is CorporationKind.MINOR or corp.cash < 1:
            return False
        return any(self.company_for_sale(c) and any(lay.get("when") == "track" and not lay.get("normal")
                                                    for lay in c.data.get("special_lays", ()))
                   for c in self.companies.values())

    def in_track_step(self, rnd: Any, corp: Corporation) -> bool:
        from .operating import Track1828
        step = next((s for s in rnd.steps if isinstance(s, Track1828)), None)
        return step is not None and step.active() and not step.passed and rnd.entity() is corp

    def special_lay_used(self, company: Company, index: int) -> bool:
        return (company.sym, index) in self.special_lays_used

    def use_special_lay(self, company: Company, index: int) -> None:
        self.special_lays_used.add((company.sym, index))

    def special_lay_rotations(self, corp: Corporation, lay: dict[str, Any], hx: Any, tile: Any) -> list[int]:
        from ...core.track import legal_rotations
        if not self.lay_allowed(hx.id, tile.id):
            return []
        edges = self.network(corp).hex_edges.get(hx.id, set()) if lay.get("reachable") else None
        if edges is not None and not edges:
            return []
        return legal_rotations(self, hx, tile.tdef, edges)

    def special_lay_cost(self, lay: dict[str, Any], hx: Any, tile: Any, rotation: int) -> int:
        from ...core.track import crossing_cost
        free = bool(lay.get("free") or lay.get("teleport"))
        terrain = hx.terrain_cost if hx.tile is hx.original and not free else 0
        exits = frozenset((e + rotation) % 6 for e in tile.tdef.edges())
        return int(lay.get("cost", 0)) + terrain + int(crossing_cost(self, hx, exits))

    def special_lay(self, corp: Corporation, action: dict[str, Any], lay: dict[str, Any], company: Company) -> None:
        self.check_lay_allowed(action["hex"], str(action["tile"]))
        self.lay_tile(corp, action, extra_cost=int(lay.get("cost", 0)), check_connection=bool(lay.get("reachable")),
                      free_terrain=bool(lay.get("free") or lay.get("teleport")))

    def lay_allowed(self, hex_id: str, tile_id: str) -> bool:
        # The Virginia Tunnel takes only tile #4 (rules 16).
        return hex_id != self.coal["tunnel"] or tile_id.rsplit("-", 1)[0] == str(self.coal["tunnel_tile"])

    def check_lay_allowed(self, hex_id: str, tile_id: str) -> None:
        if not self.lay_allowed(hex_id, tile_id):
            raise illegal(f"the Virginia Tunnel ({hex_id}) takes only tile #{self.coal['tunnel_tile']}")

    def after_tile_laid(self, corp: Corporation, hx: Any, tile: Any, water_crossings: int) -> None:
        if hx.id == self.coal["tunnel"] and self.tunnel_coal:
            # Whoever lays the tunnel tile takes its coal marker, or puts it on the Coalfields (rules 16).
            self.tunnel_coal = False
            self.log(f"{corp.sym} acquires a coal marker")
            if self.has_coal(corp):
                self.log(f"{corp.sym} already owns a coal marker, placing coal marker on Virginia Coalfields")
                self.coal_on_fields += 1
            else:
                corp.markers.append("coal")
                self.board_changed()

    # ------------------------------------------------------------------ coal (rules 16)
    def has_coal(self, corp: Corporation) -> bool:
        return "coal" in corp.markers

    def can_buy_coal_marker(self, corp: Corporation) -> bool:
        return (self.coal_on_fields > 0 and not self.has_coal(corp) and corp.cash >= int(self.coal["price"])
                and reaches(self.network(corp), self.coal["coalfields"]))

    def buy_coal_marker(self, corp: Corporation) -> None:
        price = int(self.coal["price"])
        pay(corp, self.bank, price, ev.Why.OTHER)
        corp.markers.append("coal")
        self.coal_on_fields -= 1
        self.log(f"{corp.sym} buys a coal marker for {self.format_money(price)}")
        self.board_changed()

    def train_groups(self, corp: Corporation) -> list[tuple[str, tuple[str, ...]]]:
        """A system's trains by shell, for the status."""
        return [(str(sh.name), tuple(t.name for t in sh.trains)) for sh in self.shells.get(corp.sym, [])]

    def hex_markers(self, hex_id: str) -> tuple[str, ...]:
        """Markers lying on a hex, for the map: the coal markers left on the Coalfields and the tunnel's."""
        if hex_id == self.coal["coalfields"]:
            return ("coal",) * self.coal_on_fields
        if hex_id == self.coal["tunnel"] and self.tunnel_coal:
            return ("coal",)
        return ()

    # ------------------------------------------------------------------ privates bought by companies
    def can_buy_company(self, corp: Corporation) -> bool:
        if not self.phase.get("can_buy_companies") or corp.kind is CorporationKind.MINOR:
            return False
        return corp.cash >= 1 and any(self.company_for_sale(c) for c in self.companies.values())

    def company_price_range(self, corp: Corporation, company: Company) -> tuple[int, int]:
        return 1, company.value * 2  # rules 13.2: from $1 to twice face value

    def after_company_bought(self, corp: Corporation, company: Company, price: int) -> None:
        """Bought for $1 to twice face value (rules 13.2, ``company_price_range``). A bought C&P brings its
        treasury, earns $15 and gives the buyer a free station in Peterborough; a bought StCT earns $10."""
        self.round.just_sold_company = company  # type: ignore[attr-defined]
        if company.data.get("revenue_when_sold"):
            company.revenue = int(company.data["revenue_when_sold"])
        minor_sym = company.data.get("minor")
        if minor_sym:
            minor = self.corporations[str(minor_sym)]
            if minor.cash:
                self.log(f"{corp.sym} receives {self.format_money(minor.cash)} from {minor.sym}'s treasury")
                pay(minor, corp, minor.cash, ev.Why.MERGER)
            company.revenue = 15
            self.cp_token_owed.add(company.sym)
            self.remove_minor(minor)

    def cp_hex(self) -> str:
        return str(self.corporations[CP].home)

    def cp_token_pending(self, company: Company) -> bool:
        if company.sym not in self.cp_token_owed:
            return False
        corp = company.owner
        if not isinstance(corp, Corporation) or not corp.unused_tokens() or corp.sym in self.tokened_this_round:
            self.cp_token_owed.discard(company.sym)
            self.log(f"{self.describe(corp)} does not have the option to replace {company.sym}'s token")
            self.place_blocking_token(self.cp_hex())
            return False
        return True

    def cp_place_token(self, company: Company, action: dict[str, Any]) -> None:
        corp = company.owner
        assert isinstance(corp, Corporation)
        hx, node = self.city_by_id(action["city"])
        if hx.id != self.cp_hex():
            raise illegal(f"{company.sym}'s station goes in {self.cp_hex()}")
        token = corp.unused_tokens()[0]
        self.place_token(corp, token, hx, node, free=True, slot=action.get("slot"))
        self.cp_token_owed.discard(company.sym)
        self.tokened_this_round.add(corp.sym)

    def lay_station_offer(self, company: Company, hex_id: str) -> None:
        """After the D&H's lay in Scranton its company may place a station there for free, off its network and
        past the usual limits, when it has a station left, has placed none this round and a space is free (rules
        8.3.2, 13.2.2.4)."""
        corp = company.owner
        assert isinstance(corp, Corporation)
        if self.lay_station_cities(corp, hex_id):
            self.lay_station_owed[company.sym] = hex_id
            return
        reason = ("has no station left" if not corp.unused_tokens() else
                  "has placed a station this round" if corp.sym in self.tokened_this_round else
                  f"finds no space it may take in {hex_id}")
        self.log(f"{corp.sym} {reason}, so {company.sym} places no station")

    def lay_station_cities(self, corp: Corporation, hex_id: str) -> list[int]:
        token = next(iter(corp.unused_tokens()), None)
        if token is None or corp.sym in self.tokened_this_round:
            return []
        hx = self.board[hex_id]
        return [node for node in hx.tile.tdef.cities if self.can_token_city(corp, hx, node, token)]

    def lay_station_place(self, company: Company, action: dict[str, Any]) -> None:
        corp = company.owner
        hex_id = self.lay_station_owed.get(company.sym)
        assert isinstance(corp, Corporation) and hex_id is not None
        hx, node = self.city_by_id(action["city"])
        if hx.id != hex_id:
            raise illegal(f"{company.sym}'s station goes in {hex_id}, not {hx.id}")
        if node not in self.lay_station_cities(corp, hex_id):
            raise illegal(f"{corp.sym} cannot place a station in that city of {hex_id}")
        slot = action.get("slot")
        if slot is not None and not (isinstance(slot, int) and 0 <= slot < len(hx.tile.tokens[node])):
            raise illegal(f"{hx.id} has no station space {slot}")
        self.place_token(corp, corp.unused_tokens()[0], hx, node, free=True, slot=slot)
        del self.lay_station_owed[company.sym]
        self.tokened_this_round.add(corp.sym)

    def lay_station_pass(self, company: Company) -> None:
        hex_id = self.lay_station_owed.pop(company.sym)
        self.log(f"{self.describe(company.owner)} places no station in {hex_id} with {company.sym}")

    def cp_pass_token(self, company: Company) -> None:
        self.log(f"{self.describe(company.owner)} passes placing a token on {self.cp_hex()}")
        self.place_blocking_token(self.cp_hex())
        self.cp_token_owed.discard(company.sym)

    # ------------------------------------------------------------------ shells (rules 7.5.4)
    def shell_of(self, system: Corporation, train: Train) -> Any:
        return next((s for s in self.shells.get(system.sym, []) if train in s.trains), None)

    def prune_shells(self, system: Corporation) -> None:
        for shell in self.shells.get(system.sym, []):
            shell.trains = [t for t in shell.trains if t.owner is system]

    def crowded_corporations(self) -> list[Corporation]:
        # Asked by the discard step at nearly every action: the companies with more trains than one shell may hold
        # are found first, in one pass (most often none, or only systems).
        limit = self.shell_limit()
        over = [corp for corp in self.corporations.values() if len(corp.trains) > limit]
        if not over or getattr(self.round, "ignore_train_limit", False):
            return []
        out = []
        for corp in over:
            if corp.closed or corp.kind is CorporationKind.MINOR:
                continue
            if corp.kind is CorporationKind.SYSTEM:
                if any(len(s.trains) > limit for s in self.shells.get(corp.sym, ())):  # shell_over_limit
                    out.append(corp)
            elif corp.trains_in_limit() > self.train_limit(corp):
                out.append(corp)
        return out

    def discardable_trains(self, corp: Corporation) -> list[Train]:
        if corp.kind is CorporationKind.SYSTEM:
            shell = next((s for s in self.shells[corp.sym] if len(s.trains) > self.shell_limit()), None)
            return list(shell.trains) if shell is not None else []
        return list(corp.trains)

    def train_left(self, corp: Corporation, train: Train) -> None:
        self.prune_shells(corp)

    def discard_train(self, corp: Corporation, train: Train) -> None:
        super().discard_train(corp, train)
        self.prune_shells(corp)

    def shell_over_limit(self, system: Corporation) -> bool:
        return any(len(s.trains) > self.shell_limit() for s in self.shells.get(system.sym, []))

    def swap_train(self, system: Corporation, train: Train) -> None:
        current = self.shell_of(system, train)
        other = next(s for s in self.shells[system.sym] if s is not current)
        if current is not None:
            current.trains.remove(train)
        other.trains.append(train)
        self.log(f"{system.sym} swaps {train.name} from {current.name if current else '?'} shell to {other.name} "
                 "shell")

    # ------------------------------------------------------------------ game end
    def end_checks(self) -> dict[str, EndCheck]:
        return {**super().end_checks(), "final_phase": lambda: self.phase["name"] == "Purple"}

    # ------------------------------------------------------------------ dividends
    def pay_dividend(self, corp: Corporation, revenue: int, kind: str) -> None:
        super().pay_dividend(corp, revenue, kind)
        self.operated_once.add(corp.sym)

    def more_dividend_parts(self, corp: Corporation, revenue: int) -> list[ev.HolderPart]:
        treasury = corp.treasury.percent_of(corp.sym)
        if not treasury:
            return []
        # A system's treasury share pays the system (rules 7.5.5).
        return [self.pay_holder(corp, self.holder_payout(revenue, treasury))]

    def minor_half_pay(self, minor: Corporation, revenue: int) -> None:
        self.operated_once.add(minor.sym)
        minor.last_revenue = revenue
        if revenue <= 0:
            return
        kept = revenue // 2
        self.bank.spend(kept, minor, ev.Why.REVENUE)
        parts = []
        if minor.owner is not None:
            parts.append(self.pay_holder(minor.owner, revenue - kept))
        self.dividend_paid(minor, ev.DividendKind.HALF, revenue, parts, kept)
        self.log(f"{minor.sym} pays {self.format_money(revenue - kept)} to its owner and keeps "
                 f"{self.format_money(kept)}")

    # ------------------------------------------------------------------ routes
    def network_read(self, corp: Corporation, net: Network) -> None:
        # 18xx.games remembers that a company once had a route and keeps asking it to run even after track or
        # stations cut it off (an upgrade in Dunkirk & Buffalo, a blocking marker); the rules are silent, so we
        # follow it (TrainRules.route_available), recording whenever it walks the company's track.
        if net.route_possible:
            self.routes_seen.add(corp.sym)

    def remembers_routes(self) -> bool:
        return True  # see network_read()

    def route_trains(self, corp: Corporation) -> list[Train]:
        return list(corp.trains)

    def route_bonus(self, route: Route) -> int:
        return 0

    def autoroute_train_spec(self, train: Train) -> TrainSpec:
        """3+D: three cities or off-boards, any towns, double revenue; 8E: eight cities or off-boards, towns
        passed unpaid (rules 15)."""
        if train.name == "3+D":
            return TrainSpec(train.name, 3, free_kinds=frozenset({"town"}), multiplier=2)
        if train.name == "8E":
            return TrainSpec(train.name, 8, unpaid_kinds=frozenset({"town"}))
        return TrainSpec(train.name, None if train.distance >= 99 else train.distance)

    def best_routes(self, corp: Corporation) -> list[dict[str, Any]]:
        """The optimal routes, each with its revenue, as 18xx.games' own client writes them (its 1828 cannot
        check a route that comes without one)."""
        from ...core.autoroute import validate_route
        from ...core.routes import build_route
        out = super().best_routes(corp)
        for data in out:
            train = self.all_trains[str(data["train"])]
            traced = validate_route(self, corp, train, data)
            route = build_route(self, corp, train, data)
            route.stops = list(traced.stops)
            data["revenue"] = self.route_revenue(corp, route)
        return out

    def route_needs_station(self, corp: Corporation) -> bool:
        # The C&P's run starts from the track it laid this turn, not from a station (rules 13.2).
        return corp.kind is not CorporationKind.MINOR

    def check_route(self, corp: Corporation, hexes: set[str], stops: set[str], laid: list[str]) -> None:
        """Rules 16: a route into the Virginia Coalfields needs a coal marker; rules 13.2: the C&P's run uses
        the tile it laid this turn."""
        if self.coal["coalfields"] in hexes and not self.has_coal(corp):
            raise illegal("a route to the Virginia Coalfields needs a coal marker")
        if corp.kind is CorporationKind.MINOR and not any(stops & {h for h, _ in self.stops_touching(x)}
                                                          for x in laid[:1]):
            raise illegal(f"the {corp.sym}'s route must use the tile it laid this turn")

    def route_anchors(self, corp: Corporation) -> list[tuple[str, int]] | None:
        if corp.kind is not CorporationKind.MINOR:
            return None
        laid: list[str] = list(getattr(self.round, "laid_hexes", None) or [])
        return sorted(self.stops_touching(laid[0])) if laid else []

    def board_refreshed(self) -> None:
        coalfields = self.board.hexes.get(str(self.data()["game"]["coal"]["coalfields"]))
        if coalfields is not None:
            coalfields.passable_only_by = frozenset(c.sym for c in self.corporations.values() if "coal" in c.markers)

    def stops_touching(self, hex_id: str) -> set[tuple[str, int]]:
        """Hexes of the stops the tile in ``hex_id`` holds, or else that its track reaches without passing a
        stop (18xx.games: a route uses a laid tile when it stops there or on the track walked from it)."""
        hx = self.board.hexes[hex_id]
        if hx.tile.tdef.nodes:
            return {(hex_id, i) for i in range(len(hx.tile.tdef.nodes))}
        found: set[tuple[str, int]] = set()
        seen: set[tuple[str, int]] = set()
        todo = [(hex_id, i) for i in range(len(hx.tile.abs_paths()))]
        while todo:
            here, index = todo.pop()
            if (here, index) in seen:
                continue
            seen.add((here, index))
            cur = self.board.hexes[here]
            for end in cur.tile.abs_paths()[index]:
                if end >= NODE_BASE:
                    found.add((here, end - NODE_BASE))
                    continue
                todo += [(here, j) for j in self.board.paths_at_edge(cur, end)]
                other = self.board.neighbor(cur, end)
                if other is not None:
                    todo += [(other.id, j) for j in self.board.paths_at_edge(other, (end + 3) % 6)]
        return found


_ = (Token,)
