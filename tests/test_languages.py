"""Every output in the designer's language: rendered in Spanish, the print files (card faces,
covers, footers) and the rulebooks hold none of the English words boardlab writes; the terms
tables hold every key the code asks for; `print --lang` writes each language's set."""

from __future__ import annotations

import io
import json
import re
import tomllib
from pathlib import Path

import pytest
from pypdf import PdfReader

from boardlab import cli
from boardlab.layouts import GAMES, game_part, load, print_conventions
from boardlab.layouts.terms import TERMS, check_terms, definition_words, keys_used, speaking, table, term, word
from boardlab.printkit.output import render_print_files
from boardlab.printkit.pages import PrintOptions
from boardlab.printkit.rulebook import render_rulebook

#: the tests' data files, one per game where a game needs one
DATA = Path(__file__).resolve().parent / "data"

#: Spanish words spelled like English ones ("dice": says; "has", "decides": you have, you decide)
SPANISH_TOO = {"dice", "has", "decides"}
#: fields the code fills beside the English text's own, which another language may use instead
#: (the cap's unit in the plural: "el tope de turnos" for "the turn cap")
FIELDS_BESIDE = {"report.cap": {"units"}}
WORD = re.compile(r"[A-Za-zÁÉÍÓÚÜÑáéíóúüñ]{3,}")


def tokens(text: str) -> set[str]:
    """The words of a text, lower case, without file names (`links-cards-a4.pdf`) and the
    definition settings a rulebook quotes as the TOML writes them (`[no_touching = false]`)."""
    text = re.sub(r"\S+\.(pdf|svg)\b", " ", text)
    text = re.sub(r"\[[^\]]*=[^\]]*\]", " ", text)
    text = re.sub(r"--[a-z-]+(=\S+)?", " ", text)  # command-line options (--back-offset)
    return {w.lower() for w in WORD.findall(text)}


def english_words() -> set[str]:
    """The English words of boardlab's own texts and of the definitions' printed words, less the
    ones Spanish writes alike (mm, euro, Links ...)."""
    english = set()
    for value in table("en").values():
        english |= tokens(re.sub(r"\{[a-z_]+\}", " ", value))
    spanish_table = table("es")
    for key in spanish_table:
        if "." not in key or " " in key:  # a word of a definition or of the code, written in English
            english |= tokens(re.sub(r"\{n\}", " ", key))
    for game in GAMES:
        english |= {w for _, text in definition_words(load(game)) for w in tokens(text)}
    spanish = set()
    for value in spanish_table.values():
        spanish |= tokens(CODE_SPAN.sub(" ", re.sub(r"\{[a-z_]+\}", " ", value)))  # `--agent greedy` is code
    names = {w for game in GAMES for w in tokens(f"{load(game).game.name} {game}")}
    return english - spanish - names - SPANISH_TOO


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)


def test_the_english_word_list_is_not_empty_and_holds_the_known_offenders():
    words = english_words()
    # the words the issue found in the Spanish outputs must be on the list the test looks for
    assert {"glue", "block", "red", "blue", "gold", "one", "two", "three", "four", "sheet", "cards"} <= words


@pytest.mark.parametrize("game", GAMES)
def test_spanish_print_files_hold_no_english_word(game):
    """Their pages, titles and subjects (the PDF's metadata)."""
    d = load(game)
    conventions = print_conventions()
    english = english_words()
    found = {}
    with speaking("es"):
        files = game_part(game, "print").print_files(d, PrintOptions(d.print.paper, conventions.duplex,
                                                                     conventions.layout))
        for name, data in render_print_files(files).items():
            if name.endswith(".pdf"):
                metadata = PdfReader(io.BytesIO(data)).metadata  # its title and subject too
                bad = tokens(" ".join([pdf_text(data), metadata["/Title"], metadata["/Subject"]])) & english
                if bad:
                    found[name] = sorted(bad)
    assert found == {}


@pytest.mark.parametrize("game", GAMES)
def test_spanish_rulebooks_hold_no_english_word(game):
    text = pdf_text(render_rulebook(load(game), "es", "a4"))
    assert sorted(tokens(text) & english_words()) == []


