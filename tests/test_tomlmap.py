"""Key line numbers: every key the map records is written on the line it names."""

from __future__ import annotations

import tomllib

from hypothesis import given, strategies as st

from boardlab.layouts.loader import LAYOUTS
from boardlab.layouts.tomlmap import key_lines, line_of


def leaves(data, path=()):
    if isinstance(data, dict):
        for k, v in data.items():
            yield from leaves(v, path + (k,))
    elif isinstance(data, list) and data and isinstance(data[0], dict):
        for i, v in enumerate(data):
            yield from leaves(v, path + (i,))
    else:
        yield path


def test_every_leaf_of_every_definition_is_located_on_its_own_line():
    for path in sorted(LAYOUTS.glob("*.toml")) + sorted((LAYOUTS / "variants").glob("*.toml")):
        text = path.read_text()
        lines = key_lines(text)
        rows = text.splitlines()
        for leaf in leaves(tomllib.loads(text)):
            assert leaf in lines, (path, leaf)
            key = next(p for p in reversed(leaf) if isinstance(p, str))
            row = rows[lines[leaf] - 1]
            assert key in row, (path, leaf, row)


def test_array_elements_and_inline_tables():
    text = 'a = [\n  {x = 1, y = "]"},\n  # comment\n  {x = 2},\n]\nb.c = """\nmulti\n"""\n[[t]]\nk = 1\n[[t]]\nk = 2\n'
    lines = key_lines(text)
    assert lines[("a", 0, "y")] == 2 and lines[("a", 1, "x")] == 4
    assert lines[("b", "c")] == 6
    assert lines[("t", 0, "k")] == 10 and lines[("t", 1, "k")] == 12
    assert line_of(lines, ("t", 1, "missing")) == 11
    assert line_of(lines, ("nowhere",)) == 1


@given(st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True),
                       st.one_of(st.integers(), st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=8), st.booleans(),
                                 st.lists(st.integers(), max_size=3)), min_size=1, max_size=6))
def test_generated_tables_map_each_key_to_its_line(table):
    def dump(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(dump(x) for x in v) + "]"
        return str(v)

    text = "[section]\n" + "".join(f"{k} = {dump(v)}\n" for k, v in table.items())
    assert tomllib.loads(text)["section"] == table
    lines = key_lines(text)
    for i, key in enumerate(table):
        assert lines[("section", key)] == i + 2
