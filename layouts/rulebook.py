"""Rulebook texts: one hand-editable file per game and language, with placeholders for facts.

A game's rules, in the project's own words, live in `layouts/rulebooks/GAME.LANG.md`
(`GAME.en.md` is the project's rules reference).  The text never states a fact the definition
holds: it names it, `{cards.values|count}`, so a changed definition changes the rulebook.
The markup (documented for designers in the README, "Rulebooks") is:

- `# Heading {#id}` and `## Subheading {#id}`: every heading has an id, the same in every language;
- paragraphs separated by blank lines; `- ` bullets and `1. ` numbered items; `**bold**`, `*italic*`;
  a backslash keeps the next character as it is (`\\*`); `<!-- ... -->` on one line is a comment;
- `{path}` a fact: a key of the definition (`rules.max_turns`, `deck.masters.0.name`), a derived
  property (`card_count`, `deck.size`) or `players` ("2–4"), with filters after `|`:
  `count min max sum first last each:KEY plus:N minus:N noun:ONE:MANY id lower keys where:KEY:VALUE
  pairs cap setting` (`id`: the value as written, for drawing names; `cap`: a capital first
  letter); a list reads "1, 2 and 3" in the text's language; a colour id reads as its label;
- `::: when CONDITION` ... [`::: else` ...] `::: end`: text for one reading of an option
  (`rules.pawns = pass`, `rules.pawns != pass`, `rules.blocks >= 2`, `rules.torus`, `not rules.torus`);
- `::: option KEY = VALUE` ... `::: end`: an optional rule, printed only when the definition
  does not already use VALUE; every value of every choice in `[rules]` needs one;
- `::: components` (lines `- [DRAWING] text`, DRAWING a printkit component name or `-`),
  `::: quickref` (one page), `::: cover`, `::: appendix` (its heading and text, followed by the
  game's exact tables; left out for a game without tables): containers closed by `::: end`;
- `::: setup`, `::: pagebreak`: the drawn setup example, a new page;
- `::: terms` ... `::: end`: lines `word = translation` naming values (colours, table headings) in
  this language; `{n}` in a term stands for any number (`Sum of {n} dice = Suma de {n} dados`).

Nothing here draws: printkit.rulebook turns a `Book` into a PDF.

>>> from boardlab.layouts import load
>>> book = build_book(load("blockd"), "en")
>>> book.language, book.blocks[0].kind
('en', 'cover')
>>> check_rulebook(load("blockd"))
[]
"""

from __future__ import annotations

import dataclasses
import re
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from boardlab.layouts.errors import BoardlabError, DefinitionError, Problem

RULEBOOKS = Path(__file__).resolve().parent / "rulebooks"

#: containers closed by `::: end`, and directives that stand alone
CONTAINERS = ("when", "option", "components", "quickref", "cover", "appendix", "terms")
LEAVES = ("setup", "pagebreak")

#: words between list items and before the last one, per language
LIST_AND = {"en": " and ", "es": " y "}
DECIMAL_POINT = {"en": ".", "es": ","}

HEADING = re.compile(r"^(#{1,2})\s+(.*?)\s*\{#([a-z0-9-]+)\}\s*$")
DIRECTIVE = re.compile(r"^:::\s*([a-z]+)\s*(.*?)\s*$")
ITEM = re.compile(r"^(-|\d+\.)\s+(.*)$")
PLACEHOLDER = re.compile(r"(?<!\\)\{([^{}]*)\}")
CONDITION = re.compile(r"^(not\s+)?([a-z_][a-z0-9_.]*)\s*(?:(=|!=|>=|<=)\s*(\S+))?$")


@dataclass
class Block:
    """One piece of a rulebook text: heading, paragraph, item or directive (with its children)."""

    kind: str  # "heading", "paragraph", "bullet", "number", or a directive name
    text: str = ""
    line: int = 0
    level: int = 0  # heading level
    id: str = ""  # heading id
    arg: str = ""  # a directive's argument
    children: list["Block"] = field(default_factory=list)
    other: list["Block"] = field(default_factory=list)  # the `::: else` part of a `when`


