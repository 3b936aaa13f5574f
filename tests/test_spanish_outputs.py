"""No English word in a Spanish output: every Spanish print file, player aid, rulebook and report.

The English word list is every word of the English terms and rulebooks that the Spanish terms
and rulebooks never use (so names shared by both, such as Links or MCTS, do not count); each
Spanish PDF's text is read back with pypdf and must hold none of them.  File names (a footer's
`links-cards-a4.pdf`) are identifiers, not words, and are left out.
"""

from __future__ import annotations

import io
import json
import re
import tomllib
from functools import lru_cache
from pathlib import Path

import pytest
from pypdf import PdfReader

from boardlab.layouts import load, print_conventions
from boardlab.layouts.registry import game_ids
from boardlab.layouts.terms import speaking
from boardlab.printkit.output import render_print_files
from boardlab.printkit.pages import PrintOptions
from boardlab.printkit.print_modules import print_module
from boardlab.printkit.report_pdf import report_pdf
from boardlab.printkit.rulebook import render_player_aid, render_rulebook

ROOT = Path(__file__).resolve().parent.parent
WORD = re.compile(r"[A-Za-zÁÉÍÓÚÜÑáéíóúüñ]{3,}")
FILE_NAME = re.compile(r"[\w.-]+\.(?:pdf|svg|png|toml|csv|json)\b")
#: code, not words: a placeholder ({rules.chips}), a setting in backticks or brackets
#: ([max_rounds = 2000]), a command (boardlab compare) or an option (--until-decided), a
#: setting with its value (rules.setup = random, torus = false) or a snake_case or dotted name
#: (max_turns, analysis.difference)
CODE = re.compile(r"\{[^{}]*\}|`[^`]*`|\[[^\]]*=[^\]]*\]|boardlab\s+\w+|--[\w-]+|\w+(?:[_.]\w+)*\s*=\s*[\w-]+|\w+(?:[_.]\w+)+")


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(CODE.sub(" ", FILE_NAME.sub(" ", text)))}


def strings(table) -> list[str]:
    return [s for v in table.values() for s in (strings(v) if isinstance(v, dict) else [str(v)])]


def rule_keys() -> set[str]:
    """The definitions' own keys (chips, lines, blocks): names a report may print as they are."""
    found: set[str] = set()

    def walk(table) -> None:
        for key, value in table.items():
            found.add(key.lower())
            if isinstance(value, dict):
                walk(value)
    for path in (ROOT / "layouts").glob("*.toml"):
        with open(path, "rb") as f:
            walk(tomllib.load(f))
    return found


def typed_commands(text: str) -> set[str]:
    """The command and subcommand names a text prints in a command line ("boardlab playtests add"
    gives playtests and add): typed as they are, in any language.  Only names that follow
    "boardlab" count, so an English "add" or "report" in a sentence is still caught."""
    import re

    names = command_words()
    found: set[str] = set()
    for line in re.findall(r"boardlab((?:\s+[a-z-]+){1,2})", text):
        for name in line.split():
            if name not in names:
                break
            found.add(name)
    return found


