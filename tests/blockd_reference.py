"""A slow, obvious Blockd reference, written apart from the engine, for tests to compare with.

It works on the JSON position of docs/positions/blockd.md and plain Python sets of
(row, column) pairs, walks every path cell by cell with a recursive search, and follows
layouts/rulebooks/blockd.en.md (with the engine docstring's choices for the points the rules leave
open) without sharing any code with `boardlab.analysis.blockd`.

Run as a script to (re)write tests/data/blockd.perft:

    .venv/bin/python tests/blockd_reference.py
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path


class Ref:
    """A mutable reference position: plain dicts and sets, rules read from the definition."""

    def __init__(self, definition, players: int, position: dict):
        self.d = definition
        self.players = players
        self.rows, self.columns = definition.board.rows, definition.board.columns
        self.colours = list(definition.cards.suits[:players])
        letter_to_suit = {definition.colours[s].letter.upper(): s for s in definition.cards.suits}
        blind_letter = definition.colours[definition.print.back_colour].letter.upper()
        self.suit = {}  # (r, c) -> suit name, or None for a blind card
        self.value = {}  # (r, c) -> value, or None for a blind card
        for r, line in enumerate(position["grid"]):
            for c, token in enumerate(line.split()):
                token = token.upper()
                if token == blind_letter:
                    self.suit[(r, c)] = None
                    self.value[(r, c)] = None
                else:
                    self.suit[(r, c)] = letter_to_suit[token[0]]
                    self.value[(r, c)] = int(token[1:])
        self.down = {tuple(p) for p in position.get("down", []) if self.suit[tuple(p)] is not None}
        self.pawn = {colour: tuple(p) for colour, p in position["pawns"].items()}
        self.to_move = position["to_move"]
        self.bonus = {colour: False for colour in self.colours}
        self.bonus[self.to_move] = bool(position.get("restore", False))
        self.marked: set[str] = set()
        self.last_mover = None
        self.winner = "none yet"

    def clone(self) -> "Ref":
        other = copy.copy(self)  # the definition and the cards are shared, the rest copied
        other.down, other.pawn, other.bonus, other.marked = set(self.down), dict(self.pawn), dict(self.bonus), set(self.marked)
        return other

    # -- moves ------------------------------------------------------------------------
    def is_blind(self, cell) -> bool:
        return self.suit[cell] is None

    def step(self, cell, dr, dc):
        r, c = cell[0] + dr, cell[1] + dc
        if self.d.rules.torus:
            return (r % self.rows, c % self.columns)
        if 0 <= r < self.rows and 0 <= c < self.columns:
            return (r, c)
        return None

    def step_choices(self, cell) -> list[int]:
        if self.value[cell] == self.d.cards.start_value:
            low, high = self.d.rules.start_steps
            return list(range(low, high + 1))
        return [self.value[cell]]

    def ends(self, colour: str, down: set) -> set:
        """Every cell where `colour`'s pawn can end a path, with `down` face down."""
        start = self.pawn[colour]
        others = {cell for who, cell in self.pawn.items() if who != colour}
        rule = self.d.rules.pawns
        found = set()

        def walk(cell, left, visited):
            if left == 0:
                if rule == "stack" or cell not in others:
                    found.add(cell)
                return
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                nxt = self.step(cell, dr, dc)
                if nxt is None or nxt in visited or nxt in down or self.is_blind(nxt):
                    continue
                if rule == "block" and nxt in others:
                    continue
                walk(nxt, left - 1, visited | {nxt})

        for k in self.step_choices(start):
            walk(start, k, {start})
        return found

    def moves(self, colour: str | None = None) -> list[tuple]:
        """Sorted (restored cell or None, destination) pairs for `colour` (default: to_move)."""
        colour = colour or self.to_move
        out = {(None, to) for to in self.ends(colour, self.down)}
        if self.d.rules.restore_bonus and self.bonus[colour]:
            for restored in self.down:
                out |= {(restored, to) for to in self.ends(colour, self.down - {restored})}
        return sorted(out, key=lambda m: (m[0] or (-1, -1), m[1]))

    # -- play -------------------------------------------------------------------------
    def seat(self, colour: str) -> int:
        return self.colours.index(colour)

    def play(self, move) -> None:
        restored, to = move
        colour = self.to_move
        if restored is not None:
            self.down.discard(restored)
        start = self.pawn[colour]
        self.pawn[colour] = to
        if self.flips_at_once() or start not in [cell for who, cell in self.pawn.items()]:
            self.down.add(start)
        self.bonus[colour] = self.d.rules.restore_bonus and self.suit[to] == colour
        self.last_mover = colour
        self.next_turn()

    def remove(self, colours) -> None:
        cells = [self.pawn.pop(colour) for colour in colours]
        for colour in colours:
            self.bonus[colour] = False
        if self.d.rules.eliminated_card == "flip":
            for cell in cells:
                if self.flips_at_once() or cell not in self.pawn.values():
                    self.down.add(cell)

    def flips_at_once(self) -> bool:
        """Whether a card turns down when a pawn leaves it although another pawn stays (stacked_flip)."""
        return self.d.rules.pawns != "stack" or self.d.rules.stacked_flip == "always"

    def next_turn(self) -> None:
        order = [c for c in self.colours]
        seat = self.seat(self.to_move)
        while True:
            later = [c for c in order[seat + 1:] if c in self.pawn and c not in self.marked]
            if not later:  # end of the round
                leaving = sorted(self.marked, key=self.seat)
                self.marked = set()
                self.remove(leaving)
                if len(self.pawn) == 1:
                    self.winner = next(iter(self.pawn))
                    return
                if not self.pawn:
                    self.winner = self.last_mover
                    return
                later = [c for c in order if c in self.pawn]
            colour = later[0]
            seat = self.seat(colour)
            if self.moves(colour):
                self.to_move = colour
                return
            if self.d.rules.elimination == "immediate":
                self.remove([colour])
                if len(self.pawn) == 1:
                    self.winner = next(iter(self.pawn))
                    return
            else:
                self.marked.add(colour)

    def over(self) -> bool:
        return self.winner != "none yet"


