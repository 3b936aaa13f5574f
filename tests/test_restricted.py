"""Restricted play: a barred agent never plays a barred move while it has another, barring an
element that cannot be used changes nothing (exactly the same moves and games), barring the only
winning move loses, and every game's declared elements come out of `boardlab skill`."""

from __future__ import annotations

import dataclasses
import random

import pytest

from boardlab.analysis import engines
from boardlab.analysis.agents import OnePlyAgent
from boardlab.analysis.restricted import BarredAgent, Restriction, effects
from boardlab.analysis.runner import make_match, play_one
from boardlab.analysis.store import ResultStore
from boardlab.layouts import BoardlabError, game_ids, load
from boardlab.layouts.registry import register_game


def games_with_elements():
    for game_id in game_ids("engine"):
        game = engines.make_game(load(game_id), 2 if load(game_id).game.min_players <= 2 else None)
        if game.restrictions():
            yield game_id, game


def positions(game, count: int, seed: int):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(30)):
            if state.is_terminal():
                break
            if state.current_player() < 0:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(state.random_move(rng))
        if not state.is_terminal() and state.current_player() >= 0:
            found.append(state)
    return found


def test_every_game_with_an_engine_declares_elements_with_names_of_its_own():
    declared = dict(games_with_elements())
    assert len(declared) >= 3
    for game_id, game in declared.items():
        names = [r.name for r in game.restrictions()]
        assert len(set(names)) == len(names)
        assert game.restriction(names[0]).name == names[0]
        with pytest.raises(BoardlabError, match="no element"):
            game.restriction("no-such-element")


def test_a_barred_agent_plays_no_barred_move_while_it_has_another_and_else_as_the_full_agent():
    for game_id, game in games_with_elements():
        full = engines.agent_factories(game_id)[game.restricted_agent()]
        for restriction in game.restrictions():
            barred = BarredAgent(full(game), restriction)
            for state in positions(game, 15, 3):
                moves = state.legal_moves()
                allowed = [m for m in moves if not restriction.bars(state, m)]
                a, b = random.Random(9), random.Random(9)
                move = barred.choose(state, a)
                if allowed and len(allowed) < len(moves):
                    assert move in allowed
                else:  # nothing barred, or nothing else: exactly the full agent's move and draws
                    assert move == full(game).choose(state, b) and a.getstate() == b.getstate()


def test_every_declared_element_is_a_choice_some_position_offers():
    for game_id, game in games_with_elements():
        for restriction in game.restrictions():
            assert any(restriction.bars(state, m) for state in positions(game, 60, 5) for m in state.legal_moves()), \
                f"{game_id}: {restriction.name} is never usable in random play"


def play_from(state, agents, seed):
    rng = [random.Random(seed), random.Random(seed + 1)]
    moves = []
    while not state.is_terminal():
        move = agents[state.current_player()].choose(state, rng[state.current_player()])
        moves.append(move)
        state.apply(move)
    return moves, state.winners()


def test_barring_an_element_a_tiny_position_cannot_use_changes_nothing():
    """Deblockle with one block each: the block to tip is always the closest one, so the barred
    greedy agent plays exactly the full agent's game, move for move."""
    game = engines.make_game(load("deblockle"), 2)
    tiny = {"game": "deblockle", "to_move": 1, "blocks": [{"owner": 1, "at": "d4", "top": "X", "north": "Stop"},
                                                           {"owner": 2, "at": "c2", "top": "Stop", "north": "Cross"}]}
    greedy = engines.agent_factories("deblockle")["greedy"]
    farther = game.restriction("farther-block")
    for seed in range(4):
        full = play_from(game.state_from_position(tiny), [greedy(game), greedy(game)], seed)
        barred = play_from(game.state_from_position(tiny), [BarredAgent(greedy(game), farther), greedy(game)], seed)
        assert barred == full and len(full[0]) > 2


def test_barring_the_restore_bonus_where_the_rules_leave_it_out_changes_nothing():
    """Blockd without the restore bonus: greedy barred from restoring plays exactly greedy's games."""
    from boardlab.analysis.blockd.restrictions import RESTRICTIONS

    definition = load("blockd")
    definition = dataclasses.replace(definition, rules=dataclasses.replace(definition.rules, restore_bonus=False))
    game = engines.make_game(definition, 2)
    assert "restore" not in [r.name for r in game.restrictions()]  # not offered where the rules leave it out
    restore = next(r for r in RESTRICTIONS if r.name == "restore")
    greedy = engines.agent_factories("blockd")["greedy"]
    one = make_match(game, [greedy, greedy], 4, agent_names=["a", "b"])
    two = make_match(game, [greedy, lambda g: BarredAgent(greedy(g), restore)], 4, agent_names=["a", "b"])
    for i in range(4):
        assert play_one(one, i) == play_one(two, i)


