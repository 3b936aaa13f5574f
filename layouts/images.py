"""The designer's own pictures: PNG, JPEG and SVG files read and checked for the print files.

A definition names an image in `[art]` (per card kind, the backs, a board, a token, a standee)
or in a card list's `image` column; the path is taken relative to the file that names it and
must stay inside the folder of the definition that names it (or names its card list).  The
loader checks every image when the definition is loaded (`check_images`): a missing file, one
that cannot be read, one that is not a PNG, JPEG or SVG image, or a path leaving the folder is a
`FILE:LINE: KEY: ...` problem, so every command refuses the definition before writing anything.

Raster images are read with Pillow.  A CMYK or 16-bit image is converted (to RGB, to 8 bits)
and `Picture.converted` says so, for `check` to tell the designer; any other mode is drawn as it is.

SVG files are drawn as vector art through the same drawing calls as every other shape (so
they stay sharp in the PDF and in the SVG files), from a subset of SVG: the shapes `path`,
`rect`, `circle`, `ellipse`, `line`, `polyline` and `polygon`, in groups (`g`), with `fill`,
`stroke`, `stroke-width` (attributes or a `style`), and `transform`s; every path command
(arcs too).  Anything else that draws (text, embedded images, gradients, `use`) is refused with
its line, rather than printed wrong; `title`, `desc`, `metadata` and editors' own elements are
skipped.

>>> svg = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect width="20" height="10" fill="#f00"/></svg>'
>>> picture = read_svg(svg, "logo.svg")
>>> picture.kind, picture.width, picture.height, picture.shapes[0].fill
('svg', 20.0, 10.0, '#ff0000')
"""

from __future__ import annotations

import functools
import io
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from boardlab.common.files import UnreadableFile, read_bounded

#: the largest image file read (a card's art at 600 dpi is a few MB)
MAX_IMAGE_BYTES = 50_000_000
#: the most pixels an image may have (Pillow's own guard against decompression bombs is near here)
MAX_PIXELS = 90_000_000
#: the most shapes an SVG may draw
MAX_SVG_SHAPES = 20_000

#: what a picture's file may be
KINDS = ("png", "jpeg", "svg")


class ImageProblem(Exception):
    """Why an image cannot be used: one short clause ("no such file art/x.png")."""


@dataclass(frozen=True)
class Shape:
    """One SVG shape as path commands ("M", "L", "C", "Z") in the picture's own units (its
    viewBox, origin at the box's top-left), with its paint; `width` is the stroke's width."""

    commands: tuple[tuple, ...]
    fill: str | None
    stroke: str | None
    width: float


@dataclass(frozen=True)
class Picture:
    """An image ready to draw: its kind, its size (pixels, or an SVG's viewBox units), and the
    bytes a PDF or an SVG embeds (PNG or JPEG) or its shapes (SVG)."""

    path: str  # the file, as shown
    kind: Literal["png", "jpeg", "svg"]
    width: float
    height: float
    data: bytes = b""  # raster: the file's bytes, or a PNG of the converted image
    shapes: tuple[Shape, ...] = ()
    converted: str = ""  # raster: what was converted ("CMYK to RGB"), empty when nothing was
    digest: str = field(default="", compare=False)

    @property
    def raster(self) -> bool:
        return self.kind != "svg"

    @property
    def mime(self) -> str:
        return "image/jpeg" if self.kind == "jpeg" else "image/png"


def read_picture(path: Path, shown: str | None = None) -> Picture:
    """The picture in the file `path` (cached by the file's path, size and modification time).

    :raises ImageProblem: when it is missing, unreadable, not a PNG, JPEG or SVG, or too large.
    """
    import stat

    shown = shown or str(path)
    try:
        status = path.stat()
    except OSError:  # missing or unreadable: read_bounded says which
        status = None
    if status is None or not stat.S_ISREG(status.st_mode):  # refused by read_bounded, saying why; nothing cached
        return _read.__wrapped__(str(path), shown, 0, 0)
    return _read(str(path), shown, status.st_size, status.st_mtime_ns)


