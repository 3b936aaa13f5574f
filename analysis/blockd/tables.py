"""`boardlab tables blockd`: what the move graph looks like over many random deals.

For every player count, N deals are dealt (deal d from `derive_seed(seed, CHANCE_STREAM, d)`,
the same deals as `boardlab simulate` with that seed) and played by uniformly random moves
(`derive_seed(seed, TABLE_PLAY_STREAM, d)`).  At the start and after each complete round the
position is measured (see `boardlab.analysis.blockd.graph`):
- mobility: per pawn, the cells it could end on now;
- dead cells: face-up cells from which a pawn would have no move;
- components: strongly connected components of the face-up cells, and the largest one's size;
- reach: per pawn, the cells (other than its own) reachable within `REACH_TURNS` moves,
  ignoring future flips;
- trap distance: per pawn, the fewest of its own moves that could leave it without a move,
  counted up to `TRAP_HORIZON` (beyond: "more").
Every figure depends only on the seed and the options, never on the number of workers.

>>> from boardlab.layouts import load
>>> from boardlab.analysis.tables import TableOptions
>>> t = tables(load("blockd"), TableOptions(players=2, deals=2, seed=1, workers=1))
>>> t.data["by_players"]["2"]["start"]["positions"]
2
"""

from __future__ import annotations

import contextlib
import random
from typing import TYPE_CHECKING, Any, Iterator

import numpy as np

from boardlab.analysis.blockd.engine import make_game
from boardlab.analysis.blockd.graph import components, dead_cells, move_graph, reachable_within
from boardlab.analysis.blockd.graph_kernel import graph_figures, reachable_count, trap_distance  # compiled twins
from boardlab.analysis.blockd.walks import Grid, self_avoiding_walks, walk_table
from boardlab.analysis.pool import local_pool
from boardlab.analysis.runner import CHANCE_STREAM, Progress, default_workers, derive_seed
from boardlab.analysis.tables import Table, TableSet

if TYPE_CHECKING:
    from boardlab.analysis.blockd.engine import BlockdGame, BlockdState
    from boardlab.analysis.tables import TableOptions
    from boardlab.layouts.blockd import Definition

TABLE_PLAY_STREAM = 2  # the random moves of the table games (simulate uses streams 0 and 1)
REACH_TURNS = 2
TRAP_HORIZON = 3
BLOCK = 32
PER_PAWN = ("mobility", "reach", "trap")
PER_POSITION = ("dead_cells", "components", "largest_component")


def measure(state: BlockdState) -> dict[str, list]:
    """The quantities of one position: per pawn on the board, and per position.

    >>> from boardlab.analysis.blockd.engine import _dealt_state
    >>> m = measure(_dealt_state())
    >>> m["mobility"], m["components"]
    ([20, 20, 20, 20], [5])
    """
    figures = graph_figures(state)
    if figures is None:  # rules the compiled path does not play: the networkx reference
        graph = move_graph(state)
        parts = components(graph)
        dead, count, largest = len(dead_cells(graph)), len(parts), len(parts[0]) if parts else 0
        reach_of = lambda cell: len(reachable_within(graph, cell, REACH_TURNS)) - 1  # noqa: E731
        mobility = state.mobility
    else:  # a pawn's mobility is the out-degree of its cell (other pawns never share it but under "stack")
        dead, count, largest, reach = figures
        reach_of = lambda cell: reachable_count(reach, cell, REACH_TURNS)  # noqa: E731
        mobility = lambda seat: reach[state.pawns[seat]].bit_count()  # noqa: E731
    out: dict[str, list] = {"mobility": [], "reach": [], "trap": [],
                            "dead_cells": [dead], "components": [count], "largest_component": [largest]}
    for seat, cell in enumerate(state.pawns):
        if cell < 0:
            continue
        out["mobility"].append(mobility(seat))
        out["reach"].append(reach_of(cell))
        out["trap"].append(trap_distance(state, seat, TRAP_HORIZON))
    return out


