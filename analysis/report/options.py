"""The rule options of a definition and their alternatives, read from its schema.

A rule option is a field of the definition's `rules` section.  A choice between readings - a
field typed as one of several words (`Literal`) or true/false - has alternatives: every other
word, or the other truth value.  Numbers (chips, caps, step ranges) are not choices between
readings; they are listed as not varied.

>>> from boardlab.layouts import load
>>> alternatives, skipped = rule_alternatives(load("sixbysix"))
>>> [(name, value) for name, value in alternatives if name == "unclaimed_bank"]
[('unclaimed_bank', 'house')]
"""

from __future__ import annotations

import dataclasses
import typing
from typing import TYPE_CHECKING, Any, Callable, Literal

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition

#: `rule_alternatives` and `with_rule` take (and give) Any: a game's own `Definition`, whose `rules`
#: section is the game's and not declared by `GameDefinition`
#: how a report names a rule option at a value (`rule_namer`): (option, value) -> text
RuleNamer = Callable[[str, object], str]


def rule_alternatives(definition: Any) -> tuple[list[tuple[str, object]], list[tuple[str, str]]]:
    """([(option, alternative value)], [(option, why not varied)]) in the order the schema lists them."""
    rules = definition.rules
    hints = typing.get_type_hints(type(rules))
    alternatives, skipped = [], []
    for f in dataclasses.fields(rules):
        tp, current = hints[f.name], getattr(rules, f.name)
        if typing.get_origin(tp) is Literal:
            alternatives += [(f.name, v) for v in typing.get_args(tp) if v != current]
        elif tp is bool:
            alternatives.append((f.name, not current))
        else:
            skipped.append((f.name, f"now {_text(current)}"))
    return alternatives, skipped


def _text(value: object) -> str:
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def with_rule(definition: Any, option: str, value: object) -> Any:
    """The definition with one rule option changed; its variant name says which.

    The result is not re-checked as a file would be: an engine that cannot play the
    combination raises its own error (a report shows it as not playable).
    """
    rules = dataclasses.replace(definition.rules, **{option: value})
    changed = dataclasses.replace(definition, rules=rules)
    shown = ("true" if value else "false") if isinstance(value, bool) else value
    return dataclasses.replace(changed, variant=f"{definition.variant} with {option} = {shown}")


def rule_problem(definition: GameDefinition) -> str | None:
    """The first problem the game's own `check()` finds in a definition changed in memory (a rule
    alternative, `with_rule`), as "KEY: what"; None when the game takes it.  A combination the
    definition cannot take - Links' master_links = "match" on a card list without the masters'
    ends - is then skipped and named, never played into an engine's error.

    >>> from boardlab.layouts import load
    >>> rule_problem(with_rule(load("links"), "master_links", "match")) is None
    True
    """
    from boardlab.layouts.registry import game_part
    from boardlab.layouts.schema import dotted

    problems: list[str] = []
    game_part(definition.game.id, "definition").check(
        definition, lambda path, message, allowed="": problems.append(f"{dotted(path)}: {message}"))
    return problems[0] if problems else None


def model_agent(definition: GameDefinition) -> str:
    """The agent that models a player in reports and comparisons: the definition's `analysis.agent`, else random."""
    analysis = getattr(definition, "analysis", None)
    return getattr(analysis, "agent", None) or "random"


def option_value_text(value: object) -> str:
    """A rule option's value as the definition file and the rulebook's conditions write it.

    >>> option_value_text(False), option_value_text("house")
    ('false', 'house')
    """
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def rule_namer(definition: GameDefinition, language: str = "en") -> RuleNamer:
    """A function (option, value) -> how a report names that rule: the name the game's rulebook
    gives it among its optional rules, with the key in brackets ("Walled grid (`torus = false`)"),
    or the key alone when the rulebook names none."""
    from boardlab.layouts.errors import BoardlabError
    from boardlab.layouts.rulebook_markup import option_names, read_text

    languages = getattr(getattr(definition, "rulebook", None), "languages", ()) or (language,)
    try:
        names = option_names(read_text(definition.game.id, language if language in languages else languages[0]))
    except BoardlabError:
        names = {}

    def name(option: str, value: object) -> str:
        key = f"`{option} = {option_value_text(value)}`"
        found = names.get((option, option_value_text(value)))
        return f"{found} ({key})" if found else key
    return name
