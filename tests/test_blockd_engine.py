"""The Blockd engine against its slow twin (tests/blockd_reference.py), the spec's facts,
the perft file and hand-built positions for every rule option."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from blockd_definitions import NAMES, all_down_except, definition_named, grid_with, with_rules
from blockd_reference import Ref, perft, random_position, read_perft

from boardlab.analysis.perft import perft as perft_of_engine

from boardlab.analysis.blockd.engine import Move, make_game, random_deal
from boardlab.analysis.blockd.walks import Grid, self_avoiding_walks, walk_table
from boardlab.analysis.protocol import CHANCE, TERMINAL
from boardlab.analysis.runner import GameRecord
from boardlab.layouts import BoardlabError, load

DEFINITIONS = {name: definition_named(name) for name in NAMES}


def reference_moves(definition, players, position) -> list:
    """The reference's moves in the JSON form of `boardlab moves`."""
    out = []
    for restored, to in Ref(definition, players, position).moves():
        move = {} if restored is None else {"restore": list(restored)}
        move["to"] = list(to)
        out.append(move)
    return out


def engine_moves(state) -> list:
    return [m.to_json(state.game.grid.columns) for m in state.legal_moves()]


engine_perft = perft_of_engine  # the one perft routine, over the protocol


# -- the spec's facts -----------------------------------------------------------------------
def count_walks(rows, columns, torus, start, steps) -> int:
    """Self-avoiding step sequences counted directly on (row, column) pairs."""
    def count(cell, left, visited):
        if left == 0:
            return 1
        total = 0
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = cell[0] + dr, cell[1] + dc
            if torus:
                r, c = r % rows, c % columns
            elif not (0 <= r < rows and 0 <= c < columns):
                continue
            if (r, c) not in visited:
                total += count((r, c), left - 1, visited | {(r, c)})
        return total
    return count(start, steps, {start})


def test_torus_walk_counts_are_the_published_ones():
    grid = Grid(5, 5, torus=True)
    for cell in range(grid.cells):
        counts = [sum(1 for _ in self_avoiding_walks(grid, cell, k)) for k in range(1, 6)]
        assert counts == [4, 12, 36, 100, 280]
    assert [count_walks(5, 5, True, (2, 2), k) for k in range(1, 6)] == [4, 12, 36, 100, 280]


