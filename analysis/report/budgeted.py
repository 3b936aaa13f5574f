"""A report within its CPU budget: each phase's games sized from a probe (`budget.Budget`), and
what the budget bought said in the report's head and JSON.

The report's phases and their shares of the budget (`SHARES`): self-play at every player count,
the decisions' move-by-move games, the rule alternatives, the skill trace's steps, the endgame
decisions of a two-player game too large to solve (`skill.endgame_measure`: 2 shares, taken from
restricted play's; decisions solved, not games), restricted
play's elements, the player levels, and the verdict's search of the numbers in the rules
(`remedy.numeric_remedies`: each key's search sized from its upper-bound cost, `remedy.search_cost`;
a key that cannot afford `remedy.FIRST_GAMES` games a value is not searched, and named; when no
search could run, `remedy.could_search`, its share is withdrawn before the levels ask).  Self-play, the decisions and the player levels are required
(each plays at least one rotation of the seats past the budget: a report without them is no
report); rule alternatives play at most half the self-play games they are paired with; a skill
step or a restricted element that does not fit is left out and named.

`bought_data` is the part of `Budget.bought()` that the JSON keeps: the games each phase wanted
and got, with the smallest difference from the fair share those games detect at 80% power
(`metrics.minimum_detectable_difference`), and what was left out; never a clock figure, so a
report whose budget fits is the same JSON on any machine.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Mapping, Sequence

from boardlab.analysis.budget import Ask, Budget, probe_costs

if TYPE_CHECKING:
    from boardlab.analysis.report.jobs import Job
    from boardlab.analysis.store import ResultStore

#: the report's phases and their shares of its CPU budget.  The endgame measure's 2 come from
#: restricted play (an element wants 120 games), not from the skill trace: with the ladder's share
#: at 18, 6x6's 2-player step search-16 against greedy could not play its third look and its
#: skilled level fell back to greedy, for a measure that 6x6 does not even take (too large)
SHARES = {"self-play": 40, "decisions": 5, "alternatives": 15, "skill": 20, "endgame": 2, "restricted": 8,
          "levels": 10, "remedies": 10}
#: phases whose games test a share against the fair one (their power is stated)
TESTED = ("self-play", "restricted", "levels")


def report_budget(minutes: float | None, quick: bool = False, replay: Sequence[Mapping] = ()) -> Budget:
    """The report's budget; `replay`: an earlier report's `data.budget` phases (its other language)."""
    return Budget(minutes, SHARES, quick, replay=replay)


def sized(budget: Budget, phase: str, jobs: Sequence[Job], store: ResultStore, details: Sequence[str] | None = None,
          required: bool = False, most: Sequence[int] | None = None, share_cost: bool = False) -> list[Job]:
    """`jobs` (`jobs.Job`) with their games sized by `budget` as `phase` (each at most `most[i]`
    when given), from a probe of each; a job given 0 games is left out.  Without a limit the
    jobs keep their games (and the budget still lists them).  `share_cost`: the phase's CPU is
    shared out by cost (`Budget.fit`), for jobs of agents of very different speeds."""
    jobs = [dataclasses.replace(j, games=min(j.games, m)) for j, m in zip(jobs, most)] if most else list(jobs)
    details = list(details) if details is not None else [str(j.players) for j in jobs]
    costs = probe_costs(jobs, store) if budget.limited else [(0.0, 0)] * len(jobs)
    asks = [Ask(d, cost, j.games, least=min(j.players, j.games), step=1 if j.observe else j.players, stored=stored,
                required=required, facts={"players": j.players}) for j, d, (cost, stored) in zip(jobs, details, costs)]
    games = budget.fit(phase, asks, share_cost=share_cost)
    return [dataclasses.replace(j, games=g) for j, g in zip(jobs, games)]


def bought_data(budget: Budget) -> dict:
    """What the budget bought, for the report's JSON (see the module docstring)."""
    from boardlab.analysis.report.metrics import minimum_detectable_difference

    bought = budget.bought()
    phases = []
    for p in bought["phases"]:
        row = {"phase": p["phase"], "detail": p["detail"], "players": p.get("players"), "wanted": p["wanted"],
               "games": p["games"]}
        if p["phase"] in TESTED and p.get("players") and p["games"]:
            row["detectable"] = round(minimum_detectable_difference(p["games"], 1 / p["players"]) or 0.0, 4)
        phases.append(row)
    left = [{"phase": p["phase"], "detail": p["detail"], "players": p["players"], "games": p["wanted"] - p["games"]}
            for p in phases if p["games"] < p["wanted"]]
    return {"cpu_minutes": bought["cpu_minutes"], "quick": bought["quick"], "phases": phases, "left_out": left}


