"""Restricted play: how much a game element matters, as the win rate of a full agent against
the same agent barred from that element (after Jaffe et al., 2012).

A game declares its optional elements, the choices the rules offer a player, as data beside its
engine (`protocol.Game.restrictions`): each a `Restriction` with a name, the element in words
and `bars(state, move)`, true for a move that uses the element.  A restriction may instead bar a
way of playing that the rules leave open (`habit`: "tipping a block that is not the closest to
its star"): a report shows those apart, as what the strong agent does, never as a finding.  The barred agent
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
(seats rotating, as in the skill trace), its share of the decided games with a 95% interval
whose unit is the rotation group (`skill.Pairing.add`) against the fair share 1 / players, and
a two-sided binomial p-value with the same unit: twice the smaller binomial tail at the effective
number of decided games (`skill.Pairing.counts`, `skill.gain_p_value`).  A share at the fair one means the element does not matter to that agent (a rule that could go); a share far
above it means using the element decides most games.

A share at the fair one says nothing, though, when barring never changes what the agent plays:
the games are then the same agent against itself.  So each element is also probed (`probe`): the
full agent plays a few games in every seat, and at each of its decisions where barring takes a
move away, the barred agent is asked too (the same random numbers for both); the count of the
moves it plays differently is reported beside the share ("moves changed").  None changed: the
measure cannot tell whether the element matters (a stronger agent might use it), and such an
element is not played at all (`effects_at`).

Restricted play stops when answered: each element with enough games (`first_look`) is looked at
after half of them, and stops there when its two-sided test is already below `ALPHA_FIRST`; the
others play the rest, tested at `ALPHA` - `ALPHA_FIRST`.  By Bonferroni the two looks together
reject an element that does not matter at most `ALPHA` of the time (enumerated in the tests: 3.6%
at 60 + 60 games; two looks at 5% each would reject 5.3%), and the p-value reported is the look's
scaled to `ALPHA`, so the report's false-discovery control reads it as any other.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Hashable, NoReturn, Sequence

from boardlab.analysis.agents import WITHOUT, Agent

if TYPE_CHECKING:
    from boardlab.analysis.protocol import Game, Move, State
    from boardlab.layouts.common import GameDefinition
    from boardlab.analysis.budget import Budget
    from boardlab.analysis.report.jobs import Job
    from boardlab.analysis.runner import AgentFactory, Backend, GameRecord
    from boardlab.analysis.store import ResultStore

#: the probe of an element: games of the full agent in every seat, stopping after the game in
#: which its decisions reach PROBE_DECISIONS
PROBE_GAMES = 20
PROBE_DECISIONS = 1000
#: the random stream of the probe's questions (simulate uses streams 0 and 1, tables 2)
PROBE_STREAM = 7
#: sequential stopping: an element is looked at after half its games, and stops there when its
#: two-sided test is already below ALPHA_FIRST; the rest of ALPHA is the last look's (Bonferroni:
#: the two looks together reject a fair element at most ALPHA of the time), and the p-value
#: reported is the look's scaled to ALPHA (p x ALPHA / the look's level)
ALPHA_FIRST = 0.005
#: the fewest rotations of the seats on each side of the first look
LOOK_ROTATIONS = 10


@dataclass(frozen=True)
class Restriction:
    """An optional element of a game: `bars(state, move)` is true for a move that uses it."""

    name: str  # an id, in agent names (lower case, dashes)
    element: str  # what is barred, in words ("the restore bonus")
    bars: Callable[[object, Hashable], bool]
    label: str = ""  # a short name in the rulebook's words, for a chart's axis ("restore bonus"); "" the element
    habit: bool = False  # not a choice the rules give but a way of playing (a report's "what the strong agent does")


class RestrictedView:
    """A state seen with only the `allowed` moves legal (see the module docstring)."""

    def __init__(self, state: Any, allowed: list[Move]) -> None:
        # Any: a `State`, or a view of one, of the game's own state class, whose every attribute
        # (an engine's `observation` too) the view passes on
        self._state = state
        self._allowed = allowed

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)

    def legal_moves(self) -> list[Move]:
        return self._allowed

    def legal_codes(self) -> list[Move]:
        return self._allowed

    def apply_code(self, code: Move) -> None:
        self._state.apply(code)

    def move_of_code(self, code: Move) -> Move:
        return code

    def random_move(self, rng: random.Random) -> Move:
        return self._allowed[rng.randrange(len(self._allowed))]

    def clone(self) -> State:
        return self._state.clone()

    def observation(self, *args: object) -> RestrictedView:
        return RestrictedView(self._state.observation(*args), self._allowed)


class BarredAgent(Agent):
    """`agent` barred from `restriction` (see the module docstring)."""

    def __init__(self, agent: Agent, restriction: Restriction):
        self.agent = agent
        self.restriction = restriction
        self.name = f"{agent.name}{WITHOUT}{restriction.name}"

    def choose(self, state: Any, rng: random.Random) -> Hashable:
        moves = state.legal_moves()
        allowed = [move for move in moves if not self.restriction.bars(state, move)]
        if not allowed or len(allowed) == len(moves):
            return self.agent.choose(state, rng)
        return self.agent.choose(RestrictedView(state, allowed), rng)


def barred_factory(base: AgentFactory, element: str, game: Game) -> BarredAgent:
    """The factory(game) body of `BASE-without-ELEMENT`: `base(game)` barred from the game's element."""
    return BarredAgent(base(game), game.restriction(element))


