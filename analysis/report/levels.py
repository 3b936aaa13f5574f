"""Player levels: every headline of a report measured for a beginner and for a skilled player.

A designer reads "the seats are balanced" as a statement about people; a report measures it
with agents.  So the report names two kinds of player and measures its headline metrics (seat
shares of decided games, seat 1's advantage, length with its capped share, draws) for both:

- the **beginner** plays one ply ahead: the engine's `greedy` agent (where an engine has no
  greedy, the first level of its skill ladder above random);
- the **skilled** player is the definition's `analysis.skilled_agent` when it names one, else
  the strongest level the report's skill ladder showed within its budget: the cheapest level of
  its top group of indistinguishable levels (the level of its last step told apart; no level
  above it significantly stronger; never below the beginner when the beginner is in that group),
  so an undecided last step never names the level above it
  (`skilled_agent`; the report's head says which rule chose, `skilled_rule`).

The definition's own `analysis.agent` (random play in Blockd and Links) stays the model of the
structural figures (the sections, restricted play and the rule sensitivity); a level that is the
same agent reuses those games.

**Skill share** (`skill_share`): the skilled level in one seat against random play in all the
others (seats rotating), its share p of the decided games against the fair share f = 1/n:
(p - f) / (1 - f), the share of games the skill decides outright (`sections.decided_by`);
0 for a game of pure luck, 1 when the skilled player always wins.  Its interval, like every
interval of this module, takes the rotation group (one deal played once with the tested level
in every seat) as the unit: the Wilson interval at the effective number of decided games, the
decided games over the design effect of the groups (`clustered_share`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Container, Hashable, Iterable, Sequence, TypeVar

from boardlab.analysis.stats import wilson_interval

if TYPE_CHECKING:
    from boardlab.analysis.runner import GameRecord

#: a record of one game (`runner.GameRecord`, or any record its callers read)
_R = TypeVar("_R")

#: the level names of a report, in the order the verdict states them
LEVELS = ("beginner", "skilled")
#: the agent of the beginner level, where the engine has it
BEGINNER = "greedy"


def beginner_agent(known: Container[str], ladder: list[str]) -> str:
    """The beginner: greedy, else the first level of the ladder above random, else random.

    >>> beginner_agent({"random": 1, "greedy": 1}, ["random", "greedy"]), beginner_agent({}, ["random", "a", "b"])
    ('greedy', 'a')
    """
    if BEGINNER in known:
        return BEGINNER
    above = [name for name in ladder[1:] if name != "perfect"]
    return above[0] if above else "random"


def skilled_agent(definition: object, trace: dict, beginner: str | None = None) -> str:  # a definition, or None
    """The skilled level (`skilled_rule` says by which rule): `analysis.skilled_agent`, else the
    cheapest level of the skill trace's top group, the first level after its last step told apart
    (a pairing "distinguished" by the ladder's false-discovery control): no level above it is
    shown stronger, so a ladder that climbed on through steps it could not decide does not name
    a level it never showed better.  Never random play (the ladder's reference) when the ladder
    has a level above it, nor below the `beginner` when the beginner's level is in that group (no
    step told apart: every level is); random without a ladder.

    >>> trace = {"levels": [{"agent": a} for a in ("random", "greedy", "mcts-16", "mcts-32")],
    ...          "pairings": [{"agent": "greedy", "distinguished": True}, {"agent": "mcts-16", "distinguished": True},
    ...                       {"agent": "mcts-32", "distinguished": False}]}
    >>> skilled_agent(None, trace), skilled_rule(None, trace)
    ('mcts-16', 'top group')
    """
    named = getattr(getattr(definition, "analysis", None), "skilled_agent", None)
    if named:
        return named
    ladder = [level["agent"] for level in trace.get("levels", [])]
    told = [i + 1 for i, p in enumerate(trace.get("pairings", [])) if p.get("distinguished")]
    group = ladder[told[-1] if told else 1:]  # the top group, above random play (the ladder's first level)
    if beginner is not None and beginner in group:
        return beginner
    return group[0] if group else "random"


def skilled_rule(definition: object, trace: dict) -> str:
    """How `skilled_agent` chose: "named" (the definition's `analysis.skilled_agent`) or "top group"
    (the cheapest level of the ladder's top group, not below the beginner's)."""
    return "named" if getattr(getattr(definition, "analysis", None), "skilled_agent", None) else "top group"


def level_games(players: int, baseline_games: int) -> int:
    """Self-play games of a level that the baseline's games do not already give: half the
    baseline's, rounded up to whole rotations of 120 games (every deal turned for every seat at 2
    to 6 and 8 players), at least 120.  The engines' batched search makes a skilled game cost a
    few random ones (Blockd's four levels of three player counts add about 30 s of compute, Links'
    seven about 5 minutes); the verdict states what these games detect.

    >>> level_games(2, 2400), level_games(8, 1080), level_games(2, 100)
    (1200, 600, 120)
    """
    return max(120, -(-(baseline_games // 2) // 120) * 120)


def clustered_share(records: Iterable[_R], wins_of: Callable[[_R], float | None],
                    groups_of: Callable[[_R], Hashable]) -> dict:
    """A share of decided games with the rotation group as the unit: {"wins", "decided", "share",
    "ci95", "groups", "effective"}.

    `wins_of(record)` is the tested side's credit in a decided game, None for a game not decided;
    `groups_of(record)` its rotation group.  The share is the ratio of sums; its variance is the
    cluster (linearised) variance over the groups, and the Wilson interval is taken at the
    effective number of decided games: decided games times the binomial variance over the
    cluster variance, never more than the decided games themselves (games of a group that share
    out a deal's advantage can make the groups' totals steadier than independent games; the
    interval then stays at its independent width rather than narrower).

    >>> import collections
    >>> R = collections.namedtuple("R", "deal won")
    >>> games = [R(d, w) for d in range(50) for w in (1, 0)]  # every group one win, one loss
    >>> c = clustered_share(games, lambda r: r.won, lambda r: r.deal)
    >>> c["share"], c["effective"], c["ci95"] == [round(x, 6) for x in wilson_interval(50, 100)]
    (0.5, 100.0, True)
    """
    totals: dict = {}
    for r in records:
        won = wins_of(r)
        if won is None:
            continue
        w, d = totals.get(groups_of(r), (0.0, 0))
        totals[groups_of(r)] = (w + won, d + 1)
    return grouped_share(totals)


def grouped_share(totals: dict) -> dict:
    """`clustered_share` from the groups' totals {group: (wins, decided games)} (groups with
    decided games only); "effective_exact" is the unrounded effective size, which the tests of
    the same unit take (`skill.Pairing.counts`)."""
    wins = sum(w for w, _ in totals.values())
    decided = sum(d for _, d in totals.values())
    if not decided:
        return {"wins": 0, "decided": 0, "share": None, "ci95": [0.0, 1.0], "groups": 0, "effective": 0.0,
                "effective_exact": 0.0}
    share = wins / decided
    k = len(totals)
    binomial = share * (1 - share) / decided
    if k > 1 and binomial > 0:
        mean_size = decided / k
        residuals = [(w - share * d) / mean_size for w, d in totals.values()]
        cluster = sum(x * x for x in residuals) / (k * (k - 1))
        effective = float(decided) if cluster <= binomial else decided * binomial / cluster
    else:
        effective = float(decided)
    # the Wilson interval at the effective size, the observed share kept
    size = max(1, round(effective))
    lo, hi = wilson_interval(share * size, size)
    return {"wins": round(wins, 6), "decided": decided, "share": round(share, 6),
            "ci95": [round(lo, 6), round(hi, 6)], "groups": k, "effective": round(effective, 1),
            "effective_exact": effective}


def decided_share(share: float | None, fair: float) -> float | None:
    """The share of games a side's advantage decides outright: (share - fair) / (1 - fair).

    >>> decided_share(0.75, 0.5), decided_share(0.25, 0.25), decided_share(None, 0.5)
    (0.5, 0.0, None)
    """
    return None if share is None else (share - fair) / (1 - fair)


def pairing_share(records: Sequence[GameRecord], agent: str, players: int) -> dict:
    """`agent`'s share of the decided games it played against other agents (seats rotating), with
    the rotation group as the unit (`clustered_share`), and the skill share it implies
    (`decided_share`, with its interval): a dict for JSON."""
    fair = 1 / players

    def wins_of(r: GameRecord) -> float | None:
        if r.unfinished or len(r.winners) != 1:
            return None
        return 1.0 if r.agents[r.winners[0]] == agent else 0.0

    c = {k: v for k, v in clustered_share(records, wins_of, lambda r: r.deal).items() if k != "effective_exact"}
    skill = decided_share(c["wins"] / c["decided"] if c["decided"] else None, fair)
    lo, hi = (decided_share(x, fair) for x in c["ci95"])
    return {**c, "games": len(records), "fair_share": round(fair, 6),
            "skill_share": None if skill is None else round(skill, 6),
            "skill_ci95": [round(lo, 6), round(hi, 6)],  # type: ignore[arg-type]
            "holds_zero": bool(lo <= 0 <= hi)}  # type: ignore[operator]


# --- the words of the levels (verdict and findings) ---------------------------------------------

def shown_levels(d: dict) -> list[tuple[str, dict]]:
    """The levels a verdict states for one player count, [(who, level)]: the beginner and the
    skilled level, one entry when both are the same agent; the model agent's figures when the
    data has no levels (a report from before them)."""
    from boardlab.analysis.report.wording import say

    levels = d.get("levels")
    if not levels:
        return [(say("level.model", agent=d["agent"]) if d.get("agent") else "",
                 {"agent": d.get("agent"), "seats": d["seats"], "length": d["length"]})]
    beginner, skilled = levels[0], levels[-1]
    if beginner["agent"] == skilled["agent"]:
        return [(say("level.both", agent=beginner["agent"]), beginner)]
    return [(say("level.beginner", agent=beginner["agent"]), beginner),
            (say("level.skilled", agent=skilled["agent"]), skilled)]


def skilled_view(d: dict) -> tuple[str, dict]:
    """(who, the player count's data with the skilled level's seats and length): what the worst
    problem is judged on."""
    who, level = shown_levels(d)[-1]
    return who, {**d, "seats": level["seats"], "length": level["length"]}


def for_level(line: str, who: str) -> str:
    """A verdict line "- Label: text" with the level it speaks for after its label.

    >>> for_level("- Seats: balanced.", "beginners, greedy")
    '- Seats (beginners, greedy): balanced.'
    """
    if not who:
        return line
    head, sep, rest = line.partition(": ")
    return f"{head} ({who}){sep}{rest}" if sep else f"{line} ({who})"


def finding_who(d: dict, agent: str) -> str:
    """How a finding names the players of games played with `agent` in every seat: the level
    that agent is (beginners, skilled players, both), else the agent itself."""
    from boardlab.analysis.report.wording import say

    levels = d.get("levels") or []
    names = [level["level"] for level in levels if level["agent"] == agent]
    key = "both" if len(names) == 2 else names[0] if names else "model"
    return say(f"level.finding.{key}", agent=agent)


def led(text: str, who: str) -> str:
    """A finding's sentence led by the players it speaks for."""
    from boardlab.analysis.report.wording import say

    return say("level.lead", who=who, text=text)


