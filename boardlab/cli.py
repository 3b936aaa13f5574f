"""The `boardlab` command line: parses arguments and hands over to one command module.

Bad input of any kind ends with one clear line on stderr and exit status 2; a Ctrl-C with one
line and exit status 130.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import boardlab
from boardlab.common import notes, stopping
from boardlab.layouts.errors import BoardlabError, DefinitionError, one_line
from boardlab.layouts.registry import game_ids

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

#: sub-commands, each a module in boardlab/commands/ (a dash in the name is an underscore there)
COMMANDS = (
    "list",
    "check",
    "simulate",
    "compare",
    "sweep",
    "tune",
    "report",
    "skill",
    "tables",
    "moves",
    "print",
    "proof",
    "rulebook",
    "play",
    "playtests",
    "export",
    "watch",
    "new-game",
    "completion",
)


class Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, one_line(f"{self.prog}: {message} (see {self.prog} --help)") + "\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:  # argparse's own drops a failed write: a full disk must be said, not ignored
            (file or sys.stderr).write(message)

    def format_help(self) -> str:
        if callable(self.epilog):  # a help text that needs heavy imports is made only when asked for
            self.epilog = self.epilog()
        return super().format_help()


class Version(argparse.Action):
    """`--version`: the installed version, read only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(f"boardlab {boardlab.__version__}")  # on standard output, as argparse's own version action
        parser.exit()


def chosen_command(argv: list[str]) -> str | None:
    """The sub-command `argv` names: its first word not starting with '-' (the top level has no
    option taking a value).

    >>> chosen_command(["--version"]), chosen_command(["simulate", "--help"])
    (None, 'simulate')
    """
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser, with the full arguments of the command `argv` names (every command when None).

    The other commands get only their line for `boardlab --help`: a command's arguments may need
    heavy imports (defaults stated in its help), and start-up must not pay for commands not run.
    """
    parser = Parser(prog="boardlab", description="Design analysis and print-and-play files for small "
                    f"board and card games: {', '.join(game_ids())} (`boardlab list` describes them).")
    parser.add_argument("--version", action=Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    chosen = None if argv is None else chosen_command(argv)
    for name in COMMANDS:
        module = importlib.import_module(f"boardlab.commands.{name.replace('-', '_')}")
        if argv is None or name == chosen:
            module.register(sub)
            add_quiet_argument(sub.choices[name])
        else:
            sub.add_parser(name, help=module.HELP, add_help=False)
    return parser


def add_quiet_argument(parser: argparse.ArgumentParser) -> None:
    """`-q`/`--quiet` on a command and on each of its own sub-commands (`export tts`)."""
    inner = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if inner:
        for sub in inner[0].choices.values():
            add_quiet_argument(sub)
        return
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="say only the result and errors: no progress, no notes on the files written")


def main(argv: list[str] | None = None) -> int:
    """Run one command; every failure a user can cause is one line on stderr.

    Exit status: 0 done, 2 bad input (or output that cannot be written), 130 interrupted (Ctrl-C),
    143 and 129 stopped by SIGTERM and SIGHUP (`boardlab.common.stopping`: within a second, whatever the
    command was doing; workers gone, files wholly old or wholly new).
    """
    stopping.begin()
    try:
        return _main(argv)
    except KeyboardInterrupt as interrupt:
        return stopping.end(interrupt)


def _main(argv: list[str] | None) -> int:
    try:
        parser = build_parser(sys.argv[1:] if argv is None else argv)  # a Ctrl-C here is caught by main too
    except BoardlabError as err:  # e.g. a game added by a broken entry point
        print(f"boardlab: {one_line(str(err))}", file=sys.stderr)
        return 2
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help, --version or a usage mistake: their text must reach its reader
        _flush_or_say("boardlab")
        raise done
    except BrokenPipeError:  # `boardlab --help | head -0`
        _silence_stdout()
        return 0
    except OSError as err:  # `boardlab --help > /dev/full`
        _silence_stdout()
        _say(f"boardlab: cannot write the output: {err.strerror or err}")
        return 2
    if not getattr(args, "run", None):
        print(f"boardlab: give a command: {', '.join(COMMANDS)} (see boardlab --help)", file=sys.stderr)
        return 2
    notes.set_quiet(getattr(args, "quiet", False))
    try:
        check_environment()
        code = args.run(args)
        sys.stdout.flush()  # a full disk on standard output fails here, inside the handlers below
        return code
    except DefinitionError as err:
        stopping.reraise_swallowed()  # a stop that a library turned into an error of its own
        for problem in err.problems:
            print(problem, file=sys.stderr)
        return 2
    except BoardlabError as err:
        stopping.reraise_swallowed()  # a stop that a library turned into an error of its own
        print(one_line(f"boardlab {args.command}: {err}"), file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`boardlab ... | head`): not an error
        _silence_stdout()
        return 0
    except OSError as err:  # e.g. no space left on the device standard output writes to
        stopping.reraise_swallowed()  # a stop that a library turned into an error of its own
        if err.filename is None:
            _silence_stdout()
            what = "cannot write the output"
        else:
            what = f"{err.filename}"
        print(one_line(f"boardlab {args.command}: {what}: {err.strerror or err}"), file=sys.stderr)
        return 2
    except Exception:
        # A stop that Python itself wrapped: a KeyboardInterrupt inside a class's creation (while a
        # library is imported) reaches here as "RuntimeError: Error calling __set_name__".  Any other
        # error is a bug of ours and keeps its traceback.
        stopping.reraise_swallowed()
        raise


def _flush_or_say(who: str) -> None:
    """Flush standard output; when that fails (a full disk), one line and exit status 2."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away: not an error
        _silence_stdout()
    except OSError as err:
        _silence_stdout()
        _say(f"{who}: cannot write the output: {err.strerror or err}")
        raise SystemExit(2) from None


def _say(line: str) -> None:
    """One line on stderr, if stderr can take it."""
    try:
        print(one_line(line), file=sys.stderr)
    except OSError:
        pass


def check_environment() -> None:
    """Environment values a library reads on import, checked before those imports: an empty
    SOURCE_DATE_EPOCH counts as unset (and is removed, numpy's f2py would fail on it), any other
    value must be a date.

    :raises BoardlabError: for a SOURCE_DATE_EPOCH that is not a date.
    """
    from boardlab.layouts.limits import source_date_epoch

    if source_date_epoch(os.environ) is None:
        os.environ.pop("SOURCE_DATE_EPOCH", None)


def _silence_stdout() -> None:
    """Point standard output at the null device, so that Python's final flush finds nothing to fail on."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
