"""`boardlab compare`: variants against the baseline on the same seeds, with a verdict per metric.

Every variant plays the same games as the baseline: the same seed, so the same deals and dice
(common random numbers), and the seats turned as `boardlab simulate` turns them.  Each
headline metric (`metrics.headline_series`: win shares of decided games, the length of
finished games) is compared on the paired differences (`metrics.paired_ratio_difference`) with
the rotation group as the unit: the games of one deal played in every seat rotation share its
luck, so their linearised differences are summed per group and the variance is the
cluster-robust one over the groups (`Tally` keeps the per-group sums, `paired_sums` pairs them).

A metric's change is "significant" when the Benjamini-Hochberg procedure keeps it at a 5%
false-discovery rate among every metric test of the run (every headline metric of every variant,
`with_false_discovery_control`): among twenty tests one would come out at 5% by luck alone.  Each
metric keeps what its own interval says ("significant_alone"), and the verdict names a change its
interval alone would call significant but the control does not keep.

With `until_decided`, games are played in batches until the sequential test on seat 1's
share of the decided games (`metrics.sprt`, alpha = beta = 0.05 by default) decides, or the cap is reached; the
result says which.  All games go through the results store, so a rerun or a larger run reuses
what was played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from boardlab.analysis import engines
from boardlab.analysis.report.document import format_cell
from boardlab.analysis.report.jobs import Job, tally_jobs
from boardlab.analysis.report.metrics import (headline_series, length_statistics, lengths_statistics, metric,
                                              paired_equivalence,
                                              paired_games_needed, paired_ratio_difference, sprt)
from boardlab.analysis.report.sections import designer_difference, metric_label, pace, pace_data
from boardlab.analysis.store import ResultStore

if TYPE_CHECKING:
    from boardlab.analysis.runner import GameRecord
    from boardlab.layouts.common import GameDefinition

SPRT_METRIC = "seat_1_share"


@dataclass(frozen=True)
class CompareOptions:
    players: int
    games: int = 2400
    seed: int = 1
    until_decided: bool = False
    delta: float = 0.03  # the indifference region of the SPRT: changes smaller than this do not matter
    alpha: float = 0.05
    beta: float = 0.05
    batch: int = 480
    cap: int = 48000
    workers: int | None = None
    progress: bool = True
    agent: str = "random"  # in every seat
    backend: Any = None  # a runner.Backend (e.g. a Dask cluster); None: `workers` local processes


def compare(baseline: GameDefinition, variants: list[GameDefinition], store: ResultStore, options: CompareOptions) -> dict:
    """The comparison document: per variant, every headline metric and (until decided) the SPRT."""
    from boardlab.analysis.playtests import with_measured_pace

    n = options.players
    agents = (options.agent,) * n
    baseline = with_measured_pace(baseline, store)  # table minutes at the paces playtests measured, if any
    variants = [with_measured_pace(v, store) for v in variants]
    out = {"game": baseline.game.id,
           "baseline": getattr(baseline, "variant", "baseline"), "players": n, "seed": options.seed,
           "designer_difference": designer_difference(baseline),
           "agents": list(agents), "length_unit": engines.make_game(baseline, n).length_unit, "comparisons": []}
    for variant in variants:
        games = options.batch if options.until_decided else options.games
        while True:
            base_out, var_out = tally_jobs([Job(baseline, n, agents, games, options.seed),
                                            Job(variant, n, agents, games, options.seed)],
                                           store, Tally.fold(n), options.workers, options.progress,
                                           backend=options.backend)
            base, var = paired_sums(base_out, var_out, n)
            test = sprt(var[SPRT_METRIC], base[SPRT_METRIC], options.delta, options.alpha, options.beta,
                        games=base_out.games)
            if not options.until_decided or test["decision"] != "undecided" or games >= options.cap:
                break
            games = min(games + options.batch, options.cap)
        metrics = {m: paired_ratio_difference(var[m], base[m], games=base_out.games) for m in base}
        for m, d in metrics.items():  # a share's "no change" is an equivalence result (`change_verdict`)
            if metric(m).formats[1] == "pp":
                d["equivalence"] = paired_equivalence(d, out["designer_difference"])
        name = getattr(variant, "variant", "variant")
        unit = out["length_unit"]
        entry = {"variant": f"{out['game']} (the baseline itself)" if name == "baseline" else name, "games": games,
                 "metrics": metrics, "length": {"baseline": length_summary(base_out, baseline, unit, n),
                                                "variant": length_summary(var_out, variant, unit, n)}}
        if options.until_decided:
            test["stopped_by"] = "decision" if test["decision"] != "undecided" else "cap"
            entry["sprt"] = test
        out["comparisons"].append(entry)
    return with_false_discovery_control(out)


#: the false-discovery rate held over a comparison's metric tests
FDR = 0.05


def with_false_discovery_control(result: dict, rate: float = FDR) -> dict:
    """`result` (a comparison) with every metric's "significant" decided by Benjamini-Hochberg at
    `rate` over all its metric tests (every metric of every variant; `stats.benjamini_hochberg`);
    what the metric's own 95% interval says stays as "significant_alone", and result["fdr"] says
    how many tests were controlled and kept.

    >>> r = {"comparisons": [{"metrics": {"a": {"p_value": 0.001, "significant": True},
    ...                                   "b": {"p_value": 0.04, "significant": True}}},
    ...                      {"metrics": {"a": {"p_value": 0.045, "significant": True}, "b": {"p_value": 0.9, "significant": False}}}]}
    >>> r = with_false_discovery_control(r)
    >>> [(m["significant_alone"], m["significant"]) for c in r["comparisons"] for m in c["metrics"].values()]
    [(True, True), (True, False), (True, False), (False, False)]
    >>> r["fdr"]
    {'rate': 0.05, 'tests': 4, 'kept': 1}
    """
    from boardlab.analysis.stats import benjamini_hochberg

    tested = [d for c in result["comparisons"] for d in c["metrics"].values()]
    kept = benjamini_hochberg([d["p_value"] for d in tested], rate) if tested else []
    for d, keep in zip(tested, kept):
        d["significant_alone"] = bool(d["significant"])
        d["significant"] = bool(keep and d["significant"])  # a kept p is at most `rate`: its interval excludes 0
    result["fdr"] = {"rate": rate, "tests": len(tested), "kept": sum(d["significant"] for d in tested)}
    return result


#: the length figures `compare` shows beside the headline metrics: (key, label)
LENGTH_FIGURES = (("mean", "mean"), ("median", "median"), ("p90", "90th percentile"))


@dataclass
class Tally:
    """What a comparison keeps of one side's games: every paired headline metric's sums per
    rotation group (`metrics.headline_series` summed over the games of a deal, the groups in the
    order of the games), the games, whether the side rotates its deals (a game's deal is not its
    index), and the lengths of the finished and of the capped games, read a chunk of records at a
    time (`jobs.tally_jobs`), so that 96,000 games a side never sit in memory as records; equal
    values share one object."""

    series: dict[str, tuple[list, list]]
    finished: list
    stopped: list
    games: int = 0
    rotated: bool = False

    @staticmethod
    def fold(players: int) -> Callable[[Job, Iterable[list[GameRecord]]], Tally]:
        """The `jobs.tally_jobs` fold of a side's games at `players`."""
        def fold(job: Job, chunks: Iterable[list[GameRecord]]) -> "Tally":
            shared: dict = {}

            def one(v: float) -> float:
                return shared.setdefault((type(v), v), v)

            out = Tally({}, [], [])
            last = None  # the deal of the group being summed (the records come in the order of the games)
            for records in chunks:
                series = headline_series(records, players)
                for j, r in enumerate(records):
                    new = out.games == 0 or r.deal != last
                    last = r.deal
                    out.games += 1
                    out.rotated = out.rotated or r.deal != r.index
                    for name, (numerators, denominators) in series.items():
                        tops, bottoms = out.series.setdefault(name, ([], []))
                        if new:
                            tops.append(one(numerators[j]))
                            bottoms.append(one(denominators[j]))
                        else:
                            tops[-1] = one(tops[-1] + numerators[j])
                            bottoms[-1] = one(bottoms[-1] + denominators[j])
                    (out.stopped if r.unfinished else out.finished).append(one(r.length))
            return out
        return fold