def effects(definition: GameDefinition, players: int, games: int, seed: int, store: ResultStore,
            backend: Backend | None = None, progress: bool = False, budget: Budget | None = None) -> dict:
    """Restricted play of every element the game declares: the game's restricted agent
    (`Game.restricted_agent`) in one seat against the same agent barred from the element in the
    others, `games` games each (rounded up to whole rotations of the seats), through the results
    store on `backend`; a dict for JSON (see the module docstring)."""
    return effects_at(definition, [players], games, seed, store, backend, progress, budget)[players]


def effects_at(definition: GameDefinition, counts: list[int], games: int, seed: int, store: ResultStore,
               backend: Backend | None = None, progress: bool = False, budget: Budget | None = None) -> dict[int, dict]:
    """`effects` at every player count of `counts`, {players: effects}, all their games sent to
    the backend at once.

    An element whose probe (`probe`) saw barring change none of the agent's moves is not played:
    its games would be the agent against itself (its row says "unchanged", no games).  With a
    `budget` (`budget.Budget`) the others' games are sized as its phase "restricted"; an element
    it cannot afford a rotation of the seats is left out (no games) and the budget says so."""
    from boardlab.analysis import engines
    from boardlab.analysis.report.jobs import Job, Outcome, play_jobs
    from boardlab.analysis.skill import ALPHA, Pairing, gain_p_value, rounded_games

    elements = sum(len(engines.make_game(definition, n).restrictions()) for n in counts)
    # with a budget, the probes may take half of restricted play's part of it (each its share)
    seconds = budget.allowance("restricted") / 2 / elements if budget is not None and budget.limited and elements \
        else None
    plans = []
    for players in counts:
        game = engines.make_game(definition, players)
        agent = game.restricted_agent()
        played = rounded_games(games, players)
        for r in game.restrictions():
            probed = _probed(definition, players, r, agent, seed, store, seconds)
            plans.append((players, agent, r, probed, Job(definition, players, (agent,) + (f"{agent}{WITHOUT}{r.name}",)
                                                         * (players - 1), played if probed["changed"] else 0, seed)))
    asked = [plan[-1] for plan in plans if plan[-1].games]
    if budget is not None and asked:
        from boardlab.analysis.report.budgeted import sized

        names = [f"{plan[2].name}" for plan in plans if plan[-1].games]
        resized = iter(sized(budget, "restricted", asked, store, details=names))
        plans = [plan[:-1] + (next(resized),) if plan[-1].games else plan for plan in plans]
    estimate = budget.estimate("restricted") if budget is not None and budget.limited else None
    # the first look: half the games of each element that has enough to look twice
    firsts = {i: dataclasses.replace(plan[-1], games=first_look(plan[-1].games, plan[0]))
              for i, plan in enumerate(plans) if first_look(plan[-1].games, plan[0])}
    looked = dict(zip(firsts, play_jobs(list(firsts.values()), store, progress=progress, backend=backend,
                                        label="restricted-play games, first look", estimate=estimate)
                      if firsts else []))
    answered = {i for i, o in looked.items() if _two_sided(o.records, plans[i]) < ALPHA_FIRST}
    rest = [i for i, plan in enumerate(plans) if plan[-1].games and i not in answered]
    done = dict(zip(rest, play_jobs([plans[i][-1] for i in rest], store, progress=progress, backend=backend,
                                      label="restricted-play games", estimate=estimate) if rest else []))
    done.update({i: looked[i] for i in answered})
    if budget is not None:
        budget.settle()
    out = {}
    for players in counts:
        game = engines.make_game(definition, players)
        out[players] = {"agent": game.restricted_agent(), "players": players,
                        "games_per_element": rounded_games(games, players), "fair_share": round(1 / players, 6),
                        "elements": [], "seconds": 0.0}
    for i, (players, agent, restriction, probed, job) in enumerate(plans):
        outcome = done.get(i) or Outcome(job, [], {"seconds": 0.0})
        pairing = Pairing(agent, f"{agent}{WITHOUT}{restriction.name}", players).add(outcome.records)
        row = pairing.as_dict()
        p = gain_p_value(*pairing.counts(), pairing.fair, "two-sided")  # the rotation group the unit
        # the p-value of the two looks together (Bonferroni: the look's level is its part of ALPHA)
        spent = ALPHA_FIRST if i in answered else (ALPHA - ALPHA_FIRST if i in firsts else ALPHA)
        row["p_value"] = round(min(1.0, p * ALPHA / spent), 6)
        row["significant"] = row["p_value"] < ALPHA
        if i in firsts:
            row["looks"] = {"first": firsts[i].games, "planned": job.games, "stopped_first": i in answered}
        row["probe"] = probed
        if not probed["changed"]:
            row["unchanged"] = True  # not played: barring changed none of the probed moves
        out[players]["elements"].append({"element": restriction.name, "description": restriction.element,
                                         "label": restriction.label or restriction.element,
                                         "habit": restriction.habit, **row})
        out[players]["seconds"] += outcome.summary["seconds"]
    for players in counts:
        out[players]["seconds"] = round(out[players]["seconds"], 1)
    return out