@dataclass
class Text:
    """A parsed rulebook file: its blocks and its terms."""

    file: str
    language: str
    blocks: list[Block]
    terms: dict[str, str]
    problems: list[Problem]


@dataclass
class Book:
    """A rulebook resolved against one definition: placeholders filled, conditions decided."""

    definition: Any
    language: str
    file: str
    blocks: list[Block]
    terms: dict[str, str]

    def term(self, word: str) -> str:
        """`word` in the book's language (terms first, `{n}` patterns next, else unchanged).

        >>> Book(None, "es", "", [], {"red": "rojo", "Sum of {n} dice": "Suma de {n} dados"}).term("Sum of 3 dice")
        'Suma de 3 dados'
        """
        return translate(word, self.terms)


def translate(word: str, terms: dict[str, str]) -> str:
    if word in terms:
        return terms[word]
    for source, target in terms.items():
        if "{n}" in source:
            pattern = "^" + re.escape(source).replace(r"\{n\}", r"(-?\d+(?:[.,]\d+)?)") + "$"
            m = re.match(pattern, word)
            if m:
                numbers = iter(m.groups())
                return re.sub(r"\{n\}", lambda _: next(numbers), target)
    return word


def text_path(game_id: str, language: str) -> Path:
    return RULEBOOKS / f"{game_id}.{language}.md"


def display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


# -- parsing -------------------------------------------------------------------------------------

def parse(source: str, file: str, language: str) -> Text:
    """The blocks of one rulebook text; mistakes of the markup are collected as problems.

    >>> t = parse("# Goal {#goal}\\nWin.\\n::: when rules.torus\\nWrap.\\n::: end\\n", "x.md", "en")
    >>> [b.kind for b in t.blocks], t.blocks[2].children[0].text, t.problems
    (['heading', 'paragraph', 'when'], 'Wrap.', [])
    """
    problems: list[Problem] = []
    root: list[Block] = []
    stack: list[tuple[Block, list[Block]]] = []  # open directives and the list new blocks go to
    terms: dict[str, str] = {}
    paragraph: list[str] = []
    paragraph_line = 0

    def target() -> list[Block]:
        return stack[-1][1] if stack else root

    def flush() -> None:
        nonlocal paragraph
        if paragraph:
            target().append(Block("paragraph", " ".join(paragraph), paragraph_line))
            paragraph = []

    for number, raw in enumerate(source.splitlines(), start=1):
        line = raw.rstrip()
        stripped = line.strip()
        if stripped.startswith("<!--") and stripped.endswith("-->"):
            continue
        if stack and stack[-1][0].kind == "terms" and not stripped.startswith(":::"):
            if stripped:
                word, sep, translation = stripped.partition(" = ")
                if not sep or not word.strip() or not translation.strip():
                    problems.append(Problem(file, number, "terms", "a term is `word = translation` (spaces round =)"))
                else:
                    terms[word.strip()] = translation.strip()
            continue
        if not stripped:
            flush()
            continue
        m = DIRECTIVE.match(stripped)
        if m:
            flush()
            name, arg = m.groups()
            if name == "end":
                if not stack:
                    problems.append(Problem(file, number, "::: end", "nothing to close"))
                else:
                    stack.pop()
            elif name == "else":
                if not stack or stack[-1][0].kind != "when" or stack[-1][1] is stack[-1][0].other:
                    problems.append(Problem(file, number, "::: else", "only inside a `::: when`, once"))
                else:
                    stack[-1] = (stack[-1][0], stack[-1][0].other)
            elif name in CONTAINERS:
                block = Block(name, line=number, arg=arg)
                if name in ("when", "option") and not arg:
                    problems.append(Problem(file, number, f"::: {name}", "needs a condition", "e.g. rules.torus = true"))
                target().append(block)
                stack.append((block, block.children))
            elif name in LEAVES:
                target().append(Block(name, line=number, arg=arg))
            else:
                problems.append(Problem(file, number, f"::: {name}", "unknown directive",
                                        ", ".join(CONTAINERS + LEAVES + ("else", "end"))))
            continue
        if line.startswith("#"):
            flush()
            h = HEADING.match(stripped)
            if not h:
                problems.append(Problem(file, number, "heading", "a heading needs an id",
                                        "# Title {#id}, id in a-z, 0-9 and -"))
                continue
            target().append(Block("heading", h.group(2), number, level=len(h.group(1)), id=h.group(3)))
            continue
        item = ITEM.match(stripped)
        if item:
            flush()
            kind = "bullet" if item.group(1) == "-" else "number"
            target().append(Block(kind, item.group(2), number))
            continue
        if raw[:1] == " " and not paragraph and target() and target()[-1].kind in ("bullet", "number"):
            target()[-1].text += " " + stripped  # an item's continuation line
            continue
        if not paragraph:
            paragraph_line = number
        paragraph.append(stripped)
    flush()
    for block, _ in stack:
        problems.append(Problem(file, block.line, f"::: {block.kind}", "not closed", "close it with ::: end"))
    return Text(file, language, root, terms, problems)


