"""Report charts as reportlab.graphics drawings: one `Drawing` renders to both PDF and SVG.

`chart_drawing(block)` takes a chart block of a report document (see
`boardlab.analysis.report.document`) and returns a Drawing of `WIDTH` x `HEIGHT` points:

- whiskers: per category, the value as a dot and its 95% interval as a whisker, with the
  reference (a fair share) as a dashed line - a reportlab LinePlot, one series per whisker;
  shares from 0 (the default), or with `scale: "rating"` plain numbers over their own range;
- histogram: counts per bin, drawn from edge to edge with the edges on the axis, and the stated
  or target length as a marked line;
- bars: one value per category (a VerticalBarChart);
- grid: a heat map of values on a board (rectangles shaded by value, labels in the cells);
- lines: a metric against the values of a varied key, one line per series with its 95% band
  shaded round it, and a dashed reference line (a fair value, a stated time) where given.

Every chart but the grid labels both axes, each at its own: under the plot the block's `x_axis`
(what the categories or x values are: seat, dice sum, MCTS budget), up the plot's left side its
`axis` (what the values are, with their unit: share of decided games, probability, rating (Elo));
a histogram's are its `axis` (the bins' edges on it) and games.  The key to the marks (dashed line,
whiskers, red line, shaded band) stands in small type under the title.

>>> block = {"chart": "bars", "title": "t", "categories": ["a", "b"], "values": [0.2, 0.8], "axis": "p"}
>>> svg_text(chart_drawing(block)).startswith("<?xml")
True
"""

from __future__ import annotations

from typing import Mapping, Sequence

import math

from reportlab.graphics import renderSVG
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Group, Line, PolyLine, Polygon, Rect, String
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors

from boardlab.layouts.terms import respell, term

WIDTH, HEIGHT = 460.0, 200.0
FONT = "Helvetica"
INK = colors.HexColor("#222222")
ACCENT = colors.HexColor("#2b5797")
MUTED = colors.HexColor("#9e9e9e")
#: the lines of a lines chart, in order (told apart in greyscale by their dash patterns too)
SERIES = (ACCENT, colors.HexColor("#c0392b"), colors.HexColor("#2e7d32"), colors.HexColor("#6a1b9a"),
          colors.HexColor("#ef6c00"), colors.HexColor("#00838f"))
DASHES = (None, [4, 2], [1, 2], [6, 2, 1, 2], [2, 2], [8, 3])


def chart_drawing(block: dict) -> Drawing:
    """The drawing of one chart block.

    :raises ValueError: for an unknown chart kind.
    """
    kind = block["chart"]
    if kind == "whiskers":
        return _whiskers(block)
    if kind == "histogram":
        return _histogram(block)
    if kind == "bars":
        return _bars(block)
    if kind == "grid":
        return _grid(block)
    if kind == "lines":
        return _lines(block)
    raise ValueError(f"unknown chart kind {kind!r}")


def svg_text(drawing: Drawing) -> str:
    """The drawing as an SVG document."""
    return renderSVG.drawToString(drawing)


def _frame(title: str, height: float = HEIGHT) -> Drawing:
    drawing = Drawing(WIDTH, height)
    drawing.add(String(WIDTH / 2, height - 14, title, fontName=FONT, fontSize=10, fillColor=INK, textAnchor="middle"))
    return drawing


def _axis_label(drawing: Drawing, text: str, x: float, y: float) -> None:
    drawing.add(String(x, y, text, fontName=FONT, fontSize=8, fillColor=INK, textAnchor="middle"))


#: how far left of the drawing's edge the value axis' label stands (its letters' tops face left)
Y_LABEL_X = 12.0


