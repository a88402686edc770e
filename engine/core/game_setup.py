"""Setting up a new game's state from its title's data: players and money, market, map and tiles, companies and
their certificates, privates, phases and trains; then the title's own ``setup`` and the first round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import events as ev
from .abilities import Exchange, ExchangeFrom, Shares, parse_abilities
from .board import Board
from .config import TitleConfig
from .entities import Bank, Company, Corporation, Player, Share, SharePool
from .errors import DataError, illegal, malformed
from .game_end import EndConditions, EndLatch
from .market import StockMarket
from .rng import Lcg
from .tiles import Tile, parse_tile, shared_catalogue

if TYPE_CHECKING:
    from .hook_defaults import HookDefaults


def build_state(game: HookDefaults) -> None:
    """Set up the state of a new game (and again before a rebuild): every piece from the title's data, the
    title's own ``setup``, then the first round."""
    data = game.data()
    g = data["game"]
    n = len(game.player_specs)
    if not g.get("min_players", 1) <= n <= g.get("max_players", 99):
        raise illegal(f"{game.TITLE} is for {g['min_players']} to {g['max_players']} players, not {n}")
    game.end_conditions = EndConditions.from_data(g.get("game_end", {}), game.end_checks(),
                                                  where=f"{game.DATA_PACKAGE.replace('.', '/')}/game.toml")
    game.end_latch = EndLatch()
    game.config = TitleConfig.from_data(g)
    game.rules_edition = rules_edition(game)
    game.rng = Lcg(game.seed)
    game._log = []
    game.finished = False
    game.game_end_reason = None
    game.turn = 1
    game.bank = Bank(int(g["bank"]))
    cash = int(g["starting_cash"][str(n)])
    game.players = [Player(pid, name, 0) for pid, name in game.player_specs]
    for p in game.players:
        game.bank.spend(cash, p, ev.Why.STARTING_CASH)
    game.cert_limit = int(g["cert_limit"][str(n)])
    game.pool = SharePool()
    game.market = StockMarket(g["market"])
    game.board = Board.from_data(data["map"])
    init_tiles(game, data["tiles"])
    game.corporations = {}
    for cdata in g["corporations"]:
        if not game.in_game(cdata):
            continue
        corp = Corporation(dict(cdata))
        game.corporations[corp.sym] = corp
        issue_certificates(corp)
    game.companies = {}
    where = f"{game.DATA_PACKAGE.replace('.', '/')}/game.toml"
    for cdata in g["companies"]:
        if not game.in_game(cdata):
            continue
        comp = Company(cdata["sym"], cdata["name"], int(cdata["value"]), int(cdata.get("revenue", 0)),
                       cdata.get("desc", ""), data={k: v for k, v in cdata.items() if k != "abilities"},
                       abilities=parse_abilities(cdata["sym"], cdata.get("abilities"), where=where))
        game.companies[comp.sym] = comp
        check_ability_names(game, comp, where)
    # The private whose exchange starts each corporation (SC in 1882): fixed title data, asked very often.
    game.par_exchanges = {}
    for comp in game.companies.values():
        for exchange in comp.abilities_of(Exchange):
            if exchange.source is ExchangeFrom.PAR:
                for sym in exchange.corporations:
                    game.par_exchanges.setdefault(sym, comp)
    game.phases = g["phases"]
    game.phase_index = 0
    game.depot = []
    game.pool_trains = []
    game.all_trains = {}
    init_trains(game, g["trains"])
    game.operating_rounds = int(game.phases[0]["operating_rounds"])
    game.last_tile_hex = None
    game.last_routes = []
    game.networks = {}
    game.board_cache = {}
    game.pending_tokens = []
    game.routes_seen = set()
    game.setup()
    # After the title's setup, whose own draws (1882's NWR train) come first, as they always have.
    for comp in game.companies.values():
        for ability in comp.abilities_of(Shares):
            ability.draw(game.rng.next, lambda sym: next(s.id for s in game.corporations[sym].shares
                                                         if not s.president))
    # What setup said (1882's draw of the NWR train) is told once, when the game starts, not in digests.
    game.setup_log_length = len(game._log)
    game.round = game.initial_round()
    game.round.start()

def rules_edition(game: HookDefaults) -> int:
    edition = game.options.get("rules_edition", game.RULES_EDITION)
    if isinstance(edition, bool) or not isinstance(edition, int) or not 1 <= edition <= game.RULES_EDITION:
        raise malformed(f"rules edition {edition!r} is not one of {game.TITLE}'s editions: "
                        f"1 to {game.RULES_EDITION}")
    return edition

def check_ability_names(game: HookDefaults, comp: Company, where: str) -> None:
    """Every hex, corporation and certificate a private's abilities name exists (a typo is a DataError)."""
    for ability in comp.abilities:
        missing = ([f"hex {h}" for h in ability.hexes_named() if h not in game.board.hexes]
                   + [f"corporation {c}" for c in ability.corporations_named() if c not in game.corporations]
                   + [f"certificate {c}" for c in ability.certificates_named()
                      if not any(s.id == c for corp in game.corporations.values() for s in corp.shares)])
        if missing:
            raise DataError(f"{where}: company {comp.sym}: its {ability.TYPE} ability names no such "
                            f"{', '.join(missing)}")

def init_tiles(game: HookDefaults, tdata: dict[str, Any]) -> None:
    catalogue = shared_catalogue()
    game.tile_defs = {}
    for name, text in tdata.get("special", {}).items():
        game.tile_defs[name] = parse_tile(name, text)
    game.tile_supply = {}
    game.unlimited_tiles = set()
    for name, count in tdata["manifest"].items():
        tdef = game.tile_defs.get(name) or catalogue.get(name)
        if tdef is None:
            raise malformed(f"tile {name} is in the manifest but has no geometry")
        game.tile_defs[name] = tdef
        if count == "unlimited":
            game.unlimited_tiles.add(name)
            count = 1
        for i in range(int(count)):
            game.tile_supply[f"{name}-{i}"] = Tile(f"{name}-{i}", tdef)
    game.tile_counts = {name: (None if count == "unlimited" else int(count))
                        for name, count in tdata["manifest"].items()}

def issue_certificates(corp: Corporation) -> None:
    """The company's certificates: the director's and its shares, numbered as 18xx.games numbers them."""
    if not corp.issues_shares:
        return
    pres, share = corp.president_percent, corp.share_percent
    corp.shares.append(Share(f"{corp.sym}_0", corp.sym, pres, True, corp))
    for i in range(1, (100 - pres) // share + 1):
        corp.shares.append(Share(f"{corp.sym}_{i}", corp.sym, share, False, corp))

def init_trains(game: HookDefaults, tdata: list[dict[str, Any]]) -> None:
    for spec in tdata:
        count = spec["count"]
        n = 1 if count == "unlimited" else int(count)
        for i in range(n):
            game.trains.new_train(spec, i)
