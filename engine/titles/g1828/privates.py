"""1828's privates (rules 13): the $250 privates removed for fewer players, companies buying privates for $1 to
twice face value, the M&H's exchange for a share, and the D&H's free station after its lay in Scranton."""

from __future__ import annotations

from ...core.actions import Action, opt_whole, text
from ...core.entities import Company, Corporation, CorporationKind, Player, Share
from ...core.errors import illegal
from . import minor as cp
from .state import Game1828


def remove_extra_privates(game: Game1828) -> None:
    big = [c for c in game.companies.values() if c.value == 250]
    for company in game.rng.shuffled(big)[: 7 - len(game.players)]:
        company.closed = True
        # Say "private" and the price: the public company of the same symbol (MC, NYC, ...) stays in play.
        game.log(f"The ${company.value} private {company.sym} ({company.name}) is removed")


def bought_by_player(game: Game1828, player: Player, company: Company) -> None:
    """The C&P's private makes its buyer the minor's owner."""
    minor_sym = company.data.get("minor")
    if minor_sym:
        minor = game.corporations[str(minor_sym)]
        minor.owner = player
        minor.floated = True
        minor.ipoed = True


def can_buy_company(game: Game1828, corp: Corporation) -> bool:
    if not game.phase.get("can_buy_companies") or corp.kind is CorporationKind.MINOR:
        return False
    return corp.cash >= 1 and any(game.runs.company_for_sale(c) for c in game.companies.values())


def after_bought_by_company(game: Game1828, corp: Corporation, company: Company) -> None:
    """Bought for $1 to twice face value (rules 13.2, ``company_price_range``). A bought C&P brings its
    treasury, earns $15 and gives the buyer a free station in Peterborough; a bought StCT earns $10."""
    game.round.just_sold_company = company  # type: ignore[attr-defined]
    if company.data.get("revenue_when_sold"):
        company.revenue = int(company.data["revenue_when_sold"])
    minor_sym = company.data.get("minor")
    if minor_sym:
        cp.bought_by_company(game, corp, company, str(minor_sym))


def exchange_shares(game: Game1828, company: Company) -> list[Share]:
    """The shares the M&H may be exchanged for: the first ordinary share in each company's IPO and in the
    market (18xx.games offers any company, started or not)."""
    if company.closed or not company.data.get("exchange_any") or not isinstance(company.owner, Player):
        return []
    out = []
    for corp in game.corporations.values():
        if corp.closed or corp.kind is CorporationKind.MINOR:
            continue
        ipo = next((s for s in corp.shares if not s.president), None)
        pool = next((s for s in game.pool.shares if s.corp == corp.sym), None)
        out += [s for s in (ipo, pool) if s is not None]
    return out


def exchange_company(game: Game1828, company: Company, share: Share) -> None:
    owner, corp, previous = game.shares.exchange_private(company, share)
    game.shares.check_float(corp)
    if corp.ipoed:
        game.check_presidency(corp, previous=previous)
    else:
        take_unparred_directorship(game, owner, corp)


def take_unparred_directorship(game: Game1828, player: Player, corp: Corporation) -> None:
    """A player whom the exchange brings to the director's share of a company nobody has parred (the C&A's 10%
    of the PRR and the M&H) swaps two certificates for the director's certificate and presides it unparred;
    whoever pars it later buys an ordinary certificate (18xx.games; rule 13.3.3 read to the letter)."""
    cert = next((s for s in corp.shares if s.president), None)
    if cert is None or player.percent_of(corp.sym) < cert.percent:
        return
    plain = [s for s in player.shares_of(corp.sym) if not s.president][:cert.percent // corp.share_percent]
    for share in plain:
        game.shares.transfer_share(share, corp)
    game.shares.transfer_share(cert, player)
    corp.owner = player
    game.log(f"{player.name} becomes the president of {corp.sym}")


def lay_station_offer(game: Game1828, company: Company, hex_id: str) -> None:
    """After the D&H's lay in Scranton its company may place a station there for free, off its network and
    past the usual limits, when it has a station left, has placed none this round and a space is free (rules
    8.3.2, 13.2.2.4)."""
    corp = company.owner
    assert isinstance(corp, Corporation)
    if lay_station_cities(game, corp, hex_id):
        game.lay_station_owed[company.sym] = hex_id
        return
    reason = ("has no station left" if not corp.unused_tokens() else
              "has placed a station this round" if corp.sym in game.tokened_this_round else
              f"finds no space it may take in {hex_id}")
    game.log(f"{corp.sym} {reason}, so {company.sym} places no station")


def lay_station_cities(game: Game1828, corp: Corporation, hex_id: str) -> list[int]:
    token = next(iter(corp.unused_tokens()), None)
    if token is None or corp.sym in game.tokened_this_round:
        return []
    hx = game.board[hex_id]
    return [node for node in hx.tile.tdef.cities if game.can_token_city(corp, hx, node, token)]


def lay_station_place(game: Game1828, company: Company, action: Action) -> None:
    corp = company.owner
    hex_id = game.lay_station_owed.get(company.sym)
    assert isinstance(corp, Corporation) and hex_id is not None
    hx, node = game.track.city_by_id(text(action, "city"))
    if hx.id != hex_id:
        raise illegal(f"{company.sym}'s station goes in {hex_id}, not {hx.id}")
    if node not in lay_station_cities(game, corp, hex_id):
        raise illegal(f"{corp.sym} cannot place a station in that city of {hex_id}")
    slot = opt_whole(action, "slot")
    if slot is not None and not (isinstance(slot, int) and 0 <= slot < len(hx.tile.tokens[node])):
        raise illegal(f"{hx.id} has no station space {slot}")
    game.track.place_token(corp, corp.unused_tokens()[0], hx, node, free=True, slot=slot)
    del game.lay_station_owed[company.sym]
    game.tokened_this_round.add(corp.sym)


def lay_station_pass(game: Game1828, company: Company) -> None:
    hex_id = game.lay_station_owed.pop(company.sym)
    game.log(f"{game.describe(company.owner)} places no station in {hex_id} with {company.sym}")