def seat_state(seats: dict) -> tuple[str, str]:
    """(kind, words) of a level's seats for the disagreement line: "first" (seat 1 ahead or
    behind), "unequal" (some seat ahead), "fair" or "too few"."""
    from boardlab.analysis.report.wording import say, unsigned_points

    a, e = seats["first_player_advantage"], seats["equality"]
    if a.get("discovery"):
        key = "level.seat_ahead" if a["advantage"] > 0 else "level.seat_behind"
        return ("first+" if a["advantage"] > 0 else "first-"), say(key, seat=1, diff=unsigned_points(abs(a["advantage"])))
    if e.get("discovery"):
        rates = [x["share"] for x in seats["by_seat"]]
        best = rates.index(max(rates))
        return f"unequal {best}", say("level.seat_ahead", seat=best + 1,
                                      diff=unsigned_points(rates[best] - seats["fair_share"]))
    if a["power"]["enough"]:
        return "fair", say("level.balanced")
    return "too few", say("level.too_few")


def time_state(length: dict) -> tuple[str, str]:
    """(kind, words) of a level's table time against the stated time: "close", "long", "short"
    (`findings.LENGTH_TOLERANCE`), or "none" without a pace or a finished game."""
    from boardlab.analysis.report.findings import LENGTH_TOLERANCE
    from boardlab.analysis.report.wording import minutes

    if "table_minutes" not in length or not length.get("finished_games"):
        return "none", ""
    at_table = length["table_minutes"]["median"]
    ratio = at_table / length["stated_minutes"]
    kind = "close" if 1 / LENGTH_TOLERANCE <= ratio <= LENGTH_TOLERANCE else "long" if ratio > 1 else "short"
    return kind, minutes(at_table)


