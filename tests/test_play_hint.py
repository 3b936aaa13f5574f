"""The AI's view in `boardlab play` (analysis/hint.py, play_server.Hints): a position with exactly
one winning move rates it highest, the visits of the moves add up to the agent's, a Links hint
never sees the other hands, the review of a finished game names the moves that lost most, and
the page's texts exist in every language."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from boardlab.analysis import engines, hint
from boardlab.layouts import load
from boardlab.layouts.terms import TERMS, table
from boardlab.playtest import Session

#: Deblockle, player 1 (gold) to move with one block left, player 2 with one block one tip from
#: scoring: of player 1's 18 moves exactly one scores its last block (and wins at once); after any
#: other, player 2 wins at once (both facts checked by brute force below, in the engine)
ONE_WINNING_MOVE = {"blocks": [{"owner": 1, "at": "c6", "top": "Cross", "north": "Hoops"},
                               {"owner": 2, "at": "d3", "top": "Cross", "north": "Star"}], "to_move": 1}


def wins_at_once(state, seat: int) -> list[int]:
    """The indices of the legal moves after which the game is over with `seat` its only winner."""
    out = []
    for index, move in enumerate(state.legal_moves()):
        after = state.clone()
        after.apply(move)
        if after.is_terminal() and tuple(after.winners()) == (seat,):
            out.append(index)
    return out


@pytest.fixture(scope="module")
def endgame():
    definition = load("deblockle")
    game = engines.make_game(definition, 2)
    state = game.state_from_position(ONE_WINNING_MOVE)
    return definition, game, state


def test_the_test_position_has_exactly_one_winning_move_and_every_other_loses(endgame):
    _, _, state = endgame
    winning = wins_at_once(state, 0)
    assert len(winning) == 1 and len(state.legal_moves()) == 18
    for index, move in enumerate(state.legal_moves()):
        if index != winning[0]:
            after = state.clone()
            after.apply(move)
            assert not after.is_terminal() and after.current_player() == 1 and wins_at_once(after, 1)


def test_the_one_winning_move_is_rated_highest_and_the_visits_add_up(endgame):
    definition, game, state = endgame
    [winning] = wins_at_once(state, 0)
    agent = hint.hint_agent(definition, game)
    rating = hint.rate(agent, state, seed=11)
    assert rating.budget == hint.HINT_BUDGET and agent.name == f"mcts-{hint.HINT_BUDGET}"
    assert sum(rating.counts) == rating.visits == rating.budget  # no deadline: the whole budget
    assert rating.best() == winning
    assert rating.win(winning) == 1.0  # every iteration through it is a win: the game ends there
    others = [rating.win(i) for i in range(len(rating.counts)) if i != winning and rating.counts[i]]
    assert others and max(others) < 1.0
    assert rating.counts[winning] == max(rating.counts) and rating.counts.count(max(rating.counts)) == 1
    shown = rating.to_json()
    assert shown["complete"] and sum(m["visits"] for m in shown["moves"]) == shown["visits"]
    assert [m["share"] for m in shown["moves"]] == [n / rating.visits for n in rating.counts]
    assert hint.rate(agent, state, seed=11).counts == rating.counts  # the same seed, the same search


def test_a_deadline_stops_the_search_with_the_iterations_it_ran(endgame):
    definition, game, state = endgame
    agent = hint.hint_agent(definition, game)
    rating = hint.rate(agent, state, seed=1, deadline=0.0)  # long past: one iteration runs
    assert rating.visits == sum(rating.counts) == 1 and not rating.to_json()["complete"]


def test_a_definitions_skilled_agent_is_the_hints_agent(endgame):
    definition, game, _ = endgame
    named = dataclasses.replace(definition, analysis=dataclasses.replace(definition.analysis, skilled_agent="mcts-64"))
    chosen = hint.hint_agent(named, game)
    assert (chosen.name, chosen.source, hint.budget_of(chosen.agent)) == ("mcts-64", "skilled", 64)
    # an engine without a search agent (6x6): plain UCT, named as such
    six = load("sixbysix")
    plain = hint.hint_agent(six, engines.make_game(six, 2))
    assert (plain.name, plain.source) == (f"uct-{hint.HINT_BUDGET}", "uct")


def test_the_review_names_the_losing_move_and_what_it_lost(endgame):
    definition, game, state = endgame
    [winning] = wins_at_once(state, 0)
    agent = hint.hint_agent(definition, game)
    losing = next(i for i in range(18) if i != winning)
    found = hint.review(agent, [(7, state, losing), (9, state, winning)], seed=5, seconds=120)
    assert (found.rated, found.total) == (2, 2)
    again = hint.rate(agent, state, hint.hint_seed(5, 7))  # the review's own search of ply 7
    listed = found.moves + found.unrated
    assert [m["ply"] for m in listed] == [7]  # the winning move lost nothing
    [entry] = listed
    assert entry["best"] == winning and entry["best_win"] == 1.0 and entry["played_win"] == again.win(losing)
    if entry["played_win"] is not None:
        assert entry["loss"] == 1.0 - again.win(losing)


def test_a_links_hint_sees_only_the_observation_of_the_seat_to_move():
    """Two deals that the seat to move cannot tell apart (the other hands and the deck dealt again
    consistently with what it sees) get the same rating from the same seed."""
    definition = load("links")
    session = Session(definition, 3, ("person",), seed=4)
    state = session.state
    agent = hint.hint_agent(definition, session.game)
    other = session.game.determinise(state.observation(), random.Random(99))
    seat = state.current_player()
    assert other.observation() == state.observation()  # the same view for the seat to move ...
    assert [sorted(h) for h in other.hands] != [sorted(h) for h in state.hands]  # ... of other hands
    first, second = hint.rate(agent, state, 3), hint.rate(agent, other, 3)
    assert first.counts == second.counts and first.sums == second.sums
    assert sum(first.counts) == first.visits == hint.HINT_BUDGET


def test_the_hint_texts_exist_in_every_language_with_the_same_fields():
    pytest.importorskip("starlette")
    from boardlab.play_server import HINT_TERMS, page_terms

    languages = sorted(p.stem for p in TERMS.glob("*.toml"))
    assert "es" in languages
    for key in HINT_TERMS:
        fields = {lang: set(re.findall(r"\{(\w+)\}", table(lang)[key])) for lang in languages}
        assert len({frozenset(f) for f in fields.values()}) == 1, (key, fields)
    english, spanish = page_terms("en")[1], page_terms("es")[1]
    assert all(english[k] != spanish[k] for k in HINT_TERMS)
    assert page_terms("de")[0] == "en"


# -- through the server ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["blockd", "deblockle", "links", "sixbysix"])
def test_the_servers_hint_sums_the_visits_and_refuses_a_page_not_to_move(game):
    pytest.importorskip("starlette")
    from test_play_server import client

    c = client(game)
    started = c.post("/api/games", json={"seed": 3}).json()
    answer = c.get(f"/api/games/{started['id']}/hint")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert len(data["moves"]) == len(started["moves"])
    assert [m["text"] for m in data["moves"]] == [m["text"] for m in started["moves"]]
    assert sum(m["visits"] for m in data["moves"]) == data["visits"] <= data["budget"]
    assert all(m["share"] == m["visits"] / data["visits"] for m in data["moves"])
    assert data["moves"][data["best"]]["visits"] == max(m["visits"] for m in data["moves"])
    assert c.get(f"/api/games/{started['id']}/hint").json() == data  # kept: asked again, not searched again
    setup = c.get("/api/setup?lang=es").json()
    assert setup["lang"] == "es" and setup["hint"]["agent"] == data["agent"]
    seat_token = next(s["token"] for s in started["seats"] if s.get("token"))
    # the seat's own page may ask (its seat is to move); the review comes once the game is over
    assert c.get(f"/api/games/{started['id']}/hint", headers={"X-Boardlab-Token": seat_token}).status_code == 200
    assert c.get(f"/api/games/{started['id']}/review").status_code == 409
    moved = c.post(f"/api/games/{started['id']}/move", json={"ply": started["ply"], "index": 0},
                   headers={"X-Boardlab-Token": seat_token}).json()  # the seat joined: its page moves for it
    if not moved["over"] and moved["seats"][moved["mover"]]["agent"] != "person":  # the agent to move: no hint
        assert c.get(f"/api/games/{started['id']}/hint", headers={"X-Boardlab-Token": seat_token}).status_code == 409


def test_the_review_of_a_finished_game_through_the_server():
    pytest.importorskip("starlette")
    from test_play_server import client, play_out

    c = client("blockd")
    started = c.post("/api/games", json={"seed": 5}).json()
    end = play_out(c, started, random.Random(2))
    assert c.get(f"/api/games/{started['id']}/hint").status_code == 409  # over: nobody to move
    data = c.get(f"/api/games/{started['id']}/review").json()
    by_hand = sum(1 for h in end["history"] if h.get("seat") == 0)
    assert data["total"] == by_hand and 1 <= data["rated"] <= by_hand
    losses = [m["loss"] for m in data["moves"]]
    assert losses == sorted(losses, reverse=True) and all(x > 0 for x in losses)
    for m in data["moves"]:
        assert m["loss"] == m["best_win"] - m["played_win"] and m["played"] != m["best"]
        [played] = [h for h in end["history"] if h.get("entry") == m["ply"]]
        assert (played["text"], played["seat"]) == (m["played_text"], 0)  # the move the person played there
