"""The simulations a report or a comparison needs, played through the results store.

A `Job` is one configuration (definition, players, agent per seat, games, seed); `play_jobs`
plans every job first (which of their blocks the store lacks), shows one progress bar over all
the games still to play, hands the missing blocks of every job to the runner's backend at once
(`runner.Backend.play`: local processes, or a Dask cluster), saves each block as it finishes,
then reads every job's records back from the store and summarises them.

An *observed* job plays random self-play through the reference engine and keeps, per game,
how many legal moves each decision offered (the decisions section); it is stored under its
own engine fingerprint (suffix "+decisions").
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from boardlab.analysis import engines, runner
from boardlab.analysis.store import ResultStore, config_key

if TYPE_CHECKING:
    from boardlab.analysis.protocol import Game, State

_T = TypeVar("_T")


@dataclass(frozen=True)
class Job:
    definition: Any
    players: int
    agents: tuple[str, ...]  # agent name per seat
    games: int
    seed: int
    observe: bool = False


@dataclass
class Outcome:
    """What a job produced: records from the store and the runner's summary."""

    job: Job
    records: list
    summary: dict


def play_observed_block(match: runner.Match, start: int, stop: int) -> list[runner.GameRecord]:
    """Games start..stop-1 by the reference engine, with the legal-move count of every decision.

    A record's stats are {"choices": {"k": decisions that offered k moves}, "passes": decisions
    whose only move was a pass}.
    """
    out = []
    for index in range(start, stop):
        choices: Counter = Counter()
        passes = [0]

        def observe(state: State, choices: Counter = choices, passes: list[int] = passes) -> None:
            moves = state.legal_moves()
            choices[len(moves)] += 1
            if len(moves) == 1 and match.game.is_pass(moves[0]):
                passes[0] += 1

        record = runner.play_one(match, index, observe=observe)
        stats = {"choices": {str(k): choices[k] for k in sorted(choices)}, "passes": passes[0]}
        out.append(dataclasses.replace(record, stats=stats))
    return out


def _prepare(job: Job, store: ResultStore) -> tuple[Game, runner.Match, str, list[tuple[int, int]]]:
    game = engines.make_game(job.definition, job.players)
    known = engines.agent_factories(job.definition.game.id)
    match = runner.make_match(game, [known[name] for name in job.agents], job.seed, True, job.agents)
    key = config_key(game, match.agent_names, job.seed, match.seat_rotation)
    if job.observe:
        key = dataclasses.replace(key, engine=key.engine + "+decisions")
    config = store.register(key)
    blocks = [(a, min(a + runner.BLOCK, job.games)) for a in range(0, job.games, runner.BLOCK)] if job.observe \
        else runner.blocks_of(match, job.games)
    return game, match, config, store.missing_blocks(config, blocks)


def play_missing(jobs: list[Job], store: ResultStore, workers: int | None = None, progress: bool = True,
                 label: str = "games", backend: runner.Backend | None = None, estimate: float | None = None) -> list:
    """Play what the store lacks of every job (on `backend`, default `workers` local processes),
    saving each block as it finishes; the jobs' plans (game, match, config, blocks that were
    missing).  `estimate`: the CPU seconds the budget expects of them, said on the progress line."""
    prepared = [_prepare(job, store) for job in jobs]
    total = sum(b - a for *_, todo in prepared for a, b in todo)
    bar = runner.Progress(total, label, estimate=estimate) if progress and total else None
    backend = backend or runner.LocalBackend(workers)
    for observe in (False, True):  # every block of every job of one kind goes out together
        work = [(match, bounds, config) for job, (_, match, config, todo) in zip(jobs, prepared)
                if job.observe == observe for bounds in todo]
        if not work:
            continue
        for done in backend.play([(match, bounds) for match, bounds, _ in work],
                                 player=play_observed_block if observe else None):
            store.put_block(work[done.job][2], done.start, done.stop, done.output, done.seconds)
            if bar:
                bar.update(bar.done + done.stop - done.start)
    if bar:
        bar.close()
    return prepared


