"""The reference pages of the docs site, generated from the code so that nothing is written twice.

- every command's options, from the argparse parser (`boardlab.cli.build_parser`);
- every key of every game's definition, from its schema (the dataclasses of `layouts/GAME.py`):
  type, default, limits, meaning (the field's comment in the schema, else the comment beside the
  key in the game's shipped definition) and, for a rule option, the name its rulebook gives each
  value;
- the glossary of the balance reports (`analysis/report/glossary.py`).

The docs site builds these pages with `docs/hooks.py`; `tests/test_docs.py` checks that every key of
every shipped definition and every option of every command has its sentence.

>>> keys = {key.path: key for key in definition_keys("blockd")}
>>> keys["rules.torus"].type, keys["rules.torus"].rulebook_names["false"]
('true or false', 'Walled grid')
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib
import inspect
import io
import re
import tokenize
import typing
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

#: how a key of a table whose keys the designer chooses (a colour's name, a face's name) is written
ANY_NAME = "NAME"


@dataclass(frozen=True)
class Key:
    """One key a definition may hold: its dotted path (`colours.NAME.hex`, `cards.cards[].kind`)."""

    path: str
    type: str
    default: str | None  # None: required
    limits: str
    meaning: str
    rulebook_names: dict[str, str] = field(default_factory=dict)  # value -> the rulebook's name for it


# -- meanings: the comments of the schema ---------------------------------------------------------

@cache
def _comments(module_file: str) -> dict[int, str]:
    """Line -> comment as written (from its '#') of every comment in a Python file."""
    out: dict[int, str] = {}
    text = Path(module_file).read_text(encoding="utf-8")
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            out[token.start[0]] = token.string
    return out


def _words(comment: str) -> str:
    return comment.lstrip("#").lstrip(":").strip()


@cache
def _field_lines(cls: type) -> dict[str, tuple[int, int]]:
    """Field name -> (first line, last line) of its statement in the class's source file."""
    file = inspect.getsourcefile(cls)
    if file is None:
        return {}
    tree = ast.parse(Path(file).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__ and _first_line(node) == _class_line(cls):
            return {stmt.target.id: (stmt.lineno, stmt.end_lineno or stmt.lineno) for stmt in node.body
                    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)}
    return {}


def _first_line(node: ast.ClassDef) -> int:
    """The line a class's source starts on: its first decorator's, as `inspect` counts."""
    return min([node.lineno] + [d.lineno for d in node.decorator_list])


def _class_line(cls: type) -> int:
    return inspect.getsourcelines(cls)[1]


def schema_comment(cls: type, name: str) -> str:
    """The comment the schema gives field `name` of dataclass `cls` (or of the base class that
    declares it): the `#:` lines right above it, else the comment at the end of its line, else
    plain comment lines right above it."""
    for owner in cls.__mro__:
        if name not in owner.__dict__.get("__annotations__", {}):
            continue
        lines = _field_lines(owner)
        if name not in lines:
            return ""
        first, last = lines[name]
        comments = _comments(inspect.getsourcefile(owner) or "")
        above: list[str] = []
        line = first - 1
        while line in comments and _is_whole_line_comment(owner, line):
            above.insert(0, comments[line])
            line -= 1
        documented = [c for c in above if c.startswith("#:")]
        trailing = next((comments[n] for n in range(first, last + 1) if n in comments), "")
        return " ".join(_words(c) for c in documented or ([trailing] if trailing else above))
    return ""


def _is_whole_line_comment(cls: type, line: int) -> bool:
    source = Path(inspect.getsourcefile(cls) or "").read_text(encoding="utf-8").splitlines()
    return source[line - 1].lstrip().startswith("#")


def toml_comment(text: str, line: int) -> str:
    """The comment at the end of line `line` of a TOML text, with the comment-only lines under it
    that continue it (indented past the start of the line's key).

    >>> toml_comment('a = 1   # one\\n        # and more\\nb = "x#y"  # two\\n', 1)
    'one and more'
    >>> toml_comment('a = 1   # one\\n        # and more\\nb = "x#y"  # two\\n', 3)
    'two'
    """
    lines = text.splitlines()
    comment = _trailing_comment(lines[line - 1])
    if not comment:
        return ""
    parts = [comment]
    for below in lines[line:]:
        if below.startswith((" ", "\t")) and below.lstrip().startswith("#"):
            parts.append(below.lstrip().lstrip("#").strip())
        else:
            break
    return " ".join(parts)


def _trailing_comment(line: str) -> str:
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[i + 1:].strip() if line[:i].strip() else ""
    return ""


# -- definition keys ------------------------------------------------------------------------------

def definition_class(game_id: str) -> type:
    """The dataclass a game's definition loads into (`Definition` of its definition module)."""
    from boardlab.layouts import game_entry

    return importlib.import_module(game_entry(game_id).definition).Definition