def command_words() -> set[str]:
    """boardlab's command and subcommand names (report, playtests, add)."""
    import argparse

    from boardlab.cli import build_parser

    found: set[str] = set()

    def walk(parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found.add(name.lower())
                    walk(sub)
    walk(build_parser())
    return found


def language_words(language: str) -> set[str]:
    with open(ROOT / "layouts" / "terms" / f"{language}.toml", "rb") as f:
        found = set().union(*(words(s) for s in strings(tomllib.load(f))))
    for path in (ROOT / "layouts" / "rulebooks").glob(f"*.{language}.md"):
        found |= words(path.read_text(encoding="utf-8"))
    return found


@lru_cache(maxsize=1)
def english_only() -> frozenset[str]:
    return frozenset(language_words("en") - language_words("es") - {"boardlab"})


def pdf_text(pdf: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_the_word_list_holds_english_words_and_not_shared_names() -> None:
    only = english_only()
    assert {"spare", "whiskers", "shuffle", "chips", "bets"} <= only
    assert not {"links", "mcts", "elo"} & only
    assert {"random", "greedy", "favourite"} <= only  # agent names: Spanish readers see azar, voraz, favorito


@pytest.mark.parametrize("game", game_ids())
def test_spanish_print_files_aid_and_rulebook_hold_no_english_word(game: str) -> None:
    definition = load(game)
    conventions = print_conventions()
    files: dict[str, bytes] = {}
    with speaking("es"):
        options = PrintOptions(paper="a4", duplex=conventions.duplex, backs=conventions.layout)
        files.update({name: data for name, data in render_print_files(
            print_module(game).print_files(definition, options)).items() if name.endswith(".pdf")})
        aid = render_player_aid(definition, "es", "a4")
        if aid is not None:
            files["aid.pdf"] = aid
    files["rulebook.pdf"] = render_rulebook(definition, "es", "a4")
    found = {name: sorted(words(pdf_text(data)) & english_only()) for name, data in sorted(files.items())}
    assert {name: bad for name, bad in found.items() if bad} == {}


@pytest.mark.parametrize("path", sorted((ROOT / "reports" / "es").glob("*.json")), ids=lambda p: p.name)
def test_spanish_reports_hold_no_english_word(path: Path) -> None:
    with speaking("es"):
        pdf = report_pdf(json.loads(path.read_text(encoding="utf-8")))
    # a report names the rule options it varies by their keys (chips, lines) and the commands to run
    # (`boardlab playtests add`): identifiers, as printed
    text = pdf_text(pdf)
    # what the glossary tells a reader to type for each agent (`--agent greedy`) and the rule settings
    # it quotes (`rules.setup = random`) are code, the same in every language: taken out of the text
    # (not exempted as words, so an English agent name anywhere else is still caught)
    text = re.sub(r"--agent\s+[A-Za-z0-9-]+|rules\.[a-z_]+ = [a-z]+", " ", text)
    assert sorted(words(text) & english_only() - rule_keys() - typed_commands(text)) == []


def test_a_spanish_report_names_its_agents_in_spanish(tmp_path: Path) -> None:
    """A report generated now (6x6: random, greedy, favourite and search agents) holds no English
    word, agent names included: the committed reports may be older than the code.  The glossary's
    command-line names (`--agent greedy`) are code and exempt, nothing else."""
    from boardlab.cli import main

    assert main(["report", "sixbysix", "--lang", "es", "--store", str(tmp_path / "r.sqlite"), "--out", str(tmp_path),
                 "--games", "48", "--skill-games", "6", "--decision-games", "4", "--deals", "4", "--workers", "1",
                 # a CPU budget that still reaches a search level (búsqueda-16): the default 10 minutes
                 # made this one test a sixth of the suite
                 "--budget", "0.3", "--skill-budget", "16", "-q"]) == 0
    # the Markdown keeps code in backticks; the charts' words are the SVGs' texts
    shown = (tmp_path / "es" / "sixbysix.md").read_text(encoding="utf-8") + " " + " ".join(
        text for path in sorted((tmp_path / "es" / "sixbysix").glob("*.svg"))
        for text in re.findall(r"<text[^>]*>([^<]*)</text>", path.read_text(encoding="utf-8")))
    assert {"random", "greedy", "favourite"} <= english_only()
    assert sorted(words(shown) & english_only() - rule_keys() - typed_commands(shown)) == []
    assert "voraz" in shown and "azar" in shown and "favorito-" in shown and "`--agent greedy`" in shown
    assert "búsqueda-16" in shown


#: calques a Spanish reader stumbles on (issue 37): chart words and turns of phrase copied from
#: English ("fair share", "whiskers", "MCTS budget", "1.5 times more", "odds of 10 to 1", "suit")
CALQUES = ("parte justa", "bigotes", "presupuesto de mcts", "veces más", "contra 1", "por palo")


def test_the_spanish_words_hold_none_of_the_calques() -> None:
    """Every Spanish text boardlab prints comes from layouts/terms/es.toml or a Spanish rulebook:
    none of them holds a calque (each was in the table before this test)."""
    with open(ROOT / "layouts" / "terms" / "es.toml", "rb") as f:
        texts = strings(tomllib.load(f))
    texts += [path.read_text(encoding="utf-8") for path in (ROOT / "layouts" / "rulebooks").glob("*.es.md")]
    found = sorted({calque for text in texts for calque in CALQUES if calque in text.lower()})
    assert found == []


# -- sweep and tune in Spanish: every sentence they write, on a tiny budget ---------------------------

#: a sweep or tune of 6x6 small enough for the suite: 2 players, random seats, one worker, a CPU
#: budget of a few milliseconds (each phase plays the least it may)
TINY = ["--players", "2", "--agent", "random", "--workers", "1", "--budget", "0.0001"]


def english_in(text: str, typed: str = "") -> list[str]:
    """The English words of a text as a Spanish reader sees it: paths (the files written, a
    variant's), rule keys and commands taken out as code, as for the reports, and the words of
    what the designer `typed` (a goal's metric, `length<=5`: written as typed in every language)."""
    text = re.sub(r"\S*/\S*", " ", text)
    return sorted(words(text) & english_only() - rule_keys() - typed_commands(text) - words(typed))


def test_a_spanish_sweep_on_a_tiny_budget_writes_no_english_sentence(tmp_path: Path, capsys) -> None:
    """`sweep --lang es`: its tables and notes, the line saying what it wrote, the report and the
    reason a point was refused (a favourite number not on the board: the check's own message, by the
    terms' pattern of it) are Spanish; the same sweep in English says them in English."""
    from boardlab.cli import main

    argv = ["sweep", "sixbysix", "--vary", "analysis.favourite_number=7,40", *TINY, "--games", "12",
            "--store", str(tmp_path / "r.sqlite")]
    assert main([*argv, "--lang", "es", "--out", str(tmp_path)]) == 0
    said = capsys.readouterr()
    name = "sixbysix-analysis-favourite-number"
    report = (tmp_path / "es" / f"{name}.md").read_text(encoding="utf-8")
    refused = [p["refused"] for block in json.loads((tmp_path / "es" / f"{name}.json").read_text(encoding="utf-8"))
               ["data"]["by_players"] for p in block["points"] if "refused" in p]
    assert refused == ["analysis.favourite_number: 40 no está en el tablero"]
    assert "se escribieron 15 ficheros" in said.err and "40 no está en el tablero" in said.out
    assert {where: english_in(text) for where, text in (("printed", said.out), ("stderr", said.err),
                                                        ("report", report), ("refused", " ".join(refused)))} == \
        {"printed": [], "stderr": [], "report": [], "refused": []}
    assert main([*argv, "--lang", "en", "--out", str(tmp_path / "en"), "--json"]) == 0
    english = capsys.readouterr()
    points = json.loads(english.out)["by_players"][0]["points"]
    assert points[1]["refused"] == "analysis.favourite_number: 40 is not on the board"
    assert {"wrote", "and"} <= set(english_in(english.err)) and english_in(points[1]["refused"]) == ["not", "the"]


def test_a_spanish_tune_on_a_tiny_budget_writes_no_english_sentence(tmp_path: Path, capsys) -> None:
    """`tune --lang es`: what it prints, the sentences of its JSON (a refused point's reason, why a
    length goal cannot be met, where the budget stopped the race) and the comments of the variant
    file it writes are Spanish; the same tune in English says them in English."""
    from boardlab.cli import main

    store = ["--store", str(tmp_path / "r.sqlite")]
    # every point capped at 2 or 3 rounds: no length can be trusted; a favourite number of 40 is refused
    capped = ["tune", "sixbysix", "--goal", "length<=60", "--over", "rules.max_rounds=2,3", "--over",
              "analysis.favourite_number=7,40", *TINY, "--games", "24", *store]
    # 400 games at most, the first look at 200: the budget pays the first look only, 3 chips still unsure
    stopped = ["tune", "sixbysix", "--goal", "length<=5", "--over", "rules.chips=3,4", *TINY, "--games", "400", *store]
    found = {}
    for lang in ("es", "en"):
        variant = tmp_path / f"tuned-{lang}.toml"
        assert main([*capped, "--lang", lang, "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert main([*capped, "--lang", lang]) == 0
        printed = capsys.readouterr().out
        assert main([*stopped, "--lang", lang, "--json", "--write-variant", str(variant)]) == 0
        budgeted = json.loads(capsys.readouterr().out)
        assert main([*stopped, "--lang", lang]) == 0
        printed += capsys.readouterr().out
        comments = "\n".join(line for line in variant.read_text(encoding="utf-8").splitlines() if line.startswith("#"))
        found[lang] = {"refused": "; ".join(r["refused"] for r in result["refused"]),
                       "why": result["closest"]["length<=60"]["why"], "stopped": budgeted["budget"]["stopped"],
                       "printed": printed, "variant": comments}
    es, en = found["es"], found["en"]
    assert es["refused"] == "; ".join(["analysis.favourite_number: 40 no está en el tablero"] * 2)  # 2 and 3 rounds
    assert es["why"] == "el 100,0\u00a0% de las partidas se cortó en el tope, más del 5,0\u00a0% que permite " \
                        "analysis.max_capped"
    assert es["stopped"] == "el presupuesto de CPU detuvo la carrera antes de 400 partidas (1 candidato aún sin decidir)"
    assert es["variant"].startswith("# Escrito por `boardlab tune`: estos valores cumplieron todas las metas (length<=5)")
    goals = "length<=60 length<=5"
    assert {where: english_in(text, goals) for where, text in es.items()} == {where: [] for where in es}
    assert en["why"] == "100.0% of the games stopped at the cap, more than the 5.0% analysis.max_capped allows"
    assert en["stopped"] == "the CPU budget stopped the race before 400 games (1 candidate still unsure)"
    assert all(english_in(text, goals) for text in en.values()), en  # the check finds English where it is


@pytest.mark.parametrize("game, vary, players", [
    ("sixbysix", "analysis.favourite_number=40", 2),
    ("blockd", "board.rows=2", 2),
    ("links", "deck.empty=0", 2),
    ("links", "deck.hand_size=7", 2),
    ("deblockle", "board.ranks=3", 2),
    ("deblockle", "board.files=3", 2),
])
def test_a_refused_points_reason_is_spanish_in_spanish(game: str, vary: str, players: int) -> None:
    """The definitions' checks write English (`boardlab check`); a sweep's refused point gives the
    check's message by the Spanish terms' pattern of it (`{n}` a number, `{x}` a square's name)."""
    from boardlab.analysis.sweep import grid, parse_axis, refusal

    point, = grid(game, [parse_axis(game, load(game), vary)], players)
    assert point.refused and english_in(refusal(point))  # English as the check wrote it
    with speaking("es"):
        spanish = refusal(point)
    assert english_in(spanish) == [], spanish
    assert re.findall(r"\d+", spanish) == re.findall(r"\d+", refusal(point))  # the same numbers, in order
