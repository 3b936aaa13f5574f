"""What the sub-commands share: argument types (argparse turns their errors into one line, exit 2),
the argument sets every command that plays games takes (game, variant, players, seed, store,
backend), and the one store-and-backend context they play in.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Callable


def whole_number(text: str, least: int) -> int:
    """`text` as a whole number no smaller than `least`, or an argparse error saying why."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, got {value}" if least else
                                         f"must not be negative, got {value}")
    return value


def at_most(limit: int, least: int = 1) -> Callable[[str], int]:
    """An argument type: a whole number from `least` to `limit` (a larger one is refused, not tried).

    >>> at_most(10)("3")
    3
    """
    def check(text: str) -> int:
        value = whole_number(text, least)
        if value > limit:
            raise argparse.ArgumentTypeError(f"at most {limit:,}, got {value:,}")
        return value
    return check


def number_between(low: float, high: float, inclusive: bool = True) -> Callable[[str], float]:
    """An argument type: a number from `low` to `high` (the ends themselves only when `inclusive`).

    >>> number_between(0, 1, inclusive=False)("0.25"), number_between(0.05, 60)("60")
    (0.25, 60.0)
    """
    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        inside = low <= value <= high if inclusive else low < value < high
        if not inside:  # also refuses nan
            raise argparse.ArgumentTypeError(f"must be between {low:g} and {high:g}, got {text}")
        return value
    return check


def add_seed_argument(p: argparse.ArgumentParser) -> None:
    """`--seed S`: the one seed every random choice of the command flows from (default 1)."""
    p.add_argument("--seed", type=non_negative, default=1, metavar="S", help="random seed (default: 1)")


def add_budget_arguments(p: argparse.ArgumentParser, command: str) -> None:
    """`--budget MIN` and `--quick`: the CPU minutes `command` may take (default: the definition's
    `analysis.COMMAND_cpu_minutes`; 0: no limit), each phase sized from a probe to fit; `--quick`
    for iterating (at most a minute)."""
    from boardlab.analysis.budget import QUICK_MINUTES

    p.add_argument("--budget", type=number_between(0, 10_000), metavar="MIN",
                   help=f"CPU minutes the command may take (this process and its local workers): each phase's "
                        f"cost is estimated from a short probe and its games sized to fit, and the output says "
                        f"what the budget bought and left out (default: the definition's "
                        f"analysis.{command}_cpu_minutes, 10 unless it says; 0: no limit)")
    p.add_argument("--quick", action="store_true",
                   help=f"a quick run for iterating on a rule: a budget of at most {QUICK_MINUTES:g} CPU minute")


def budget_minutes(args: argparse.Namespace, definition: object, command: str) -> float | None:
    """The CPU minutes of `--budget` and `--quick` for `command` on `definition` (None: no limit)."""
    from boardlab.analysis.budget import minutes_of

    default = getattr(getattr(definition, "analysis", None), f"{command}_cpu_minutes", 10.0)
    return minutes_of(args.budget, args.quick, default)


def add_agent_argument(p: argparse.ArgumentParser) -> None:
    """`--agent A`: one agent for every seat, else the definition's `analysis.agent`, else random."""
    p.add_argument("--agent", metavar="A", help="the agent in every seat (default: the definition's analysis.agent, "
                                                "else random)")


#: the help of --variant, the same in every command
VARIANT_HELP = "a variant file, or the name of one in layouts/variants/"


def add_game_arguments(p: argparse.ArgumentParser, capability: str | None = "engine", players: str | None = None, variant: bool = True) -> None:
    """`GAME` (one of the games with `capability`, any game when None), `--variant V` (unless `variant` is false) and,
    when `players` names the default, `--players N`.

    >>> p = argparse.ArgumentParser()
    >>> add_game_arguments(p, players="the game's maximum")
    >>> args = p.parse_args(["blockd", "--players", "3"])
    >>> args.game, args.variant, args.players
    ('blockd', None, 3)
    """
    from boardlab.layouts.registry import game_ids

    p.add_argument("game", metavar="GAME", help=f"one of {', '.join(game_ids(capability))}")
    if variant:
        p.add_argument("--variant", metavar="V", help=VARIANT_HELP)
    if players is not None:
        p.add_argument("--players", type=positive, metavar="N", help=f"number of players (default: {players})")


def add_print_arguments(p: argparse.ArgumentParser, what: str) -> None:
    """`--paper PAPER`, `--lang LANG` and `--out DIR` of the commands that write print files (`what`
    they write, for the help of --lang): the folder and subfolders `print` writes into
    (`boardlab.commands.print.language_outputs`)."""
    from pathlib import Path

    from boardlab.layouts import print_conventions

    papers = tuple(print_conventions().papers)
    p.add_argument("--paper", choices=papers, metavar="PAPER",
                   help=f"paper size: {', '.join(papers)} (default: the game's [print] paper)")
    p.add_argument("--lang", metavar="LANG",
                   help=f"the language of {what}: one of the definition's [rulebook] languages, or 'all' for "
                        "each of them (default: the first)")
    p.add_argument("--out", metavar="DIR", type=Path,
                   help="output folder (default: build/print/GAME; with --variant build/print/VARIANT, the variant's "
                        "file name with the game id in front if it lacks it; another language than the first "
                        "goes to its subfolder LANG)")


