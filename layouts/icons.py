"""Icons in text: `:star:`, `:hoops:`, `:red:` in card text, player aids and rulebooks.

A name between colons is an icon, drawn as large as the line's capitals and a little more:

- a built-in symbol (layouts.common.SYMBOLS: `:star:`, `:hoops:`, ...), in the text's colour;
- a colour of the definition (`:red:`): that colour's symbol, in that colour;
- a designer's own SVG icon, declared in the definition `[icons] logo = "art/logo.svg"` (the path
  relative to the file that declares it, inside its folder).

A backslash keeps the colons as they are (`\\:star:`).  An unknown name is a mistake that
`boardlab check` reports at its FILE:LINE.

>>> split_icons("Take :star: or \\\\:two: :red:")
['Take ', ('star',), ' or :two: ', ('red',)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from boardlab.layouts.schema import Report

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition

#: an icon in text: a name of lowercase letters, digits, - and _ between colons, not inside a word
ICON = re.compile(r"(\\?):([a-z][a-z0-9_-]*):(?![\w])")


@dataclass(frozen=True)
class Icon:
    """What an icon name draws: a built-in symbol (in `colour`, or the text's when None), or an SVG file."""

    name: str
    symbol: str | None = None
    colour: str | None = None  # "#rrggbb"
    path: str | None = None  # the designer's SVG (an absolute path, checked by the loader)


def split_icons(text: str) -> list:
    """`text` as runs: plain texts and one-item tuples naming an icon (escaped colons kept as text)."""
    out: list = []
    position = 0
    for m in ICON.finditer(text):
        if m.start() > 0 and text[m.start() - 1].isalnum():
            continue  # "ratio:a:" is a word, not an icon
        plain = text[position:m.start()]
        if m.group(1):  # "\:name:": the colons as written
            plain += text[m.start() + 1:m.end()]
            _append(out, plain)
        else:
            _append(out, plain)
            out.append((m.group(2),))
        position = m.end()
    _append(out, text[position:])
    return out


def _append(runs: list, plain: str) -> None:
    if not plain:
        return
    if runs and isinstance(runs[-1], str):
        runs[-1] += plain
    else:
        runs.append(plain)


def icon_names(text: str) -> list[str]:
    """The icon names `text` uses, in order.

    >>> icon_names("a :star: b :red: c :star:")
    ['star', 'red', 'star']
    """
    return [run[0] for run in split_icons(text) if isinstance(run, tuple)]


def icons_of(definition: GameDefinition) -> dict[str, Icon]:
    """Every icon name `definition`'s texts may use: built-in symbols, its colours, its own icons.

    >>> from boardlab.layouts import load
    >>> icons = icons_of(load("blockd"))
    >>> icons["star"], icons["red"]
    (Icon(name='star', symbol='star', colour=None, path=None), Icon(name='red', symbol='heart', colour='#c62828', path=None))
    """
    from boardlab.layouts.common import SYMBOLS

    out = {name: Icon(name, symbol=name) for name in sorted(SYMBOLS)}
    for name, colour in definition.colours.items():
        out[name] = Icon(name, symbol=colour.symbol, colour=colour.hex)
    for name, path in getattr(definition, "icons", {}).items():
        out[name] = Icon(name, path=path)
    return out


def known_list(definition: GameDefinition) -> str:
    """The names an icon may have, for a message."""
    from boardlab.layouts.common import SYMBOLS

    own = list(getattr(definition, "icons", {}))
    return ("symbols " + ", ".join(sorted(SYMBOLS)) + "; colours " + ", ".join(definition.colours)
            + ("; the definition's [icons] " + ", ".join(own) if own else "; or your own SVG in [icons]"))


def check_icons(definition: GameDefinition, report: Report) -> None:
    """Every `:name:` in the definition's texts names a known icon."""
    import dataclasses

    known = icons_of(definition)
    said: set[str] = set()

    def walk(value: object, path: tuple) -> None:
        if isinstance(value, str):
            for name in icon_names(value):
                if name not in known and name not in said:  # each unknown name once, where first written
                    said.add(name)
                    report(path, f'unknown icon ":{name}:"', known_list(definition))
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):  # as written: not what the loader or a game derives
                if f.init and not f.metadata.get("loaded") and f.name not in ("layout", "icons"):
                    walk(getattr(value, f.name), path + (f.name,))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, path + (key,))
        elif isinstance(value, (list, tuple)):
            for index, item in enumerate(value):
                walk(item, path + (index,))

    walk(definition, ())


def read_icon_files(data: dict, origins: dict, display: Callable[[Path], str]) -> dict:
    """`data` with each `[icons]` path made absolute (relative to the file that names it), after
    checking it is an SVG file inside that file's folder.

    :raises DefinitionError: one problem, at the line naming the icon.
    """
    from boardlab.layouts.errors import DefinitionError, Problem
    from boardlab.layouts.images import ImageProblem, read_picture

    table = data.get("icons")
    if not isinstance(table, dict):
        return data
    resolved = {}
    for name, value in table.items():
        named_in, line = origins.get(("icons", name), origins.get(("icons",), ("?", 0)))
        key = f"icons.{name}"
        if not isinstance(value, str) or not value:
            resolved[name] = value  # the schema says what is wrong
            continue
        if not re.fullmatch(r"[a-z][a-z0-9_-]*", name):
            raise DefinitionError([Problem(named_in, line, key, "an icon name is lowercase letters, digits, - and _",
                                           'e.g. logo = "art/logo.svg", written :logo: in text')])
        folder = Path(named_in).parent.resolve()
        path = (Path(named_in).parent / value).resolve()
        if not path.is_relative_to(folder):
            raise DefinitionError([Problem(named_in, line, key, f'"{value}" leaves the folder of {display(Path(named_in))}',
                                           "an SVG file in that folder or below it")])
        try:
            picture = read_picture(path, display(path))
        except ImageProblem as problem:
            raise DefinitionError([Problem(named_in, line, key, str(problem), "an SVG file")]) from None
        if picture.kind != "svg":
            raise DefinitionError([Problem(named_in, line, key, f"{display(path)} is a {picture.kind.upper()} image, "
                                           "not an SVG", "an SVG file (<svg ...>)")])
        resolved[name] = str(path)
    return {**data, "icons": resolved}
