"""`boardlab tune GAME --goal EXPR ... --over KEY=VALUES ...`: the rule values that meet every goal."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from boardlab.arguments import (add_agent_argument, add_budget_arguments, add_game_arguments, add_seed_argument,
                                add_store_arguments, at_most, budget_minutes, store_and_backend)
from boardlab.commands.sweep import add_lang_argument, add_players_argument, languages, player_counts, prepare
from boardlab.layouts.errors import BoardlabError
from boardlab.layouts.limits import MAX_GAMES

#: the command's line in `boardlab --help`
HELP = "search rule values for those that meet every goal (a race on common seeds, then a confirmation)"


def register(subparsers: argparse._SubParsersAction) -> None:
    from boardlab.analysis.report.metrics import HEADLINE
    from boardlab.analysis.tune import TuneOptions

    p = subparsers.add_parser(
        "tune", help=HELP,
        description="Race every combination of the --over values on the same seeds: each plays a first batch of "
                    "games, those whose intervals already miss a goal are dropped, those still unsure play "
                    "twice as many, until every goal is settled; the looks are planned in advance and each is "
                    "judged at 5% divided by their number (Bonferroni); the best are then confirmed on fresh seeds. "
                    "Prints the values meeting every goal with each metric's interval, or says that none does "
                    "and which came closest on each goal.")
    add_game_arguments(p)
    p.add_argument("--goal", action="append", required=True, metavar="EXPR",
                   help="METRIC<=X, METRIC>=X or METRIC~X (X within the 95%% interval); metrics: "
                        f"{', '.join(m.id for m in HEADLINE if m.sweep)} (shares may be written as 5%%) "
                        "or a game's own figure; repeat for several goals")
    p.add_argument("--over", action="append", required=True, metavar="KEY=VALUES",
                   help="a key and the values to search (as sweep's --vary); repeat for a grid")
    add_players_argument(p, allow_all=False)
    p.add_argument("--games", type=at_most(MAX_GAMES, least=10), default=TuneOptions.games, metavar="N",
                   help=f"the most games a candidate plays in the race, and the games of the confirmation run "
                        f"(default: {TuneOptions.games:,}; the race starts at {TuneOptions.first_games})")
    p.add_argument("--finalists", type=at_most(100), default=TuneOptions.finalists, metavar="K",
                   help=f"candidates confirmed on fresh seeds (default: {TuneOptions.finalists})")
    add_agent_argument(p)
    add_seed_argument(p)
    add_budget_arguments(p, "tune")
    add_store_arguments(p)
    add_lang_argument(p, "what it prints and of the comments of --write-variant's file (with --json the result "
                         "is printed once, its few sentences - a refused point's reason, why a goal cannot be met, "
                         "where the budget stopped the race - in the first language)")
    p.add_argument("--write-variant", metavar="FILE",
                   help="write the first values meeting every goal in the confirmation run as a variant file "
                        "(a new file: an existing one is never replaced); nothing is written when none does")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from boardlab.analysis.sweep import known_metrics, playable_grid, value_text
    from boardlab.analysis.report.wording import say
    from boardlab.analysis.tune import TuneOptions, check_goals, parse_goal, tune, tune_text
    from boardlab.layouts.terms import speaking

    base, definition, axes, agent = prepare(args, "--over", args.over)
    spoken = languages(args, definition)
    players, = player_counts(args.players, definition.game, allow_all=False)
    goals = [parse_goal(g) for g in args.goal]
    check_goals(goals, known_metrics(definition, players, agent, [g.metric for g in goals]))
    points = playable_grid(base, axes, players)  # before the store is opened: nothing played yet
    target = _variant_target(args.write_variant) if args.write_variant else None
    options = TuneOptions(players=players, agent=agent, games=args.games, finalists=args.finalists, seed=args.seed,
                          workers=args.workers, progress=True, cpu_minutes=budget_minutes(args, definition, "tune"),
                          quick=args.quick,
                          max_capped=getattr(getattr(definition, "analysis", None), "max_capped", TuneOptions.max_capped),
                          difference=getattr(getattr(definition, "analysis", None), "difference", None)
                          or TuneOptions.difference)
    with speaking(spoken[0], definition):  # the result's sentences and the variant's comments: the first language
        with store_and_backend(args) as (store, backend):
            result = tune(base, definition, axes, goals, store, dataclasses.replace(options, backend=backend), points)
        if target is not None:
            result["variant_written"] = _write_variant(target, result, base) if result["meeting"] else None
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    texts = []
    for language in spoken:  # one tune, its answer in each language
        with speaking(language, definition):
            text = tune_text(result)
            if target is not None:
                text += "\n" + (say("tune.wrote", file=target, values=", ".join(
                    f"{k} = {value_text(v)}" for k, v in result["meeting"][0].items()))
                    if result["meeting"] else say("tune.not_written", file=target)) + "\n"
        texts.append(text)
    print("\n".join(texts), end="")
    return 0


def _variant_target(text: str) -> Path:
    """The --write-variant path, checked before anything is played.

    :raises BoardlabError: when the file exists already or its folder does not.
    """
    from pathlib import Path

    path = Path(text)
    if path.exists():
        raise BoardlabError(f"--write-variant {text}: the file exists already; name a new file")
    if not path.parent.resolve().is_dir():
        raise BoardlabError(f"--write-variant {text}: no folder {path.parent}")
    return path


def _write_variant(path: Path, result: dict, base: str) -> str:
    """Write the first meeting values over `base` as a new variant file (whole or not at all);
    its `extends` names the game or variant, or the base file's path relative to the new file."""
    import os
    from pathlib import Path

    from boardlab.analysis.tune import variant_text
    from boardlab.common.files import sync_folder, write_synced

    extends = base
    if base.endswith(".toml") or os.sep in base:
        extends = os.path.relpath(Path(base).resolve(), path.parent.resolve())
    staging = path.with_name(f".{path.name}.writing")
    try:
        if staging.exists():
            staging.unlink()
        write_synced(staging, variant_text(result, result["meeting"][0], extends).encode("utf-8"))
        if path.exists():
            raise FileExistsError(0, "the file appeared while tuning", str(path))
        os.replace(staging, path)
        sync_folder(path.parent)
    except OSError as err:
        staging.unlink(missing_ok=True)
        raise BoardlabError(f"--write-variant {path}: cannot write it ({err.strerror or err})") from None
    return str(path)