def _toml_value(value: Any) -> str:
    """A default as it is written in TOML.

    >>> _toml_value(True), _toml_value("random"), _toml_value((1, 2)), _toml_value(0.05)
    ('true', '"random"', '[1, 2]', '0.05')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{}" if not value else "{" + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def _limits_text(tp: Any, meta: Any) -> str:
    """The schema's bounds in words: of the value, of a list's length, or that a text is not empty.

    >>> _limits_text(tuple[int, ...], {"min": 1, "max": None}), _limits_text(int, {"min": 2, "max": 12})
    ('length at least 1', '2 to 12')
    """
    low, high = meta.get("min"), meta.get("max")
    if low is None and high is None:
        return ""
    if tp is str:
        return "not empty"
    args = typing.get_args(tp)
    listed = typing.get_origin(tp) is tuple and len(args) == 2 and args[1] is Ellipsis
    if low is not None and high is not None:
        text = f"{low:g} to {high:g}" if low != high else f"exactly {low:g}"
    elif low is not None:
        text = f"at least {low:g}"
    else:
        text = f"at most {high:g}"
    return f"length {text}" if listed else text


def _dataclass_in(tp: Any) -> type | None:
    """The dataclass a field holds directly, or as the items of a list or the values of a table."""
    if dataclasses.is_dataclass(tp):
        return tp  # type: ignore[return-value]
    for arg in typing.get_args(tp):
        if dataclasses.is_dataclass(arg):
            return arg  # type: ignore[return-value]
    return None


def _keys_of(cls: type, prefix: str, names: dict[tuple[str, str], str]) -> list[Key]:
    from boardlab.layouts.schema import type_name

    hints = typing.get_type_hints(cls)
    out: list[Key] = []
    for f in dataclasses.fields(cls):
        if f.metadata.get("loaded"):
            continue
        tp = hints[f.name]
        path = f"{prefix}{f.name}"
        inner = _dataclass_in(tp)
        origin = typing.get_origin(tp)
        nested = typing.get_args(tp)[1] if origin is dict else None
        if inner is None and typing.get_origin(nested) is dict and _dataclass_in(nested) is not None:
            # a table of tables of tables ([layout.KIND.REGION]): both names are the writer's
            out += _keys_of(_dataclass_in(nested), f"{path}.{ANY_NAME}.{ANY_NAME}.", names)  # type: ignore[arg-type]
            continue
        if inner is not None and origin is dict:
            out += _keys_of(inner, f"{path}.{ANY_NAME}.", names)
            continue
        if inner is not None and origin is tuple:
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
                out.append(Key(path, f"a list of tables ([[{path}]])", _default_of(f), "",
                               schema_comment(cls, f.name)))
            out += _keys_of(inner, f"{path}[].", names)
            continue
        if inner is not None:
            out += _keys_of(inner, f"{path}.", names)
            continue
        rule = f.name if prefix == "rules." else None
        out.append(Key(path, type_name(tp), _default_of(f), _limits_text(tp, f.metadata), schema_comment(cls, f.name),
                       {value: name for (key, value), name in names.items() if key == rule}))
    return out


def _default_of(f: dataclasses.Field) -> str | None:
    if f.default is not dataclasses.MISSING:
        return "none" if f.default is None else _toml_value(f.default)
    if f.default_factory is not dataclasses.MISSING:
        return _toml_value(f.default_factory())
    return None


def definition_keys(game_id: str) -> list[Key]:
    """Every key a definition of `game_id` may hold, in the schema's order, each with its meaning
    (the schema's comment, else the comment beside the key in the game's shipped definition)."""
    from boardlab.layouts import game_entry
    from boardlab.layouts.rulebook_markup import option_names, read_text

    try:
        names = option_names(read_text(game_id, "en"))
    except Exception:  # a game without an English rulebook text: no names to give
        names = {}
    keys = _keys_of(definition_class(game_id), "", names)
    shipped = shipped_comments(game_entry(game_id).definition_path())
    return [dataclasses.replace(key, meaning=key.meaning or shipped.get(key.path, "")) for key in keys]


def shipped_comments(path: Path) -> dict[str, str]:
    """Key path (as `Key.path` writes it) -> the comment beside it in a definition file."""
    from boardlab.layouts.tomlmap import key_lines

    text = path.read_text(encoding="utf-8")
    out: dict[str, str] = {}
    for key, line in key_lines(text).items():
        if not key or any(isinstance(part, int) for part in key):
            continue
        comment = toml_comment(text, line)
        if comment:
            out.setdefault(".".join(str(part) for part in key), comment)
    return out


def shipped_keys(game_id: str) -> set[str]:
    """The key paths that the game's shipped definition and its variants write, as `Key.path` does
    (a table of names as `NAME`, a list of tables as `[]`)."""
    import tomllib

    from boardlab.layouts import game_entry
    from boardlab.layouts.loader import VARIANTS

    files = [game_entry(game_id).definition_path()] + sorted(Path(VARIANTS).glob(f"{game_id}-*.toml"))
    schema = {key.path for key in definition_keys(game_id)}
    found: set[str] = set()

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for name, inner in value.items():
                direct = f"{path}.{name}" if path else name
                named = f"{path}.{ANY_NAME}" if path else ANY_NAME
                if direct in schema and not _tables(inner):
                    found.add(direct)  # a table the schema takes whole (e.g. player count -> number)
                elif any(k == direct or k.startswith(direct + ".") or k.startswith(direct + "[]") for k in schema):
                    walk(inner, direct)
                else:
                    walk(inner, named)
        elif _tables(value):
            if path in schema:
                found.add(path)
            for item in value:
                walk(item, f"{path}[]")
        else:
            found.add(path)

    for file in files:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
        data.pop("extends", None)
        walk(data, "")
    return found


def _tables(value: Any) -> bool:
    """Whether a TOML value is a list of tables (`[[...]]`)."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def definition_sources(game_id: str) -> tuple[str, str]:
    """(the TOML definition, the schema module) of a game, as paths in boardlab's source tree (or in
    the game's own package), from its registry entry.

    >>> definition_sources("blockd")
    ('layouts/blockd.toml', 'layouts/blockd.py')
    """
    from pathlib import PurePosixPath

    from boardlab.layouts.registry import game_entry

    entry = game_entry(game_id)
    schema = PurePosixPath(*entry.definition.removeprefix("boardlab.").split(".")).with_suffix(".py")
    toml = f"layouts/{game_id}.toml" if entry.definition_file is None else str(schema.parent / entry.definition_file)
    return toml, str(schema)