def play_deal(game: BlockdGame, seed: int, deal_index: int) -> list[tuple[str, dict]]:
    """(checkpoint, measures) at the start and after each complete round of one random game."""
    state = game.new_initial_state()
    state.apply(state.sample_chance(random.Random(derive_seed(seed, CHANCE_STREAM, deal_index))))
    rng = random.Random(derive_seed(seed, TABLE_PLAY_STREAM, deal_index))
    out = []
    if not state.is_terminal():
        out.append(("start", measure(state)))
    while not state.is_terminal():
        round_number = state.round
        state.apply(state.random_move(rng))  # legal_moves()[rng.randrange(len(legal_moves()))]
        if not state.is_terminal() and state.round != round_number:
            out.append((f"round {round_number}", measure(state)))
    return out


def _play_block(job: tuple[Definition, int, int, int, int]) -> list:
    definition, players, seed, start, stop = job
    game = make_game(definition, players)
    return [play_deal(game, seed, d) for d in range(start, stop)]


#: fewer values than this give no 10th and 90th percentiles (None): a tenth of 2 values means nothing
PERCENTILE_MIN = 10


def describe(values: list) -> dict:
    """positions/pawns measured, mean, 10th percentile, median, 90th percentile, max.

    >>> describe([1, 2])["p10"] is None, describe(list(range(11)))["p10"]
    (True, 1.0)
    """
    arr = np.asarray(values, dtype=float)
    if not len(arr):
        return {"count": 0, "mean": 0.0, "p10": None, "median": 0.0, "p90": None, "max": 0}
    enough = len(arr) >= PERCENTILE_MIN
    return {"count": int(len(arr)), "mean": round(float(arr.mean()), 3),
            "p10": round(float(np.percentile(arr, 10)), 3) if enough else None,
            "median": round(float(np.median(arr)), 3),
            "p90": round(float(np.percentile(arr, 90)), 3) if enough else None, "max": int(arr.max())}


def _or_dash(value: Any) -> Any:
    return "-" if value is None else value


def trap_shares(values: list) -> dict:
    """Share of pawns at each trap distance 0..TRAP_HORIZON and beyond ("more")."""
    total = len(values)
    keys = [str(d) for d in range(TRAP_HORIZON + 1)] + ["more"]
    counts = dict.fromkeys(keys, 0)
    for v in values:
        counts["more" if v is None else str(v)] += 1
    return {k: round(counts[k] / total, 4) if total else 0.0 for k in keys}


def sample(definition: Definition, players: int, deals: int, seed: int, workers: int | None = None,
           progress: bool = False) -> dict:
    """Per checkpoint, the distributions of the quantities over `deals` random games.

    With `progress`, a progress bar on stderr (only on a terminal, after two seconds).
    """
    jobs = [(definition, players, seed, s, min(s + BLOCK, deals)) for s in range(0, deals, BLOCK)]
    workers = max(1, min(workers or default_workers(), len(jobs)))
    bar = Progress(deals, label="deals") if progress else None
    results = []
    with contextlib.ExitStack() as stack:
        blocks: Iterator[list]
        if workers == 1:
            blocks = map(_play_block, jobs)
        else:
            blocks = stack.enter_context(local_pool(workers)).imap(_play_block, jobs)  # in the order of the jobs
        for job, block in zip(jobs, blocks):
            results.append(block)
            if bar:
                bar.update(job[-1])
    if bar:
        bar.close()
    pooled: dict[str, dict[str, Any]] = {}
    for block in results:
        for game_points in block:
            for checkpoint, measures in game_points:
                into = pooled.setdefault(checkpoint, {"positions": 0, **{k: [] for k in PER_PAWN + PER_POSITION}})
                into["positions"] += 1
                for key in PER_PAWN + PER_POSITION:
                    into[key].extend(measures[key])
    out = {}
    for checkpoint in sorted(pooled, key=lambda c: -1 if c == "start" else int(c.split()[1])):
        values = pooled[checkpoint]
        entry: dict[str, Any] = {"positions": values["positions"]}
        for key in ("mobility", "reach", "dead_cells", "components", "largest_component"):
            entry[key] = describe(values[key])
        entry["trap_distance"] = trap_shares(values["trap"])
        out[checkpoint] = entry
    return out