def bought_words(data: dict) -> str:
    """The head's words for what the budget bought and left out, in the report's language."""
    from boardlab.analysis.report.wording import games as count, listed, say, unsigned_points
    from boardlab.layouts.terms import word

    limit = limit_words(data["cpu_minutes"], data["quick"])
    parts = []
    for phase in SHARES:
        rows = [p for p in data["phases"] if p["phase"] == phase]
        if not rows:
            continue
        if phase == "skill":
            played = [p for p in rows if p["games"]]
            parts.append(say("budget.phase.skill") + ": " + say_steps(len(played), sum(p["games"] for p in played)))
            continue
        if phase == "endgame":  # decisions solved, not games
            items = [say("budget.endgame_item", positions=count(p["games"]), players=p["players"]) for p in rows
                     if p["games"]]
            if items:
                parts.append(say("budget.phase.endgame") + ": " + listed(items))
            continue
        by_players: dict = {}
        for p in rows:
            if p["games"]:
                by_players.setdefault(p["players"], []).append(p)
        items = []
        for n, group in by_players.items():
            most = max(p["games"] for p in group)
            item = say("budget.item", games=count(most), players=n) if len(group) == 1 else \
                say("budget.items", k=len(group), games=count(most), players=n)
            detectable = [p["detectable"] for p in group if "detectable" in p]
            if detectable:  # several sets: the power of the smallest (the largest difference it needs)
                item += say("budget.power" if len(group) == 1 else "budget.power_least",
                            points=unsigned_points(max(detectable)))
            items.append(item)
        if items:
            parts.append(say(f"budget.phase.{phase}") + ": " + listed(items))
    merged: dict[tuple, int] = {}  # one item per phase and player count (and element or alternative, named)
    ladders = sorted({x["players"] for x in data["left_out"] if x["phase"] == "skill" and x["players"]})
    for x in data["left_out"]:
        if x["phase"] == "skill" and x["players"]:  # one item for every ladder the budget stopped
            merged[("skill", 0, "")] = 0
            continue
        named = x["phase"] in ("skill", "alternatives", "restricted", "remedies")
        key = (x["phase"], x["players"], x["detail"] if named else "")
        merged[key] = merged.get(key, 0) + x["games"]
    left = [say("budget.left_endgame", positions=count(games), phase=say("budget.phase.endgame"),
                players=players) if phase == "endgame" else
            (say("budget.left_steps_at", phase=say("budget.phase.skill"), players=listed([str(n) for n in ladders]))
             if players == 0 else say("budget.left_step", phase=say("budget.phase.skill"))) if phase == "skill" else
            say("budget.left_item", games=count(games), phase=say(f"budget.phase.{phase}"),
                players=players) + (f" (`{word(detail) if phase == 'restricted' else detail}`)" if detail else "")
            for (phase, players, detail), games in merged.items()]
    return limit + ": " + "; ".join(parts) + (say("budget.left", items=listed(left)) if left else say("budget.nothing_left"))


def limit_words(minutes: float | None, quick: bool) -> str:
    """A budget's limit in words, in the language being written: "10 CPU minutes", "no limit".

    >>> limit_words(1, True), limit_words(None, False), limit_words(2.5, False)
    ('1 CPU minute (a quick run)', 'no limit', '2.5 CPU minutes')
    """
    from boardlab.analysis.report.wording import number, say, say_plural

    if minutes is None:
        return say("budget.unlimited")
    return say_plural("budget.minutes", 1 if minutes == 1 else 2, minutes=number(minutes, "g")) + \
        (say("budget.quick") if quick else "")


def say_steps(steps: int, games: int) -> str:
    from boardlab.analysis.report.wording import games as count, say_plural

    return say_plural("budget.steps", steps, k=steps, games=count(games))
