"""Sentences with zero and one in both languages: never "1 minutes", "at all 1 decisions", "1
probed games" or "about 0 games would tell"; Elo's 400 points stay odds in Spanish."""

from __future__ import annotations

import re

import pytest

from boardlab.analysis.report.findings import _restricted
from boardlab.analysis.report.wording import minutes, target_time, would_tell
from boardlab.layouts.terms import speaking, table

#: a count of one with a plural noun, in either language
ONE_PLURAL = re.compile(r"\b1 (minutes|games|decisions|probed games|minutos|partidas|decisiones)\b|"
                        r"\ball 1\b|\blas 1\b|\babout 0\b|\bunas 0\b")


@pytest.mark.parametrize("lang, one, target", [("en", "1 minute", "the target time of 1 minute"),
                                               ("es", "1 minuto", "un tiempo objetivo de 1 minuto")])
def test_one_minute_is_singular_and_none_is_less_than_a_minute(lang, one, target):
    with speaking(lang):
        assert minutes(1.2) == one and target_time({"stated_minutes": 1}) == target
        assert minutes(0.2) == {"en": "less than a minute", "es": "menos de un minuto"}[lang]
        assert target_time({"stated_minutes": 1, "minutes_source": "the box"}) == \
            {"en": "the stated 1 minute", "es": "el tiempo indicado de 1 minuto"}[lang]
        assert would_tell(None) == "" and would_tell(0) == ""


def inert(binding: int, games: int) -> dict:
    e = {"element": "bet-face", "description": "betting on a face other than the lowest (1)", "decided": 120,
         "games": 120, "share": 0.5, "fair_share": 0.5, "ci95": [0.41, 0.59], "p_value": 1.0,
         "probe": {"games": games, "decisions": 1500, "binding": binding, "changed": 0}}
    return {2: {"restricted": {"agent": "greedy", "elements": [e]}}}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("binding, games", [(0, 1), (1, 1), (1, 20), (7720, 13)])
def test_an_element_that_changes_no_move_is_counted_in_words(lang, binding, games):
    with speaking(lang):
        said = _restricted(inert(binding, games))[0]["text"]
    assert not ONE_PLURAL.search(said), said
    if binding == 1:
        assert {"en": "at the one decision", "es": "en la única decisión"}[lang] in said
    if games == 1:
        assert {"en": "in 1 probed game)", "es": "en 1 partida de sondeo)"}[lang] in said


def test_elo_odds_stay_odds_in_spanish():
    for key in ("report.skill.note", "report.glossary.rating_elo.text"):
        english, spanish = table("en")[key], table("es")[key]
        assert "odds of 10 to 1" in english
        odds = spanish[spanish.index("400 puntos"):].split(")")[0].split(".")[0]  # the clause of the 400 points
        assert odds == "400 puntos de ventaja son 10 victorias por cada derrota", odds
