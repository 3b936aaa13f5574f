"""Play many games with given agents and one seed, in parallel, with identical results.

Every random choice flows from the one seed:
- deal d (the chance events of a game) uses `derive_seed(seed, CHANCE_STREAM, d)`;
- the agent in seat s of game g uses `derive_seed(seed, AGENT_STREAM, g, s)` (a game's batched
  fast path may draw its agents' moves from a stream of its own, documented in its module).
Games are cut into blocks of `BLOCK` consecutive indices whatever the worker count (or of
`Game.block_size(match)` when the game's batched fast path plays the match and wants larger
blocks; `Game.play_block` plays a block when the game has a faster path), and the summary is
made of counts that add up the same in any order (see below), so `--workers 1` and
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
results are counted in `tally.SummaryTally` and only there) and the game's own figures
(`Game.tally`) under one key, the game id.  Summaries stream: `run` has every block summarised
where it is played (`tally_block`: a `SummaryTally` of counts, never the records) and merges the
tallies, so memory stays flat in the number of games; the counts merge in any order, so the
summary is the same whatever order the blocks finish in.  `run_records` also keeps the records
(tests, and the results store, which saves them).

Where blocks are played is a `Backend`: `LocalBackend` (processes of this machine, the default)
or the Dask backend of `boardlab.analysis.cluster` (`--cluster ADDRESS|local`).  A block's
records depend only on its match and bounds, so the summary is the same whatever the backend
and the number of workers.  `Backend.play(jobs, player)` takes every block of every
configuration at once, as a list of (match, (start, stop)) jobs, and yields a `BlockResult`
for each block as it finishes (in no fixed order): a sweep (a report, `compare`) submits all
its configurations together and saves each block as it arrives.  `backend_for(cluster,
workers)` picks the backend for a command's `--cluster` and `--workers`.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from boardlab.common import stopping
from boardlab.analysis.pool import local_pool
from boardlab.analysis.progress import Progress  # noqa: F401 (used here and re-exported to the commands)
from boardlab.analysis.protocol import CHANCE, Game, State
from boardlab.analysis.tally import SummaryTally, seat_figures
from boardlab.layouts.limits import MAX_GAMES, default_workers  # noqa: F401 (both used and re-exported)

CHANCE_STREAM = 0
AGENT_STREAM = 1
BLOCK = 64

AgentFactory = Callable[[Game], Any]
#: plays one block of a match: `player(match, start, stop)` -> its output (records, a tally); a
#: module-level function, so that worker processes can be given it
BlockPlayer = Callable[["Match", int, int], Any]


def derive_seed(seed: int, *keys: int) -> int:
    """A 64-bit seed for one stream of one game, independent of every other (key) stream.

    >>> derive_seed(1, 0, 5) == derive_seed(1, 0, 5) != derive_seed(1, 0, 6)
    True
    """
    import numpy as np  # here, not at the top: `check` imports the engines (for their agents) and plays nothing

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


def tally_block(match: Match, start: int, stop: int) -> SummaryTally:
    """The summary tally of games start..stop-1: by the game's own fast path straight to counts
    (`Game.tally_block`) when it has one, else from the block's records."""
    tally = match.game.tally_block(match, start, stop)
    if tally is None:
        tally = SummaryTally(match)
        tally.add(play_block(match, start, stop))
    return tally


Job = tuple[Match, tuple[int, int]]  # one block of one configuration: (match, (start, stop))


@dataclass(frozen=True)
class BlockResult:
    """A finished block: `job` is its position in the submitted job list; `output` is what the
    block's player returned (its records for `play_block`, its `SummaryTally` for `tally_block`)."""

    job: int
    start: int
    stop: int
    output: Any
    seconds: float


def play_timed(match: Match, start: int, stop: int, player: BlockPlayer | None = None) -> tuple[Any, float]:
    """(output, seconds) of one block, played by `player` (default `play_block`)."""
    started = time.perf_counter()
    output = (player or play_block)(match, start, stop)
    return output, time.perf_counter() - started


class Backend:
    """Where blocks are played (see the module docstring)."""

    #: how the summary names it ("local" or "dask")
    name = "backend"

    def play(self, jobs: Sequence[Job], player: BlockPlayer | None = None) -> Iterator[BlockResult]:
        """Play every job's block; yield each result as it finishes (in no fixed order).

        `player(match, start, stop)` plays one block (default `play_block`, giving records;
        `tally_block` gives a `SummaryTally`); it must be a module-level function, so that
        workers can be given it.
        """
        raise NotImplementedError

    def close(self) -> None:
        """Let go of what the backend holds (workers, connections)."""

    def abandon(self) -> None:
        """Let go at once, on a signal (Ctrl-C): what is in flight is thrown away, so nothing is
        waited for; `close` afterwards does nothing more.  By default, `close` (local workers end
        at once: the pool is terminated)."""
        self.close()


class LocalBackend(Backend):
    """Processes of this machine: `workers` of them (1: in this process)."""

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers

    def play(self, jobs: Sequence[Job], player: BlockPlayer | None = None) -> Iterator[BlockResult]:
        workers = max(1, min(self.workers or default_workers(), len(jobs) or 1))
        if workers == 1:
            for i, (match, (start, stop)) in enumerate(jobs):
                stopping.reraise_swallowed()  # a stop that a library swallowed whole still ends the run
                output, seconds = play_timed(match, start, stop, player)
                yield BlockResult(i, start, stop, output, seconds)
            return
        matches: list[Match] = []
        where: dict[int, int] = {}
        for match, _ in jobs:
            if id(match) not in where:
                where[id(match)] = len(matches)
                matches.append(match)
        tasks = [(where[id(match)], i, start, stop) for i, (match, (start, stop)) in enumerate(jobs)]
        with local_pool(workers, initializer=_init_worker, initargs=(matches, player)) as pool:
            yield from pool.imap_unordered(_worker_block, tasks)