@functools.lru_cache(maxsize=256)
def _read(path: str, shown: str, size: int, mtime: int) -> Picture:
    try:
        data = read_bounded(path, MAX_IMAGE_BYTES, shown=shown, encoding=None)
    except UnreadableFile as err:
        raise ImageProblem(str(err)) from None
    if data.startswith(b"\x89PNG\r\n\x1a\n") or data.startswith(b"\xff\xd8\xff"):
        return read_raster(data, shown)
    head = data[:1024].lstrip().lower()
    if head.startswith((b"<?xml", b"<svg", b"<!--", b"<!doctype svg")) and b"<svg" in data[:4096].lower():
        return read_svg(data, shown)
    raise ImageProblem(f"{shown} is not a PNG, JPEG or SVG image")


def png_bit_depth(data: bytes) -> int:
    """The bit depth a PNG's header states (8 for a JPEG).

    >>> png_bit_depth(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(8) + bytes(8) + bytes([16]))
    16
    """
    if data.startswith(b"\x89PNG") and len(data) > 24:
        return data[24]
    return 8


def read_raster(data: bytes, shown: str) -> Picture:
    """A PNG or JPEG picture; a CMYK or 16-bit one converted to 8-bit RGB (said in `converted`).

    :raises ImageProblem: when Pillow cannot decode it, or it is too large.
    """
    from PIL import Image

    kind: Literal["png", "jpeg"] = "png" if data.startswith(b"\x89PNG") else "jpeg"
    try:
        with Image.open(io.BytesIO(data)) as probe:
            width, height = probe.size
            if width * height > MAX_PIXELS:
                raise ImageProblem(f"{shown} has {width} x {height} pixels (at most {MAX_PIXELS:,} in all)")
            probe.verify()
        image: Image.Image = Image.open(io.BytesIO(data))
        image.load()
    except ImageProblem:
        raise
    except Exception as err:  # Pillow raises many kinds for a broken file
        raise ImageProblem(f"{shown} is not a readable {kind.upper()} image ({type(err).__name__})") from None
    depth = png_bit_depth(data)
    converted = []
    if image.mode == "CMYK":
        converted.append("CMYK to RGB")
        image = image.convert("RGB")
    if depth == 16 or image.mode in ("I", "I;16", "I;16B", "I;16L", "F"):
        converted.append("16 bits to 8")
        if image.mode in ("I", "I;16", "I;16B", "I;16L", "F"):  # one grey channel of 0..65535: to 0..255
            import numpy

            levels = numpy.asarray(image, dtype=numpy.float64)
            image = Image.fromarray(numpy.clip(numpy.rint(levels / 257), 0, 255).astype(numpy.uint8))
    if image.mode not in ("RGB", "RGBA", "L", "LA", "P"):
        converted.append(f"{image.mode} to RGB")
        image = image.convert("RGBA" if "A" in image.mode else "RGB")
    if converted:
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        data, kind = buffer.getvalue(), "png"
    return Picture(shown, kind, float(width), float(height), data=data, converted=", ".join(converted))


# -- SVG ---------------------------------------------------------------------------------------

