"""The limits boardlab holds every input to, each with its number (the README lists them).

A value beyond a limit is refused with one line and exit status 2 before any work is done on it:
a count that would run for days, a string that would fill the screen, a file that would take
minutes to parse.  Kept free of heavy imports: the command line reads it before anything else.

>>> MAX_GAMES, MAX_DEALS
(100000000, 10000000)
"""

from __future__ import annotations

import os

#: the most games one run may ask for (a larger count is refused: memory and time run out first)
MAX_GAMES = 100_000_000
#: the most random deals a table may ask for
MAX_DEALS = 10_000_000
#: the largest N of a numbered agent name such as mcts-N (an MCTS budget beyond it would run for days)
MAX_AGENT_NUMBER = 1_000_000
#: the most worker processes (--workers) whatever the machine; a machine's own default is its core count
MAX_WORKERS = 64


def default_workers() -> int:
    """The cores this process may run on (at least 1): the default and the most of --workers."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
