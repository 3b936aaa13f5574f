"""The errors a definition or any other user input can raise.

Every error a user can cause is a `BoardlabError`; the command line prints its one-line
message and exits with status 2.
"""

from __future__ import annotations

from dataclasses import dataclass

#: the most characters one error line may take: a 10 MB name in a file is not echoed whole
LINE_LIMIT = 300


def one_line(text: str, limit: int = LINE_LIMIT) -> str:
    r"""`text` on one line, at most `limit` characters: an over-long middle is cut out (the end,
    which usually says what is wrong, is kept).

    >>> one_line("a\nb")
    'a b'
    >>> one_line("x" * 1000 + ": too long", 60)
    'xxxxxxxxxxxxxxxx [... 982 characters cut ...] xx: too long'
    """
    text = " ".join(str(text).splitlines())
    if len(text) <= limit:
        return text
    note = f" [... {len(text):,} characters cut ...] "  # at least as long as the final note
    keep = max(limit - len(note), 2)
    head, tail = keep * 3 // 5, keep - keep * 3 // 5
    return f"{text[:head]} [... {len(text) - head - tail:,} characters cut ...] {text[len(text) - tail:]}"


class BoardlabError(Exception):
    """Bad input from the user: one clear line, exit status 2 (its text is capped by `one_line`)."""

    def __str__(self) -> str:
        return one_line(super().__str__())


@dataclass(frozen=True)
class Problem:
    """One mistake in a definition file, in the form `FILE:LINE: KEY: what (allowed)`."""

    file: str
    line: int
    key: str
    message: str
    allowed: str = ""

    def __str__(self) -> str:
        tail = f" ({self.allowed})" if self.allowed else ""
        return one_line(f"{self.file}:{self.line}: {self.key}: {self.message}{tail}")


class DefinitionError(BoardlabError):
    """A definition (or variant) file has one or more problems."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)
