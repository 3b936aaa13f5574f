"""Every metric a report or comparison shows, defined in plain words (printed at the end of each report).

The metrics follow the general evaluation work on games: per-seat win rates and Balance as in
Ludii's metrics, decisiveness and the share of forced moves as in Browne's aesthetic criteria,
and skill measured by letting a stronger agent play a weaker one (restricted-play balance).
"""

GLOSSARY: tuple[tuple[str, str], ...] = (
    ("win rate (seat k)", "Share of all games that the player in seat k won alone. Seat 1 moves first. "
                          "Shared wins and unfinished games count for no seat."),
    ("95% interval", "Wilson score interval: if the games were played again and again, 95% of such intervals "
                     "would contain the true rate. Half-width about 2 points at 2,400 games."),
    ("fair share", "1 / players: the win rate every seat would have in a perfectly balanced game."),
    ("balance", "1 minus the gap between the best and the worst seat's win rate: 1 means every seat wins "
                "equally often, 0.8 means the best seat wins 20 points more often than the worst."),
    ("first-player advantage", "Seat 1's win rate minus the fair share, with its 95% interval."),
    ("p-value", "How often a difference at least this large would appear by chance alone if there were none "
                "(exact binomial test against the fair share). Below 0.05 is called significant; with many "
                "rows, about 1 in 20 chance differences still pass."),
    ("draws", "Games that ended with a shared win or with no winner."),
    ("unfinished", "Games stopped at the definition's turn or round cap (`max_turns`, `max_rounds`) "
                   "before the rules ended them."),
    ("game length", "Turns (one player's move) or rounds (every active player once), as the engine counts "
                    "them; mean, median (half the games are shorter) and 90th percentile (9 games in 10 are "
                    "shorter), over finished games."),
    ("table minutes", "Game length times the definition's stated seconds of table time per turn or round "
                      "(`analysis.seconds_per_round`), against the playing time the definition states "
                      "(`game.minutes`)."),
    ("legal moves per decision", "How many different moves the player had each time they chose one, in "
                                 "random self-play; more means more to think about."),
    ("single choice", "Share of decisions that offered exactly one legal move (forced moves)."),
    ("must pass", "Share of decisions whose only legal move was a pass (a turn the rules skip, the "
                  "player having no move at all, is not a decision)."),
    ("skill", "Win rate of one agent playing against weaker agents in every other seat, seats rotated: "
              "far above the fair share means that skill decides the game; near it, luck does."),
    ("random, greedy, mcts-N", "Agents: random picks any legal move; greedy looks one move ahead by the "
                               "game's own measure; mcts-N searches N Monte-Carlo tree-search iterations per "
                               "move. mcts-2N against mcts-N, over several doublings, shows whether "
                               "thinking longer keeps paying."),
    ("open-rule sensitivity", "Every rule option of the definition that is a choice between readings, each "
                              "alternative played on the same seeds as the default; the difference of each "
                              "headline metric with its 95% interval on the per-game differences."),
    ("headline metrics", "Seat 1 and (with more than two players) last-seat win rate, mean game length "
                         "(all games), draw share and unfinished share."),
    ("significant", "The 95% interval of the difference excludes zero (or the p-value is below 0.05)."),
    ("SPRT", "Sequential probability ratio test (used by `boardlab compare --until-decided`): games are played "
             "in batches until the evidence says, with error rates alpha and beta of 5% each, that the "
             "first-seat win rate changed by at least the indifference margin or did not, or a cap is reached."),
    ("findings", "Sentences generated from the numbers of the report, most important first (largest seat "
                 "imbalance, length against the stated time, significant rule effects, skill); none is "
                 "written by hand."),
    ("definition hash", "SHA-256 of the definition as loaded (every section); any changed key changes it."),
    ("run time", "Compute time the results store recorded when these games were first played (summed over "
                 "processes). It is the one figure of the Markdown and PDF not in the JSON, so that the JSON "
                 "depends only on what decides the games."),
)