def read_text(game_id: str, language: str) -> Text:
    """The parsed text of a game in a language.

    :raises BoardlabError: when the file does not exist or is not UTF-8.
    """
    path = text_path(game_id, language)
    try:
        source = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BoardlabError(f"{display(path)}: no rulebook text for {game_id} in '{language}'") from None
    except UnicodeDecodeError:
        raise BoardlabError(f"{display(path)}: not UTF-8 text") from None
    return parse(source, display(path), language)


# -- facts -----------------------------------------------------------------------------------------

class UnknownKey(Exception):
    """A placeholder or condition names something the definition does not hold."""


def _step(obj: Any, part: str) -> Any:
    if isinstance(obj, dict):
        if part in obj:
            return obj[part]
        if part.isdigit() and int(part) in obj:
            return obj[int(part)]
        raise UnknownKey(part)
    if isinstance(obj, (tuple, list)):
        if part.isdigit() and int(part) < len(obj):
            return obj[int(part)]
        raise UnknownKey(part)
    if dataclasses.is_dataclass(obj):
        names = {f.name for f in dataclasses.fields(obj)}
        if part in names or isinstance(getattr(type(obj), part, None), property):
            return getattr(obj, part)
    raise UnknownKey(part)


def fact(definition, path: str) -> Any:
    """The value a dotted path names in the definition (or `players`, the player range).

    >>> from boardlab.layouts import load
    >>> fact(load("links"), "deck.masters.1.name"), fact(load("blockd"), "players")
    ('TWO', '2–4')

    :raises UnknownKey: when the definition holds no such key.
    """
    if path == "players":
        low, high = definition.game.min_players, definition.game.max_players
        return str(low) if low == high else f"{low}–{high}"
    obj = definition
    for part in path.split("."):
        obj = _step(obj, part)
    return obj


def field_type(definition, path: str) -> Any:
    """The schema type of a dotted path's last key, or None when it is not a dataclass field."""
    parts = path.split(".")
    owner = fact(definition, ".".join(parts[:-1])) if len(parts) > 1 else definition
    if not dataclasses.is_dataclass(owner):
        return None
    return typing.get_type_hints(type(owner)).get(parts[-1])


def choices(definition, path: str) -> tuple | None:
    """The values a choice key may take (Literal or bool), else None.

    >>> from boardlab.layouts import load
    >>> choices(load("blockd"), "rules.pawns")
    ('pass', 'block', 'stack')
    """
    tp = field_type(definition, path)
    if tp is bool:
        return (True, False)
    if typing.get_origin(tp) is Literal:
        return typing.get_args(tp)
    return None