def definition_page(game_id: str) -> str:
    """The Markdown reference page of a game's definition keys."""
    from boardlab.layouts import load

    d = load(game_id)
    toml, schema = definition_sources(game_id)
    rows = []
    for key in definition_keys(game_id):
        default = "required" if key.default is None else f"`{key.default}`"
        named = "; ".join(f"`{v}`: {n}" for v, n in key.rulebook_names.items())
        meaning = _cell(key.meaning) + (f" Rulebook names: {_cell(named)}." if named else "")
        shipped = _shipped_value(d, key.path)
        rows.append(f"| `{key.path}` | {_cell(key.type)} | {default} | {_cell(key.limits)} | "
                    f"{'' if shipped is None else f'`{_cell(shipped)}`'} | {meaning} |")
    return "\n".join([
        f"# {d.game.name} definition keys",
        "",
        f"Every key of a {d.game.name} definition (`{toml}` and the variants that extend it), "
        f"generated from the schema in `{schema}` and `layouts/common.py`, with the value "
        f"{d.game.name}'s own definition gives it. "
        "A key without a default is required; a variant states only the keys it changes. "
        f"`{ANY_NAME}` stands for a name you choose (a colour's, say); `[]` marks a list of tables "
        "(`[[cards.cards]]` in TOML). `boardlab check` reports a broken key as `FILE:LINE: KEY: what is wrong`.",
        "",
        f"| key | type | default | limits | {d.game.name}'s | meaning |",
        "| --- | --- | --- | --- | --- | --- |",
        *rows,
        "",
    ])


def _shipped_value(definition: object, path: str) -> str | None:
    """The value the shipped definition gives a key, as TOML writes it (None for a key under a
    name or a list of tables, or a long value).

    >>> from boardlab.layouts import load
    >>> _shipped_value(load("blockd"), "rules.torus"), _shipped_value(load("blockd"), "colours.NAME.hex")
    ('true', None)
    """
    if ANY_NAME in path or "[]" in path:
        return None
    value: Any = definition
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else getattr(value, part, None)
    if value is None or dataclasses.is_dataclass(value):
        return None
    text = _toml_value(value)
    return text if len(text) <= 40 else None


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


# -- commands -------------------------------------------------------------------------------------

def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """Every sub-command's full parser, by name, in `boardlab --help` order; a command with
    sub-commands of its own (`export tts`, `export cards`) is followed by each of them."""
    from boardlab.cli import COMMANDS, build_parser

    out: dict[str, argparse.ArgumentParser] = {}

    def add(name: str, parser: argparse.ArgumentParser) -> None:
        out[name] = parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for inner, sub in action.choices.items():
                    add(f"{name} {inner}", sub)

    top = next(a for a in build_parser(None)._actions if isinstance(a, argparse._SubParsersAction))
    for name in COMMANDS:
        add(name, top.choices[name])
    return out


