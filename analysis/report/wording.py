"""The sentences a report generates (findings and the verdict), as templates in one place.

Each template is a `str.format` pattern with named fields; `say(key, **fields)` fills one.
Numbers reach a template already written as people read them (`pct`, `points`, `format_p`),
so a translation replaces `PHRASES` and the number helpers, and nothing else.

>>> say("p", p=format_p(0.0))
'p < 0.001'
>>> pct(0.1234), points(-0.023), minutes(125)
('12.3%', '-2.3 points', '2.1 hours')
"""

from __future__ import annotations

from boardlab.analysis.stats import format_p

PHRASES = {
    # numbers
    "p": "p {p}",
    "p_equals": "p = {p}",
    "players": "with {players}",
    "at_every_count": "at every player count",
    "with_counts": "with {counts} players",
    "and": " and ",
    "or": " or ",
    # seats
    "first_seat.one": "Seat 1 wins {how} than a fair share of decided games with {players} players: {rate} against "
                      "{fair} ({diff}, {p}).",
    "first_seat.many": "Seat 1 wins {how} than a fair share of decided games {where}: {parts} players.",
    "first_seat.part": "{rate} against {fair} with {players} ({diff}, {p})",
    "more": "more", "less": "less", "more_or_less": "more or less",
    "seats_unequal": "With {players} players the seats are not equal ({p}): seat {best} wins {best_rate} of decided "
                     "games and seat {worst} {worst_rate}, against a fair {fair}.",
    "seats_balanced": "The seats are balanced {where}: no seat's share of decided games differs from a fair one by "
                      "as much as these games detect ({mdd} with 80% power).",
    "seats_too_few": "Too few games to tell whether the seats are balanced {where}: these games detect only {mdd}, "
                     "more than the {difference} that matter; about {needed} games would.",
    "unfinished": "With {players} players, {share} of games stopped at {cap} before the rules ended them.",
    # length
    "length.long": "As written, a {players}-player game of {name} lasts about {median} {unit} (median), {minutes} at "
                   "the definition's pace of {pace}, against the {stated} minutes it states",
    "length.short": "As written, a {players}-player game of {name} lasts about {median} {unit} (median), {minutes} "
                    "at the definition's pace of {pace}, well under the {stated} minutes it states",
    "length.fits": "; the rule option that shortens it most: {options} (mean length of a finished game).",
    "length.fits_many": "; the rule options that shorten it most: {options} (mean length of a finished game).",
    "length.fit": "{rule}, to {minutes}",
    "length.no_fit": "; no single rule option shortens it significantly.",
    "length.end": ".",
    "length.also": " Also off the stated time (median): {parts}.",
    "length.also_part": "{players} players {minutes}",
    "pace": "{seconds} s a {unit}",
    "pace_assumed": "{seconds} s a {unit}, our assumption",
    "cap": "the {unit} cap",
    # rule options
    "rule": "{rule} changes the {metric}: {parts} players.",
    "rule.part_length": "{base} to {variant} ({relative}) with {players}",
    "rule.part_share": "{base} to {variant} ({diff}) with {players}",
    # skill
    "skill.matters": "Skill matters: {parts}; the ladder climbed to {top} ({games} games per level).",
    "skill.matters_part": "{depth} distinguishable level{s} with {players} players ({chain}; the strongest, {top}, "
                          "rated {rating} Elo above random, 95% interval {low} .. {high})",
    "skill.matters_many": "Skill matters {where}: {groups}; the strongest level ({top}) is rated {ratings} Elo "
                          "above random ({games} games per level).",
    "skill.depth_group": "{depth} distinguishable level{s} with {players} players",
    "skill.flat": " Searching longer showed no significant gain above {level} with {players} players: these "
                  "{decided} decided games per level detect {mdd}{needed}.",
    "skill.needed": "; about {needed} games per level would detect {difference}",
    "skill.luck": "Luck dominates with {players} players: no level is significantly better than the one below "
                  "({games} games per level, enough to detect {mdd}); by the ratings {top} would win about {share} "
                  "of decided games against random, against a fair {fair}.",
    "skill.too_few": "Too few games to tell whether skill matters with {players} players: no level is significantly "
                     "better than the one below, and these {games} games per level detect only {mdd}; about {needed} "
                     "would detect {difference}.",
    # restricted play
    "element.matters": "{element_cap} matters: against the same agent barred from it, {agent} wins {parts}{decides} "
                       "({games} games each).",
    "element.part": "{share} of decided games with {players} players (a fair share is {fair})",
    "element.decides_most": "; it decides most games ({decided} of them)",
    "element.decides": "; it decides about {decided} of games",
    "element.hurts": "{agent} does better barred from {element}: against it the full agent wins only {parts} "
                     "({games} games each).",
    "element.could_go": "Barring {elements} changes nothing these games detect ({games} games each, enough to "
                        "detect {mdd}): for {agent} players such a rule could go.",
    "element.too_few": "Too few games to tell whether {elements} matter{s} to {agent} ({games} games each): they "
                       "detect only {mdd}; about {needed} games would.",
    # whole report
    "no_finding": "No finding stands out at these sample sizes.",
    "no_engine": "{name} has no rules engine yet, so nothing was simulated: no seats, length, decisions, skill or "
                 "rule sensitivity. They appear here once its engine is registered.",
    # the verdict page
    "verdict.title": "Verdict",
    "verdict.intro": "In a minute, per player count: are the seats fair, how long a game takes at the table, whether "
                     "skill decides it, and which rule options move its worst problem most. Every sentence is "
                     "generated from the numbers below.",
    "verdict.players": "**With {players} players**",
    "verdict.seats_first": "- Seats: not balanced: seat 1 wins {rate} of decided games against a fair {fair} "
                           "({diff}, {p}).",
    "verdict.seats_unequal": "- Seats: not balanced: seat {best} wins {best_rate} and seat {worst} {worst_rate} of "
                             "decided games against a fair {fair} ({p}).",
    "verdict.seats_fair": "- Seats: balanced: no seat's share of decided games differs from a fair {fair} by "
                          "{mdd} or more (the least these {decided} decided games detect, 80% power).",
    "verdict.seats_too_few": "- Seats: too few games to tell: these {decided} decided games detect only {mdd}, more "
                             "than the {difference} that matter; about {needed} games would.",
    "verdict.seats_beside": " Beside the seats: {parts}.",
    "verdict.draws": "{share} of games end without a single winner",
    "verdict.capped": "{share} stop at {cap}",
    "verdict.time": "- Time: a median game lasts {median} {unit}, about {minutes} at the table ({pace}), against "
                    "the stated {stated} minutes: {judgement}; 9 games in 10 end within {p90}.",
    "verdict.time_no_pace": "- Time: a median game lasts {median} {unit}; the definition states no pace, so no "
                            "table minutes against the stated {stated} minutes.",
    "verdict.time_close": "close to it",
    "verdict.time_long": "{ratio} times as long",
    "verdict.time_short": "{ratio} of it",
    "verdict.skill_matters": "- Skill: matters: {depth} distinguishable level{s} ({chain}); the strongest, {top}, "
                             "is rated {rating} Elo above random (95% interval {low} .. {high}).",
    "verdict.skill_luck": "- Skill: luck dominates: no level of the ladder (up to {top}) is significantly better than "
                          "the one below ({games} games per level detect {mdd}).",
    "verdict.skill_too_few": "- Skill: too few games to tell: no level of the ladder (up to {top}) is significantly "
                             "better than the one below, and {games} games per level detect only {mdd}.",
    "verdict.no_skill": "- Skill: no agents to compare.",
    "verdict.problem": "- Worst problem: {problem}. {remedy}",
    "verdict.problem_none": "- Worst problem: none stands out at this player count.",
    "verdict.remedy": "The rule option{s} that move{verb} it most: {options}.",
    "verdict.remedy_none": "No single rule option moves it significantly.",
    "verdict.remedy_part": "{rule}, {metric} {base} to {variant}{unit}",
    "verdict.problem_seat": "seat {seat}'s share of decided games ({rate} against a fair {fair})",
    "verdict.problem_long": "the table time ({minutes} against the stated {stated} minutes)",
    "verdict.problem_capped": "games stopped at {cap} ({share})",
}