SVG_NS = "{http://www.w3.org/2000/svg}"
#: elements skipped: they draw nothing
SKIPPED = {"title", "desc", "metadata", "defs", "style", "namedview"}
#: the CSS colour names an SVG editor writes most
NAMED = {"black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000", "blue": "#0000ff",
         "yellow": "#ffff00", "orange": "#ffa500", "purple": "#800080", "grey": "#808080", "gray": "#808080",
         "brown": "#a52a2a", "pink": "#ffc0cb", "gold": "#ffd700", "navy": "#000080", "maroon": "#800000",
         "olive": "#808000", "teal": "#008080", "silver": "#c0c0c0", "lime": "#00ff00", "cyan": "#00ffff",
         "magenta": "#ff00ff", "darkgreen": "#006400", "darkred": "#8b0000", "darkblue": "#00008b"}
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def colour(value: str | None, where: str) -> str | None:
    """An SVG paint as "#rrggbb", None for "none".

    >>> colour("#0a8", ""), colour("rgb(255, 0, 16)", ""), colour("Navy", ""), colour("none", "")
    ('#00aa88', '#ff0010', '#000080', None)
    """
    if value is None:
        return None
    text = value.strip().lower()
    if text in ("none", "transparent"):
        return None
    if re.fullmatch(r"#[0-9a-f]{6}", text):
        return text
    if re.fullmatch(r"#[0-9a-f]{3}", text):
        return "#" + "".join(c * 2 for c in text[1:])
    m = re.fullmatch(r"rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)", text)
    if m:
        return "#" + "".join(f"{min(int(v), 255):02x}" for v in m.groups())
    if text in NAMED:
        return NAMED[text]
    raise ImageProblem(f"{where}: the paint {value!r} is not drawn (a colour: #rrggbb, #rgb, rgb(), a name, none)")


def multiply(outer: Matrix, inner: Matrix) -> Matrix:
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