class _Taker(OnePlyAgent):
    """One ply on Pile: wins at once when it can; every other move is worth the same."""

    @staticmethod
    def value(after, seat):
        return 0.0


@pytest.fixture
def pile_game():
    """Pile (tests/toygame) registered for the test only: a game left registered would show in
    every later test that lists the games (test_docs' definition keys)."""
    from boardlab.layouts import registry
    from toygame.registration import GAME

    register_game(GAME)
    yield engines.make_game(load("toygame"), 2)
    registry.unregister_game(GAME.id)


def test_barring_the_only_winning_move_loses(pile_game):
    """Pile with 3 counters and at most 3 taken: taking all 3 is the only win; barred from it, the
    mover leaves 1 or 2 and the one-ply opponent takes them: it loses every game, the full agent
    wins every game."""
    game = pile_game
    take_all = Restriction("take-all", "taking the whole pile", lambda state, move: move == state.pile)
    for seed in range(20):
        for barred, winner in ((True, 1), (False, 0)):
            state = game.new_initial_state()
            state.pile, state.mover = 3, 0
            movers = [BarredAgent(_Taker(), take_all) if barred else _Taker(), _Taker()]
            rng = random.Random(seed)
            while not state.is_terminal():
                state.apply(movers[state.current_player()].choose(state, rng))
            assert state.winners() == (winner,)


def test_effects_through_the_store_on_any_worker_count(tmp_path):
    game_id, game = next(games_with_elements())
    with ResultStore(tmp_path / "a.sqlite") as store:
        first = effects(game.definition, 2, 6, 1, store)
    assert [e["element"] for e in first["elements"]] == [r.name for r in game.restrictions()]
    assert all(e["games"] == 6 for e in first["elements"])
    from boardlab.analysis.runner import LocalBackend

    with ResultStore(tmp_path / "b.sqlite") as store:
        again = effects(game.definition, 2, 6, 1, store, backend=LocalBackend(2))
    first.pop("seconds"), again.pop("seconds")
    assert again == first


def solved(state, seat) -> int:
    """The value of `state` for `seat` with best play on both sides, by brute force over the whole
    game tree: +1 a win, -1 a loss, 0 neither (a two-player game with no chance after the deal)."""
    if state.is_terminal():
        winners = state.winners()
        if state.is_unfinished() or not winners:
            return 0
        return 1 if winners == (seat,) else (-1 if seat not in winners else 0)
    values = []
    for move in state.legal_moves():
        after = state.clone()
        after.apply(move)
        values.append(solved(after, seat))
    return max(values) if state.current_player() == seat else min(values)


class _Perfect(OnePlyAgent):
    """Plays a move of the best solved value (`solved`), ties at random."""

    name = "perfect"

    @classmethod
    def score(cls, state, seat, move):
        after = state.clone()
        after.apply(move)
        return solved(after, seat)


#: a late Blockd position (reached in random play) where red, to move with the restore bonus, has
#: 19 moves: restoring cell 5 and stepping onto it, a start card, is the only one that wins
BLOCKD_ONLY_WIN = {"game": "blockd", "grid": ["Y1 G2 Y2 G1 Y4", "Y0 R1 B4 X G4", "G0 G3 R0 R4 R2",
                                              "B5 Y5 G5 B3 R5", "Y3 B1 B0 R3 B2"],
                   "down": [[0, 3], [0, 4], [1, 0], [1, 2], [2, 0], [2, 2], [2, 3], [3, 0], [3, 1], [3, 3], [4, 0],
                            [4, 1], [4, 2], [4, 3]],
                   "pawns": {"red": [2, 4], "blue": [2, 1]}, "to_move": "red", "restore": True}


