"""The errors a definition or any other user input can raise.

Every error a user can cause is a `BoardlabError`; the command line prints its one-line
message and exits with status 2.
"""

from __future__ import annotations

from dataclasses import dataclass


class BoardlabError(Exception):
    """Bad input from the user: one clear line, exit status 2."""


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
        return f"{self.file}:{self.line}: {self.key}: {self.message}{tail}"


class DefinitionError(BoardlabError):
    """A definition (or variant) file has one or more problems."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
