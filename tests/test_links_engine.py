"""Links' rules engine: capture scenarios written as data, a brute-force twin of the legal moves,
card conservation, the end of the game, and hidden information."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from boardlab.analysis.links.agents import AGENTS, GreedyAgent
from boardlab.analysis.links.cards import WILD
from boardlab.analysis.links.engine import Observation, make_game
from boardlab.analysis.links.position import line_json, state_from_position
from boardlab.analysis.links.table import PASS, Line, Move, can_play, legal_plays
from boardlab.analysis.protocol import TERMINAL
from boardlab.layouts import load
from boardlab.layouts.errors import BoardlabError

BASE, TAKEN, FREE, MATCH = "links", "links-capturing-card-taken", "links-free-play", "links-master-match"
IDLE = "links-idle-master-barred"

# Each scenario: rules, the mover's hand, the lines on the table, the move (card, line, end it
# leaves open), then the lines and the mover's captured pile expected after it.
SCENARIOS = [
    ("fifth card captures the four before it and stays", BASE,
     ["B1-Y1"], [["G1-R1", "R1-R2", "R2-B2", "B2-B1"]], ("B1-Y1", 0, "Y1"),
     [["*B1-Y1"]], ["G1-R1", "R1-R2", "R2-B2", "B2-B1"]),
    ("fifth card under 'taken' joins the pile, the line is free again", TAKEN,
     ["B1-Y1"], [["G1-R1", "R1-R2", "R2-B2", "B2-B1"]], ("B1-Y1", 0, "Y1"),
     [[]], ["G1-R1", "R1-R2", "R2-B2", "B2-B1", "B1-Y1"]),
    ("a fourth card captures nothing", BASE,
     ["B2-Y1"], [["G1-R1", "R1-R2", "R2-B2"]], ("B2-Y1", 0, "Y1"),
     [["G1-R1", "R1-R2", "R2-B2", "B2-Y1"]], []),
    ("the count restarts after an empty card; cards before it stay", BASE,
     ["B1-Y1"], [["G1-R1", "empty", "R1-R2", "R2-B2", "B2-G2", "G2-B1"]], ("B1-Y1", 0, "Y1"),
     [["G1-R1", "empty", "*B1-Y1"]], ["R1-R2", "R2-B2", "B2-G2", "G2-B1"]),
    ("an empty card captures nothing and restarts the count", BASE,
     ["empty"], [["G1-R1", "R1-R2", "R2-B2", "B2-B1"]], ("empty", 0, None),
     [["G1-R1", "R1-R2", "R2-B2", "B2-B1", "empty"]], []),
    ("ONE captures on a new line, taking nothing", BASE,
     ["ONE"], [], ("ONE", 0, None), [["*ONE"]], []),
    ("ONE under 'taken' on a new line takes only itself", TAKEN,
     ["ONE"], [], ("ONE", 0, None), [[]], ["ONE"]),
    ("TWO on a count of 0 does not capture and does not count", BASE,
     ["TWO"], [["empty"]], ("TWO", 0, None), [["empty", "TWO"]], []),
    ("an idle master goes with the next capture of its line", BASE,
     ["ONE"], [["empty", "TWO"]], ("ONE", 0, None), [["empty", "*ONE"]], ["TWO"]),
    ("TWO on a count of 1 captures one card", BASE,
     ["TWO"], [["G1-R1"]], ("TWO", 0, None), [["*TWO"]], ["G1-R1"]),
    ("THREE on a count of 1 does not capture", BASE,
     ["THREE"], [["G1-R1"]], ("THREE", 0, None), [["G1-R1", "THREE"]], []),
    ("THREE on a count of 2 captures two", BASE,
     ["THREE"], [["G1-R1", "R1-B1"]], ("THREE", 0, None), [["*THREE"]], ["G1-R1", "R1-B1"]),
    ("FOUR on a count of 2 does not capture", BASE,
     ["FOUR"], [["G1-R1", "R1-B1"]], ("FOUR", 0, None), [["G1-R1", "R1-B1", "FOUR"]], []),
    ("FOUR on a count of 3 captures three", BASE,
     ["FOUR"], [["G1-R1", "R1-B1", "B1-B2"]], ("FOUR", 0, None), [["*FOUR"]], ["G1-R1", "R1-B1", "B1-B2"]),
    ("FOUR under 'taken' captures three and itself; the line ends at its empty card again", TAKEN,
     ["FOUR"], [["Y2-Y1", "empty", "G1-R1", "R1-B1", "B1-B2"]], ("FOUR", 0, None),
     [["Y2-Y1", "empty"]], ["G1-R1", "R1-B1", "B1-B2", "FOUR"]),
    ("the capture counts only this line", BASE,
     ["B1-Y1"], [["G1-R1", "R1-R2"], ["R2-B2", "B2-B1"]], ("B1-Y1", 1, "Y1"),
     [["G1-R1", "R1-R2"], ["R2-B2", "B2-B1", "B1-Y1"]], []),
    ("a game card starts a new line on a free side", BASE,
     ["B1-Y1"], [["G1-R1"]], ("B1-Y1", 1, "B1"), [["G1-R1"], ["Y1-B1"]], []),
    ("TWO under 'barred' on a count of 1 captures one card", IDLE,
     ["TWO"], [["G1-R1"]], ("TWO", 0, None), [["*TWO"]], ["G1-R1"]),
    ("ONE under 'barred' still starts a line, capturing nothing", IDLE,
     ["ONE"], [], ("ONE", 0, None), [["*ONE"]], []),
    ("FOUR under 'barred' on a count of 3 captures three", IDLE,
     ["FOUR"], [["G1-R1", "R1-B1", "B1-B2"]], ("FOUR", 0, None), [["*FOUR"]], ["G1-R1", "R1-B1", "B1-B2"]),
    ("a master under 'match' links by its ends like a game card", MATCH,
     ["ONE"], [["G1-R1"]], ("ONE", 0, "B1"), [["*ONE:B1"]], ["G1-R1"]),
]


def position(hand, lines, players=2):
    return {"players": players, "hand": hand, "lines": [{"cards": cards} for cards in lines], "deck": 3}


def find_move(state, card, line, exposes):
    deck = state.game.deck
    kind = deck.kind_of(card)
    end = WILD if exposes is None else deck.face(exposes)
    move = Move(kind, line, end)
    assert move in state.legal_moves(), f"{card} on line {line} is not legal here"
    return move


@pytest.mark.parametrize("case", SCENARIOS, ids=[c[0] for c in SCENARIOS])
def test_capture_scenarios(case):
    _, rules, hand, lines, (card, line, exposes), want_lines, want_captured = case
    definition = load(rules)
    state = state_from_position(definition, position(hand, lines), random.Random(1))
    deck = state.game.deck
    state.apply(find_move(state, card, line, exposes))
    got_lines = [line_json(deck, l)["cards"] for l in state.lines][:max(len(want_lines), 1)]
    assert got_lines == want_lines
    assert sorted(state.captured[0]) == sorted(deck.kind_of(c) for c in want_captured)
    assert state.current_player() == 1 or state.is_terminal()
    if not state.is_terminal():  # the lines read back from what the next player sees
        again = state.game.state_from_position(state.to_position())
        assert [l.key() for l in again.lines] == [l.key() for l in state.lines]


# Where a master may go under each reading of `idle_master`: rules, hand, lines, the master,
# the line slot (a free slot: a new line), whether that play is legal.
IDLE_CASES = [
    (BASE, ["TWO"], [["empty"]], "TWO", 0, True),
    (IDLE, ["TWO"], [["empty"]], "TWO", 0, False),
    (BASE, ["TWO"], [["G1-R1"]], "TWO", 1, True),
    (IDLE, ["TWO"], [["G1-R1"]], "TWO", 1, False),
    (IDLE, ["TWO"], [["G1-R1"]], "TWO", 0, True),
    (BASE, ["THREE"], [["G1-R1"]], "THREE", 0, True),
    (IDLE, ["THREE"], [["G1-R1"]], "THREE", 0, False),
    (IDLE, ["THREE"], [["G1-R1", "R1-B1"]], "THREE", 0, True),
    (IDLE, ["FOUR"], [["G1-R1", "R1-B1"]], "FOUR", 0, False),
    (IDLE, ["ONE"], [["empty"]], "ONE", 0, True),
]


@pytest.mark.parametrize("rules,hand,lines,card,slot,legal", IDLE_CASES)
def test_where_a_master_may_go_under_each_idle_master_reading(rules, hand, lines, card, slot, legal):
    state = state_from_position(load(rules), position(hand, lines), random.Random(1))
    kind = state.game.deck.kind_of(card)
    assert any(m.kind == kind and m.line == slot for m in state.legal_moves()) == legal


def test_a_hand_of_idle_masters_has_no_play_only_under_barred():
    for rules, playable in ((BASE, True), (IDLE, False)):
        game = make_game(load(rules), 2)
        hand = [game.deck.kind_of("TWO"), game.deck.kind_of("FOUR")]
        lines = [Line() for _ in range(game.rules.lines)]
        assert can_play(game.deck, game.rules, lines, hand) == playable
        assert bool(legal_plays(game.deck, game.rules, lines, hand, True)) == playable


def test_an_idle_master_on_the_table_is_impossible_under_barred():
    assert state_from_position(load(BASE), position(["R1-B2"], [["empty", "TWO"]]), random.Random(1))
    with pytest.raises(BoardlabError, match='TWO cannot lie on a count of 0 \\(idle_master = "barred"\\)'):
        state_from_position(load(IDLE), position(["R1-B2"], [["empty", "TWO"]]), random.Random(1))


def test_a_master_under_match_does_not_link_to_other_ends():
    state = state_from_position(load(MATCH), position(["ONE"], [["G1-R2"]]), random.Random(1))
    one = state.game.deck.kind_of("ONE")
    assert [m for m in state.legal_moves() if m.kind == one and m.line == 0] == []
    assert any(m.kind == one and m.line == 1 for m in state.legal_moves())  # a new line takes anything


def test_must_play_off_allows_a_pass_but_not_on_the_first_play():
    first = state_from_position(load(FREE), position(["R1-B2"], []), random.Random(1))
    assert PASS not in first.legal_moves()
    later = state_from_position(load(FREE), position(["R1-B2"], [["G1-R1"]]), random.Random(1))
    assert later.legal_moves()[0] == PASS
    strict = state_from_position(load(BASE), position(["R1-B2"], [["G1-R1"]]), random.Random(1))
    assert PASS not in strict.legal_moves()


def test_a_player_with_no_play_only_draws():
    lines = [["G1-R1"], ["Y1-B1"], ["R2-G2"], ["B2-Y2"]]
    data = {**position(["B1-G2"], lines), "hand_sizes": [1, 0], "deck": 37}
    state = state_from_position(load(BASE), data, random.Random(1))
    state.apply(state.legal_moves()[0])
    blocked = state.counters["blocked_turns"]
    assert blocked >= 1 and state.turns == 1 + blocked and len(state.deck) == 37 - state.turns
    assert len(state.hands[1]) >= 1 and state.legal_moves()  # seat 1 drew without playing


def brute_force_moves(state):
    """Every (card, slot, open end) of the mover, from the rules as written, without the engine's tables."""
    game = state.game
    deck = game.deck
    hand = state.hands[state.mover]
    free = [s for s, line in enumerate(state.lines) if not line.cards]
    moves = set()
    for kind in hand:
        k = deck.kinds[kind]
        for slot, line in enumerate(state.lines):
            if line.cards:
                end = line.cards[-1][1]
            elif slot == free[0]:
                end = WILD
            else:
                continue
            if k.value and game.rules.idle_master == "barred" and line.count < k.value - 1:
                continue  # a master that would not capture here
            if k.ends is None:
                moves.add(Move(kind, slot, WILD))
                continue
            for touching, other in (k.ends, k.ends[::-1]):
                if end == WILD or touching == end:
                    moves.add(Move(kind, slot, other))
    if moves and not game.rules.must_play and state.plays:
        moves.add(PASS)
    return moves


