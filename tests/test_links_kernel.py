"""The compiled Links kernel against the reference engine, move by move, under every rule option."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from boardlab.analysis import runner
from boardlab.analysis.links import kernel as K
from boardlab.analysis.links.agents import AGENTS
from boardlab.analysis.links.batch import block_deals, pack, record_of, tables_of
from boardlab.analysis.links.engine import make_game
from boardlab.analysis.links.table import Move
from boardlab.cli import main
from boardlab.layouts import load

RULES = ["links", "links-capturing-card-taken", "links-free-play", "links-master-match"]


def view(game, s):
    """The meaningful fields of a kernel position (stale cells past a length left out)."""
    o = tables_of(game).offsets
    cards = int(o[K.O_CARDS])
    hands = [list(s[o[K.O_HANDS] + i * cards:o[K.O_HANDS] + i * cards + s[o[K.O_HAND_LEN] + i]])
             for i in range(game.players)]
    deck = list(s[o[K.O_DECK] + s[K.DECK_POS]:o[K.O_DECK] + s[K.DECK_LEN]])
    lines = []
    for slot in range(int(o[K.O_LINES])):
        base, length = slot * (cards + 1), s[o[K.O_LINE_LEN] + slot]
        lines.append((list(s[o[K.O_LINE_KIND] + base:o[K.O_LINE_KIND] + base + length]),
                      list(s[o[K.O_LINE_END] + base:o[K.O_LINE_END] + base + length]),
                      s[o[K.O_RUN] + slot], s[o[K.O_COUNT] + slot]))
    counters = [-1 if s[K.DONE] else s[K.MOVER]] + [s[f] for f in (K.TURNS, K.PLAYS, K.BLOCKED, K.PASSES, K.LEAD_CHANGES, K.LEADER, K.DONE,
                               K.UNFINISHED)]
    tail = list(s[o[K.O_CAPTURED]:o[K.O_SIZE]])
    return json.dumps([hands, deck, lines, counters, tail], default=int)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("players", [2, 4, 7])
def test_kernel_follows_the_engine_move_by_move(rules, players):
    game = make_game(load(rules), players)
    t = tables_of(game)
    moves = t.move_buffer()
    rng = random.Random(players * 31 + RULES.index(rules))
    for _ in range(6):
        state = game.new_initial_state()
        deal = state.sample_chance(rng)
        state.apply(deal)
        s = t.empty_positions(1)[0]
        K.deal(s, t.offsets, t.kinds, t.rules, np.array(deal, dtype=np.int64), t.hand_size)
        while not state.is_terminal():
            assert view(game, s) == view(game, pack(state))
            m = K.legal_moves(s, t.offsets, t.kinds, t.rules, s[K.MOVER], moves)
            assert [Move(*map(int, row)) for row in moves[:m]] == state.legal_moves()
            move = state.legal_moves()[rng.randrange(m)]
            state.apply(move)
            K.apply(s, t.offsets, t.kinds, t.rules, *move)
        assert s[K.DONE] == 1 and view(game, s) == view(game, pack(state))
        record = record_of(game, s, 0, 0, 0, ())
        assert (record.winners, record.unfinished, record.length, record.stats) == \
               (state.winners(), state.is_unfinished(), state.length(), state.stats())


@pytest.mark.parametrize("rules", RULES)
def test_kernel_games_replay_through_the_engine(rules):
    """Whole games played inside the kernel (its own random stream), replayed by the engine."""
    game = make_game(load(rules), 4)
    t = tables_of(game)
    moves = t.move_buffer()
    for seed in range(8):
        state = game.new_initial_state()
        deal = state.sample_chance(random.Random(seed))
        state.apply(deal)
        s = t.empty_positions(1)[0]
        K.deal(s, t.offsets, t.kinds, t.rules, np.array(deal, dtype=np.int64), t.hand_size)
        log = np.zeros((game.rules.max_turns, 4), dtype=np.int64)
        played = K.play_out(s, t.offsets, t.kinds, t.rules, moves, np.uint64(seed + 1), seed % 4, seed % 4, log)
        for kind, line, exposed, count in log[:played].tolist():
            assert len(state.legal_moves()) == count
            state.apply(Move(kind, line, exposed))
        assert state.is_terminal() and view(game, s) == view(game, pack(state))


def test_batched_random_self_play_matches_reference_deals_and_workers(capsys):
    game = make_game(load("links"), 3)
    names = ["random"] * 3
    records, summary = runner.run(game, [AGENTS["random"]] * 3, 300, 5, workers=1, agent_names=names,
                                  progress=False)
    again, _ = runner.run(game, [AGENTS["random"]] * 3, 300, 5, workers=2, agent_names=names, progress=False)
    assert records == again
    # game i is dealt as the reference engine deals it (runner.play_one's chance stream, turned)
    match = runner.make_match(game, [AGENTS["random"]] * 3, 5, agent_names=names)
    deals, rotations, rows = block_deals(game, match, range(12))
    for i in range(12):
        deal, rotation, _ = match.seating(i)
        shuffle = game.new_initial_state().sample_chance(random.Random(runner.derive_seed(5, runner.CHANCE_STREAM, deal)))
        turned = game.rotate_deal(shuffle, match.deal_rotation(i)) if match.deal_rotation(i) else shuffle
        assert (deals[i], rotations[i], tuple(rows[i])) == (deal, rotation, turned)
    assert len({tuple(r) for r in rows}) == 12  # every rotation of a deal is another arrangement
    assert summary["links"]["finished_games"] == 300