def format_value(value: Any, book_language: str, definition, terms: dict[str, str]) -> str:
    """A fact as text: numbers, lists joined in the language, colour ids as their labels."""
    if isinstance(value, bool):
        return translate("yes" if value else "no", terms)
    if isinstance(value, float):
        text = f"{value:g}"
        return text.replace(".", DECIMAL_POINT.get(book_language, "."))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        colours = getattr(definition, "colours", {})
        if value in colours:
            return translate(colours[value].label, terms)
        return translate(value, terms)
    if isinstance(value, (tuple, list)):
        parts = [format_value(v, book_language, definition, terms) for v in value]
        if len(parts) <= 1:
            return "".join(parts)
        return ", ".join(parts[:-1]) + LIST_AND.get(book_language, " and ") + parts[-1]
    if isinstance(value, Pairs):
        return "; ".join(f"{format_value(k, book_language, definition, terms)}: "
                         f"{format_value(v, book_language, definition, terms)}" for k, v in value.items())
    if isinstance(value, dict):
        return format_value(tuple(value.values()), book_language, definition, terms)
    raise UnknownKey("not a fact")


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UnknownKey("not a number")
    return value


def apply_filter(value: Any, spec: str, path: str, definition, language: str, terms) -> Any:
    name, _, rest = spec.partition(":")
    args = rest.split(":") if rest else []
    if name == "count":
        return len(value)
    if name in ("min", "max", "sum"):
        return {"min": min, "max": max, "sum": sum}[name](_number(v) for v in value)
    if name in ("first", "last"):
        return value[0] if name == "first" else value[-1]
    if name == "each" and len(args) == 1:
        return tuple(_step(v, args[0]) for v in value)
    if name in ("plus", "minus") and len(args) == 1 and args[0].isdigit():
        return _number(value) + int(args[0]) * (1 if name == "plus" else -1)
    if name == "noun" and len(args) == 2:
        count = _number(value)
        return f"{format_value(count, language, definition, terms)} {args[0] if count == 1 else args[1]}"
    if name == "id":
        return Raw(value)
    if name == "lower":
        return Raw(str(value).lower())
    if name == "cap":
        return Capital(value)
    if name == "keys":
        return tuple(value)
    if name == "where" and len(args) == 2:
        return tuple(k for k, v in value.items() if str(_step(v, args[0])) == args[1])
    if name == "pairs":
        return Pairs(value)
    if name == "setting":
        key = path.split(".")[-1]
        shown = f'"{value}"' if isinstance(value, str) else str(value).lower()
        return Setting(f"{key} = {shown}")
    raise UnknownKey(f"filter {spec}")


class Raw(str):
    """A value printed as the definition writes it (an id inside a drawing name), not as a word."""


class Capital(str):
    """A word that opens a sentence: printed with a capital letter."""


class Pairs(dict):
    """A table of the definition read as `key: value` pairs, e.g. players: cards removed."""


class Setting(str):
    """A definition key and its value as written in the TOML (printed apart from prose)."""


FILTERS = ("count, min, max, sum, first, last, each:KEY, plus:N, minus:N, noun:ONE:MANY, id, lower, keys, "
           "where:KEY:VALUE, pairs, cap, setting")


def render_placeholder(expression: str, definition, language: str, terms) -> str:
    """The text of one `{path|filter|...}` placeholder.

    >>> from boardlab.layouts import load
    >>> d = load("blockd")
    >>> render_placeholder("cards.values", d, "es", {}), render_placeholder("cards.values|count|plus:1", d, "en", {})
    ('1, 2, 3, 4 y 5', '6')

    :raises UnknownKey: for a key the definition lacks or a filter that does not apply.
    """
    path, *filters = [part.strip() for part in expression.split("|")]
    value = fact(definition, path)
    try:
        for spec in filters:
            value = apply_filter(value, spec, path, definition, language, terms)
    except (TypeError, ValueError, IndexError):
        raise UnknownKey(f"filter {'|'.join(filters)}") from None
    if isinstance(value, Setting):
        return "`" + value + "`"
    if isinstance(value, Raw):
        return escape(str(value))
    if isinstance(value, Capital):
        text = format_value(str(value), language, definition, terms)
        return escape(text[:1].upper() + text[1:])
    return escape(format_value(value, language, definition, terms))