def test_barring_blockds_only_winning_move_loses_with_best_play():
    """Blockd, a position solved by brute force: the only winning move uses both the restore bonus
    and a start card, every other move loses.  The perfect agent wins from it every time; the same
    agent barred from either element loses every time against the perfect opponent."""
    game = engines.make_game(load("blockd"), 2)
    state = game.state_from_position(BLOCKD_ONLY_WIN)
    seat = state.current_player()
    values = {move: _Perfect.score(state, seat, move) for move in state.legal_moves()}
    wins = [move for move, value in values.items() if value == 1]
    assert len(values) == 19 and len(wins) == 1 and all(v == -1 for m, v in values.items() if m not in wins)
    for name in ("restore", "start-card"):
        restriction = game.restriction(name)
        assert restriction.bars(state, wins[0])
        assert not all(restriction.bars(state, move) for move in values)  # the barred agent has a choice
        for seed in range(5):
            for barred, winner in ((False, seat), (True, 1 - seat)):
                play = game.state_from_position(BLOCKD_ONLY_WIN)
                movers = {seat: BarredAgent(_Perfect(), restriction) if barred else _Perfect(), 1 - seat: _Perfect()}
                rng = random.Random(seed)
                while not play.is_terminal():
                    play.apply(movers[play.current_player()].choose(play, rng))
                assert play.winners() == (winner,), (name, seed, barred)


def test_the_probe_counts_the_decisions_barring_changes():
    """6x6 with 3 players: barred from the marker, greedy takes the commonest free sum anyway (proved
    decision by decision in test_sixbysix_restricted), so the probe finds it binding and changing
    nothing; barred from the bet face it bets the 1, which greedy often does not; an element barring
    no move is never binding; the probe stops after the game that reaches its decisions."""
    from boardlab.analysis.restricted import PROBE_DECISIONS, probe

    definition = load("sixbysix")
    game = engines.make_game(definition, 3)
    marker = probe(definition, 3, game.restriction("marker"), "greedy", seed=1)
    assert marker["binding"] > 0 and marker["changed"] == 0
    assert marker["decisions"] >= PROBE_DECISIONS and marker["games"] >= 1
    face = probe(definition, 3, game.restriction("bet-face"), "greedy", seed=1)
    assert 0 < face["changed"] <= face["binding"] <= face["decisions"]
    nothing = Restriction("nothing", "no move at all", lambda state, move: False)
    none = probe(definition, 3, nothing, "greedy", seed=1, games=2)
    assert none["games"] == 2 and none["decisions"] > 0 and none["binding"] == none["changed"] == 0


def test_an_element_whose_barring_changes_no_move_has_its_own_finding_not_too_few_games():
    from boardlab.analysis.report.findings import _restricted

    power = {"enough": False, "mdd": 0.2, "games_needed": 5000}
    row = {"element": "marker", "description": "a marker elsewhere", "discovery": False, "share": 0.33,
           "fair_share": 1 / 3, "games": 120, "power": power, "probe": {"games": 2, "decisions": 1092,
                                                                      "binding": 1092, "changed": 0}}
    found = _restricted({3: {"restricted": {"agent": "greedy", "elements": [row]}}})
    assert [f["kind"] for f in found] == ["element unused"]
    assert "changes none of greedy's moves: at all 1,092 decisions" in found[0]["text"]
    changed = {**row, "probe": {**row["probe"], "changed": 3}}
    found = _restricted({3: {"restricted": {"agent": "greedy", "elements": [changed]}}})
    assert [f["kind"] for f in found] == ["too few"]


def _two_sided_p(wins: int, decided: int) -> float:
    """The exact two-sided binomial p-value against a share of 1/2, from the binomial coefficients."""
    from math import comb

    k = max(wins, decided - wins)
    return min(1.0, 2 * sum(comb(decided, j) for j in range(k, decided + 1)) / 2 ** decided)


def _grouped_two_sided_p(records, agent: str, fair: float = 0.5) -> float:
    """The two-sided p-value with the rotation group as the unit, computed here from the records: the
    share at the effective number of decided games (the decided games times the binomial variance
    over the groups' cluster variance, at most the games), and twice the smaller binomial tail at
    those counts, each tail integrated numerically from the beta density (scipy's quad)."""
    from scipy.integrate import quad
    from scipy.special import beta

    totals: dict = {}
    for r in records:
        if not r.unfinished and len(r.winners) == 1:
            w, d = totals.get(r.deal, (0, 0))
            totals[r.deal] = (w + (r.agents[r.winners[0]] == agent), d + 1)
    wins, decided, k = sum(w for w, _ in totals.values()), sum(d for _, d in totals.values()), len(totals)
    share = wins / decided
    binomial = share * (1 - share) / decided
    cluster = sum(((w - share * d) / (decided / k)) ** 2 for w, d in totals.values()) / (k * (k - 1))
    n = decided if cluster <= binomial else decided * binomial / cluster
    w = share * n

    def at_least(x: float) -> float:  # P(X >= x) of a binomial(n, fair), x real
        if x <= 0:
            return 1.0
        if x > n:
            return 0.0
        return quad(lambda t: t ** (x - 1) * (1 - t) ** (n - x), 0, fair)[0] / beta(x, n - x + 1)

    return min(1.0, 2 * min(at_least(w), 1 - at_least(w + 1)))


