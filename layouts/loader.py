"""Load game definitions and variants from TOML into frozen dataclasses.

A definition is a complete TOML file in layouts/; a variant holds `extends = "GAME"` (or a
path to another definition or variant) plus only the keys it changes.

>>> d = load("blockd")
>>> d.game.name, d.rules.torus, d.variant
('Blockd', True, 'baseline')
>>> load("blockd-pawns-block").rules.pawns
'block'
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import re
import tomllib
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from boardlab.common.files import UnreadableFile, read_bounded
from boardlab.layouts.common import PrintConventions, check_colour_palette, check_print
from boardlab.layouts.errors import BoardlabError, DefinitionError, Problem
from boardlab.layouts.faces import check_layout, read_layout_file
from boardlab.layouts.icons import check_icons, read_icon_files
from boardlab.layouts.limits import (MAX_CARD_LIST_BYTES, MAX_CARD_LIST_ROWS, MAX_EXTENDS_DEPTH, MAX_FILE_BYTES,
                                     MAX_INTEGER_DIGITS, control_character)
from boardlab.layouts.registry import game_entry, game_ids, game_part
from boardlab.layouts.schema import Checker, FrozenDict, Source
from boardlab.layouts.tomlmap import key_lines

#: the deepest key path a definition may write (the schema's deepest is rulebook.text.LANGUAGE.KEY)
MAX_DEPTH = 8

LAYOUTS = Path(__file__).resolve().parent
VARIANTS = LAYOUTS / "variants"


@dataclasses.dataclass
class Document:
    """One parsed TOML file: its data and where each key was written."""

    file: str
    data: dict
    lines: dict[tuple, int]


def display_path(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


#: documents parsed in this process, by (shown name, the file's text): `boardlab list` reads each
#: game definition once per variant that extends it, and the parse (tomllib and the key lines) is
#: most of its time.  Keyed by the text itself, so a file rewritten is parsed again.
_PARSED: dict[tuple[str, str], Document] = {}
_PARSED_MOST = 256


def read_document(path: Path) -> Document:
    """Parse one TOML file, turning every way it can fail into a DefinitionError.

    The same bytes are parsed once per process (`_PARSED`); every call returns its own copy.
    """
    name = display_path(path)
    try:
        text = read_bounded(path, MAX_FILE_BYTES, shown=name)
    except UnreadableFile as err:
        if err.line is not None:
            raise DefinitionError([Problem(name, err.line, "encoding", "not UTF-8 text", "save the file as UTF-8")]) from None
        raise DefinitionError([Problem(name, 0, "file", err.reason, "a .toml file of at most "
                                       f"{MAX_FILE_BYTES:,} bytes (a definition is a few kB)")]) from None
    text = text.removeprefix("\ufeff")  # a byte-order mark, as some editors save UTF-8
    parsed = _PARSED.get((name, text))
    if parsed is None:
        parsed = _parse(name, text)
        if len(_PARSED) >= _PARSED_MOST:
            _PARSED.clear()
        _PARSED[name, text] = parsed
    return Document(parsed.file, copy.deepcopy(parsed.data), dict(parsed.lines))


def _parse(name: str, text: str) -> Document:
    """`read_document` after the file is read and decoded: the TOML and every key's line."""
    try:
        data = tomllib.loads(text)
        lines = key_lines(text)
    except RecursionError:
        raise DefinitionError([Problem(name, 1, "syntax", "nested too deeply to be a definition",
                                       "tables and lists a few levels deep")]) from None
    except tomllib.TOMLDecodeError as err:
        message = str(err)
        m = re.search(r"\(at line (\d+), column \d+\)", message)
        line = int(m.group(1)) if m else 0
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
        if not m and "end of document" in message:
            line = text.count("\n") + 1
        raise DefinitionError([Problem(name, line, "syntax", f"TOML syntax error: {message}",
                                       "see https://toml.io for the format")]) from None
    except ValueError:  # Python's own limit on the digits of a whole number (4,300) stopped the parser
        m = re.search(r"\d{%d,}" % (MAX_INTEGER_DIGITS + 1), text)
        line = text.count("\n", 0, m.start()) + 1 if m else 0
        raise DefinitionError([Problem(name, line, "value", "a whole number of thousands of digits",
                                       f"at most {MAX_INTEGER_DIGITS} digits")]) from None
    deepest = max(lines, key=len, default=())
    if len(deepest) > MAX_DEPTH:
        raise DefinitionError([Problem(name, lines[deepest], "syntax", f"keys nested {len(deepest)} levels deep",
                                       f"at most {MAX_DEPTH} levels, e.g. [print.marker] width")])
    return Document(name, data, lines)