def paired_sums(baseline: Tally, variant: Tally, players: int) -> tuple[dict, dict]:
    """(baseline, variant) per-group sums of every metric, group for group (`metrics.pair_groups`):
    the tallies' own when both sides group their games alike; when one side rotates its deals and
    the other gives every game a deal of its own, the other's games summed in blocks of `players`
    (the rotating side's groups).

    :raises ValueError: when the sides hold different numbers of games or groups.
    """
    if baseline.games != variant.games:
        raise ValueError("paired sides must hold the same games")

    def blocks(tally: Tally) -> dict:
        return {name: tuple([sum(values[i:i + players]) for i in range(0, len(values), players)] for values in pair)
                for name, pair in tally.series.items()}

    base, var = baseline.series, variant.series
    if baseline.rotated and not variant.rotated:
        var = blocks(variant)
    elif variant.rotated and not baseline.rotated:
        base = blocks(baseline)
    if any(len(base[m][0]) != len(var[m][0]) for m in base):
        raise ValueError("paired sides must hold the same rotation groups")
    return base, var


def length_summary(records: Tally | Sequence[GameRecord], definition: GameDefinition, unit: str,
                   players: int | None = None) -> dict:
    """Mean, median and 90th percentile of the games' length (`metrics.length_statistics`: games
    stopped at the cap censored there), in `unit` and (when a pace per turn or round is measured
    from playtests at `players` or stated by the definition) in table minutes at that pace
    (`sections.pace_data` says which); "at_least" marks lower bounds, "capped" the share stopped
    at the cap."""
    d = lengths_statistics(records.finished, records.stopped) if isinstance(records, Tally) \
        else length_statistics(records)
    out = {"finished_games": d["finished_games"], "games": d["games"], "capped": d["capped"]["share"],
           "at_least": {k: d["at_least"][k] for k, _ in LENGTH_FIGURES}, **{k: d[k] for k, _ in LENGTH_FIGURES}}
    seconds = pace(definition, unit, players)
    if seconds:
        out.update(pace_data(definition, unit, players))
        out["minutes"] = {k: round(d[k] * seconds / 60, 2) for k, _ in LENGTH_FIGURES}
    return out


