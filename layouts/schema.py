"""Turn parsed TOML into frozen dataclasses, collecting every mistake with its line.

The dataclasses *are* the schema: each field's type says what the TOML must hold, and
`field(metadata=limits(...))` adds ranges.
Fields without a default are required; a definition states every rule option itself.

>>> from dataclasses import dataclass, field
>>> @dataclass(frozen=True)
... class Rules:
...     turns: int = field(metadata=limits(min=1))
>>> checker = Checker(Source("x.toml", {("rules", "turns"): 3}))
>>> checker.build(Rules, {"turns": 0}, ("rules",))
>>> print(checker.problems[0])
x.toml:3: rules.turns: must be at least 1 (got 0)
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, Union

from boardlab.layouts import limits as stated
from boardlab.layouts.errors import Problem
from boardlab.layouts.tomlmap import line_of


def loaded() -> dict:
    """Field metadata: set by the loader (e.g. the file a definition came from), never read from TOML."""
    return {"loaded": True}


def limits(min: float | None = None, max: float | None = None, doc: str = "") -> dict:
    """Field metadata: inclusive bounds for a number (or for a list's length when it is a list)."""
    return {"min": min, "max": max, "doc": doc}


@dataclass
class Source:
    """Where the keys of one (merged) document come from: key path -> line, per file."""

    file: str
    lines: dict[tuple, int]
    origins: dict[tuple, tuple[str, int]] | None = None

    def locate(self, path: tuple) -> tuple[str, int]:
        if self.origins:
            probe = tuple(path)
            while probe:
                if probe in self.origins:
                    return self.origins[probe]
                probe = probe[:-1]
        return self.file, line_of(self.lines, path)


def _same_kind(tp: Any, value: Any) -> bool:
    """Whether a TOML value is of the kind a schema type takes (a number for int, a list for a tuple)."""
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is bool:
        return isinstance(value, bool)
    if tp is str or typing.get_origin(tp) is Literal:
        return isinstance(value, str)
    if typing.get_origin(tp) is tuple:
        return isinstance(value, list)
    return False


def former_key(path: tuple) -> tuple[str, str] | None:
    """(message, what to write instead) for a key a definition once had (layouts/renamed.py);
    None for a key that never was one.

    >>> former_key(("print", "chip_gap"))
    ('renamed to print.piece_gap', 'write piece_gap in [print] instead')
    >>> former_key(("rules", "no_such_key")) is None
    True
    """
    name = ".".join(str(part) for part in path if not isinstance(part, int))
    from boardlab.layouts.renamed import REMOVED as removed, RENAMED as renamed

    if name in renamed:
        new = renamed[name]
        section, _, key = new.rpartition(".")
        return f"renamed to {new}", f"write {key} in [{section}] instead" if section else f"write {key} instead"
    if name in removed:
        return f"removed: {removed[name]}", "leave it out"
    return None


def dotted(path: tuple) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top)"


def type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if tp is bool:
        return "true or false"
    if tp is int:
        return "a whole number"
    if tp is float:
        return "a number"
    if tp is str:
        return "a text in quotes"
    if origin is Literal:
        return "one of " + ", ".join(f'"{a}"' if isinstance(a, str) else str(a) for a in typing.get_args(tp))
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of {plural(args[0])}"
        return f"a list of {len(args)} items"
    if origin is dict:
        return "a table"
    if origin in (Union, types.UnionType):
        return " or ".join(type_name(a) for a in typing.get_args(tp) if a is not type(None))
    if dataclasses.is_dataclass(tp):
        return "a table"
    return getattr(tp, "__name__", str(tp))


def plural(tp: Any) -> str:
    name = type_name(tp)
    return {"a whole number": "whole numbers", "a number": "numbers", "a text in quotes": "texts",
            "a table": "tables", "true or false": "true/false values"}.get(name, name)


class _Invalid(Exception):
    pass


