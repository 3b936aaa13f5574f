"""Report charts label both axes, each at its own axis: under the plot what the categories (or x
values) are, up its left side what the values are.  Read back from the SVG the chart renders to
(the PDF draws the same reportlab Drawing)."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest
from reportlab.lib import colors

from boardlab.analysis import engines
from boardlab.analysis.report.build import translated
from boardlab.layouts.loader import load
from boardlab.layouts.terms import speaking
from boardlab.printkit.charts import ACCENT, chart_drawing, svg_text

RED = colors.HexColor("#b3261e")  # the histogram's marker
SVG = "{http://www.w3.org/2000/svg}"
Matrix = tuple[float, float, float, float, float, float]


def _parse(transform: str) -> Matrix:
    """An SVG transform attribute as one matrix (a, b, c, d, e, f)."""
    out: Matrix = (1, 0, 0, 1, 0, 0)
    for name, args in re.findall(r"(\w+)\(([^)]*)\)", transform or ""):
        v = [float(x) for x in re.split(r"[ ,]+", args.strip()) if x]
        if name == "matrix":
            m = tuple(v)
        elif name == "translate":
            m = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif name == "scale":
            m = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        else:
            raise AssertionError(f"transform {name} not read here")
        out = _times(out, m)  # type: ignore[arg-type]
    return out


def _times(p: Matrix, q: Matrix) -> Matrix:
    a, b, c, d, e, f = p
    A, B, C, D, E, F = q
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)


def texts(svg: str) -> list[tuple[str, float, float, bool]]:
    """Every text of the SVG: (text, x, y of its start on the page, turned a quarter or not);
    y grows downwards, as on the page."""
    out = []

    def walk(node, m: Matrix) -> None:
        m = _times(m, _parse(node.get("transform", "")))
        if node.tag == SVG + "text":
            x, y = float(node.get("x", 0)), float(node.get("y", 0))
            a, b, c, d, e, f = m
            turned = abs(a) < 1e-9 and abs(d) < 1e-9
            out.append(("".join(node.itertext()), a * x + c * y + e, b * x + d * y + f, turned))
        for child in node:
            walk(child, m)

    walk(ET.fromstring(svg.encode()), (1, 0, 0, 1, 0, 0))
    return out


def check_axes(block: dict, x_label: str, y_label: str, x_ticks: list[str], y_ticks: list[str]) -> None:
    """The x label, level, below every x tick label; the y label turned, left of every y tick label."""
    found = texts(svg_text(chart_drawing(block)))
    by_text = {}
    for text, x, y, turned in found:
        by_text.setdefault(text, []).append((x, y, turned))
    assert len(by_text.get(x_label, [])) == 1, (x_label, sorted(by_text))
    assert len(by_text.get(y_label, [])) == 1, (y_label, sorted(by_text))
    (xx, xy, x_turned), = by_text[x_label]
    (yx, yy, y_turned), = by_text[y_label]
    assert not x_turned and y_turned
    ticks_x = [p for t in x_ticks for p in by_text.get(t, []) if not p[2]]
    ticks_y = [p for t in y_ticks for p in by_text.get(t, []) if not p[2]]
    assert ticks_x and ticks_y, sorted(by_text)
    assert all(xy > y for _, y, _ in ticks_x)  # under the category axis
    assert all(yx < x for x, _, _ in ticks_y)  # left of the value axis
    # the x label is not left of the plot, the y label not below it
    assert min(x for x, _, _ in ticks_x) < xx + 1 and yy < max(y for _, y, _ in ticks_y) + 1


def test_the_dice_sum_chart_labels_the_sums_and_the_probability_in_spanish():
    definition = load("sixbysix")
    blocks, _ = engines.make_game(definition, 2).report_extras(1)
    with speaking("es"):
        block = translated(blocks[0])
    assert block["chart"] == "bars"
    assert (block["x_axis"], block["axis"]) == ("suma de los dados", "probabilidad")
    with speaking("es"):
        check_axes(block, "suma de los dados", "probabilidad", [str(s) for s in range(2, 13)], ["0,05", "0,1"])
    with speaking("en"):
        english = translated(blocks[0])
        check_axes(english, "dice sum", "probability", ["2", "7", "12"], ["0.05", "0.1"])


def test_whiskers_label_the_categories_below_and_the_share_at_the_left():
    block = {"chart": "whiskers", "title": "t", "categories": ["seat 1", "seat 2"], "values": [0.5, 0.45],
             "low": [0.45, 0.4], "high": [0.55, 0.5], "reference": 0.5, "x_axis": "seat",
             "axis": "share of decided games"}
    with speaking("en"):
        check_axes(block, "seat", "share of decided games", ["seat 1", "seat 2"], ["0%", "50%"])
        key = [t for t, *_ in texts(svg_text(chart_drawing(block))) if "dashed" in t]
        assert key == ["whiskers: 95% intervals; dashed: fair share"]
    rating = {**block, "scale": "rating", "reference": None, "values": [0, 250], "low": [0, 180], "high": [0, 320],
              "x_axis": "MCTS budget (iterations per move)", "axis": "rating (Elo)"}
    with speaking("en"):
        check_axes(rating, "MCTS budget (iterations per move)", "rating (Elo)", ["seat 1"], ["0", "300"])


def test_the_histogram_labels_the_length_below_and_the_games_at_the_left():
    block = {"chart": "histogram", "title": "t", "edges": [10.0, 20.0, 30.0, 40.0], "counts": [5, 9, 2],
             "axis": "turns", "marker": 25.0, "marker_label": "15 min stated"}
    with speaking("en"):
        check_axes(block, "turns", "games", ["10", "20", "30", "40"], ["0", "5"])
    with speaking("es"):
        check_axes({**block, "axis": "turnos"}, "turnos", "partidas", ["10"], ["0", "5"])


def test_the_histogram_draws_each_bin_from_edge_to_edge_and_the_marker_at_its_value():
    """Read from the drawing's shapes: each bar's left and right sides stand at its edges' labels,
    its height is its count on the value axis, the empty bin draws nothing, and the red line
    stands where the marker's value is, between the labels of 20 and 40."""
    from reportlab.graphics.shapes import Line, Rect, String

    block = {"chart": "histogram", "title": "t", "edges": [0.0, 20.0, 40.0, 60.0], "counts": [4, 10, 0],
             "axis": "table minutes", "marker": 30.0, "marker_label": "target 30 min"}
    with speaking("en"):
        drawing = chart_drawing(block)
    shapes = drawing.contents
    bars = [(r.x, r.width, r.height) for r in shapes if isinstance(r, Rect) and r.fillColor == ACCENT]
    labels = {t.text: t.x for t in shapes if isinstance(t, String)}
    assert len(bars) == 2
    assert [b[0] for b in bars] == pytest.approx([labels["0"], labels["20"]])
    assert [b[0] + b[1] for b in bars] == pytest.approx([labels["20"], labels["40"]])
    assert bars[1][2] / bars[0][2] == pytest.approx(10 / 4)
    reds = [line for line in shapes if isinstance(line, Line) and line.strokeColor == RED]
    assert len(reds) == 1 and reds[0].x1 == pytest.approx((labels["20"] + labels["40"]) / 2)