def add_backend_arguments(p: argparse.ArgumentParser) -> None:
    """`--workers W` and the cluster arguments: where the games are played."""
    from boardlab.layouts.limits import default_workers

    p.add_argument("--workers", type=worker_count, metavar="W",
                   help=f"worker processes (default: the number of cores, {default_workers()} here)")
    add_cluster_arguments(p)


def add_store_arguments(p: argparse.ArgumentParser, backend: bool = True) -> None:
    """`--store PATH` (the results store) and, when `backend`, the backend arguments (`--workers`, `--cluster`)."""
    from boardlab.analysis.store import DEFAULT_STORE

    p.add_argument("--store", metavar="PATH", default=str(DEFAULT_STORE),
                   help=f"the SQLite results store (default: {DEFAULT_STORE})")
    if backend:
        add_backend_arguments(p)


@contextmanager
def backend_of(args: argparse.Namespace) -> Iterator:
    """The backend `args` name (`--workers`, `--cluster`, `--cluster-timeout`), closed at the end
    (workers gone) whatever happens inside.  A stop (Ctrl-C, SIGTERM) landing anywhere inside, not
    only while blocks are in flight, abandons it (`Backend.abandon`: a local Dask cluster's
    workers killed) instead of the orderly close, which would wait a second or more for the
    cluster's graceful shutdown.

    :raises BoardlabError: when the cluster cannot be used.
    """
    from boardlab.analysis.runner import backend_for

    backend = backend_for(args.cluster, args.workers, args.cluster_timeout)
    stopped = False
    try:
        yield backend
    except KeyboardInterrupt:
        stopped = True
        backend.abandon()
        raise
    finally:
        if not stopped:
            backend.close()


@contextmanager
def store_and_backend(args: argparse.Namespace) -> Iterator[tuple]:
    """(results store, backend) of a command that plays games: the store `--store` names (opened
    first, so a store that cannot be opened starts no worker) and `backend_of(args)`; both closed at the end.

    :raises BoardlabError: when the store or the cluster cannot be used.
    """
    from boardlab.analysis.store import ResultStore

    with ResultStore(args.store) as store, backend_of(args) as backend:
        yield store, backend


def add_cluster_arguments(p: argparse.ArgumentParser) -> None:
    """`--cluster ADDRESS|local` (default: $BOARDLAB_CLUSTER, else local processes) and `--cluster-timeout`."""
    import os

    p.add_argument("--cluster", metavar="ADDRESS", default=os.environ.get("BOARDLAB_CLUSTER") or None,
                   help="play the games on a Dask scheduler (tcp://HOST:8786), or 'local' for a Dask cluster "
                        "of --workers processes here (default: $BOARDLAB_CLUSTER, else local processes)")
    p.add_argument("--cluster-timeout", type=positive, default=10, metavar="S",
                   help="seconds to wait for the scheduler and its workers before giving up (default: 10)")


def worker_count(text: str) -> int:
    """--workers: a whole number from 1 to MAX_WORKERS (the pool then uses at most the cores there are).

    >>> worker_count("2")
    2
    """
    from boardlab.layouts.limits import MAX_WORKERS

    return at_most(MAX_WORKERS)(text)


def positive(text: str) -> int:
    """A whole number >= 1.

    >>> positive("3")
    3
    """
    return whole_number(text, 1)


def non_negative(text: str) -> int:
    """A whole number >= 0."""
    return whole_number(text, 0)


def offset_mm(text: str) -> tuple[float, float]:
    """"X,Y" in millimetres, each between -20 and 20 (a printer shifting more needs repair, not an offset).

    >>> offset_mm("1.5,-0.5")
    (1.5, -0.5)
    """
    parts = text.split(",")
    try:
        x, y = (float(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not X,Y in millimetres, e.g. 1.5,-0.5") from None
    if not all(-20.0 <= v <= 20.0 for v in (x, y)):  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"each of X and Y must lie between -20 and 20 mm, got {text}")
    return x, y


def game_definition(game: str, variant: str | None) -> Any:  # the game's own Definition class
    """The definition a command works on: the game's own, or a variant of it.

    :raises BoardlabError: for an unknown game or a variant of another game.
    """
    from boardlab.layouts import BoardlabError, game_entry, load

    game_entry(game)  # an unknown game is an error naming the known ones
    definition = load(variant) if variant else load(game)
    if definition.game.id != game:
        raise BoardlabError(f"variant '{variant}' is a variant of {definition.game.id}, not {game}")
    return definition
