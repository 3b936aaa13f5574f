"""`boardlab tables deblockle`: how many turns a lone block needs to score, from the
reachability graph (`reach.py`); exact shortest paths, means as exact fractions.

A figure is for one block alone on an empty board, moved every turn the quickest way; a
player with several blocks moves one per turn, so a player's "setup total" is the sum over
their blocks (blocks in each other's way are not counted).  The setup figures compare a
random placement (each of the 24 orientations equally likely: our model of a casual placer)
with an adversarial one.  By the rules the placer chooses the square and the rotation of
every rolled block: the setup total's adversarial mean is the exact mean over the rolls of
the largest sum a placer can give by choosing both (`reach.adversarial_setup`).  The figure of
one start square chooses the rotation only (the rolled face placed on that square).

JSON (`--format json`): ``{"by_player": {"1": {"colour", "scores_on", "start": {SQUARE:
{"min", "mean", "max", "adversarial_mean", "adversarial_cost", "by_top": {FACE: {"best",
"worst"}}}}, "setup_total": {"mean", "adversarial_mean", "adversarial_cost"}, "squares":
{SQUARE: {"min", "mean", "max"}}, "states_by_turns": {"1": n, ...}, "never": n}, "2": ...},
"graph": {"states", "edges"}}`` with every mean and cost an exact reduced fraction "p/q".

>>> from boardlab.layouts import load
>>> t = tables(load("deblockle"), TableOptions())
>>> t.data["by_player"]["1"]["start"]["c3"]["mean"], t.data["by_player"]["1"]["start"]["c3"]["max"]
('3/1', 4)
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from boardlab.analysis.deblockle.engine import make_game
from boardlab.analysis.deblockle.reach import adversarial_setup, reachability_graph, start_figures, turns_to_score
from boardlab.analysis.tables import Table, TableOptions, TableSet, fraction_text  # noqa: F401 (TableOptions: the provider's signature)

if TYPE_CHECKING:
    import networkx as nx

    from boardlab.analysis.deblockle.engine import DeblockleGame
    from boardlab.layouts.deblockle import Definition


def _text(value: Fraction | int | None) -> str:
    return "never" if value is None else fraction_text(value) if isinstance(value, Fraction) else str(value)


def _decimal(value: Fraction | float | None) -> str:
    return "never" if value is None else f"{float(value):.3f}"


def player_document(game: DeblockleGame, seat: int, graph: nx.DiGraph) -> dict:
    """The JSON document of one player's lone-block figures."""
    board, cube = game.board, game.cube
    table = turns_to_score(game, seat, graph)
    start = {}
    for cell in game.starts[seat]:
        f = start_figures(game, seat, cell, table)
        start[board.name(cell)] = {key: (_text(v) if key in ("mean", "adversarial_mean", "adversarial_cost") else v)
                                   for key, v in f.items()}
    figures = [start_figures(game, seat, cell, table) for cell in game.starts[seat]]
    adversarial = adversarial_setup(game, game.starts[seat], table)
    if all(f["mean"] is not None for f in figures) and adversarial is not None:
        mean = sum(f["mean"] for f in figures)
        total = {"mean": _text(mean), "adversarial_mean": _text(adversarial), "adversarial_cost": _text(adversarial - mean)}
    else:
        total = {"mean": "never", "adversarial_mean": "never", "adversarial_cost": "never"}
    squares = {}
    for cell in range(board.cells):
        if cell in game.stars:
            continue
        turns = [table.get((cell, o)) for o in range(len(cube.orientations))]
        known = [t for t in turns if t is not None]
        squares[board.name(cell)] = {
            "min": min(known) if known else None,
            "mean": _text(Fraction(sum(known), len(known))) if len(known) == len(turns) else "never",
            "max": max(known) if len(known) == len(turns) else None}
    by_turns: dict[str, int] = {}
    for d in sorted(set(table.values())):
        by_turns[str(d)] = sum(1 for v in table.values() if v == d)
    states = (graph.number_of_nodes() - 1)
    return {"colour": game.definition.players[seat].colour, "scores_on": board.name(game.target[seat]),
            "start": start, "setup_total": total, "squares": squares, "states_by_turns": by_turns,
            "never": states - len(table)}


