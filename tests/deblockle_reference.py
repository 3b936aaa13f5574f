"""A slow, obvious Deblockle reference, written apart from the engine, for tests to compare with.

It shares no code with `boardlab.analysis.deblockle`.  It works on the JSON position
(docs/positions/deblockle.md) with squares as (x, y) pairs and:
- holds a cube's orientation as a 3 x 3 integer rotation matrix: the world direction of each
  face's outward normal is the matrix times the normal it has in the definition's layout
  (Star up = +z, north = +y, east = +x); the 24 orientations are the 24 signed permutation
  matrices of determinant +1, found by trying all 48;
- tips a cube by a quarter turn in the vertical plane of the tip direction;
- finds hops by trying every sequence of steps (all 4**n Hoops sequences, every slide length).
It follows the engine docstring's choices for the points the rules leave open.

Run as a script to (re)write tests/data/deblockle.perft:

    .venv/bin/python tests/deblockle_reference.py
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data"
PERFT_FILE = DATA / "deblockle.perft"

NORMALS = {"top": (0, 0, 1), "bottom": (0, 0, -1), "north": (0, 1, 0), "south": (0, -1, 0),
           "east": (1, 0, 0), "west": (-1, 0, 0)}
TIPS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


def mat_vec(m, v):
    return tuple(sum(m[i][k] * v[k] for k in range(3)) for i in range(3))


def mat_mul(a, b):
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))


def det(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def rotations():
    """All 24 rotations of the cube: signed permutation matrices with determinant +1."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = tuple(tuple(signs[i] if j == perm[i] else 0 for j in range(3)) for i in range(3))
            if det(m) == 1:
                out.append(m)
    return out


def tip_matrix(dx, dy):
    """The quarter turn that takes up (+z) to the tip direction u and u to down."""
    u, z = (dx, dy, 0), (0, 0, 1)
    columns = []
    for v in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
        vu = sum(a * b for a, b in zip(v, u))
        vz = v[2]
        columns.append(tuple(v[i] - vu * u[i] - vz * z[i] + vz * u[i] - vu * z[i] for i in range(3)))
    return tuple(tuple(columns[j][i] for j in range(3)) for i in range(3))


class RefCube:
    def __init__(self, definition):
        layout = definition.cube
        self.normal_of = {getattr(layout, side): NORMALS[side] for side in NORMALS}  # face -> body normal
        self.rotations = rotations()

    def face_at(self, matrix, world):
        for face, normal in self.normal_of.items():
            if mat_vec(matrix, normal) == world:
                return face
        raise AssertionError("no face points that way")

    def matrix(self, top, north):
        found = [m for m in self.rotations
                 if mat_vec(m, self.normal_of[top]) == (0, 0, 1) and mat_vec(m, self.normal_of[north]) == (0, 1, 0)]
        return found[0] if len(found) == 1 else None

    def tip(self, matrix, direction):
        return mat_mul(tip_matrix(*TIPS[direction]), matrix)


