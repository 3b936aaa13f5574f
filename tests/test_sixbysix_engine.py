"""The 6x6 engine: exact chance outcomes, every rule option, agents, and the simulation summary."""

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.analysis import engines
from boardlab.analysis.agents import COMMON_AGENTS
from boardlab.analysis.protocol import CHANCE, TERMINAL
from boardlab.analysis.runner import BLOCK, Match, play_one, run_records
from boardlab.analysis.sixbysix.dice import sum_probabilities
from boardlab.analysis.sixbysix.engine import AGENTS, Move, SixBySixGame
from boardlab.analysis.sixbysix.markers import GREEDY, rotating_seat_win_probabilities, seat_win_probabilities
from boardlab.analysis.stats import two_proportion_test, wilson_interval
from boardlab.cli import main
from boardlab.layouts import load

from sixbysix_helpers import brute_best_face, brute_greedy_markers, brute_round_wins, with_rules

DEFINITION = load("sixbysix")
FACES = DEFINITION.dice.faces


def place_all(state, agent_name="greedy", seed=0):
    agent = AGENTS[agent_name](state.game)
    rng = random.Random(seed)
    while state.current_player() >= 0:
        state.apply(agent.choose(state, rng))


def round_win_chances(state):
    """Walk every chance outcome of one round's dice: exact P(each seat wins the round)."""
    wins = [Fraction(0)] * state.players
    start = list(state.round_wins)

    def walk(s, weight):
        if s.current_player() != CHANCE:
            for seat in range(s.players):
                if s.round_wins[seat] > start[seat]:
                    wins[seat] += weight
            return
        for face, p in s.chance_outcomes():
            child = s.clone()
            child.apply(face)
            walk(child, weight * p)

    walk(state, Fraction(1))
    return wins


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_wins_from_engine_chance_outcomes(players):
    state = SixBySixGame(DEFINITION, players).new_initial_state()
    place_all(state)
    markers = [state.markers[s] for s in state.order]
    numbers = sorted(DEFINITION.board.numbers)
    allowed = [x for x in numbers if x <= 6 * players]  # covering: the unused cards' rows are covered
    assert markers == brute_greedy_markers(FACES, players, allowed)
    assert round_win_chances(state) == brute_round_wins(FACES, markers)


@pytest.mark.parametrize("face", FACES)
def test_refund_is_exactly_one_in_six_for_every_face(face):
    state = SixBySixGame(DEFINITION, 2).new_initial_state()
    state.apply(Move(face, 7))
    state.apply(Move(face, 8))
    assert state.current_player() == CHANCE
    refund = Fraction(0)
    for outcome, p in state.chance_outcomes():
        child = state.clone()
        child.apply(outcome)
        refund += p * (child.chips[0] == DEFINITION.rules.chips)
    assert refund == Fraction(1, len(FACES))


def test_seeded_refund_rate_agrees():
    """Random agents bet every face; each face comes back 1/6 of the time."""
    game = SixBySixGame(DEFINITION, 6, compare_lead=False)
    records, _ = run_records(game, [COMMON_AGENTS["random"]] * 6, 12, seed=5, workers=1, seat_rotation=False, progress=False)
    for i, face in enumerate(FACES):
        bets = sum(r.stats["bets_by_face"][i] for r in records)
        refunds = sum(r.stats["refunds_by_face"][i] for r in records)
        lo, hi = wilson_interval(refunds, bets, confidence=0.999)
        assert bets > 1000 and lo <= 1 / len(FACES) <= hi, face


def chips_in_play(state):
    on_cards = 0 if state.rolling else state.step  # bet chips of this round not yet rolled
    if state.rolling:
        on_cards = len(state.order) - state.step
    return sum(state.chips) + state.bank + state.house_chips + on_cards


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 6), chips=st.integers(1, 4), bank=st.sampled_from(["carry", "house"]),
       lead=st.sampled_from(["fixed", "rotate"]), covering=st.booleans(), seed=st.integers(0, 10 ** 6))
