"""Every metric a report or comparison shows, defined in plain words (printed at the end of each report).

The metrics follow the general evaluation work on games: per-seat win rates and Balance as in
Ludii's metrics, decisiveness and the share of forced moves as in Browne's aesthetic criteria,
the skill trace of Ludii (a ladder of agents, each against the one below) with the depth of Lantz and
others (2017), and the restricted-play balance of Jaffe and others (2012).
"""

#: the glossary's entries, in order: `report.glossary.KEY` (the term) and `report.glossary.KEY.text`
#: (its definition) in every language's terms table
GLOSSARY_KEYS: tuple[str, ...] = (
    "decided_game",
    "win_share_seat_k",
    "95_interval",
    "fair_share",
    "balance",
    "first_player_advantage",
    "seats_equal",
    "p_value",
    "false_discovery_rate",
    "smallest_detectable_difference",
    "draws",
    "unfinished",
    "game_length",
    "table_minutes",
    "legal_moves_per_decision",
    "single_choice",
    "must_pass",
    "skill_trace",
    "rating_elo",
    "depth",
    "endgame_optimal",
    "restricted_play",
    "random_greedy_mcts_n",
    "open_rule_sensitivity",
    "headline_metrics",
    "significant",
    "sprt",
    "verdict",
    "findings",
    "definition_hash",
    "run_time",
)


def glossary() -> list[list[str]]:
    """[[term, definition], ...] in the language being written."""
    from boardlab.layouts.terms import term

    return [[term(f"report.glossary.{key}"), term(f"report.glossary.{key}.text")] for key in GLOSSARY_KEYS]