def tables(definition: Definition, options: TableOptions) -> "TableSet":
    """The move-graph tables of Blockd over `options.deals` random deals (see the module docstring)."""
    info = definition.game
    counts = [options.players] if options.players else list(range(info.min_players, info.max_players + 1))
    data: dict[str, Any] = {"deals": options.deals, "seed": options.seed, "reach_turns": REACH_TURNS,
            "trap_horizon": TRAP_HORIZON, "by_players": {}}
    out = []
    summary_columns = ("after", "positions", "pawns", "mean", "p10", "median", "p90", "max")
    percentiles = (f"p10 and p90: a tenth of the values lie below p10 and a tenth above p90 (shown from "
                   f"{PERCENTILE_MIN} values on, '-' below).")
    titles = {"mobility": "Mobility of a pawn (cells it could end on)",
              "reach": f"Cells a pawn reaches within {REACH_TURNS} turns (ignoring flips)",
              "dead_cells": "Dead cells (face up, no move out)",
              "components": "Strongly connected components of the face-up cells (groups of cells in which a "
                            "pawn could travel from any cell to any other and back; a pawn's cell, where no "
                            "other pawn may end, is usually one on its own)",
              "largest_component": "Size of the largest component (cells)"}
    for players in counts:
        by_checkpoint = sample(definition, players, options.deals, options.seed, options.workers, options.progress)
        data["by_players"][str(players)] = by_checkpoint
        for key, title in titles.items():
            rows: list[tuple] = []
            for checkpoint, entry in by_checkpoint.items():
                d = entry[key]
                rows.append((checkpoint, entry["positions"], d["count"], d["mean"], _or_dash(d["p10"]), d["median"],
                             _or_dash(d["p90"]), d["max"]))
            columns = summary_columns if key in PER_PAWN else summary_columns[:2] + summary_columns[3:]
            if key not in PER_PAWN:
                rows = [row[:2] + row[3:] for row in rows]
            out.append(Table(f"{title}, {players} players", columns, tuple(rows), percentiles))
        shares = [str(d) for d in range(TRAP_HORIZON + 1)] + ["more"]
        rows = [(checkpoint, entry["positions"], *(f"{entry['trap_distance'][k]:.1%}" for k in shares))
                for checkpoint, entry in by_checkpoint.items()]
        out.append(Table(f"Trap distance of a pawn (share of pawns), {players} players",
                         ("after", "positions", *(f"{k} move{'' if k == '1' else 's'}" if k != "more" else f"more than {TRAP_HORIZON}"
                                                   for k in shares)), tuple(rows),
                         note="Trap distance: the fewest of its own moves after which a pawn could stand "
                              "without a move if the others stood still (its cards flipping as in play); "
                              f'"more" means not within {TRAP_HORIZON}.'))
    title = (f"{info.name}: move graph over {options.deals} random deals, seed {options.seed} "
             f"(random play; 'start' is the dealt position, 'round k' the position after round k)")
    return TableSet(title, tuple(out), data)


def exact_tables(definition: Definition) -> TableSet:
    """Exact walk counts of Blockd's grid (the rulebook's appendix): for every step count a card
    can ask for, the self-avoiding step sequences from one card of an empty grid and the cards
    they can end on; on a flat grid, from a middle card (edge cards have fewer).

    >>> from boardlab.layouts import load
    >>> t = exact_tables(load("blockd"))
    >>> [row[:3] for row in t.tables[0].rows]
    [(1, 4, 4), (2, 12, 8), (3, 36, 16), (4, 100, 24), (5, 280, 24)]
    """
    grid = Grid.from_definition(definition)
    cell = grid.cell(grid.rows // 2, grid.columns // 2)
    low, high = definition.rules.start_steps
    counts = sorted(set(definition.cards.values) | set(range(low, high + 1)))
    rows = []
    for steps in counts:
        walks = list(self_avoiding_walks(grid, cell, steps))
        rows.append((steps, len(walks), len({walk[-1] for walk in walks})))
    start_reach = len({destination for _, destination in walk_table(grid, cell, tuple(range(low, high + 1)))})
    where = "any card" if grid.torus else "a middle card"
    table = Table(f"Paths from {where} of an empty grid", ("steps", "paths", "cards reached"), tuple(rows),
                  note=f"On a start card (any of {low}..{high} steps) a pawn can reach {start_reach} cards.")
    return TableSet(f"{definition.game.name}: exact walk counts", (table,),
                    {"paths": {str(s): p for s, p, _ in rows}, "reached": {str(s): r for s, _, r in rows},
                     "start_reach": start_reach})