def transform_of(text: str, where: str) -> Matrix:
    """The matrix of an SVG `transform` attribute.

    >>> transform_of("translate(10 5) scale(2)", "")
    (2.0, 0.0, 0.0, 2.0, 10.0, 5.0)
    """
    matrix = IDENTITY
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text):
        v = [float(x) for x in NUMBER.findall(args)]
        if name == "matrix" and len(v) == 6:
            step = tuple(v)
        elif name == "translate" and v:
            step = (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "scale" and v:
            step = (v[0], 0.0, 0.0, v[1] if len(v) > 1 else v[0], 0.0, 0.0)
        elif name == "rotate" and v:
            t = math.radians(v[0])
            step = (math.cos(t), math.sin(t), -math.sin(t), math.cos(t), 0.0, 0.0)
            if len(v) == 3:
                step = multiply(multiply((1, 0, 0, 1, v[1], v[2]), step), (1, 0, 0, 1, -v[1], -v[2]))
        elif name == "skewX" and v:
            step = (1.0, 0.0, math.tan(math.radians(v[0])), 1.0, 0.0, 0.0)
        elif name == "skewY" and v:
            step = (1.0, math.tan(math.radians(v[0])), 0.0, 1.0, 0.0, 0.0)
        else:
            raise ImageProblem(f"{where}: the transform {name}({args.strip()}) is not understood")
        matrix = multiply(matrix, step)  # type: ignore[arg-type]
    return matrix


def _arc(x1: float, y1: float, rx: float, ry: float, phi: float, large: bool, sweep: bool, x2: float,
         y2: float) -> list[tuple]:
    """An SVG elliptical arc as cubic Bézier commands (the SVG specification's conversion to the
    centre parametrisation, then at most a quarter turn per curve)."""
    if rx == 0 or ry == 0 or (x1 == x2 and y1 == y2):
        return [("L", x2, y2)]
    rx, ry = abs(rx), abs(ry)
    cos, sin = math.cos(math.radians(phi)), math.sin(math.radians(phi))
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    xp, yp = cos * dx + sin * dy, -sin * dx + cos * dy
    scale = xp * xp / (rx * rx) + yp * yp / (ry * ry)
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    num = rx * rx * ry * ry - rx * rx * yp * yp - ry * ry * xp * xp
    den = rx * rx * yp * yp + ry * ry * xp * xp
    k = math.sqrt(max(num / den, 0.0)) * (-1 if large == sweep else 1)
    cxp, cyp = k * rx * yp / ry, -k * ry * xp / rx
    cx, cy = cos * cxp - sin * cyp + (x1 + x2) / 2, sin * cxp + cos * cyp + (y1 + y2) / 2

    def angle(ux: float, uy: float, vx: float, vy: float) -> float:
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    start = angle(1, 0, (xp - cxp) / rx, (yp - cyp) / ry)
    delta = angle((xp - cxp) / rx, (yp - cyp) / ry, (-xp - cxp) / rx, (-yp - cyp) / ry)
    if not sweep and delta > 0:
        delta -= 2 * math.pi
    elif sweep and delta < 0:
        delta += 2 * math.pi
    parts = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / parts
    t = 4 / 3 * math.tan(step / 4)
    out = []

    def point(theta: float) -> tuple[float, float]:
        ex, ey = rx * math.cos(theta), ry * math.sin(theta)
        return cos * ex - sin * ey + cx, sin * ex + cos * ey + cy

    def tangent(theta: float) -> tuple[float, float]:
        ex, ey = -rx * math.sin(theta), ry * math.cos(theta)
        return cos * ex - sin * ey, sin * ex + cos * ey

    for i in range(parts):
        a, b = start + i * step, start + (i + 1) * step
        (ax, ay), (bx, by) = point(a), point(b)
        (tax, tay), (tbx, tby) = tangent(a), tangent(b)
        out.append(("C", ax + t * tax, ay + t * tay, bx - t * tbx, by - t * tby, bx, by))
    return out


def path_commands(d: str, where: str) -> list[tuple]:
    """An SVG path's `d` as absolute "M", "L", "C" and "Z" commands (every SVG command converted).

    >>> path_commands("m1 2 h3 v4 z", "")
    [('M', 1.0, 2.0), ('L', 4.0, 2.0), ('L', 4.0, 6.0), ('Z',)]
    >>> [round(v, 4) for v in path_commands("M0 0 Q 3 3 6 0", "")[1][1:]]
    [2.0, 2.0, 4.0, 2.0, 6.0, 0.0]
    """
    tokens = re.findall(r"[MmLlHhVvCcSsQqTtAaZz]|" + NUMBER.pattern, d)
    out: list[tuple] = []
    x = y = sx = sy = 0.0
    last_control: tuple[float, float] | None = None
    last_quad: tuple[float, float] | None = None
    command = ""
    i = 0
    counts = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}

    def flag(text: str) -> float:
        return float(text)

    while i < len(tokens):
        token = tokens[i]
        if token.isalpha():
            command = token
            i += 1
            if command in "Zz":
                out.append(("Z",))
                x, y = sx, sy
                last_control = last_quad = None
                continue
        elif not command or command in "Zz":
            raise ImageProblem(f"{where}: a path's numbers come before its first command")
        need = counts[command.upper()]
        args = tokens[i:i + need]
        if len(args) < need or any(a.isalpha() for a in args):
            raise ImageProblem(f"{where}: the path command {command} lacks numbers")
        v = [flag(a) for a in args]
        i += need
        relative = command.islower()
        kind = command.upper()
        ox, oy = (x, y) if relative else (0.0, 0.0)
        control, quad = None, None
        if kind == "M":
            x, y = v[0] + ox, v[1] + oy
            sx, sy = x, y
            out.append(("M", x, y))
            command = "l" if relative else "L"  # further pairs are lines
        elif kind == "L":
            x, y = v[0] + ox, v[1] + oy
            out.append(("L", x, y))
        elif kind == "H":
            x = v[0] + (x if relative else 0.0)
            out.append(("L", x, y))
        elif kind == "V":
            y = v[0] + (y if relative else 0.0)
            out.append(("L", x, y))
        elif kind in ("C", "S"):
            if kind == "C":
                x1, y1, x2, y2, ex, ey = v[0] + ox, v[1] + oy, v[2] + ox, v[3] + oy, v[4] + ox, v[5] + oy
            else:
                x1, y1 = (2 * x - last_control[0], 2 * y - last_control[1]) if last_control else (x, y)
                x2, y2, ex, ey = v[0] + ox, v[1] + oy, v[2] + ox, v[3] + oy
            out.append(("C", x1, y1, x2, y2, ex, ey))
            control = (x2, y2)
            x, y = ex, ey
        elif kind in ("Q", "T"):
            if kind == "Q":
                qx, qy, ex, ey = v[0] + ox, v[1] + oy, v[2] + ox, v[3] + oy
            else:
                qx, qy = (2 * x - last_quad[0], 2 * y - last_quad[1]) if last_quad else (x, y)
                ex, ey = v[0] + ox, v[1] + oy
            out.append(("C", x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey),
                        ex, ey))
            quad = (qx, qy)
            x, y = ex, ey
        elif kind == "A":
            ex, ey = v[5] + ox, v[6] + oy
            out += _arc(x, y, v[0], v[1], v[2], bool(v[3]), bool(v[4]), ex, ey)
            x, y = ex, ey
        last_control, last_quad = control, quad
    return out


