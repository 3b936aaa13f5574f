"""Links' public history: the observation records every turn a seat could not play (with the
table then) and how many cards each seat drew; the conditions it puts on the other hands hold
for the true deal at every decision of real games, bite on deals that ignore them, and the
history-consistent determinisation and search (`ismcts-N`) keep to them."""

from __future__ import annotations

import random

from boardlab.analysis import engines
from boardlab.analysis.links.engine import consistent
from boardlab.analysis.links.table import Line, legal_plays
from boardlab.layouts import load


def decisions(players: int, games: int, seed: int):
    """(state, observation of every seat) at every decision of seeded random games."""
    game = engines.make_game(load("links"), players)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        while not state.is_terminal():
            yield state, [state.observation(seat) for seat in range(players)]
            state.apply(state.random_move(rng))


def test_the_true_deal_meets_every_condition_the_history_puts_on_it():
    seen = 0
    for state, observations in decisions(4, 12, 3):
        for obs in observations:
            conditions = obs.conditions()
            seen += len(conditions)
            assert consistent(conditions, state.hands) == 0
            assert obs.draws == tuple(state.draws) and sum(obs.draws) == len(state.game.cards) - \
                4 * state.game.deck.hand_size - obs.deck_size  # every card that left the deck was drawn
    assert seen > 100  # the history does say something in these games


def test_a_blocked_turns_kinds_are_exactly_those_without_a_play_on_that_table():
    """Brute force: each kind alone as a hand on the recorded table, through the engine's moves."""
    checked = 0
    for state, _ in decisions(3, 6, 5):
        for seat, drawn, lines in state.blocked:
            kinds = state.game.unplayable_kinds(lines)
            for kind in range(len(state.game.copies)):
                table = [Line(*key) for key in lines]
                assert (kind in kinds) == (not legal_plays(state.game.deck, state.game.rules, table, [kind], False))
            checked += 1
        if checked > 30:
            break
    assert checked > 30


def test_history_consistent_deals_keep_to_the_conditions_where_plain_deals_break_them():
    plain_broken = kept = total = 0
    rng = random.Random(11)
    for state, observations in decisions(4, 6, 7):
        obs = observations[state.current_player()]
        conditions = obs.conditions()
        if not conditions:
            continue
        total += 1
        plain = state.game.determinise(obs, rng)
        plain_broken += consistent(conditions, plain.hands) > 0
        dealt = state.game.determinise(obs, rng, tries=200)
        kept += consistent(conditions, dealt.hands) == 0
        # the deal shows the observer's own hand, the known sizes, and the same unseen cards
        assert dealt.hands[obs.seat] == list(obs.hand)
        assert [len(h) for h in dealt.hands] == list(obs.hand_sizes) and len(dealt.deck) == obs.deck_size
        assert sorted([k for s, h in enumerate(dealt.hands) if s != obs.seat for k in h] + dealt.deck) == \
            sorted(obs.unseen())
    # a consistent deal always exists (the true one); 200 shuffles find one nearly every time
    assert total > 40 and plain_broken > total // 5 and kept >= 0.95 * total, (total, plain_broken, kept)


def test_ismcts_plays_legal_moves_the_same_for_the_same_seed():
    game = engines.make_game(load("links"), 3)
    agent = engines.agent_factories("links")["ismcts-32"](game)
    for state, _ in decisions(3, 1, 2):
        moves = state.legal_moves()
        a, b = agent.choose(state, random.Random(4)), agent.choose(state, random.Random(4))
        assert a in moves and a == b
        if state.turns > 30:
            break
