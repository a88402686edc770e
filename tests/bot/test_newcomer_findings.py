"""The newcomer play-test's findings on the command language (../shared/reference/reviews/newcomer-all-titles.md),
each as the player met it."""

from __future__ import annotations

import pickle
import random
import re

import pytest

from bot.console.scripted import command_intent
from bot.core.commands import CommandError, help_text, parse
from bot.core.intents import deciding_player, match_hex
from bot.core.replies import Outcome
from engine import new_game
from engine.core import query
from engine.core.entities import Player
from engine.core.events import RouteRun
from engine.core.game import Game
from engine.playout import _weight
from tests.bot.conftest import Table


async def test_unknown_optional_rules_are_refused_with_the_titles_rules(table: Table) -> None:
    """F2: `new 1822 plus` and `new 1822 foo` created a plain 1822 game in silence."""
    for word in ("plus", "foo"):
        reply = await table.say("alice", f"new 1822 {word}")
        assert not reply.ok
        assert f"1822 has no optional rule {word}" in reply.text
        assert "plus_expansion, plus_expansion_no_removals, plus_expansion_single_stack, tax_haven_multiple" \
            in reply.text
    assert "did you mean plus_expansion" in (await table.say("alice", "new 1822 plus")).text
    reply = await table.say("alice", "new 1882 plus_expansion")
    assert not reply.ok and "1882 has no optional rules" in reply.text


async def test_1822_plus_is_named_and_started_as_1822_plus(table: Table) -> None:
    """F2: `new 1822+` made a plain 1822; start and status said "1822" for a real 1822+ game."""
    reply = await table.say("alice", "new 1822+ seed=5")
    assert reply.ok, reply.text
    assert "alice created 1822+ game" in reply.text
    for user in ("bob", "carol"):
        assert (await table.say(user, "join")).ok
    reply = await table.say("alice", "start")
    assert reply.ok and "(1822+) starts" in reply.text
    status = await table.say("alice", "status")
    assert status.ok
    assert "1822+" in status.text.splitlines()[0]
    # the turn ping names the game as its players call it, not by its base title
    pings = [n.text for n in reply.notify if n.text.startswith("Your turn in")]
    assert pings and all(p.startswith("Your turn in 1822+ game #") for p in pings), pings


async def test_plus_expansion_by_its_name_makes_1822_plus(table: Table) -> None:
    reply = await table.say("alice", "new 1822 PLUS_EXPANSION")
    assert reply.ok and "created 1822+ game" in reply.text and "Optional rules: plus_expansion." in reply.text


def test_help_1822_says_how_to_start_1822_plus() -> None:
    """F2: the option's name appeared neither in `help` nor in the README."""
    text = help_text("1822")
    assert "`new 1822 plus_expansion`" in text and "`new 1822+`" in text
    assert "plus_expansion_single_stack" in text
    assert "1882 has no optional rules" in help_text("1882")
    assert "new 1822 plus_expansion" in help_text("new")


def _1882(seed: int = 7) -> Game:
    return new_game("1882", [(1, "alice"), (2, "bob"), (3, "carol")], seed=seed)


def test_a_bid_on_the_private_for_sale_names_its_price() -> None:
    """F4: `bid CP 190` when only `buy CP` ($180) was open bought CP for $190; 1882 §9 sells it at its price."""
    game = _1882()
    cheapest = game.round.active_step().companies[0]
    player = deciding_player(game.acting()[0])
    assert isinstance(player, Player)
    price = cheapest.min_bid
    with pytest.raises(CommandError) as info:
        command_intent(game, player, f"bid {cheapest.sym} {price + 10}")
    assert info.value.message == (f"{cheapest.sym} is not up for bids: it can be bought now for "
                                  f"{game.format_money(price)}, `buy {cheapest.sym}`")
    assert command_intent(game, player, f"buy {cheapest.sym}").action["price"] == price


def test_a_hex_off_the_map_suggests_its_neighbours() -> None:
    """F15: `lay G12 57 0` suggested N12."""
    game = _1882()
    with pytest.raises(CommandError) as info:
        match_hex(game, "G12")
    assert "did you mean F12 or G11 or H12?" in info.value.message


