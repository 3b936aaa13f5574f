"""Cube nets: the drawn net, folded by geometry computed here, gives the spec's cube.

The fold does not use printkit.nets' tables (NET_CELLS, ART_ROTATION, TABS): it reads what was
drawn (where each symbol sits and how it is turned, which lines are dashed) from a PlacedCanvas,
rebuilds the squares and folds them in 3-D with rotation matrices.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from boardlab.layouts import load
from boardlab.printkit import nets
from boardlab.printkit.games import deblockle as deblockle_print
from boardlab.printkit.measure import PlacedCanvas

TOLERANCE = 0.1  # mm


@pytest.fixture
def symbol_markers(monkeypatch):
    """Replace the symbol art by a marker text carrying the symbol's name (position and turn are kept)."""
    def marker(canvas, name, cx, cy, size, fill, stroke=None):
        canvas.text(cx, cy, f"symbol:{name}", size=size)
    monkeypatch.setattr(nets, "draw_symbol", marker)


def draw_net(definition, block=0):
    net = deblockle_print.net_components(definition)[block]
    canvas = PlacedCanvas(net.width, net.height)
    net.draw(canvas)
    return net, canvas


def close(p, q, tol=TOLERANCE):
    return math.dist(p, q) <= tol


def same_segment(s, t):
    return (close(s[0], t[0]) and close(s[1], t[1])) or (close(s[0], t[1]) and close(s[1], t[0]))


def square_edges(centre, edge):
    cx, cy = centre
    h = edge / 2
    corners = [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]
    return [(corners[i], corners[(i + 1) % 4]) for i in range(4)]


def read_net(canvas, edge):
    """Faces (symbol -> (centre, art angle)), fold segments, cut segments, as drawn."""
    faces = {}
    for shape in canvas.shapes:
        if shape.kind == "text" and shape.content.startswith("symbol:"):
            name = shape.content.split(":", 1)[1]
            assert name not in faces, f"{name} drawn twice on one net"
            faces[name] = (shape.points[0], shape.angle)
    lines = [s for s in canvas.shapes if s.kind == "line"]
    folds = [tuple(s.points) for s in lines if s.style.get("dash")]
    cuts = [tuple(s.points) for s in lines if not s.style.get("dash")]
    # the cut outline is one closed polygon (for cutting machines): its sides are the cut segments
    outlines = [s for s in canvas.shapes if s.kind == "polygon" and s.style.get("stroke") and not s.style.get("fill")
                and not s.style.get("dash")]
    for outline in outlines:
        corners = outline.points
        cuts += [(a, b) for a, b in zip(corners, corners[1:] + corners[:1])]
    return faces, folds, cuts


def rotation_about(axis, degrees):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    x, y, z = axis
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    k = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    return np.eye(3) + s * k + (1 - c) * (k @ k)


def to_paper(point):
    """Page mm (y down) to 3-D paper coordinates: x right, y up the page, z out of the printed side."""
    return np.array([point[0], -point[1], 0.0])


def fold(faces, folds, edge):
    """Fold the net behind its printed side; return name -> (outward normal, art 'up', world map).

    A face's world map is (R, t): paper point p -> R p + t.  The first face stays put; every
    neighbour across a dashed edge turns 90 degrees about that edge, away from the printed side.
    """
    names = list(faces)
    adjacency = {n: [] for n in names}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            shared = [e for e in square_edges(faces[a][0], edge) if any(same_segment(e, f) for f in square_edges(faces[b][0], edge))]
            if shared and any(same_segment(shared[0], f) for f in folds):
                adjacency[a].append((b, shared[0]))
                adjacency[b].append((a, shared[0]))
    root = names[0]
    placed = {root: (np.eye(3), np.zeros(3))}
    queue = [root]
    while queue:
        parent = queue.pop(0)
        rp, tp = placed[parent]
        normal = rp @ np.array([0, 0, 1.0])
        for child, (a, b) in adjacency[parent]:
            if child in placed:
                continue
            wa, wb = rp @ to_paper(a) + tp, rp @ to_paper(b) + tp
            centre = rp @ to_paper(faces[child][0]) + tp
            for degrees in (90, -90):
                turn = rotation_about(wb - wa, degrees)
                moved = turn @ (centre - wa) + wa
                if np.dot(moved - wa, normal) < 0:  # away from the printed side
                    placed[child] = (turn @ rp, turn @ (tp - wa) + wa)
                    break
            queue.append(child)
    assert len(placed) == len(faces), "the net is not connected by fold lines"
    result = {}
    for name, (r, t) in placed.items():
        theta = math.radians(faces[name][1])
        up_on_page = (math.sin(theta), -math.cos(theta))  # "up" turned clockwise, page y down
        up = r @ np.array([up_on_page[0], -up_on_page[1], 0.0])
        result[name] = (np.round(r @ np.array([0, 0, 1.0]), 9), np.round(up, 9), (r, t))
    return result


def world_edge(segment, mapping):
    r, t = mapping
    ends = [tuple(np.round(r @ to_paper(p) + t, 6)) for p in segment]
    return frozenset(ends)


