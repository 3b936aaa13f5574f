"""The installed `boardlab` command: `boardlab.cli.main`, answering a Ctrl-C from its first instant.

A Ctrl-C while the command modules are still being imported (numpy, reportlab, ...) ends with
the same one line and exit status 130 as one during the work; one arriving after the work is
done is ignored (the command exits with its own status).
"""

from __future__ import annotations

import signal
import sys


def main() -> int:
    try:
        from boardlab.cli import main as run_command
    except KeyboardInterrupt:
        try:
            print("boardlab: interrupted", file=sys.stderr)
        except (KeyboardInterrupt, OSError):
            pass
        return 130
    code = run_command()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the work is done: a late Ctrl-C cannot cut the exit short
    return code


if __name__ == "__main__":
    sys.exit(main())