def resolve(name_or_path: str | Path, relative_to: Path | None = None) -> Path:
    """The file a user means by a game id, a variant name or a path.

    :raises BoardlabError: when nothing of that name exists.
    """
    text = str(name_or_path)
    candidates = []
    if relative_to is not None:
        candidates.append(relative_to / text)
    candidates.append(Path(text))
    if "/" not in text and not text.endswith(".toml"):
        if text in game_ids():
            candidates.append(game_entry(text).definition_path())
        candidates += [LAYOUTS / f"{text}.toml", VARIANTS / f"{text}.toml"]
    elif "/" not in text:
        candidates += [LAYOUTS / text, VARIANTS / text]
    files = [candidate for candidate in candidates if _is(candidate, Path.is_file)]
    for candidate in files:
        if candidate.suffix.lower() == ".toml":
            return candidate
    if files:  # a card list, a PDF: never parsed as TOML
        raise BoardlabError(f"{text}: not a definition file (a .toml file; a card list is checked through the "
                            "definition that names it)")
    if any(_is(candidate, Path.is_dir) for candidate in candidates):
        raise BoardlabError(f"{text}: is a folder, not a definition file (give a .toml file)")
    if any(_is(candidate, Path.exists) for candidate in candidates):
        raise BoardlabError(f"{text}: not a regular file (give a .toml file)")
    if text.endswith(".toml") or "/" in text:
        raise BoardlabError(f"{text}: no such file")
    raise BoardlabError(f"{text}: no such game or variant (games: {', '.join(game_ids())};"
                        f" variants: see `boardlab list`)")


def _is(path: Path, test: Callable[[Path], bool]) -> bool:
    """`test(path)`, False when the system refuses the name (too long, a NUL character)."""
    try:
        return test(path)
    except (OSError, ValueError):
        return False


def _merge(base: dict, top: dict) -> dict:
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _origins(doc: Document) -> dict[tuple, tuple[str, int]]:
    return {path: (doc.file, line) for path, line in doc.lines.items()}


def _flatten(path: Path, seen: tuple[Path, ...] = ()) -> tuple[str | None, dict, dict, Document]:
    """(game id, merged data, key origins, top document) of a definition or variant chain."""
    doc = read_document(path)
    parent = doc.data.get("extends")
    if parent is None:
        game_id = doc.data.get("game", {}).get("id") if isinstance(doc.data.get("game"), dict) else None
        return game_id, doc.data, _origins(doc), doc
    line = doc.lines.get(("extends",), 1)
    if not isinstance(parent, str):
        raise DefinitionError([Problem(doc.file, line, "extends", "must be a text in quotes", "a game id or a file")])
    try:
        parent_path = resolve(parent, relative_to=path.parent)
    except BoardlabError:
        if parent.endswith(".toml") or "/" in parent:
            message = f'no such file "{parent}" (looked beside {doc.file} and in the working folder)'
        else:
            message = f'no game or variant named "{parent}"'
        raise DefinitionError([Problem(doc.file, line, "extends", message,
                                       ", ".join(game_ids()) + ", a variant name or a path to a definition")]) from None
    if len(seen) + 1 >= MAX_EXTENDS_DEPTH:
        raise DefinitionError([Problem(doc.file, line, "extends", f"a chain of more than {MAX_EXTENDS_DEPTH} files",
                                       f"at most {MAX_EXTENDS_DEPTH} definitions and variants, each extending the next")])
    if parent_path.resolve() in seen or parent_path.resolve() == path.resolve():
        raise DefinitionError([Problem(doc.file, line, "extends", "variants extend each other in a circle",
                                       "extend the game definition")])
    game_id, data, origins, _ = _flatten(parent_path, seen + (path.resolve(),))
    top = {k: v for k, v in doc.data.items() if k != "extends"}
    mine_id = top.get("game", {}).get("id", game_id) if isinstance(top.get("game"), dict) else game_id
    if mine_id != game_id:
        raise DefinitionError([Problem(doc.file, doc.lines.get(("game", "id"), line), "game.id",
                                       f"a variant cannot change the game it is a variant of ({game_id})",
                                       "leave game.id out; a new game is a definition of its own")])
    merged = _merge(data, top)
    mine = _origins(doc)
    for key_path, where in mine.items():
        if key_path == ("extends",):
            continue
        if key_path in origins and isinstance(_get(merged, key_path), dict):
            continue  # a table the variant reopens: its keys keep their own origins
        for other in [p for p in origins if p[:len(key_path)] == key_path and p != key_path]:
            del origins[other]
        origins[key_path] = where
    return game_id, merged, origins, doc


