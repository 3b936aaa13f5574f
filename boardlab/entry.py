"""The installed `boardlab` command: `boardlab.cli.main`, answering a Ctrl-C from its first instant.

A Ctrl-C while the command modules are still being imported (numpy, reportlab, ...) ends with
the same one line and exit status 130 as one during the work.
"""

from __future__ import annotations

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
    return run_command()


if __name__ == "__main__":
    sys.exit(main())