def disagreement(shown: list[tuple[str, dict]], unit: str) -> list[str]:
    """The verdict's line where beginners and skilled players disagree (on the seats: one
    balanced, the other not, or different seats ahead; on the time: one close to the stated time,
    the other not), else nothing."""
    from boardlab.analysis.report.wording import listed, say, target_time

    if len(shown) < 2:
        return []
    (_, beginner), (_, skilled) = shown
    parts = []
    (b_kind, b_words), (s_kind, s_words) = seat_state(beginner["seats"]), seat_state(skilled["seats"])
    if b_kind != s_kind and "too few" not in (b_kind, s_kind):
        parts.append(say("level.disagree_seats", beginner=b_words, skilled=s_words))
    (b_kind, b_time), (s_kind, s_time) = time_state(beginner["length"]), time_state(skilled["length"])
    if b_kind != s_kind and "none" not in (b_kind, s_kind):
        parts.append(say("level.disagree_time", beginner=b_time, skilled=s_time,
                         stated=beginner["length"]["stated_minutes"], target=target_time(beginner["length"])))
    if not parts:
        return []
    return [say("level.disagree", beginner=beginner["agent"], skilled=skilled["agent"], parts=listed(parts))]


def skill_share_line(d: dict) -> list[str]:
    """The verdict's luck-against-skill line: the skilled level's share against random play and
    the skill share it implies, with intervals; its share against the beginner."""
    from boardlab.analysis.report.wording import games, pct, say

    share = d.get("skill_share")
    if not share or share["against_random"]["share"] is None:
        return []
    r = share["against_random"]
    line = say("level.skill_share", skilled=share["skilled"], share=pct(r["share"]), fair=pct(r["fair_share"]),
               decides=pct(r["skill_share"], 0), low=pct(r["skill_ci95"][0], 0), high=pct(r["skill_ci95"][1], 0),
               games=games(r["decided"]))
    b = share.get("against_beginner")
    if b and b["share"] is not None:
        line += say("level.skill_share_beginner", beginner=share["beginner"], share=pct(b["share"]),
                    low=pct(b["ci95"][0]), high=pct(b["ci95"][1]), fair=pct(b["fair_share"]))
    return [line + "."]