def first_look(games: int, players: int) -> int:
    """The games of an element's first look: half its games in whole rotations of the seats, when
    that leaves at least `LOOK_ROTATIONS` rotations on each side of it; else 0 (one look only).

    >>> first_look(120, 2), first_look(120, 3), first_look(12, 2)
    (60, 60, 0)
    """
    half = games // 2 // players * players
    return half if half >= LOOK_ROTATIONS * players and games - half >= LOOK_ROTATIONS * players else 0


def _two_sided(records: Sequence[GameRecord], plan: tuple[int, str, Restriction, dict, Job]) -> float:
    """The two-sided binomial p-value of a plan's (`effects_at`) records: the full agent's share of
    the decided games against the fair one, at the rotation groups' effective size (`skill.Pairing.counts`)."""
    from boardlab.analysis.skill import Pairing, gain_p_value

    players, agent, restriction = plan[0], plan[1], plan[2]
    pairing = Pairing(agent, f"{agent}{WITHOUT}{restriction.name}", players).add(records)
    return gain_p_value(*pairing.counts(), pairing.fair, "two-sided")


def probe(definition: GameDefinition, players: int, restriction: Restriction, agent: str, seed: int,
          games: int = PROBE_GAMES, decisions: int = PROBE_DECISIONS, seconds: float | None = None) -> dict:
    """How often barring `restriction` changes `agent`'s move: {"games", "decisions" (the agent's,
    every seat), "binding" (those where barring takes a move away and leaves one), "changed" (those
    where the barred agent then plays another move)}; see the module docstring.  With `seconds`, no
    game begins after that much CPU (at least one is played; "cut": true says it was)."""
    import random

    from boardlab.analysis import engines
    from boardlab.analysis.runner import derive_seed, make_match, play_one

    game = engines.make_game(definition, players)
    factories = engines.agent_factories(game.id)
    full, barred = factories[agent](game), BarredAgent(factories[agent](game), restriction)
    counts = {"games": 0, "decisions": 0, "binding": 0, "changed": 0}

    def observe(state: State) -> None:
        counts["decisions"] += 1
        moves = state.legal_moves()
        allowed = [move for move in moves if not restriction.bars(state, move)]
        if allowed and len(allowed) < len(moves):
            counts["binding"] += 1
            question = derive_seed(seed, PROBE_STREAM, counts["decisions"])
            if full.choose(state, random.Random(question)) != barred.choose(state, random.Random(question)):
                counts["changed"] += 1

    import time

    match = make_match(game, [factories[agent]] * players, seed, agent_names=[agent] * players)
    started = time.process_time()
    while counts["games"] < games and counts["decisions"] < decisions:
        if seconds is not None and counts["games"] and time.process_time() - started >= seconds:
            counts["cut"] = True  # the CPU it was given ran out (a budget's): fewer games than asked
            break
        play_one(match, counts["games"], observe)
        counts["games"] += 1
    return counts


