"""Restricted play: how much a game element matters, as the win rate of a full agent against
the same agent barred from that element (after Jaffe et al., 2012).

A game declares its optional elements, the choices the rules offer a player, as data beside its
engine (`protocol.Game.restrictions`): each a `Restriction` with a name, the element in words
and `bars(state, move)`, true for a move that uses the element.  The barred agent
(`BarredAgent`) decides as the full agent does, but from a view of the state whose legal moves
leave out the barred ones; when every legal move is barred it has no choice and plays as the
full agent (a rule that forces the element is not a choice).  The view (`RestrictedView`) shows
the filtered moves through `legal_moves`, `legal_codes`, `random_move` and an observation's
`legal_moves`; everything else is the state's own, and `clone` is the state's clone (so a
look-ahead plays on with every move allowed).  Agents that read the engine's arrays instead of
the protocol (compiled paths) play their Python twins on a view.

An agent name `BASE-without-ELEMENT` is BASE barred from the game's element ELEMENT (resolved
by `agents.AgentTable`; the element is looked up on the game when the agent is made).

The measure (`element_effect`): the full agent in one seat, the barred agent in the others
(seats rotating, as in the skill trace), its share of the decided games with a Wilson 95%
interval against the fair share 1 / players, and a two-sided binomial p-value.  A share at the
fair one means the element does not matter to that agent (a rule that could go); a share far
above it means using the element decides most games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable

from boardlab.analysis.agents import WITHOUT, Agent


@dataclass(frozen=True)
class Restriction:
    """An optional element of a game: `bars(state, move)` is true for a move that uses it."""

    name: str  # an id, in agent names (lower case, dashes)
    element: str  # what is barred, in words ("the restore bonus")
    bars: Callable[[object, Hashable], bool]


class RestrictedView:
    """A state seen with only the `allowed` moves legal (see the module docstring)."""

    def __init__(self, state, allowed: list):
        self._state = state
        self._allowed = allowed

    def __getattr__(self, name):
        return getattr(self._state, name)

    def legal_moves(self) -> list:
        return self._allowed

    def legal_codes(self) -> list:
        return self._allowed

    def apply_code(self, code) -> None:
        self._state.apply(code)

    def move_of_code(self, code):
        return code

    def random_move(self, rng):
        return self._allowed[rng.randrange(len(self._allowed))]

    def clone(self):
        return self._state.clone()

    def observation(self, *args):
        return RestrictedView(self._state.observation(*args), self._allowed)


class BarredAgent(Agent):
    """`agent` barred from `restriction` (see the module docstring)."""

    def __init__(self, agent: Agent, restriction: Restriction):
        self.agent = agent
        self.restriction = restriction
        self.name = f"{agent.name}{WITHOUT}{restriction.name}"

    def choose(self, state, rng):
        moves = state.legal_moves()
        allowed = [move for move in moves if not self.restriction.bars(state, move)]
        if not allowed or len(allowed) == len(moves):
            return self.agent.choose(state, rng)
        return self.agent.choose(RestrictedView(state, allowed), rng)


def barred_factory(base, element: str, game) -> BarredAgent:
    """The factory(game) body of `BASE-without-ELEMENT`: `base(game)` barred from the game's element."""
    return BarredAgent(base(game), game.restriction(element))


def effects(definition, players: int, games: int, seed: int, store, backend=None, progress: bool = False) -> dict:
    """Restricted play of every element the game declares: the game's restricted agent
    (`Game.restricted_agent`) in one seat against the same agent barred from the element in the
    others, `games` games each (rounded up to whole rotations of the seats), through the results
    store on `backend`; a dict for JSON (see the module docstring)."""
    return effects_at(definition, [players], games, seed, store, backend, progress)[players]


def effects_at(definition, counts: list[int], games: int, seed: int, store, backend=None,
               progress: bool = False) -> dict[int, dict]:
    """`effects` at every player count of `counts`, {players: effects}, all their games sent to
    the backend at once."""
    from boardlab.analysis import engines
    from boardlab.analysis.report.jobs import Job, play_jobs
    from boardlab.analysis.skill import ALPHA, Pairing, gain_p_value, rounded_games

    plans = []
    for players in counts:
        game = engines.make_game(definition, players)
        agent = game.restricted_agent()
        played = rounded_games(games, players)
        for r in game.restrictions():
            plans.append((players, agent, played, r, Job(definition, players, (agent,) + (f"{agent}{WITHOUT}{r.name}",)
                                                         * (players - 1), played, seed)))
    jobs = [plan[-1] for plan in plans]
    outcomes = play_jobs(jobs, store, progress=progress, label="restricted-play games", backend=backend) if jobs else []
    out = {}
    for players in counts:
        game = engines.make_game(definition, players)
        out[players] = {"agent": game.restricted_agent(), "players": players,
                        "games_per_element": rounded_games(games, players), "fair_share": round(1 / players, 6),
                        "elements": [], "seconds": 0.0}
    for (players, agent, played, restriction, _), outcome in zip(plans, outcomes):
        pairing = Pairing(agent, f"{agent}{WITHOUT}{restriction.name}", players).add(outcome.records)
        row = pairing.as_dict()
        row["p_value"] = round(gain_p_value(pairing.wins, pairing.decided, pairing.fair, "two-sided"), 6)
        row["significant"] = row["p_value"] < ALPHA
        out[players]["elements"].append({"element": restriction.name, "description": restriction.element, **row})
        out[players]["seconds"] += outcome.summary["seconds"]
    for players in counts:
        out[players]["seconds"] = round(out[players]["seconds"], 1)
    return out


def describe(result: dict) -> str:
    """The plain-text table of restricted play."""
    if not result["elements"]:
        return "restricted play: the game declares no optional elements"
    players = result["players"]
    against = "the same agent barred" if players == 2 else f"{players - 1} copies of it barred"
    lines = [f"restricted play: {result['agent']} in one seat against {against} from one element, "
             f"{result['games_per_element']:,} games each (fair share {result['fair_share']:.1%}); the full agent's share "
             "of the decided games, p two-sided",
             f"{'element':<44} {'share':>7} {'95% interval':>16} {'decided':>8} {'p':>8}"]
    for e in result["elements"]:
        share = f"{e['share']:.1%}" if e["share"] is not None else "-"
        lines.append(f"{e['description'][:44]:<44} {share:>7} {e['ci95'][0]:7.1%} .. {e['ci95'][1]:6.1%} "
                     f"{e['decided']:8,} {e['p_value']:8.4f}{' *' if e['significant'] else ''}")
    return "\n".join(lines)
