"""Definitions load, variants merge, and every kind of designer mistake gets FILE:LINE: KEY."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import types
import typing

import pytest

from boardlab.cli import main
from boardlab.layouts import GAMES, DefinitionError, game_entry, game_ids, game_part, load, variants_of
from boardlab.layouts.loader import LAYOUTS, VARIANTS
from boardlab.layouts.schema import key_field, key_names


def test_every_definition_and_variant_loads():
    for game in GAMES:
        d = load(game)
        assert d.game.id == game and d.variant == "baseline"
        for name in variants_of(game):
            v = load(name)
            assert v.game.id == game and v.variant == name


def test_variants_change_only_their_keys():
    base = load("blockd")
    block = load("blockd-pawns-block")
    assert block.rules.pawns == "block" and base.rules.pawns == "pass"
    assert block.rules.__class__(**{**base.rules.__dict__, "pawns": "block"}) == block.rules
    assert block.cards == base.cards and block.colours == base.colours
    assert load("sixbysix-lead-fixed").rules.lead == "fixed" and load("sixbysix").rules.lead == "rotate"
    assert load("links-capturing-card-taken").rules.capturing_card == "taken"
    assert load("deblockle-no-touching").rules.no_touching is True


def test_every_variant_file_names_its_game_and_changes_few_keys():
    for path in VARIANTS.glob("*.toml"):
        text = path.read_text()
        assert text.count("=") <= 4, path
        assert any(f'extends = "{g}"' in text for g in GAMES), path
        assert path.stem.split("-")[0] in GAMES, path


def test_definitions_hold_the_spec_facts():
    b = load("blockd")
    assert b.board.rows * b.board.columns == b.card_count == 25
    assert (b.rules.pawns, b.rules.eliminated_card, b.rules.elimination, b.rules.max_turns) == \
        ("pass", "flip", "immediate", 400)
    s = load("sixbysix")
    assert sorted(s.board.numbers) == list(range(2, 37)) and s.rules.chips == 20
    assert len(s.components.seats) * s.components.chips_per_colour == 120
    links = load("links")
    assert len(links.deck.game_cards) == 36 and links.deck.size == 46
    assert dict(links.deck.removed_empty) == {2: 3, 3: 3, 4: 5, 5: 5, 6: 3, 7: 3, 8: 5}
    d = load("deblockle")
    cube = d.cube
    assert {frozenset(p) for p in [(cube.top, cube.bottom), (cube.north, cube.south), (cube.east, cube.west)]} == \
        {frozenset(p) for p in [("Star", "Stop"), ("Cross", "X"), ("Slider", "Hoops")]}
    assert [p.home_star for p in d.players] == ["d2", "d6"]


def test_definition_objects_are_immutable():
    d = load("blockd")
    with pytest.raises(AttributeError):
        d.rules.pawns = "stack"
    with pytest.raises(TypeError):
        d.colours["red"] = None


# -- corruptions: (description, old text, new text, expected key, marker on the expected line) --
# The marker is a text on the line the message must name (in the corrupted file);
# "[rules]"-style markers name the table header for a missing key.

BLOCKD = [
    ("syntax error", 'pawns = "pass"', 'pawns = "pass', "syntax", 'pawns = "pass'),
    ("unknown key", 'pawns = "pass"', 'pawn = "pass"', "rules.pawn", 'pawn = "pass"'),
    ("wrong type", "max_turns = 400", 'max_turns = "400"', "rules.max_turns", "max_turns ="),
    ("missing key", "restore_bonus = true", "", "rules.restore_bonus", "[rules]"),
    ("negative count", "blind = 1 ", "blind = -1 ", "cards.blind", "blind = -1"),
    ("zero count", "max_turns = 400", "max_turns = 0", "rules.max_turns", "max_turns = 0"),
    ("unknown colour", '"yellow"]   #', '"purple"]   #', "cards.suits[3]", "suits ="),
    ("unknown symbol", 'symbol = "heart"', 'symbol = "hart"', "colours.red.symbol", 'symbol = "hart"'),
    ("value out of range", "rows = 5", "rows = 40", "board.rows", "rows = 40"),
    ("unknown option", 'pawns = "pass"', 'pawns = "jump"', "rules.pawns", 'pawns = "jump"'),
    ("deck does not fill the grid", "values = [1, 2, 3, 4, 5]", "values = [1, 2, 3, 4]", "cards", "[cards]"),
    ("bad colour ink", 'hex = "#c62828"', 'hex = "#c6282"', "colours.red.hex", 'hex = "#c6282"'),
    ("more players than suits", "max_players = 4", "max_players = 5", "game.max_players", "max_players = 5"),
    ("start steps not a range", "start_steps = [1, 5]", "start_steps = [4, 2]", "rules.start_steps", "start_steps"),
    ("unknown card size", 'card = "poker"', 'card = "pokr"', "print.card", 'card = "pokr"'),
    ("unknown colour in print", 'back_colour = "back"', 'back_colour = "grey"', "print.back_colour", "back_colour ="),
    ("list expected", 'suits = ["red", "blue", "green", "yellow"]', 'suits = "red"', "cards.suits", "suits ="),
    ("unknown table", "[rules]", "[rule]", "rule", "[rule]"),
    ("duplicate letter", 'letter = "B"', 'letter = "R"', "colours.blue.letter", 'letter = "R"\nsymbol = "diamond"'),
]

SIXBYSIX = [
    ("syntax error", 'lead = "rotate"', "lead = rotate", "syntax", "lead = rotate"),
    ("unknown key", "chips = 20 ", "chip = 20 ", "rules.chip", "chip = 20"),
    ("wrong type", "chips = 20 ", 'chips = "20" ', "rules.chips", 'chips = "20"'),
    ("missing key", 'lead = "rotate"', "", "rules.lead", "[rules]"),
    ("negative count", "chips = 20 ", "chips = -5 ", "rules.chips", "chips = -5"),
    ("zero count", "chips_per_colour = 20", "chips_per_colour = 0", "components.chips_per_colour", "chips_per_colour"),
    ("unknown colour", '"purple", "orange"]', '"purple", "pink"]', "components.seats[5]", "seats ="),
    ("unknown symbol", 'symbol = "hexagon"', 'symbol = "octagon"', "colours.orange.symbol", "octagon"),
    ("value out of range", "max_players = 6", "max_players = 13", "game.max_players", "max_players = 13"),
    ("unknown option", 'lead = "rotate"', 'lead = "random"', "rules.lead", 'lead = "random"'),
    ("board misses a sum", '"31 32 33 34 35 36"', '"31 32 33 34 35 35"', "board.layout", "layout = ["),
    ("board with a foreign token", '"13 14 15', '"13 1x 15', "board.layout", "layout = ["),
    ("die repeats a face", "faces = [1, 2, 3, 4, 5, 6]", "faces = [1, 2, 3, 4, 5, 5]", "dice.faces", "faces ="),
    ("bad colour ink", 'hex = "#2e1245"', 'hex = "purple"', "colours.purple.hex", 'hex = "purple"'),
    ("more players than seats", "max_players = 6", "max_players = 7", "game.max_players", "max_players = 7"),
    ("seconds out of range", "seconds_per_round = 40", "seconds_per_round = 0", "analysis.seconds_per_round",
     "seconds_per_round = 0"),
    ("unknown paper", 'paper = "a4"', 'paper = "a5"', "print.paper", 'paper = "a5"'),
    ("wrong type bool", "covering = true", 'covering = "yes"', "rules.covering", "covering ="),
]

LINKS = [
    ("syntax error", "doubles = true", "doubles = tru", "syntax", "doubles = tru"),
    ("unknown key", "hand_size = 4", "handsize = 4", "deck.handsize", "handsize = 4"),
    ("wrong type", "empty = 5 ", "empty = 5.5 ", "deck.empty", "empty = 5.5"),
    ("missing key", "must_play = true", "", "rules.must_play", "[rules]"),
    ("negative count", "empty = 5 ", "empty = -1 ", "deck.empty", "empty = -1"),
    ("zero count", "hand_size = 4", "hand_size = 0", "deck.hand_size", "hand_size = 0"),
    ("unknown colour", 'end_colours = ["red", "blue", "green", "yellow"]',
     'end_colours = ["red", "blue", "green", "white"]', "deck.end_colours[3]", "end_colours ="),
    ("unknown colour in a master", '{colour = "green", points = 1}, {colour = "yellow", points = 1}',
     '{colour = "green", points = 1}, {colour = "gold", points = 1}', "deck.masters[1].ends[1].colour",
     '"gold"'),
    ("unknown symbol", 'symbol = "triangle"', 'symbol = "trefoil"', "colours.green.symbol", "trefoil"),
    ("value out of range", "capture_count = 5", "capture_count = 1", "rules.capture_count", "capture_count = 1"),
    ("unknown option", 'capturing_card = "stays"', 'capturing_card = "stay"', "rules.capturing_card",
     'capturing_card = "stay"'),
    ("removal table misses a player count", ", 8 = 5}", "}", "deck.removed_empty", "removed_empty ="),
    ("fewer empty cards than the table removes", "empty = 5 ", "empty = 4 ", "deck.empty",
     "empty = 4 "),
    ("master name twice", 'name = "TWO"', 'name = "ONE"', "deck.masters[1].name", 'name = "ONE"\nvalue = 2'),
    ("zero master count", "value = 3\ncount = 1", "value = 3\ncount = 0", "deck.masters[2].count", "count = 0"),
    ("removal table key not a number", "2 = 3, 3 = 3", "two = 3, 3 = 3", "deck.removed_empty.two",
     "removed_empty ="),
    ("hand too big for the deck", "hand_size = 4", "hand_size = 20", "deck.hand_size", "hand_size = 20"),
    ("no game cards", 'end_colours = ["red", "blue", "green", "yellow"]\nend_points = [1, 2]\ndoubles = true',
     'end_colours = ["red"]\nend_points = [1]\ndoubles = false',
     "deck.doubles", "doubles = false"),
    ("unknown option bool", "doubles = true", 'doubles = "yes"', "deck.doubles", "doubles ="),
]

DEBLOCKLE = [
    ("syntax error", "[cube]", "[cube", "syntax", "[cube"),
    ("unknown key", "hoops_steps = 3", "hoop_steps = 3", "rules.hoop_steps", "hoop_steps = 3"),
    ("wrong type", "blocks = 4 ", 'blocks = "four" ', "rules.blocks", "blocks ="),
    ("missing key", "no_touching = false", "", "rules.no_touching", "[rules]"),
    ("negative count", "max_turns = 300", "max_turns = -300", "rules.max_turns", "max_turns = -300"),
    ("zero count", "blocks = 4 ", "blocks = 0 ", "rules.blocks", "blocks = 0"),
    ("unknown colour", 'colour = "gold"', 'colour = "silver"', "players[0].colour", 'colour = "silver"'),
    ("unknown symbol", 'symbol = "hoops"', 'symbol = "loops"', "faces.Hoops.symbol", 'symbol = "loops"'),
    ("value out of range", "blocks = 4 ", "blocks = 5 ", "rules.blocks", "blocks = 5"),
    ("handicap count out of range", "blocks = 4 ", "blocks = [3, 5] ", "rules.blocks[1]", "blocks = [3, 5]"),
    ("handicap of three players", "blocks = 4 ", "blocks = [3, 4, 4] ", "rules.blocks", "blocks = [3, 4, 4]"),
    ("unknown option", 'hop = "slide"', 'hop = "glide"', "faces.Slider.hop", 'hop = "glide"'),
    ("cube repeats a face", 'west = "Hoops"', 'west = "Cross"', "cube.west", 'west = "Cross"'),
    ("cube names an unknown face", 'south = "X"', 'south = "Ex"', "cube.south", 'south = "Ex"'),
    ("start square off the board", '"c1", "e1"', '"c1", "h1"', "players[0].start[1]", '"h1"'),
    ("start square on a star", '"c5", "e5"', '"c5", "d6"', "players[1].start[1]", '"c5", "d6"'),
    ("home star off the board", 'home_star = "d6"', 'home_star = "d9"', "players[1].home_star", '"d9"'),
    ("fewer start squares than blocks", '"c1", "e1", "c3", "e3"', '"c1", "e1", "c3"', "players[0].start",
     '"c1", "e1", "c3"'),
    ("board too small", "files = 7", "files = 2", "board.files", "files = 2"),
    ("two players on one colour", 'colour = "blue"\nhome_star', 'colour = "gold"\nhome_star', "players[1].colour",
     'colour = "gold"\nhome_star = "d6"'),
]

CASES = [("blockd", c) for c in BLOCKD] + [("sixbysix", c) for c in SIXBYSIX] + \
        [("links", c) for c in LINKS] + [("deblockle", c) for c in DEBLOCKLE]


def expected_line(text: str, marker: str) -> int:
    index = text.index(marker)
    return text[:index].count("\n") + 1


@pytest.mark.parametrize("game,case", CASES, ids=[f"{g}-{c[0].replace(' ', '-')}" for g, c in CASES])
def test_a_corrupted_definition_names_file_line_and_key(game, case, tmp_path, capsys):
    description, old, new, key, marker = case
    original = (LAYOUTS / f"{game}.toml").read_text()
    assert original.count(old) >= 1, f"corruption text not found: {old!r}"
    corrupted = original.replace(old, new, 1)
    path = tmp_path / f"{game}.toml"
    path.write_text(corrupted)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert lines, description
    want = f"{path}:{expected_line(corrupted, marker)}: {key}: "
    assert any(line.startswith(want) for line in lines), f"{description}: wanted {want!r} in\n{err}"
    assert "Traceback" not in err
    assert path.read_text() == corrupted  # check never writes


# -- corruptions generated from the schema: every registered game, without a line written for it --

#: keys whose value decides how the file is read rather than what it says (the game id picks the schema)
NOT_CORRUPTED = {"game.id"}


def generated_corruptions(game: str):
    """(description, corrupted text, key, line) for the game's definition file, from its schema's
    fields and limits alone: each key written on a line of its own renamed (an unknown key),
    removed when the schema requires it (a missing key, reported at its table), given a value of
    the wrong type, nan and inf for a number that may be fractional, and set one step beyond each
    of its limits."""
    definition = game_part(game, "definition").Definition
    path = game_entry(game).definition_path()
    text = path.read_text()
    lines = text.split("\n")
    for key in key_names(definition):
        parts = tuple(key.split("."))
        if "[" in key or key in NOT_CORRUPTED:
            continue
        tp, meta = key_field(definition, parts)
        index = next((i for i, line in enumerate(lines) if re.match(rf"{re.escape(parts[-1])}\s*=", line)
                      and _table_of(lines, i) == parts[:-1]), None)
        if index is None or not re.match(rf"{re.escape(parts[-1])}\s*=\s*[^\[{{]*$", lines[index].split("#")[0]):
            continue  # written elsewhere (an inline table) or over several lines

        def changed(new_line):
            return "\n".join(lines[:index] + ([new_line] if new_line is not None else []) + lines[index + 1:])

        table = ".".join(parts[:-1])
        yield (f"{key}: unknown key", changed(f"{parts[-1]}_x = 1"), f"{table}.{parts[-1]}_x", index + 1)
        if _required(definition, parts):
            header = next(i for i, line in enumerate(lines) if _header(line) == parts[:-1])
            yield (f"{key}: missing", changed(None), key, header + 1)
        textual = tp is str or typing.get_origin(tp) is typing.Literal
        yield (f"{key}: wrong type", changed(f"{parts[-1]} = {'7' if textual else chr(34) + 'zzz' + chr(34)}"),
               key, index + 1)
        if typing.get_origin(tp) is typing.Literal:
            yield (f"{key}: unknown option", changed(f'{parts[-1]} = "no_such_option"'), key, index + 1)
        numeric = tp in (int, float) or (typing.get_origin(tp) in (typing.Union, types.UnionType)
                                         and set(typing.get_args(tp)) <= {int, float, type(None)})
        if numeric and float in (typing.get_args(tp) or (tp,)):  # TOML's nan and inf are floats
            yield (f"{key}: not a number", changed(f"{parts[-1]} = nan"), key, index + 1)
            yield (f"{key}: infinite", changed(f"{parts[-1]} = inf"), key, index + 1)
        if numeric and meta.get("min") is not None:
            yield (f"{key}: below its least", changed(f"{parts[-1]} = {_number(meta['min'] - 1, tp)}"), key, index + 1)
        if numeric and meta.get("max") is not None:
            yield (f"{key}: above its most", changed(f"{parts[-1]} = {_number(meta['max'] + 1, tp)}"), key, index + 1)


def _number(value, tp) -> str:
    return str(int(value)) if tp is int else repr(float(value))


def _header(line: str) -> tuple[str, ...] | None:
    """The table a `[header]` line opens, or None for another line."""
    m = re.match(r"\[([A-Za-z0-9_.]+)\]\s*(#.*)?$", line.strip())
    return tuple(m.group(1).split(".")) if m else None


def _table_of(lines: list[str], index: int) -> tuple[str, ...]:
    """The table a line of a TOML file sits in (the last [header] above it)."""
    return next((t for t in map(_header, reversed(lines[:index])) if t is not None), ())


def _required(definition, parts) -> bool:
    cls = definition
    for part in parts[:-1]:
        cls = typing.get_type_hints(cls)[part]
    field = next(f for f in dataclasses.fields(cls) if f.name == parts[-1])
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


@pytest.mark.parametrize("game", game_ids())
def test_schema_generated_corruptions_name_file_line_and_key(game, tmp_path):
    cases = list(generated_corruptions(game))
    kinds = {description.split(": ")[1] for description, *_ in cases}
    assert len(cases) >= 15 and kinds >= {"unknown key", "missing", "wrong type", "below its least"}, kinds
    path = tmp_path / game_entry(game).definition_path().name
    for description, corrupted, key, line in cases:
        path.write_text(corrupted)
        with pytest.raises(DefinitionError) as err:
            load(path)
        want = f"{path}:{line}: {key}: "
        shown = [str(problem) for problem in err.value.problems]
        assert any(problem.startswith(want) for problem in shown), f"{description}: wanted {want!r} in {shown}"


def test_unknown_key_suggests_the_nearest_known_key(tmp_path, capsys):
    path = tmp_path / "v.toml"
    path.write_text('extends = "blockd"\n\n[rules]\nrestor_bonus = false\n')
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f'{path}:4: rules.restor_bonus: unknown key (did you mean "restore_bonus"?)'


def test_variant_mistakes_point_into_the_variant_file(tmp_path, capsys):
    path = tmp_path / "v.toml"
    path.write_text('extends = "sixbysix"\n# comment\n[rules]\nchips = 0\n')
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err.strip() == f"{path}:4: rules.chips: must be at least 1 (got 0) (1 to 500)"


def test_variant_cross_field_mistake_and_bad_extends(tmp_path, capsys):
    path = tmp_path / "v.toml"
    path.write_text('extends = "blockd"\n[board]\nrows = 6\n')
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "25 cards for a 6 x 5 grid of 30 cells" in err
    assert err.startswith("layouts/blockd.toml:") and f"with the changes of {path}" in err
    path.write_text('extends = "chess"\n')
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err.strip().startswith(f'{path}:1: extends: no game or variant named "chess"')
    path.write_text(f'extends = "{path.name}"\n')
    assert main(["check", str(path)]) == 2
    assert "circle" in capsys.readouterr().err


def test_a_variant_of_a_variant_and_a_bigger_grid(tmp_path):
    first = tmp_path / "six.toml"
    first.write_text('extends = "blockd"\n[board]\nrows = 6\ncolumns = 6\n[cards]\nvalues = [1, 2, 3, 4, 5, 6]\n'
                     'blind = 0\nsuits = ["red", "blue", "green", "yellow", "purple"]\n'
                     '[colours.purple]\nhex = "#5e2a84"\nletter = "P"\nsymbol = "star"\nlabel = "purple"\n')
    with pytest.raises(DefinitionError) as err:
        load(first)  # 5 suits x 7 cards = 35 != 36
    assert "35 cards for a 6 x 6 grid" in str(err.value)
    first.write_text(first.read_text().replace("blind = 0", "blind = 1"))
    d = load(first)
    assert d.card_count == 36 and d.colours["purple"].letter == "P"
    second = tmp_path / "flat-six.toml"
    second.write_text('extends = "six.toml"\n[rules]\ntorus = false\n')
    assert load(second).rules.torus is False and load(second).board.rows == 6


@pytest.mark.parametrize("content,key", [
    (b"\xff\xfe not utf8", "encoding"),
    (b"", "game.id"),
])
def test_unreadable_or_empty_files(tmp_path, capsys, content, key):
    path = tmp_path / "x.toml"
    path.write_bytes(content)
    assert main(["check", str(path)]) == 2
    assert f": {key}: " in capsys.readouterr().err


def test_missing_file_and_unknown_game(capsys):
    assert main(["check", "no/such/file.toml"]) == 2
    assert "no/such/file.toml: no such file" in capsys.readouterr().err
    assert main(["check", "chess"]) == 2
    assert "chess: no such game or variant" in capsys.readouterr().err


def test_check_command_line_exit_status():
    """The real console script: `make` runs exactly this."""
    files = [str(p) for p in sorted(LAYOUTS.glob("*.toml")) + sorted(VARIANTS.glob("*.toml"))]
    result = subprocess.run([sys.executable, "-m", "boardlab.cli", "check", *files],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count(": ok (") == len(files)


def test_absurdly_nested_files_are_refused_in_one_line(tmp_path, capsys):
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err.strip() == \
        f"{path}:1: syntax: nested too deeply to be a definition (tables and lists a few levels deep)"


def test_check_refuses_a_card_that_does_not_fit_the_definitions_paper(tmp_path, capsys):
    path = tmp_path / "big.toml"
    path.write_text('extends = "links"\n\n[print]\ncard = [200, 290]\n')
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{path}:3: print: a 200 x 290 mm card does not fit on a4")
    path.write_text('extends = "links"\n\n[print]\ncard = [200, 290]\npaper = "a3"\n')
    assert main(["check", str(path)]) == 0  # on A3 it fits
