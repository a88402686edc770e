"""Out-of-turn prompts and obligations: what a player may or must do that is not their turn's business.

* A private's power that its owner may use outside their own turn (1862's Erie tile at any time, a power
  usable in another company's operating turn) is easy to miss in an asynchronous game, and lost once its window
  passes. When such a power becomes usable while its owner is not the one acting, the owner gets a personal
  prompt with one-click buttons: each way to use it, and the power's own pass ("let it go") where it has one.
* A player over the certificate limit must sell the excess in their next stock round turn (1862 §8.3, and
  every title with a certificate limit): the reply that puts them over says so, and so does each turn ping
  while it lasts.

Pure functions of the engine's state; :mod:`bot.core.auto_verbs` sends what they find.
"""

from __future__ import annotations

from bot.core.choices import typed_commands
from bot.core.notify import acting_player_ids
from bot.core.replies import Button
from engine.api import Game
from engine.core.entities import Company, Player

#: Buttons on one prompt at most (platforms show about ten; one is the "let it go").
MAX_USE_BUTTONS = 8


def out_of_turn_powers(game: Game) -> dict[str, int]:
    """Privates whose power may be used now by a player who is not acting: symbol -> that player's id."""
    if game.finished:
        return {}
    acting = set(acting_player_ids(game))
    out: dict[str, int] = {}
    for comp in game.companies.values():
        if comp.closed or not game.actions_for(comp):
            continue
        owner = game.acting_player(comp)
        if isinstance(owner, Player) and owner.id not in acting:
            out[str(comp.sym)] = owner.id
    return out


def closing_soon(game: Game, sym: str) -> str | None:
    """The phase the next train from the depot starts, when that phase closes this private (else None)."""
    phase = game.trains.closing_phase(game.companies[sym])
    trains = game.trains.available_depot_trains()
    if phase is None or not trains:
        return None
    name = trains[0].name
    for later in game.phases[game.phase_index + 1 :]:
        on = later.get("on")
        if name == on or (isinstance(on, list) and name in on):
            return phase if str(later["name"]) == str(phase) else None
    return None


def reasons(game: Game, usable: dict[str, int]) -> dict[str, str]:
    """Why to prompt about each usable power, as a key remembered so each is prompted once: "ERIE:open" when it
    may be used (the first time), "ERIE:closing:5" when the next train closes it."""
    out = {}
    for sym in usable:
        soon = closing_soon(game, sym)
        out[sym] = f"{sym}:closing:{soon}" if soon is not None else f"{sym}:open"
    return out


def prompt(game: Game, sym: str, player: Player, seq: int) -> tuple[str, tuple[Button, ...]]:
    """The text and buttons of the prompt for one private's power (and when it is lost, if soon)."""
    comp: Company = game.companies[sym]
    prefix = sym.lower()
    uses = [" ".join(words) for _, words in typed_commands(game, player) if words and words[0] == prefix]
    pass_command = f"{prefix} pass"
    lets_go = pass_command in uses
    uses = [u for u in uses if u != pass_command]
    buttons = [Button(f"Use: {u}", f"@{seq} {u}", "primary") for u in uses[:MAX_USE_BUTTONS]]
    if lets_go:
        buttons.append(Button("Let it go", f"@{seq} {pass_command}", "secondary"))
    listed = ", ".join(f"`{u}`" for u in uses[:4]) + (f" (+{len(uses) - 4} more: `moves`)" if len(uses) > 4 else "")
    soon = closing_soon(game, sym)
    when = (f"The next train bought starts phase {soon}, which closes {comp.sym}: use it before then or it is lost. "
            if soon is not None else "")
    text = (
        f"{comp.sym} ({comp.name}) may use its power now, outside your turn: {listed or '`moves` shows how'}. "
        + when
        + (f"To let it go, send `{pass_command}`." if lets_go else "Nothing needs to be sent to let it go.")
    )
    return text, tuple(buttons)


def over_limit(game: Game) -> dict[int, str]:
    """Players over the certificate limit, each with the sentence saying what they must do."""
    if game.finished:
        return {}
    limit = game.cert_limit
    out: dict[int, str] = {}
    for player in game.players:
        certs = game.num_certs(player)
        if certs > limit:
            out[player.id] = (
                f"{player.name} holds {certs:g} certificates, over the limit of {limit}: {player.name} must sell "
                "the excess in their next stock round turn."
            )
    return out
