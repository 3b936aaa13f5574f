"""Browser games as playtests: a `boardlab play` record filed as a table game, and played back.

A finished game of `boardlab play` (its record, `playtest.Session.record()`) becomes a
`TableGame` of source "browser": its seats named by the page (else "seat 1 (person)", "seat 2
(greedy)", ...), its winners and length from the replayed game, no minutes (a game against agents
in a browser does not time a table), the record kept for replay.  `replay_session` plays a record
again up to any move, for the page to step through it.

>>> from boardlab.layouts import load
>>> from boardlab.playtest import Session
>>> definition = load("sixbysix")
>>> session = Session(definition, 2, ("random", "random"), seed=3)
>>> while not session.state.is_terminal():
...     _ = session.step()
>>> game = table_game_from_record(definition, session.record(), date="2026-12-01")
>>> game.source, game.seats, game.winners == session.state.winners(), game.length == session.state.length()
('browser', ('seat 1 (random)', 'seat 2 (random)'), True, True)
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Sequence

from boardlab.analysis.playtests import BROWSER, TableGame
from boardlab.layouts.errors import BoardlabError
from boardlab.playtest import PERSON, Session, replay

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition
    from boardlab.printkit.table import TableArt


def table_game_from_record(definition: GameDefinition, record: dict, names: Sequence[str] | None = None,
                           date: str | None = None, notes: str = "") -> TableGame:
    """The playtest a finished browser game's record makes (see the module docstring).

    :raises BoardlabError: for a record of another game, a move the engine refuses, a game not
        over, or names that are not one per seat.
    """
    from boardlab.analysis import engines
    from boardlab.analysis.store import definition_hash

    state = replay(definition, record)  # every move checked in the engine
    if not state.is_terminal():
        raise BoardlabError("the game is not over: only a finished game can be filed as a playtest")
    if record.get("variant", "baseline") != definition.variant:
        raise BoardlabError(f"a record of the variant {record.get('variant')!r}, not of {definition.variant!r}")
    players = record["players"]
    seats = record["seats"]
    if names:
        labels = tuple(str(n).strip() for n in names)
        if len(labels) != players or not all(labels) or len(set(labels)) != players:
            raise BoardlabError(f"give {players} different names, one per seat")
    else:
        labels = tuple(f"seat {s + 1} ({seats[s]})" for s in range(players))
    unit = engines.make_game(definition, players).length_unit
    played = ", ".join(seats)
    return TableGame(definition.game.id, definition.variant, definition_hash(definition),
                     date or datetime.date.today().isoformat(), labels, tuple(state.winners()), state.length(), unit,
                     None, notes=notes or f"boardlab play, seed {record['seed']}, seats {played}", source=BROWSER,
                     record=record)


def move_count(record: dict) -> int:
    """The moves of a record (chance events not counted)."""
    return sum(1 for entry in record.get("moves", []) if "chance" not in entry)


def replay_session(definition: GameDefinition, record: dict, moves: int, table: TableArt | None = None) -> Session:
    """A `Session` of the record's game after its first `moves` moves (chance drawn from its seed as
    it was), every seat an agent that never moves by itself, so that the page shows every hand.

    :raises BoardlabError: for a record the engine refuses.
    """
    replay(definition, record)  # the whole record checked first: a bad move is said, not half shown
    indices = [entry["index"] for entry in record["moves"] if "chance" not in entry]
    seats = [name if name != PERSON else "random" for name in record["seats"]]
    session = Session(definition, record["players"], seats, record["seed"], table=table)
    session.replay_moves([(index, None) for index in indices[:max(0, min(moves, len(indices)))]])
    return session
