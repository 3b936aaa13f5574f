"""Renames do not break designers: a key a definition once had (layouts/renamed.py) is answered
with what became of it, and the table holds only keys that are really gone."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from boardlab.layouts import game_ids, game_part, load
from boardlab.layouts.renamed import REMOVED, RENAMED

from command_line import run

TABLE = {"renamed": RENAMED, "removed": REMOVED}


def schema_paths(cls: type, prefix: str = "") -> set[str]:
    """Every key path of a definition's schema, tables and their keys alike (list items by their fields)."""
    out = set()
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        path = f"{prefix}{f.name}"
        out.add(path)
        tp = hints[f.name]
        inner = [tp, *typing.get_args(tp)]
        for candidate in inner + [a for t in inner for a in typing.get_args(t)]:
            if dataclasses.is_dataclass(candidate):
                out |= schema_paths(candidate, path + ".")
    return out


def every_schema_path() -> set[str]:
    return set().union(*(schema_paths(game_part(g, "definition").Definition) for g in game_ids()))


def test_the_table_names_only_keys_that_are_gone_and_renames_to_keys_that_exist():
    paths = every_schema_path()
    assert "print.piece_gap" in paths and "rules" in paths  # the walk does see the schemas
    gone = [*TABLE.get("renamed", {}), *TABLE.get("removed", {})]
    assert gone and [key for key in gone if key in paths] == []
    assert [new for new in TABLE.get("renamed", {}).values() if new not in paths] == []


@pytest.mark.parametrize("old", sorted(TABLE.get("renamed", {})))
def test_an_old_variant_with_a_renamed_key_is_told_the_new_name(tmp_path, capsys, old):
    new = TABLE["renamed"][old]
    game = next(g for g in game_ids() if new in schema_paths(game_part(g, "definition").Definition))
    section, _, key = old.rpartition(".")
    variant = tmp_path / "old.toml"
    variant.write_text(f'extends = "{game}"\n\n[{section}]\n{key} = {to_toml(getattr(getattr(load(game), new.split(".")[0]), new.split(".")[-1]))}\n')
    code, out, err = run(capsys, "check", str(variant))
    assert code == 2 and err.count("\n") == 1, err
    assert f"old.toml:4: {old}: renamed to {new}" in err and "unknown key" not in err


@pytest.mark.parametrize("old", sorted(TABLE.get("removed", {})))
def test_an_old_variant_with_a_removed_key_is_told_why(tmp_path, capsys, old):
    section, _, key = old.rpartition(".")
    variant = tmp_path / "old.toml"
    variant.write_text(f'extends = "{game_ids()[0]}"\n\n[{section}.{key}.x]\ny = 1\n' if section else "")
    code, out, err = run(capsys, "check", str(variant))
    assert code == 2 and err.count("\n") == 1, err
    assert f"{old}: removed: {TABLE['removed'][old]}" in err and "unknown key" not in err


def to_toml(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else repr(value) if not isinstance(value, str) \
        else f'"{value}"'