def play_random_game(definition, players, seed, check):
    game = make_game(definition, players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    state.apply(state.sample_chance(rng))
    while not state.is_terminal():
        check(state)
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    check(state)
    return state


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 8), rules=st.sampled_from([BASE, TAKEN, FREE, MATCH, IDLE]))
def test_cards_are_never_created_or_lost_and_moves_match_the_twin(seed, players, rules):
    definition = load(rules)
    full = sorted(make_game(definition, players).cards)

    def check(state):
        assert sorted(state.cards_in_play()) == full
        if not state.is_terminal():
            assert set(state.legal_moves()) == brute_force_moves(state)
            assert len(set(state.legal_moves())) == len(state.legal_moves())
            for line in state.lines:
                assert line.count < definition.rules.capture_count

    state = play_random_game(definition, players, seed, check)
    if not state.is_unfinished():
        assert not state.deck
        assert not any(brute_force_moves_for(state, seat) for seat in range(players))
        scores = [len(p) - len(h) for p, h in zip(state.captured, state.hands)]
        assert state.winners() == tuple(s for s in range(players) if scores[s] == max(scores))


def brute_force_moves_for(state, seat):
    other = state.clone()
    other.mover = seat
    return brute_force_moves(other) - {PASS}


def test_rotated_deal_gives_each_seat_the_other_hands():
    game = make_game(load(BASE), 3)
    deal = game.new_initial_state().sample_chance(random.Random(5))
    a, b = game.new_initial_state(), game.new_initial_state()
    a.apply(deal)
    b.apply(game.rotate_deal(deal, 1))
    assert b.hands[0] == a.hands[1] and b.hands[2] == a.hands[0] and b.deck == a.deck