def pace_note(length: dict, unit: str) -> str:
    """Where one column's pace comes from, in words.

    >>> pace_note({"seconds_per_unit": 40, "pace_assumed": True}, "rounds")
    "the definition's 40 s a round (our assumption)"
    >>> pace_note({"seconds_per_unit": 52.5, "pace_measured": {"games": 4, "players": 3, "ci95": [40, 65]}}, "rounds")
    '52.5 s a round, measured from 4 playtests at 3 players (95% interval 40 to 65 s)'
    """
    one = unit.rstrip("s")
    if "pace_measured" in length:
        from boardlab.analysis.report.wording import measured_words

        return f"{length['seconds_per_unit']:g} s a {one}, {measured_words(length['pace_measured'])}"
    return (f"the definition's {length['seconds_per_unit']:g} s a {one}"
            + (" (our assumption)" if length.get("pace_assumed") else ""))


def length_rows(length: dict, unit: str) -> list[str]:
    """The Markdown rows of one comparison's length table: every figure in `unit`, then in minutes.

    >>> base = {"finished_games": 9, "mean": 10.0, "median": 9.0, "p90": 15.0, "seconds_per_unit": 30,
    ...         "minutes": {"mean": 5.0, "median": 4.5, "p90": 7.5}}
    >>> var = {"finished_games": 9, "mean": 12.0, "median": 8.0, "p90": 15.0}
    >>> length_rows({"baseline": base, "variant": var}, "rounds")[1:3]
    ['| median (rounds) | 9.0 | 8.0 | -1.0 |', '| 90th percentile (rounds) | 15.0 | 15.0 | +0.0 |']
    >>> length_rows({"baseline": base, "variant": var}, "rounds")[4]
    '| median (table minutes) | 4.5 | - | - |'
    """
    base, var = length["baseline"], length["variant"]
    rows = []
    for k, label in LENGTH_FIGURES:
        rows.append(_length_row(f"{label} ({unit})", _figure(base, k), _figure(var, k)))
    if "minutes" in base or "minutes" in var:
        for k, label in LENGTH_FIGURES:
            rows.append(_length_row(f"{label} (table minutes)", _figure(base, k, True), _figure(var, k, True)))
    rows.append(f"| stopped at the cap | {format_cell(base.get('capped'), 'pct')} | "
                f"{format_cell(var.get('capped'), 'pct')} | "
                f"{format_cell(var['capped'] - base['capped'] if 'capped' in base and 'capped' in var else None, 'pp')} |")
    return rows


