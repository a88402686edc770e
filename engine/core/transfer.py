"""Moving assets between corporations: cash, trains, station tokens, private companies, certificates, markers.

1822's majors acquire minors and 1828's companies merge into systems; both are built from these moves. Each
move keeps the game's books whole: cash only changes hands (the total stays), a certificate has one holder and
sits in that holder's list (each company still sums to 100%), a train is in its owner's list and names it, and a
token on the map is in exactly one company's list, or in none when it became a blocking marker or left the game.
When a merger or acquisition is allowed, and who chooses what, is the title's rule, not this module's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from . import events as ev
from .board import Board
from .entities import Company, Corporation, Holder, Player, Share, Token, Train, pay
from .errors import illegal, insufficient
from .tiles import TokenKind

# The symbol a blocking marker shows in its slot, as 18xx.games' 1828 blocking corporation.
BLOCKING_OWNER = "B"


class BoardListener(Protocol):
    def board_changed(self) -> None: ...


class TransferState(Protocol):
    """What the moves read and change: the map (for stations) and the game's listeners."""

    board: Board
    corporations: dict[str, Corporation]

    @property
    def track(self) -> BoardListener: ...

    def log(self, line: str) -> None: ...


class TokenFate(StrEnum):
    """What becomes of a station of the company giving up its assets."""

    KEEP = "keep"  # the token itself changes hands: the station stays and is the receiver's
    REPLACE = "replace"  # one of the receiver's unused tokens takes the space; the giver's leaves the game
    REMOVE = "remove"  # the station leaves the game and its space is free again
    BLOCK = "block"  # the station becomes a blocking marker: the space stays taken, for nobody


def move_cash(source: Holder, target: Holder, amount: int) -> None:
    """Raises:
        GameError: (illegal) a negative amount; (insufficient) more than ``source`` has.
    """
    if amount < 0:
        raise illegal(f"cannot move a negative amount ({amount})")
    if amount > source.cash:
        raise insufficient(f"{source.name} has {source.cash}, not {amount}")
    pay(source, target, amount, ev.Why.MERGER)


def move_trains(source: Corporation, target: Corporation, trains: Iterable[Train] | None = None) -> list[Train]:
    """Hand ``trains`` (all of ``source``'s when None) to ``target``; whether they ran this round goes with them.

    Raises:
        GameError: (illegal) a train ``source`` does not own.
    """
    moving = list(source.trains if trains is None else trains)
    for train in moving:
        if train.owner is not source or train not in source.trains:
            raise illegal(f"{source.sym} does not own train {train.id}")
    for train in moving:
        source.trains.remove(train)
        train.owner = target
        target.trains.append(train)
        ev.emit(ev.TrainMoved(train.id, train.name, source.party, target.party, ev.TrainHow.HANDED))
    return moving


def move_companies(source: Player | Corporation, target: Player | Corporation,
                   companies: Iterable[Company] | None = None) -> list[Company]:
    """Hand private companies (all of ``source``'s open ones when None) to ``target``.

    Raises:
        GameError: (illegal) a company ``source`` does not own.
    """
    moving = [c for c in source.companies if not c.closed] if companies is None else list(companies)
    for comp in moving:
        if comp.owner is not source or comp not in source.companies:
            raise illegal(f"{source.name} does not own {comp.sym}")
    for comp in moving:
        source.companies.remove(comp)
        comp.owner = target
        target.companies.append(comp)
        ev.emit(ev.PrivateMoved(comp.sym, source.party, target.party))
    return moving


def move_shares(shares: Iterable[Share], target: Holder) -> list[Share]:
    """Hand certificates to ``target`` (the presidency is for the caller to settle: ``Game.check_presidency``)."""
    moving = list(shares)
    for share in moving:
        giver = share.owner
        giver.shares.remove(share)
        target.shares.append(share)
        share.owner = target
        ev.emit(ev.ShareMoved(share.id, share.corp, share.percent, share.president, giver.party, target.party))
    return moving


def return_certificates(holders: Iterable[Holder], corp: Corporation) -> list[Share]:
    """Every certificate of ``corp`` back to its IPO, as a company leaves the game (an acquired 1822 minor): the
    company still sums to 100%, held by nobody."""
    moving = [s for h in holders if h is not corp for s in h.shares if s.corp == corp.sym]
    return move_shares(moving, corp)


def placed_tokens(corp: Corporation) -> list[Token]:
    """``corp``'s stations on the map that are its own (not neutral ones it placed for another)."""
    return [t for t in corp.tokens if t.used and t.corp == corp.sym]


def shared_hexes(source: Corporation, target: Corporation) -> set[str]:
    """Hexes where both companies have a station: after a merger one of the two must go or block."""
    mine = {t.hex for t in placed_tokens(target)}
    return {t.hex for t in placed_tokens(source) if t.hex in mine and t.hex is not None}