def test_observation_holds_no_hidden_card_and_agents_ignore_hidden_cards():
    definition = load(BASE)
    game = make_game(definition, 4)
    state = game.new_initial_state()
    state.apply(state.sample_chance(random.Random(7)))
    for _ in range(6):
        state.apply(state.legal_moves()[0])
    seat = state.current_player()
    seen = state.observation()
    assert isinstance(seen, Observation) and seen.hand == tuple(sorted(state.hands[seat]))
    assert seen.hand_sizes == tuple(len(h) for h in state.hands) and seen.deck_size == len(state.deck)
    assert not any(hasattr(seen, name) for name in ("hands", "deck", "state"))
    # another world with the same observation: the unseen cards dealt differently
    other = game.determinise(seen, random.Random(99))
    assert other.observation(seat) == seen
    assert (other.hands, other.deck) != (state.hands, state.deck)
    for name in ("random", "greedy", "mcts-24"):
        agent = AGENTS[name](game)
        assert agent.choose(state, random.Random(3)) == agent.choose(other, random.Random(3)), name


def test_determinise_respects_what_the_seat_sees():
    game = make_game(load(BASE), 3)
    state = play_random_game(load(BASE), 3, 11, lambda s: None)
    assert state.is_terminal()
    state = game.new_initial_state()
    state.apply(state.sample_chance(random.Random(2)))
    for _ in range(9):
        state.apply(state.legal_moves()[-1])
    seen = state.observation()
    for seed in range(20):
        world = game.determinise(seen, random.Random(seed))
        assert sorted(world.cards_in_play()) == sorted(game.cards)
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert world.hands[seen.seat] == state.hands[seen.seat] and world.legal_moves() == state.legal_moves()


def test_greedy_takes_the_biggest_capture_and_keeps_wild_cards():
    state = state_from_position(load(BASE), position(["B1-Y1", "THREE", "empty"],
                                                     [["G1-R1", "R1-R2", "R2-B2", "B2-B1"], ["Y2-G2"]]),
                                random.Random(1))
    move = GreedyAgent().choose(state, random.Random(1))
    assert state.game.deck.text(move.kind) == "B1-Y1" and move.line == 0  # THREE captures 4 too: keep the wild
    quiet = state_from_position(load(BASE), position(["B2-Y1", "empty"], [["G1-R1"]]), random.Random(1))
    for seed in range(10):
        assert quiet.game.deck.text(GreedyAgent().choose(quiet, random.Random(seed)).kind) == "B2-Y1"


def test_terminal_state_has_no_mover():
    state = play_random_game(load(BASE), 2, 3, lambda s: None)
    assert state.current_player() == TERMINAL and state.legal_moves() == []
