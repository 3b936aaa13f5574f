"""The installed `boardlab` command: `boardlab.cli.main`, answering a signal from its first instant.

Ctrl-C, SIGTERM and SIGHUP (`boardlab.stopping`) are answered before anything else is imported:
one arriving while the command modules are still being imported (numpy, reportlab, ...) ends
with the same one line and exit status (130, 143, 129) as one during the work; one arriving
after the work is done is ignored (the command exits with its own status).
"""

from __future__ import annotations

import sys


def main() -> int:
    from boardlab import stopping

    stopping.install()
    try:
        from boardlab.cli import main as run_command
    except KeyboardInterrupt as interrupt:
        return stopping.end(interrupt)
    except Exception:  # a stop that Python turned into another error on its way out of an import
        signum = stopping.signalled()
        if signum is None:
            raise
        return stopping.end(stopping.Stopped(signum))
    code = run_command()
    stopping.ignore_all()  # the work is done: a late signal cannot cut the exit short
    return code


if __name__ == "__main__":
    sys.exit(main())