def test_random_playouts_keep_the_rules(players, chips, bank, lead, covering, seed):
    definition = with_rules(DEFINITION, chips=chips, unclaimed_bank=bank, lead=lead, covering=covering,
                            max_rounds=300)
    game = SixBySixGame(definition, players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    total = players * chips
    previous_lead, previous_round = state.lead, 0
    while not state.is_terminal():
        assert chips_in_play(state) == total
        if bank == "carry":
            assert state.house_chips == 0
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        assert state.active[player] and state.order[0] == state.lead
        if state.rounds != previous_round:  # a new round: check the lead rule
            active = [s for s in range(players) if state.active[s]]
            if lead == "fixed":
                assert state.lead == active[0]
            else:
                assert state.lead == next(s for s in [(previous_lead + i) % players for i in range(1, players + 1)]
                                          if state.active[s])
            previous_lead, previous_round = state.lead, state.rounds
        moves = state.legal_moves()
        numbers = {m.number for m in moves}
        n = len(state.order)
        if covering:
            assert max(numbers) <= 6 * n
        taken = {state.markers[s] for s in state.order[:state.step]}
        assert not numbers & taken and len(moves) == len(FACES) * len(numbers)
        state.apply(moves[rng.randrange(len(moves))])
    assert chips_in_play(state) == total
    if state.is_unfinished():
        assert state.rounds == 300 and sum(state.active) >= 2
    else:
        assert state.winners() and all(not state.active[s] or s in state.winners() for s in range(players))
        assert len(state.eliminations) == players - (1 if len(state.winners()) == 1 else 0)


def test_covering_after_an_elimination():
    game = SixBySixGame(with_rules(DEFINITION, chips=1), 3)
    state = game.new_initial_state()
    assert max(m.number for m in state.legal_moves()) == 18
    state.apply(Move(1, 10))
    state.apply(Move(1, 11))
    state.apply(Move(1, 12))
    for face in (2, 1, 1):  # seat 0 loses its chip, seats 1 and 2 get theirs back; sum 4: no winner
        state.apply(face)
    assert state.active == [False, True, True] and state.first_elimination == 1
    assert max(m.number for m in state.legal_moves()) == 12 and state.lead == 1  # fixed lead passes on
    uncovered = SixBySixGame(with_rules(DEFINITION, chips=1, covering=False), 3).new_initial_state()
    assert max(m.number for m in uncovered.legal_moves()) == 36


def test_last_players_out_together_share_the_win():
    game = SixBySixGame(with_rules(DEFINITION, chips=1, unclaimed_bank="house"), 2)
    state = game.new_initial_state()
    state.apply(Move(6, 7))
    state.apply(Move(6, 8))
    state.apply(1)
    state.apply(1)  # sum 2: no winner, the bank leaves the game, both stocks are empty
    assert state.current_player() == TERMINAL and state.winners() == (0, 1) and state.house_chips == 2


def test_winner_takes_the_bank_and_max_rounds():
    game = SixBySixGame(with_rules(DEFINITION, max_rounds=1), 2)
    state = game.new_initial_state()
    state.apply(Move(6, 7))
    state.apply(Move(6, 8))
    state.apply(3)
    state.apply(4)  # sum 7: seat 0 wins both bet chips
    assert state.chips == [21, 19] and state.bank == 0
    assert state.is_terminal() and state.is_unfinished() and state.winners() == () and state.length() == 1


def test_illegal_moves_and_move_text():
    state = SixBySixGame(DEFINITION, 2).new_initial_state()
    assert Move.from_text(Move(3, 21).text()) == Move(3, 21)
    with pytest.raises(ValueError):
        Move.from_text("21")
    with pytest.raises(ValueError):
        state.apply(Move(7, 7))  # no such face
    with pytest.raises(ValueError):
        state.apply(Move(1, 13))  # covered: two dice cannot roll 13
    state.apply(Move(1, 7))
    with pytest.raises(ValueError):
        state.apply(Move(2, 7))  # taken
    copy = state.clone()
    copy.apply(Move(2, 8))
    assert state.current_player() == 1 and copy.current_player() == CHANCE


def test_agents_choose_by_their_rule():
    state = SixBySixGame(DEFINITION, 6).new_initial_state()
    game = state.game
    favourite = AGENTS["favourite"](game)
    move = favourite.choose(state, random.Random(1))
    assert move.number == DEFINITION.analysis.favourite_number
    state.apply(move)
    assert AGENTS["greedy"](game).choose(state, random.Random(1)).number == 21
    state.apply(Move(1, 21))
    assert AGENTS["favourite-21"](game).choose(state, random.Random(1)).number == 20  # nearest, the lower one
    assert "random" in engines.agent_factories("sixbysix")


def test_play_block_matches_play_one_and_adds_the_other_lead():
    game = SixBySixGame(with_rules(DEFINITION, chips=3), 4)
    match = Match(game, tuple([AGENTS["greedy"]] * 4), ("greedy",) * 4, 7, False)
    block = game.play_block(match, 0, 6)
    twin = Match(game.twin(), match.agents, match.agent_names, 7, False)
    for record in block:
        plain = play_one(match, record.index)
        other = play_one(twin, record.index)
        assert (record.winners, record.length, record.unfinished) == (plain.winners, plain.length, plain.unfinished)
        assert record.stats["other_lead"] == {"lead": "fixed", "winners": list(other.winners),
                                              "unfinished": other.unfinished, "rounds": other.length}


def test_simulate_six_players_twenty_chips(capsys):
    assert DEFINITION.rules.chips == 20 and len(DEFINITION.components.seats) == 6
    args = ["simulate", "sixbysix", "--agents", "greedy", "--games", "6", "--seed", "3", "--no-rotation", "--json"]
    assert main(args + ["--workers", "1"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(args + ["--workers", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    one.pop("seconds"), two.pop("seconds")
    assert one == two
    assert one["players"] == 6 and one["length"]["unit"] == "rounds"
    assert sum(one["wins_by_seat"]) + one["draws"] + one["unfinished"] == 6
    for lead in ("fixed", "rotate"):
        results = one["sixbysix"]["by_lead"][lead]
        assert sum(results["wins_by_seat"]) + results["draws"] + results["unfinished"] == 6
        assert len(results["win_rate_by_seat"]) == 6
    assert one["sixbysix"]["by_lead"]["rotate"]["wins_by_seat"] == one["wins_by_seat"]
    minutes = one["sixbysix"]["table_minutes"]["mean"]
    assert minutes == pytest.approx(one["length"]["mean"] * DEFINITION.analysis.seconds_per_round / 60, abs=0.01)
    for checkpoint, c in one["sixbysix"]["chips_over_time"].items():  # carry: every chip is in a stock or the bank
        assert sum(c["mean_chips_by_seat"]) + c["mean_bank"] == pytest.approx(6 * DEFINITION.rules.chips, abs=0.02)
    assert 0 < one["sixbysix"]["no_winner_share"] < 1 and one["sixbysix"]["rounds_to_first_elimination"]["mean"] >= 1
    assert main(["simulate", "sixbysix", "--agents", "greedy", "--games", "2", "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert "lead fixed" in text and "table time" in text


def test_engine_registered():
    game = engines.make_game(DEFINITION, 6)
    assert isinstance(game, SixBySixGame) and game.length_unit == "rounds"


def test_unknown_agents_are_played_move_by_move():
    class Stubborn:
        def choose(self, state, rng):
            return state.legal_moves()[0]

    game = SixBySixGame(with_rules(DEFINITION, chips=2), 2, compare_lead=False)
    match = Match(game, (lambda g: Stubborn(),) * 2, ("stubborn",) * 2, 1, False)
    assert game.play_block(match, 0, 2) == [play_one(match, 0), play_one(match, 1)]


def test_without_a_matching_twister_the_engine_plays(monkeypatch):
    """Where the compiled twister would not draw what this Python draws, the engine's own loop
    plays the games, with the same records."""
    from boardlab.analysis.sixbysix import kernel
    game = SixBySixGame(with_rules(DEFINITION, chips=3), 3, compare_lead=False)
    known = engines.agent_factories("sixbysix")
    names = ("greedy", "random", "favourite")
    match = Match(game, tuple(known[a] for a in names), names, 5, True)
    assert kernel.choosers_of(match) is not None
    fast = game.play_block(match, 0, 4)
    monkeypatch.setattr(kernel, "twister_matches_python", lambda: False)
    assert kernel.choosers_of(match) is None
    assert game.play_block(match, 0, 4) == fast == [play_one(match, i) for i in range(4)]


@pytest.mark.parametrize("lead", ["fixed", "rotate"])
def test_simulated_round_wins_agree_with_the_exact_table(lead):
    """Before anyone can run out of chips all six play every round: seeded frequencies vs exact values."""
    rounds = 18  # a multiple of 6: with a rotating lead every seat leads equally often
    assert rounds < DEFINITION.rules.chips  # so nobody can be eliminated
    game = SixBySixGame(with_rules(DEFINITION, max_rounds=rounds, lead=lead), 6, compare_lead=False)
    records, _ = run_records(game, [AGENTS["greedy"]] * 6, 1500, seed=11, workers=1, seat_rotation=False, progress=False)
    p, numbers = sum_probabilities(FACES, 6), sorted(DEFINITION.board.numbers)
    exact = (seat_win_probabilities if lead == "fixed" else rotating_seat_win_probabilities)(p, numbers, [GREEDY] * 6)
    played = rounds * len(records)
    assert all(r.unfinished and r.length == rounds for r in records)
    for seat in range(6):
        lo, hi = wilson_interval(sum(r.stats["round_wins"][seat] for r in records), played, confidence=0.999)
        assert lo <= exact[seat] <= hi, (seat, lo, float(exact[seat]), hi)
    no_winner = sum(r.stats["no_winner_rounds"] for r in records)
    lo, hi = wilson_interval(no_winner, played, confidence=0.999)
    assert lo <= 1 - sum(exact) <= hi


# move counts from the initial position: tests/data/sixbysix.perft, checked by tests/test_perft.py


@pytest.mark.slow
def test_fixed_lead_favours_the_starter_in_full_six_player_games(request):
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("long statistical check: run by `make test-slow` (pytest -m slow)")
    game = SixBySixGame(DEFINITION, 6)
    records, summary = run_records(game, [AGENTS["greedy"]] * 6, 400, seed=2, workers=1, seat_rotation=False, progress=False)
    fixed, rotate = summary["sixbysix"]["by_lead"]["fixed"], summary["sixbysix"]["by_lead"]["rotate"]
    finished = len(records) - fixed["unfinished"]
    assert two_proportion_test(fixed["wins_by_seat"][0], finished, fixed["wins_by_seat"][5], finished) < 0.001
    assert fixed["wins_by_seat"][0] > rotate["wins_by_seat"][0]
    rates = [r["rate"] for r in rotate["win_rate_by_seat"]]
    assert max(rates) - min(rates) < 0.1


def test_simulate_is_the_same_whatever_the_worker_count(capsys):
    """130 games: three runner blocks, so two workers really share them."""
    args = ["simulate", "sixbysix", "--players", "2", "--agents", "greedy,random", "--games", "130", "--seed", "4",
            "--json"]
    assert BLOCK < 130
    outputs = []
    for workers in ("1", "2"):
        assert main(args + ["--workers", workers]) == 0
        summary = json.loads(capsys.readouterr().out)
        summary.pop("seconds")
        outputs.append(summary)
    assert outputs[0] == outputs[1] and outputs[0]["games"] == 130


@pytest.mark.parametrize("agent", ["greedy", "favourite", "favourite-12"])
@pytest.mark.parametrize("players", [2, 4, 6])
def test_marker_agents_bet_the_best_face_for_their_marker(agent, players):
    """Every bet of a greedy or favourite agent is the brute-force best face for the number it chose."""
    game = SixBySixGame(DEFINITION, players, compare_lead=False)
    state = game.new_initial_state()
    rng = random.Random(players)
    agents = [AGENTS[agent](game) for _ in range(players)]
    seen = 0
    while state.current_player() != TERMINAL and seen < 300:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        move = agents[state.current_player()].choose(state, rng)
        assert move.face == brute_best_face(FACES, len(state.order), move.number), (move, len(state.order))
        state.apply(move)
        seen += 1
    assert seen >= players
