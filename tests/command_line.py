"""Running a command in this process as the tests of hostile input do: its status and outputs, and
the check that a failure is one clear line."""

from __future__ import annotations

from boardlab.cli import main
from boardlab.layouts.errors import LINE_LIMIT


def run(capsys, *argv):
    """(exit status, standard output, standard error) of `boardlab ARGV`."""
    try:
        code = main(list(argv))
    except SystemExit as done:  # argparse ends usage mistakes this way
        code = done.code
    out, err = capsys.readouterr()
    return code, out, err


def one_line_failure(code, out, err, *words):
    """Exit status 2, one line on stderr holding every one of `words`, no traceback."""
    assert code == 2, (code, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert len(err) <= LINE_LIMIT + 1, len(err)
    for word in words:
        assert word in err, (word, err)
