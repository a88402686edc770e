"""Saskatchewan Central (1882 rules §7.1 P2): the private converts into the SC company, which adds an extra
train set aside at setup to the depot and places its home station in any city with room or a neutral station;
once the private has closed or a company owns it, SC can no longer be converted."""

from __future__ import annotations

from ...core.entities import Corporation, Train
from .state import Game1882


def set_aside_trains(game: Game1882) -> dict[str, Train]:
    """One train of each of 3, 4, 5, 6 is set aside for SC; the last of each type."""
    reserve: dict[str, Train] = {}
    names: list[str] = game.data()["game"]["sc_extra_trains"]["types"]
    for name in names:
        train = [t for t in game.depot if t.name == name][-1]
        game.depot.remove(train)
        train.reserved = True
        reserve[name] = train
    return reserve


def converted(game: Game1882, corp: Corporation) -> None:
    """SC, just parred: its extra train, and its home station anywhere."""
    if not corp.data.get("home_anywhere"):
        return
    _add_sc_train(game, corp)
    game.pending_tokens.append((corp, home_hexes(game, corp), corp.tokens[0]))


def _add_sc_train(game: Game1882, corp: Corporation) -> None:
    game.sc_convertible = False
    first = game.trains.available_depot_trains()[0]
    extra = game.sc_reserve.pop(first.name, None)
    if extra is None:
        return
    extra.reserved = False
    game.depot.insert(game.depot.index(first), extra)
    game.log(f"{corp.sym} adds an extra {extra.name} train to the depot")


def home_hexes(game: Game1882, corp: Corporation) -> list[str]:
    out = []
    for hx in game.board.hexes.values():
        for node, slots in hx.tile.tokens.items():
            if "CN" in slots or game.track.free_slot(hx, node, corp.sym) is not None:
                out.append(hx.id)
                break
    return out


def check_convertible(game: Game1882) -> None:
    sc_company = game.companies["SC"]
    sc = game.corporations.get("SC")
    if sc is not None and not sc.ipoed and game.sc_convertible and (
            sc_company.closed or isinstance(sc_company.owner, Corporation)):
        game.round.forget()  # after the action (action_processed): what the steps answered no longer holds
        game.sc_convertible = False
        sc.closed = True
        game.log("Saskatchewan Central can no longer be converted to a public corporation")
