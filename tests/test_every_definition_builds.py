"""Every definition the schema accepts builds everything (a hypothesis property).

Per game a strategy draws a variant within the schema's limits - grid sizes, counts, colours,
decks (Links also as a CSV card list), every rule option, the paper - and writes it as a
designer would: a small TOML file that extends the game.  Each drawn variant must pass
`check`, and then `simulate` (a few games), `tables`, `print`, `rulebook` in every language
and a small `report` must all succeed, each naming the variant in what it writes.

`make test` draws two variants per game (the simplest and one random; the commands take seconds
each); `make test-slow` draws twelve per game, Blockd's cards up to the 12 steps `check` allows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from boardlab.cli import main
from boardlab.layouts import load, print_conventions

PAPERS = tuple(print_conventions().papers)
#: no shrinking: every example runs seven commands, and the failing variant is printed as drawn
PHASES = (Phase.explicit, Phase.generate)
FAST = settings(max_examples=2, deadline=None, derandomize=True, database=None, phases=PHASES,
                suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=12, deadline=None, database=None, phases=PHASES, suppress_health_check=list(HealthCheck))


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def toml_text(game: str, sections: dict) -> str:
    lines = [f'extends = "{game}"']
    for name, table in sections.items():
        lines += ["", f"[{name}]"] + [f"{key} = {toml_value(value)}" for key, value in table.items()]
    return "\n".join(lines) + "\n"


def choice(name: str, definition) -> st.SearchStrategy:
    """Every value the schema allows for one rule option (true/false, or one of its words)."""
    import typing

    hints = typing.get_type_hints(type(definition.rules))
    tp = hints[name]
    if tp is bool:
        return st.booleans()
    assert typing.get_origin(tp) is typing.Literal, (name, tp)
    return st.sampled_from(typing.get_args(tp))


def rule_options(definition, *skip: str) -> st.SearchStrategy:
    """A strategy for every word and true/false rule option of a definition."""
    import dataclasses
    import typing

    hints = typing.get_type_hints(type(definition.rules))
    names = [f.name for f in dataclasses.fields(definition.rules) if f.name not in skip and
             (hints[f.name] is bool or typing.get_origin(hints[f.name]) is typing.Literal)]
    return st.fixed_dictionaries({name: choice(name, definition) for name in names})


# -- Blockd -------------------------------------------------------------------------------------
SUIT_COLOURS = ("red", "blue", "green", "yellow")


def blockd_shapes(longest: int):
    """(rows, columns, suits, number of values, blind cards) whose deck fills the grid exactly."""
    out = []
    for rows in range(2, 7):
        for columns in range(2, 7):
            for suits in range(2, 5):
                for blind in range(0, 5):
                    values, rest = divmod(rows * columns - blind, suits)
                    if rest == 0 and 1 <= values - 1 <= min(longest, rows * columns - 1):
                        out.append((rows, columns, suits, values - 1, blind))
    return out


@st.composite
def blockd_variant(draw, longest: int = 8):
    base = load("blockd")
    rows, columns, suits, count, blind = draw(st.sampled_from(blockd_shapes(longest)))
    cells = rows * columns
    values = sorted(draw(st.lists(st.integers(1, min(longest, cells - 1)), min_size=count, max_size=count,
                                  unique=True)))
    high = draw(st.integers(1, min(longest, cells - 1)))
    low = draw(st.integers(1, high))
    players = draw(st.integers(2, suits))
    rules = draw(rule_options(base))
    rules.update(start_steps=[low, high], max_turns=draw(st.integers(20, 300)))
    return {"game": {"max_players": players},
            "board": {"rows": rows, "columns": columns},
            "cards": {"suits": list(SUIT_COLOURS[:suits]), "values": values, "blind": blind},
            "rules": rules, "print": {"paper": draw(st.sampled_from(PAPERS))},
            "_as_list": draw(st.sampled_from(["generated", "listed", "uneven"]))}


def write_blockd(folder: Path, name: str, drawn: dict) -> Path:
    """The Blockd variant file: the deck generated, or (drawn so) as a CSV card list of the same
    cards, or of uneven suits (the last suit's first number card a second copy of the first
    suit's last value)."""
    cards = drawn["cards"]
    sections = {k: v for k, v in drawn.items() if not k.startswith("_")}
    if drawn["_as_list"] != "generated":
        numbers = {suit: list(cards["values"]) for suit in cards["suits"]}
        if drawn["_as_list"] == "uneven":
            numbers[cards["suits"][-1]][0] = cards["values"][-1]
        rows = ["kind,colour,value,count"]
        for suit in cards["suits"]:
            rows += [f"start,{suit},,1"] + [f"number,{suit},{value},1" for value in numbers[suit]]
        rows += [f"blind,,,{cards['blind']}"] if cards["blind"] else []
        (folder / f"{name}.csv").write_text("\n".join(rows) + "\n")
        sections["cards"] = {"card_list": f"{name}.csv"}
    path = folder / f"{name}.toml"
    path.write_text(toml_text("blockd", sections))
    return path


# -- Links --------------------------------------------------------------------------------------
@st.composite
def links_variant(draw):
    base = load("links")
    colours = draw(st.integers(1, 4))
    points = sorted(draw(st.lists(st.integers(1, 3), min_size=1, max_size=3, unique=True)))
    faces = colours * len(points)
    doubles = True if faces == 1 else draw(st.booleans())
    copies = draw(st.integers(1, 2))
    games = (faces * (faces + 1) // 2 if doubles else faces * (faces - 1) // 2) * copies
    empty = draw(st.integers(0, 6))
    masters = sum(m.count for m in base.deck.masters)
    size = games + 1 + empty + masters
    hand = min(draw(st.integers(1, 5)), (size - 1) // 2)  # two players' hands fit in the deck
    top = draw(st.integers(2, 8))
    removed = {}
    for n in range(2, top + 1):
        fits = [r for r in range(empty + 1) if n * hand <= size - 1 - r]
        if not fits:
            top = n - 1
            break
        removed[str(n)] = draw(st.sampled_from(fits))
    rules = draw(rule_options(base))
    rules.update(capture_count=draw(st.integers(2, 20)), lines=draw(st.integers(1, 4)),
                 max_turns=draw(st.integers(20, 300)))
    used = list(SUIT_COLOURS[:colours])
    deck = {"end_colours": used, "end_points": points, "doubles": doubles, "copies": copies, "empty": empty,
            "hand_size": hand, "removed_empty": removed}
    as_list = draw(st.booleans())
    return {"game": {"max_players": top}, "deck": deck, "rules": rules,
            "print": {"paper": draw(st.sampled_from(PAPERS))}, "_as_list": as_list}


def links_masters(used: list[str], points: list[int]) -> list[dict]:
    """The baseline's masters, their ends moved onto the drawn deck's faces (for master_links = match)."""
    faces = [(c, p) for c in used for p in points]
    out = []
    for i, m in enumerate(load("links").deck.masters):
        a, b = faces[i % len(faces)], faces[(i + 1) % len(faces)]
        out.append({"name": m.name, "value": m.value, "count": m.count,
                    "ends": [{"colour": a[0], "points": a[1]}, {"colour": b[0], "points": b[1]}]})
    return out


def write_links(folder: Path, name: str, drawn: dict) -> Path:
    """The Links variant file: the deck generated, or (drawn so) as a CSV card list of the same cards."""
    from itertools import combinations, combinations_with_replacement

    deck = drawn["deck"]
    masters = links_masters(deck["end_colours"], deck["end_points"])
    path = folder / f"{name}.toml"
    sections = {k: v for k, v in drawn.items() if not k.startswith("_")}
    lines = []
    if drawn["_as_list"]:
        faces = [(c, p) for c in deck["end_colours"] for p in deck["end_points"]]
        pairs = (combinations_with_replacement if deck["doubles"] else combinations)(faces, 2)
        rows = ["kind,ends,value,count,text"]
        rows += [f"game,{a[0]} {a[1]} / {b[0]} {b[1]},,{deck['copies']}," for a, b in pairs]
        rows += ["central,,,1,"] + ([f"empty,,,{deck['empty']},"] if deck["empty"] else [])
        for m in masters:
            (a, b) = m["ends"]
            rows.append(f"master,{a['colour']} {a['points']} / {b['colour']} {b['points']},{m['value']},{m['count']},"
                        f"{m['name']}")
        (folder / f"{name}.csv").write_text("\n".join(rows) + "\n")
        sections["deck"] = {"card_list": f"{name}.csv", "hand_size": deck["hand_size"],
                            "removed_empty": deck["removed_empty"]}
    else:
        for m in masters:
            lines += ["", "[[deck.masters]]"] + [f"{k} = {toml_value(v)}" for k, v in m.items()]
    path.write_text(toml_text("links", sections) + "\n".join(lines) + "\n")
    return path


# -- 6x6 ----------------------------------------------------------------------------------------
@st.composite
def sixbysix_variant(draw):
    base = load("sixbysix")
    top_face = draw(st.integers(4, 6))
    players = draw(st.integers(2, min(6, len(base.components.seats))))
    numbers = list(range(2, top_face * players + 1))  # the sums of 2..players dice of faces 1..top_face
    tokens = [str(n) for n in numbers]
    tokens.insert(draw(st.integers(0, len(tokens))), base.board.base)
    layout = [" ".join(tokens[i:i + top_face]) for i in range(0, len(tokens), top_face)]
    rules = draw(rule_options(base))
    rules.update(chips=draw(st.integers(3, 40)), max_rounds=draw(st.integers(50, 400)))
    return {"game": {"max_players": players}, "dice": {"faces": list(range(1, top_face + 1))},
            "board": {"layout": layout}, "rules": rules,
            "analysis": {"favourite_number": draw(st.sampled_from(numbers))},
            "print": {"paper": draw(st.sampled_from(PAPERS))}}


# -- Deblockle ----------------------------------------------------------------------------------
@st.composite
def deblockle_variant(draw):
    base = load("deblockle")
    rules = draw(rule_options(base))
    one, two = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    rules.update(blocks=one if draw(st.booleans()) else [one, two], hoops_steps=draw(st.integers(1, 6)),
                 max_turns=draw(st.integers(20, 200)), first=draw(st.integers(1, 2)))
    return {"rules": rules, "print": {"paper": draw(st.sampled_from(PAPERS))}}


# -- the property -------------------------------------------------------------------------------
def builds_everything(tmp_path: Path, game: str, path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOARDLAB_CACHE", str(tmp_path / "cache"))
    name = path.stem
    variant = str(path)

    def ok(*argv: str) -> str:
        code = main(list(argv))
        out, err = capsys.readouterr()
        assert code == 0, f"boardlab {' '.join(argv)} failed on\n{path.read_text()}\n{err}"
        return out

    ok("check", variant)
    definition = load(variant)
    assert definition.variant == name
    assert f"({name})" in ok("simulate", game, "--variant", variant, "--games", "2", "--workers", "1")
    assert f"(variant {name})" in ok("tables", game, "--variant", variant, "--deals", "2", "--workers", "1")
    ok("print", game, "--variant", variant)
    ok("rulebook", game, "--variant", variant)
    folder = tmp_path / "build" / "print" / name
    rulebooks = {p.name for p in folder.glob(f"{game}-rulebook-*.pdf")}
    assert rulebooks == {f"{game}-rulebook-{lang}-{definition.print.paper}.pdf"
                         for lang in definition.rulebook.languages}
    from pypdf import PdfReader
    for pdf in folder.glob("*.pdf"):
        if not pdf.name.endswith("-single.pdf"):  # the one-face-per-page file for print shops has no footer
            assert name in PdfReader(pdf).pages[0].extract_text(), pdf.name
    ok("report", game, "--variant", variant, "--players", str(definition.game.min_players), "--games", "4",
       "--skill-games", "2", "--skill-budget", "2", "--decision-games", "2", "--deals", "2", "--workers", "1",
       "--lang", "en", "--store", str(tmp_path / "r.sqlite"), "--out", str(tmp_path / "report"))
    report = tmp_path / "report" / f"{name}.md"
    assert report.exists() and name in report.read_text()


def _run(game):
    def test(tmp_path_factory, capsys, monkeypatch, drawn):
        folder = tmp_path_factory.mktemp(game)
        name = f"{game}-drawn"
        if game == "links":
            path = write_links(folder, name, drawn)
        elif game == "blockd":
            path = write_blockd(folder, name, drawn)
        else:
            path = folder / f"{name}.toml"
            path.write_text(toml_text(game, drawn))
        with monkeypatch.context() as m:
            builds_everything(folder, game, path, capsys, m)
    return test


@pytest.mark.parametrize("game, strategy", [("blockd", blockd_variant()), ("links", links_variant()),
                                            ("sixbysix", sixbysix_variant()), ("deblockle", deblockle_variant())])
def test_a_drawn_variant_builds_everything(game, strategy, tmp_path_factory, capsys, monkeypatch):
    FAST(given(drawn=strategy)(_run(game)))(tmp_path_factory, capsys, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("game, strategy", [("blockd", blockd_variant(longest=12)), ("links", links_variant()),
                                            ("sixbysix", sixbysix_variant()), ("deblockle", deblockle_variant())])
def test_many_drawn_variants_build_everything(game, strategy, tmp_path_factory, capsys, monkeypatch):
    SLOW(given(drawn=strategy)(_run(game)))(tmp_path_factory, capsys, monkeypatch)