def tables(definition: Definition, options: TableOptions) -> TableSet:
    """The Deblockle tables (the `tables` part of the registry entry); `options` has nothing to choose here."""
    game = make_game(definition)
    graphs = [reachability_graph(game, seat) for seat in range(2)]
    data = {"by_player": {str(seat + 1): player_document(game, seat, graphs[seat]) for seat in range(2)},
            "graph": {"states": graphs[0].number_of_nodes() - 1, "edges": graphs[0].number_of_edges()}}
    start_rows, top_rows, total_rows, count_rows = [], [], [], []
    for player, doc in data["by_player"].items():
        who = f"{player} ({doc['colour']})"
        for square, f in doc["start"].items():
            start_rows.append((who, square, f["min"] if f["min"] is not None else "never", f["mean"],
                               _decimal(Fraction(f["mean"]) if f["mean"] != "never" else None),
                               f["max"] if f["max"] is not None else "never", f["adversarial_mean"],
                               f["adversarial_cost"],
                               _decimal(Fraction(f["adversarial_cost"]) if f["adversarial_cost"] != "never" else None)))
            for face, v in f["by_top"].items():
                top_rows.append((who, square, face, _text(v["best"]), _text(v["worst"])))
        t = doc["setup_total"]
        total_rows.append((who, doc["scores_on"], t["mean"], t["adversarial_mean"], t["adversarial_cost"],
                           _decimal(Fraction(t["adversarial_cost"]) if t["adversarial_cost"] != "never" else None)))
        for turns, count in doc["states_by_turns"].items():
            count_rows.append((who, turns, count))
        if doc["never"]:
            count_rows.append((who, "never", doc["never"]))
    heat = tuple(heat_map(game, data["by_player"][str(seat + 1)]) for seat in range(2))
    result = (
        Table("Turns to score a lone block from each start square (24 orientations)",
              ("player", "square", "min", "mean", "mean (decimal)", "max", "adversarial mean", "adversarial cost",
               "cost (decimal)"), tuple(start_rows),
              "Mean: each orientation equally likely. Adversarial: the opponent sees the rolled top face and "
              "chooses the rotation that costs the most turns (each top face equally likely)."),
        Table("Setup total: turns to score every block, one at a time, each alone on the board",
              ("player", "scores on", "mean", "adversarial mean", "adversarial cost", "cost (decimal)"),
              tuple(total_rows),
              "Mean: each orientation equally likely on each start square. Adversarial: the opponent sees "
              "the rolled top faces and chooses the square and the rotation of every block for the most "
              "turns (each top face equally likely)."),
        Table("Best and worst rotation for each rolled top face (turns to score)",
              ("player", "square", "top face", "best rotation", "worst rotation"), tuple(top_rows)),
        *heat,
        Table("States (square, orientation) by turns to score", ("player", "turns", "states"), tuple(count_rows),
              f"{data['graph']['states']} states per player; {data['graph']['edges']} edges (distinct turns "
              "between states) for player 1."),
    )
    return TableSet(f"{definition.game.name}: turns to score a block", result, data)


def heat_map(game: DeblockleGame, doc: dict) -> Table:
    """Mean turns to score (over the 24 orientations) on every square, laid out as the board."""
    board = game.board
    files = [chr(ord("a") + x) for x in range(board.files)]
    rows = []
    for rank in range(board.ranks, 0, -1):
        row = [str(rank)]
        for f in files:
            square = f"{f}{rank}"
            if square not in doc["squares"]:
                row.append("star")
            else:
                mean = doc["squares"][square]["mean"]
                row.append(_decimal(Fraction(mean) if mean != "never" else None))
        rows.append(tuple(row))
    return Table(f"Mean turns to score from every square, player {doc['colour']} (scores on {doc['scores_on']})",
                 ("rank",) + tuple(files), tuple(rows))


def exact_tables(definition: Definition) -> TableSet:
    """The rulebook's appendix: turns to score a lone block from each start square, and the setup totals.

    >>> from boardlab.layouts import load
    >>> [t.title.split(":")[0] for t in exact_tables(load("deblockle")).tables]
    ['Turns to score a lone block from each start square (24 orientations)', 'Setup total']
    """
    full = tables(definition, TableOptions())
    return TableSet(full.title, full.tables[:2], full.data)