def test_links_masters_are_spanish_on_the_spanish_cards(tmp_path):
    assert cli.main(["print", "links", "--lang", "es", "--out", str(tmp_path)]) == 0
    svg = {p.stem: p.read_text(encoding="utf-8") for p in (tmp_path / "svg").glob("master-*.svg")}
    assert sorted(svg) == ["master-four", "master-one", "master-three", "master-two"]
    for name, spanish in (("one", "UNO"), ("two", "DOS"), ("three", "TRES"), ("four", "CUATRO")):
        assert f">{spanish}<" in svg[f"master-{name}"] and f">{name.upper()}<" not in svg[f"master-{name}"]


def test_print_lang_all_writes_each_language_set(tmp_path, capsys):
    assert cli.main(["print", "deblockle", "--lang", "all", "--out", str(tmp_path)]) == 0
    spanish, english = tmp_path / "deblockle-cover-a4.pdf", tmp_path / "en" / "deblockle-cover-a4.pdf"
    assert "Las piezas" in pdf_text(spanish.read_bytes()) and "The pieces" in pdf_text(english.read_bytes())
    assert cli.main(["print", "deblockle", "--lang", "ca", "--out", str(tmp_path / "x")]) == 2
    assert "no language 'ca'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_every_language_table_has_every_key_the_code_uses():
    keys, words = keys_used()
    assert {"cover.title", "nets.block", "cover.sheets.one", "cover.sheets.many"} <= keys and "glue" in words
    for path in TERMS.glob("*.toml"):
        tomllib.loads(path.read_text(encoding="utf-8"))  # valid TOML
    for game in GAMES:
        assert check_terms(load(game)) == []
    # each language's texts fill the same fields
    for key in keys:
        fields = [set(re.findall(r"\{([a-z_]+)\}", table(lang)[key])) for lang in ("en", "es")]
        beside = FIELDS_BESIDE.get(key, set())
        assert fields[1] <= fields[0] | beside if beside else fields[0] == fields[1], key
    # the reports' sentences: every language has each of them
    reports = [{k for k in table(lang) if k.startswith("report.")} for lang in ("en", "es")]
    assert reports[0] == reports[1] and len(reports[0]) > 80


def test_check_names_a_missing_term(monkeypatch):
    from boardlab.layouts import terms

    spanish = dict(table("es"))
    del spanish["nets.block"], spanish["gold"]
    monkeypatch.setattr(terms, "table", lambda lang: spanish if lang == "es" else table(lang))
    problems = [str(p) for p in check_terms(load("deblockle"))]
    assert any("layouts/terms/es.toml" in p and "nets.block: missing term" in p for p in problems)
    assert any('no es word for colours.gold.label = "gold"' in p for p in problems)


def test_terms_fill_numbers_with_the_languages_decimal_point():
    with speaking("es"):
        assert term("tiles.full_size", width=210.5, height=297.0) == \
            "Escala 100 %: el tablero tal como se diseñó (210,5 × 297 mm)."
        assert word("gold") == "oro" and word("ONE") == "UNO"
    assert term("tiles.full_size", width=210.5, height=297.0) == \
        "Scale 100 %: the board as designed (210.5 x 297 mm)."


