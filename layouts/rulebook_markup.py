"""The rulebook markup: reading `layouts/rulebooks/GAME.LANG.md` into blocks (see layouts.rulebook).

>>> t = parse("# Goal {#goal}\\nWin.\\n", "x.md", "en")
>>> [(b.kind, b.text) for b in t.blocks]
[('heading', 'Goal'), ('paragraph', 'Win.')]
"""

from __future__ import annotations

import re
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
    problems: list[Problem] = []
    root: list[Block] = []
    breaks = 0
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
                if len(stack) >= MAX_MARKUP_DEPTH:  # stop reading: deeper blocks would only be more of this
                    problems.append(Problem(file, number, f"::: {name}", f"nested more than {MAX_MARKUP_DEPTH} deep",
                                            f"at most {MAX_MARKUP_DEPTH} open blocks"))
                    return Text(file, language, root, terms, problems)
                block = Block(name, line=number, arg=arg)
                if name in ("when", "option") and not arg:
                    problems.append(Problem(file, number, f"::: {name}", "needs a condition", "e.g. rules.torus = true"))
                target().append(block)
                stack.append((block, block.children))
            elif name in LEAVES:
                breaks += name == "pagebreak"
                if breaks == MAX_PAGE_BREAKS + 1:
                    problems.append(Problem(file, number, "::: pagebreak", f"more than {MAX_PAGE_BREAKS} page breaks",
                                            f"at most {MAX_PAGE_BREAKS}"))
                target().append(Block(name, line=number, arg=arg))
            else:
                problems.append(Problem(file, number, f"::: {name}", "unknown directive",
                                        ", ".join(CONTAINERS + LEAVES + ("else", "end"))))
            continue
        stray = STRAY_BRACE.search(PLACEHOLDER.sub("", stripped))
        if stray:
            problems.append(Problem(file, number, "placeholder", f"a {stray.group()} without its pair",
                                    "a placeholder is {key} on one line; write \\{ or \\} for a brace itself"))
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