def skill_share_findings(counts: dict) -> list[dict]:
    """One finding of the skill share over the player counts whose interval excludes 0 (skill
    decides some games: the skilled level against random play); none where every interval holds 0
    (a game of luck gives no skill finding)."""
    from boardlab.analysis.report.wording import agent_label, listed, pct, say

    seen = [(n, d["skill_share"]) for n, d in counts.items()
            if d.get("skill_share") and d["skill_share"]["against_random"]["share"] is not None
            and not d["skill_share"]["against_random"]["holds_zero"]]
    if not seen:
        return []
    parts = listed(say("level.share_part", decides=pct(s["against_random"]["skill_share"], 0),
                       low=pct(s["against_random"]["skill_ci95"][0], 0), high=pct(s["against_random"]["skill_ci95"][1], 0),
                       players=n) for n, s in seen)
    skilled = listed([agent_label(name) for name in sorted({s["skilled"] for _, s in seen})])
    score = max(10 * s["against_random"]["skill_share"] for _, s in seen)
    return [{"score": max(score, 1.0), "kind": "skill share", "players": [n for n, _ in seen],
             "text": say("level.share_finding", skilled=skilled, parts=parts)}]


def perfect_words(trace: dict, short: bool = False) -> str:
    """What a report says of perfect play at one player count (`skill.perfect_distance`): the
    game's value and the strongest bot's distance to it where the game is solved, else that the
    game is too large to solve and why; `short` for the verdict's skill line."""
    from boardlab.analysis.report.wording import games, pct, say

    perfect = trace.get("perfect")
    if not perfect:
        return ""
    if not perfect["solved"]:
        return say("perfect.too_large_short" if short else "perfect.too_large",
                   reason=say(f"perfect.reason.{perfect['reason']}", limit=games(perfect["limit"]))) + \
            endgame_words(perfect.get("endgame"), short)
    value = say("perfect.value", seat1=pct(perfect["value"][0]), positions=games(perfect["positions"])) \
        if perfect.get("value") else say("perfect.not_unique", positions=games(perfect["positions"]))
    if "bot" not in perfect:
        return value
    a, o = perfect["against_perfect"], perfect["optimal_moves"]
    fields = {"bot": perfect["bot"], "share": pct(a["share"] or 0.0), "decided": games(a["decided"]),
              "low": pct(a["ci95"][0]), "high": pct(a["ci95"][1]), "fair": pct(a["fair_share"]),
              "optimal": pct(o["share"]) if o["share"] is not None else "-", "decisions": games(o["decisions"]),
              "games": games(o["games"])}
    return say("perfect.short", **fields) if short else value + say("perfect.solved", **fields)