def test_a_move_copied_from_moves_with_its_colon_and_rot_reads() -> None:
    """F15: `lay F31: X4 rot 0`, as `moves` writes it, was refused ("no hex F31:")."""
    assert parse("rmc lay F31: X4 rot 0").args == ("lay", "F31", "X4", "rot", "0")
    game = _1882()
    for _ in range(400):  # to the first operating round's tile lay
        if any("lay_tile" in game.actions_for(e) for e in game.acting()):
            break
        options = [c for e in query.deciding_entities(game) for c in query.all_choices(game, e)]
        game.process(sorted(options, key=lambda a: a["type"] != "par" and a["type"] != "buy_shares")[0])
    corp = game.acting()[0]
    player = deciding_player(corp)
    assert isinstance(player, Player)
    choice = query.choices(game, corp, "lay_tile")[0]
    tile = str(choice["tile"]).rsplit("-", 1)[0]
    copied = f"lay {choice['hex']}: {tile} rot {choice['rotation']}"
    assert command_intent(game, player, copied).action["hex"] == choice["hex"]


def test_buy_col_suggests_buy_coal() -> None:
    """F15: `buy col` in 1828 suggested C&O."""
    game = new_game("1828", [(1, "alice"), (2, "bob"), (3, "carol")], seed=11)
    player = deciding_player(game.acting()[0])
    assert isinstance(player, Player)
    with pytest.raises(CommandError) as info:
        command_intent(game, player, "buy col")
    assert "did you mean `buy coal`?" in info.value.message


def test_a_refused_redemption_gives_the_engines_reason() -> None:
    """F8: 1862 `redeem treasury` said only "cannot redeem now" (the company needed $329 and had $200)."""
    rng = random.Random(3)
    game = new_game("1862", [(i + 1, f"p{i + 1}") for i in range(4)], seed=3)
    for _ in range(400):
        corp = next((e for e in game.acting() if "redeem_shares" in game.actions_for(e)), None)
        if corp is not None and not any(c["kind"] == "treasury" for c in query.choices(game, corp, "redeem_shares")):
            player = deciding_player(corp)
            assert isinstance(player, Player)
            with pytest.raises(CommandError) as info:
                command_intent(game, player, "redeem treasury")
            reason = rf"{corp.sym} cannot redeem now \({corp.sym} needs \$\d+ and has \$\d+"
            assert re.search(reason, info.value.message)
            return
        options = [c for e in query.deciding_entities(game) for c in query.reference_choices(game, e)]
        game.process(rng.choices(options, [_weight(o, "random") for o in options])[0])
    raise AssertionError("no redemption the treasury cannot pay for came up")


def test_a_typed_run_that_leaves_a_train_idle_is_asked_about() -> None:
    """F10: `run 2 J6-K11` was stored with the 3-train idle, paying half of what `run auto` pays."""
    rng = random.Random(1)
    game = _1882(1)
    for _ in range(1500):
        corp = next((e for e in game.acting() if "run_routes" in game.actions_for(e)), None)
        best = query.choices(game, corp, "run_routes") if corp is not None else []
        if corp is not None and best and len(best[0]["routes"]) >= 2:
            copy = pickle.loads(pickle.dumps(game))
            runs = copy.process(best[0]).of(RouteRun)
            words = ["run", *(w for r in runs for w in (r.train, "-".join(s.hex for s in r.stops)))]
            one_train = " ".join(words[:3])
            player = deciding_player(corp)
            assert isinstance(player, Player)
            with pytest.raises(CommandError) as info:
                command_intent(game, player, one_train)
            assert info.value.outcome == Outcome.PENDING
            assert "-train does not run: as typed" in info.value.message
            assert "the best run (`run auto`) earns" in info.value.message
            assert f"send `{one_train} confirm`" in info.value.message
            assert len(command_intent(game, player, one_train + " confirm").action["routes"]) == 1
            return
        options = [c for e in query.deciding_entities(game) for c in query.reference_choices(game, e)]
        game.process(rng.choices(options, [_weight(o, "random") for o in options])[0])
    raise AssertionError("no company ran two trains")


