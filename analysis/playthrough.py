"""Golden playthroughs: one seeded game of an engine written down ply by ply, as OpenSpiel keeps
its playthrough files, so that any change in what an engine does shows as a line that differs.

The game is played through the protocol alone: one `random.Random(seed)` draws every chance
outcome (`State.sample_chance`) and every move (`legal_moves()[rng.randrange(len(moves))]`).
A file (tests/data/GAME.playthrough) holds, one item a line:

    definition NAME          a game or variant name (`layouts.load`)
    players N
    seed S
    then for every ply, at a chance node:
    player chance
    chance TEXT              the outcome drawn (its repr)
    and at a decision node:
    player P                 the seat to move
    observation TEXT         the position it sees: its JSON form (games that read positions),
                             else the state's repr
    legal K                  how many legal moves
    move TEXT                the move played (its repr)
    and at the end:
    returns R1 R2 ...        `State.returns()`, then `length L` and `winners S1 S2 ...`

Lines starting with # are comments.  Write or rewrite one with
`python -m boardlab.analysis.playthrough NAME [--players N] [--seed S] > tests/data/GAME.playthrough`
and read the diff before committing it: every changed line is a change in the rules as played.

>>> text = playthrough("blockd", 2, 1)
>>> text.splitlines()[:3]
['definition blockd', 'players 2', 'seed 1']
>>> read_header(text) == ("blockd", 2, 1)
True
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from boardlab.analysis.protocol import CHANCE, Game, State

#: the most plies a playthrough writes (a game that runs longer is cut there, and says so)
MAX_PLIES = 2000


def observation(game: Game, state: State) -> str:
    """What a playthrough shows of a position: its JSON form, else the state's repr."""
    if game.reads_positions:
        return json.dumps(state.to_position(), sort_keys=True, separators=(",", ":"))
    return repr(state)


def playthrough(name: str, players: int, seed: int) -> str:
    """The playthrough text of one seeded game of definition `name` with `players` seats."""
    from boardlab.analysis import engines
    from boardlab.layouts import load

    game = engines.make_game(load(name), players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    lines = [f"definition {name}", f"players {players}", f"seed {seed}"]
    plies = 0
    while not state.is_terminal():
        if plies == MAX_PLIES:
            lines.append(f"# cut after {MAX_PLIES} plies")
            break
        player = state.current_player()
        if player == CHANCE:
            outcome = state.sample_chance(rng)
            lines += ["player chance", f"chance {outcome!r}"]
            state.apply(outcome)
        else:
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
            lines += [f"player {player}", f"observation {observation(game, state)}", f"legal {len(moves)}",
                      f"move {move!r}"]
            state.apply(move)
        plies += 1
    if state.is_terminal():
        lines += ["returns " + " ".join(repr(float(r)) for r in state.returns()), f"length {state.length()}",
                  "winners " + " ".join(str(s) for s in state.winners())]
    return "\n".join(lines) + "\n"


def read_header(text: str) -> tuple[str, int, int]:
    """(definition name, players, seed) of a playthrough text.

    :raises ValueError: when one of the three lines is missing.
    """
    fields: dict[str, str] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.partition(" ")
            if key in ("definition", "players", "seed"):
                fields.setdefault(key, value)
            if len(fields) == 3:
                break
    if len(fields) < 3:
        raise ValueError("a playthrough starts with its definition, players and seed lines")
    return fields["definition"], int(fields["players"]), int(fields["seed"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m boardlab.analysis.playthrough",
                                     description="Print the golden playthrough of one seeded game.")
    parser.add_argument("name", help="a game or variant name")
    parser.add_argument("--players", type=int, default=None, help="seats (default: the game's fewest)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    from boardlab.layouts import BoardlabError, load

    try:
        players = args.players or load(args.name).game.min_players
        sys.stdout.write(playthrough(args.name, players, args.seed))
    except BoardlabError as err:
        print(f"playthrough: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