_WORKER_MATCHES: list[Match] = []
_WORKER_PLAYER: BlockPlayer | None = None


def _init_worker(matches: list[Match], player: BlockPlayer | None = None) -> None:
    global _WORKER_MATCHES, _WORKER_PLAYER
    _WORKER_MATCHES, _WORKER_PLAYER = matches, player


def _worker_block(task: tuple[int, int, int, int]) -> BlockResult:
    match, job, start, stop = task
    output, seconds = play_timed(_WORKER_MATCHES[match], start, stop, _WORKER_PLAYER)
    return BlockResult(job, start, stop, output, seconds)


def backend_for(cluster: str | None, workers: int | None = None, timeout: float | None = None) -> Backend:
    """The backend of a command: local processes, or a Dask cluster (`cluster`: a scheduler
    address, or "local" for a LocalCluster of `workers` processes on this machine).

    :raises BoardlabError: when the cluster cannot be used (see `boardlab.analysis.cluster`).
    """
    if not cluster:
        return LocalBackend(workers)
    from boardlab.analysis.cluster import DaskBackend
    return DaskBackend(cluster, workers=workers, timeout=timeout)


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
                progress: "Progress | None" = None, player: BlockPlayer | None = None,
                backend: Backend | None = None) -> list[GameRecord]:
    """Play `blocks` of a match (on `backend`, default local processes); returns their records
    (in no fixed order).  `stream_blocks` plays them without keeping them.

    `player(match, start, stop) -> records` plays one block (default `play_block`); it must be
    a module-level function, so that worker processes can be given it.
    """
    records: list[GameRecord] = []
    stream_blocks(match, blocks, lambda start, stop, output, seconds: records.extend(output), workers,
                  progress, player, backend)
    return records


def stream_blocks(match: Match, blocks: Sequence[tuple[int, int]],
                  on_block: Callable[[int, int, Any, float], None], workers: int | None = None,
                  progress: "Progress | None" = None, player: BlockPlayer | None = None,
                  backend: Backend | None = None) -> None:
    """Play `blocks` of a match (on `backend`, default local processes) and hand each block to
    `on_block(start, stop, output, seconds)` in this process as it finishes; nothing is kept here.

    `output` is what `player(match, start, stop)` returned (default `play_block`: the records).
    The results store saves each block there, so an interrupted run keeps every finished block
    and memory holds one block at a time.
    """
    backend = backend or LocalBackend(workers)
    for done in backend.play([(match, bounds) for bounds in blocks], player):
        on_block(done.start, done.stop, done.output, done.seconds)
        if progress:
            progress.update(progress.done + done.stop - done.start)


def run(game: Game, agents: Sequence[AgentFactory], games: int, seed: int, workers: int | None = None,
        seat_rotation: bool = True, agent_names: Sequence[str] | None = None,
        progress: bool = True, backend: Backend | None = None) -> dict:
    """Play `games` games (on `backend`, default `workers` local processes) and return their
    summary, streamed: every block is summarised where it is played and no record is kept.

    `agents[i]` is a factory `factory(game) -> Agent` for agent i; there is one per seat.

    :raises ValueError: when the agent count differs from the player count or counts are negative.
    """
    match, blocks = _plan(game, agents, games, seed, seat_rotation, agent_names)
    bar = Progress(games) if progress else None
    started = time.perf_counter()
    total = SummaryTally(match)
    for done in (backend or LocalBackend(workers)).play([(match, bounds) for bounds in blocks], tally_block):
        total.merge(done.output)
        if bar:
            bar.update(bar.done + done.stop - done.start)
    if bar:
        bar.close()
    return total.result(game, match, time.perf_counter() - started)


def run_records(game: Game, agents: Sequence[AgentFactory], games: int, seed: int, workers: int | None = None,
                seat_rotation: bool = True, agent_names: Sequence[str] | None = None,
                progress: bool = True, backend: Backend | None = None) -> tuple[list[GameRecord], dict]:
    """`run`, keeping every game's record: (records sorted by index, summary of them)."""
    match, blocks = _plan(game, agents, games, seed, seat_rotation, agent_names)
    bar = Progress(games) if progress else None
    started = time.perf_counter()
    records = play_blocks(match, blocks, workers, progress=bar, backend=backend)
    if bar:
        bar.close()
    records.sort(key=lambda r: r.index)
    seconds = time.perf_counter() - started
    return records, summarize(game, match, records, seconds)


def _plan(game: Game, agents: Sequence[AgentFactory], games: int, seed: int, seat_rotation: bool,
          agent_names: Sequence[str] | None) -> tuple[Match, list[tuple[int, int]]]:
    if not 0 <= games <= MAX_GAMES:
        raise ValueError(f"games must be between 0 and {MAX_GAMES:,}")
    match = make_match(game, agents, seed, seat_rotation, agent_names)
    return match, blocks_of(match, games)


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
    return seat_figures(wins, draws, unfinished, len(outcomes))


def summarize(game: Game, match: Match, records: Sequence[GameRecord], seconds: float) -> dict:
    """The simulation summary of `records` (the JSON of `boardlab simulate`): common figures at
    the top level, the game's own (`Game.tally`) under the key `game.id`."""
    tally = SummaryTally(match)
    tally.add(records)
    return tally.result(game, match, seconds)