async def test_1828_status_and_companies_say_what_1828_is(table: Table) -> None:
    """F17: "certs 5/99" (1828 has no certificate limit), the C&P among the public companies and
    "Removing Michigan Central Railroad" for a $250 private while the public company MC stays."""
    assert (await table.say("alice", "new 1828 seed=11")).ok
    for user in ("bob", "carol", "dave"):
        assert (await table.say(user, "join")).ok
    start = await table.say("alice", "start")
    assert start.ok
    status = (await table.say("alice", "status")).text
    assert "no certificate limit" in status and "/99" not in status
    companies = (await table.say("alice", "companies")).text
    public, _, minors = companies.partition("Minor companies")
    assert "C&P Cobourg" not in public.split("Public companies:")[1] and "C&P Cobourg" in minors
    game = new_game("1828", [(1, "alice"), (2, "bob"), (3, "carol"), (4, "dave")], seed=11)
    gone = [c for c in game.companies.values() if c.value == 250 and c.closed]
    log = "\n".join(game.log_lines)
    assert gone and not any(f"Removing {c.name}" in log for c in gone)
    assert all(f"The $250 private {c.sym} ({c.name}) is removed" in log for c in gone)


async def test_1822_companies_status_and_bids_say_what_is_where(table: Table) -> None:
    """F18: items still in the stacks were "for sale", the phase line gave only the majors' train limit, a bid
    gave no count of the bids left this turn, and a player's cash did not show what standing bids hold back."""
    assert (await table.say("alice", "new 1822 seed=5")).ok
    for user in ("bob", "carol"):
        assert (await table.say(user, "join")).ok
    assert (await table.say("alice", "start")).ok
    companies = (await table.say("alice", "companies")).text
    assert re.search(r"M\d+ MINOR: \d+\.[^\n]*in the stack \(not yet in a bid box\)", companies)
    assert not re.search(r"M\d+ MINOR[^\n]*for sale", companies)
    status = (await table.say("alice", "status")).text
    assert "train limit 4 (minors 2)" in status
    boxed = re.findall(r"  (M\d+) MINOR[^\n]*in a bid box, no bid yet", companies)
    bidder = re.search(r"Waiting for: (\w+)", status)
    assert len(boxed) >= 2 and bidder
    who = bidder.group(1)
    first = await table.say(who, f"bid {boxed[0]} 100")
    assert first.ok and "(bid 1 of 3 this turn)" in first.text
    second = await table.say(who, f"bid {boxed[1]} 110")
    assert second.ok and "(bid 2 of 3 this turn)" in second.text
    status = (await table.say(who, "status")).text
    assert re.search(rf"{who} +£\d[\d,]* \(£210 in bids\)", status)


async def test_1862_keep_or_withdraw_says_what_each_does(table: Table) -> None:
    """F13: "alice must decide …: `bid keep`, `bid withdraw`" said nothing of where the earmarked money goes."""
    assert (await table.say("alice", "new 1862 seed=3")).ok
    for user in ("bob", "carol", "dave"):
        assert (await table.say(user, "join")).ok
    assert (await table.say("alice", "start")).ok
    assert (await table.say("alice", "bid ERIE 45")).ok
    reply = await table.say("bob", "bid ERIE 50")
    assert reply.ok
    assert "`bid keep` (the $45 bid on ERIE stands and its money stays earmarked; alice joins the auction" in reply.text
    assert "`bid withdraw` (the $45 bid on ERIE is taken back and its money is free again)" in reply.text


def test_1828_a_train_owed_before_selling_says_to_sell_first() -> None:
    """F8: 1828 `train 8E` in an emergency before selling said "cannot buy a 8E train now; it can buy: none"."""
    for seed in (4, 26, 27, 1, 2, 3):
        rng = random.Random(seed)
        game = new_game("1828", [(i + 1, f"p{i + 1}") for i in range(4)], seed=seed)
        for _ in range(1500):
            if game.finished:
                break
            for corp in game.acting():
                kinds = game.actions_for(corp)
                player = deciding_player(corp)
                depot = game.trains.available_depot_trains()
                if "buy_train" not in kinds or "pass" in kinds or "bankrupt" in kinds or getattr(corp, "trains", 1) \
                        or not isinstance(player, Player) or not depot:
                    continue
                train = min(depot, key=lambda t: t.price)
                if train.price <= corp.cash + player.cash:
                    continue
                with pytest.raises(CommandError) as info:
                    command_intent(game, player, f"train {train.name}")
                said = info.value.message
                wanted = (rf"cannot buy the {re.escape(train.name)} train \(\$\d+\) yet \({player.name} must raise "
                          r"\$\d+ more by selling shares\): sell shares first; you can: `sell ")
                assert re.search(wanted, said), said
                assert "it can buy: none" not in said
                return
            options = [c for e in query.deciding_entities(game) for c in query.reference_choices(game, e)]
            game.process(rng.choices(options, [_weight(o, "random") for o in options])[0])
    raise AssertionError("no 1828 company owed a train its president had to sell for")