def _get(data: Any, path: Iterable[str | int]) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


@functools.cache
def print_conventions() -> PrintConventions:
    """layouts/print.toml, loaded once."""
    return load_conventions(LAYOUTS / "print.toml")


def is_conventions_file(path: Path) -> bool:
    """True for a print conventions file (layouts/print.toml or a copy): paper sizes, no [game]."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return False  # read_document says why
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, RecursionError, ValueError):  # ValueError: also TOMLDecodeError
        return False
    return "papers" in data and "game" not in data and "extends" not in data


def load_conventions(path: Path) -> PrintConventions:
    """A validated print conventions file.

    :raises DefinitionError: listing every problem found.
    """
    doc = read_document(path)
    checker = Checker(Source(doc.file, doc.lines))
    conventions = checker.build(PrintConventions, doc.data, ())
    if checker.problems:
        raise DefinitionError(checker.problems)
    return conventions


def load(name_or_path: str | Path) -> Any:
    """The validated definition of a game id, variant name or definition file.

    :raises DefinitionError: listing every problem found, one `FILE:LINE: KEY: ...` each.
    :raises BoardlabError: when the name resolves to no file.
    """
    path = resolve(name_or_path)
    game_id, data, origins, doc = _flatten(path)
    return _build(path, game_id, data, origins, doc)


def load_with(name_or_path: str | Path, changes: Mapping[tuple[str, ...], Any], cross_checks: bool = True) -> Any:
    """The definition of `name_or_path` with the keys of `changes` (key path -> value) set, as a
    variant file that extends it and writes only those keys would load - without writing one.

    Every value goes through the schema (types, limits) and, with `cross_checks`, through the
    game's own `check()` and the shared checks, as a file's would.  The variant's name is the
    base's followed by the changes, e.g. "baseline with rules.chips = 30", so that the results
    store tells the points of a sweep apart and finds them again.

    >>> load_with("sixbysix", {("rules", "chips"): 30}).rules.chips
    30
    >>> load_with("sixbysix", {("rules", "chips"): 30}).variant
    'baseline with rules.chips = 30'

    :raises DefinitionError: listing every problem found (a changed key's problem names the
        file of the definition changed, with "with the changes KEY = VALUE").
    """
    path = resolve(name_or_path)
    game_id, data, origins, doc = _flatten(path)
    data = copy.deepcopy(data)
    for key, value in changes.items():
        table = data
        for part in key[:-1]:
            table = table.setdefault(part, {}) if isinstance(table, dict) else table
        if isinstance(table, dict):
            table[key[-1]] = value
    said = ", ".join(f"{'.'.join(key)} = {_toml_text(value)}" for key, value in changes.items())
    try:
        definition = _build(path, game_id, data, origins, doc, cross_checks)
    except DefinitionError as err:
        raise DefinitionError([dataclasses.replace(p, message=f"{p.message}, with the changes {said}")
                               for p in err.problems]) from None
    return dataclasses.replace(definition, variant=f"{definition.variant} with {said}")


def _toml_text(value: Any) -> str:
    """A value as a definition file writes it: true/false, numbers, texts bare."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _build(path: Path, game_id: str | None, data: dict, origins: dict, doc: Document, cross_checks: bool = True) -> Any:
    """The checked definition of flattened data (see `load`)."""
    if game_id not in game_ids():
        line = doc.lines.get(("game", "id"), doc.lines.get(("game",), 1))
        where = origins.get(("game", "id"), (doc.file, line))
        raise DefinitionError([Problem(where[0], where[1], "game.id",
                                       f'unknown game "{game_id}"' if game_id else "missing",
                                       ", ".join(game_ids()))])
    module = game_part(game_id, "definition")
    data, origins, outside = read_card_lists(data, origins)
    data, origins = read_layout_file(data, origins, game_id, display_path)
    data = read_icon_files(data, origins, display_path)
    checker = Checker(Source(doc.file, doc.lines, origins))
    definition = checker.build(module.Definition, data, ())
    if definition is not None and cross_checks:
        check_colour_palette(definition.colours, checker.report)
        check_print(definition.print, definition.colours, print_conventions(), checker.report)
        check_layout(definition, checker.report)
        check_icons(definition, checker.report)
        module.check(definition, checker.report)
    images: dict = FrozenDict()
    if definition is not None and cross_checks and not checker.problems:
        from boardlab.layouts.art import image_keys, place_images

        if image_keys(definition):  # the image files are read only for a definition naming some
            images, found = place_images(definition, checker.source.locate, lambda section: origins.get((section, "card_list")))
            checker.problems += found
    checker.problems = [unquoted(p) if p.file in outside else p for p in checker.problems]
    if checker.problems:
        if "extends" in doc.data:  # a problem found in the base file arises from this variant's changes
            checker.problems = [p if p.file == doc.file else
                                dataclasses.replace(p, message=f"{p.message}, with the changes of {doc.file}")
                                for p in checker.problems]
        raise DefinitionError(checker.problems)
    variant = "baseline" if "extends" not in doc.data else path.stem
    return dataclasses.replace(definition, variant=variant, source=doc.file, images=images)


