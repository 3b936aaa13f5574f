"""Every text a player or designer reads, by language: layouts/terms/LANG.toml, one table each.

A table's `[terms]` maps a key to its text in that language.  Two kinds of keys:

- a dotted key (`cover.title`, `nets.block`): a text of boardlab's own (print files, figures),
  with `{name}` fields filled by the caller; every language's table holds every such key that
  the code uses (`boardlab check` reads the code for the keys: `term(...)` and `plural(...)`);
- a word of a definition (`gold`, `Slider`, `ONE`, a table heading): the definitions are
  written in English, so only the other languages list them (`{n}` stands for any number).

The language being written is set once around a piece of work (`speaking("es")`), so the
drawing code far below a print run or a rulebook asks `term("nets.glue")` without passing
the language down every call.

>>> with speaking("es"):
...     term("nets.block", k=1, n=4), word("gold"), plural("cover.sheets", 2), number(2.5)
('bloque 1/4', 'oro', '2 hojas', '2,5')
>>> word("gold"), number(2.5)
('gold', '2.5')
"""

from __future__ import annotations

import contextlib
import contextvars
import re
import tomllib
from functools import lru_cache
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from boardlab.layouts.errors import BoardlabError, Problem

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition

TERMS = Path(__file__).resolve().parent / "terms"
#: the language of the definitions' own words
SOURCE_LANGUAGE = "en"
DECIMAL_POINT = {"en": ".", "es": ","}

_language: contextvars.ContextVar[str] = contextvars.ContextVar("language", default=SOURCE_LANGUAGE)
#: the words of the definition being written, in the language being written (its `[terms.LANG]`)
_own: contextvars.ContextVar[dict[str, str]] = contextvars.ContextVar("own_terms", default={})


@contextlib.contextmanager
def speaking(language: str, definition: object = None) -> Iterator[None]:
    """Write in `language` inside the block (print runs, rulebooks, reports); the words of
    `definition`'s own `[terms.LANG]`, if given, add to (and win over) the language's table.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Purple:
    ...     terms: dict
    >>> with speaking("es", Purple({"es": {"purple": "morado"}})):
    ...     word("purple"), word("gold")
    ('morado', 'oro')
    """
    table(language)  # an unknown language fails here, before anything is drawn
    token = _language.set(language)
    own = _own.set(dict((getattr(definition, "terms", None) or {}).get(language, {})))
    try:
        yield
    finally:
        _own.reset(own)
        _language.reset(token)


def _terms(lang: str) -> dict[str, str]:
    """The language's table with the current definition's own words over it."""
    own = _own.get()
    return {**table(lang), **own} if own else table(lang)


def language() -> str:
    """The language being written."""
    return _language.get()


@lru_cache(maxsize=None)
def table(lang: str) -> dict[str, str]:
    """The `[terms]` table of layouts/terms/LANG.toml.

    :raises BoardlabError: when the language has no table or the file is not valid TOML.
    """
    path = TERMS / f"{lang}.toml"
    if not path.is_file():
        have = ", ".join(sorted(p.stem for p in TERMS.glob("*.toml")))
        raise BoardlabError(f"no terms for the language '{lang}' (layouts/terms/ has {have})")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise BoardlabError(f"layouts/terms/{lang}.toml: {err}") from None
    terms = data.get("terms", {})
    if not all(isinstance(v, str) for v in terms.values()):
        raise BoardlabError(f"layouts/terms/{lang}.toml: every term must be a text in quotes")
    return dict(terms)


def term(key: str, /, **fields: object) -> str:
    """The text of a dotted key in the language being written, its `{fields}` filled.

    :raises BoardlabError: when the language's table lacks the key (`boardlab check` finds it first).
    """
    lang = language()
    terms = _terms(lang)
    if key not in terms:
        raise BoardlabError(f"layouts/terms/{lang}.toml: no term '{key}'")
    shown = {k: number(v) if isinstance(v, float) else v for k, v in fields.items()}
    return terms[key].format(**shown)


def plural(key: str, n: int, /, **fields: object) -> str:
    """`KEY.one` or `KEY.many` by the count `n` (filled in as `{n}`)."""
    return term(f"{key}.{'one' if n == 1 else 'many'}", n=n, **fields)