def _length(text: str | None, where: str, default: float = 0.0) -> float:
    if text is None or not text.strip():
        return default
    m = re.fullmatch(r"\s*(" + NUMBER.pattern + r")\s*(px|mm|pt|)?\s*", text)
    if not m:
        raise ImageProblem(f"{where}: the length {text!r} is not a number")
    return float(m.group(1))


def _ellipse(cx: float, cy: float, rx: float, ry: float) -> list[tuple]:
    k = 0.5522847498307936  # the control distance of a quarter circle, as a share of the radius
    return [("M", cx + rx, cy), ("C", cx + rx, cy + k * ry, cx + k * rx, cy + ry, cx, cy + ry),
            ("C", cx - k * rx, cy + ry, cx - rx, cy + k * ry, cx - rx, cy),
            ("C", cx - rx, cy - k * ry, cx - k * rx, cy - ry, cx, cy - ry),
            ("C", cx + k * rx, cy - ry, cx + rx, cy - k * ry, cx + rx, cy), ("Z",)]


def _rect(x: float, y: float, w: float, h: float, rx: float, ry: float) -> list[tuple]:
    if rx <= 0 and ry <= 0:
        return [("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",)]
    rx, ry = min(rx or ry, w / 2), min(ry or rx, h / 2)
    k = 0.5522847498307936
    return [("M", x + rx, y), ("L", x + w - rx, y), ("C", x + w - rx + k * rx, y, x + w, y + ry - k * ry, x + w, y + ry),
            ("L", x + w, y + h - ry), ("C", x + w, y + h - ry + k * ry, x + w - rx + k * rx, y + h, x + w - rx, y + h),
            ("L", x + rx, y + h), ("C", x + rx - k * rx, y + h, x, y + h - ry + k * ry, x, y + h - ry),
            ("L", x, y + ry), ("C", x, y + ry - k * ry, x + rx - k * rx, y, x + rx, y), ("Z",)]


def _points(text: str) -> list[tuple[float, float]]:
    v = [float(n) for n in NUMBER.findall(text or "")]
    return list(zip(v[0::2], v[1::2]))


def _moved(commands: list[tuple], matrix: Matrix) -> tuple[tuple, ...]:
    a, b, c, d, e, f = matrix
    out = []
    for command in commands:
        kind, *v = command
        moved = []
        for i in range(0, len(v), 2):
            moved += [a * v[i] + c * v[i + 1] + e, b * v[i] + d * v[i + 1] + f]
        out.append((kind, *moved))
    return tuple(out)