#: the columns a card list file may have (`card_list`); each row one kind of card
CARD_LIST_COLUMNS = ("kind", "ends", "colour", "value", "count", "text", "image")
#: the first characters that make a spreadsheet read a cell as a formula (and run it: =HYPERLINK(...))
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: Any) -> Any:
    """A card list cell as written: a text a spreadsheet would run as a formula gets the usual
    leading quote, which shows it as text; numbers and other texts as they are.  `read_cell`
    takes the quote off again.

    >>> print(spreadsheet_cell('=HYPERLINK("http://x")'), spreadsheet_cell(-2), spreadsheet_cell("red"))
    '=HYPERLINK("http://x") -2 red
    >>> read_cell(spreadsheet_cell("@sum")), read_cell(spreadsheet_cell("'quoted")), read_cell("-3")
    ('@sum', "'quoted", -3)
    """
    if isinstance(value, str) and (value.startswith(FORMULA_STARTS) or value.startswith("'")):
        return "'" + value  # a text starting with a quote is quoted too, so that reading back is exact
    return value


def read_cell(cell: str) -> int | str:
    """A card list cell's value: a whole number, a text with a leading quote taken off
    (`spreadsheet_cell`), any other text as it is."""
    if re.fullmatch(r"-?\d+", cell):
        return int(cell)
    return cell[1:] if cell.startswith("'") else cell


def unquoted(problem: Problem) -> Problem:
    """A problem of a file outside the definition's folder, with no word of the file's content
    (the key, the line and what the key allows stay).

    >>> str(unquoted(Problem("/etc/passwd", 1, "cards.cards[0].kind", "unknown kind 'root:x:0:0'", "start, number")))
    "/etc/passwd:1: cards.cards[0].kind: a value this key does not take (not shown: the file lies outside the definition's folder) (start, number)"
    """
    return dataclasses.replace(problem, message="a value this key does not take (not shown: the file lies outside "
                                                "the definition's folder)")