def word(text: str) -> str:
    """A word of a definition (a colour's label, a face, a master's name) in the language being
    written; `{n}` patterns of the table match numbers.  Unchanged in the definitions' language."""
    lang = language()
    if lang == SOURCE_LANGUAGE:
        return text
    from boardlab.layouts.rulebook_facts import translate
    return translate(text, _terms(lang), respell)


_AGENT = re.compile(r"(random|greedy|favourite|perfect|mcts|ismcts|search)(?:-(\d+))?")


def agent_label(name: str) -> str:
    """An agent's name as a reader sees it in the language being written (`agent.KIND` of the
    terms, `agent.KIND_n` with a number): the name typed on the command line (`--agent greedy`)
    is an identifier, not a word.  `BASE-without-ELEMENT` reads `agent.without`; a name of no
    known kind is shown as it is.

    >>> with speaking("es"):
    ...     agent_label("greedy"), agent_label("mcts-16"), agent_label("favourite-9"), agent_label("random-without-chips")
    ('voraz', 'MCTS-16', 'favorito-9', 'azar sin chips')
    >>> agent_label("greedy"), agent_label("mcts-16")
    ('greedy', 'mcts-16')
    """
    base, without, element = name.partition("-without-")
    if without:
        return term("agent.without", agent=agent_label(base), element=word(element))
    m = _AGENT.fullmatch(name)
    if m is None:
        return name
    kind, n = m.groups()
    return term(f"agent.{kind}_n", n=n) if n is not None else term(f"agent.{kind}")


def number(value: float, digits: int | None = None) -> str:
    """A number as the language writes it: `2.5` or `2,5` (`digits` fixed decimals, else `:g`)."""
    text = f"{value:.{digits}f}" if digits is not None else f"{value:g}"
    return text.replace(".", DECIMAL_POINT.get(language(), "."))


#: the languages that group thousands with a (no-break) space, and only from five digits on
#: (2400, 12 400), instead of the comma of Python's format (2,400, 12,400)
SPACE_GROUPED = {"es"}
_PYTHON_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def respell(text: str) -> str:
    """Numbers written by Python's format (`12,345.6`, `-0.250`, `+2.5`) as the language writes
    them: `12 345,6` in Spanish (a no-break space between thousands from five digits, a decimal
    comma); unchanged in English.  Only for a text that is one formatted number with its sign,
    unit or symbols (never a list: the comma of `2, 3` would read as a thousands mark).

    >>> with speaking("es"):
    ...     respell("2,400"), respell("12,345.6"), respell("< 0.001"), respell("+2.5")
    ('2400', '12\xa0345,6', '< 0,001', '+2,5')
    >>> respell("12,345.6")
    '12,345.6'
    """
    lang = language()
    point = DECIMAL_POINT.get(lang, ".")
    if point == "." and lang not in SPACE_GROUPED:
        return text

    def one(match: re.Match) -> str:
        whole, _, fraction = match.group(0).partition(".")
        digits = whole.replace(",", "")
        if lang in SPACE_GROUPED and len(digits) >= 5:
            head = len(digits) % 3 or 3
            digits = "\u00a0".join([digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)])
        return digits + (point + fraction if fraction else "")

    return _PYTHON_NUMBER.sub(one, text)


# -- the keys the code uses, for `boardlab check` -------------------------------------------------
USE = re.compile(r"""(?<![\w.])(term|plural|word|say_plural|say)\(\s*(?:"((?:[^"\\]|\\.)+)"|'((?:[^'\\]|\\.)+)')\s*[,)]""")
#: the folders whose code asks for terms (the print code; the reports, whose `say("KEY"` is
#: `term("report.KEY"`; the engines' own summaries, `summary.GAME.KEY`; the commands' lines)
CODE = tuple(Path(__file__).resolve().parent.parent / folder for folder in ("printkit", "analysis", "boardlab/commands"))