def read_svg(data: bytes, shown: str) -> Picture:
    """An SVG picture from the subset this module draws (see the module's text).

    :raises ImageProblem: for a file that is not SVG, or an element or paint that is not drawn.
    """
    import xml.etree.ElementTree as ElementTree

    if b"<!ENTITY" in data or b"<!entity" in data:
        raise ImageProblem(f"{shown}: an SVG that declares entities is not read")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as err:
        raise ImageProblem(f"{shown} is not a readable SVG image (line {err.position[0]}: not XML)") from None
    if _local(root.tag) != "svg":
        raise ImageProblem(f"{shown} is not a PNG, JPEG or SVG image")
    view = [float(v) for v in NUMBER.findall(root.get("viewBox", ""))]
    if len(view) == 4 and view[2] > 0 and view[3] > 0:
        minx, miny, width, height = view
    else:
        minx = miny = 0.0
        width, height = _length(root.get("width"), shown), _length(root.get("height"), shown)
        if width <= 0 or height <= 0:
            raise ImageProblem(f"{shown}: an SVG needs a viewBox, or a width and a height")
    shapes: list[Shape] = []
    start: Matrix = (1.0, 0.0, 0.0, 1.0, -minx, -miny)
    try:
        _walk(root, start, {"fill": "#000000", "stroke": None, "stroke-width": "1"}, shapes, shown)
    except RecursionError:
        raise ImageProblem(f"{shown}: groups nested too deeply to draw") from None
    numbers = [width, height] + [v for shape in shapes for command in shape.commands for v in command[1:]]
    if not all(math.isfinite(v) for v in numbers + [shape.width for shape in shapes]):
        raise ImageProblem(f"{shown}: a number too large to draw")
    return Picture(shown, "svg", width, height, shapes=tuple(shapes))


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _style(element: Any, inherited: dict) -> dict:
    style = dict(inherited)
    for key in ("fill", "stroke", "stroke-width"):
        if element.get(key) is not None:
            style[key] = element.get(key)
    for part in (element.get("style") or "").split(";"):
        key, _, value = part.partition(":")
        if key.strip() in ("fill", "stroke", "stroke-width"):
            style[key.strip()] = value.strip()
    return style


def _walk(element: Any, matrix: Matrix, inherited: dict, shapes: list[Shape], shown: str) -> None:
    for child in element:
        name = _local(child.tag)
        if not name or name in SKIPPED or (isinstance(child.tag, str) and child.tag.startswith("{")
                                             and not child.tag.startswith(SVG_NS)):
            continue  # comments, editors' own elements (sodipodi:namedview), what draws nothing
        where = f"{shown}: <{name}>"
        here = multiply(matrix, transform_of(child.get("transform", ""), where))
        style = _style(child, inherited)
        if name in ("g", "svg", "a"):
            _walk(child, here, style, shapes, shown)
            continue
        get = child.get
        commands: list[tuple]
        if name == "path":
            commands = path_commands(get("d", ""), where)
        elif name == "rect":
            commands = _rect(_length(get("x"), where), _length(get("y"), where), _length(get("width"), where),
                             _length(get("height"), where), _length(get("rx"), where), _length(get("ry"), where))
        elif name == "circle":
            r = _length(get("r"), where)
            commands = _ellipse(_length(get("cx"), where), _length(get("cy"), where), r, r)
        elif name == "ellipse":
            commands = _ellipse(_length(get("cx"), where), _length(get("cy"), where), _length(get("rx"), where),
                                _length(get("ry"), where))
        elif name == "line":
            commands = [("M", _length(get("x1"), where), _length(get("y1"), where)),
                        ("L", _length(get("x2"), where), _length(get("y2"), where))]
        elif name in ("polyline", "polygon"):
            points = _points(get("points", ""))
            commands = [("M", *points[0])] if points else []
            commands += [("L", *p) for p in points[1:]]
            if name == "polygon" and commands:
                commands.append(("Z",))
        else:
            raise ImageProblem(f"{where} is not drawn (boardlab draws an SVG's path, rect, circle, ellipse, line, "
                               "polyline, polygon and g elements)")
        if not commands:
            continue
        fill = colour(style["fill"], where) if name not in ("line", "polyline") else None
        stroke = colour(style["stroke"], where)
        width = _length(style["stroke-width"], where, 1.0) * math.sqrt(abs(here[0] * here[3] - here[1] * here[2]))
        if fill is None and stroke is None:
            continue
        if len(shapes) >= MAX_SVG_SHAPES:
            raise ImageProblem(f"{shown}: more than {MAX_SVG_SHAPES:,} shapes")
        shapes.append(Shape(_moved(commands, here), fill, stroke, width))
