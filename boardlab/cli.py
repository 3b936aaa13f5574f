"""The `boardlab` command line: parses arguments and hands over to one command module.

Bad input of any kind ends with one clear line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from boardlab import __version__
from boardlab.layouts.errors import BoardlabError, DefinitionError

#: sub-commands, each a module in boardlab/commands/
COMMANDS = (
    "list",
    "check",
    "simulate",
    "compare",
    "report",
    "tables",
    "moves",
    "print",
    "rulebook",
)


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line and exit status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="boardlab", description="Design analysis and print-and-play files for small "
                    "board and card games: Blockd, 6x6, Links and Deblockle.")
    parser.add_argument("--version", action="version", version=f"boardlab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name in COMMANDS:
        importlib.import_module(f"boardlab.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except DefinitionError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        return 2
    except BoardlabError as err:
        print(f"boardlab {args.command}: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("boardlab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
