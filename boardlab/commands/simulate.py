"""`boardlab simulate GAME`: Monte-Carlo self-play summary."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any, Callable
from typing import TYPE_CHECKING

from boardlab.arguments import add_backend_arguments, add_game_arguments, add_seed_argument, at_most, backend_of, game_definition
from boardlab.layouts import BoardlabError, game_ids
from boardlab.layouts.limits import MAX_GAMES

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition

#: the command's line in `boardlab --help`
HELP = "self-play many games and summarise win rates and length"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "simulate", help=HELP,
        description=textwrap.fill("Play many games between agents and print per-seat win rates with 95% "
                                  "confidence intervals (Wilson), draws, unfinished games and game length. "
                                  "Same seed, same numbers, whatever the number of workers.", 79),
        epilog=agents_by_game,  # type: ignore[arg-type]  # a function: the engines are loaded only when --help is asked for
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_match_arguments(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(run=run_command)


def agents_by_game() -> str:
    """The epilog of `simulate --help`: every engine's agent names."""
    from boardlab.analysis import engines

    def listing(game: str) -> str:
        try:
            return engines.agent_factories(game).listing()
        except BoardlabError as err:  # a plugin's broken engine: said here, the others listed
            return f"({err})"

    return "agents (--agents), by game:\n" + "\n".join(
        textwrap.fill(f"{game}: {listing(game)}", 79, initial_indent="  ",
                      subsequent_indent="      ", break_on_hyphens=False) for game in game_ids("engine"))


def add_match_arguments(p: argparse.ArgumentParser, games: int = 1000) -> None:
    add_game_arguments(p, players="the game's maximum")
    p.add_argument("--agents", metavar="A,B,...",
                   help="agent per seat, or one name for every seat (default: the definition's analysis.agent, "
                        "the model of the players compare and report use, else random)")
    p.add_argument("--games", type=at_most(MAX_GAMES), default=games, metavar="N",
                   help=f"games to play (default: {games}; at most {MAX_GAMES:,})")
    add_seed_argument(p)
    p.add_argument("--no-rotation", action="store_true",
                   help="play every deal once instead of once per rotation of the seats "
                        "(rotation: each agent, or with one agent each seat, meets every place of a deal)")
    add_backend_arguments(p)


def load_match(args: argparse.Namespace
               ) -> tuple[GameDefinition, Any, list[Callable], list[str]]:
    """(definition, game, agent factories, agent names) from the common arguments.

    :raises BoardlabError: on an unknown game, a variant of another game, or an unknown agent.
    """
    from boardlab.analysis import engines
    from boardlab.analysis.report.options import model_agent

    definition = game_definition(args.game, args.variant)
    game = engines.make_game(definition, args.players)
    known = engines.agent_factories(args.game)
    chosen = args.agents if args.agents is not None else model_agent(definition)
    names = [n.strip() for n in chosen.split(",") if n.strip()]
    if not names:
        raise BoardlabError("--agents names no agent (give one name, or one per seat)")
    if len(names) == 1:
        names = names * game.players
    if len(names) != game.players:
        raise BoardlabError(f"{len(names)} agents for {game.players} players (give one name, or one per seat)")
    for name in names:
        if name not in known:
            raise BoardlabError(f"{args.game}: {known.unknown(name)}")
        known[name](game)  # an agent that cannot play this game says so here, not in a worker
    return definition, game, [known[n] for n in names], names


def run_command(args: argparse.Namespace) -> int:
    from boardlab.analysis.runner import run

    definition, game, factories, names = load_match(args)
    with backend_of(args) as backend:
        summary = run(game, factories, args.games, args.seed, workers=args.workers,
                      seat_rotation=not args.no_rotation, agent_names=names, backend=backend)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_summary(summary, definition.game.name))
        if game.id in summary:
            print("\n" + game.describe_summary(summary[game.id]))
    return 0


#: what a game's length unit counts, for the plain-text summary
UNIT_MEANING = {"turns": "turns (every player's moves counted, one move = one turn)",
                "rounds": "rounds (in a round every player plays once)"}


def share(count: int, total: int) -> str:
    """ "3 (1.5%)": a count with its share of `total`, one decimal.

    >>> share(3, 200), share(0, 0)
    ('3 (1.5%)', '0')
    """
    return f"{count} ({count / total:.1%})" if total else f"{count}"


def speed(games: int, seconds: float) -> str:
    """How fast games were played, in the unit the speed reaches: games per second, else seconds a game.

    >>> speed(2000, 1.0), speed(10, 38.0), speed(3, 1.5)
    ('2,000 games per second', '3.8 s a game', '2.0 games per second')
    """
    rate = games / seconds
    if rate >= 10:
        return f"{rate:,.0f} games per second"
    if rate >= 1:
        return f"{rate:.1f} games per second"
    return f"{seconds / games:.1f} s a game"


def format_summary(s: dict, name: str) -> str:
    """The summary as a short plain-text table for a designer: every number with its label and unit."""
    agents = s["agents"]
    games = s["games"]
    who = f"{agents[0]} in every seat" if len(set(agents)) == 1 else ", ".join(agents)
    lines = [f"{name} ({s['variant']}), {s['players']} players, {games} games, seed {s['seed']}, "
             f"agents: {who}" + (f"; each deal once per seat ({s['seat_rotation']})"
                                  if s.get("seat_rotation", "none") != "none" else ""),
             "", "seat   wins   win rate   95% interval (the true rate lies inside 19 times in 20)"]
    for seat, (wins, rate) in enumerate(zip(s["wins_by_seat"], s["win_rate_by_seat"]), start=1):
        lo, hi = rate["ci95"]
        lines.append(f"{seat:>4} {wins:>6}   {rate['rate']:8.1%}   {lo:6.1%} .. {hi:6.1%}")
    if "win_rate_by_agent" in s:
        lines += ["", "agent        wins / seats   win rate   95% interval"]
        for agent, r in s["win_rate_by_agent"].items():
            lo, hi = r["ci95"]
            lines.append(f"{agent:12} {r['wins']:>5} / {r['seats_played']:<6} {r['rate']:8.1%}   {lo:6.1%} .. {hi:6.1%}")
    length = s["length"]
    unit = UNIT_MEANING.get(length["unit"], length["unit"])
    lines += ["", f"draws (no single winner): {share(s['draws'], games)}; unfinished (stopped by the "
                  f"definition's turn or round cap): {share(s['unfinished'], games)}",
              f"game length in {unit}, finished games: mean {length['mean']:.1f}, median {length['median']:g}, "
              f"90th percentile {length['p90']:g} (9 games in 10 are no longer)" if games > s["unfinished"] else
              f"game length in {unit}: no game finished",
              f"run time: {s['seconds']:.1f} s" + (f" ({speed(games, s['seconds'])})" if s["seconds"] > 0 else "")]
    return "\n".join(lines)
