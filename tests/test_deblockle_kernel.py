"""The compiled Deblockle kernel against the reference engine: its random games replayed move
by move (every move must be the engine's legal move of the same rank), with the same ending,
length and statistics; and the runner's fast path, whatever the block size or worker count."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from deblockle_reference import definition_named

from boardlab.analysis import engines
from boardlab.analysis.deblockle import kernel
from boardlab.analysis.deblockle.batch import play_block, setups
from boardlab.analysis.deblockle.engine import Move, make_game
from boardlab.analysis.runner import CHANCE_STREAM, Match, derive_seed, run_records

NAMES = ("deblockle", "deblockle-no-touching", "deblockle-hopless-ends-turn", "deblockle-two-blocks", "board-5x6",
         "board-3x3", "board-open-points", "deblockle-handicap")


def short(definition, turns=120):
    return dataclasses.replace(definition, rules=dataclasses.replace(definition.rules, max_turns=turns))


@pytest.mark.parametrize("name", NAMES)
def test_kernel_games_replay_through_the_engine(name):
    game = make_game(short(definition_named(name)))
    count = 12
    orientations = setups(game, 3, np.arange(count))
    result = kernel.play_setups(game, orientations, np.arange(count, dtype=np.uint64) * 977 + 11, recorded=count)
    for g in range(count):
        state = game.new_initial_state()
        state.apply(tuple(orientations[g].tolist()))  # a random setup places what was rolled
        for frm, tip, to in result.history(g):
            move = Move(frm, tip, to)
            legal = state.legal_moves()
            assert move in legal, (name, g, move)
            state.apply(move)
        assert result.record(g) == (state.winners(), state.is_unfinished(), state.length(), state.stats())


def test_kernel_picks_the_engines_move_of_the_same_rank():
    """Move k of the kernel's list is `legal_moves()[k]` of the engine: a uniform k is a uniform move."""
    game = make_game(definition_named("deblockle"))
    t = kernel.tables_of(game)
    state = game.new_initial_state()
    state.apply(tuple(setups(game, 5, [0])[0].tolist()))
    masks = np.array(state.masks, dtype=np.int64)
    orient = np.array(state.orientation, dtype=np.int64)
    opt = np.zeros((kernel.OPTION_ROOM, 4), dtype=np.int64)
    rows, n = kernel.generate(0, masks, orient, t.neighbour, t.diagonal, t.around, t.tips, t.hop, t.star_mask,
                              t.target, t.rules, opt)
    assert n == len(state.legal_moves())
    assert [Move(*kernel.pick(opt, rows, k)) for k in range(n)] == state.legal_moves()


@pytest.mark.parametrize("setup", ["random", "adversarial"])
def test_fast_path_setups_are_the_engines(setup):
    """Game i starts as the reference path sets it up: the deal from `derive_seed(seed, CHANCE_STREAM, i)`."""
    d = definition_named("deblockle")
    game = make_game(dataclasses.replace(d, rules=dataclasses.replace(d.rules, setup=setup)))
    for index in range(4):
        state = game.new_initial_state()
        state.apply(state.sample_chance(random.Random(derive_seed(9, CHANCE_STREAM, index))))
        placed = [state.orientation[c] for cells in game.starts for c in cells]
        assert setups(game, 9, [index])[0].tolist() == placed


def test_runner_uses_the_fast_path_and_is_the_same_whatever_the_workers():
    game = make_game(short(definition_named("deblockle"), 200))
    factory = engines.agent_factories("deblockle")["random"]
    one_records, one = run_records(game, [factory, factory], 300, seed=4, workers=1, agent_names=["random"] * 2,
                           progress=False)
    two_records, two = run_records(game, [factory, factory], 300, seed=4, workers=2, agent_names=["random"] * 2,
                           progress=False)
    one.pop("seconds"), two.pop("seconds")
    assert one == two and one_records == two_records
    match = Match(game, (factory, factory), ("random", "random"), 4, False)
    assert play_block(game, match, 100, 110) == one_records[100:110]  # a game depends on (seed, index) alone