def test_net_folds_to_the_spec_cube(symbol_markers):
    d = load("deblockle")
    edge = d.print.cube_edge
    net, canvas = draw_net(d)
    faces, folds, _ = read_net(canvas, edge)
    symbol = {name: d.faces[name].symbol for name in d.faces}
    assert sorted(faces) == sorted(symbol.values())
    cube = fold(faces, folds, edge)
    n = {name: cube[symbol[name]][0] for name in d.faces}
    # the spec: opposite faces Star-Stop, Slider-Hoops, Cross-X
    for a, b in (("Star", "Stop"), ("Slider", "Hoops"), ("Cross", "X")):
        assert np.allclose(n[a], -n[b]), (a, b)
    # seen from above with Star on top, clockwise from Cross: Cross, Slider, X, Hoops (east = north x up)
    order = ["Cross", "Slider", "X", "Hoops"]
    for here, following in zip(order, order[1:] + order[:1]):
        assert np.allclose(np.cross(n[here], n["Star"]), n[following]), (here, following)
    # six distinct sides: a closed cube
    assert len({tuple(v) for v, _, _ in cube.values()}) == 6


def test_net_art_stands_upright_on_the_folded_cube(symbol_markers):
    d = load("deblockle")
    faces, folds, _ = read_net(draw_net(d)[1], d.print.cube_edge)
    cube = fold(faces, folds, d.print.cube_edge)
    top, north = d.faces[d.cube.top].symbol, d.faces[d.cube.north].symbol
    for name, (normal, up, _) in cube.items():
        if name in (top, d.faces[d.cube.bottom].symbol):
            assert np.allclose(up, cube[north][0]), name  # top and bottom art point north
        else:
            assert np.allclose(up, cube[top][0]), name  # side art stands with the top up


def test_every_cube_edge_is_a_fold_or_has_exactly_one_glue_tab(symbol_markers):
    d = load("deblockle")
    edge = d.print.cube_edge
    faces, folds, cuts = read_net(draw_net(d)[1], edge)
    cube = fold(faces, folds, edge)
    face_folds, tab_folds = [], []
    for segment in folds:
        owners = [name for name, (centre, _) in faces.items()
                  if any(same_segment(segment, e) for e in square_edges(centre, edge))]
        assert owners, f"fold line {segment} lies on no face"
        (face_folds if len(owners) == 2 else tab_folds).append((segment, owners[0]))
    assert (len(face_folds), len(tab_folds)) == (5, 7)
    seams = [world_edge(seg, cube[owner][2]) for seg, owner in face_folds + tab_folds]
    assert len(set(seams)) == 12  # every edge of the cube exactly once
    def inside_a_face(point):
        return any(abs(point[0] - cx) < edge / 2 - TOLERANCE and abs(point[1] - cy) < edge / 2 - TOLERANCE
                   for (cx, cy), _ in faces.values())

    for segment, owner in tab_folds:  # each tab is cut out: a cut line leaves each end of its fold, outward
        for end in segment:
            leaving = [c[1] if close(c[0], end) else c[0] for c in cuts if close(c[0], end) or close(c[1], end)]
            outward = [p for p in leaving if not inside_a_face(p) and not any(
                same_segment((end, p), e) for centre, _ in faces.values() for e in square_edges(centre, edge))]
            assert outward, (owner, end)
            for p in outward:
                assert 0 < math.dist(end, p) < edge / 2, (owner, end, p)  # a tab, not a face edge


def test_net_squares_measure_the_cube_edge(symbol_markers, tmp_path):
    variant = tmp_path / "big-cubes.toml"
    variant.write_text('extends = "deblockle"\n[print]\ncube_edge = 30.0\nglue_tab = 8.0\n', encoding="utf-8")
    for d in (load("deblockle"), load(variant)):
        edge = d.print.cube_edge
        net, canvas = draw_net(d)
        faces, folds, cuts = read_net(canvas, edge)
        for segment in folds:
            assert abs(math.dist(*segment) - edge) < TOLERANCE
        # every face square is outlined by drawn lines of the cube edge
        drawn = folds + cuts
        for name, (centre, _) in faces.items():
            for e in square_edges(centre, edge):
                assert any(same_segment(e, f) for f in drawn), (name, e)
        fills = [s for s in canvas.shapes if s.kind == "rect" and s.style.get("fill")]
        assert len(fills) == 6 and all(abs(s.box[2] - edge) < TOLERANCE and abs(s.box[3] - edge) < TOLERANCE
                                       for s in fills)
        assert max(x for s in canvas.shapes if s.kind in ("line", "polygon") and s.style.get("stroke")
                   for x, _ in s.points) <= net.width + TOLERANCE


def test_mirrored_cube_in_the_definition_gives_the_mirrored_net(symbol_markers, tmp_path):
    variant = tmp_path / "mirror.toml"
    variant.write_text('extends = "deblockle"\n[cube]\neast = "Hoops"\nwest = "Slider"\n', encoding="utf-8")
    d = load(variant)
    faces, folds, _ = read_net(draw_net(d)[1], d.print.cube_edge)
    cube = fold(faces, folds, d.print.cube_edge)
    n = {name: cube[d.faces[name].symbol][0] for name in d.faces}
    assert np.allclose(np.cross(n["Cross"], n["Star"]), n["Hoops"])  # counter-clockwise now


def test_one_net_per_block_in_the_player_colour(symbol_markers, tmp_path):
    d = load("deblockle")
    made = deblockle_print.net_components(d)
    assert len(made) == d.rules.blocks * len(d.players)
    variant = tmp_path / "two.toml"
    variant.write_text('extends = "deblockle"\n[rules]\nblocks = 2\n[colours.gold]\nhex = "#f0d060"\n',
                       encoding="utf-8")
    v = load(variant)
    made = deblockle_print.net_components(v)
    assert len(made) == 4
    canvas = PlacedCanvas(made[0].width, made[0].height)
    made[0].draw(canvas)
    assert {s.style["fill"] for s in canvas.shapes if s.kind == "rect" and s.style.get("fill")} == {"#f0d060"}
