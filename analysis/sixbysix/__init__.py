"""6x6: exact dice sums, board coverage, marker choice, the rules engine and its tables.

- `dice`: the one routine for sums of dice (`sum_distribution`), used by everything else.
- `board`: which board numbers can win with n players and which cards cover what.
- `markers`: the exact value of marker choices (greedy, random and favourite choosers).
- `engine`: the rules engine with chance nodes for every roll, and its agents.
- `tables`: `boardlab tables sixbysix`.
"""