def escape(text: str) -> str:
    """A fact's text made safe from the inline markup (`*`, backquote, braces, backslash)."""
    return re.sub(r"([\\*`{}])", r"\\\1", text)


def fill(text: str, definition, language: str, terms) -> str:
    return PLACEHOLDER.sub(lambda m: render_placeholder(m.group(1), definition, language, terms), text)


def parse_value(word: str) -> Any:
    if word in ("true", "false"):
        return word == "true"
    if re.fullmatch(r"-?\d+", word):
        return int(word)
    return word.strip('"')


def condition_holds(condition: str, definition) -> bool:
    """Whether a `::: when` condition holds for the definition.

    >>> from boardlab.layouts import load
    >>> d = load("blockd")
    >>> condition_holds("rules.pawns = pass", d), condition_holds("not rules.torus", d), condition_holds("board.rows >= 6", d)
    (True, False, False)

    :raises UnknownKey: for a key the definition lacks or a malformed condition.
    """
    m = CONDITION.match(condition.strip())
    if not m:
        raise UnknownKey("malformed condition")
    negate, path, op, word = m.groups()
    value = fact(definition, path)
    if op is None:
        result = bool(value)
    else:
        wanted = parse_value(word)
        allowed = choices(definition, path)
        if allowed is not None and wanted not in allowed:
            raise UnknownKey(f"value {word}")
        if op in ("=", "!="):
            result = (value == wanted) == (op == "=")
        else:
            result = _number(value) >= _number(wanted) if op == ">=" else _number(value) <= _number(wanted)
    return not result if negate else result


def option_parts(arg: str) -> tuple[str, Any]:
    path, sep, word = arg.partition("=")
    if not sep:
        raise UnknownKey("an option is `KEY = VALUE`")
    return path.strip(), parse_value(word.strip())


def option_applies(arg: str, definition) -> bool:
    """True when an `::: option KEY = VALUE` block is an optional rule for this definition
    (the definition does not already use VALUE)."""
    path, wanted = option_parts(arg)
    allowed = choices(definition, path)
    if allowed is None or wanted not in allowed:
        raise UnknownKey(f"{path} = {wanted}")
    return fact(definition, path) != wanted


# -- resolving and checking -------------------------------------------------------------------------

def _resolve(blocks: list[Block], definition, language: str, terms, problems: list[Problem], file: str,
             keep: bool) -> list[Block]:
    """Blocks with placeholders filled and conditions decided; every branch is checked."""
    out = []
    for block in blocks:
        try:
            if block.kind == "when":
                holds = condition_holds(block.arg, definition)
            elif block.kind == "option":
                holds = option_applies(block.arg, definition)
            else:
                holds = True
        except UnknownKey as err:
            problems.append(Problem(file, block.line, block.arg or block.kind, f"unknown key or value ({err})",
                                    "a key of the definition and one of its values"))
            holds = False
        children = _resolve(block.children, definition, language, terms, problems, file, keep and holds)
        other = _resolve(block.other, definition, language, terms, problems, file, keep and not holds)
        try:
            text = fill(block.text, definition, language, terms)
        except UnknownKey as err:
            bad = next((m.group(1) for m in PLACEHOLDER.finditer(block.text)
                        if not _fills(m.group(1), definition, language, terms)), str(err))
            problems.append(Problem(file, block.line, "{" + bad + "}", "unknown placeholder",
                                    f"a key of the definition, with filters {FILTERS}"))
            text = block.text
        if not keep:
            continue
        if block.kind == "when":
            out.extend(children if holds else other)
        elif block.kind == "option":
            if holds:
                out.append(dataclasses.replace(block, children=children))
        else:
            out.append(dataclasses.replace(block, text=text, children=children, other=[]))
    return out