def _axes(drawing: Drawing, x_text: str, y_text: str, box: tuple[float, float, float, float],
          key: list[str] | None = None) -> None:
    """Label both axes of a plot in `box` (x, y, width, height): what the categories or x values
    are under the plot, what the values are up its left side (turned a quarter), and the key to
    its marks (dashed lines, whiskers...) in small type under the title."""
    x, y, width, height = box
    _axis_label(drawing, x_text, x + width / 2, 6)
    drawing.add(Group(String(0, 0, y_text, fontName=FONT, fontSize=8, fillColor=INK, textAnchor="middle"),
                      transform=(0, 1, -1, 0, Y_LABEL_X, y + height / 2)))
    if key:
        drawing.add(String(WIDTH / 2, drawing.height - 26, "; ".join(key), fontName=FONT, fontSize=7,
                           fillColor=colors.HexColor("#555555"), textAnchor="middle"))


def _whiskers(block: dict) -> Drawing:
    drawing = _frame(block["title"])
    n = len(block["categories"])
    plot = LinePlot()
    plot.x, plot.y, plot.width, plot.height = 50, 35, WIDTH - 80, HEIGHT - 70
    series: list[list[tuple[float, float]]] = [[(i + 1, lo), (i + 1, hi)]
                                                for i, (lo, hi) in enumerate(zip(block["low"], block["high"]))]
    series.append([(i + 1, v) for i, v in enumerate(block["values"])])
    if block.get("reference") is not None:
        series.append([(0.5, block["reference"]), (n + 0.5, block["reference"])])
    plot.data = series
    for i in range(n):
        plot.lines[i].strokeColor, plot.lines[i].strokeWidth = ACCENT, 1.5
        plot.lines[i].symbol = makeMarker("Smiley", size=0)  # no dots at the whisker ends
    values = plot.lines[n]
    values.strokeColor = None
    values.strokeWidth = 0
    values.symbol = makeMarker("FilledCircle", size=5, fillColor=INK, strokeColor=INK)
    if block.get("reference") is not None:
        ref = plot.lines[n + 1]
        ref.strokeColor, ref.strokeWidth, ref.strokeDashArray = MUTED, 1, [3, 2]
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = 0.5, n + 0.5
    plot.xValueAxis.valueSteps = list(range(1, n + 1))
    plot.xValueAxis.labelTextFormat = lambda v: block["categories"][int(round(v)) - 1] if 1 <= round(v) <= n else ""
    plot.xValueAxis.labels.fontName = plot.yValueAxis.labels.fontName = FONT
    plot.xValueAxis.labels.fontSize = plot.yValueAxis.labels.fontSize = 8
    if block.get("scale") == "rating":
        step = 100 * max(1, math.ceil((max(block["high"]) - min(block["low"])) / 800))
        plot.yValueAxis.valueMin = step * math.floor(min(block["low"]) / step)
        plot.yValueAxis.valueMax = step * math.ceil(max(block["high"]) / step)
        plot.yValueAxis.valueStep = step
        plot.yValueAxis.labelTextFormat = lambda v: f"{v:.0f}"
    else:
        plot.yValueAxis.valueMin = 0
        plot.yValueAxis.valueMax = _nice_top(max(block["high"] + [block.get("reference") or 0]))
        plot.yValueAxis.labelTextFormat = lambda v: term("report.percent", n=f"{v * 100:.0f}")
    plot.yValueAxis.visibleGrid, plot.yValueAxis.gridStrokeColor = True, colors.HexColor("#e0e0e0")
    drawing.add(plot)
    key = [term("report.chart.whiskers")] + ([term("report.chart.fair")] if block.get("reference") else [])
    _axes(drawing, block.get("x_axis", ""), block.get("axis", ""), (plot.x, plot.y, plot.width, plot.height), key)
    return drawing


def _nice_top(value: float) -> float:
    for top in (0.05, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0):
        if value <= top:
            return top
    return 1.0


