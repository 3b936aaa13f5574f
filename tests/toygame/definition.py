"""Pile's definition: the shared sections plus [rules]."""

from __future__ import annotations

from dataclasses import dataclass, field

from boardlab.layouts.common import GameDefinition, PrintSettings
from boardlab.layouts.schema import limits


@dataclass(frozen=True)
class Rules:
    start: int = field(metadata=limits(min=0, max=100))
    die_faces: tuple[int, ...] = field(metadata=limits(min=1))
    take_max: int = field(metadata=limits(min=1, max=10))
    max_turns: int = field(metadata=limits(min=1, max=10000))


@dataclass(frozen=True)
class Definition(GameDefinition):
    rules: Rules
    print: PrintSettings


def check(d: Definition, report) -> None:
    if any(face < 1 for face in d.rules.die_faces):
        report(("rules", "die_faces"), "a face below 1", "faces of 1 or more")
