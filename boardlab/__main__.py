"""`python -m boardlab ...`: the same command as the installed `boardlab` (`boardlab.entry.main`)."""

import sys

from boardlab.entry import main

if __name__ == "__main__":
    sys.exit(main())