def test_print_writes_a_player_aid_card_for_each_player(tmp_path, monkeypatch):
    from boardlab.layouts.rulebook import parse
    from boardlab.printkit.rulebook import aid as aids

    assert cli.main(["print", "links", "--lang", "es", "--out", str(tmp_path / "es")]) == 0
    aid = PdfReader(tmp_path / "es" / "links-aid-a4.pdf")
    players = load("links").game.max_players  # 8: four cards to an A4 page, on two pages
    found = [page.extract_text().count("Links — Resumen") for page in aid.pages]
    assert sum(found) == players and found == [4] * (players // 4) + ([players % 4] if players % 4 else [])
    assert aid.metadata["/Title"] == aid.metadata["/Subject"] == "Links — Resumen"  # its own heading, not "Reglamento"
    # a rulebook without a quick reference: no player aid, and print still writes the rest
    monkeypatch.setattr(aids, "read_text", lambda game, lang: parse("# Goal {#goal}\nWin.\n", "x.md", lang))
    assert cli.main(["print", "links", "--lang", "es", "--out", str(tmp_path / "bare")]) == 0
    written = sorted(p.name for p in (tmp_path / "bare").glob("*.pdf"))
    assert "links-aid-a4.pdf" not in written and "links-cover-a4.pdf" in written


#: a small report: few games, a short ladder (as tests/test_report.py's)
SMALL_REPORT = ["--games", "24", "--skill-games", "4", "--skill-budget", "16", "--decision-games", "4", "--deals", "4",
                "--workers", "1", "--players"]


#: inline `code` of a report's Markdown (not a fenced block: the engine's own plain-text summary,
#: in the report's language like the rest)
CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")


def report_words(folder, game) -> tuple[set[str], set[str]]:
    """(words, names) of a report in `folder`: the words of its Markdown, every chart and its PDF;
    the names are what a report writes as the user types it, in `code` (rule keys, commands, the
    glossary's `--agent greedy`), which no language translates; the agents' names a reader sees
    are words (azar, voraz in Spanish)."""
    markdown = (folder / f"{game}.md").read_text(encoding="utf-8")
    names = tokens(" ".join(CODE_SPAN.findall(markdown)))
    pdf = pdf_text((folder / f"{game}.pdf").read_bytes()).splitlines()
    text = CODE_SPAN.sub(" ", markdown) + " ".join(
        " ".join(re.findall(r">([^<]+)<", svg.read_text(encoding="utf-8"))) for svg in (folder / game).glob("*.svg"))
    commit = re.compile(r"commit \S+")  # the checkout's commit, "+changes" when it has some
    return tokens(commit.sub(" ", text)) | tokens(commit.sub(" ", "\n".join(pdf))), names


@pytest.mark.parametrize("game", GAMES)
def test_a_spanish_report_holds_no_english_word(game, tmp_path):
    players = str(load(game).game.min_players)
    assert cli.main(["report", game, "--lang", "es", *SMALL_REPORT, players, "--store", str(tmp_path / "r.sqlite"),
                     "--out", str(tmp_path)]) == 0
    words, names = report_words(tmp_path / "es", game)
    assert "partidas" in words and not (tmp_path / f"{game}.md").exists()  # Spanish, in its subfolder
    assert sorted(words - names & english_words()) == []
    charts = " ".join(" ".join(re.findall(r">([^<]+)<", svg.read_text(encoding="utf-8")))
                      for svg in (tmp_path / "es" / game).glob("*.svg"))
    assert re.findall(r"\d\.\d+", charts) == []  # the charts' numbers with a decimal comma too
    # the same report in English is in the folder itself, and its words are the English ones
    assert cli.main(["report", game, "--lang", "en", *SMALL_REPORT, players, "--store", str(tmp_path / "r.sqlite"),
                     "--out", str(tmp_path)]) == 0
    english, _ = report_words(tmp_path, game)
    assert {"games", "seat", "decided"} <= english


def own_summaries(game: str) -> list[tuple[object, dict]]:
    """(game, figures) of a short random self-play of `game` at its fewest players, and of the same
    figures changed so that every branch of its text is taken (unfinished games, none eliminated,
    no game finished, no block scored, each verdict of the stated time): the changes are the game's
    own file tests/data/GAME.summary-branches.json, a list of {KEY or KEY.SUBKEY: value}."""
    import copy

    from boardlab.analysis.engines import agent_factories, make_game
    from boardlab.analysis.runner import run

    definition = load(game)
    engine = make_game(definition, definition.game.min_players)
    summary = run(engine, [agent_factories(game)["random"]] * engine.players, 24, 7, workers=1, progress=False)
    if game not in summary:
        pytest.skip(f"{game}'s engine gives no figures of its own (Game.summarize)")
    figures = summary[game]
    branches = DATA / f"{game}.summary-branches.json"
    changed = []
    for change in json.loads(branches.read_text(encoding="utf-8")) if branches.exists() else []:
        one = copy.deepcopy(figures)
        for key, value in change.items():
            *path, last = key.split(".")
            table = one
            for part in path:
                table = table.setdefault(part, {})
            table[last] = value
        changed.append(one)
    return [(engine, f) for f in [figures, *changed]]


@pytest.mark.parametrize("game", GAMES)
def test_the_engines_own_summary_is_in_the_language_written(game):
    """What `simulate` prints and a report shows as the game's own figures: in Spanish none of the
    English words and its decimals with a comma, every number of the English text; the English
    text (as the engines wrote it before they spoke Spanish) fails the same check."""
    english_list = english_words()
    for engine, figures in own_summaries(game):
        english = engine.describe_summary(figures)
        with speaking("es"):
            spanish = engine.describe_summary(figures)
        assert sorted(tokens(spanish) & english_list) == [], spanish
        assert tokens(english) & english_list  # the check would catch an English text
        assert not re.search(r"\d\.\d", spanish) and (re.search(r"\d,\d", spanish) or not re.search(r"\d\.\d", english))
        # the same numbers, as each language writes them (in Spanish thousands by a space, decimals by a comma)
        numbers = re.compile(r"\d+(?:\.\d+)?")
        assert set(numbers.findall(spanish.replace("\u00a0", "").replace(",", "."))) == \
            set(numbers.findall(english.replace(",", "")))


#: a small sweep or tune of 6x6 (two values of its chips, 12 random games a point)
SMALL_SWEEP = ["--players", "2", "--games", "12", "--agent", "random", "--workers", "1"]


def typed_names(*texts: str) -> set[str]:
    """The words of what a designer typed on the command line (rule keys and values, goals with
    their metric names): written as typed in every language, as a report's `code` is."""
    return set().union(*(tokens(t) for t in texts))


def test_a_spanish_sweep_holds_no_english_word(tmp_path, capsys):
    """`sweep --lang es`: its report (Markdown, PDF, every chart) and what it prints hold none of
    the English words, in the subfolder es; `--lang all` writes the English one beside it."""
    store = ["--store", str(tmp_path / "r.sqlite")]
    assert cli.main(["sweep", "sixbysix", "--vary", "rules.chips=3,4", "--lang", "es", "--out", str(tmp_path),
                     *SMALL_SWEEP, *store]) == 0
    printed = capsys.readouterr().out
    name = "sixbysix-rules-chips"
    words, names = report_words(tmp_path / "es", name)
    assert not (tmp_path / f"{name}.md").exists()  # Spanish, in its subfolder
    assert {"partidas", "punto", "semilla", "intervalo"} <= words
    assert sorted(words - names & english_words()) == []
    assert sorted(tokens(CODE_SPAN.sub(" ", printed)) - names & english_words()) == [], printed
    charts = " ".join(" ".join(re.findall(r">([^<]+)<", svg.read_text(encoding="utf-8")))
                      for svg in (tmp_path / "es" / name).glob("*.svg"))
    assert re.findall(r"\d\.\d+", charts) == [] and re.findall(r"\d,\d+", charts)  # decimals with a comma
    # every language of the definition from the same games: English in the folder itself
    assert cli.main(["sweep", "sixbysix", "--vary", "rules.chips=3,4", "--lang", "all", "--out", str(tmp_path / "all"),
                     *SMALL_SWEEP, *store]) == 0
    english, _ = report_words(tmp_path / "all", name)
    assert {"games", "point", "seed", "interval"} <= english
    spanish = (tmp_path / "all" / "es" / f"{name}.md").read_text(encoding="utf-8")
    assert spanish == (tmp_path / "es" / f"{name}.md").read_text(encoding="utf-8")


def test_a_spanish_tune_holds_no_english_word(tmp_path, capsys):
    """`tune --lang es`: every line it prints (the search, the race's design, the confirmation,
    the budget, the closest values with their status) holds none of the English words; the same
    run in English does, and says the same numbers."""
    argv = ["tune", "sixbysix", "--goal", "length<=0.5", "--goal", "first_player_advantage~0", "--over",
            "rules.chips=3,4", *SMALL_SWEEP, "--store", str(tmp_path / "r.sqlite")]
    assert cli.main([*argv, "--lang", "es"]) == 0
    spanish = capsys.readouterr().out
    names = typed_names("length<=0.5 first_player_advantage~0 rules.chips = 3, 4", load("sixbysix").game.name)
    assert "Los más cercanos a cada meta:" in spanish and "diseño de la carrera" in spanish
    assert sorted(tokens(spanish) - names & english_words()) == [], spanish
    assert cli.main([*argv, "--lang", "en"]) == 0
    english = capsys.readouterr().out
    assert "Closest on each goal:" in english and tokens(english) - names & english_words()
    numbers = re.compile(r"\d+(?:\.\d+)?")
    assert sorted(numbers.findall(spanish.replace("\u00a0", "").replace(",", "."))) == \
        sorted(numbers.findall(english.replace(",", "")))
    assert cli.main([*argv, "--lang", "ca"]) == 2
    assert "no language 'ca'" in capsys.readouterr().err