@pytest.mark.parametrize("rows,columns,torus", [(5, 5, False), (3, 4, True), (4, 6, False), (6, 6, True)])
def test_walk_counts_match_a_direct_count(rows, columns, torus):
    grid = Grid(rows, columns, torus)
    for cell in (0, grid.cells // 2, grid.cells - 1):
        for k in range(1, 6):
            assert sum(1 for _ in self_avoiding_walks(grid, cell, k)) == \
                count_walks(rows, columns, torus, grid.row_column(cell), k)


def test_start_card_reaches_every_other_cell_when_nothing_is_blocked():
    grid = Grid(5, 5, torus=True)
    for cell in range(grid.cells):
        destinations = {to for _, to in walk_table(grid, cell, (1, 2, 3, 4, 5))}
        assert destinations == set(range(grid.cells)) - {cell}
        assert len(destinations) == 24


def test_walk_table_keeps_every_destination_and_only_minimal_masks():
    grid = Grid(5, 5, torus=True)
    full = {}
    for walk in self_avoiding_walks(grid, 7, 4):
        full.setdefault(walk[-1], set()).add(sum(1 << c for c in walk))
    table = walk_table(grid, 7, (4,))
    kept = {}
    for mask, to in table:
        kept.setdefault(to, set()).add(mask)
    assert set(kept) == set(full)
    for to, masks in full.items():
        assert kept[to] <= masks
        for mask in masks:  # every walk holds a kept walk to the same destination
            assert any(k & mask == k for k in kept[to])


# -- the engine against the reference -------------------------------------------------------
positions = st.builds(
    lambda name, players_share, seed, down_share: (name, players_share, seed, down_share),
    st.sampled_from(NAMES), st.floats(0, 1), st.integers(0, 2**32), st.floats(0, 0.9))


def _position(case):
    name, players_share, seed, down_share = case
    d = DEFINITIONS[name]
    players = d.game.min_players + round(players_share * (d.game.max_players - d.game.min_players))
    position = random_position(d, players, random.Random(seed), down_share=down_share)
    return d, players, position


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_legal_moves_match_the_reference(case):
    d, players, position = _position(case)
    state = make_game(d, players).state_from_position(position)
    assert engine_moves(state) == reference_moves(d, players, position)


@settings(max_examples=60, deadline=None)
@given(positions.filter(lambda case: case[3] > 0.45))
def test_two_move_sequences_match_the_reference(case):
    d, players, position = _position(case)
    state = make_game(d, players).state_from_position(position)
    assert engine_perft(state, 2) == perft(Ref(d, players, position), 2)


@settings(max_examples=300, deadline=None)
@given(positions)
def test_position_json_round_trips(case):
    d, players, position = _position(case)
    game = make_game(d, players)
    state = game.state_from_position(position)
    again = state.to_position()
    assert again == {**position, "down": sorted(position["down"])}
    assert game.state_from_position(json.loads(json.dumps(again))).to_position() == again
    for move in state.legal_moves():
        assert Move.from_json(move.to_json(d.board.columns), d.board.columns) == move
        assert Move.from_text(move.text(d.board.columns), d.board.columns) == move


@pytest.mark.parametrize("entry", read_perft(), ids=lambda e: e["id"])
def test_perft_file(entry):
    d = definition_named(entry["definition"])
    ref = Ref(d, entry["players"], entry["position"])  # the engine's counts: tests/test_perft.py
    assert [perft(ref, 1), perft(ref, 2)] == [entry["perft"][1], entry["perft"][2]]  # depth 3: the slow test


@pytest.mark.slow
@pytest.mark.skipif("not config.getoption('markexpr')", reason="about a minute: run by make test-slow (-m slow)")
@pytest.mark.parametrize("entry", read_perft(), ids=lambda e: e["id"])
def test_perft_file_is_the_references_count(entry):
    d = definition_named(entry["definition"])
    ref = Ref(d, entry["players"], entry["position"])
    assert {depth: perft(ref, depth) for depth in entry["perft"]} == entry["perft"]


@pytest.mark.parametrize("name", NAMES)
def test_random_games_follow_the_reference_turn_by_turn(name):
    """Whole games: the same random moves in engine and reference give the same positions,
    moves, eliminations and winner (turn order, flips, restore bonus, elimination rules)."""
    d = DEFINITIONS[name]
    columns = d.board.columns
    tiebreaks = 0
    for players in range(d.game.min_players, d.game.max_players + 1):
        game = make_game(d, players)
        for seed in range(6):
            rng = random.Random(seed)
            state = game.new_initial_state()
            assert state.current_player() == CHANCE
            state.apply(random_deal(game, rng))
            if state.eliminations or state.is_terminal():
                continue
            ref = Ref(d, players, state.to_position())
            while not state.is_terminal():
                assert not ref.over()
                position = state.to_position()
                assert position["to_move"] == ref.to_move
                assert position["pawns"] == {c: list(p) for c, p in ref.pawn.items()}
                assert sorted(map(tuple, position["down"])) == sorted(ref.down)
                assert state.restore[state.mover] == ref.bonus[ref.to_move]
                moves = engine_moves(state)
                assert moves == reference_moves(d, players, position)
                assert [(tuple(m["restore"]) if "restore" in m else None, tuple(m["to"])) for m in moves] == ref.moves()
                move = state.legal_moves()[rng.randrange(len(moves))]
                state.apply(move)
                ref.play((tuple(divmod(move.restore, columns)) if move.restore >= 0 else None,
                          divmod(move.to, columns)))
            assert ref.over()
            expected = () if ref.winner is None else (d.cards.suits.index(ref.winner),)
            assert state.winners() == expected
            tiebreaks += state.tiebreak
    if d.rules.elimination == "end_of_round":
        assert tiebreaks, "these seeds include games won by the most-recent-move tie-break"


@pytest.mark.parametrize("name", NAMES)
def test_invariants_in_random_play(name):
    d = DEFINITIONS[name]
    game = make_game(d, d.game.max_players)
    on_down = 0
    for seed in range(10):
        rng = random.Random(seed)
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        while not state.is_terminal():
            moves = state.legal_moves()
            assert moves, "the player to move always has a move"
            assert sorted(moves, key=Move.sort_key) == moves and len(set(moves)) == len(moves)
            blocked = state.down | state.deal.blind
            for seat, cell in enumerate(state.pawns):
                if cell >= 0:
                    if game.flip_at_once and d.rules.pawns == "stack":  # stacked_flip = "always"
                        assert not state.deal.blind >> cell & 1
                        on_down += bool(state.down >> cell & 1)  # left behind by a stacked pawn
                    else:
                        assert not blocked >> cell & 1, "a face-down card never holds a pawn"
                    assert state.mobility(seat) == len({m.to for m in state.moves_of(seat) if m.restore < 0})
            if not state.restore[state.mover]:
                assert all(m.restore < 0 for m in moves)
            copy = state.clone()
            state.apply(moves[rng.randrange(len(moves))])
            assert copy.pawns != state.pawns or copy.down != state.down  # the clone is independent
        assert len(state.winners()) <= 1
        assert state.length() == state.turns <= d.rules.max_turns
    if d.rules.pawns == "stack" and d.rules.stacked_flip == "always":
        assert on_down, "these seeds leave a pawn on a card turned down under it"


# -- hand-built positions -------------------------------------------------------------------
def two_player_dead_end(d):
    """Red (seat 0) and blue each have one move, then neither has any."""
    cards = {(0, 0): "B1", (0, 1): "G1", (2, 2): "R1", (2, 3): "Y1"}
    return {"grid": grid_with(d, cards), "down": all_down_except(d, *cards),
            "pawns": {"red": [0, 0], "blue": [2, 2]}, "to_move": "red", "restore": False}


@pytest.mark.parametrize("card_rule", ["flip", "stay"])
def test_immediate_elimination_ends_the_game_and_flips_or_keeps_the_card(card_rule):
    d = with_rules(load("blockd"), restore_bonus=False, eliminated_card=card_rule)
    state = make_game(d, 2).state_from_position(two_player_dead_end(d))
    assert state.legal_moves() == [Move(1)]
    state.apply(Move(1))
    assert state.current_player() == 1 and state.legal_moves() == [Move(13)]
    state.apply(Move(13))
    assert state.is_terminal() and state.winners() == (1,) and not state.tiebreak
    assert state.eliminations == [(2, 0)] and state.pawns == [-1, 13]
    assert bool(state.down >> 1 & 1) == (card_rule == "flip")
    assert state.returns() == (0.0, 1.0) and state.length() == 2


def test_end_of_round_everyone_out_goes_to_the_most_recent_mover():
    d = with_rules(load("blockd"), restore_bonus=False, elimination="end_of_round")
    state = make_game(d, 2).state_from_position(two_player_dead_end(d))
    state.apply(Move(1))
    state.apply(Move(13))
    assert state.is_terminal() and state.winners() == (1,) and state.tiebreak
    assert state.eliminations == [(2, 0), (2, 1)]
    assert state.stats()["tiebreak"] is True


def three_player_squeeze(d):
    """Blue steps next to red; in round 2 red is stuck; blue's only way out is red's cell."""
    cards = {(0, 1): "G1", (0, 2): "B1", (0, 3): "Y1",
             (3, 0): "R2", (3, 1): "B2", (3, 2): "G2", (3, 3): "Y2", (3, 4): "R3"}
    return {"grid": grid_with(d, cards), "down": all_down_except(d, *cards),
            "pawns": {"red": [0, 1], "blue": [0, 3], "green": [3, 0]}, "to_move": "blue", "restore": False}


@pytest.mark.parametrize("elimination,card_rule", [("immediate", "flip"), ("immediate", "stay"),
                                                   ("end_of_round", "flip"), ("end_of_round", "stay")])
def test_eliminated_pawn_and_card(elimination, card_rule):
    d = with_rules(load("blockd"), restore_bonus=False, elimination=elimination, eliminated_card=card_rule)
    state = make_game(d, 3).state_from_position(three_player_squeeze(d))
    assert state.legal_moves() == [Move(2)]
    state.apply(Move(2))  # blue to (0, 2), next to red
    assert state.current_player() == 2 and state.legal_moves() == [Move(17), Move(18)]
    state.apply(Move(17))  # green to (3, 2); round 2: red has no move
    if elimination == "immediate":
        assert state.eliminations[0] == (2, 0) and state.pawns[0] == -1
        if card_rule == "stay":  # red's card stays up: blue may go there
            assert state.eliminations == [(2, 0)]
            assert state.current_player() == 1 and state.legal_moves() == [Move(1)]
        else:  # red's card is down: blue is out too
            assert state.eliminations == [(2, 0), (2, 1)] and state.is_terminal() and state.winners() == (2,)
    else:  # red is marked, its pawn stays and blocks blue, who is marked too; green plays on
        assert state.current_player() == 2 and state.pawns[0] == 1 and state.marked == [True, True, False]
        assert state.moves_of(1) == [] and state.eliminations == []
        state.apply(Move(19))
        assert state.is_terminal() and state.winners() == (2,) and not state.tiebreak
        assert state.eliminations == [(2, 0), (2, 1)]
        assert bool(state.down >> 1 & 1) == (card_rule == "flip")


def test_restore_bonus_is_earned_used_and_keeps_a_player_in():
    d = with_rules(load("blockd"), eliminated_card="flip")
    cards = {(0, 0): "Y1", (0, 1): "R1", (2, 2): "G1", (2, 3): "B1"}
    position = {"grid": grid_with(d, cards), "down": all_down_except(d, *cards),
                "pawns": {"red": [0, 0], "blue": [2, 2]}, "to_move": "red", "restore": False}
    state = make_game(d, 2).state_from_position(position)
    state.apply(Move(1))  # red ends on a red card: bonus earned
    assert state.restore[0] and state.restores_earned == 1
    state.apply(Move(13))  # blue ends on a blue card: bonus earned
    assert state.restores_earned == 2
    # Red has no move without a restore, so it is not eliminated: its moves all restore a neighbour.
    assert state.current_player() == 0 and state.mobility(0) == 0
    assert state.legal_moves() == [Move(0, 0), Move(2, 2), Move(6, 6), Move(21, 21)]
    state.apply(Move(0, 0))  # turn (0, 0) back up and step onto it; Y1 earns nothing
    assert state.restores_used == 1 and not state.restore[0]
    assert not state.down >> 0 & 1 and state.down >> 1 & 1
    assert state.current_player() == 1 and all(m.restore >= 0 for m in state.legal_moves())
    stats = state.stats()
    assert (stats["restores_earned"], stats["restores_used"]) == (2, 1)


def test_restore_flag_is_refused_without_the_bonus():
    d = with_rules(load("blockd"), restore_bonus=False)
    position = two_player_dead_end(d) | {"restore": True}
    with pytest.raises(BoardlabError, match="restore bonus"):
        make_game(d, 2).state_from_position(position)


def test_max_turns_ends_unfinished():
    d = with_rules(load("blockd"), max_turns=3)
    game = make_game(d, 4)
    state = game.new_initial_state()
    state.apply(state.sample_chance(random.Random(5)))
    for _ in range(3):
        assert not state.is_terminal()
        state.apply(state.legal_moves()[0])
    assert state.current_player() == TERMINAL and state.is_unfinished()
    assert state.winners() == () and state.returns() == (0.0,) * 4 and state.length() == 3
    assert state.legal_moves() == []


def test_pawn_rules_on_a_line():
    """A pawn two steps from red on a flat row: pass (over, not onto), block, stack."""
    base = with_rules(load("blockd"), torus=False, restore_bonus=False)
    cards = {(0, 0): "R2", (0, 1): "B1", (0, 2): "G1", (1, 0): "Y1", (1, 1): "R3"}
    position = {"grid": grid_with(base, cards), "down": all_down_except(base, *cards),
                "pawns": {"red": [0, 0], "blue": [0, 1]}, "to_move": "red", "restore": False}
    expected = {"pass": [Move(2), Move(6)], "block": [Move(6)], "stack": [Move(2), Move(6)]}
    for rule, moves in expected.items():
        state = make_game(with_rules(base, pawns=rule), 2).state_from_position(position)
        assert state.legal_moves() == moves, rule
    # ending on another pawn: only under stack
    position = position | {"pawns": {"red": [0, 0], "blue": [0, 2]}}
    for rule, moves in {"pass": [Move(6)], "block": [Move(6)], "stack": [Move(2), Move(6)]}.items():
        assert make_game(with_rules(base, pawns=rule), 2).state_from_position(position).legal_moves() == moves


def test_stacked_pawns_keep_their_card_up_until_the_last_leaves():
    d = with_rules(load("blockd"), torus=False, restore_bonus=False, pawns="stack")
    cards = {(0, 0): "R1", (0, 1): "B1", (0, 2): "G1", (1, 1): "Y1"}
    position = {"grid": grid_with(d, cards), "down": all_down_except(d, *cards),
                "pawns": {"red": [0, 1], "blue": [0, 1]}, "to_move": "red", "restore": False}
    state = make_game(d, 2).state_from_position(position)
    state.apply(Move(0))
    assert not state.down >> 1 & 1  # blue still stands on (0, 1)
    state.apply(Move(2))
    assert state.down >> 1 & 1


def test_stacked_flip_always_turns_a_shared_card_down_at_once():
    """Under stacked_flip = "always" the card turns down as red leaves; blue still moves off it by its value."""
    d = with_rules(load("blockd"), torus=False, restore_bonus=False, pawns="stack", stacked_flip="always")
    cards = {(0, 0): "R1", (0, 1): "B1", (0, 2): "G1", (1, 1): "Y1"}
    position = {"grid": grid_with(d, cards), "down": all_down_except(d, *cards),
                "pawns": {"red": [0, 1], "blue": [0, 1]}, "to_move": "red", "restore": False}
    state = make_game(d, 2).state_from_position(position)
    state.apply(Move(0))
    assert state.down >> 1 & 1  # face down at once, blue on it
    assert state.legal_moves() == [Move(0), Move(2), Move(6)]  # B1: one step, onto red (stack), (0, 2) or (1, 1)
    state.apply(Move(2))
    assert state.down >> 1 & 1 and state.pawns[1] == 2  # red, boxed in on (0, 0), is then eliminated
    # the same position under "last" keeps the card up while blue stands on it
    last = make_game(with_rules(d, stacked_flip="last"), 2).state_from_position(position)
    last.apply(Move(0))
    assert not last.down >> 1 & 1


def test_summarize_counts_from_stats():
    game = make_game(load("blockd"), 2)
    def record(i, stats, unfinished=False):
        return GameRecord(i, i, 0, ("random", "random"), () if unfinished else (0,), unfinished, 10, stats)
    records = [record(0, {"eliminations": [[3, 1]], "restores_earned": 2, "restores_used": 1, "tiebreak": False}),
               record(1, {"eliminations": [[3, 0], [4, 1]], "restores_earned": 1, "restores_used": 1,
                          "tiebreak": True}),
               record(2, {"eliminations": [], "restores_earned": 5, "restores_used": 4, "tiebreak": False}, True)]
    out = game.summarize(records)
    assert out["eliminations_by_round"] == {"3": 2, "4": 1}
    assert (out["restores_earned"], out["restores_used"]) == (8, 6)
    assert out["decided_by_tiebreak"] == 1 and out["tiebreak_share"] == 0.5 and out["unfinished"] == 1


# -- malformed positions --------------------------------------------------------------------
def _good(d):
    return two_player_dead_end(d)


@pytest.mark.parametrize("change,message", [
    (lambda p: p | {"grid": p["grid"][:-1]}, "rows"),
    (lambda p: p | {"grid": p["grid"][:-1] + [p["grid"][-1] + " R1"]}, "tokens"),
    (lambda p: p | {"grid": [p["grid"][0].replace("B1", "Q1", 1)] + p["grid"][1:]}, "unknown card"),
    (lambda p: p | {"grid": [p["grid"][0].replace("B1", "G1", 1)] + p["grid"][1:]}, "more often"),
    (lambda p: p | {"pawns": {"red": [0, 2], "blue": [2, 2]}}, "face-down"),
    (lambda p: p | {"pawns": {"red": [0, 0], "blue": [0, 0]}}, "already holds"),
    (lambda p: p | {"pawns": {"red": [0, 0], "purple": [2, 2]}}, "not a colour"),
    (lambda p: p | {"pawns": {"red": [0, 0], "blue": [9, 2]}}, "off the"),
    (lambda p: p | {"to_move": "green"}, "no pawn"),
    (lambda p: p | {"restore": "yes"}, "true or false"),
    (lambda p: p | {"colour": 1}, "unknown key"),
    (lambda p: {k: v for k, v in p.items() if k != "grid"}, "no 'grid'"),
    (lambda p: p | {"game": "links"}, "not blockd"),
    (lambda p: [p], "JSON object"),
])
def test_malformed_positions_are_refused(change, message):
    d = with_rules(load("blockd"), restore_bonus=False)
    with pytest.raises(BoardlabError, match=message):
        make_game(d, 2).state_from_position(change(_good(d)))


def test_blind_card_holds_no_pawn():
    d = load("blockd")
    cards = {(0, 0): "X", (0, 1): "R0"}
    position = {"grid": grid_with(d, cards), "pawns": {"red": [0, 0]}, "to_move": "red"}
    with pytest.raises(BoardlabError, match="blind"):
        make_game(d, 2).state_from_position(position)


def test_deal_is_a_uniform_arrangement():
    from scipy.stats import chisquare

    game = make_game(load("blockd"), 4)
    deals = [random_deal(game, random.Random(seed)) for seed in range(5000)]
    assert all(sorted(d) == list(range(game.grid.cells)) for d in deals)
    for cell in (0, 12, 24):
        counts = [0] * len(game.cards)
        for d in deals:
            counts[d[cell]] += 1
        assert chisquare(counts).pvalue > 1e-3  # fixed seeds: this p-value never changes
    state = game.new_initial_state()
    assert state.sample_chance(random.Random(9)) == random_deal(game, random.Random(9))
    state.apply(random_deal(game, random.Random(9)))
    assert [state.deal.suit[cell] for cell in state.pawns] == [0, 1, 2, 3]  # seat s on suit s's start card
    assert all(game.cards[state.deal.card_ids[cell]].value == d_start for cell, d_start in
               zip(state.pawns, [load("blockd").cards.start_value] * 4))
