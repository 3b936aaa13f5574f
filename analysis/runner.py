"""Play many games with given agents and one seed, in parallel, with identical results.

Every random choice flows from the one seed:
- deal d (the chance events of a game) uses `derive_seed(seed, CHANCE_STREAM, d)`;
- the agent in seat s of game g uses `derive_seed(seed, AGENT_STREAM, g, s)` (a game's batched
  fast path may draw its agents' moves from a stream of its own, documented in its module).
Games are cut into blocks of `BLOCK` consecutive indices whatever the worker count (or of
`Game.block_size(match)` when the game's batched fast path plays the match and wants larger
blocks; `Game.play_block` plays a block when the game has a faster path), and the summary is computed from the records sorted by index, so `--workers 1` and
`--workers 8` give the same numbers.

With `seat_rotation` every deal is played once per rotation (game g = deal g // n, rotation
g % n), so that deal luck cancels out:
- with different agents, seat s plays agent (s + rotation) % n: every agent meets every seat
  of every deal (agent results are free of deal and seat luck);
- with the same agent in every seat, a game that can rotate its deal (`Game.rotates_deal`)
  gets the deal turned so that seat s takes the place seat (s + rotation) % n had: every seat
  meets every starting place of every deal (seat results are free of deal luck);
- with the same agent in every seat and a game that cannot rotate its deal, replaying a deal
  would only repeat near-identical games, so every game gets a deal of its own.
Games of one rotation group are not independent; where rotation is used, the Wilson intervals
treat them as independent, which errs wide for seat results (the group's games share out the
deal's advantage between the seats).

The summary has one shape for every game: the common figures at the top level (seat and agent
results are counted here and only here, by `seat_results`) and the game's own figures
(`Game.summarize`) under one key, the game id.
"""

from __future__ import annotations

import os
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from boardlab.analysis.pool import local_pool
from boardlab.analysis.protocol import CHANCE, Game, State
from boardlab.analysis.stats import describe_lengths, wilson_interval

CHANCE_STREAM = 0
AGENT_STREAM = 1
BLOCK = 64

AgentFactory = Callable[[Game], Any]


def derive_seed(seed: int, *keys: int) -> int:
    """A 64-bit seed for one stream of one game, independent of every other (key) stream.

    >>> derive_seed(1, 0, 5) == derive_seed(1, 0, 5) != derive_seed(1, 0, 6)
    True
    """
    words = np.random.SeedSequence(seed, spawn_key=keys).generate_state(2, np.uint32)
    return int(words[0]) << 32 | int(words[1])


@dataclass(frozen=True)
class GameRecord:
    """What one game produced."""

    index: int
    deal: int
    rotation: int
    agents: tuple[str, ...]  # agent name per seat
    winners: tuple[int, ...]
    unfinished: bool
    length: int
    stats: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Match:
    """Everything a worker needs to play games: picklable."""

    game: Game
    agents: tuple[AgentFactory, ...]
    agent_names: tuple[str, ...]
    seed: int
    seat_rotation: bool
    rotate_deals: bool = False  # rotate the deal rather than the agents (same agent in every seat)

    def seating(self, index: int) -> tuple[int, int, tuple[int, ...]]:
        """(deal, rotation, agent index per seat) of game `index`."""
        n = self.game.players
        if not self.seat_rotation:
            return index, 0, tuple(range(n))
        deal, rotation = divmod(index, n)
        if self.rotate_deals:
            return deal, rotation, tuple(range(n))
        return deal, rotation, tuple((s + rotation) % n for s in range(n))

    def deal_rotation(self, index: int) -> int:
        """How far game `index` turns its deal (`Game.rotate_deal`); 0 when agents rotate instead."""
        return index % self.game.players if self.seat_rotation and self.rotate_deals else 0