def _card_list_text(path: Path, name: str, named_in: str, line: int, key: str) -> str:
    """The text of a card list file: a regular file of at most `MAX_CARD_LIST_BYTES`, UTF-8 (a byte
    order mark allowed), no control character but tab and line ends.

    :raises DefinitionError: one problem, at the line naming the file or at the file's own line.
    """
    try:
        text = read_bounded(path, MAX_CARD_LIST_BYTES, shown=name, encoding="utf-8-sig")
    except UnreadableFile as err:
        if err.line is not None:  # not text: at the file's own line
            raise DefinitionError([Problem(name, err.line, key, "not UTF-8 text", "a UTF-8 CSV file")]) from None
        raise DefinitionError([Problem(named_in, line, key, str(err),
                                       f"a UTF-8 CSV file beside the definition, at most {MAX_CARD_LIST_BYTES:,} "
                                       "bytes")]) from None
    for number, row in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        bad = control_character(row, allow_newlines=True)
        if bad:
            raise DefinitionError([Problem(name, number, key, f"holds the control character {bad}",
                                           "printable text, cells separated by commas")])
    return text


def read_card_lists(data: dict, origins: dict) -> tuple[dict, dict, set[str]]:
    """`data` with every section's `card_list = "FILE.csv"` read into that section's `cards`
    (one table per row, as `[[SECTION.cards]]` would write it), `origins` pointing each
    row's keys at FILE:LINE, so that a bad row is reported where it is written, and the shown
    names of the card lists that lie outside the folder of the definition naming them (whose
    problems must not quote them: `unquoted`).

    A card list is a CSV file (as nanDECK and Squib read them): a header naming some of
    `CARD_LIST_COLUMNS`, then one row per kind of card; blank rows and rows starting with "#"
    are skipped; whole numbers are numbers, anything else text. The path is taken relative to
    the definition file that names it.

    A file is read only when it is a regular file of at most `MAX_CARD_LIST_BYTES`, with at most
    `MAX_CARD_LIST_ROWS` rows and no control character; a number has at most
    `MAX_INTEGER_DIGITS` digits; a list without a card row is refused.

    :raises DefinitionError: when the file cannot be read, its header is not one of columns, or it
        breaks one of those bounds.
    """
    import csv
    import io

    out, origins, outside = dict(data), dict(origins), set()
    for section, table in data.items():
        if not isinstance(table, dict) or not isinstance(table.get("card_list"), str) or not table["card_list"]:
            continue
        named_in, line = origins.get((section, "card_list"), ("?", 0))
        key = f"{section}.card_list"
        if "cards" in table:
            raise DefinitionError([Problem(named_in, line, key, f"both {section}.cards and {section}.card_list",
                                           "one card list: the rows in the definition, or the CSV file")])
        path = Path(named_in).parent / table["card_list"]
        name = display_path(path)
        if not path.resolve().is_relative_to(Path(named_in).parent.resolve()):
            outside.add(name)
        text = _card_list_text(path, name, named_in, line, key)
        reader = csv.reader(io.StringIO(text))
        rows: list[dict[str, int | str]] = []
        header = None
        try:
            for cells in reader:
                number = reader.line_num
                if not any(c.strip() for c in cells) or cells[0].strip().startswith("#"):
                    continue
                if header is None:
                    header = [c.strip().lower() for c in cells]
                    unknown = [c for c in header if c not in CARD_LIST_COLUMNS]
                    if unknown or "kind" not in header or len(set(header)) != len(header):
                        said = "its first line" if name in outside else f"the header {','.join(header)}"
                        raise DefinitionError([Problem(name, number, key, f"{said} is not a card list's header",
                                                       "a header of " + ", ".join(CARD_LIST_COLUMNS) +
                                                       " (kind required)")])
                    continue
                if len(rows) == MAX_CARD_LIST_ROWS:
                    raise DefinitionError([Problem(name, number, key, f"more than {MAX_CARD_LIST_ROWS:,} rows",
                                                   "one row per kind of card, its count in the count column")])
                if len(cells) > len(header):
                    raise DefinitionError([Problem(name, number, key, f"{len(cells)} cells for {len(header)} columns",
                                                   ",".join(header))])
                index = len(rows)
                row: dict[str, int | str] = {}
                for column, cell in zip(header, cells):
                    cell = cell.strip()
                    if cell:
                        if re.fullmatch(r"-?\d+", cell) and len(cell.lstrip("-")) > MAX_INTEGER_DIGITS:
                            raise DefinitionError([Problem(name, number, f"{section}.cards[{index}].{column}",
                                                           f"a whole number of {len(cell.lstrip('-')):,} digits",
                                                           f"at most {MAX_INTEGER_DIGITS} digits")])
                        row[column] = read_cell(cell)
                        origins[(section, "cards", index, column)] = (name, number)
                origins[(section, "cards", index)] = (name, number)
                rows.append(row)
        except csv.Error as err:
            raise DefinitionError([Problem(name, reader.line_num, key, f"not a CSV file: {err}", "comma-separated rows")]) from None
        if not rows:  # an empty deck is no deck: said here, not found later as a game that cannot be dealt
            raise DefinitionError([Problem(name, max(reader.line_num, 1), key,
                                           "a header and no card row" if header else "no header and no card row",
                                           "a header of columns, then one row per kind of card")])
        origins[(section, "cards")] = (name, 1)
        out[section] = {**table, "cards": rows}
    return out, origins, outside


