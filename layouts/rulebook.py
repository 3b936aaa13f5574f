"""Rulebook texts: one hand-editable file per game and language, with placeholders for facts.

A game's rules, in the project's own words, live in `layouts/rulebooks/GAME.LANG.md`
(`GAME.en.md` is the project's rules reference).  The text never states a fact the definition
holds: it names it, `{cards.values|count}`, so a changed definition changes the rulebook.
The markup (documented for designers in docs/how-to/rulebooks.md) is:

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
  The language's table in layouts/terms/LANG.toml comes first (the shipped games keep their
  words there); a text's own terms add to it or override it.

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
from dataclasses import dataclass
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal, overload

from boardlab.layouts.errors import BoardlabError, DefinitionError, Problem
from boardlab.layouts.rulebook_facts import (FILTERS, UnknownKey, choices, condition_holds, fill, option_applies,
                                             option_parts, render_placeholder, translate)
from boardlab.layouts.rulebook_markup import (PLACEHOLDER, Block, Text, display, outline, parse, read_text,
                                              text_path)

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition

__all__ = ["Block", "Book", "Text", "build_book", "check_rulebook", "outline", "parse", "read_text", "rule_choices"]


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


def _resolve(blocks: list[Block], definition: GameDefinition, language: str, terms: dict[str, str], problems: list[Problem], file: str,
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


def _fills(expression: str, definition: GameDefinition, language: str, terms: dict[str, str]) -> bool:
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


def rule_choices(definition: Any) -> dict[str, tuple]:
    """Every choice in the definition's `[rules]`: `rules.KEY` -> its possible values (each game's
    definition has its own rules dataclass, which `GameDefinition` does not name)."""
    found = {}
    for f in dataclasses.fields(definition.rules):
        values = choices(definition, f"rules.{f.name}")
        if values is not None:
            found[f"rules.{f.name}"] = values
    return found


def language_terms(language: str) -> dict[str, str]:
    """The terms table of a language (layouts/terms/LANG.toml), empty when it has none."""
    from boardlab.layouts.terms import table

    try:
        return table(language)
    except BoardlabError:
        return {}


@overload
def build_book(definition: GameDefinition, language: str, check: Literal[False] = False) -> Book: ...
@overload
def build_book(definition: GameDefinition, language: str, check: Literal[True]) -> list[Problem]: ...


def build_book(definition: GameDefinition, language: str, check: bool = False) -> Book | list[Problem]:
    """The rulebook of a definition in a language.

    :raises DefinitionError: listing every problem of the text (unknown placeholders with
        FILE:LINE, markup mistakes, rule choices without an optional rule), unless `check`,
        in which case the problems are returned instead.
    :raises BoardlabError: when the text file is missing.
    """
    text = read_text(definition.game.id, language)
    problems = list(text.problems)
    from boardlab.layouts.terms import own_terms

    # the language's table, then the text's own, then the definition's own ([terms.LANG] of a variant)
    terms = {**language_terms(language), **text.terms, **own_terms(definition, language)}
    blocks = _resolve(text.blocks, definition, language, terms, problems, text.file, keep=True)
    problems += icon_problems(text.blocks, definition, text.file)
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
    return Book(definition, language, text.file, blocks, terms)


def icon_problems(blocks: list[Block], definition: GameDefinition, file: str) -> list[Problem]:
    """An unknown `:name:` icon (layouts.icons) in any block of the text, each name once, at its line."""
    from boardlab.layouts.icons import icon_names, icons_of, known_list

    known = icons_of(definition)
    said: set[str] = set()
    out: list[Problem] = []

    def walk(items: list[Block]) -> None:
        for block in items:
            for name in icon_names(block.text):
                if name not in known and name not in said:
                    said.add(name)
                    out.append(Problem(file, block.line, "icon", f'unknown icon ":{name}:"', known_list(definition)))
            walk(block.children)
            walk(block.other)
    walk(blocks)
    return out


def check_rulebook(definition: GameDefinition) -> list[Problem]:
    """Every problem of the definition's rulebook texts, one per language checked, FILE:LINE each,
    and where they break a promise to players (`promises_kept`)."""
    problems: list[Problem] = []
    for language in definition.rulebook.languages:
        try:
            problems += build_book(definition, language, check=True)
        except BoardlabError as err:
            problems.append(Problem(display(text_path(definition.game.id, language)), 0, "rulebook", str(err)))
    return problems or promises_kept(definition)


#: the sections (heading ids) every rulebook text holds, in every language
SECTIONS = ("goal", "components", "setup", "interpretations", "optional", "quickref")


def promises_kept(definition: GameDefinition) -> list[Problem]:
    """Where the rulebook texts break what every rulebook promises players (for `boardlab check`):
    every section of `SECTIONS`; the same headings, placeholders and directives in every
    language; a quick reference (`::: quickref`) headed by the language's "Quick reference"
    (`rulebook.quickref` of layouts/terms/LANG.toml) with a line in bold saying how the game
    ends ("**End:**", or "**Stuck:**" where being stuck is the end: `rulebook.end`, `rulebook.stuck`).

    >>> from boardlab.layouts import load
    >>> promises_kept(load("links"))
    []
    """
    problems: list[Problem] = []
    first: tuple[Text, dict[str, list]] | None = None
    for language in definition.rulebook.languages:
        text = read_text(definition.game.id, language)
        shape = outline(text)
        missing = [section for section in SECTIONS if section not in shape["headings"]]
        if missing:
            problems.append(Problem(text.file, 1, "rulebook", f"no section {', '.join(missing)}",
                                    "a heading with each of the ids " + ", ".join(f"{{#{s}}}" for s in SECTIONS)))
        if first is None:
            first = (text, shape)
        else:
            for part, listed in shape.items():
                if listed != first[1][part]:
                    problems.append(Problem(text.file, 1, "rulebook", f"not the {part} of {first[0].file}",
                                            f"the same {part}, in the same order, in every language"))
        problems += _quick_reference_problems(text, language_terms(language))
    return problems


def _quick_reference_problems(text: Text, terms: dict[str, str]) -> list[Problem]:
    """The quick reference's heading and its line on the end, in a language with those words."""
    words = [terms.get(key) for key in ("rulebook.quickref", "rulebook.end", "rulebook.stuck")]
    quick = next((block for block in text.blocks if block.kind == "quickref"), None)
    if quick is None:
        return [Problem(text.file, 1, "::: quickref", "no quick reference", "a `::: quickref` block")]
    title, end, stuck = words
    if title is None or end is None or stuck is None:  # a language without these words: nothing to hold it to
        return []
    problems = []
    heading = next((block for block in quick.children if block.kind == "heading"), None)
    if heading is None or heading.text != title:
        problems.append(Problem(text.file, heading.line if heading else quick.line, "::: quickref",
                                f'heading "{heading.text}"' if heading else "no heading",
                                f"# {title} {{#quickref}}"))
    if not any(f"**{word}:**" in block.text for block in _walk(quick.children) for word in (end, stuck)):
        problems.append(Problem(text.file, quick.line, "::: quickref", "no line on how the game ends",
                                f"a line starting **{end}:** (or **{stuck}:**)"))
    return problems


def _walk(blocks: list[Block]) -> Iterator[Block]:
    for block in blocks:
        yield block
        yield from _walk(block.children)
        yield from _walk(block.other)
