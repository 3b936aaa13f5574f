"""The limits boardlab holds every input to, each with its number (docs/reference/limits.md lists them).

A value beyond a limit is refused with one line and exit status 2 before any work is done on it:
a count that would run for days, a string that would fill the screen, a file that would take
minutes to parse.  Kept free of heavy imports: the command line reads it before anything else.

>>> MAX_GAMES, MAX_DEALS
(100000000, 10000000)
"""

from __future__ import annotations

import os
from collections.abc import Mapping

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

# -- definitions and positions ----------------------------------------------------------------------
#: the largest definition, variant or position file read (bytes; the largest definition today is about
#: 11 kB): a larger one is refused before it is parsed
MAX_FILE_BYTES = 2_000_000
#: the largest card list file read (bytes; a deck of 200 kinds of card is about 6 kB) and its most rows
MAX_CARD_LIST_BYTES = 1_000_000
MAX_CARD_LIST_ROWS = 10_000
#: the most digits of a whole number in a definition or a position (the largest today has 4)
MAX_INTEGER_DIGITS = 15
#: the longest text value of a definition (characters; the longest today is about 300)
MAX_TEXT_CHARS = 1_000
#: the longest name or label (keys `name`, `label`, `letter`, `symbol`, `id`)
MAX_NAME_CHARS = 60
#: keys whose values are names or labels
NAME_KEYS = ("name", "label", "letter", "symbol", "id")
#: the most items of one list or table of a definition (the longest today has 6)
MAX_ITEMS = 1_000
#: the longest `extends` chain (a variant of a variant of ...)
MAX_EXTENDS_DEPTH = 32
#: rulebook markup: the deepest nesting of `:::` blocks, and the most characters of one text
MAX_MARKUP_DEPTH = 20
MAX_MARKUP_CHARS = 500_000
#: the most `::: pagebreak` of one rulebook text (today's have at most a handful)
MAX_PAGE_BREAKS = 100


def control_character(text: str, allow_newlines: bool) -> str | None:
    """The first control character of `text` as U+XXXX (tab and newline allowed in long texts), or None.

    >>> control_character("red", False), control_character("a\\x1b[31m", False), control_character("a\\nb", True)
    (None, 'U+001B', None)
    """
    for char in text:
        if (ord(char) < 32 and not (allow_newlines and char in "\n\t")) or 0x7f <= ord(char) < 0xa0:
            return f"U+{ord(char):04X}"
    return None

#: SOURCE_DATE_EPOCH (the footers' date): whole seconds since 1970 up to 9999-12-31T23:59:59Z
LAST_EPOCH = 253402300799


def source_date_epoch(environment: Mapping[str, str]) -> int | None:
    """SOURCE_DATE_EPOCH as seconds, None when unset or empty.

    Checked by the command line before anything is imported that reads it (numpy's f2py, reached
    through numba, calls int() on it; reportlab reads it too).

    >>> source_date_epoch({}), source_date_epoch({"SOURCE_DATE_EPOCH": " "}), source_date_epoch({"SOURCE_DATE_EPOCH": "86400"})
    (None, None, 86400)

    :raises BoardlabError: when it is set to anything but such a number.
    """
    from boardlab.layouts.errors import BoardlabError

    epoch = environment.get("SOURCE_DATE_EPOCH", "").strip()
    if not epoch:
        return None
    if not (epoch.isascii() and epoch.isdigit()) or len(epoch) > 12 or int(epoch) > LAST_EPOCH:
        raise BoardlabError(f"SOURCE_DATE_EPOCH must be a whole number of seconds since 1970 up to "
                            f"{LAST_EPOCH} (got '{epoch[:40]}')")
    return int(epoch)