def endgame_words(endgame: dict | None, short: bool = False) -> str:
    """What a report says of the endgame measure (`skill.endgame_measure`): the strongest bot's
    share of optimal moves in sampled endgames beside a random move's, or why there is none
    (hidden hands, endgames too large too, left out for the budget); "" without the measure."""
    from boardlab.analysis.report.wording import agent_label, games, pct, say

    if not endgame:
        return ""
    tail = "_short" if short else ""
    if endgame["measured"]:
        from boardlab.analysis.report.your_playtests import exact_interval

        low, high = exact_interval(endgame["optimal"], endgame["positions"])  # Clopper-Pearson, decisions as trials
        return say("perfect.endgame" + tail, positions=games(endgame["positions"]), plies=endgame["plies"][1],
                   bot=agent_label(endgame["bot"]), share=pct(endgame["share"]), random=pct(endgame["random_share"]),
                   low=pct(low), high=pct(high))
    fields = {"bot": agent_label(endgame["bot"]), "plies": endgame.get("plies", ""), "games": games(endgame.get("games", 0)),
              "limit": games(endgame.get("limit", 0))}
    return say(f"perfect.endgame_{endgame['reason']}{tail}", **fields)


def perfect_findings(counts: dict) -> list[dict]:
    """A finding per player count whose game is solved: how far the strongest bot is from perfect play."""
    out = []
    for n, d in counts.items():
        perfect = (d.get("skill") or {}).get("perfect") or {}
        if perfect.get("solved") and "bot" in perfect:
            a = perfect["against_perfect"]
            gap = (a["fair_share"] - (a["share"] or 0.0)) * 50
            out.append({"score": max(gap, 1.0), "kind": "perfect", "players": [n],
                        "text": say_with_players(n, perfect_words(d["skill"]))})
    return out


def say_with_players(players: int, text: str) -> str:
    from boardlab.analysis.report.wording import say

    return say("perfect.with_players", players=players, text=text)


def ladder_notes(trace: dict) -> list[str]:
    """The skill section's sentences under its table: every level that won all its decided games
    (its Elo lower bound), then perfect play (`perfect_words`)."""
    from boardlab.analysis.report.wording import number, say

    notes = [say("skill.elo_at_least", agent=p["agent"], below=p["below"], elo=number(p["elo_at_least"], ".0f"),
                 groups=number(p.get("rotation_groups", p["decided"]), ","))
             for p in trace.get("pairings", []) if p.get("elo_at_least") is not None]
    perfect = perfect_words(trace)
    return notes + ([perfect] if perfect else [])
