"""`boardlab moves links`, `simulate links` and their errors, through the command line."""

from __future__ import annotations

import json

import pytest

from boardlab.cli import main

POSITION = {"game": "links", "players": 3, "to_move": 2,
            "hand": ["R1-B2", "empty", "ONE", "Y2-Y2"],
            "lines": [{"cards": ["G1-R1", "R1-R2", "R2-B2", "B2-B1"]}, {"cards": ["Y1-G2"], "counted": 1}],
            "hand_sizes": [4, 4, 4],
            "deck": 25}  # 5 turns so far, one card laid and one drawn in each: seat 2 is to move


def run_moves(tmp_path, capsys, data):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    code = main(["moves", "links", str(path)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_moves_of_a_position(tmp_path, capsys):
    code, out, err = run_moves(tmp_path, capsys, POSITION)
    assert code == 0 and not err
    moves = json.loads(out)["moves"]
    assert moves[0] == {"card": "ONE", "line": 0, "new_line": False, "exposes": None, "captures": 4}
    assert {"card": "R1-B2", "line": 2, "new_line": True, "exposes": "R1", "captures": 0} in moves
    assert not any(m["line"] == 1 and m["card"] in ("R1-B2", "Y2-Y2") for m in moves)  # nothing links to G2
    assert len(moves) == 9 and moves == sorted(moves, key=lambda m: (m["line"], m["card"], m["exposes"] or ""))


@pytest.mark.parametrize("change,message", [
    ({"deck": 24}, "add up to 41"),
    ({"lines": [{"cards": ["G1-R1", "R2-R1"]}]}, "does not link to the open end R1"),
    ({"hand": ["R1-B2", "empty", "ONE", "Y9-Y9"]}, "unknown card 'Y9-Y9'"),
    ({"captured": [["R1-B2"], [], []]}, "R1-B2 appears 2 times (hand, captured[0])"),
    ({"hand": ["empty", "empty", "empty", "ONE"]}, "empty appears 3 times"),
    ({"players": 9}, "players: 9"),
    ({"lines": [{"cards": ["G1-R1", "TWO", "R1-R2"]}]}, "would have"),
    ({"to_move": 3}, "to_move"),
    ({"colour": "red"}, "unknown key 'colour'"),
    ({"lines": [{"cards": ["G1-R1", "*empty"]}]}, "cannot be a capturing card that stayed"),
], ids=["deck-size", "no-link", "unknown-card", "two-places", "too-many-copies", "players", "master-count",
        "to-move", "unknown-key", "stayed-empty"])
def test_impossible_positions_are_one_line_errors(tmp_path, capsys, change, message):
    code, out, err = run_moves(tmp_path, capsys, {**POSITION, **change})
    assert code == 2 and not out
    assert len(err.strip().splitlines()) == 1 and message in err and "Traceback" not in err


def stayed_pair_position():
    """The first decision of seeded 3-player games (uniform random moves) where a starred game card
    follows a starred card whose open end it does not match: a position play reaches."""
    import random

    from boardlab.analysis.links.cards import GAME
    from boardlab.analysis.links.engine import make_game
    from boardlab.analysis.links.position import position_of
    from boardlab.layouts import load

    game = make_game(load("links"), 3)
    deck = game.deck
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        while not state.is_terminal():
            for slot, line in enumerate(state.lines):
                for i in line.stayed:
                    kind = line.cards[i][0]
                    if i - 1 in line.stayed and deck.kinds[kind].category == GAME and \
                            not deck.links_to(kind, line.cards[i - 1][1]):
                        return position_of(state), slot, i, len(state.legal_moves())
            state.apply(rng.choice(state.legal_moves()))
    raise AssertionError("no seeded game left such a pair")


def test_a_capturing_card_that_stayed_need_not_link_to_the_card_before(tmp_path, capsys):
    position, slot, i, legal = stayed_pair_position()
    code, out, err = run_moves(tmp_path, capsys, position)
    assert code == 0, err
    assert len(json.loads(out)["moves"]) == legal  # the engine's own moves in that state
    cards = position["lines"][slot]["cards"]
    unstarred = {**position, "lines": [*position["lines"][:slot], {"cards": [*cards[:i], cards[i][1:], *cards[i + 1:]]},
                                       *position["lines"][slot + 1:]]}
    code, out, err = run_moves(tmp_path, capsys, unstarred)
    assert code == 2 and "does not link" in err, err


def simulate(capsys, *extra):
    assert main(["simulate", "links", "--json", *extra]) == 0
    data = json.loads(capsys.readouterr().out)
    data.pop("seconds")
    return data


def test_simulate_is_the_same_with_one_or_two_workers(capsys):
    args = ("--players", "4", "--games", "300", "--seed", "1")
    one = simulate(capsys, *args, "--workers", "1")
    two = simulate(capsys, *args, "--workers", "2")
    assert one == two
    assert one["games"] == 300 and sum(one["wins_by_seat"]) + one["draws"] + one["unfinished"] == 300
    assert all(lo <= r["rate"] <= hi for r in one["win_rate_by_seat"] for lo, hi in [r["ci95"]])
    links = one["links"]
    assert set(links["captures"]) == {"fifth", "ONE", "TWO", "THREE", "FOUR"}
    assert 0 < links["share_of_turns_without_a_play"] < 1 and links["rounds"]["mean"] > 0


@pytest.mark.parametrize("players", range(2, 9))
def test_simulate_every_player_count(capsys, players):
    data = simulate(capsys, "--players", str(players), "--games", "20", "--workers", "1")
    assert data["players"] == players and data["unfinished"] == 0


def test_simulate_mixed_agents_reports_per_agent(capsys):
    data = simulate(capsys, "--players", "2", "--agents", "greedy,random", "--games", "20", "--workers", "1")
    assert set(data["win_rate_by_agent"]) == {"greedy", "random"}


# -- impossible positions, and every position the engine reaches accepted ---------------------------------
def test_a_counted_that_contradicts_the_restart_points_is_refused(tmp_path, capsys):
    lines = {"lines": [{"cards": ["G1-R1", "R1-R2", "R2-B2", "B2-B1"], "counted": 2}, {"cards": ["Y1-G2"]}]}
    code, out, err = run_moves(tmp_path, capsys, {**POSITION, **lines})
    assert code == 2 and "lines[0].counted: 2, but 4 cards lie after the line's last restart point" in err, err
    lines = {"lines": [{"cards": ["G1-R1", "empty", "R1-R2"], "counted": 3}, {"cards": ["Y1-G2"]}], "deck": 26}
    code, out, err = run_moves(tmp_path, capsys, {**POSITION, **lines})
    assert code == 2 and "lines[0].counted: 3, but 1 card lie" in err, err
    lines = {"lines": [{"cards": ["G1-R1", "empty", "R1-R2"], "counted": 1}, {"cards": ["Y1-G2"]}], "deck": 26,
             "to_move": 1}
    assert run_moves(tmp_path, capsys, {**POSITION, **lines})[0] == 0


@pytest.mark.parametrize("hand_sizes,hand,lines,deck,words", [
    # the first play: every hand holds the 4 dealt
    ([5, 4], ["R1-B2", "ONE", "THREE", "B1-B1", "Y2-G1"], [], 33, "the hand holds 5 cards"),
    # one line on the table: nobody can have passed, so nobody holds 6
    ([4, 6], ["R1-B2", "ONE", "THREE", "B1-B1"], [{"cards": ["G1-R1"]}], 31, "hand_sizes[1] holds 6 cards"),
])
def test_hand_sizes_no_game_reaches_are_refused(tmp_path, capsys, hand_sizes, hand, lines, deck, words):
    position = {"game": "links", "players": 2, "to_move": 0, "hand": hand, "lines": lines,
                "hand_sizes": hand_sizes, "deck": deck}
    code, out, err = run_moves(tmp_path, capsys, position)
    assert code == 2 and words in err and "nobody can have passed" in err, err
    laid = sum(len(line["cards"]) for line in lines)  # one a turn, and one card drawn a turn
    position = {**position, "hand": hand[:4], "hand_sizes": [4, 4], "deck": deck + sum(hand_sizes) - 8,
                "to_move": laid % 2}
    code, out, err = run_moves(tmp_path, capsys, position)
    assert code == 0, err


@pytest.mark.parametrize("variant", ["links", "links-capturing-card-taken", "links-free-play",
                                     "links-idle-master-barred", "links-master-match"])
@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_every_position_of_seeded_self_play_is_accepted(variant, players):
    """The impossible-position checks against the engine's own reachable positions: every
    decision of seeded games (random and greedy players), under every rule option, must be read
    back with the same legal moves."""
    from boardlab.analysis import engines
    from boardlab.analysis.links.position import moves, position_of
    from boardlab.analysis.runner import make_match, play_one
    from boardlab.layouts import load

    definition = load(variant)
    game = engines.make_game(definition, players)
    known = engines.agent_factories("links")
    seen = []

    def observe(state):
        listed = moves(definition, position_of(state))  # every check `boardlab moves links` makes
        assert len(listed) == len(state.legal_moves())
        seen.append(1)

    names = (["random", "greedy"] * 4)[:players]
    match = make_match(game, [known[name] for name in names], 7, True, names)
    for index in range(3):
        play_one(match, index, observe)
    assert len(seen) > 50



def every_decision(game, deal):
    """Every decision of every game from one deal (each state once), walking all the moves."""
    state = game.new_initial_state()
    state.apply(deal)
    seen, stack = set(), [state]
    while stack:
        state = stack.pop()
        key = (tuple(map(tuple, state.hands)), tuple(state.deck), tuple(line.key() for line in state.lines),
               tuple(map(tuple, state.captured)), state.mover, state.turns)
        if state.is_terminal() or key in seen:
            continue
        seen.add(key)
        yield state
        for move in state.legal_moves():
            child = state.clone()
            child.apply(move)
            stack.append(child)


SMALL_RULES = [("stays", True, "stays", "any"), ("taken", True, "stays", "any"), ("stays", True, "barred", "match"),
               ("stays", False, "stays", "any"), ("taken", False, "barred", "match")]


def small_definition(tmp_path, capturing_card, must_play, idle_master, master_links):
    from pathlib import Path

    from boardlab.layouts import load

    path = tmp_path / f"small-{capturing_card}-{must_play}-{idle_master}-{master_links}.toml"
    path.write_text(f'extends = "{Path(__file__).parent / "data" / "links-small-deck.toml"}"\n[rules]\n'
                    f'capturing_card = "{capturing_card}"\nmust_play = {str(must_play).lower()}\n'
                    f'idle_master = "{idle_master}"\nmaster_links = "{master_links}"\n'
                    + ("max_turns = 7\n" if not must_play else ""))
    return load(path)


def check_every_decision(definition, players, deals):
    import random

    from boardlab.analysis.links.engine import make_game
    from boardlab.analysis.links.position import moves, position_of
    from boardlab.layouts import BoardlabError

    game = make_game(definition, players)
    reached = lasting = 0
    for seed in range(deals):
        for state in every_decision(game, game.new_initial_state().sample_chance(random.Random(seed))):
            position = position_of(state)
            assert len(moves(definition, position)) == len(set(state.legal_moves())), position
            alone = {k: v for k, v in position.items() if k != "hand_sizes"}  # the other hands unknown
            assert len(moves(definition, alone)) == len(set(state.legal_moves())), alone
            reached += 1
            if state.deck:  # the turns so far decide the mover, and every hand holds the deal at least
                lasting += 1
                assert min(map(len, state.hands)) >= game.deck.hand_size
                for other in range(players):
                    if other != state.mover:
                        with pytest.raises(BoardlabError, match="to_move"):
                            moves(definition, {**alone, "to_move": other})
    assert reached > 100 and lasting > 10


@pytest.mark.parametrize("players,rules", [(2, rules) for rules in SMALL_RULES] + [(3, SMALL_RULES[0])],
                         ids=lambda r: "-".join(map(str, r)) if isinstance(r, tuple) else f"{r}p")
def test_every_decision_of_every_game_from_a_deal_is_accepted(tmp_path, players, rules):
    """The brute force behind the impossible-position checks: on a deck small enough, every move
    of every game from a deal is walked, and every decision reached is read back with the engine's
    moves (with the other hands' sizes and without), under five combinations of the rule options."""
    check_every_decision(small_definition(tmp_path, *rules), players, 1)


@pytest.mark.slow
@pytest.mark.parametrize("rules", [(c, m, i, l) for c in ("stays", "taken") for m in (True, False)
                                   for i in ("stays", "barred") for l in ("any", "match")], ids=lambda r: "-".join(map(str, r)))
def test_every_decision_of_every_game_from_more_deals_is_accepted(tmp_path, rules):
    """The same walk under all sixteen combinations of the rule options, 3 players, three deals."""
    check_every_decision(small_definition(tmp_path, *rules), 3, 3)