class FrozenDict(dict):
    """A read-only dict: hashable, picklable, and safe to share between definitions."""

    def _readonly(self, *args: object, **kwargs: object) -> typing.NoReturn:
        raise TypeError("a definition is read-only")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly

    def __hash__(self) -> int:  # type: ignore[override]  # dict is unhashable; a read-only one is not
        return hash(tuple(sorted(self.items(), key=repr)))

    def __reduce__(self) -> tuple[type, tuple[dict]]:
        return (FrozenDict, (dict(self),))


class Report(Protocol):
    """How a check reports a problem: the key's path, what is wrong, what is allowed (`Checker.report`)."""

    def __call__(self, path: tuple, message: str, allowed: str = "") -> None: ...


class Checker:
    """Builds dataclasses from TOML data and records every problem instead of stopping."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.problems: list[Problem] = []

    def report(self, path: tuple, message: str, allowed: str = "") -> None:
        file, line = self.source.locate(path)
        self.problems.append(Problem(file, line, dotted(path), message, allowed))

    def build(self, cls: type, data: Any, path: tuple) -> Any:
        """An instance of dataclass `cls` from `data`, or None when something is wrong."""
        try:
            return self._convert(cls, data, path, {})
        except _Invalid:
            return None

    # -- conversion: one handler per kind of schema type (`CONVERTERS`) ------------------------
    def _convert(self, tp: Any, value: Any, path: tuple, meta: dict) -> Any:
        handler = CONVERTERS.get(kind_of(tp))
        if handler is None:
            raise TypeError(f"schema type {tp!r} is not supported")
        return handler(self, tp, value, path, meta)

    def _union(self, tp: Any, value: Any, path: tuple, meta: dict) -> Any:
        options = [a for a in typing.get_args(tp) if a is not type(None)]
        alike = [a for a in options if _same_kind(a, value)]
        if len(alike) == 1:  # one option of the value's kind: its own message (a range, an item)
            return self._convert(alike[0], value, path, meta)
        for option in options:
            trial = Checker(self.source)
            try:
                result = trial._convert(option, value, path, meta)
            except _Invalid:
                continue
            if not trial.problems:
                return result
        self._fail(path, f"wrong type: {describe(value)}", type_name(tp))

    def _literal(self, tp: Any, value: Any, path: tuple, meta: dict) -> Any:
        choices = typing.get_args(tp)
        if value not in choices or isinstance(value, bool) != any(isinstance(c, bool) for c in choices):
            hint = ""
            if isinstance(value, str):
                near = difflib.get_close_matches(value, [str(c) for c in choices], n=1)
                hint = f'; did you mean "{near[0]}"?' if near else ""
            self._fail(path, f"unknown value {show(value)}{hint}", type_name(tp))
        return value

    def _tuple(self, tp: Any, value: Any, path: tuple, meta: dict) -> Any:
        if not isinstance(value, list):
            self._fail(path, f"wrong type: {describe(value)}", type_name(tp))
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            kinds = [args[0]] * len(value)
        else:
            if len(value) != len(args):
                self._fail(path, f"expected {len(args)} items, got {len(value)}", type_name(tp))
            kinds = list(args)
        self._check_items(path, len(value))
        self._check_range(path, len(value), meta, what="length")
        return self._collect(tuple, [(k, v, path + (i,)) for i, (k, v) in enumerate(zip(kinds, value))])

    def _dict(self, tp: Any, value: Any, path: tuple, meta: dict) -> Any:
        key_tp, value_tp = typing.get_args(tp)
        if not isinstance(value, dict):
            self._fail(path, f"wrong type: {describe(value)}", "a table")
        self._check_items(path, len(value))
        items, bad = [], False
        for key, item in value.items():
            if key_tp is int:
                try:
                    key = int(key)
                except ValueError:
                    self.report(path + (key,), "key must be a whole number")
                    bad = True
                    continue
            items.append((key, item))
        converted = self._collect(list, [(value_tp, item, path + (str(key),)) for key, item in items])
        if bad:
            raise _Invalid
        return FrozenDict(zip([k for k, _ in items], converted))

    def _bool(self, tp: Any, value: Any, path: tuple, meta: dict) -> Any:
        if not isinstance(value, bool):
            self._fail(path, f"wrong type: {describe(value)}", "true or false")
        return value

    def _int(self, tp: Any, value: Any, path: tuple, meta: dict) -> Any:
        if not isinstance(value, int) or isinstance(value, bool):
            self._fail(path, f"wrong type: {describe(value)}", "a whole number")
        self._check_digits(path, value)
        self._check_range(path, value, meta)
        return value

    def _float(self, tp: Any, value: Any, path: tuple, meta: dict) -> Any:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            self._fail(path, f"wrong type: {describe(value)}", "a number")
        if isinstance(value, int):
            self._check_digits(path, value)
        if not math.isfinite(value):
            self._fail(path, f"must be a finite number (got {show(value)})", _bounds(meta.get("min"), meta.get("max"))
                       or "a number such as 2.5")
        self._check_range(path, value, meta)
        return float(value)

    def _str(self, tp: Any, value: Any, path: tuple, meta: dict) -> Any:
        if not isinstance(value, str):
            self._fail(path, f"wrong type: {describe(value)}", "a text in quotes")
        if meta.get("min") is not None and len(value) < meta["min"]:
            self._fail(path, "must not be empty")
        self._check_text(path, value)
        return value

    def _any(self, tp: Any, value: Any, path: tuple, meta: dict) -> Any:
        return value

    def _collect(self, kind: Callable[[list], Any], triples: Iterable[tuple[Any, Any, tuple]]) -> Any:
        out, failed = [], False
        for tp, value, path in triples:
            try:
                out.append(self._convert(tp, value, path, {}))
            except _Invalid:
                failed = True
        if failed:
            raise _Invalid
        return kind(out)

    def _dataclass(self, cls: type, value: Any, path: tuple, meta: dict | None = None) -> Any:
        if not isinstance(value, dict):
            self._fail(path, f"wrong type: {describe(value)}", "a table")
        hints = typing.get_type_hints(cls)
        fields = {f.name: f for f in dataclasses.fields(cls) if f.init and not f.metadata.get("loaded")}
        kwargs, failed = {}, False
        for key in value:
            if key not in fields:
                fate = former_key(path + (key,))
                if fate:
                    self.report(path + (key,), fate[0], fate[1])
                else:
                    near = difflib.get_close_matches(key, list(fields), n=1, cutoff=0.6)
                    allowed = f'did you mean "{near[0]}"?' if near else "known keys: " + ", ".join(fields)
                    self.report(path + (key,), "unknown key", allowed)
                failed = True
        for name, f in fields.items():
            if name not in value:
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    self.report(path + (name,), "missing key", type_name(hints[name]))
                    failed = True
                continue
            try:
                kwargs[name] = self._convert(hints[name], value[name], path + (name,), dict(f.metadata))
            except _Invalid:
                failed = True
        if failed:
            raise _Invalid
        return cls(**kwargs)

    def _check_digits(self, path: tuple, value: int) -> None:
        if abs(value) >= 10 ** stated.MAX_INTEGER_DIGITS:
            self._fail(path, f"a whole number of more than {stated.MAX_INTEGER_DIGITS} digits",
                       f"at most {stated.MAX_INTEGER_DIGITS} digits")

    def _check_items(self, path: tuple, count: int) -> None:
        if count > stated.MAX_ITEMS:
            self._fail(path, f"{count:,} items", f"at most {stated.MAX_ITEMS:,}")

    def _check_text(self, path: tuple, value: str) -> None:
        name = bool(path) and path[-1] in stated.NAME_KEYS
        longest = stated.MAX_NAME_CHARS if name else stated.MAX_TEXT_CHARS
        if len(value) > longest:
            self._fail(path, f"{len(value):,} characters long", f"at most {longest:,} characters"
                       + (" for a name or label" if name else ""))
        bad = stated.control_character(value, allow_newlines=not name)
        if bad is not None:
            self._fail(path, f"holds the control character {bad}", "printable characters")

    def _check_range(self, path: tuple, number: float, meta: dict, what: str = "") -> None:
        low, high = meta.get("min"), meta.get("max")
        label = "list must hold" if what == "length" else "must be"
        if low is not None and number < low:
            if what == "length":
                self._fail(path, f"{label} at least {low} items (got {number})")
            self._fail(path, f"must be at least {low} (got {number})", _bounds(low, high))
        if high is not None and number > high:
            if what == "length":
                self._fail(path, f"{label} at most {high} items (got {number})")
            self._fail(path, f"must be at most {high} (got {number})", _bounds(low, high))

    def _fail(self, path: tuple, message: str, allowed: str = "") -> typing.NoReturn:
        self.report(path, message, allowed)
        raise _Invalid


def kind_of(tp: Any) -> Any:
    """The kind of a schema type, `CONVERTERS`' key: "dataclass", Union (`A | B`, `Optional`), the
    generic's origin (Literal, tuple, dict), else the type itself (bool, int, float, str, Any); a
    bare tuple or dict (no item types) has none.

    >>> [kind_of(t) for t in (Source, int | None, Literal["a"], tuple[int, ...], dict[str, int], bool, tuple)]
    ['dataclass', typing.Union, typing.Literal, <class 'tuple'>, <class 'dict'>, <class 'bool'>, None]
    """
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return "dataclass"
    origin = typing.get_origin(tp)
    if origin is types.UnionType:
        return Union
    if origin is None:
        return None if tp in (tuple, dict) else tp
    return origin


#: kind of schema type (`kind_of`) -> the `Checker` method that converts and checks a value of it;
#: a new kind of key is one handler and one entry here
CONVERTERS: dict[Any, Callable[[Checker, Any, Any, tuple, dict], Any]] = {
    "dataclass": Checker._dataclass, Union: Checker._union, Literal: Checker._literal, tuple: Checker._tuple,
    dict: Checker._dict, bool: Checker._bool, int: Checker._int, float: Checker._float, str: Checker._str,
    Any: Checker._any,
}


def _bounds(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{low} to {high}"
    return ""


def show(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value).lower() if isinstance(value, bool) else repr(value)


def describe(value: Any) -> str:
    kind = {bool: "true/false", int: "a whole number", float: "a number", str: "a text",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)
    if isinstance(value, (list, dict)):
        return f"got {kind}"
    return f"got {kind} {show(value)}"


def key_field(cls: type, path: tuple[str, ...]) -> tuple[Any, dict] | None:
    """(type, limits metadata) of the field that key path `path` names in dataclass `cls`, or None
    when no field of the schema has that path (a table's own keys, such as a colour's name, are
    not fields: None too).

    >>> from boardlab.layouts.sixbysix import Definition
    >>> key_field(Definition, ("rules", "chips"))
    (<class 'int'>, {'min': 1, 'max': 500, 'doc': ''})
    >>> key_field(Definition, ("rules", "chip")) is None
    True
    """
    tp: Any = cls
    meta: dict = {}
    for part in path:
        if not (dataclasses.is_dataclass(tp) and isinstance(tp, type)):
            return None
        fields = {f.name: f for f in dataclasses.fields(tp) if f.init and not f.metadata.get("loaded")}
        if part not in fields:
            return None
        tp, meta = typing.get_type_hints(tp)[part], dict(fields[part].metadata)
    return tp, meta


def key_names(cls: type, prefix: tuple[str, ...] = ()) -> list[str]:
    """Every dotted key path of the plain (non-table) fields of dataclass `cls`, in schema order.

    >>> from boardlab.layouts.sixbysix import Definition
    >>> [k for k in key_names(Definition) if k.startswith("rules.")]
    ['rules.chips', 'rules.unclaimed_bank', 'rules.lead', 'rules.covering', 'rules.max_rounds']
    """
    out = []
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        if not f.init or f.metadata.get("loaded"):
            continue
        tp = hints[f.name]
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            out += key_names(tp, prefix + (f.name,))
        else:
            out.append(dotted(prefix + (f.name,)))
    return out
