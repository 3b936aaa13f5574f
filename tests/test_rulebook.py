"""Rulebooks: the texts agree across languages, follow the definition, and print cleanly.

The PDFs are read back with pypdf, independently of the code that wrote them.
"""

from __future__ import annotations

import io
import re
import shutil

import pytest
from pypdf import PdfReader

from boardlab import cli
from boardlab.analysis.blockd.walks import Grid
from boardlab.layouts import GAMES, load, print_conventions, variants_of
from boardlab.layouts import rulebook_markup as rulebook_text
from boardlab.layouts import rulebook_facts
from boardlab.layouts.rulebook import build_book, outline, read_text
from boardlab.printkit.rulebook.book import check_texts, exact_tables, render_rulebook
from boardlab.printkit.rulebook.typeset import TOC_AFTER

MM_PER_POINT = 25.4 / 72


def words(pdf: bytes) -> list[str]:
    """Every whitespace-separated word of the PDF's text, page after page."""
    reader = PdfReader(io.BytesIO(pdf))
    return " ".join(page.extract_text() for page in reader.pages).split()


def text(pdf: bytes) -> str:
    return " ".join(words(pdf))


def contains_run(haystack: list[str], run: list[str]) -> bool:
    n = len(run)
    return any(haystack[i:i + n] == run for i in range(len(haystack) - n + 1))


@pytest.fixture(scope="module")
def books() -> dict:
    """Every game's rulebook in both languages on A4, made once for the module."""
    return {(game, language): render_rulebook(load(game), language, "a4")
            for game in GAMES for language in load(game).rulebook.languages}


@pytest.mark.parametrize("game", GAMES)
def test_both_languages_hold_the_same_sections_placeholders_and_directives(game):
    english, spanish = outline(read_text(game, "en")), outline(read_text(game, "es"))
    assert english["headings"] == spanish["headings"]
    assert english["placeholders"] == spanish["placeholders"]
    assert english["directives"] == spanish["directives"]
    for heading in ("goal", "components", "setup", "interpretations", "optional", "quickref"):
        assert heading in english["headings"]


@pytest.mark.parametrize("name", [g for g in GAMES] + [v for g in GAMES for v in variants_of(g)])
def test_every_definition_and_variant_has_clean_rulebook_texts(name):
    assert check_texts(load(name)) == []


def copy_texts(tmp_path, monkeypatch):
    folder = tmp_path / "rulebooks"
    shutil.copytree(rulebook_text.RULEBOOKS, folder)
    monkeypatch.setattr(rulebook_text, "RULEBOOKS", folder)
    return folder


