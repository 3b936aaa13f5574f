"""A game in play for `boardlab play`: people and agents in seats, the moves so far, undo, records.

Everything a session does is the engine's: the legal moves are `State.legal_moves()`, a person's
move is an index into that list, an agent's move is its `choose`.  Chance is drawn from the
session's seed: the k-th chance event of a game uses `derive_seed(seed, CHANCE_STREAM, k)` and
the agent deciding at ply p uses `derive_seed(seed, AGENT_STREAM, p)`, so the same seed and
the same moves give the same game, and undo followed by the same moves gives it again.

A finished (or unfinished) game is saved as a record (`Session.record()`, JSON):

    {"format": "boardlab-record", "game": ..., "variant": ..., "players": 2, "seed": 1,
     "seats": ["person", "greedy"],
     "moves": [{"chance": 0, "text": "deal"}, {"seat": 0, "index": 3, "text": "to 2,3", "move": {...}}, ...],
     "result": {"winners": [1], "unfinished": false, "length": 31, "returns": [0.0, 1.0], "scores": ...},
     "record": [deal, rotation, agents, winners, unfinished, length, stats],
     "position": {...}}

`record` is the results store's encoding of the game's `GameRecord` (`store.encode_record`;
`store.decode_record` reads it back), and `position`, for games that write positions, is the
position where the last move was played (a finished game has no position of its own), in the
game's docs/positions format: `boardlab moves GAME RECORD.json` lists the moves there, the last
move played among them.  `replay(definition, record)` plays a record again in the engine and checks every move.

>>> from boardlab.layouts import game_ids, load
>>> definition = load(game_ids("engine")[0])
>>> session = Session(definition, 2, ("random", "random"), seed=3, table=None)
>>> while not session.state.is_terminal():
...     _ = session.step()
>>> replay(definition, session.record()).winners() == session.state.winners()
True
"""

from __future__ import annotations

import json
import random
import threading
import time
from typing import TYPE_CHECKING, Any, Hashable, Sequence

from boardlab.analysis import engines
from boardlab.analysis.protocol import CHANCE, Game, State
from boardlab.analysis.runner import AGENT_STREAM, CHANCE_STREAM, GameRecord, derive_seed
from boardlab.layouts.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.analysis.store import ResultStore
    from boardlab.layouts.common import GameDefinition
    from boardlab.printkit.table import TableArt

#: what a record file says it is
RECORD_FORMAT = "boardlab-record"
#: the seat name of a person in `Session.seats` and in records
PERSON = "person"


class PlayError(BoardlabError):
    """A request the game refuses (an illegal move, a move out of turn): one line."""


def seat_names(game_id: str, players: int, names: Sequence[str]) -> tuple[str, ...]:
    """One name per seat, each `PERSON` or an agent of the game; one name fills every seat.

    :raises BoardlabError: for a wrong count or an unknown agent (one line).

    >>> from boardlab.layouts import game_ids
    >>> game = game_ids("engine")[0]
    >>> seat_names(game, 2, ["person", "random"])
    ('person', 'random')
    >>> seat_names(game, 2, ["random"])
    ('random', 'random')
    """
    names = [str(n).strip() for n in names]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise BoardlabError(f"{len(names)} seats named for {players} players (give one name, or one per seat)")
    known = engines.agent_factories(game_id)
    for name in names:
        if name != PERSON and name not in known:
            raise BoardlabError(f"{known.unknown(name)}; or '{PERSON}' for a seat played by hand")
    return tuple(names)


