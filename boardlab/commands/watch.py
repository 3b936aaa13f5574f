"""`boardlab watch GAME [--variant V]`: check, print and rulebook again on every save.

The files watched are the definition and every file it extends, the card lists they name, the
game's rulebook texts and the images the definition names; the set is read again after every rebuild (a new `extends` or card
list is watched from then on).  They are polled (size and modification time, every
`--interval` seconds) rather than watched through the operating system's notifications: a
handful of named files costs nothing to poll, polling sees a save on every file system (a
network or container mount whose notifications never arrive, an editor that saves by renaming),
and it needs no library beyond Python's own.

Each rebuild is one line: the time, what was built and how long it took, or the first problem
(`FILE:LINE: ...`) when `check` refuses the definition; nothing is printed or written then, so
the last good files stay.  Ctrl-C stops the watch (exit status 130).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time
from pathlib import Path

from boardlab.arguments import add_game_arguments, number_between, positive

#: the command's line in `boardlab --help`
HELP = "rebuild check, print and rulebook on every save of the definition, rulebook, card list or image"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("watch", help=HELP,
                              description="Build the game's print files and rulebooks, then watch its definition "
                                          "(and the files it extends), card lists, rulebook texts and images, and build "
                                          "again on every save: one line per rebuild. Ctrl-C stops.")
    add_game_arguments(p, "print")
    p.add_argument("--interval", type=number_between(0.05, 60), default=0.5, metavar="S",
                   help="seconds between two looks at the files (default: 0.5)")
    p.add_argument("--rebuilds", type=positive, metavar="N",
                   help="stop after N rebuilds that follow the first build (default: watch until Ctrl-C)")
    p.set_defaults(run=run)


def watched_files(game: str, variant: str | None) -> list[Path]:
    """The definition's files (`layouts.loader.definition_files`) and the game's rulebook texts."""
    from boardlab.commands.rulebook import LANGUAGES
    from boardlab.layouts.loader import definition_files
    from boardlab.layouts.rulebook_markup import text_path

    files = definition_files(variant or game)
    return files + [text_path(game, language) for language in LANGUAGES] + image_files(variant or game)


def image_files(name: str) -> list[Path]:
    """The images the definition names ([art], a card list's image column), as far as it loads."""
    from boardlab.layouts import BoardlabError, load

    try:
        return sorted({Path(placement.path) for placement in load(name).images.values()})
    except BoardlabError:
        return []


def snapshot(files: list[Path]) -> dict[Path, tuple[int, int] | None]:
    """Size and modification time of every file (None for one that is missing)."""
    out: dict[Path, tuple[int, int] | None] = {}
    for path in files:
        try:
            info = path.stat()
            out[path] = (info.st_mtime_ns, info.st_size)
        except OSError:
            out[path] = None
    return out


def build(game: str, variant: str | None) -> str:
    """check, print and rulebook of the definition, in this process; one line saying how it went."""
    from boardlab.cli import main

    target = ["--variant", variant] if variant else []
    started = time.monotonic()
    steps = []
    for name, argv in (("check", ["check", variant or game]), ("print", ["print", game, *target]),
                       ("rulebook", ["rulebook", game, *target])):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        if code != 0:
            problems = [line for line in err.getvalue().splitlines() if line.strip()]
            first = problems[0] if problems else f"exit status {code}"
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            return f"{name} failed: {first}{more}"
        if name == "print":
            steps.append(out.getvalue().splitlines()[0] if out.getvalue() else "printed")
        elif name == "rulebook":
            steps.append(f"{len(out.getvalue().splitlines())} rulebook PDF")
    return f"check ok; {'; '.join(steps)} ({time.monotonic() - started:.1f} s)"


def run(args: argparse.Namespace) -> int:
    from boardlab.arguments import game_definition

    game_definition(args.game, args.variant)  # an unknown game or a variant of another game: one line, exit 2
    name = args.variant or args.game
    print(f"watching {name} (Ctrl-C stops)", flush=True)
    files = watched_files(args.game, args.variant)
    seen = snapshot(files)
    print(f"{time.strftime('%H:%M:%S')} {name}: {build(args.game, args.variant)}", flush=True)
    rebuilds = 0
    while args.rebuilds is None or rebuilds < args.rebuilds:
        time.sleep(args.interval)
        now = snapshot(files)
        if now == seen:
            continue
        time.sleep(min(args.interval, 0.2))  # an editor that writes a file in two steps: let it finish
        changed = sorted(str(p) for p in set(now) | set(seen) if now.get(p) != seen.get(p))
        seen = snapshot(files)  # before the build: a save during it is seen at the next look
        line = build(args.game, args.variant)
        files = watched_files(args.game, args.variant)
        seen = {**snapshot([f for f in files if f not in seen]), **{f: seen[f] for f in files if f in seen}}
        rebuilds += 1
        shown = ", ".join(Path(c).name for c in changed)
        print(f"{time.strftime('%H:%M:%S')} {name} ({shown} changed): {line}", flush=True)
    return 0