class Ref:
    """A mutable reference position: a dict (x, y) -> [owner, matrix]."""

    def __init__(self, definition, position: dict):
        self.d = definition
        self.files, self.ranks = definition.board.files, definition.board.ranks
        self.cube = RefCube(definition)
        self.hop = {name: face.hop for name, face in definition.faces.items()}
        self.stars = {self.square(p.home_star): owner for owner, p in enumerate(definition.players, start=1)}
        self.blocks = {}
        for b in position["blocks"]:
            self.blocks[self.square(b["at"])] = [b["owner"], self.cube.matrix(b["top"], b["north"])]
        self.to_move = position["to_move"]
        self.winner = None  # None while playing; then 1, 2 or 0 (draw)

    def square(self, name):
        return (ord(name[0]) - ord("a") + 1, int(name[1:]))

    def name(self, sq):
        return f"{chr(ord('a') + sq[0] - 1)}{sq[1]}"

    def on_board(self, sq):
        return 1 <= sq[0] <= self.files and 1 <= sq[1] <= self.ranks

    def clone(self):
        return copy.deepcopy(self)

    # -- hops, by trying everything ------------------------------------------------------------
    def free(self, sq, occupied):
        return self.on_board(sq) and sq not in occupied

    def open(self, sq, occupied):
        return self.free(sq, occupied) and sq not in self.stars

    def hop_ends(self, kind, start, occupied):
        x, y = start
        if kind == "none":
            return {start}
        if kind == "orthogonal":
            return {(x + dx, y + dy) for dx, dy in TIPS.values() if self.open((x + dx, y + dy), occupied)}
        if kind == "diagonal":
            return {(x + dx, y + dy) for dx in (-1, 1) for dy in (-1, 1) if self.open((x + dx, y + dy), occupied)}
        if kind == "slide":
            ends = set()
            for dx, dy in TIPS.values():
                for k in range(1, max(self.files, self.ranks) + 1):
                    path = [(x + i * dx, y + i * dy) for i in range(1, k + 1)]
                    if not all(self.free(sq, occupied) for sq in path) or path[-1] in self.stars:
                        continue
                    after = (x + (k + 1) * dx, y + (k + 1) * dy)
                    if not self.free(after, occupied) or after in self.stars:
                        ends.add(path[-1])
                    elif self.d.rules.slider_stop == "next_to_star" and any(
                            (path[-1][0] + ex, path[-1][1] + ey) in self.stars for ex, ey in TIPS.values()):
                        ends.add(path[-1])  # the source's words: a slide may stop next to a star
            return ends
        if kind == "hoops":
            ends = set()
            for steps in itertools.product(TIPS.values(), repeat=self.d.rules.hoops_steps):
                sq, ok = start, True
                for dx, dy in steps:
                    sq = (sq[0] + dx, sq[1] + dy)
                    if not self.free(sq, occupied):
                        ok = False
                        break
                if ok and sq not in self.stars:
                    ends.add(sq)
            return ends
        raise AssertionError(kind)

    # -- moves -----------------------------------------------------------------------------------
    def moves(self):
        """(from, tip, to) name triples of the player to move, sorted as `boardlab moves` lists them."""
        if self.winner is not None:
            return []
        return self.moves_of(self.to_move)

    def moves_of(self, owner):
        out = set()
        for sq, (who, matrix) in self.blocks.items():
            if who != owner:
                continue
            occupied = set(self.blocks) - {sq}
            for direction, (dx, dy) in TIPS.items():
                onto = (sq[0] + dx, sq[1] + dy)
                if not self.on_board(onto) or onto in occupied:
                    continue
                turned = self.cube.tip(matrix, direction)
                top = self.cube.face_at(turned, (0, 0, 1))
                kind = self.hop[top]
                if onto in self.stars:
                    if self.stars[onto] != owner and kind == "score" and not (
                            self.d.rules.no_touching and self.touching_after(owner, sq, "scored")):
                        out.add((sq, direction, "scored"))
                    continue
                if kind == "score":
                    continue
                ends = self.hop_ends(kind, onto, occupied)
                if not ends and self.d.rules.hopless_tip == "ends_turn":
                    ends = {onto}
                for end in ends:
                    if self.d.rules.no_touching and self.touching_after(owner, sq, end):
                        continue
                    out.add((sq, direction, end))
        order = "NESW"
        ranked = sorted(out, key=lambda m: (m[0], order.index(m[1]), (0, m[2]) if m[2] != "scored" else (1,)))
        return [(self.name(a), t, b if b == "scored" else self.name(b)) for a, t, b in ranked]

    def touching_after(self, owner, frm, to):
        owners = {sq: who for sq, (who, _) in self.blocks.items() if sq != frm}
        if to != "scored":
            owners[to] = owner
        for a, b in itertools.combinations(owners, 2):
            if owners[a] != owners[b] and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1:
                return True
        return False

    def play(self, move):
        frm, direction, to = move
        frm = self.square(frm)
        owner, matrix = self.blocks.pop(frm)
        if to != "scored":
            self.blocks[self.square(to)] = [owner, self.cube.tip(matrix, direction)]
        left = {1: 0, 2: 0}
        for who, _ in self.blocks.values():
            left[who] += 1
        if left[owner] == 0:
            self.winner = owner
            return
        other = 3 - owner
        if self.moves_of(other):
            self.to_move = other
        elif not self.moves_of(owner):
            draw = left[1] == left[2] or self.d.rules.both_blocked == "draw"
            self.winner = 0 if draw else (1 if left[1] < left[2] else 2)