class Session:
    """One game: seats (`PERSON` or an agent name), the state, and the entries played so far.

    An entry is ("chance", k) or ("move", seat, index of the move in `legal_moves()`).
    Methods are safe to call from several threads (one lock per session).
    """

    def __init__(self, definition: GameDefinition, players: int | None, seats: Sequence[str], seed: int,
                 table: TableArt[Any, Any, Any] | None = None) -> None:
        self.definition = definition
        self.game = engines.make_game(definition, players)
        self.seats = seat_names(self.game.id, self.game.players, seats)
        self.seed = seed
        self.table = table  # the game's printkit.table.TableArt, for the words of the move list
        known = engines.agent_factories(self.game.id)
        self.agents = [None if name == PERSON else known[name](self.game) for name in self.seats]
        self.lock = threading.RLock()
        self.entries: list[tuple] = []
        self.texts: list[dict] = []  # per entry: what the move list and the record show
        self.thinking: list[float | None] = []  # per entry: an agent's seconds, None otherwise
        self.state: State = self.game.new_initial_state()
        self._settle()

    # -- playing ----------------------------------------------------------------------------
    def mover(self) -> int:
        return self.state.current_player()

    def ply(self) -> int:
        """The number of entries so far (a request names the ply it answers, against stale clicks)."""
        return len(self.entries)

    def person_to_move(self) -> bool:
        seat = self.mover()
        return seat >= 0 and self.agents[seat] is None

    def legal_moves(self) -> list:
        return list(self.state.legal_moves())

    def play(self, index: int, ply: int | None = None) -> None:
        """A person's move: the `index`-th legal move.

        :raises PlayError: when the game is over, an agent is to move, `ply` is not the current
            ply (the page showed an older position), or the index is not that of a legal move.
        """
        with self.lock:
            if self.state.is_terminal():
                raise PlayError("the game is over")
            if ply is not None and ply != self.ply():
                raise PlayError(f"the position has changed (ply {self.ply()}, not {ply}): reload it")
            if not self.person_to_move():
                raise PlayError(f"seat {self.mover() + 1} is played by {self.seats[self.mover()]}, not by hand")
            moves = self.legal_moves()
            if type(index) is not int or not 0 <= index < len(moves):
                raise PlayError(f"not a legal move: index {index!r} (this position has {len(moves)} legal moves, "
                                f"0 to {len(moves) - 1})")
            self._apply_move(index, None)

    def step(self) -> float:
        """Let the agent to move play one move; its thinking time in seconds.

        :raises PlayError: when the game is over or a person is to move.
        """
        with self.lock:
            if self.state.is_terminal():
                raise PlayError("the game is over")
            seat = self.mover()
            agent = self.agents[seat]
            if agent is None:
                raise PlayError(f"seat {seat + 1} is played by hand: no agent to step")
            rng = random.Random(derive_seed(self.seed, AGENT_STREAM, self.ply()))
            started = time.perf_counter()
            move = agent.choose(self.state, rng)
            seconds = time.perf_counter() - started
            self._apply_move(self.legal_moves().index(move), seconds)
            return seconds

    def undo(self) -> None:
        """Take back the last person's move and every entry after it (agents' replies, chance);
        in a game of agents alone, the last move.

        :raises PlayError: when there is no move to take back.
        """
        with self.lock:
            moves = [i for i, e in enumerate(self.entries) if e[0] == "move"]
            people = [i for i in moves if self.agents[self.entries[i][1]] is None]
            keep = people[-1] if people else (moves[-1] if moves else None)
            if keep is None:
                raise PlayError("no move to take back")
            entries, texts, thinking = self.entries[:keep], self.texts[:keep], self.thinking[:keep]
            self.state = replay_entries(self.game, self.seed, entries)
            self.entries, self.texts, self.thinking = entries, texts, thinking

    def replay_moves(self, moves: Sequence[tuple[int, float | None]]) -> None:
        """Play again, from the start, the moves of a game kept elsewhere (`boardlab play` resuming
        after a restart): each (index in the legal moves, the agent's thinking seconds or None);
        chance in between is drawn from the seed as ever.

        :raises PlayError: when a move is not legal where it stands (another definition's game).
        """
        with self.lock:
            for number, (index, seconds) in enumerate(moves, 1):
                if self.state.is_terminal() or type(index) is not int or not 0 <= index < len(self.legal_moves()):
                    raise PlayError(f"move {number} of the kept game is not legal in this game")
                self._apply_move(index, seconds)

    def _apply_move(self, index: int, seconds: float | None) -> None:
        seat = self.mover()
        move = self.legal_moves()[index]
        self.texts.append({"seat": seat, "index": index, "text": self._move_text(move),
                           "move": self._move_json(move)})
        quiet = len(self.table.quiet_turns(self.state)) if self.table is not None else 0
        self.state.apply(move)
        then = self.table.quiet_turns(self.state)[quiet:] if self.table is not None else []
        if then:  # the turns after this move in which a seat had no move (Links: it only drew)
            self.texts[-1]["then"] = then
        self.entries.append(("move", seat, index))
        self.thinking.append(seconds)
        self._settle()

    def _settle(self) -> None:
        """Draw every chance event until a seat is to move (or the game is over)."""
        while self.mover() == CHANCE:
            k = sum(1 for e in self.entries if e[0] == "chance")
            outcome = chance_outcome(self.state, self.seed, k)
            text = self.table.chance_text(self.state, outcome) if self.table is not None else "chance"
            self.state.apply(outcome)
            self.entries.append(("chance", k))
            self.texts.append({"chance": k, "text": text})
            self.thinking.append(None)

    def _move_text(self, move: Hashable) -> str:
        return self.table.move_text(self.state, move) if self.table is not None else str(move)

    def _move_json(self, move: Hashable) -> Any:
        return self.table.move_json(self.state, move) if self.table is not None else self._move_text(move)

    # -- results ----------------------------------------------------------------------------
    def game_record(self) -> GameRecord:
        """The `GameRecord` the results store keeps for this game (index 0, no rotation)."""
        state = self.state
        return GameRecord(0, 0, 0, self.seats, tuple(state.winners()) if state.is_terminal() else (),
                          state.is_unfinished(), state.length(), state.stats() if state.is_terminal() else {})

    def result(self) -> dict | None:
        """Winners, returns and scores of a finished game; None while it is going on."""
        state = self.state
        if not state.is_terminal():
            return None
        scores = self.table.scores(state) if self.table is not None else None
        return {"winners": list(state.winners()), "unfinished": state.is_unfinished(), "length": state.length(),
                "returns": list(state.returns()), "scores": scores}

    def record(self) -> dict:
        """The game as a record (see the module docstring)."""
        from boardlab.analysis.store import encode_record

        with self.lock:
            out: dict[str, Any] = {
                "format": RECORD_FORMAT, "game": self.game.id, "variant": self.game.variant,
                "players": self.game.players, "seed": self.seed, "seats": list(self.seats),
                "moves": [dict(t) for t in self.texts], "result": self.result(),
                "record": json.loads(encode_record(self.game_record()))}
            if self.game.reads_positions:
                out["position"] = self.last_position()
            return out

    def last_position(self) -> dict | None:
        """The position in its JSON form where the last move was played (a finished game has
        no position of its own: `boardlab moves` lists the moves the last mover had); while
        the game goes on, the position now.  None before the first move."""
        if not self.state.is_terminal() and self.mover() >= 0:
            return self.state.to_position()
        moves = [i for i, e in enumerate(self.entries) if e[0] == "move"]
        if not moves:
            return None
        return replay_entries(self.game, self.seed, self.entries[:moves[-1]]).to_position()