def play_jobs(jobs: list[Job], store: ResultStore, workers: int | None = None, progress: bool = True,
              label: str = "games", backend: runner.Backend | None = None,
              estimate: float | None = None, reduce: Callable[[Outcome], object] | None = None) -> list:
    """Play what the store lacks of every job (`play_missing`); return every job's outcome (in
    the jobs' order).  `reduce(outcome)`: what to keep of each outcome instead of it (a sweep's
    point metrics), so that only one job's records are held at a time."""
    prepared = play_missing(jobs, store, workers, progress, label, backend, estimate)
    outcomes = []
    for job, (game, match, config, todo) in zip(jobs, prepared):
        records = store.records(config, job.games)
        seconds = round(store.seconds(config, job.games), 3)
        # an observed job's records hold only the decision counts: no game summary of them
        summary = {"games": len(records), "seconds": seconds} if job.observe else \
            runner.summarize(game, match, records, seconds)
        outcome = Outcome(job, records, summary)
        outcomes.append(reduce(outcome) if reduce is not None else outcome)
        del records, outcome  # with `reduce`, one job's records at a time
    return outcomes


def tally_jobs(jobs: list[Job], store: ResultStore, fold: Callable[[Job, Iterator[list[runner.GameRecord]]], _T],
               workers: int | None = None, progress: bool = True, backend: runner.Backend | None = None,
               estimate: float | None = None, chunk: int = 8192) -> list[_T]:
    """Play what the store lacks of every job (`play_missing`), then `fold(job, chunks)` each job's
    games read from the store `chunk` records at a time (`ResultStore.record_chunks`): what a caller
    keeps of many games (a comparison's per-game series, a sweep point's tallies) without ever
    holding their records whole.  `estimate`: the budget's CPU seconds, on the progress line."""
    prepared = play_missing(jobs, store, workers, progress, backend=backend, estimate=estimate)
    return [fold(job, store.record_chunks(config, job.games, chunk)) for job, (_, _, config, _) in zip(jobs, prepared)]


#: seconds under which a probe is played again (`estimated_seconds`)
REPROBE = 2.0
#: CPU seconds a probe aims at: a cheaper probe is played again with GROWTH times the games
PROBE_SECONDS = 0.1
GROWTH = 8


def estimated_seconds(jobs: list[Job], store: ResultStore) -> tuple[float, int]:
    """(estimated CPU seconds, games) of playing what the store lacks of every job, from a probe:
    one rotation of the seats of each job with missing games is played here (not stored: its
    result is thrown away) and timed by this process's CPU clock, and its cost per game scales to
    the job's missing games. A probe that took under `REPROBE` seconds, or that compiled code
    (`compiled_during`: a rule set the cached kernels were not built for, such as a 36-cell grid),
    is played once more and the faster of the two counts: the first call of a path pays for loading
    or compiling its code, which would make a cheap game look hundreds of times dearer (a 6 x 6
    grid's first probe compiled for about 10 s and sized its self-play to 28 games of 2,400, the
    numbers of its whole report from an empty store). A probe under `PROBE_SECONDS` is played
    again with `GROWTH` times the games (up to the games missing), so that the per-call costs a long
    block spreads (a compiled kernel's set-up) are spread over enough games: a probe of two games of
    Blockd's random self-play read about a thousand times its cost per game in a block of 4,096.
    """
    import time

    total, games = 0.0, 0
    for job in jobs:
        _, match, _, todo = _prepare(job, store)
        missing = sum(b - a for a, b in todo)
        if not missing:
            continue
        probe = min(missing, job.players)
        play = play_observed_block if job.observe else runner.play_block
        took, tries = float("inf"), 0
        while True:
            with compiled_during() as compiled:
                started = time.process_time()
                play(match, 0, probe)
                took, tries = min(took, time.process_time() - started), tries + 1
            if tries == 1 and (took < REPROBE or compiled()):
                continue  # the first call may have paid for loading or compiling code
            if took >= PROBE_SECONDS or probe >= missing:
                break
            probe, took = min(missing, probe * GROWTH), float("inf")
        total += took / probe * missing
        games += missing
    return total, games


@contextlib.contextmanager
def compiled_during() -> Iterator[Callable[[], bool]]:
    """A context whose value says, once it has closed, whether numba compiled anything inside it
    (numba's "numba:compile" events; a function loaded from numba's cache is no compile) or was
    imported inside it: costs of a first call that later calls of the same path do not pay."""
    import sys

    if "numba" not in sys.modules:
        yield lambda: "numba" in sys.modules
        return
    from numba.core import event

    with event.install_recorder("numba:compile") as recorder:
        yield lambda: bool(recorder.buffer)


def stored_seconds(outcomes: list[Outcome]) -> float:
    """Compute time the store recorded for all these outcomes' games."""
    return round(sum(o.summary["seconds"] for o in outcomes), 3)  # the store keeps milliseconds