def test_lines_label_the_varied_key_below_and_the_metric_at_the_left():
    block = {"chart": "lines", "title": "t", "x_labels": ["10", "20", "30"], "x_values": [10.0, 20.0, 30.0],
             "series": [{"label": "a", "values": [0.5, 0.55, 0.6], "low": [0.45, 0.5, 0.55],
                         "high": [0.55, 0.6, 0.65]}],
             "format": "pct", "x_axis": "chips", "axis": "seat 1 wins", "reference": 0.5,
             "reference_label": "fair share"}
    with speaking("en"):
        check_axes(block, "chips", "seat 1 wins", ["10", "30"], ["50%", "60%"])


@pytest.mark.parametrize("kind", ["whiskers", "histogram", "bars", "lines"])
def test_no_chart_puts_its_value_label_under_the_categories(kind):
    """The mistake this file is about: the value axis' words, level, at the foot of the chart."""
    block = {"whiskers": {"categories": ["a", "b"], "values": [0.5, 0.5], "low": [0.4, 0.4], "high": [0.6, 0.6]},
             "histogram": {"edges": [0.0, 1.0, 2.0], "counts": [1, 2]},
             "bars": {"categories": ["a", "b"], "values": [0.2, 0.8]},
             "lines": {"x_labels": ["1", "2"], "series": [{"label": "s", "values": [1.0, 2.0], "low": [0.5, 1.5],
                                                           "high": [1.5, 2.5]}]}}[kind]
    block = {"chart": kind, "title": "t", "x_axis": "XAXIS", "axis": "VALUES", **block}
    with speaking("en"):
        found = texts(svg_text(chart_drawing(block)))
    values = [(x, y, turned) for t, x, y, turned in found if "VALUES" in t and t != "XAXIS"]
    if kind == "histogram":  # its values are games; VALUES names the x axis there
        assert any(turned for t, *_, turned in found if t == "games") and all(not v[2] for v in values)
        return
    assert values and all(turned for *_, turned in values)
    assert math.isclose(values[0][0], min(x for _, x, _, _ in found), abs_tol=1e-6)  # the leftmost text
