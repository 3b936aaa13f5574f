"""Drawings inside a rulebook: any printkit drawing (in mm) as a platypus flowable.

A `Figure` takes a function that draws through printkit's `Canvas` in millimetres with y down,
and scales it into the room it is given, so the rulebook shows the very art the print files
carry (the same components, made by the same code).

>>> f = Figure(lambda canvas: canvas.circle(5, 5, 4, fill="#000000"), 10, 10, max_width=20)
>>> round(f.wrap(1000, 1000)[0] / POINTS_PER_MM, 3)
20.0
"""

from __future__ import annotations

from typing import Callable

from reportlab.platypus import Flowable

from boardlab.printkit.draw import Canvas
from boardlab.printkit.pages import Component
from boardlab.printkit.pdf import PdfCanvas
from boardlab.printkit.units import POINTS_PER_MM


class Figure(Flowable):
    """A printkit drawing of `width` x `height` mm, scaled to `max_width` (and `max_height`) mm."""

    def __init__(self, draw: Callable[[Canvas], None], width: float, height: float, *,
                 max_width: float | None = None, max_height: float | None = None, align: str = "CENTER"):
        super().__init__()
        self.draw_mm = draw
        self.width_mm, self.height_mm = width, height
        scale = 1.0
        if max_width is not None:
            scale = max_width / width
        if max_height is not None:
            scale = min(scale, max_height / height)
        self.scale = scale
        self.hAlign = align

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        scale = min(self.scale, available_width / (self.width_mm * POINTS_PER_MM))
        self.used_scale = scale
        return self.width_mm * scale * POINTS_PER_MM, self.height_mm * scale * POINTS_PER_MM

    def draw(self) -> None:
        pdf = self.canv
        width, height = self.width_mm * self.used_scale, self.height_mm * self.used_scale
        pdf.saveState()
        pdf.translate(0, height * POINTS_PER_MM)
        pdf.scale(POINTS_PER_MM * self.used_scale, -POINTS_PER_MM * self.used_scale)
        self.draw_mm(PdfCanvas(pdf, width, height))
        pdf.restoreState()


def component_figure(component: Component, size: float) -> Figure:
    """A printkit `Component` (a card face, a net, a standee) as a thumbnail at most `size` mm."""
    return Figure(component.draw, component.width, component.height, max_width=size, max_height=size)