def test_1828_buy_a_private_named_like_a_company_in_the_auction_says_which_and_why() -> None:
    """F17: `buy CPR` in the auction said "CPR cannot be bought outright now" (the private and the public
    company share the symbol)."""
    game = new_game("1828", [(1, "alice"), (2, "bob"), (3, "carol"), (4, "dave")], seed=11)
    player = deciding_player(game.acting()[0])
    assert isinstance(player, Player)
    with pytest.raises(CommandError) as info:
        command_intent(game, player, "buy CPR")
    assert info.value.message == (
        "the $250 private CPR (Canadian Pacific Railroad) is not sold at a fixed price now, it goes to the "
        "highest bid; to bid: `bid CPR 255`; shares of the public company CPR are bought in a stock round")


def test_1828_merge_with_no_qualifying_pair_says_what_a_merger_needs() -> None:
    """F8: 1828 `merge CPR` in a stock round said "dave cannot merge now; you can: buy, par, sell, pass", not that
    no pair of the player's companies qualifies (§7.5.1)."""
    rng = random.Random(2)
    game = new_game("1828", [(i + 1, f"p{i + 1}") for i in range(4)], seed=2)
    for _ in range(600):
        seat = game.acting()[0]
        player = deciding_player(seat)
        owned = [c.sym for c in game.corporations.values() if c.owner is player]
        if "Stock" in game.round.name() and owned and isinstance(player, Player) \
                and "choose" not in game.actions_for(seat):
            with pytest.raises(CommandError) as info:
                command_intent(game, player, f"merge {owned[0]}")
            said = info.value.message
            assert said.startswith(f"{player.name} cannot merge now: two public companies may merge in a stock round "
                                   "when one is yours, both have operated or neither has, one has floated, and one "
                                   "player holds six of their shares together")
            assert "no pair of yours qualifies now; you can: `" in said
            return
        options = [c for e in query.deciding_entities(game) for c in query.reference_choices(game, e)]
        game.process(rng.choices(options, [_weight(o, "random") for o in options])[0])
    raise AssertionError("no stock round turn of a president without a merger came up")


def test_1822_merge_with_a_minor_out_of_reach_says_why() -> None:
    """F8: 1822 `merge 7` said "CR cannot merge with 7; it can merge with: 6", with no reason; a major with no
    minor in reach was told "there is no merger to make now; you can: `merge`, `pass`"."""
    rng = random.Random(2)
    game = new_game("1822", [(i + 1, f"p{i + 1}") for i in range(3)], seed=2)
    said: list[str] = []
    for _ in range(1500):
        for major in [e for e in game.acting() if "merge" in game.actions_for(e)]:
            player = deciding_player(major)
            assert isinstance(player, Player)
            open_ = {c["corporation"] for c in query.choices(game, major, "merge")}
            for minor in [c.sym for c in game.corporations.values() if c.kind.value == "minor" and c.sym not in open_]:
                with pytest.raises(CommandError) as info:
                    command_intent(game, player, f"merge {minor}")
                said.append(info.value.message)
                assert re.match(rf"{major.sym} cannot merge with {minor} \({major.sym} cannot acquire {minor}: \w",
                                info.value.message), info.value.message
                assert ("; it can merge with: " if open_ else "; no minor is in reach now; you can: `pass`") \
                    in info.value.message
        if len(said) >= 12:
            break
        options = [c for e in query.deciding_entities(game) for c in query.reference_choices(game, e)]
        game.process(rng.choices(options, [_weight(o, "random") for o in options])[0])
    reasons = " ".join(said)
    assert "has closed" in reasons and "not connected" in reasons, said