def perft(ref: Ref, depth: int) -> int:
    """Move sequences of exactly `depth` moves (a game that ends sooner counts nothing)."""
    if depth == 0:
        return 1
    if ref.over():
        return 0
    total = 0
    for move in ref.moves():
        child = ref.clone()
        child.play(move)
        total += perft(child, depth - 1)
    return total


def random_position(definition, players: int, rng: random.Random, down_share: float = 0.4,
                    restore: bool | None = None, start_pawns: bool | None = None) -> dict:
    """A random legal-looking position: a shuffled grid, random face-down cards and pawns."""
    rows, columns = definition.board.rows, definition.board.columns
    tokens = []
    for suit in definition.cards.suits:
        letter = definition.colours[suit].letter
        tokens.append(f"{letter}{definition.cards.start_value}")
        tokens.extend(f"{letter}{v}" for v in definition.cards.values)
    tokens.extend(definition.colours[definition.print.back_colour].letter for _ in range(definition.cards.blind))
    rng.shuffle(tokens)
    cells = [(r, c) for r in range(rows) for c in range(columns)]
    blind = definition.colours[definition.print.back_colour].letter
    face_cards = [cell for cell, token in zip(cells, tokens) if token != blind]
    colours = list(definition.cards.suits[:players])
    alive = rng.sample(colours, rng.randint(2, players)) if players > 2 else colours
    start_pawns = rng.random() < 0.3 if start_pawns is None else start_pawns
    pawns = {}
    taken: set = set()
    for colour in alive:
        if start_pawns:
            letter = definition.colours[colour].letter
            cell = cells[tokens.index(f"{letter}{definition.cards.start_value}")]
        else:
            free = [c for c in face_cards if c not in taken or definition.rules.pawns == "stack"]
            cell = rng.choice(free)
        pawns[colour] = cell
        taken.add(cell)
    down = [cell for cell in face_cards if cell not in pawns.values() and rng.random() < down_share]
    return {"game": "blockd",
            "grid": [" ".join(tokens[r * columns:(r + 1) * columns]) for r in range(rows)],
            "down": [list(c) for c in sorted(down)],
            "pawns": {colour: list(cell) for colour, cell in pawns.items()},
            "to_move": rng.choice(sorted(pawns)),
            "restore": bool(definition.rules.restore_bonus and (rng.random() < 0.5 if restore is None else restore))}


