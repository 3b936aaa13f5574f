"""Pile's print file: one page with the pile drawn as counters, through printkit's page model."""

from __future__ import annotations

from boardlab.layouts import print_conventions
from boardlab.printkit.packing import paper_size
from boardlab.printkit.pages import Page, PrintFile


def print_files(definition, options) -> list[PrintFile]:
    counters = definition.rules.start + max(definition.rules.die_faces)
    width, height = paper_size(print_conventions(), options.paper)

    def draw(canvas) -> None:
        canvas.text(20, 20, f"{definition.game.name}: {counters} counters", size=14)
        for i in range(counters):
            canvas.circle(20 + 12 * (i % 10), 40 + 12 * (i // 10), 5, fill="#1b1b1b")

    return [PrintFile(f"toygame-counters-{options.paper}", f"{definition.game.name} counters",
                      (Page(width, height, draw),))]