def _fills(expression: str, definition, language: str, terms) -> bool:
    try:
        render_placeholder(expression, definition, language, terms)
        return True
    except UnknownKey:
        return False


def _options_written(blocks: list[Block]) -> list[tuple[str, Any, int]]:
    out = []
    for block in blocks:
        if block.kind == "option":
            try:
                path, value = option_parts(block.arg)
                out.append((path, value, block.line))
            except UnknownKey:
                pass
        out += _options_written(block.children) + _options_written(block.other)
    return out


def rule_choices(definition) -> dict[str, tuple]:
    """Every choice in the definition's `[rules]`: `rules.KEY` -> its possible values."""
    found = {}
    for f in dataclasses.fields(definition.rules):
        values = choices(definition, f"rules.{f.name}")
        if values is not None:
            found[f"rules.{f.name}"] = values
    return found


def build_book(definition, language: str, check: bool = False) -> Book | list[Problem]:
    """The rulebook of a definition in a language.

    :raises DefinitionError: listing every problem of the text (unknown placeholders with
        FILE:LINE, markup mistakes, rule choices without an optional rule), unless `check`,
        in which case the problems are returned instead.
    :raises BoardlabError: when the text file is missing.
    """
    text = read_text(definition.game.id, language)
    problems = list(text.problems)
    blocks = _resolve(text.blocks, definition, language, text.terms, problems, text.file, keep=True)
    written = _options_written(text.blocks)
    for path, values in rule_choices(definition).items():
        missing = [v for v in values if (path, v) not in {(p, w) for p, w, _ in written}]
        for value in missing:
            shown = f'"{value}"' if isinstance(value, str) else str(value).lower()
            problems.append(Problem(text.file, written[-1][2] if written else 1, path,
                                    f"no optional rule for the value {shown}",
                                    f"add `::: option {path} = {str(value).lower() if isinstance(value, bool) else value}`"))
    if check:
        return problems
    if problems:
        raise DefinitionError(problems)
    return Book(definition, language, text.file, blocks, text.terms)


def check_rulebook(definition) -> list[Problem]:
    """Every problem of the definition's rulebook texts, one per language checked, FILE:LINE each."""
    problems: list[Problem] = []
    for language in definition.rulebook.languages:
        try:
            problems += build_book(definition, language, check=True)
        except BoardlabError as err:
            problems.append(Problem(display(text_path(definition.game.id, language)), 0, "rulebook", str(err)))
    return problems


def outline(text: Text) -> dict[str, list]:
    """What both languages of a game must share: heading ids, placeholders, conditions, directives.

    >>> t = parse("# A {#a}\\n{rules.torus} x\\n::: setup\\n", "x.md", "en")
    >>> outline(t)
    {'headings': ['a'], 'placeholders': ['rules.torus'], 'directives': ['setup']}
    """
    headings, placeholders, directives = [], [], []

    def walk(blocks: list[Block]) -> None:
        for block in blocks:
            if block.kind == "heading":
                headings.append(block.id)
            elif block.kind not in ("paragraph", "bullet", "number"):
                directives.append(f"{block.kind} {block.arg}".strip())
            # wording differs between languages: a noun's words, a capital letter
            placeholders.extend(re.sub(r"\|cap\b", "", re.sub(r"noun:[^|]*", "noun", m.group(1).replace(" ", "")))
                                for m in PLACEHOLDER.finditer(block.text))
            walk(block.children)
            walk(block.other)
    walk(text.blocks)
    return {"headings": headings, "placeholders": sorted(set(placeholders)), "directives": directives}