# -- the perft data file ---------------------------------------------------------------
PERFT_FILE = Path(__file__).parent / "data" / "blockd.perft"


def read_perft(path: Path = PERFT_FILE) -> list[dict]:
    """Entries of a perft file (the format of `boardlab.analysis.perft`) as dicts:
    id, definition, players, position and perft (depth -> count)."""
    from boardlab.analysis.perft import read_perft as read_entries

    return [{"id": e.id, "definition": e.definition, "players": e.players, "position": e.position,
             "perft": e.counts} for e in read_entries(path)]


def write_perft(path: Path = PERFT_FILE, depth: int = 3) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from blockd_definitions import definition_named

    rng = random.Random(20261129)
    plans = [("blockd", 4, dict(down_share=0.0, start_pawns=True, restore=False)),
             ("blockd", 2, dict(down_share=0.0, start_pawns=True, restore=False)),
             ("blockd", 4, dict(down_share=0.5)),
             ("blockd", 3, dict(down_share=0.6, restore=True)),
             ("blockd", 4, dict(down_share=0.7, restore=True)),
             ("blockd", 2, dict(down_share=0.75)),
             ("blockd-flat", 4, dict(down_share=0.3)),
             ("blockd-flat", 3, dict(down_share=0.5, restore=True)),
             ("blockd-pawns-block", 4, dict(down_share=0.4)),
             ("blockd-pawns-stack", 4, dict(down_share=0.3, start_pawns=False)),
             ("blockd-end-of-round", 4, dict(down_share=0.7)),
             ("blockd-end-of-round", 3, dict(down_share=0.65)),
             ("blockd-eliminated-card-stay", 4, dict(down_share=0.75)),
             ("blockd-no-restore", 4, dict(down_share=0.5)),
             ("grid-4x4", 3, dict(down_share=0.3, restore=True)),
             ("grid-3x4-flat", 2, dict(down_share=0.2)),
             ("grid-6x6-purple", 5, dict(down_share=0.5, restore=True)),
             ("grid-6x6-purple", 4, dict(down_share=0.0, start_pawns=True)),
             ("blockd-pawns-stack-always", 4, dict(down_share=0.3, start_pawns=False)),
             ("blockd-pawns-stack-always", 3, dict(down_share=0.1, start_pawns=True))]
    lines = ["# Blockd perft: legal moves (perft 1) and move sequences of 2 and 3 moves from each position,",
             "# counted by tests/blockd_reference.py (a plain recursive path search), not by the engine.",
             "# Definitions: a name in layouts/ or layouts/variants/, or one of tests/blockd_definitions.py.",
             "# Regenerate: .venv/bin/python tests/blockd_reference.py", ""]
    for number, (name, players, options) in enumerate(plans):
        definition = definition_named(name)
        while True:  # a position where the player to move has at least one move
            position = random_position(definition, players, rng, **options)
            ref = Ref(definition, players, position)
            if ref.moves():
                break
        lines += [f"id {number:02d}-{name}-{players}p", f"definition {name}", f"players {players}",
                  "position " + json.dumps(position)]
        for d in range(1, depth + 1):
            lines.append(f"perft {d} {perft(ref, d)}")
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines))


if __name__ == "__main__":
    write_perft()
    print(f"wrote {PERFT_FILE}")