def _probed(definition: GameDefinition, players: int, restriction: Restriction, agent: str, seed: int,
            store: ResultStore, seconds: float | None = None) -> dict:
    """`probe`, through the results store; a probe that `seconds` of CPU cut short is stored as such."""
    from boardlab.analysis.store import definition_hash, engine_fingerprint
    from boardlab.layouts.registry import game_entry

    game_id = definition.game.id
    key = {"what": "restricted probe", "game": game_id, "definition": definition_hash(definition), "players": players,
           "element": restriction.name, "agent": agent, "seed": seed, "games": PROBE_GAMES,
           "decisions": PROBE_DECISIONS, "engine": engine_fingerprint(game_entry(game_id).engine),
           "code": engine_fingerprint(__name__)}
    # a whole probe, else one cut short by an earlier budget (so a rerun reads the same), else play one
    for stored in (key, {**key, "cut": True}):
        found = _lookup(store, stored)
        if found is not None:
            return found
    result = probe(definition, players, restriction, agent, seed, seconds=seconds)
    return store.cached({**key, "cut": True} if result.get("cut") else key, lambda: result)


class _Missing(Exception):
    pass


def _lookup(store: ResultStore, key: dict) -> dict | None:
    """What the store holds under `key`, or None (nothing is computed or written)."""
    def missing() -> NoReturn:
        raise _Missing

    try:
        return store.cached(key, missing)
    except _Missing:
        return None


def changed_share(element: dict) -> float | None:
    """The share of the probed decisions where barring changed the agent's move (None: barring
    never took a move away in the probe)."""
    probed = element.get("probe") or {}
    return probed["changed"] / probed["binding"] if probed.get("binding") else None


def describe(result: dict) -> str:
    """The plain-text table of restricted play."""
    if not result["elements"]:
        return "restricted play: the game declares no optional elements"
    players = result["players"]
    against = "the same agent barred" if players == 2 else f"{players - 1} copies of it barred"
    lines = [f"restricted play: {result['agent']} in one seat against {against} from one element, "
             f"{result['games_per_element']:,} games each (fair share {result['fair_share']:.1%}); the full agent's share "
             "of the decided games, p two-sided",
             f"{'element':<44} {'share':>7} {'95% interval':>16} {'decided':>8} {'p':>8} {'moves changed':>15}"]
    for e in result["elements"]:
        share = f"{e['share']:.1%}" if e["share"] is not None else "-"
        probed = e.get("probe") or {}
        changed = f"{probed['changed']:,} of {probed['binding']:,}" if probed else "-"
        lines.append(f"{e['description'][:44]:<44} {share:>7} {e['ci95'][0]:7.1%} .. {e['ci95'][1]:6.1%} "
                     f"{e['decided']:8,} {e['p_value']:8.4f} {changed:>15}{' *' if e['significant'] else ''}")
    return "\n".join(lines)
