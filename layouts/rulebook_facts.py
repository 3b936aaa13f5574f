"""Facts for rulebook placeholders: a dotted path into a definition, filters, and conditions.

>>> from boardlab.layouts import load
>>> render_placeholder("deck.masters|each:name", load("links"), "es", {})
'ONE, TWO, THREE y FOUR'
"""

from __future__ import annotations

import dataclasses
import re
import typing
from typing import TYPE_CHECKING, Any, Callable, Literal

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition

#: words between list items and before the last one, per language
LIST_AND = {"en": " and ", "es": " y "}
DECIMAL_POINT = {"en": ".", "es": ","}

CONDITION = re.compile(r"^(not\s+)?([a-z_][a-z0-9_.]*)\s*(?:(=|!=|>=|<=)\s*(\S+))?$")
PLACEHOLDER = re.compile(r"(?<!\\)\{([^{}]*)\}")


def translate(word: str, terms: dict[str, str], number: Callable[[str], str] | None = None) -> str:
    """`word` in a text's language: its term, a pattern's translation, else unchanged.  In a
    pattern `{n}` stands for any number, written by `number(text)` (as the language writes it) if
    given, and `{x}` for any name without spaces or quotes (a square, `c5`), kept as it is; the
    translation holds the same placeholders in the same order.

    >>> translate("Sum of 3 dice", {"Sum of {n} dice": "Suma de {n} dados"})
    'Suma de 3 dados'
    >>> translate('"c5" is off', {'"{x}" is off': '"{x}" está fuera'})
    '"c5" está fuera'
    """
    if word in terms:
        return terms[word]
    for source, target in terms.items():
        if "{n}" in source or "{x}" in source:
            kinds = re.findall(r"\{([nx])\}", source)
            pattern = "^" + re.escape(source).replace(r"\{n\}", r"(-?\d+(?:[.,]\d+)?)").replace(
                r"\{x\}", r"([^\s\"']+)") + "$"
            m = re.match(pattern, word)
            if m:
                found = {kind: iter([g if kind == "x" or number is None else number(g)
                                     for k, g in zip(kinds, m.groups()) if k == kind]) for kind in "nx"}
                return re.sub(r"\{([nx])\}", lambda hit: next(found[hit.group(1)]), target)
    return word


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


def fact(definition: GameDefinition, path: str) -> Any:
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


def field_type(definition: GameDefinition, path: str) -> Any:
    """The schema type of a dotted path's last key, or None when it is not a dataclass field."""
    parts = path.split(".")
    owner = fact(definition, ".".join(parts[:-1])) if len(parts) > 1 else definition
    if not dataclasses.is_dataclass(owner):
        return None
    return typing.get_type_hints(type(owner)).get(parts[-1])


def choices(definition: GameDefinition, path: str) -> tuple | None:
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


def format_value(value: Any, book_language: str, definition: GameDefinition, terms: dict[str, str]) -> str:
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


def apply_filter(value: Any, spec: str, path: str, definition: GameDefinition, language: str, terms: dict[str, str]) -> Any:
    name, _, rest = spec.partition(":")
    args = rest.split(":") if rest else []
    if name == "count":
        return len(value)
    if name in ("min", "max", "sum"):
        numbers = [_number(v) for v in value]
        return min(numbers) if name == "min" else max(numbers) if name == "max" else sum(numbers)
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
        return Setting(f"{key} = {toml_value(value)}")
    raise UnknownKey(f"filter {spec}")


def toml_value(value: Any) -> str:
    """A value as the definition's TOML writes it: "word", true, 3, [3, 4].

    >>> toml_value((3, 4)), toml_value("draw"), toml_value(False)
    ('[3, 4]', '"draw"', 'false')
    """
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return str(value).lower()


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


def render_placeholder(expression: str, definition: GameDefinition, language: str, terms: dict[str, str]) -> str:
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


def fill(text: str, definition: GameDefinition, language: str, terms: dict[str, str]) -> str:
    return PLACEHOLDER.sub(lambda m: render_placeholder(m.group(1), definition, language, terms), text)


def parse_value(word: str) -> Any:
    if word in ("true", "false"):
        return word == "true"
    if re.fullmatch(r"-?\d+", word):
        return int(word)
    return word.strip('"')


def condition_holds(condition: str, definition: GameDefinition) -> bool:
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


def option_applies(arg: str, definition: GameDefinition) -> bool:
    """True when an `::: option KEY = VALUE` block is an optional rule for this definition
    (the definition does not already use VALUE)."""
    path, wanted = option_parts(arg)
    allowed = choices(definition, path)
    if allowed is None or wanted not in allowed:
        raise UnknownKey(f"{path} = {wanted}")
    return fact(definition, path) != wanted


