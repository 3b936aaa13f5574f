"""The rulebook markup: reading `layouts/rulebooks/GAME.LANG.md` into blocks (see layouts.rulebook).

>>> t = parse("# Goal {#goal}\\nWin.\\n", "x.md", "en")
>>> [(b.kind, b.text) for b in t.blocks]
[('heading', 'Goal'), ('paragraph', 'Win.')]
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from boardlab.layouts.errors import BoardlabError, Problem
from boardlab.layouts.limits import MAX_MARKUP_CHARS, MAX_MARKUP_DEPTH, MAX_PAGE_BREAKS

RULEBOOKS = Path(__file__).resolve().parent / "rulebooks"

#: containers closed by `::: end`, and directives that stand alone
CONTAINERS = ("when", "option", "components", "quickref", "cover", "appendix", "terms")
LEAVES = ("setup", "example", "pagebreak")

HEADING = re.compile(r"^(#{1,2})\s+(.*?)\s*\{#([a-z0-9-]+)\}\s*$")
DIRECTIVE = re.compile(r"^:::\s*([a-z]+)\s*(.*?)\s*$")
ITEM = re.compile(r"^(-|\d+\.)\s+(.*)$")
PLACEHOLDER = re.compile(r"(?<!\\)\{([^{}]*)\}")
STRAY_BRACE = re.compile(r"(?<!\\)[{}]")


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


def text_path(game_id: str, language: str) -> Path:
    """Where a game's rulebook text is: layouts/rulebooks/, or beside the definition file of a
    game added by another package (its registry entry's `definition_file`)."""
    from boardlab.layouts.registry import game_entry, game_ids

    if game_id in game_ids() and game_entry(game_id).definition_file is not None:
        return game_entry(game_id).definition_path().parent / f"{game_id}.{language}.md"
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
    if len(source) > MAX_MARKUP_CHARS:
        return Text(file, language, [], {}, [Problem(file, 0, "file", f"{len(source):,} characters",
                                                     f"at most {MAX_MARKUP_CHARS:,} (a rulebook text is about 20,000)")])
    reader = _Reader(file, language)
    try:
        for number, raw in enumerate(source.splitlines(), start=1):
            reader.read(number, raw)
    except _TooDeep:  # stop reading: deeper blocks would only be more of this
        return reader.text()
    reader.flush()
    for block, _ in reader.stack:
        reader.problem(block.line, f"::: {block.kind}", "not closed", "close it with ::: end")
    return reader.text()


class _TooDeep(Exception):
    """Directives nested deeper than `MAX_MARKUP_DEPTH`: the text is read no further."""


class _Reader:
    """One `parse` under way: the blocks so far, the open directives, the paragraph being read.

    Each line is of one kind (`line_kind`), read by its handler (`LINE_KINDS`); a directive's
    line by the directive's handler (`DIRECTIVES`).  A new kind of line or directive is one
    handler and one entry in its table.
    """

    def __init__(self, file: str, language: str) -> None:
        self.file, self.language = file, language
        self.problems: list[Problem] = []
        self.root: list[Block] = []
        self.breaks = 0
        self.stack: list[tuple[Block, list[Block]]] = []  # open directives and the list new blocks go to
        self.terms: dict[str, str] = {}
        self.paragraph: list[str] = []
        self.paragraph_line = 0

    def text(self) -> Text:
        return Text(self.file, self.language, self.root, self.terms, self.problems)

    def problem(self, number: int, key: str, message: str, allowed: str = "") -> None:
        self.problems.append(Problem(self.file, number, key, message, allowed))

    def target(self) -> list[Block]:
        return self.stack[-1][1] if self.stack else self.root

    def flush(self) -> None:
        if self.paragraph:
            self.target().append(Block("paragraph", " ".join(self.paragraph), self.paragraph_line))
            self.paragraph = []

    def line_kind(self, raw: str, stripped: str) -> str:
        """The kind of a line, `LINE_KINDS`' key."""
        if stripped.startswith("<!--") and stripped.endswith("-->"):
            return "comment"
        if self.stack and self.stack[-1][0].kind == "terms" and not stripped.startswith(":::"):
            return "term"
        if not stripped:
            return "blank"
        if DIRECTIVE.match(stripped):
            return "directive"
        if raw.rstrip().startswith("#"):
            return "heading"
        if ITEM.match(stripped):
            return "item"
        if raw[:1] == " " and not self.paragraph and self.target() and self.target()[-1].kind in ("bullet", "number"):
            return "continuation"
        return "prose"

    def read(self, number: int, raw: str) -> None:
        stripped = raw.strip()
        kind = self.line_kind(raw, stripped)
        if kind in WORDED:
            stray = STRAY_BRACE.search(PLACEHOLDER.sub("", stripped))
            if stray:
                self.problem(number, "placeholder", f"a {stray.group()} without its pair",
                             "a placeholder is {key} on one line; write \\{ or \\} for a brace itself")
        LINE_KINDS[kind](self, number, stripped)

    # -- one handler per kind of line ---------------------------------------------------------
    def comment(self, number: int, stripped: str) -> None:
        pass

    def term(self, number: int, stripped: str) -> None:
        if stripped:
            word, sep, translation = stripped.partition(" = ")
            if not sep or not word.strip() or not translation.strip():
                self.problem(number, "terms", "a term is `word = translation` (spaces round =)")
            else:
                self.terms[word.strip()] = translation.strip()

    def blank(self, number: int, stripped: str) -> None:
        self.flush()

    def directive(self, number: int, stripped: str) -> None:
        self.flush()
        m = DIRECTIVE.match(stripped)
        assert m is not None  # the line's kind says so
        name, arg = m.groups()
        DIRECTIVES.get(name, _Reader.unknown)(self, number, name, arg)

    def heading(self, number: int, stripped: str) -> None:
        self.flush()
        h = HEADING.match(stripped)
        if not h:
            self.problem(number, "heading", "a heading needs an id", "# Title {#id}, id in a-z, 0-9 and -")
            return
        self.target().append(Block("heading", h.group(2), number, level=len(h.group(1)), id=h.group(3)))

    def item(self, number: int, stripped: str) -> None:
        self.flush()
        item = ITEM.match(stripped)
        assert item is not None  # the line's kind says so
        kind = "bullet" if item.group(1) == "-" else "number"
        self.target().append(Block(kind, item.group(2), number))

    def continuation(self, number: int, stripped: str) -> None:
        self.target()[-1].text += " " + stripped  # an item's continuation line

    def prose(self, number: int, stripped: str) -> None:
        if not self.paragraph:
            self.paragraph_line = number
        self.paragraph.append(stripped)

    # -- one handler per directive ------------------------------------------------------------
    def close(self, number: int, name: str, arg: str) -> None:
        if not self.stack:
            self.problem(number, "::: end", "nothing to close")
        else:
            self.stack.pop()

    def otherwise(self, number: int, name: str, arg: str) -> None:
        if not self.stack or self.stack[-1][0].kind != "when" or self.stack[-1][1] is self.stack[-1][0].other:
            self.problem(number, "::: else", "only inside a `::: when`, once")
        else:
            self.stack[-1] = (self.stack[-1][0], self.stack[-1][0].other)

    def open(self, number: int, name: str, arg: str) -> None:
        if len(self.stack) >= MAX_MARKUP_DEPTH:
            self.problem(number, f"::: {name}", f"nested more than {MAX_MARKUP_DEPTH} deep",
                         f"at most {MAX_MARKUP_DEPTH} open blocks")
            raise _TooDeep
        block = Block(name, line=number, arg=arg)
        if name in ("when", "option") and not arg:
            self.problem(number, f"::: {name}", "needs a condition", "e.g. rules.torus = true")
        self.target().append(block)
        self.stack.append((block, block.children))

    def leaf(self, number: int, name: str, arg: str) -> None:
        self.breaks += name == "pagebreak"
        if self.breaks == MAX_PAGE_BREAKS + 1:
            self.problem(number, "::: pagebreak", f"more than {MAX_PAGE_BREAKS} page breaks",
                         f"at most {MAX_PAGE_BREAKS}")
        self.target().append(Block(name, line=number, arg=arg))

    def unknown(self, number: int, name: str, arg: str) -> None:
        self.problem(number, f"::: {name}", "unknown directive", ", ".join(CONTAINERS + LEAVES + ("else", "end")))


#: kind of line -> its handler
LINE_KINDS: dict[str, Callable[[_Reader, int, str], None]] = {
    "comment": _Reader.comment, "term": _Reader.term, "blank": _Reader.blank, "directive": _Reader.directive,
    "heading": _Reader.heading, "item": _Reader.item, "continuation": _Reader.continuation, "prose": _Reader.prose,
}
#: the kinds of line whose words are read: a brace without its pair is a problem there
WORDED = ("heading", "item", "continuation", "prose")
#: directive -> its handler (an unknown one: `_Reader.unknown`)
DIRECTIVES: dict[str, Callable[[_Reader, int, str, str], None]] = {
    "end": _Reader.close, "else": _Reader.otherwise, **dict.fromkeys(CONTAINERS, _Reader.open),
    **dict.fromkeys(LEAVES, _Reader.leaf),
}


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


def outline(text: Text) -> dict[str, list]:
    """What both languages of a game must share: heading ids, placeholders, conditions, directives.

    >>> t = parse("# A {#a}\\n{rules.torus} x\\n::: setup\\n", "x.md", "en")
    >>> outline(t)
    {'headings': ['a'], 'placeholders': ['rules.torus'], 'directives': ['setup']}
    """
    headings: list[str] = []
    placeholders: list[str] = []
    directives: list[str] = []

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


OPTION_NAME = re.compile(r"^\*\*([^*]+?)\.?\*\*")


def option_names(text: Text) -> dict[tuple[str, str], str]:
    """The name the rulebook gives each rule option: {(key, value): name} from its optional rules.

    An optional rule is a `::: option rules.KEY = VALUE` block whose first item starts with its
    name in bold ("- **Walled grid.** ..."); the name is that bold text without its full stop.
    A value is written as in the condition (`true`, `house`).

    >>> t = parse("::: option rules.torus = false\\n- **Walled grid.** The edges stop you.\\n::: end\\n", "x.md", "en")
    >>> option_names(t)
    {('torus', 'false'): 'Walled grid'}
    """
    names: dict[tuple[str, str], str] = {}

    def walk(blocks: list[Block]) -> None:
        for block in blocks:
            if block.kind == "option":
                key, _, value = (part.strip() for part in block.arg.partition("="))
                first = next((c for c in block.children if c.kind in ("bullet", "number", "paragraph")), None)
                m = OPTION_NAME.match(first.text) if first else None
                if key.startswith("rules.") and value and m:
                    names[(key[len("rules."):], value)] = m.group(1).strip()
            walk(block.children)
            walk(block.other)
    walk(text.blocks)
    return names
