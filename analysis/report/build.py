"""`build_report`: play (through the results store) and measure everything a balance report shows.

The report covers every allowed player count: seats, length, decisions, skill, the game's own
figures, open-rule sensitivity; then the exact tables, the findings and the glossary.  All
simulations are planned first and played together (`jobs.play_jobs`), so one progress bar
shows the whole run and an interrupted run resumes with only what is missing.

The document (see `document`) holds no clock time: the same definition, options and code give
the same JSON byte for byte.  The compute time recorded in the store travels beside it as
`document["run"]`, for the Markdown and PDF heads only.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence
from pathlib import Path

from boardlab.analysis import engines
from boardlab.analysis.report import sections, your_playtests
from boardlab.analysis.report.document import preformatted, section, table, text
from boardlab.analysis.report.findings import findings, select_findings
from boardlab.analysis.report.glossary import glossary
from boardlab.analysis.report.remedy import could_search, numeric_remedies
from boardlab.analysis.report.verdict import verdict, verdict_blocks
from boardlab.analysis.report.wording import agent_label, games as count, listed, measured_words, number, say, word
from boardlab.analysis.report.jobs import Job, play_jobs, stored_seconds
from boardlab.analysis.report.budgeted import bought_data, bought_words, report_budget, sized
from boardlab.analysis.report.options import (model_agent, option_value_text, rule_alternatives, rule_namer, rule_problem,
                                              with_rule)
from boardlab.analysis.store import ResultStore, definition_hash, engine_fingerprint
from boardlab.analysis.tables import TableOptions
from boardlab.layouts.errors import BoardlabError
from boardlab.layouts.terms import language, respell
from boardlab.layouts.registry import game_entry, game_part

if TYPE_CHECKING:
    from boardlab.analysis.budget import Budget
    from boardlab.analysis.report.jobs import Outcome
    from boardlab.layouts.common import GameDefinition


@dataclass(frozen=True)
class ReportOptions:
    games: int | None = None  # self-play games per configuration; None: `games_for` the player count
    seed: int = 1
    players: int | None = None  # None: every allowed player count
    skill_games: int = 120  # games per level of the skill trace and per element of restricted play
    # the largest search budget the report's skill trace may climb to: the ladder doubles until a plateau,
    # this budget or the report's CPU budget, whichever comes first (with the default CPU budget, the CPU
    # budget or a plateau ends it well before 1024 in every shipped game)
    skill_budget: int = 1024
    decision_games: int = 240  # games played move by move for the decisions section
    table_deals: int = 200  # deals for tables estimated over random deals
    workers: int | None = None
    progress: bool = True
    agent: str | None = None
    backend: Any = None  # a runner.Backend (e.g. a Dask cluster); None: `workers` local processes  # the agent in every seat; None: the definition's `analysis.agent`, else random
    cpu_minutes: float | None = None  # the report's CPU budget (`budgeted`); None: no limit
    quick: bool = False  # a quick run for iterating (said in the head)
    replay: tuple = ()  # the phases another language's report of this run was sized to (`budgeted`)


def check_agent(game_id: str, name: str) -> str:
    """`name` if the game's engine offers that agent.

    :raises BoardlabError: for an unknown agent.
    """
    known = engines.agent_factories(game_id)
    if name not in known:
        shown = [k for k in known if not k[-1].isdigit()]
        raise BoardlabError(f"unknown agent '{name}' for {game_id} (agents: {', '.join(shown)})")
    return name


#: the half-width of a fair seat's 95% interval that the default sample size aims at
TARGET_HALF_WIDTH = 0.02


def games_for(players: int, options: "ReportOptions") -> int:
    """Games per configuration: `options.games`, or enough for a fair seat's interval to be +/- 2 points.

    A seat winning its fair share p = 1/players has a 95% half-width of about
    1.96 * sqrt(p (1 - p) / n); n is rounded up to a multiple of 120 (every deal turned for
    every seat at 2 to 6 and 8 players).

    >>> [games_for(n, ReportOptions()) for n in (2, 3, 4, 6, 8)]
    [2400, 2160, 1800, 1440, 1080]
    """
    if options.games is not None:
        return options.games
    p = 1 / players
    need = 1.959964 ** 2 * p * (1 - p) / TARGET_HALF_WIDTH ** 2
    return -(-int(need) // 120) * 120


def alternative_games(players: int, options: "ReportOptions") -> int:
    """Games of one rule alternative: the first half of the default's games, on the same seeds.

    Each game is compared with the default's game of the same seed, so the difference is
    measured far more precisely than either rate alone; half the games keep the report within
    its time budget.
    """
    return max(1, games_for(players, options) // 2)


def remedy_games(players: int, options: "ReportOptions") -> int:
    """The most games a value of a number in the rules plays in the verdict's remedy search
    (`remedy.numeric_remedies`), and the games of its confirmation: half a rule alternative's (a
    quarter of the default's), so that the search of a few values stays within the report's time.

    >>> remedy_games(4, ReportOptions()), remedy_games(2, ReportOptions(games=3))
    (450, 1)
    """
    return max(1, alternative_games(players, options) // 2)


def player_counts(definition: GameDefinition, options: ReportOptions) -> list[int]:
    info = definition.game
    if options.players is not None:
        return [info.check_players(options.players)]
    return list(range(info.min_players, info.max_players + 1))


def build_report(definition: GameDefinition, store: ResultStore, options: ReportOptions = ReportOptions()) -> dict:
    """The balance report document of a definition (see the module docstring).

    :raises BoardlabError: when the game has no engine or the player count is not allowed.
    """
    from boardlab.analysis.playtests import with_measured_pace

    game_id, name = definition.game.id, definition.game.name
    counts = player_counts(definition, options)
    if not game_entry(game_id).has("engine"):
        return _without_engine(definition, store, options, counts)
    definition = with_measured_pace(definition, store)  # table minutes at the pace playtests measured, if any
    agent = check_agent(game_id, options.agent or model_agent(definition))
    alternatives, skipped = rule_alternatives(definition)
    budget = report_budget(options.cpu_minutes, options.quick, options.replay)
    # every phase's games sized from a probe to fit the budget (`budgeted`): self-play first
    base_jobs = sized(budget, "self-play", [Job(definition, n, (agent,) * n, games_for(n, options), options.seed)
                                            for n in counts], store, required=True)
    self_play = {job.players: job.games for job in base_jobs}
    watched = sized(budget, "decisions", [Job(definition, n, (agent,) * n, options.decision_games, options.seed,
                                               observe=True) for n in counts], store, required=True)
    alt_jobs, alt_keys, alt_errors = [], [], {}
    for n in counts:
        for option, value in alternatives:
            changed = with_rule(definition, option, value)
            try:
                problem = rule_problem(changed)  # what the definition cannot take is skipped and named
                if problem:
                    raise BoardlabError(problem)
                engines.make_game(changed, n)
            except (BoardlabError, ValueError) as err:
                alt_errors[(n, option, value)] = str(err)
                continue
            alt_jobs.append(Job(changed, n, (agent,) * n, alternative_games(n, options), options.seed))
            alt_keys.append(f"{option} = {option_value_text(value)}")
    # an alternative is paired with the default's games of the same seeds: at most half of them
    alt_jobs = sized(budget, "alternatives", alt_jobs, store, details=alt_keys, required=True,
                     most=[max(1, self_play[job.players] // 2) for job in alt_jobs])
    jobs = []
    for base, moves in zip(base_jobs, watched):
        jobs += [base, moves] + [job for job in alt_jobs if job.players == base.players]
    estimate = sum(budget.estimate(p) for p in ("self-play", "decisions", "alternatives")) if budget.limited else None
    outcomes = play_jobs(jobs, store, options.workers, options.progress, backend=options.backend, estimate=estimate)
    budget.settle()
    by_job = {id(o.job): o for o in outcomes}
    traces, effects = _skill(definition, counts, options, store, budget)
    unit = engines.make_game(definition, counts[0]).length_unit
    baselines = {n: by_job[id(jobs_n[0])] for n, jobs_n in _by_count(jobs).items()}
    difference = sections.designer_difference(definition)
    if budget.limited and not could_search(definition, {n: {
            "seats": sections.seats_data(baselines[n], n, difference),
            "length": sections.length_data(baselines[n], definition, unit, n),
            "thresholds": sections.thresholds(definition)} for n in counts}):
        budget.withdraw("remedies")  # no number to search, or no problem it could cure: its share goes to the levels
    level_outcomes, level_seconds = _levels(definition, counts, options, store, traces, agent, baselines, budget)

    rule_name = rule_namer(definition, language())
    data: dict = {"by_players": {}, "designer_difference": difference}
    observed_by = {}
    for n in counts:
        mine = [by_job[id(j)] for j in jobs if j.players == n]
        baseline, observed = mine[0], mine[1]
        alt_outcomes = iter(mine[2:])
        alts = [(o, v, alt_errors.get((n, o, v)) or next(alt_outcomes)) for o, v in alternatives]
        own_blocks, own = _own_figures(definition, baseline, n, options.seed, store)
        other = [(say(f"level.{name}", agent=level_outcomes[n][name][0]),
                  sections.decision_data(level_outcomes[n][f"{name} decisions"]))
                 for name in ("beginner", "skilled") if level_outcomes[n][f"{name} decisions"] is not None]
        decision_blocks, decided = sections.decisions(observed, n, agent, other)
        observed_by[n] = (own_blocks, decision_blocks)
        seats, length = sections.seats_data(baseline, n, difference), sections.length_data(baseline, definition, unit, n)
        data["by_players"][str(n)] = {
            "agent": agent,
            "seats": seats,
            "length": length,
            "levels": _level_data(level_outcomes[n], agent, seats, length, n, difference, definition, unit, decided,
                                  _skilled_rule(definition, traces[n])),
            "skill_share": _skill_share_data(level_outcomes[n], n),
            "decisions": decided,
            "skill": sections.skill_data(traces[n], difference),
            "restricted": sections.restricted_data(effects[n], difference),
            "game": own,
            "sensitivity": sections.sensitivity_data(baseline, alts, n, skipped),
            "thresholds": sections.thresholds(definition)}
    playtests = [g for _, g in store.playtests(game_id)]
    data["playtests"] = your_playtests.playtests_data(
        definition, playtests, counts, unit, _level_records(agent, baselines, level_outcomes), agent, difference)
    data["tests"] = select_findings(data["by_players"])
    numeric_remedies(definition, data["by_players"], store, agent, lambda n: remedy_games(n, options), options.seed,
                     options.workers, options.progress, options.backend, budget)
    body = []
    for n in counts:
        d = data["by_players"][str(n)]
        own_blocks, decision_blocks = observed_by[n]
        body.append(section(say("section.players", players=n), [], level=2))
        body += [section(say("section.seats"), sections.seats_blocks(d["seats"], n, unit), level=3),
                 section(say("section.length"), sections.length_blocks(d["length"], n), level=3),
                 section(say("section.decisions"), decision_blocks, level=3),
                 section(say("section.skill"), sections.skill_blocks(d["skill"], n), level=3),
                 section(say("section.restricted"), sections.restricted_blocks(d["restricted"], n), level=3),
                 section(say("section.own", name=name), own_blocks, level=3),
                 section(say("section.sensitivity"),
                         sections.sensitivity_blocks(d["sensitivity"], n, unit, rule_name), level=3)]
    body.append(section(say("section.playtests"), your_playtests.playtests_blocks(data["playtests"]), level=2))
    found = findings(name, data["by_players"], rule_name)
    data["findings"] = found
    data["verdict"] = verdict(data["by_players"], rule_name)
    tables_blocks, data["tables"] = _tables(definition, options, store)
    data["budget"] = bought_data(budget)
    head = _head(definition, options, counts, traces, effects, agent, self_play)
    head.append([say("head.budget"), bought_words(data["budget"])])
    head = [row if row[0] != say("head.agents") else [row[0], row[1] + _level_words(data["by_players"], options)]
            for row in head]
    document = {
        "title": _title(definition),
        "head": head,
        "sections": [{**section(say("verdict.title"), verdict_blocks(data["verdict"])), "first": True},
                     section(say("section.findings"), [text("\n".join(f"{i}. {f['text']}" for i, f in enumerate(found, 1))
                                                          if found else say("no_finding"))])]
                    + body + [section(say("section.tables"), tables_blocks)],
        "glossary": glossary(),
        "data": data,
        "run": {"seconds": round(stored_seconds(outcomes) + level_seconds + sum(t["seconds"] for t in traces.values())
                                 + sum(e["seconds"] for e in effects.values()), 1)},
    }
    return document


def _level_records(agent: str, baselines: dict, level_outcomes: dict) -> dict:
    """{players: {agent: self-play records}} of the report's own levels, for "Your playtests": the
    model agent (the baseline games), then the beginner and the skilled level (`_levels`); no game
    is played for it."""
    out: dict = {}
    for n, baseline in baselines.items():
        found = {agent: baseline.records}
        for name in ("beginner", "skilled"):
            level_agent, outcome = level_outcomes[n][name]
            found.setdefault(level_agent, outcome.records)
        out[n] = found
    return out


def _skill(definition: GameDefinition, counts: list[int], options: ReportOptions, store: ResultStore,
           budget: Budget | None = None) -> tuple[dict, dict]:
    """The skill trace (`skill.traces`: every player count's ladder climbing together) and restricted
    play (`restricted.effects`) at every player count, {players: dict}, their games through the
    results store (so a rerun plays only what is missing)."""
    from boardlab.analysis import restricted, runner, skill

    backend = options.backend or runner.LocalBackend(options.workers)
    if budget is not None and not any(engines.make_game(definition, n).restrictions() for n in counts):
        budget.withdraw("restricted")  # nothing to restrict: its share goes to the skill trace and the levels
    traces = skill.traces(definition, counts, options.skill_games, options.skill_budget, options.seed, store, backend,
                          progress=options.progress, budget=budget)
    effects = restricted.effects_at(definition, counts, options.skill_games, options.seed, store, backend,
                                    progress=options.progress, budget=budget)
    return traces, effects


def _skilled_rule(definition: GameDefinition, trace: dict) -> str:
    from boardlab.analysis.report.levels import skilled_rule
    return skilled_rule(definition, trace)


#: how the skilled level was chosen (`levels.skilled_rule`) -> its term (report.head.skilled_rule.*)
RULES = {"named": "named", "top group": "top_group"}


def _level_words(by_players: dict, options: ReportOptions) -> str:
    """The head's words for the player levels: each level's agent by player count, and the games
    a level plays of its own."""
    parts = []
    for level in ("beginner", "skilled"):
        agents: dict[str, list[str]] = {}
        for n, d in by_players.items():
            for x in d.get("levels", []):
                if x["level"] == level:
                    agents.setdefault(x["agent"], []).append(n)
        if not agents:
            return ""
        parts.append(say(f"head.level_{level}", agents=", ".join(
            agent_label(a) if len(agents) == 1 else say("head.level_with", agent=a, players=", ".join(ns)) for a, ns in agents.items())))
        rules = sorted({x["chosen_by"] for d in by_players.values() for x in d.get("levels", [])
                        if x["level"] == level and x.get("chosen_by")})
        if rules:  # how the skilled level was chosen (`levels.skilled_rule`)
            parts[-1] += say("head.skilled_rule", rules=listed([say(f"head.skilled_rule.{RULES[r]}") for r in rules]))
    games = sorted({x["games"] for d in by_players.values() for x in d.get("levels", []) if not x["model"]})
    return say("head.levels", levels="; ".join(parts),
               games=say("head.level_games", games=", ".join(count(g) for g in games), skill=count(options.skill_games))
               if games else "")


def _by_count(jobs: list[Job]) -> dict[int, list[Job]]:
    out: dict[int, list[Job]] = {}
    for job in jobs:
        out.setdefault(job.players, []).append(job)
    return out


def _levels(definition: GameDefinition, counts: Sequence[int], options: ReportOptions, store: ResultStore,
            traces: dict, model: str, baselines: dict, budget: Budget | None = None) -> tuple[dict, float]:
    """The games of the player levels (`levels`) at every player count: {players: {"beginner":
    (agent, outcome), "skilled": (agent, outcome), "against random": outcome, "against beginner":
    outcome or None}} and their stored compute time.  A level played by the model agent takes the
    baseline's games; the others play `levels.level_games` self-play games, and the skill share
    plays the skilled level against random play and against the beginner (`skill_games` each,
    seats rotating)."""
    from boardlab.analysis.report import levels
    from boardlab.analysis.skill import rounded_games

    game_id = definition.game.id
    known = engines.agent_factories(game_id)
    planned: dict[tuple, Job] = {}

    def job(players: int, agents: tuple, games: int, observe: bool = False) -> Job:
        return planned.setdefault((players, agents, games, observe),
                                  Job(definition, players, agents, games, options.seed, observe=observe))

    plans = {}
    for n in counts:
        beginner = levels.beginner_agent(known, [level["agent"] for level in traces[n]["levels"]])
        skilled = check_agent(game_id, levels.skilled_agent(definition, traces[n], beginner))
        games = levels.level_games(n, games_for(n, options))
        plan: dict[str, Any] = {name: (agent, None if agent == model else job(n, (agent,) * n, games))
                                for name, agent in (("beginner", beginner), ("skilled", skilled))}
        pairing_games = rounded_games(options.skill_games, n)
        for name, agent in (("beginner", beginner), ("skilled", skilled)):  # their decisions, move by move
            plan[f"{name} decisions"] = None if agent == model or (name == "skilled" and skilled == beginner) \
                else job(n, (agent,) * n, pairing_games, observe=True)
        plan["against random"] = job(n, (skilled,) + ("random",) * (n - 1), pairing_games)
        plan["against beginner"] = job(n, (skilled,) + (beginner,) * (n - 1), pairing_games) \
            if skilled != beginner and beginner != "random" else None
        plans[n] = plan
    todo = list(planned.values())
    if budget is not None:
        # the beginner's games are cheap beside the skilled search's: the phase's CPU is shared by cost
        todo_sized = sized(budget, "levels", todo, store, details=[f"{j.players}: {', '.join(j.agents)}" for j in todo],
                           required=True, share_cost=True)
    else:
        todo_sized = todo
    estimate = budget.estimate("levels") if budget is not None and budget.limited else None
    played = play_jobs(todo_sized, store, options.workers, options.progress, label="games of the player levels",
                       backend=options.backend, estimate=estimate)
    if budget is not None:
        budget.settle()
    by = {id(job): o for job, o in zip(todo, played)}
    out = {}
    for n, plan in plans.items():
        out[n] = {key: (value[0], baselines[n] if value[1] is None else by[id(value[1])]) if isinstance(value, tuple)
                  else (by[id(value)] if value is not None else None) for key, value in plan.items()}
    return out, stored_seconds(played)


def _level_data(outcomes: dict, model: str, seats: dict, length: dict, players: int, difference: float,
                definition: GameDefinition, unit: str, decided: dict | None = None, rule: str = "") -> list[dict]:
    """[{"level", "agent", "games", "model", "seats", "length", "decisions"}] of the beginner and
    the skilled level (its "chosen_by": `levels.skilled_rule`'s `rule`); a level the model agent
    plays shares the baseline's figures (the same dicts, so its tests are counted once), its
    decisions the model's observed games (`decided`)."""
    out: list[dict] = []
    for name in ("beginner", "skilled"):
        agent, outcome = outcomes[name]
        same = agent == model
        chosen = {"chosen_by": rule} if name == "skilled" and rule else {}
        if out and out[0]["agent"] == agent:  # the ladder reached no level above the beginner
            out.append({**out[0], "level": name, **chosen})
            continue
        observed = outcomes.get(f"{name} decisions")
        out.append({"level": name, "agent": agent, "games": len(outcome.records), "model": same,
                    "seats": seats if same else sections.seats_data(outcome, players, difference),
                    "length": length if same else sections.length_data(outcome, definition, unit, players),
                    "decisions": sections.decision_data(observed) if observed is not None else decided, **chosen})
    return out


def _skill_share_data(outcomes: dict, players: int) -> dict:
    """The skilled level against random play and against the beginner (`levels.pairing_share`)."""
    from boardlab.analysis.report.levels import pairing_share

    skilled, beginner = outcomes["skilled"][0], outcomes["beginner"][0]
    against = outcomes["against beginner"]
    return {"skilled": skilled, "beginner": beginner,
            "against_random": pairing_share(outcomes["against random"].records, skilled, players),
            "against_beginner": pairing_share(against.records, skilled, players) if against is not None else None}


def _without_engine(definition: GameDefinition, store: ResultStore, options: ReportOptions, counts: Sequence[int]) -> dict:
    """The report of a game that has no rules engine yet: its head and exact tables only."""
    tables_blocks, tables_data = _tables(definition, options, store)
    head = [row for row in _head(definition, options, counts, {}, {}, "none")
            if row[0] not in (say("head.games"), say("head.agents"))]
    return {"title": _title(definition),
            "head": head,
            "sections": [{**section(say("verdict.title"), [text(say("no_engine", name=definition.game.name))]),
                          "first": True},
                         section(say("section.findings"), [text(say("no_engine", name=definition.game.name))]),
                         section(say("section.tables"), tables_blocks)],
            "glossary": glossary(), "data": {"by_players": {}, "findings": [], "tables": tables_data},
            "run": {"seconds": 0.0}}


def _own_figures(definition: GameDefinition, baseline: Outcome, players: int, seed: int,
                 store: ResultStore) -> tuple[list[dict], dict]:
    """The engine's own summary of the baseline games (as `boardlab simulate` prints it), then its charts."""
    game_id = definition.game.id
    summary = baseline.summary
    own = summary.get(game_id, {})  # the game's own figures, filed under its id by the runner
    game = engines.make_game(definition, players)
    charts, told = game.summary_charts(own) if own else ([], own)
    lines = game.describe_summary(told) if own else ""
    blocks = [text(say("own.intro", games=count(summary['games']))), preformatted(lines)] if lines else []
    blocks += charts
    more_blocks, more = _extras(definition, players, seed, store)
    return blocks + more_blocks, {"summary": own, **more}


def _extras(definition: GameDefinition, players: int, seed: int, store: ResultStore) -> tuple[list[dict], dict]:
    """The engine's own charts and tables (`Game.report_extras`), through the store."""
    game_id = definition.game.id
    key = {"what": "report extras", "game": game_id, "definition": definition_hash(definition),
           "players": players, "seed": seed, "engine": engine_fingerprint(game_entry(game_id).engine),
           "report": _code_fingerprint()}
    blocks, data = store.cached(key, lambda: list(engines.make_game(definition, players).report_extras(seed)))
    return [translated(block) for block in blocks], data


def _tables(definition: GameDefinition, options: ReportOptions, store: ResultStore) -> tuple[list[dict], dict]:
    game_id = definition.game.id
    if not game_entry(game_id).has("tables"):
        return [text(say("tables.none"))], {}
    key = {"what": "tables", "game": game_id, "definition": definition_hash(definition),
           "players": options.players, "deals": options.table_deals, "seed": options.seed,
           "engine": engine_fingerprint(game_entry(game_id).tables), "report": _code_fingerprint()}

    def compute() -> list:
        tables = game_part(game_id, "tables").tables(definition, TableOptions(players=options.players, deals=options.table_deals,
                                                                   seed=options.seed, workers=options.workers))
        blocks = [table(t.title, [(c, "text") for c in t.columns], [[_plain(v) for v in row] for row in t.rows],
                        t.note) for t in tables.tables]
        return [[text(tables.title)] + blocks, tables.data]

    blocks, data = store.cached(key, compute)
    return [translated(block) for block in blocks], data


def translated(block: dict) -> dict:
    """A block of the game's own tables or figures (written in the definitions' English, and
    cached so) in the report's language: its title, column names, note, text, chart axis and
    categories and the text cells of its rows, each by the terms table's words (`terms.word`)."""
    out = dict(block)
    for key in ("title", "note", "text", "axis", "x_axis", "marker_label"):
        if isinstance(out.get(key), str) and out[key] and out["kind"] != "pre":
            out[key] = word(out[key])
    if "columns" in out:
        out["columns"] = [{**c, "name": word(c["name"])} for c in out["columns"]]
        out["rows"] = [[_cell_words(v) if c["format"] == "text" else v for v, c in zip(row, out["columns"])]
                       for row in out["rows"]]
    if "categories" in out:
        out["categories"] = [word(c) if isinstance(c, str) else c for c in out["categories"]]
    return out


def _cell_words(value: object) -> object:
    """A text cell of a game's table in the report's language: a decimal number ("3.417") as the
    language writes it, an agent's name (a 6x6 chooser) by `agent_label`, other words by the terms table."""
    if not isinstance(value, str):
        return value
    if re.fullmatch(r"[-+]?[\d,]*\d(\.\d+)?%?", value):
        return respell(value)
    shown = agent_label(value)
    return shown if shown != value else word(value)


def _title(definition: GameDefinition) -> str:
    return say("title", name=definition.game.name, variant=word(str(getattr(definition, "variant", "baseline"))))


def _plain(value: object) -> int | float | str | bool | None:
    return value if isinstance(value, (int, float, str, bool)) or value is None else str(value)


def _code_fingerprint() -> str:
    from boardlab.analysis.store import COMMON_SIMULATION_MODULES  # noqa: F401 (same hashing as the store)
    import hashlib
    folder = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def git_commit() -> str:
    """The checkout's commit (short), with "+changes" ("+cambios") when tracked files outside reports/
    differ; or "unknown"."""
    root = Path(__file__).resolve().parents[2]
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"], capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no", "--",
                                ".", ":(exclude)reports"], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    from boardlab.layouts.terms import term

    return commit + (term("report.commit_changed") if dirty else "")


def _ladder_words(traces: dict, effects: dict) -> str:
    """The head's words for the skill trace's levels and restricted play's agent."""
    ladders: dict[str, list[str]] = {}
    for n, t in traces.items():
        ladders.setdefault(", ".join(agent_label(level["agent"]) for level in t["levels"]), []).append(str(n))
    words = "".join(say("head.trace", ladder=ladder) if len(ladders) == 1 else
                    say("head.trace_with", players=", ".join(ns), ladder=ladder)
                    for ladder, ns in ladders.items() if ladder)
    agents = sorted({e["agent"] for e in effects.values() if e["elements"]})
    if agents:
        words += say("head.restricted", agents=", ".join(agent_label(a) for a in agents))
    return words


def _head(definition: GameDefinition, options: ReportOptions, counts: Sequence[int], traces: dict, effects: dict, agent: str,
          self_play: dict | None = None) -> list[list[str]]:
    from boardlab import __version__
    from boardlab.analysis.skill import LOOKS
    info = definition.game
    assumptions = info.assumptions
    head = [
        [say("head.definition"), f"`{getattr(definition, 'source', info.id)}`"],  # a path: code, in no language
        [say("head.hash"), definition_hash(definition)],
        [say("head.variant"), word(str(getattr(definition, "variant", "baseline")))],
        ["boardlab", say("head.version", version=__version__, commit=git_commit())],
        [say("head.seed"), str(options.seed)],
        [say("head.players"), ", ".join(str(n) for n in counts)],
        [say("head.games"), ", ".join(say("head.games_with", games=count((self_play or {}).get(n, games_for(n, options))),
                                                          players=n)
                                      for n in counts)
         + say("head.games_rest", decisions=count(options.decision_games), skill=count(options.skill_games),
               cap=count(options.skill_games * LOOKS[-1]), budget=count(options.skill_budget))],
        [say("head.agents"), say("head.agents_value", agent=agent) + _ladder_words(traces, effects)],
        [say("head.time"), say("head.time_value", minutes=info.minutes,
                               players=str(info.min_players) if info.min_players == info.max_players else
                               say("span", low=info.min_players, high=info.max_players))],
    ]
    measured = [sections.measured_pace(definition, n) for n in counts]
    if measured and all(measured):  # the stated pace is used nowhere: its assumption is not one of this report's
        assumptions = tuple(a for a in assumptions if "seconds_per_" not in a)
    head += [[say("head.assumption"), word(a)] for a in assumptions] or [[say("head.assumptions"), say("head.none")]]
    head += [[say("head.pace"), pace_row] for pace_row in _measured_pace_rows(definition, counts)]
    return head


def _measured_pace_rows(definition: GameDefinition, counts: Sequence[int]) -> list[str]:
    """The head's words for each pace measured from playtests that this report uses."""
    unit = engines.make_game(definition, counts[0]).length_unit
    used: dict[Any, list[int]] = {}
    for n in counts:
        found = sections.measured_pace(definition, n)
        if found is not None:
            used.setdefault(found, []).append(n)
    return [say("head.pace_value", pace=say("pace", seconds=number(p.seconds, "g"), unit=word(unit.rstrip("s"))),
                source=measured_words({"games": p.games, "players": p.players, "ci95": [p.low, p.high]}),
                players=", ".join(str(n) for n in ns)) for p, ns in used.items()]
