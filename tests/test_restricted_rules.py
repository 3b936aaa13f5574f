"""Restricted play names rules: every element a report tests is a choice the rules give, named in
the rulebook's words in both languages; a way of playing the rules leave open (a habit of an
agent) goes to its own table, "what the strong agent does", and never into the findings."""

from __future__ import annotations

import pytest

from boardlab.analysis import engines
from boardlab.analysis.report.findings import _restricted, report_tests
from boardlab.analysis.report.sections import restricted_blocks, restricted_data
from boardlab.layouts import load
from boardlab.layouts.terms import speaking, table

GAMES = ("blockd", "sixbysix", "links", "deblockle")


def restrictions(game_id: str):
    definition = load(game_id)
    return engines.make_game(definition, definition.game.min_players).restrictions()


@pytest.mark.parametrize("game_id", GAMES)
def test_every_element_has_words_in_both_languages_and_no_id_on_its_axis(game_id):
    spanish = table("es")
    for r in restrictions(game_id):
        assert r.label and r.label != r.name and "-" not in r.label, r
        assert "greedy" not in r.element and "greedy" not in r.label  # an agent is no rule
        for words in (r.element, r.label):
            assert words in spanish and spanish[words] != words, (game_id, words)


def test_the_habits_are_the_ways_of_playing_not_the_rules():
    habits = {r.name for g in GAMES for r in restrictions(g) if r.habit}
    assert habits == {"marker", "farther-block"}


def element(name: str, description: str, label: str, habit: bool, share: float) -> dict:
    return {"element": name, "description": description, "label": label, "habit": habit, "decided": 120,
            "games": 120, "wins": share * 120, "share": share, "ci95": [share - 0.09, share + 0.08],
            "fair_share": 0.5, "p_value": 0.0001, "significant": True,
            "probe": {"games": 20, "decisions": 1000, "binding": 400, "changed": 200}}


def effects() -> dict:
    return {"agent": "greedy", "players": 2, "games_per_element": 120, "fair_share": 0.5, "seconds": 1.0,
            "elements": [element("bet-face", "betting on a face other than the lowest (1)", "bet above 1", False, 0.8),
                         element("marker", "a marker off the commonest free sum", "marker off the likeliest sum",
                                 True, 0.9)]}


def test_a_habit_is_shown_apart_and_is_neither_tested_nor_a_finding():
    data = restricted_data(effects(), 0.05)
    assert [e["element"] for e in data["elements"]] == ["bet-face"]
    assert [e["element"] for e in data["habits"]] == ["marker"]
    counts = {"2": {"seats": {"equality": {"p_value": 1.0}, "first_player_advantage": {"p_value": 1.0}},
                    "restricted": data}}
    tested = [where for where, _ in report_tests(counts) if where[1] == "restricted"]
    assert tested == [("2", "restricted", "bet-face")]
    data["elements"][0]["discovery"] = True
    found = _restricted({2: {"restricted": data}})
    assert len(found) == 1 and "betting on a face" in found[0]["text"].lower()
    assert not any("marker" in f["text"] for f in found)
    for lang, title, habit in (("en", "What the strong agent does (greedy), 2 players", "a marker off the commonest free sum"),
                               ("es", "Lo que hace el agente fuerte (voraz), 2 jugadores",
                                "un señalador fuera de la suma libre más frecuente")):
        with speaking(lang):
            blocks = restricted_blocks(data, 2)
        tables = [b for b in blocks if b["kind"] == "table"]
        chart = next(b for b in blocks if b["kind"] == "chart")
        assert tables[-1]["title"] == title and tables[-1]["rows"][0][0] == habit
        assert chart["categories"] == [{"en": "bet above 1", "es": "apuesta por encima de 1"}[lang]]
        assert all(habit not in str(row) for row in tables[0]["rows"])