@lru_cache(maxsize=None)
def keys_used() -> tuple[frozenset[str], frozenset[str]]:
    """The dotted keys (`term("KEY"`, `plural("KEY"`) and the literal words (`word("TEXT")`)
    the code asks for, read from its source."""
    keys: set[str] = set()
    words: set[str] = set()
    for folder in CODE:
        for path in sorted(folder.rglob("*.py")):
            for kind, double, single in USE.findall(path.read_text(encoding="utf-8")):
                key = (double or single).replace('\\"', '"')
                if kind.startswith("say"):
                    kind, key = kind.replace("say_", "").replace("say", "term"), f"report.{key}"
                if kind == "word":
                    words.add(key)
                else:
                    keys.update((f"{key}.one", f"{key}.many") if kind == "plural" else (key,))
    return frozenset(keys), frozenset(words)


def definition_words(definition: GameDefinition) -> list[tuple[str, str]]:
    """(where, word) for every word of a definition that is printed: colour labels, face names,
    the Links masters' names."""
    out = [(f"colours.{name}.label", c.label) for name, c in getattr(definition, "colours", {}).items()]
    if getattr(definition.game, "minutes_source", ""):  # named in every report's length note
        out.append(("game.minutes_source", definition.game.minutes_source))
    out += [(f"faces.{name}", name) for name in getattr(definition, "faces", {}) or {}]
    card = getattr(getattr(definition, "print", None), "card", None)
    if isinstance(card, str):
        out.append(("print.card", card))
    deck = getattr(definition, "deck", None)
    for i, master in enumerate(getattr(deck, "masters", ()) or ()):
        out.append((f"deck.masters[{i}].name", master.name))
    return out


def _text_terms(definition: GameDefinition, lang: str) -> dict[str, str]:
    """The `::: terms` of the game's rulebook text in `lang` (a game's own words), if it has one."""
    from boardlab.layouts.rulebook_markup import read_text

    try:
        return read_text(definition.game.id, lang).terms
    except BoardlabError:
        return {}


def _written_at(definition: GameDefinition, where: str) -> tuple[str | None, int]:
    """(file, line) of the definition chain where the key `where` ("colours.teal.label",
    "deck.masters[0].name") is written, or (None, 0) when it cannot be told."""
    from boardlab.layouts.loader import locate

    source = getattr(definition, "source", None)
    if not source:
        return None, 0
    key = tuple(int(p) if p.isdigit() else p for p in re.split(r"[.\[\]]+", where) if p)
    try:
        return locate(source, key)
    except BoardlabError:
        return None, 0


def check_terms(definition: GameDefinition) -> list[Problem]:
    """Every term a definition's outputs need, missing from one of its languages' tables."""
    problems = []
    languages = tuple(getattr(getattr(definition, "rulebook", None), "languages", ())) or (SOURCE_LANGUAGE,)
    for lang in languages:
        file = f"layouts/terms/{lang}.toml"
        try:
            terms = {**table(lang), **_text_terms(definition, lang), **own_terms(definition, lang)}
        except BoardlabError as err:
            problems.append(Problem(file, 0, "terms", str(err)))
            continue
        keys, words = keys_used()
        for key in sorted(keys - set(terms)):
            problems.append(Problem(file, 0, key, "missing term", "a text for every key the print code uses"))
        if lang != SOURCE_LANGUAGE:
            for text in sorted(words - set(terms)):
                problems.append(Problem(file, 0, text, "missing word", "a translation of every word the print code uses"))
            for where, text in definition_words(definition):
                if text not in terms:
                    at, line = _written_at(definition, where)  # the definition's line: where the word is new
                    problems.append(Problem(at or file, line, where if at else text,
                                            f"no {lang} word for {where} = \"{text}\"",
                                            f'add [terms.{lang}] "{text}" = "..." to the definition, or to [terms] '
                                            f'in {file}'))
    for lang in sorted(set(getattr(definition, "terms", None) or {}) - set(languages)):
        at, line = _written_at(definition, f"terms.{lang}")
        problems.append(Problem(at or "terms", line, f"terms.{lang}", f"'{lang}' is not one of the definition's "
                                f"languages", "rulebook.languages: " + ", ".join(languages)))
    return problems


def own_terms(definition: GameDefinition, lang: str) -> dict[str, str]:
    """A definition's own words in `lang` (its `[terms.LANG]`)."""
    return dict((getattr(definition, "terms", None) or {}).get(lang, {}))
