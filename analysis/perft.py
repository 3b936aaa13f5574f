"""Move-count ("perft") files and the one routine that counts them, for every engine.

The model is python-chess's perft runner: a file lists positions with the exact number of
move sequences of each length, counted by an independent reference, and one routine checks
any engine against it through the protocol alone.

A perft file is blocks of ``key value`` lines separated by blank lines; ``#`` starts a
comment line:

    id 00-blockd-4p
    definition blockd
    players 4
    position {"game": "blockd", "grid": [...], ...}
    perft 1 20
    perft 2 380

- ``definition``: a game id, a variant name, or a definition file (the caller resolves it);
- ``players``: optional (default: the definition's maximum);
- ``position``: optional JSON in the game's position form (`Game.state_from_position`);
  without it the count starts from `Game.new_initial_state()`;
- ``perft DEPTH COUNT``: the number of sequences of exactly DEPTH plies.  A ply is a move
  or, at a chance node, one listed chance outcome (`State.chance_outcomes`); a game that ends
  sooner adds nothing.

>>> entries = parse_perft("id a\\ndefinition sixbysix\\nplayers 2\\nperft 1 66\\n", "x.perft")
>>> entries[0].id, entries[0].counts
('a', {1: 66})
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from boardlab.analysis.protocol import CHANCE, Game, State
from boardlab.layouts.errors import BoardlabError

KEYS = ("id", "definition", "players", "position", "perft")


@dataclass(frozen=True)
class PerftEntry:
    """One position of a perft file and its counts (depth -> sequences)."""

    id: str
    definition: str
    counts: dict[int, int]
    players: int | None = None
    position: dict | None = None
    where: str = field(default="", compare=False)  # FILE:LINE of the entry's first line

    def start(self, game: Game) -> State:
        """The entry's starting state in `game` (its position, or the game's initial state).

        :raises BoardlabError: when the position is malformed.
        """
        if self.position is None:
            return game.new_initial_state()
        return game.state_from_position(self.position)


def branches(state: State) -> list:
    """What follows `state` one ply later: its legal moves, or its listed chance outcomes."""
    if state.current_player() == CHANCE:
        return [outcome for outcome, _ in state.chance_outcomes()]
    return list(state.legal_moves())


def perft(state: State, depth: int) -> int:
    """The number of sequences of exactly `depth` plies from `state` (leaves counted in bulk).

    A chance node needs listed outcomes (`Game.chance_listed`); a terminal state has no ply.
    """
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    following = branches(state)
    if depth == 1:
        return len(following)
    total = 0
    for branch in following:
        child = state.clone()
        child.apply(branch)
        total += perft(child, depth - 1)
    return total


def parse_perft(text: str, name: str) -> list[PerftEntry]:
    """The entries of a perft file's text (`name` is used in error messages).

    :raises BoardlabError: `name:LINE: ...` on a malformed line.
    """
    entries: list[PerftEntry] = []
    fields: dict = {}
    first = 0
    for number, raw in enumerate(text.splitlines() + [""], start=1):
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            if fields:
                entries.append(_entry(fields, f"{name}:{first}"))
            fields = {}
            continue
        first = first if fields else number
        key, _, value = line.partition(" ")
        try:
            if key == "perft":
                depth, count = (int(v) for v in value.split())
                fields.setdefault("counts", {})[depth] = count
            elif key == "players":
                fields["players"] = int(value)
            elif key == "position":
                fields["position"] = json.loads(value)
            elif key in ("id", "definition"):
                fields[key] = value.strip()
            else:
                raise BoardlabError(f"unknown key '{key}' (keys: {', '.join(KEYS)})")
        except (ValueError, json.JSONDecodeError) as err:
            raise BoardlabError(f"{name}:{number}: {key}: cannot be read ({err})") from None
        except BoardlabError as err:
            raise BoardlabError(f"{name}:{number}: {err}") from None
    return entries


def _entry(fields: dict, where: str) -> PerftEntry:
    for key in ("id", "definition", "counts"):
        if key not in fields:
            raise BoardlabError(f"{where}: the entry has no '{'perft' if key == 'counts' else key}' line")
    return PerftEntry(fields["id"], fields["definition"], fields["counts"], fields.get("players"),
                      fields.get("position"), where)


def read_perft(path: Path) -> list[PerftEntry]:
    """The entries of a perft file.

    :raises BoardlabError: when the file is missing or malformed.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise BoardlabError(f"{path}: cannot be read: {err.strerror}") from None
    return parse_perft(text, str(path))