def say(key: str, **fields) -> str:
    """The template `key` filled with `fields`.

    :raises KeyError: for an unknown template or a missing field.
    """
    return PHRASES[key].format(**fields)


def p_words(p: float) -> str:
    """A p-value in a sentence.

    >>> p_words(0.0196), p_words(0.0)
    ('p = 0.020', 'p < 0.001')
    """
    return say("p", p=format_p(p)) if p < 0.001 else say("p_equals", p=format_p(p))


def pace_words(length: dict) -> str:
    """The pace of a report's length data: "30 s a turn", marked when it is the definition's assumption."""
    unit = length["unit"].rstrip("s")
    return say("pace_assumed" if length.get("pace_assumed") else "pace", seconds=f"{length['seconds_per_unit']:g}",
               unit=unit)


def cap_words(unit: str) -> str:
    """How a report names the cap that stops a game, from its length unit.

    >>> cap_words("rounds")
    'the round cap'
    """
    return say("cap", unit=unit.rstrip("s"))


def pct(share: float, decimals: int = 1) -> str:
    """A share as a percentage."""
    return f"{share * 100:.{decimals}f}%"


def points(difference: float) -> str:
    """A difference of shares in percentage points, signed."""
    return f"{difference * 100:+.1f} points"


def unsigned_points(difference: float) -> str:
    """A size of difference in percentage points."""
    return f"{difference * 100:.1f} points"


def minutes(value: float) -> str:
    """A duration given in minutes, as minutes or (from 90 minutes) hours."""
    return f"{value:.0f} minutes" if value < 90 else f"{value / 60:.1f} hours"


def games(count: int) -> str:
    """A number of games, with thousands separators."""
    return f"{count:,}"


def listed(items, last: str = "and") -> str:
    """Items joined with commas and the word `last` before the final one.

    >>> listed(["2", "3", "4"]), listed(["a"])
    ('2, 3 and 4', 'a')
    """
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + PHRASES[last] + items[-1]
