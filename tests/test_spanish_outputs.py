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
                 "-q"]) == 0
    # the Markdown keeps code in backticks; the charts' words are the SVGs' texts
    shown = (tmp_path / "es" / "sixbysix.md").read_text(encoding="utf-8") + " " + " ".join(
        text for path in sorted((tmp_path / "es" / "sixbysix").glob("*.svg"))
        for text in re.findall(r"<text[^>]*>([^<]*)</text>", path.read_text(encoding="utf-8")))
    assert {"random", "greedy", "favourite"} <= english_only()
    assert sorted(words(shown) & english_only() - rule_keys() - typed_commands(shown)) == []
    assert "voraz" in shown and "azar" in shown and "favorito-" in shown and "`--agent greedy`" in shown


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
