"""What every registered engine must do, checked over every engine of the registry (OpenSpiel's
`random_sim_test` is the model).  A new engine is covered by being registered; nothing here
names a game.

Per engine and per allowed player count (the smallest and the largest):
- random playouts reach a terminal state;
- legal moves are the same on a clone, and playing on a clone leaves the original alone;
- `returns` are 1 split among the winners (sum 1) or all 0 (no winner, unfinished);
- listed chance outcomes have positive exact probabilities that sum to exactly 1, and
  `sample_chance` draws one of them;
- a game that rotates its deal gets the deal back after a full turn of the table;
- a game that reads positions reads back what it writes;
- legal moves (and listed chance outcomes) are unique; a move that is not legal in the
  position, and any move once the game is over, raises `IllegalMoveError` and changes nothing;
- the same seed gives the same records and summary with 1 and with 2 workers, and whatever
  the blocks the games are cut into.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from boardlab.analysis import engines
from boardlab.analysis.agents import RandomAgent
from boardlab.analysis.protocol import CHANCE, Game, IllegalMoveError
from boardlab.analysis.runner import make_match, play_blocks, run_records, summarize
from boardlab.layouts import game_ids, load

PLAYOUTS = 4
#: games of the worker test, in three blocks
GAMES = 21
#: decision nodes whose JSON position is read back, per playout (positions are slower)
POSITIONS_PER_PLAYOUT = 6


def engine_cases():
    for game_id in game_ids("engine"):
        info = load(game_id).game
        for players in sorted({info.min_players, info.max_players}):
            yield pytest.param(game_id, players, id=f"{game_id}-{players}p")


def new_game(game_id: str, players: int) -> Game:
    return engines.make_game(load(game_id), players)


def check_chance_node(game: Game, state, rng: random.Random):
    if not game.chance_listed:
        return state.sample_chance(rng)
    outcomes = state.chance_outcomes()
    assert outcomes, "a chance node with no outcome"
    assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1
    assert len({o for o, _ in outcomes}) == len(outcomes), "an outcome listed twice"
    drawn = state.sample_chance(rng)
    assert drawn in {o for o, _ in outcomes}
    return drawn


def check_decision_node(game: Game, state, rng: random.Random, read_position: bool):
    moves = list(state.legal_moves())
    assert moves, "a decision node with no legal move"
    copy = state.clone()
    assert list(copy.legal_moves()) == moves
    move = moves[rng.randrange(len(moves))]
    copy.apply(move)  # playing on the clone leaves the original as it was
    assert list(state.legal_moves()) == moves and state.current_player() >= 0
    if read_position:
        position = state.to_position()
        again = game.state_from_position(json.loads(json.dumps(position)))
        assert again.to_position() == position
        assert list(again.legal_moves()) == moves
    return move


@pytest.mark.parametrize("game_id,players", list(engine_cases()))
def test_random_playouts_follow_the_protocol(game_id, players):
    game = new_game(game_id, players)
    assert game.players == players and game.id == game_id
    for playout in range(PLAYOUTS):
        rng = random.Random(playout)
        state = game.new_initial_state()
        plies = 0
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(check_chance_node(game, state, rng))
            else:
                assert 0 <= player < players
                read = game.reads_positions and rng.random() < POSITIONS_PER_PLAYOUT / max(plies, 30)
                state.apply(check_decision_node(game, state, rng, read))
            plies += 1
            assert plies < 1_000_000, "a playout that does not end"
        assert list(state.legal_moves()) == []
        returns = state.returns()
        assert len(returns) == players
        assert sum(returns) == pytest.approx(1.0) or all(r == 0 for r in returns)
        assert all(returns[seat] > 0 for seat in state.winners()) or state.is_unfinished()
        assert json.dumps(state.stats())  # records travel between processes and into the store


class NoSuchMove:
    """A move no engine has: equal to nothing but itself."""


#: moves remembered per playout to try where they are not legal
REMEMBERED = 40


def assert_refused(game: Game, state, move) -> None:
    """Playing `move` raises IllegalMoveError and leaves the state as it was."""
    player, moves = state.current_player(), list(state.legal_moves())
    position = state.to_position() if game.reads_positions and player >= 0 else None
    with pytest.raises(IllegalMoveError):
        state.apply(move)
    assert state.current_player() == player and list(state.legal_moves()) == moves
    if position is not None:
        assert state.to_position() == position


@pytest.mark.parametrize("game_id,players", list(engine_cases()))
def test_illegal_moves_and_moves_after_the_end_raise_and_legal_moves_are_unique(game_id, players):
    game = new_game(game_id, players)
    for playout in range(PLAYOUTS):
        rng = random.Random(1000 + playout)
        state = game.new_initial_state()
        seen: list = []  # moves legal somewhere earlier in this game
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                assert_refused(game, state, NoSuchMove())  # not an outcome of this chance node
                state.apply(state.sample_chance(rng))
                continue
            moves = list(state.legal_moves())
            assert len(set(moves)) == len(moves), "a legal move listed twice"
            assert_refused(game, state, NoSuchMove())
            elsewhere = next((m for m in reversed(seen) if m not in moves), None)
            if elsewhere is not None:  # legal in another position, not in this one
                assert_refused(game, state, elsewhere)
            move = moves[rng.randrange(len(moves))]
            seen = (seen + [move])[-REMEMBERED:]
            state.apply(move)
        for move in seen[-3:] + [NoSuchMove()]:
            assert_refused(game, state, move)
        assert state.is_terminal()


@pytest.mark.parametrize("game_id,players", list(engine_cases()))
def test_a_rotated_deal_comes_back_after_a_full_turn(game_id, players):
    game = new_game(game_id, players)
    if not game.rotates_deal:
        pytest.skip(f"{game_id} does not rotate its deal")
    state = game.new_initial_state()
    assert state.current_player() == CHANCE
    deal = state.sample_chance(random.Random(5))
    assert game.rotate_deal(deal, 0) == deal
    turned = deal
    for _ in range(players):
        turned = game.rotate_deal(turned, 1)
        copy = game.new_initial_state()
        copy.apply(turned)  # a rotated deal is a deal the game accepts
    assert turned == deal


@pytest.mark.parametrize("game_id,players", list(engine_cases()))
def test_same_records_whatever_the_workers_and_the_blocks(game_id, players):
    """Small blocks shared by 1 or 2 workers give the records of one plain run, in any order."""
    game = new_game(game_id, players)
    agents = [lambda g: RandomAgent()] * players
    names = ["random"] * players
    match = make_match(game, agents, seed=11, agent_names=names)
    blocks = [(0, 8), (8, 16), (16, GAMES)]
    one = sorted(play_blocks(match, blocks, workers=1), key=lambda r: r.index)
    two = sorted(play_blocks(match, blocks, workers=2), key=lambda r: r.index)
    records, summary = run_records(game, agents, GAMES, seed=11, workers=1, agent_names=names, progress=False)
    assert one == two == records and [r.index for r in records] == list(range(GAMES))
    assert summarize(game, match, two, summary["seconds"]) == summary
    assert json.dumps(summary)
    if game.id in summary:  # the game's own figures, and their text form in each of its languages
        from boardlab.layouts.terms import speaking
        for language in getattr(getattr(game.definition, "rulebook", None), "languages", ()) or ("en",):
            with speaking(language):
                assert isinstance(game.describe_summary(summary[game.id]), str)