def option_help(action: argparse.Action, parser: argparse.ArgumentParser) -> str:
    """An option's help as `--help` prints it (argparse's %-expansion done)."""
    formatter = parser._get_formatter()
    return formatter._expand_help(action) if action.help else ""


def command_options(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    """(how the option or argument is written, its help) for every argument of a command but --help."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if isinstance(action, argparse._SubParsersAction):
            out += [(f"{action.metavar or action.dest} = {choice.dest}", choice.help or "")
                    for choice in action._choices_actions]
            continue
        if action.option_strings:
            metavar = "" if action.nargs == 0 else f" {action.metavar or action.dest.upper()}"
            written = ", ".join(f"{o}{metavar}" for o in action.option_strings)
        else:
            written = str(action.metavar or action.dest)
        out.append((written, option_help(action, parser)))
    return out


def commands_page() -> str:
    """The Markdown reference page of every command: usage, description and options."""
    parts = ["# Commands", "",
             "Every `boardlab` command with its options, generated from the command line parser "
             "(`boardlab COMMAND --help` prints the same). Bad input of any kind ends with one line on "
             "stderr and exit status 2; Ctrl-C with exit status 130.", ""]
    for name, parser in command_parsers().items():
        usage = parser.format_usage().removeprefix("usage: ").strip()
        parts += [f"## {name}", "", "```text", usage, "```", "", _cell(parser.description or ""), "",
                  "| argument | meaning |", "| --- | --- |"]
        parts += [f"| `{written}` | {_cell(text)} |" for written, text in command_options(parser)]
        parts.append("")
    return "\n".join(parts)


# -- glossary -------------------------------------------------------------------------------------

def glossary_page() -> str:
    """The Markdown glossary: every metric and term of the balance reports, as the reports define it."""
    from boardlab.analysis.report.glossary import glossary
    from boardlab.layouts.terms import speaking

    with speaking("en"):
        entries = glossary()
    return "\n".join(["# Glossary", "",
                      "The terms of the balance reports, as every report's own glossary defines them "
                      "(`analysis/report/glossary.py`; the Spanish reports carry the same in Spanish).", "",
                      "| term | meaning |", "| --- | --- |",
                      *[f"| **{_cell(term)}** | {_cell(text)} |" for term, text in entries], ""])


# -- the playtest log ------------------------------------------------------------------------------

def playtest_columns() -> list[tuple[str, str, str]]:
    """(column, needed, what it holds) of the playtest log, from the table of `analysis.playtests`'
    docstring (the reader's own description of what it reads).

    >>> playtest_columns()[0]
    ('date', 'yes', 'the day played, YYYY-MM-DD')
    """
    from boardlab.analysis import playtests

    lines = (playtests.__doc__ or "").splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("=====")]
    starts = [m.start() for m in re.finditer(r"=+", lines[rules[0]])]  # the columns, as the rule line sets them
    rows = []
    for line in lines[rules[1] + 1:rules[2]]:
        name, needed, what = (line[a:b].strip() for a, b in zip(starts, starts[1:] + [len(line) + 1]))
        rows.append((name, needed, what))
    return rows


def _needed(name: str, needed: str) -> str:
    from boardlab.analysis.playtests import OUTCOME_COLUMNS

    return f"one of {', '.join(OUTCOME_COLUMNS)}" if name in OUTCOME_COLUMNS else needed


def playtest_log_page() -> str:
    """The Markdown reference page of the playtest log's CSV columns."""
    from boardlab.analysis import playtests

    doc = (playtests.__doc__ or "").split("\n\n")
    after = next(i for i, part in enumerate(doc) if part.lstrip().startswith("====="))
    rows = playtest_columns()
    return "\n".join([
        "# Playtest log",
        "",
        "The CSV file `boardlab playtests import GAME FILE` reads: one row per game played at a table, "
        "a header row naming its columns, in any order. Generated from `analysis/playtests.py`, which "
        "reads it; [Log playtests](../how-to/playtests.md) shows how to use it.",
        "",
        "| column | needed | what it holds |",
        "| --- | --- | --- |",
        *[f"| `{name}` | {_needed(name, needed)} | {_cell(what)} |" for name, needed, what in rows],
        "",
        *[" ".join(part.split()) + "\n" for part in doc[after + 1:] if not part.lstrip().startswith(">>>")],
    ])


def pages() -> dict[str, str]:
    """Every generated page: its path under docs/ -> its Markdown."""
    from boardlab.layouts import game_ids

    out = {"reference/commands.md": commands_page(), "reference/glossary.md": glossary_page(),
           "reference/playtest-log.md": playtest_log_page()}
    for game_id in game_ids("definition"):
        out[f"reference/definitions/{game_id}.md"] = definition_page(game_id)
    return out