def test_the_two_looks_together_reject_a_fair_element_at_most_five_percent_of_the_time():
    """By enumeration of every outcome of 60 + 60 decided games of a fair element: rejecting at the
    first look below ALPHA_FIRST or at the last below ALPHA - ALPHA_FIRST happens 3.6% of the time;
    two looks each at 5% would reject 5.3% of the time (more than the 5% claimed)."""
    from math import comb

    from boardlab.analysis.restricted import ALPHA_FIRST
    from boardlab.analysis.skill import ALPHA

    def level(first: float, last: float) -> float:
        return sum(comb(60, a) * comb(60, b) for a in range(61) for b in range(61)
                   if _two_sided_p(a, 60) < first or _two_sided_p(a + b, 120) < last) / 2 ** 120

    assert level(ALPHA_FIRST, ALPHA - ALPHA_FIRST) <= ALPHA < level(ALPHA, ALPHA)


def test_an_element_answered_at_the_first_look_plays_no_more(tmp_path):
    """Deblockle's farther block at 2 players: greedy wins 52 of the first 60 decided games against
    greedy barred from it, p < 0.005 already: the element stops at 60 of its 120 games, and its
    p-value is the first look's times ALPHA / ALPHA_FIRST. Links' elements are not answered then and
    play all their games, their p-values the last look's times ALPHA / (ALPHA - ALPHA_FIRST). The
    p-values take the rotation group as the unit (`_grouped_two_sided_p`)."""
    from boardlab.analysis.report.jobs import Job, play_jobs

    with ResultStore(tmp_path / "s.sqlite") as store:
        deblockle = {e["element"]: e for e in effects(load("deblockle"), 2, 120, 1, store)["elements"]}
        links = effects(load("links"), 2, 120, 1, store)["elements"]
        plain = play_jobs([Job(load("deblockle"), 2, ("greedy", "greedy-without-farther-block"), 60, 1)], store,
                          workers=1, progress=False)[0]
        agent = engines.make_game(load("links"), 2).restricted_agent()
        stored = play_jobs([Job(load("links"), 2, (agent, f"{agent}-without-{e['element']}"), 120, 1) for e in links],
                           store, workers=1, progress=False)  # the store's games: nothing is played again
    far = deblockle["farther-block"]
    wins = sum(1 for r in plain.records if len(r.winners) == 1 and r.agents[r.winners[0]] == "greedy")
    decided = sum(1 for r in plain.records if len(r.winners) == 1 and not r.unfinished)
    assert (far["games"], far["wins"], far["decided"]) == (60, wins, decided) == (60, 52, 60)
    assert far["looks"] == {"first": 60, "planned": 120, "stopped_first": True}
    assert far["p_value"] == pytest.approx(min(1.0, _grouped_two_sided_p(plain.records, "greedy") * 0.05 / 0.005),
                                           abs=1e-6)
    assert far["p_value"] >= min(1.0, _two_sided_p(52, 60) * 0.05 / 0.005) - 1e-6  # never above the games' own
    for e, outcome in zip(links, stored):
        assert e["games"] == 120 and not e["looks"]["stopped_first"]
        assert e["p_value"] == pytest.approx(
            min(1.0, _grouped_two_sided_p(outcome.records, agent) * 0.05 / 0.045), abs=2e-6)


def test_a_probe_a_budget_cuts_short_says_so_and_a_rerun_reads_the_same(tmp_path):
    from boardlab.analysis.restricted import _probed

    definition = load("sixbysix")
    marker = engines.make_game(definition, 2).restriction("marker")
    with ResultStore(tmp_path / "cut.sqlite") as store:
        cut = _probed(definition, 2, marker, "greedy", 1, store, seconds=0.0)
        assert cut["games"] == 1 and cut["cut"]  # one game, then no CPU left
        assert _probed(definition, 2, marker, "greedy", 1, store) == cut  # stored as cut: a rerun reads it
    with ResultStore(tmp_path / "whole.sqlite") as store:
        whole = _probed(definition, 2, marker, "greedy", 1, store)
    assert "cut" not in whole and whole["games"] > 1 and whole["decisions"] > cut["decisions"]
