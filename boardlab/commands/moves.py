"""`boardlab moves GAME POSITION.json`: the legal moves of a position, as JSON."""

from __future__ import annotations

import argparse
import json
from typing import Any

from boardlab.arguments import add_game_arguments, game_definition
from boardlab.common.files import UnreadableFile, read_bounded
from boardlab.layouts import BoardlabError, game_part
from boardlab.layouts.limits import MAX_FILE_BYTES, MAX_INTEGER_DIGITS

#: the command's line in `boardlab --help`
HELP = "legal moves of a position given as JSON"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "moves", help=HELP,
        description='Print the legal moves of a position file as JSON: {"moves": [...]}, sorted, '
                    "without duplicates. The position formats are in docs/positions/ (one file per game); a record "
                    "saved by `boardlab play` gives the position where its last move was played.")
    add_game_arguments(p, "moves")
    p.add_argument("position", metavar="POSITION.json", help="the position file ('-' reads standard input)")
    p.set_defaults(run=run)


def read_position(name: str) -> dict:
    """The JSON data of a position file.

    :raises BoardlabError: when the file is missing, unreadable or not JSON.
    """
    import sys

    if name == "-":
        # started with standard input closed (`boardlab.entry.ClosedInput` stands in for it)
        if sys.stdin is None or getattr(sys.stdin, "started_closed", False):
            raise BoardlabError("-: standard input is closed (give a position file, or pipe one in)")
        try:
            text = sys.stdin.read(MAX_FILE_BYTES + 1)
        except UnicodeDecodeError:
            raise BoardlabError(f"{name}: not UTF-8 text") from None
        except OSError as err:
            raise BoardlabError(f"{name}: cannot be read: {err.strerror}") from None
        if len(text) > MAX_FILE_BYTES:
            raise BoardlabError(f"{name}: larger than {MAX_FILE_BYTES:,} bytes (a position is a few kB)")
    else:
        try:
            text = read_bounded(name, MAX_FILE_BYTES)
        except UnreadableFile as err:
            raise BoardlabError(f"{name}: {err.reason}") from None
    try:
        return json.loads(text, parse_int=whole_number)
    except json.JSONDecodeError as err:
        raise BoardlabError(f"{name}:{err.lineno}: not valid JSON: {err.msg}") from None
    except RecursionError:
        raise BoardlabError(f"{name}: nested too deeply to be a position") from None


def whole_number(text: str) -> int:
    """A JSON integer of a position, refused beyond MAX_INTEGER_DIGITS digits.

    >>> whole_number("-12")
    -12
    """
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise BoardlabError(f"a whole number of {len(text.lstrip('-')):,} digits (at most {MAX_INTEGER_DIGITS})")
    return int(text)


def position_of_record(data: Any) -> Any:
    """The position of a `boardlab play` record (where its last move was played); other data unchanged.

    :raises BoardlabError: for a record without a position (no move was played).
    """
    from boardlab.playtest import RECORD_FORMAT

    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        return data
    if not isinstance(data.get("position"), dict):
        raise BoardlabError("the record holds no position (no move was played, or the game writes none)")
    return data["position"]


def run(args: argparse.Namespace) -> int:
    definition = game_definition(args.game, args.variant)
    lister = game_part(args.game, "moves")
    data = position_of_record(read_position(args.position))
    try:
        listed = lister.moves(definition, data)
    except BoardlabError as err:
        raise BoardlabError(f"{args.position}: {err}") from None
    print(json.dumps({"moves": listed}))
    return 0