def move_token(state: TransferState, token: Token, source: Corporation, target: Corporation,
               fate: TokenFate) -> Token | None:
    """Settle one of ``source``'s tokens as ``fate`` says; returns the token on the map afterwards (None when the
    space is free or holds a blocking marker). An unused token moves to ``target`` on KEEP and leaves the game
    otherwise.

    Raises:
        GameError: (illegal) a token ``source`` does not hold, or REPLACE when ``target`` has no unused token.
    """
    if token not in source.tokens:
        raise illegal(f"{source.sym} does not hold that token")
    if not token.used:
        source.tokens.remove(token)
        if fate is TokenFate.KEEP:
            _reown(token, source, target)
            target.tokens.append(token)
        return token if fate is TokenFate.KEEP else None
    assert token.hex is not None
    hx = state.board.hexes[token.hex]
    slots, kinds = hx.tile.tokens[token.node], hx.tile.kinds[token.node]
    placed: Token | None = None
    old_owner = slots[token.slot]
    if fate is TokenFate.REPLACE:
        spare = next((t for t in target.tokens if not t.used and t.kind is TokenKind.NORMAL), None)
        if spare is None:
            raise illegal(f"{target.sym} has no token left to replace {source.sym}'s in {hx.id}")
        spare.used, spare.hex, spare.node, spare.slot = True, token.hex, token.node, token.slot
        slots[token.slot], kinds[token.slot] = spare.corp, spare.kind
        placed = spare
    elif fate is TokenFate.KEEP:
        _reown(token, source, target)
        slots[token.slot] = token.corp
        target.tokens.append(token)
        placed = token
    elif fate is TokenFate.BLOCK:
        slots[token.slot], kinds[token.slot] = BLOCKING_OWNER, TokenKind.BLOCKING
    else:
        slots[token.slot], kinds[token.slot] = None, TokenKind.NORMAL
    ev.emit(ev.StationChanged(hx.id, token.node, token.slot, old_owner, slots[token.slot],
                              kinds[token.slot].value))
    source.tokens.remove(token)
    if placed is not token:
        token.used, token.hex, token.node, token.slot = False, None, -1, -1
    state.track.board_changed()
    state.log(f"{source.sym}'s station in {hx.id}: {fate.value}" + (f" ({target.sym})" if placed else ""))
    return placed


def _reown(token: Token, source: Corporation, target: Corporation) -> None:
    # A neutral token stays the neutral company's; only the giver's own stations change their name.
    if token.corp == source.sym:
        token.corp = target.sym


def move_tokens(state: TransferState, source: Corporation, target: Corporation,
                fate: Callable[[Token], TokenFate]) -> None:
    """Settle every token of ``source``, placed or not, as ``fate(token)`` decides (see ``default_fate``)."""
    for token in list(source.tokens):
        move_token(state, token, source, target, fate(token))


def default_fate(source: Corporation, target: Corporation, *, duplicate: TokenFate = TokenFate.BLOCK,
                 unused: TokenFate = TokenFate.KEEP) -> Callable[[Token], TokenFate]:
    """Stations stay and change hands, except where ``target`` already has one in the hex (``duplicate``: 1828
    blocks, 1822 removes); unused tokens as ``unused`` says (1828's system keeps both sets)."""
    shared = shared_hexes(source, target)

    def fate(token: Token) -> TokenFate:
        if not token.used:
            return unused
        return duplicate if token.hex in shared else TokenFate.KEEP
    return fate


def move_markers(source: Corporation, target: Corporation) -> list[str]:
    """Named markers (1828's coal marker) go to ``target``, which holds each name once."""
    moved = [m for m in source.markers if m not in target.markers]
    target.markers.extend(moved)
    source.markers.clear()
    return moved


@dataclass(slots=True)
class Absorbed:
    """What one ``absorb`` moved."""

    cash: int = 0
    trains: list[Train] = field(default_factory=list)
    companies: list[Company] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)
    loans: int = 0
    debt: int = 0


def absorb(state: TransferState, source: Corporation, target: Corporation, *,
           fate: Callable[[Token], TokenFate] | None = None, trains: Sequence[Train] | None = None,
           take_debts: bool = True) -> Absorbed:
    """Everything ``source`` has goes to ``target``: cash, trains (all, or ``trains``; the rest stay for the caller
    to discard), private companies, markers, tokens (as ``fate`` decides, ``default_fate`` when None), and, when
    ``take_debts``, its loans and debt. ``source``'s certificates are left where they are: exchanging or returning
    them is the title's merger rule (``move_shares``, ``return_certificates``)."""
    out = Absorbed(cash=source.cash)
    move_cash(source, target, source.cash)
    out.trains = move_trains(source, target, trains)
    out.companies = move_companies(source, target)
    move_tokens(state, source, target, fate or default_fate(source, target))
    out.markers = move_markers(source, target)
    if take_debts:
        out.loans, out.debt = source.loans, source.debt
        target.loans += source.loans
        target.debt += source.debt
        source.loans = source.debt = 0
    state.log(f"{target.sym} takes over {source.sym}'s assets")
    ev.emit(ev.Acquired(target.sym, source.sym, out.cash, tuple(t.name for t in out.trains),
                        tuple(c.sym for c in out.companies)))
    return out