def test_an_unknown_placeholder_is_a_check_error_with_file_and_line(tmp_path, monkeypatch, capsys):
    folder = copy_texts(tmp_path, monkeypatch)
    path = folder / "blockd.es.md"
    lines = path.read_text(encoding="utf-8").splitlines()
    goal = next(i for i, line in enumerate(lines) if line.startswith("# Objetivo"))
    lines.insert(goal + 1, "Dura {rules.minutos_de_juego} minutos.")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli.main(["check", "blockd"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert any(line.startswith(f"{path}:{goal + 2}: {{rules.minutos_de_juego}}: unknown placeholder")
               for line in err), err


def test_a_rule_choice_without_an_optional_rule_is_a_check_error(tmp_path, monkeypatch, capsys):
    folder = copy_texts(tmp_path, monkeypatch)
    path = folder / "links.en.md"
    source = path.read_text(encoding="utf-8")
    source = re.sub(r"::: option rules.must_play = false\n.*?::: end\n", "", source, flags=re.S)
    path.write_text(source, encoding="utf-8")
    assert cli.main(["check", "links"]) == 2
    assert "rules.must_play: no optional rule for the value false" in capsys.readouterr().err


@pytest.mark.parametrize("file, old, new, said", [
    ("sixbysix.es.md", "# Resumen {#quickref}", "# Resumen rápido {#quickref}",
     '::: quickref: heading "Resumen rápido" (# Resumen {#quickref})'),
    ("sixbysix.en.md", "**End:** the last player left wins.", "The last player left wins.",
     "::: quickref: no line on how the game ends (a line starting **End:** (or **Stuck:**))"),
    ("links.en.md", "{#interpretations}", "{#readings}", "rulebook: no section interpretations"),
    ("blockd.es.md", "::: setup\n", "", "rulebook: not the directives of "),
])
def test_a_broken_promise_of_the_rulebook_texts_is_a_check_error(file, old, new, said, tmp_path, monkeypatch, capsys):
    """What the tests above hold every text to, `check` holds it to: the sections, one outline in
    every language, the quick reference's heading and its line on the end, in the text's language."""
    folder = copy_texts(tmp_path, monkeypatch)
    game = file.split(".")[0]
    assert cli.main(["check", game]) == 0
    capsys.readouterr()
    path = folder / file
    source = path.read_text(encoding="utf-8")
    assert old in source
    path.write_text(source.replace(old, new, 1), encoding="utf-8")
    assert cli.main(["check", game]) == 2
    err = capsys.readouterr().err
    assert any(line.startswith(str(folder / game)) and said in line for line in err.splitlines()), err


def test_a_drawing_the_print_files_lack_is_a_check_error(tmp_path, monkeypatch, capsys):
    folder = copy_texts(tmp_path, monkeypatch)
    path = folder / "deblockle.en.md"
    path.write_text(path.read_text(encoding="utf-8").replace("[{game.id|id}-board]", "[no-such-board]"),
                    encoding="utf-8")
    assert cli.main(["check", "deblockle"]) == 2
    assert "[no-such-board]: no such component in the print files" in capsys.readouterr().err


def test_a_changed_count_and_rule_option_reach_the_rulebook_in_both_languages(tmp_path):
    variant = tmp_path / "sixbysix-trial.toml"
    variant.write_text('extends = "sixbysix"\n\n[components]\nchips_per_colour = 31\n\n'
                       '[rules]\nchips = 17\nunclaimed_bank = "house"\n', encoding="utf-8")
    d = load(variant)
    base = load("sixbysix")
    assert (base.rules.chips, base.components.chips_per_colour, base.rules.unclaimed_bank) == (20, 20, "carry")
    english, spanish = text(render_rulebook(d, "en", "a4")), text(render_rulebook(d, "es", "letter"))
    assert "31 chips in each colour" in english and "31 fichas de cada color" in spanish
    assert "17 chips of that colour" in english and "17 fichas de ese color" in spanish
    assert "17 chips each" in english and "17 fichas cada uno" in spanish
    assert 'unclaimed_bank = "house"' in english and 'unclaimed_bank = "house"' in spanish
    # the option the variant now uses leaves the optional rules, the old reading joins them
    assert "The house keeps it." not in english and "Growing bank." in english
    assert "Se la queda la casa." not in spanish and "Banca acumulada." in spanish
    assert "the chips in the bank leave the game" in english
    assert "las fichas de la banca salen de la partida" in spanish
    assert "Variant: sixbysix-trial" in english and "Variante: sixbysix-trial" in spanish
    baseline = text(render_rulebook(base, "en", "a4"))
    assert "31 chips" not in baseline and "The house keeps it." in baseline


def test_a_blockd_variant_changes_the_reading_and_the_turn_limit(tmp_path):
    variant = tmp_path / "blockd-trial.toml"
    variant.write_text('extends = "blockd"\n\n[rules]\npawns = "block"\nmax_turns = 777\n', encoding="utf-8")
    for language, phrase in (("en", "can neither cross it nor stop on it"), ("es", "no puedes atravesarla ni")):
        book = text(render_rulebook(load(variant), language, "a4"))
        assert phrase in book
        assert "777" in book and "400" not in book
        assert 'pawns = "block"' in book


@pytest.mark.parametrize("game", GAMES)
def test_player_rulebooks_print_no_table_the_analysis_computed(game, books):
    """The exact tables (fractions an engine computed) are the report's, not the players': no
    row of them, nor any fraction of them, is in either book."""
    tables = exact_tables(load(game))
    if tables is None:
        pytest.skip(f"{game} has no exact tables in analysis")
    # (denominators of 5 or more: a drawing's own label, "block 1/4" on a cube net, is no table's)
    fractions = {str(v) for table in tables.tables for row in table.rows for v in row
                 if re.fullmatch(r"\d+/\d+", str(v)) and int(str(v).split("/")[1]) >= 5}
    for language in ("en", "es"):
        found = set(words(books[(game, language)]))
        assert not fractions & found, (game, language, sorted(fractions & found)[:5])
        terms = build_book(load(game), language).terms
        titles = [rulebook_facts.translate(table.title, terms) if language == "es" else table.title
                  for table in tables.tables]
        assert not [title for title in titles if title in text(books[(game, language)])]
        assert "appendix" not in outline(read_text(game, language))["directives"]


def test_blockd_walk_counts_match_a_brute_force_count_and_the_known_numbers():
    """Self-avoiding walks on the 5 x 5 torus: 4, 12, 36, 100, 280 (the infinite lattice's 284 less
    the 4 straight walks of 5 that wrap back onto the start), counted here by a plain search."""
    d = load("blockd")
    grid = Grid.from_definition(d)

    def walks(cell, left, seen):
        if left == 0:
            return [cell]
        r, c = divmod(cell, grid.columns)
        ends = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            n = ((r + dr) % grid.rows) * grid.columns + (c + dc) % grid.columns
            if n not in seen:
                ends += walks(n, left - 1, seen | {n})
        return ends

    start = 12
    rows = exact_tables(d).tables[0].rows
    assert [row[1] for row in rows] == [4, 12, 36, 100, 280]
    for steps, paths, reached in rows:
        ends = walks(start, steps, {start})
        assert (paths, reached) == (len(ends), len(set(ends)))


def test_sixbysix_appendix_is_the_exact_dice_sums():
    table = {t.title: t for t in exact_tables(load("sixbysix")).tables}["Sum of 6 dice"]
    row = next(r for r in table.rows if r[0] == 21)
    assert row[2] == "361/3888"  # 4332/46656, reduced


def test_rebuilding_gives_identical_bytes_and_the_footer_date_comes_from_source_date_epoch(monkeypatch):
    d = load("deblockle")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    first = render_rulebook(d, "es", "letter")
    assert first == render_rulebook(d, "es", "letter")
    assert "2026-01-01" in text(first)
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert "2026-01-01" not in text(render_rulebook(d, "es", "letter"))


@pytest.mark.parametrize("game", GAMES)
def test_books_have_contents_page_numbers_a_one_page_quick_reference_and_embedded_fonts(game, books):
    for language in ("en", "es"):
        reader = PdfReader(io.BytesIO(books[(game, language)]))
        pages = [page.extract_text() for page in reader.pages]
        # the cover with the contents, at least a page of rules, the quick reference on a page of
        # its own, and the appendix after it when the text has one and the game has exact tables
        appendix = "appendix" in outline(read_text(game, language))["directives"] and exact_tables(load(game))
        assert len(pages) >= 3 + bool(appendix)
        # a table of contents on the first page of a book of more than TOC_AFTER pages
        assert ("Contents" in pages[0] or "Índice" in pages[0]) == (len(pages) > TOC_AFTER)
        label = f"{load(game).game.name} {load(game).game.version}"
        for number, page in enumerate(pages, start=1):  # the footer: label, then the page number
            assert page.split("\n")[:2] == [label, str(number)], (number, page[:40])
        quick = [i for i, page in enumerate(pages) if re.search(r"^(Quick reference|Resumen)$", page, re.M)]
        heading_page = [i for i in quick if i > 0][-1]
        assert ("End:" in pages[heading_page] or "Final:" in pages[heading_page]
                or "Stuck:" in pages[heading_page] or "Bloqueado:" in pages[heading_page])
        for page in reader.pages:
            for font in page["/Resources"].get("/Font", {}).values():
                font = font.get_object()
                descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
                assert "/FontFile2" in descendant["/FontDescriptor"], font["/BaseFont"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_text_outside_the_safe_margin(paper, books):
    conventions = print_conventions()
    width, height = conventions.papers[paper]
    margin = conventions.sheet.margin
    pdf = books[("links", "es")] if paper == "a4" else render_rulebook(load("links"), "es", "letter")
    for page in PdfReader(io.BytesIO(pdf)).pages:
        origins = []
        page.extract_text(visitor_text=lambda t, cm, tm, fd, fs: origins.append(
            (t, cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3])) if t.strip() else None)
        for content, x, y in origins:
            assert margin <= x * MM_PER_POINT <= width - margin, content
            assert margin <= y * MM_PER_POINT <= height - margin, content


def test_spanish_books_carry_spanish_letters(books):
    spanish = text(books[("sixbysix", "es")])
    for letter in "áéíóúñ":
        assert letter in spanish
    assert "Preparación" in spanish and "Componentes" in spanish


def test_rulebook_command_writes_files_and_refuses_bad_input(tmp_path, capsys):
    assert cli.main(["rulebook", "links", "--lang", "es", "--paper", "letter", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "links-rulebook-es-letter.pdf").read_bytes()[:5] == b"%PDF-"
    assert cli.main(["rulebook", "links", "--variant", "blockd-flat", "--out", str(tmp_path)]) == 2
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert cli.main(["rulebook", "blockd", "--out", str(blocker)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "not a folder" in err
    with pytest.raises(SystemExit) as stop:
        cli.main(["rulebook", "blockd", "--lang", "fr"])
    assert stop.value.code == 2


@pytest.mark.parametrize("game", GAMES)
def test_spanish_appendix_titles_and_headings_are_translated(game):
    tables = exact_tables(load(game))
    if tables is None:
        pytest.skip(f"{game} has no exact tables in analysis yet")
    terms = build_book(load(game), "es").terms
    deck = getattr(load(game), "deck", None)
    names = {m.name for m in getattr(deck, "masters", ())}  # card names stay
    missing = [word for table in tables.tables for word in (table.title, *table.columns)
               if rulebook_facts.translate(word, terms) == word and word not in terms and word not in names]
    assert missing == []


def test_rules_references_point_inside_the_project():
    """The rules live in layouts/rulebooks/GAME.en.md; nothing points to a rules file outside."""
    root = rulebook_text.RULEBOOKS.parent.parent
    outside = re.compile(r"shared/spec/(" + "|".join(GAMES) + r")\.md")
    offenders = [f"{path.relative_to(root)}:{number}"
                 for folder in ("analysis", "boardlab", "layouts", "printkit", "tests")
                 for path in sorted((root / folder).rglob("*")) if path.suffix in (".py", ".toml", ".md")
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 if outside.search(line)]
    offenders += [f"README.md:{n}" for n, line in enumerate((root / "README.md").read_text().splitlines(), start=1)
                  if outside.search(line)]
    assert offenders == []
    for game in GAMES:
        assert rulebook_text.text_path(game, "en").is_file()


def test_a_setup_drawing_for_a_game_without_one_is_a_check_error(monkeypatch):
    from boardlab.layouts.registry import game_part
    from boardlab.printkit.rulebook.setups import games_with_setup
    game = games_with_setup()[0]
    assert check_texts(load(game)) == []
    monkeypatch.delattr(game_part(game, "print"), "setup_drawing")
    problems = check_texts(load(game))
    assert problems and all(f"::: setup: no setup drawing for {game}" in p for p in problems)
    assert f"rulebooks/{game}." in problems[0].split(":")[0]


def test_the_deblockle_worked_example_is_a_legal_move_of_the_engines_setup():
    import random

    from boardlab.analysis.deblockle.engine import make_game
    from boardlab.layouts.terms import speaking
    from boardlab.printkit.games import deblockle as art
    from boardlab.printkit.rulebook.setups import EXAMPLE_SEED

    d = load("deblockle")
    with speaking("es"):
        _, width, height, caption = art.worked_example(d)
    assert width > 0 and height > 0 and caption.startswith("Quien juega con oro vuelca")
    start, onto, end = re.findall(r"\b[a-g][1-7]\b", caption)[:3]
    game = make_game(d)
    state = game.new_initial_state()
    state.apply(state.sample_chance(random.Random(EXAMPLE_SEED)))
    board = game.board
    assert any((board.name(m.frm), board.name(board.neighbour[m.frm][m.tip]), board.name(m.to)) == (start, onto, end)
               for m in state.legal_moves())
    assert end != onto  # the example shows a hop, not only a tip


def test_the_sixbysix_worked_example_is_a_round_the_engine_plays_so():
    from boardlab.analysis.sixbysix.engine import Move, SixBySixGame
    from boardlab.printkit.games import sixbysix as art

    d = load("sixbysix")
    _, width, height, caption = art.worked_example(d)
    players = int(re.search(r"A round with (\d) players", caption).group(1))
    moves = re.findall(r"(\w+) bets on (\d+), puts the marker on (\d+) and rolls (\d+)", caption)
    assert len(moves) == players
    game = SixBySixGame(d, players)
    state = game.new_initial_state()
    seats = [d.components.seats.index(colour.lower()) for colour, _, _, _ in moves]
    assert seats == state.order
    for _, bet, number, _ in moves:
        state.apply(Move(int(bet), int(number)))
    chips = state.chips[:]
    for _, _, _, die in moves:
        state.apply(int(die))
    total = int(re.search(r"The dice add up to (\d+)", caption).group(1))
    assert total == sum(int(m[3]) for m in moves)
    winner, bank = re.search(r"the (\w+) marker stands on \d+ and takes the bank: (\d+) chips?\b", caption).groups()
    seat = d.components.seats.index(winner)
    assert [int(m[2]) for m in moves][seats.index(seat)] == total
    refunded = int(moves[seats.index(seat)][1]) == int(moves[seats.index(seat)][3])
    assert state.chips[seat] == chips[seat] + int(bank) + refunded and state.bank == 0


def test_the_blockd_worked_example_is_a_legal_move_along_a_real_path():
    from boardlab.analysis.blockd.walks import neighbours
    from boardlab.printkit.games import blockd as art

    d = load("blockd")
    found = art.example_move(d)
    assert found is not None
    game, state, move, path = found
    assert move in state.legal_moves()
    seat = state.current_player()
    assert path[0] == state.pawns[seat] and path[-1] == move.to
    card = game.cards[state.deal.card_ids[path[0]]]
    assert len(path) - 1 in game.step_counts(card)  # exactly the card's steps
    steps = neighbours(game.grid)
    assert all(b in steps[a] for a, b in zip(path, path[1:]))  # orthogonal steps (wrapping on a torus)
    assert len(set(path)) == len(path)  # no cell twice
    assert not any(state.blocked >> cell & 1 for cell in path[1:])  # never into a face-down or blind card
    _, _, _, caption = art.worked_example(d)
    assert f"exactly {len(path) - 1} steps" in caption


def test_the_links_worked_example_is_a_capture_by_the_rules_of_the_table():
    from boardlab.analysis.links.table import Line, capture_size
    from boardlab.printkit.games import links as art

    d = load("links")
    found = art.example_capture(d)
    assert found is not None
    game, seat, move, (cards, run_start, count), taken = found
    line = Line(cards, run_start, count)
    assert capture_size(game.deck, d.rules, line, move.kind) == taken > 0  # the table's rule, independently
    assert sum(1 for c, _ in cards[run_start:] if game.deck.kinds[c].category == "game") == count
    _, _, _, caption = art.worked_example(d)
    assert f"whose count is {count}" in caption and f"player {seat + 1} lays" in caption