def _figure(side: dict, key: str, in_minutes: bool = False) -> tuple[float, bool] | None:
    """(value, whether it is a lower bound) of one length figure of one side; None when it has none."""
    if in_minutes and "minutes" not in side:
        return None
    if not side.get("games", side.get("finished_games")):
        return None
    value = side["minutes"][key] if in_minutes else side[key]
    return value, bool(side.get("at_least", {}).get(key))


def _length_row(label: str, base: tuple[float, bool] | None, var: tuple[float, bool] | None) -> str:
    """A length row; a figure that games stopped at the cap make a lower bound has "≥", and a
    difference involving one is no difference to state."""
    def cell(x: tuple[float, bool] | None) -> str:
        return "-" if x is None else ("≥ " if x[1] else "") + format_cell(x[0], "f1")

    known = base is not None and var is not None and not base[1] and not var[1]
    diff = var[0] - base[0] if known and base is not None and var is not None else None  # (known says both are there)
    return f"| {label} | {cell(base)} | {cell(var)} | {format_cell(diff, 'sf1')} |"


def change_verdict(d: dict, name: str, difference: float) -> str:
    """The verdict on one metric's paired difference.

    A share is "no change" only when the equivalence test (`metrics.paired_equivalence`) shows
    the difference within the designer's `difference`; a change found but within it says so;
    otherwise the verdict says how far the share could still have moved and how many games would
    tell.  A length has no such margin: "no significant change", with what the games detect.
    """
    share = metric(name).formats[1] == "pp"
    if d["mdd"] is None and not d["significant"]:
        return "no change: the games came out the same"
    if d.get("significant_alone") and not d["significant"]:
        return (f"not significant once all the comparison's tests are counted (p = {d['p_value']:.3f} alone: the "
                "false-discovery control does not keep it)")
    if not share:
        if d["significant"]:
            return "significant change"
        return f"no significant change (the games detect {d['mdd']:.1f})"
    e = paired_equivalence(d, difference) or {}
    within = f"within {difference * 100:.1f} points"
    if d["significant"]:
        return f"significant change, but {within} (equivalence test, p {_p(e['p_value'])})" if e.get("equivalent") \
            else "significant change"
    if e.get("equivalent"):
        return f"no change: {within} (equivalence test, p {_p(e['p_value'])})"
    needed = e.get("games_needed") or paired_games_needed(d["sd"], difference)
    return (f"no change found, but not shown {within}: it could be up to {e['up_to'] * 100:.1f} points (90% "
            f"interval); about {needed:,} games would tell")