def play_one(match: Match, index: int, observe: Callable[[State], None] | None = None) -> GameRecord:
    """Play game `index` of a match to the end (terminal or cap).

    `observe(state)`, when given, sees the state before every player's decision (reports count
    the legal moves there); it must not change the state.
    """
    game = match.game
    deal, rotation, order = match.seating(index)
    chance_rng = random.Random(derive_seed(match.seed, CHANCE_STREAM, deal))
    agents = [match.agents[a](game) for a in order]
    rngs = [random.Random(derive_seed(match.seed, AGENT_STREAM, index, s)) for s in range(game.players)]
    state = game.new_initial_state()
    turn_deal = match.deal_rotation(index)
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            outcome = state.sample_chance(chance_rng)
            if turn_deal:  # the first chance outcome is the deal
                outcome, turn_deal = game.rotate_deal(outcome, turn_deal), 0
            state.apply(outcome)
        else:
            if observe is not None:
                observe(state)
            state.apply(agents[player].choose(state, rngs[player]))
    return GameRecord(index, deal, rotation, tuple(match.agent_names[a] for a in order),
                      tuple(state.winners()), state.is_unfinished(), state.length(), state.stats())


def play_block(match: Match, start: int, stop: int) -> list[GameRecord]:
    """Games start..stop-1, by the game's own batched fast path when it has one for these agents."""
    records = match.game.play_block(match, start, stop)
    if records is not None:
        return records
    return [play_one(match, i) for i in range(start, stop)]


_WORKER_MATCH: Match | None = None
_WORKER_PLAYER = None


def _init_worker(match: Match, player=None) -> None:
    global _WORKER_MATCH, _WORKER_PLAYER
    _WORKER_MATCH, _WORKER_PLAYER = match, player or play_block


def _worker_timed_block(bounds: tuple[int, int]) -> tuple[tuple[int, int], list[GameRecord], float]:
    started = time.perf_counter()
    records = _WORKER_PLAYER(_WORKER_MATCH, *bounds)
    return bounds, records, time.perf_counter() - started


class Progress:
    """A one-line progress bar on stderr, shown only on a terminal and only after `delay` seconds."""

    def __init__(self, total: int, label: str = "games", stream=None, delay: float = 2.0):
        self.total, self.label, self.delay = total, label, delay
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.start = time.monotonic()
        self.shown = False
        self.done = 0

    def update(self, done: int) -> None:
        self.done = done
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.start
        if elapsed < self.delay and done < self.total:
            return
        width = 30
        filled = int(width * done / max(self.total, 1))
        rate = done / elapsed if elapsed else 0.0
        eta = (self.total - done) / rate if rate else 0.0
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} {self.label}"
                          f"  {rate:,.0f}/s  eta {eta:4.0f}s ")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def make_match(game: Game, agents: Sequence[AgentFactory], seed: int, seat_rotation: bool = True,
               agent_names: Sequence[str] | None = None) -> Match:
    """The `Match` that `run` plays: seat rotation resolved as the module docstring says.

    :raises ValueError: when the agent count differs from the player count or the seed is negative.
    """
    if len(agents) != game.players:
        raise ValueError(f"{len(agents)} agents for {game.players} players")
    if seed < 0:
        raise ValueError("seed must not be negative")
    names = tuple(agent_names or [getattr(a, "name", getattr(a, "__name__", "agent")) for a in agents])
    same_agents = len(set(names)) == 1
    if same_agents and not game.rotates_deal:
        seat_rotation = False
    return Match(game, tuple(agents), names, seed, seat_rotation, rotate_deals=seat_rotation and same_agents)


def blocks_of(match: Match, games: int) -> list[tuple[int, int]]:
    """The (start, stop) blocks of games 0..games-1: a function of the match, never of the workers."""
    # a game's batched fast path may ask for larger blocks
    size = match.game.block_size(match) or BLOCK
    return [(s, min(s + size, games)) for s in range(0, games, size)]


def play_blocks(match: Match, blocks: Sequence[tuple[int, int]], workers: int | None = None,
                on_block: Callable[[int, int, list[GameRecord], float], None] | None = None,
                progress: "Progress | None" = None, player=None) -> list[GameRecord]:
    """Play `blocks` of a match on local processes; returns their records (in no fixed order).

    `player(match, start, stop) -> records` plays one block (default `play_block`); it must be
    a module-level function, so that worker processes can be given it.
    `on_block(start, stop, records, seconds)` is called in this process as each block finishes
    (the results store saves it there, so an interrupted run keeps every finished block).
    """
    workers = max(1, min(workers or default_workers(), len(blocks) or 1))
    records: list[GameRecord] = []

    def finished(bounds, chunk, seconds):
        records.extend(chunk)
        if on_block is not None:
            on_block(bounds[0], bounds[1], chunk, seconds)
        if progress:
            progress.update(progress.done + len(chunk))

    if workers == 1:
        for bounds in blocks:
            started = time.perf_counter()
            chunk = (player or play_block)(match, *bounds)
            finished(bounds, chunk, time.perf_counter() - started)
    else:
        with local_pool(workers, initializer=_init_worker, initargs=(match, player)) as pool:
            for bounds, chunk, seconds in pool.imap_unordered(_worker_timed_block, blocks):
                finished(bounds, chunk, seconds)
    return records


