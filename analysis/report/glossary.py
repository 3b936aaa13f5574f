"""Every metric a report or comparison shows, defined in plain words (printed at the end of each report).

The metrics follow the general evaluation work on games: per-seat win rates and Balance as in
Ludii's metrics, decisiveness and the share of forced moves as in Browne's aesthetic criteria,
the skill trace of Ludii (a ladder of agents, each against the one below) with the depth of Lantz and
others (2017), and the restricted-play balance of Jaffe and others (2012).
"""

GLOSSARY: tuple[tuple[str, str], ...] = (
    ("decided game", "A finished game with a winner. A win that k players share is decided too and gives "
                     "each of them 1/k of a game. Finished games without a winner and games stopped at the cap "
                     "are reported beside the seats and count for no seat."),
    ("win share (seat k)", "Share of the decided games that the player in seat k won, a shared win counted as "
                           "its share. Seat 1 moves first. A fair seat wins 1 / players of them."),
    ("95% interval", "Wilson score interval: if the games were played again and again, 95% of such intervals "
                     "would contain the true share. Half-width about 2 points at 2,400 decided games."),
    ("fair share", "1 / players: the share of decided games every seat would win in a perfectly balanced game."),
    ("balance", "1 minus the gap between the best and the worst seat's win share: 1 means every seat wins "
                "equally often, 0.8 means the best seat wins 20 points more often than the worst."),
    ("first-player advantage", "Seat 1's win share minus the fair share, with its 95% interval."),
    ("seats equal?", "A test that every seat wins the same share of the decided games: Pearson's chi-square "
                     "(players - 1 degrees of freedom), or the exact multinomial test when a seat expects fewer "
                     "than 5 decided games (shared wins rounded to whole games)."),
    ("p-value", "How often a difference at least this large would appear by chance alone if there were none. "
                "A seat's or an agent's share is tested against the fair share with the score test (the test "
                "the Wilson interval belongs to; a shared win makes it slightly cautious); a rule option's "
                "effect on the per-game differences. Printed as < 0.001 below one in a thousand."),
    ("false-discovery rate", "A report runs many tests. Its findings are the tests selected by the "
                             "Benjamini-Hochberg procedure at 5% over every test of the report (the seats at every "
                             "player count, every element of restricted play, every metric of every rule alternative; the "
                             "skill trace's steps are a family of their own): of the "
                             "effects it states, about 1 in 20 or fewer are expected to be chance."),
    ("smallest detectable difference", "The difference from a fair share (or, for a rule option, between the "
                                       "two rule sets) that these games would find 80% of the time at the 5% "
                                       "level. Where it exceeds the difference the designer cares about "
                                       "(`analysis.difference`, 5 points unless the definition says otherwise) a "
                                       "report says \"too few games to tell\" and how many games would do."),
    ("draws", "Finished games without a single winner: a shared win (decided, the credit split) or no winner."),
    ("unfinished", "Games stopped at the definition's turn or round cap (`max_turns`, `max_rounds`) "
                   "before the rules ended them: \"stopped at the turn cap\". Their share is reported on its own; "
                   "they count in no seat's share and in no length."),
    ("game length", "Turns (one player's move) or rounds (every active player once), as the engine counts "
                    "them; mean, median (half the games are shorter) and 90th percentile (9 games in 10 are "
                    "shorter), over finished games."),
    ("table minutes", "Game length times the definition's stated seconds of table time per turn or round "
                      "(`analysis.seconds_per_turn`, `analysis.seconds_per_round`; where no source states a pace "
                      "the definition marks it as our assumption), against the playing time the definition states "
                      "(`game.minutes`)."),
    ("legal moves per decision", "How many different moves the player had each time they chose one, in "
                                 "random self-play; more means more to think about."),
    ("single choice", "Share of decisions that offered exactly one legal move (forced moves)."),
    ("must pass", "Share of decisions whose only legal move was a pass (a turn the rules skip, the "
                  "player having no move at all, is not a decision)."),
    ("skill trace", "A ladder of agents from weakest to strongest (random, greedy, then MCTS with its budget "
                    "doubling), each level playing the one below: with more players the level in one seat and "
                    "the level below in every other, seats rotating. Its share of the decided games is tested "
                    "against the fair share (one-sided binomial test). The chain \"random < greedy ~ mcts-16\" "
                    "marks with < a level significantly better than the one below and with ~ one not told apart."),
    ("rating (Elo)", "One strength per level, fitted to every decided game of the ladder at once (Bradley-Terry; "
                     "for more players its Luce form), on the Elo scale with random at 0: 400 points are odds of "
                     "10 to 1. Its 95% interval includes the uncertainty of every step below it."),
    ("depth", "How many levels of the skill trace are significantly better than the one below (false-discovery "
              "rate 5% over the ladder's steps): the number of distinguishable skill steps. Skill matters when "
              "it is at least 1; luck dominates when it is 0 and the games could have told; otherwise there "
              "were too few games to tell."),
    ("restricted play", "How much an optional element of the rules matters: the share of decided games the full "
                        "agent wins against the same agent barred from that element (it plays as the full agent "
                        "would among the moves left; when every legal move uses the element it plays on as the "
                        "full agent). At the fair share the element does not matter to that agent (a rule that "
                        "could go); games it decides: d = (share - fair) / (1 - fair), most games when d > 1/2."),
    ("random, greedy, mcts-N", "Agents: random picks any legal move; greedy looks one move ahead by the "
                               "game's own measure; mcts-N searches N Monte-Carlo tree-search iterations per "
                               "move. NAME-without-ELEMENT is NAME barred from an element (restricted play)."),
    ("open-rule sensitivity", "Every rule option of the definition that is a choice between readings, each "
                              "alternative played on the same seeds as the default; the difference of each "
                              "headline metric with its 95% interval on the per-game differences."),
    ("headline metrics", "Seat 1's and (with more than two players) the last seat's win share of decided games, "
                         "mean length of finished games, draw share and unfinished share of all games. The same "
                         "definitions in reports, `boardlab compare` and every other command that measures "
                         "rule changes."),
    ("significant", "In a report: selected under the false-discovery-rate control. In `boardlab compare`: the "
                    "95% interval of the difference excludes zero."),
    ("SPRT", "Sequential probability ratio test (used by `boardlab compare --until-decided`): games are played "
             "in batches until the evidence says, with error rates alpha and beta of 5% each, that the "
             "seat 1's win share of decided games changed by at least the indifference margin or did not, or "
             "a cap is reached."),
    ("verdict", "The first page: per player count, the seats, the table time, skill and the worst problem "
                "(a seat off its fair share, a game longer than stated, games stopped at the cap) with the one or "
                "two rule options whose selected effect brings it closest to its target, named as the rulebook "
                "names them. Generated from the numbers, like the findings."),
    ("findings", "Sentences generated from the numbers of the report, most important first (largest seat "
                 "imbalance, length against the stated time, rule effects selected under the false-discovery "
                 "control, skill); none is written by hand."),
    ("definition hash", "SHA-256 of the definition as loaded (every section); any changed key changes it."),
    ("run time", "Compute time the results store recorded when these games were first played (summed over "
                 "processes). It is the one figure of the Markdown and PDF not in the JSON, so that the JSON "
                 "depends only on what decides the games."),
)