def _p(p: float) -> str:
    from boardlab.analysis.stats import format_p
    return "< 0.001" if p < 0.001 else f"= {format_p(p)}"


def compare_markdown(result: dict) -> str:
    """The comparison as Markdown tables (one per variant)."""
    lines = [f"# {result['game']}: variants against {result['baseline']}", "",
             f"{result['players']} players, seed {result['seed']}, {result['agents'][0]} in every seat; "
             "every variant plays the baseline's games (same seeds, seats turned); intervals and tests take the "
             "rotation group (a deal played in every turn of the seats) as the unit.", "",
             f"The question here: did the variant change each metric against {result['baseline']}? (A balance "
             "report asks another: are the seats equal within one variant. A variant can change nothing here and "
             "still have unequal seats, as its baseline may.)"]
    if result.get("fdr"):
        f = result["fdr"]
        lines += ["", f"A change is called significant when the Benjamini-Hochberg procedure keeps it at a "
                      f"{f['rate'] * 100:g}% false-discovery rate among all {f['tests']} metric tests of this comparison "
                      f"({f['kept']} kept): the 95% interval of one metric alone would find one change in twenty "
                      "by luck."]
    for c in result["comparisons"]:
        lines += ["", f"## {c['variant']} ({c['games']:,} games)", "",
                  "| metric | baseline | variant | difference | 95% interval | verdict |", "|---|---:|---:|---:|---:|---|"]
        for name, d in c["metrics"].items():
            value, diff, interval = metric(name).formats
            verdict = change_verdict(d, name, result["designer_difference"])
            lines.append(f"| {metric_label(name, result['length_unit'])} | {format_cell(d['baseline'], value)} | {format_cell(d['variant'], value)} | "
                         f"{format_cell(d['difference'], diff)} | {format_cell(d['ci95'], interval)} | {verdict} |")
        if "length" in c:
            base = c["length"]["baseline"]
            var = c["length"]["variant"]
            notes = [pace_note(base, result["length_unit"])] if "seconds_per_unit" in base else []
            if notes and "seconds_per_unit" in var and pace_note(var, result["length_unit"]) != notes[0]:
                notes = [f"baseline {notes[0]}", f"variant {pace_note(var, result['length_unit'])}"]
            pace_words = (f"; table minutes at {' and '.join(notes)}" if "seconds_per_unit" in base else
                          f"; the definition states no pace per {result['length_unit'].rstrip('s')}, so no table minutes")
            lines += ["", f"Game length, every game, a game stopped at the cap counted as lasting at least that long "
                          f"(Kaplan-Meier; ≥: a lower bound; {base['finished_games']:,} finished baseline games, "
                          f"{c['length']['variant']['finished_games']:,} variant){pace_words}:", "",
                      "| length | baseline | variant | difference |", "|---|---:|---:|---:|",
                      *length_rows(c["length"], result["length_unit"])]
        if "sprt" in c:
            s = c["sprt"]
            sprt_name = metric(SPRT_METRIC).label()
            said = {"changed": f"the {sprt_name} changed (by {s['delta'] * 100:g} points or more)",
                    "no change": f"no change of {s['delta'] * 100:g} points or more in the {sprt_name}",
                    "undecided": "undecided"}[s["decision"]]
            how = "decided" if s["stopped_by"] == "decision" else "stopped at the cap of"
            lines += ["", f"Sequential test (SPRT, alpha = {s['alpha']:g}, beta = {s['beta']:g}): **{said}**; "
                          f"{how} {s['games']:,} games (log-likelihood ratios {s['llr_up']:.2f} up, "
                          f"{s['llr_down']:.2f} down; bounds {s['bounds'][0]:.2f} and {s['bounds'][1]:.2f})."]
    return "\n".join(lines) + "\n"