def perft(ref: Ref, depth: int) -> int:
    """Move sequences of exactly `depth` moves (passes are automatic; a game that ends sooner counts nothing)."""
    if depth == 0:
        return 1
    total = 0
    for move in ref.moves():
        child = ref.clone()
        child.play(move)
        total += perft(child, depth - 1)
    return total


def random_position(definition, rng: random.Random, near_stars: float = 0.3, blocks=None) -> dict:
    """A random position: up to `rules.blocks` blocks per player in random orientations, some
    next to the star squares (where scoring and the star rules matter)."""
    files, ranks = definition.board.files, definition.board.ranks
    stars = [p.home_star for p in definition.players]
    squares = [f"{chr(ord('a') + x)}{y + 1}" for x in range(files) for y in range(ranks)]
    squares = [s for s in squares if s not in stars]

    def near(star):
        x, y = ord(star[0]) - ord("a"), int(star[1:]) - 1
        return [f"{chr(ord('a') + x + dx)}{y + 1 + dy}" for dx, dy in TIPS.values()
                if 0 <= x + dx < files and 0 <= y + dy < ranks]

    cube = RefCube(definition)
    pairs = [(t, n) for t in cube.normal_of for n in cube.normal_of if cube.matrix(t, n) is not None]
    taken, out = set(), []
    for owner in (1, 2):
        limit = definition.rules.counts[owner - 1]
        count = rng.randint(1, limit) if blocks is None else min(blocks, limit)
        for _ in range(count):
            pool = [s for s in (near(rng.choice(stars)) if rng.random() < near_stars else squares)
                    if s not in taken and s not in stars]
            if not pool:
                pool = [s for s in squares if s not in taken]
            sq = rng.choice(pool)
            taken.add(sq)
            top, north = rng.choice(pairs)
            out.append({"owner": owner, "at": sq, "top": top, "north": north})
    rng.shuffle(out)
    return {"game": "deblockle", "blocks": out, "to_move": rng.choice((1, 2))}


# -- the perft data file ---------------------------------------------------------------
def definition_named(name: str):
    """A shipped definition or variant by name, or a test board ("board-..." in tests/data)."""
    from boardlab.layouts import load

    if name.startswith("board-"):
        return load(DATA / f"deblockle-{name}.toml")
    return load(name)


def write_perft(path: Path = PERFT_FILE, depth: int = 3) -> None:
    rng = random.Random(20261201)
    plans = [("deblockle", 4), ("deblockle", 4), ("deblockle", 3), ("deblockle", None), ("deblockle", None),
             ("deblockle-no-touching", 4), ("deblockle-no-touching", None),
             ("deblockle-hopless-ends-turn", None), ("deblockle-hopless-ends-turn", 4),
             ("deblockle-two-blocks", 2), ("deblockle-two-blocks", None),
             ("board-5x6", None), ("board-5x6", 3)]
    lines = ["# Deblockle perft: legal moves (perft 1) and move sequences of 2 (and 3 where few) moves from each position,",
             "# counted by tests/deblockle_reference.py (rotation matrices, exhaustive hop search), not by the engine.",
             "# Definitions: a name in layouts/ or layouts/variants/, or board-* from tests/data/deblockle-board-*.toml.",
             "# Regenerate: .venv/bin/python tests/deblockle_reference.py", ""]
    start = {"game": "deblockle", "to_move": 1, "blocks": []}
    for number, (name, blocks) in enumerate(plans):
        definition = definition_named(name)
        if number == 0:  # the start position of the shipped game, in the layout's orientation
            d = definition
            position = dict(start, blocks=[
                {"owner": owner, "at": sq, "top": d.cube.top, "north": d.cube.north}
                for owner, p in enumerate(d.players, start=1) for sq in p.start[:d.rules.counts[owner - 1]]])
            ref = Ref(definition, position)
        else:
            while True:  # a position where the player to move has at least one move
                position = random_position(definition, rng, blocks=blocks)
                ref = Ref(definition, position)
                if ref.moves():
                    break
        lines += [f"id {number:02d}-{name}", f"definition {name}", "players 2", "position " + json.dumps(position)]
        for d in range(1, depth + 1):
            count = perft(ref, d)
            lines.append(f"perft {d} {count}")
            if count > 1500:  # the next depth would take the slow reference minutes
                break
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines))


if __name__ == "__main__":
    sys.exit(write_perft())