def run(game: Game, agents: Sequence[AgentFactory], games: int, seed: int, workers: int | None = None,
        seat_rotation: bool = True, agent_names: Sequence[str] | None = None,
        progress: bool = True) -> tuple[list[GameRecord], dict]:
    """Play `games` games and return (records sorted by index, summary).

    `agents[i]` is a factory `factory(game) -> Agent` for agent i; there is one per seat.

    :raises ValueError: when the agent count differs from the player count or counts are negative.
    """
    if games < 0:
        raise ValueError("games must not be negative")
    match = make_match(game, agents, seed, seat_rotation, agent_names)
    blocks = blocks_of(match, games)
    bar = Progress(games) if progress else None
    started = time.perf_counter()
    records = play_blocks(match, blocks, workers, progress=bar)
    if bar:
        bar.close()
    records.sort(key=lambda r: r.index)
    seconds = time.perf_counter() - started
    return records, summarize(game, match, records, seconds)


def seat_results(players: int, outcomes: Sequence[tuple[Sequence[int], bool]]) -> dict:
    """Wins by seat, draws, unfinished games and win rates with Wilson 95% intervals.

    `outcomes` holds (winners, unfinished) per game; a game with several winners is a draw.

    >>> seat_results(2, [((0,), False), ((1,), False), ((0, 1), False), ((), True)])["wins_by_seat"]
    [1, 1]
    """
    wins = [0] * players
    draws = unfinished = 0
    for winners, is_unfinished in outcomes:
        if is_unfinished:
            unfinished += 1
        elif len(winners) == 1:
            wins[winners[0]] += 1
        else:
            draws += 1
    total = len(outcomes)
    return {"wins_by_seat": wins, "draws": draws, "unfinished": unfinished,
            "win_rate_by_seat": [{"rate": w / total if total else 0.0, "ci95": list(wilson_interval(w, total))}
                                 for w in wins]}


def summarize(game: Game, match: Match, records: list[GameRecord], seconds: float) -> dict:
    """The simulation summary (the JSON of `boardlab simulate`): common figures at the top
    level, the game's own (`Game.summarize`) under the key `game.id`."""
    n = game.players
    total = len(records)
    seats = seat_results(n, [(r.winners, r.unfinished) for r in records])
    by_agent: dict[str, list[int]] = {}
    if len(set(match.agent_names)) > 1:
        for r in records:
            for name in r.agents:
                by_agent.setdefault(name, [0, 0])[1] += 1
            if not r.unfinished and len(r.winners) == 1:
                by_agent[r.agents[r.winners[0]]][0] += 1
    finished = [r.length for r in records if not r.unfinished]
    summary = {
        "game": game.id,
        "variant": game.variant,
        "players": n,
        "agents": list(match.agent_names),
        "games": total,
        "seed": match.seed,
        "seat_rotation": ("deal turned for every seat" if match.rotate_deals else "agents rotated on every deal")
                         if match.seat_rotation else "none",
        "wins_by_seat": seats["wins_by_seat"],
        "draws": seats["draws"],
        "unfinished": seats["unfinished"],
        "win_rate_by_seat": seats["win_rate_by_seat"],
        "length": {"unit": game.length_unit, **describe_lengths(finished)},
        "seconds": round(seconds, 3),
    }
    if by_agent:
        summary["win_rate_by_agent"] = {
            name: {"wins": k, "seats_played": m, "rate": k / m if m else 0.0, "ci95": list(wilson_interval(k, m))}
            for name, (k, m) in by_agent.items()}
    own = game.summarize(records)
    if own:
        summary[game.id] = own
    return summary