def _bar_chart(drawing: Drawing, categories: Sequence[str], values: Sequence[float], label_every: int = 1) -> VerticalBarChart:
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 50, 35, WIDTH - 80, HEIGHT - 70
    chart.data = [list(values)]
    chart.categoryAxis.categoryNames = [c if i % label_every == 0 else "" for i, c in enumerate(categories)]
    chart.categoryAxis.labels.fontName = chart.valueAxis.labels.fontName = FONT
    chart.categoryAxis.labels.fontSize = chart.valueAxis.labels.fontSize = 7
    chart.bars[0].fillColor, chart.bars[0].strokeColor = ACCENT, None
    chart.valueAxis.valueMin = 0
    chart.valueAxis.labelTextFormat = lambda v: respell(f"{v:.10g}")  # as the language writes it (0,05)
    chart.valueAxis.visibleGrid, chart.valueAxis.gridStrokeColor = True, colors.HexColor("#e0e0e0")
    chart.barSpacing = 0
    drawing.add(chart)
    return chart


def _bars(block: dict) -> Drawing:
    drawing = _frame(block["title"])
    cats = block["categories"]
    chart = _bar_chart(drawing, cats, block["values"], label_every=max(1, len(cats) // 20))
    _axes(drawing, block.get("x_axis", ""), block.get("axis", ""), (chart.x, chart.y, chart.width, chart.height))
    return drawing


def _histogram(block: dict) -> Drawing:
    """Counts per bin drawn edge to edge, the bin edges labelled on the axis (round numbers: the
    report bins lengths by 1, 2 or 5 times a power of ten) and the marker a dashed red line."""
    drawing = _frame(block["title"])
    edges, counts = block["edges"], block["counts"]
    x0, y0, width, height = 50.0, 35.0, WIDTH - 80, HEIGHT - 70
    ticks = nice_ticks(0, max(counts, default=0) or 1)
    top = ticks[-1]
    low, high = (edges[0], edges[-1]) if len(edges) > 1 else (0.0, 1.0)
    span = (high - low) or 1

    def px(value: float) -> float:
        return x0 + width * (value - low) / span

    for t in ticks:
        y = y0 + height * t / top
        drawing.add(Line(x0, y, x0 + width, y, strokeColor=colors.HexColor("#e0e0e0"), strokeWidth=0.5))
        drawing.add(String(x0 - 4, y - 2.5, respell(f"{t:g}"), fontName=FONT, fontSize=7, fillColor=INK,
                           textAnchor="end"))
    for left, right, count in zip(edges, edges[1:], counts):
        if count:
            drawing.add(Rect(px(left), y0, px(right) - px(left), height * count / top, fillColor=ACCENT,
                             strokeColor=colors.white, strokeWidth=0.5))
    every = max(1, -(-(len(edges) - 1) // 12))
    for i, edge in enumerate(edges):
        drawing.add(Line(px(edge), y0, px(edge), y0 - 3, strokeColor=INK, strokeWidth=0.5))
        if i % every == 0:
            drawing.add(String(px(edge), y0 - 11, respell(f"{edge:,.10g}"), fontName=FONT, fontSize=7, fillColor=INK,
                               textAnchor="middle"))
    drawing.add(Line(x0, y0, x0 + width, y0, strokeColor=INK, strokeWidth=0.6))
    drawing.add(Line(x0, y0, x0, y0 + height, strokeColor=INK, strokeWidth=0.6))
    marker = block.get("marker")
    key = []
    if marker is not None and len(edges) > 1:
        if low <= marker <= high:
            drawing.add(Line(px(marker), y0, px(marker), y0 + height, strokeColor=colors.HexColor("#b3261e"),
                             strokeWidth=1.2, strokeDashArray=[3, 2]))
            key.append(term("report.chart.marker", label=block.get('marker_label', '')))
        else:
            key.append(term("report.chart.marker_off", label=block.get('marker_label', ''), value=f"{marker:.0f}",
                            axis=block.get('axis', '')))
    _axes(drawing, block.get("axis", ""), term("report.chart.games"), (x0, y0, width, height), key)
    return drawing


def _grid(block: dict) -> Drawing:
    values, labels = block["values"], block["labels"]
    rows, columns = len(values), len(values[0])
    cell = min(40.0, (WIDTH - 40) / columns)
    height = rows * cell + 50
    drawing = _frame(block["title"], height)
    present = [v for row in values for v in row if v is not None]
    low, high = (min(present), max(present)) if present else (0, 1)
    left = (WIDTH - columns * cell) / 2
    for r in range(rows):
        for c in range(columns):
            v = values[r][c]
            x, y = left + c * cell, height - 24 - (r + 1) * cell
            if v is None:
                fill = colors.HexColor("#bdbdbd")
            else:
                t = (v - low) / (high - low) if high > low else 1.0
                fill = colors.Color(1 - 0.75 * t, 1 - 0.55 * t, 1 - 0.2 * t)
            drawing.add(Rect(x, y, cell, cell, fillColor=fill, strokeColor=colors.white, strokeWidth=1))
            ink = colors.white if v is not None and high > low and (v - low) / (high - low) > 0.6 else INK
            drawing.add(String(x + cell / 2, y + cell / 2 + 2, "" if v is None else str(v), fontName=FONT,
                               fontSize=9, fillColor=ink, textAnchor="middle"))
            drawing.add(String(x + cell / 2, y + 4, labels[r][c], fontName=FONT, fontSize=6, fillColor=ink,
                               textAnchor="middle"))
    _axis_label(drawing, term("report.chart.shades", axis=block.get('axis', ''), low=respell(str(low)),
                              high=respell(str(high))), WIDTH / 2, 6)
    return drawing


def value_label(value: float, fmt: str) -> str:
    """An axis label of a value in a table format: pct as percent, pp as signed points, else a
    number; as the language being written writes them (`layouts.terms.speaking`).

    >>> value_label(0.25, "pct"), value_label(-0.05, "pp"), value_label(12.5, "f1")
    ('25%', '-5 pts', '12.5')
    >>> from boardlab.layouts.terms import speaking
    >>> with speaking("es"):
    ...     value_label(0.125, "pct"), value_label(-0.05, "pp"), value_label(12500, "f1")
    ('12,5\\xa0%', '-5 puntos', '12\\xa0500')
    """
    digits = 0 if abs(value * 100 - round(value * 100)) < 1e-9 else 1
    if fmt == "pct":
        return term("report.percent", n=respell(f"{value * 100:.{digits}f}"))
    if fmt == "pp":
        return term("report.pts", n=respell(f"{value * 100:+.{digits}f}" if value else "0"))
    if abs(value) >= 100:
        return respell(f"{value:,.0f}")
    return respell(f"{value:g}" if value == round(value, 1) else f"{value:.2f}")


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering low..high (about `count` of them).

    >>> nice_ticks(0, 1)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> nice_ticks(13, 47)
    [10.0, 20.0, 30.0, 40.0, 50.0]
    """
    import math

    if high <= low:
        high = low + (abs(low) or 1) * 0.1
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step + 1e-9) * step
    ticks = []
    value = first
    while value < high + step * 0.999:
        ticks.append(float(round(value, 10)))
        value += step
    return ticks


def _lines(block: dict) -> Drawing:
    """Series of values (with low/high bands) against x positions; None values leave a gap."""
    series = block["series"]
    labels = block["x_labels"]
    xs = block.get("x_values") or list(range(1, len(labels) + 1))
    legend_rows = (len(series) + 2) // 3 if len(series) > 1 else 0
    drawing = _frame(block["title"], HEIGHT + 12 * legend_rows + 10)  # and a line for the key
    x0, y0 = 55.0, 38.0
    width, height = WIDTH - x0 - 20, HEIGHT - 75
    present = [v for s in series for key in ("values", "low", "high") for v in s[key] if v is not None]
    if block.get("reference") is not None:
        present.append(block["reference"])
    ticks = nice_ticks(min(present), max(present)) if present else [0.0, 1.0]
    lo_y, hi_y = ticks[0], ticks[-1]
    lo_x, hi_x = min(xs), max(xs)
    pad = (hi_x - lo_x) * 0.04 or 0.5
    lo_x, hi_x = lo_x - pad, hi_x + pad

    def px(x: float) -> float:
        return x0 + width * (x - lo_x) / (hi_x - lo_x)

    def py(y: float) -> float:
        return y0 + height * (y - lo_y) / ((hi_y - lo_y) or 1)

    fmt = block.get("format", "f1")
    for t in ticks:
        drawing.add(Line(x0, py(t), x0 + width, py(t), strokeColor=colors.HexColor("#e0e0e0"), strokeWidth=0.5))
        drawing.add(String(x0 - 4, py(t) - 2.5, value_label(t, fmt), fontName=FONT, fontSize=7, fillColor=INK,
                           textAnchor="end"))
    every = max(1, len(labels) // 12)
    for i, (x, label) in enumerate(zip(xs, labels)):
        drawing.add(Line(px(x), y0, px(x), y0 - 3, strokeColor=INK, strokeWidth=0.5))
        if i % every == 0:
            drawing.add(String(px(x), y0 - 11, label, fontName=FONT, fontSize=7, fillColor=INK, textAnchor="middle"))
    drawing.add(Line(x0, y0, x0 + width, y0, strokeColor=INK, strokeWidth=0.6))
    drawing.add(Line(x0, y0, x0, y0 + height, strokeColor=INK, strokeWidth=0.6))
    if block.get("reference") is not None:
        r = py(block["reference"])
        drawing.add(Line(x0, r, x0 + width, r, strokeColor=MUTED, strokeWidth=1, strokeDashArray=[3, 2]))
    for k, s in enumerate(series):
        colour, dash = SERIES[k % len(SERIES)], DASHES[k % len(DASHES)]
        for run in _runs(xs, s):
            if len(run) > 1:
                band = [c for x, _, _, hi in run for c in (px(x), py(hi))] + \
                       [c for x, _, lo, _ in reversed(run) for c in (px(x), py(lo))]
                drawing.add(Polygon(band, fillColor=colour, fillOpacity=0.15, strokeColor=None, strokeWidth=0))
                drawing.add(PolyLine([c for x, v, _, _ in run for c in (px(x), py(v))], strokeColor=colour,
                                     strokeWidth=1.4, strokeDashArray=dash))
            for x, v, lo, hi in run:
                if len(run) == 1:  # a lone point: its interval as a whisker
                    drawing.add(Line(px(x), py(lo), px(x), py(hi), strokeColor=colour, strokeWidth=1.2))
                drawing.add(Rect(px(x) - 1.8, py(v) - 1.8, 3.6, 3.6, fillColor=colour, strokeColor=None))
        if legend_rows:
            row, column = divmod(k, 3)
            lx, ly = x0 + column * width / 3, HEIGHT + 12 * legend_rows - 28 - 12 * row
            drawing.add(Line(lx, ly + 3, lx + 14, ly + 3, strokeColor=colour, strokeWidth=1.4, strokeDashArray=dash))
            drawing.add(String(lx + 18, ly, s["label"], fontName=FONT, fontSize=7, fillColor=INK))
    banded = any(lo != hi for s in series for lo, hi in zip(s["low"], s["high"]))
    key = [term("report.chart.band")] if banded else []  # means alone (a game's own figures) have no band
    if block.get("reference") is not None:
        key.append(term("report.chart.reference", label=block.get('reference_label', 'reference')))
    _axes(drawing, block.get("x_axis", ""), block.get("axis", ""), (x0, y0, width, height), key)
    return drawing


def _runs(xs: Sequence[float], s: Mapping[str, Sequence[float | None]]) -> list[list[tuple[float, float, float, float]]]:
    """The stretches of consecutive points that have a value (None: a refused point, a gap)."""
    runs: list[list[tuple[float, float, float, float]]] = [[]]
    for x, v, lo, hi in zip(xs, s["values"], s["low"], s["high"]):
        if v is None or lo is None or hi is None:
            runs.append([])
        else:
            runs[-1].append((x, v, lo, hi))
    return [r for r in runs if r]
