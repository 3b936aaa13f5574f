"""6x6's optional elements in restricted play: barred from the bet face, greedy always bets the
lowest face; barred from the marker, it always takes a commonest free sum (checked over many seeded
decisions at every player count against brute-force dice sums); on a last-chip position the bet
face decides whether the player survives the round, exactly as counting the 36 rolls says; and
barring greedy from the marker changes none of its games (it takes the commonest free sum anyway)."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from boardlab.analysis import engines
from boardlab.analysis.protocol import CHANCE
from boardlab.analysis.restricted import BarredAgent
from boardlab.analysis.runner import make_match, play_one
from boardlab.analysis.sixbysix.engine import Move
from boardlab.layouts import load

from sixbysix_helpers import brute_sums

FACES = (1, 2, 3, 4, 5, 6)


def game_for(players):
    return engines.make_game(load("sixbysix"), players)


def decisions(game, count, seed):
    """`count` decision states of seeded random play (each a fresh clone)."""
    rng = random.Random(seed)
    state, found = game.new_initial_state(), []
    while len(found) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            found.append(state.clone())
            state.apply(state.random_move(rng))
    return found


def test_sixbysix_declares_the_bet_face_and_the_marker():
    assert [r.name for r in game_for(2).restrictions()] == ["bet-face", "marker"]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_barred_greedy_never_uses_the_element_over_many_seeded_decisions(players):
    game = game_for(players)
    greedy = engines.agent_factories("sixbysix")["greedy"]
    no_face = engines.agent_factories("sixbysix")["greedy-without-bet-face"](game)
    no_marker = engines.agent_factories("sixbysix")["greedy-without-marker"](game)
    other_faces = 0
    for i, state in enumerate(decisions(game, 400, players)):
        active = len(state.order)
        sums = brute_sums(FACES, active)
        commonest = max(sums.get(x, 0) for x in state.free_numbers())
        full = greedy(game).choose(state, random.Random(i))
        face = no_face.choose(state, random.Random(i))
        marker = no_marker.choose(state, random.Random(i))
        assert face == Move(1, full.number)  # the same marker, the bet always on face 1
        assert sums.get(marker.number, 0) == commonest and marker in state.legal_moves()
        assert marker == full  # greedy takes the commonest free sum anyway
        other_faces += full.face != 1
    assert other_faces >= 10  # the full agent does bet other faces: the barred agent had a choice to lose


def test_the_bet_face_decides_a_last_chip_round_exactly():
    """2 players, seat 0 on 7; seat 1 bets its last chip.  Greedy takes 6 and bets 6 (a 6 on its
    die can never make the sum 6, so that refund is never wasted); barred, it bets 1 on 6.  It
    survives the round when its die shows its face or the dice sum to 6: 11 of the 36 rolls with
    the 6, 10 with the 1 (the roll 5 + 1 does both).  The engine's chance outcomes give the same
    exact probabilities of the game ending at once with seat 0 the winner."""
    game = game_for(2)
    greedy = engines.agent_factories("sixbysix")["greedy"]
    no_face = engines.agent_factories("sixbysix")["greedy-without-bet-face"](game)

    def start():
        state = game.new_initial_state()
        state.chips = [5, 1]
        state.apply(Move(1, 7))
        assert state.current_player() == 1
        return state

    def counted(face, marker):  # an independent count over every roll (seat 0's die, seat 1's die)
        survive = sum(d1 == face or d0 + d1 == marker for d0, d1 in itertools.product(FACES, repeat=2))
        return Fraction(36 - survive, 36)

    def engine_loss(move):
        total = Fraction(0)
        state = start()
        state.apply(move)
        for d0, p0 in state.chance_outcomes():
            after0 = state.clone()
            after0.apply(d0)
            for d1, p1 in after0.chance_outcomes():
                after = after0.clone()
                after.apply(d1)
                if after.is_terminal():
                    assert after.winners() == (0,)
                    total += p0 * p1
        return total

    full, barred = greedy(game).choose(start(), random.Random(0)), no_face.choose(start(), random.Random(0))
    assert (full, barred) == (Move(6, 6), Move(1, 6))
    assert engine_loss(full) == counted(6, 6) == Fraction(25, 36)
    assert engine_loss(barred) == counted(1, 6) == Fraction(26, 36)


@pytest.mark.parametrize("players", [2, 4])
def test_barring_greedy_from_the_marker_changes_none_of_its_games(players):
    game = game_for(players)
    greedy = engines.agent_factories("sixbysix")["greedy"]
    barred = engines.agent_factories("sixbysix")["greedy-without-marker"]
    one = make_match(game, [greedy] * players, 4, agent_names=[f"a{s}" for s in range(players)])
    two = make_match(game, [greedy] + [barred] * (players - 1), 4, agent_names=[f"a{s}" for s in range(players)])
    for i in range(4):
        assert play_one(one, i) == play_one(two, i)


def test_an_element_whose_probe_changes_no_move_is_not_played(tmp_path, monkeypatch):
    """6x6's marker: barring it changes none of greedy's games (the test above), and its probe says
    so; restricted play then plays no game of it, while the bet face, which greedy uses, is played
    exactly as a plain run of its pairing plays it."""
    from boardlab.analysis import restricted
    from boardlab.analysis.report import jobs
    from boardlab.analysis.store import ResultStore

    sent = []
    real = jobs.play_jobs

    def recording(js, store, *args, **kwargs):
        sent.extend(js)
        return real(js, store, *args, **kwargs)

    monkeypatch.setattr(jobs, "play_jobs", recording)
    with ResultStore(tmp_path / "s.sqlite") as store:
        result = restricted.effects(load("sixbysix"), 2, 8, 1, store)
        elements = {e["element"]: e for e in result["elements"]}
        assert elements["marker"]["probe"]["binding"] > 0 and elements["marker"]["probe"]["changed"] == 0
        assert elements["marker"]["unchanged"] and elements["marker"]["games"] == 0
        assert [job.agents for job in sent] == [("greedy", "greedy-without-bet-face")]
        plain = real([jobs.Job(load("sixbysix"), 2, ("greedy", "greedy-without-bet-face"), 8, 1)], store,
                     workers=1, progress=False)[0]
    wins = sum(1 for r in plain.records if len(r.winners) == 1 and r.agents[r.winners[0]] == "greedy")
    assert elements["bet-face"]["games"] == 8 and elements["bet-face"]["wins"] == wins