def file_in_store(store: ResultStore, definition: GameDefinition, record: dict) -> str:
    """Keep a record's game in a results store (`analysis.store.ResultStore`) as game 0 of the
    configuration (game, definition, seats, seed); its configuration id.

    `store.records(config, 1)[0]` then gives the game's `GameRecord`.
    """
    from boardlab.analysis.store import config_key, decode_record

    game = engines.make_game(definition, record["players"])
    config = store.register(config_key(game, record["seats"], record["seed"], False))
    store.put_block(config, 0, 1, [decode_record(0, json.dumps(record["record"]))], 0.0)
    return config


def chance_outcome(state: State, seed: int, k: int) -> Hashable:
    """The k-th chance event of a game of `seed`, drawn with the state's exact weights."""
    return state.sample_chance(random.Random(derive_seed(seed, CHANCE_STREAM, k)))


def replay_entries(game: Game[Any], seed: int, entries: Sequence[tuple]) -> State:
    """The state after `entries` (see `Session`) from the start of a game of `seed`."""
    state = game.new_initial_state()
    for entry in entries:
        if entry[0] == "chance":
            state.apply(chance_outcome(state, seed, entry[1]))
        else:
            state.apply(state.legal_moves()[entry[2]])
    return state


def replay(definition: GameDefinition, record: dict, table: TableArt[Any, Any, Any] | None = None) -> State:
    """Play a record again in the engine and return the final state.

    :raises BoardlabError: when the record is not a record of this game, or a move in it is
        not legal where it stands (or its text differs from the engine's, with `table`).
    """
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise BoardlabError(f"not a boardlab record (no \"format\": \"{RECORD_FORMAT}\")")
    if record.get("game") != definition.game.id:
        raise BoardlabError(f"a record of {record.get('game')!r}, not of {definition.game.id}")
    try:
        game = engines.make_game(definition, record["players"])
        seed, moves = record["seed"], record["moves"]
        state = game.new_initial_state()
        chances = 0
        for number, entry in enumerate(moves, 1):
            if "chance" in entry:
                if state.current_player() != CHANCE:
                    raise BoardlabError(f"move {number}: a chance event where seat {state.current_player() + 1} moves")
                state.apply(chance_outcome(state, seed, chances))
                chances += 1
                continue
            legal = state.legal_moves()
            index = entry["index"]
            if state.current_player() != entry["seat"] or type(index) is not int or not 0 <= index < len(legal):
                raise BoardlabError(f"move {number} ({entry.get('text')}) is not legal in the replayed game")
            if table is not None and table.move_text(state, legal[index]) != entry.get("text"):
                raise BoardlabError(f"move {number}: the record says {entry.get('text')!r}, the engine "
                                    f"{table.move_text(state, legal[index])!r}")
            state.apply(legal[index])
    except (KeyError, TypeError) as err:
        raise BoardlabError(f"a malformed record ({err})") from None
    return state
