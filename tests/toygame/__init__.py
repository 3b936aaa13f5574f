"""Pile, a tiny game that lives outside boardlab: the test that a designer's own package adds a
game through the registry (`boardlab.games` entry point, or `register_game`) with no change to
boardlab.

Rules: a die is rolled and its face is added to the starting pile; players take turns removing
1 to `take_max` counters; whoever takes the last counter wins.  A game stopped at `max_turns`
is unfinished.
"""