def definition_files(name_or_path: str | Path) -> list[Path]:
    """The files a definition is read from: itself, every file it extends, and the card lists
    they name; as far as they can be read (a broken file is listed, what it would name is not).

    >>> [p.name for p in definition_files("blockd-pawns-block")]
    ['blockd-pawns-block.toml', 'blockd.toml']
    """
    try:
        path = resolve(name_or_path)
    except BoardlabError:
        return [Path(name_or_path)] if Path(name_or_path).suffix == ".toml" else []
    files: list[Path] = []
    at: Path | None = path
    while at is not None and at.resolve() not in [f.resolve() for f in files]:
        files.append(at)
        try:
            data = tomllib.loads(at.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, RecursionError, tomllib.TOMLDecodeError):
            break
        files += [at.parent / table["card_list"] for table in data.values()
                  if isinstance(table, dict) and isinstance(table.get("card_list"), str) and table["card_list"]]
        parent = data.get("extends")
        try:
            at = resolve(parent, relative_to=at.parent) if isinstance(parent, str) else None
        except BoardlabError:
            at = None
    return files


def card_list_csv(rows: Sequence[Any]) -> str:
    """Card-list rows (a game's `CardRow`s) as the CSV file `read_card_lists` reads: the header
    names the row type's columns (in `CARD_LIST_COLUMNS` order), a cell left empty where a row
    keeps its default, the count always written.

    >>> from boardlab.layouts.blockd import CardRow
    >>> print(card_list_csv([CardRow("start", 1, "red"), CardRow("number", 2, "red", 3)]), end="")
    kind,colour,value,count
    start,red,,1
    number,red,3,2
    """
    import csv
    import io

    if not rows:
        return ""
    fields = {f.name: f for f in dataclasses.fields(rows[0])}
    # a column of how the cards look (`image`) is written only when a row fills it
    columns = [c for c in CARD_LIST_COLUMNS if c in fields
               and (not fields[c].metadata.get("appearance") or any(getattr(row, c) != fields[c].default for row in rows))]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if c != "count" and getattr(row, c) == fields[c].default else spreadsheet_cell(getattr(row, c))
                         for c in columns])
    return out.getvalue()


def locate(name_or_path: str | Path, key: tuple) -> tuple[str, int]:
    """(file, line) where a definition or variant chain sets `key` (or its nearest written parent).

    >>> locate("blockd-pawns-block", ("rules", "pawns"))
    ('layouts/variants/blockd-pawns-block.toml', 5)
    """
    path = resolve(name_or_path)
    _, _, origins, doc = _flatten(path)
    if key in doc.lines:  # written in this file: a variant that reopens a table is pointed at
        return doc.file, doc.lines[key]
    return Source(doc.file, doc.lines, origins).locate(key)


def variants_of(game_id: str) -> list[str]:
    """Names of the variant files in layouts/variants/ whose chain leads to `game_id`."""
    out = []
    for path in sorted(VARIANTS.glob("*.toml")):
        try:
            found, _, _, _ = _flatten(path)
        except BoardlabError:
            continue
        if found == game_id:
            out.append(path.stem)
    return out
