"""Line numbers for the keys of a TOML document.

`tomllib` parses a definition but forgets where each key was written.
A designer's mistake must be reported as `FILE:LINE: KEY: ...`, so this module
walks the same text once more and records the line of every key, table header
and array element.
The text is assumed to be valid TOML (tomllib has already accepted it).

>>> lines = key_lines('[rules]\\npawns = "pass"\\nsizes = [1,\\n  2]\\n')
>>> lines[("rules", "pawns")], lines[("rules", "sizes", 1)]
(2, 4)
"""

from __future__ import annotations

import re

Path = tuple

TRIPLE_BASIC, TRIPLE_LITERAL = '"' * 3, "'" * 3
#: the body of a string up to its closing quote(s); escapes are kept as written
_BASIC = re.compile(r'(?:[^"\\\n]|\\.)*', re.S)
_LITERAL = re.compile(r"[^'\n]*")
_MULTILINE_BASIC = re.compile(r'(?:[^"\\]|\\.|"(?!""))*', re.S)
_MULTILINE_LITERAL = re.compile(r"(?:[^']|'(?!''))*", re.S)


class _Scanner:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self.line = 1
        self.lines: dict[tuple, int] = {}
        self.array_counts: dict[tuple, int] = {}

    # -- low level -------------------------------------------------------------------------
    def peek(self, n: int = 1) -> str:
        return self.text[self.pos:self.pos + n]

    def advance(self, n: int = 1) -> None:
        chunk = self.text[self.pos:self.pos + n]
        self.line += chunk.count("\n")
        self.pos += n

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def skip_inline_space(self) -> None:
        while self.peek() in (" ", "\t") and not self.at_end():
            self.advance()

    def skip_comment(self) -> None:
        if self.peek() == "#":
            while not self.at_end() and self.peek() != "\n":
                self.advance()

    def skip_space_newlines_comments(self) -> None:
        while not self.at_end():
            ch = self.peek()
            if ch in " \t\r\n":
                self.advance()
            elif ch == "#":
                self.skip_comment()
            else:
                return

    # -- pieces ----------------------------------------------------------------------------
    def read_string(self) -> str:
        """The string starting here (one regular-expression match, not a loop per character)."""
        for quote in (TRIPLE_BASIC, TRIPLE_LITERAL):
            if self.peek(3) == quote:
                self.advance(3)
                start = self.pos
                body = _MULTILINE_BASIC if quote == TRIPLE_BASIC else _MULTILINE_LITERAL
                closing = body.match(self.text, self.pos)
                assert closing is not None  # the parser accepted the file: the string is closed
                self.advance(closing.end() - self.pos)
                while self.peek(4) == quote + quote[0]:  # a closing run may hold up to two extra quotes
                    self.advance()
                value = self.text[start:self.pos]
                self.advance(3)
                return value
        quote = self.peek()
        self.advance()
        match = (_BASIC if quote == '"' else _LITERAL).match(self.text, self.pos)
        assert match is not None  # the parser accepted the file: the string is closed
        self.advance(match.end() - self.pos)
        self.advance()
        return match.group()

    def read_key(self) -> list[str]:
        parts = []
        while True:
            self.skip_inline_space()
            if self.peek() in ('"', "'"):
                parts.append(self.read_string())
            else:
                start = self.pos
                while not self.at_end() and (self.peek().isalnum() or self.peek() in "_-"):
                    self.advance()
                parts.append(self.text[start:self.pos])
            self.skip_inline_space()
            if self.peek() == ".":
                self.advance()
                continue
            return parts

    def read_value(self, path: tuple) -> None:
        ch = self.peek()
        if ch in ('"', "'"):
            self.read_string()
        elif ch == "[":
            self.advance()
            index = 0
            while True:
                self.skip_space_newlines_comments()
                if self.peek() == "]":
                    self.advance()
                    return
                self.lines.setdefault(path + (index,), self.line)
                self.read_value(path + (index,))
                index += 1
                self.skip_space_newlines_comments()
                if self.peek() == ",":
                    self.advance()
        elif ch == "{":
            self.advance()
            while True:
                self.skip_inline_space()
                if self.peek() == "}":
                    self.advance()
                    return
                self.read_keyval(path)
                self.skip_inline_space()
                if self.peek() == ",":
                    self.advance()
        else:
            while not self.at_end() and self.peek() not in ",]}\n#":
                self.advance()

    def read_keyval(self, table: tuple) -> None:
        line = self.line
        key = self.read_key()
        for depth in range(1, len(key) + 1):
            self.lines.setdefault(table + tuple(key[:depth]), line)
        self.skip_inline_space()
        if self.peek() == "=":
            self.advance()
        self.skip_inline_space()
        self.read_value(table + tuple(key))

    def run(self) -> dict[tuple, int]:
        table: tuple = ()
        while True:
            self.skip_space_newlines_comments()
            if self.at_end():
                return self.lines
            if self.peek(2) == "[[":
                line = self.line
                self.advance(2)
                name = tuple(self.read_key())
                self.advance(2)
                index = self.array_counts.get(name, 0)
                self.array_counts[name] = index + 1
                self.lines.setdefault(name, line)
                table = name + (index,)
                self.lines[table] = line
            elif self.peek() == "[":
                line = self.line
                self.advance()
                table = tuple(self.read_key())
                self.advance()
                for depth in range(1, len(table) + 1):
                    self.lines.setdefault(table[:depth], line)
                self.lines[table] = line
            else:
                self.read_keyval(table)


def key_lines(text: str) -> dict[tuple, int]:
    """Map every key path of a valid TOML text to the line (1-based) that defines it.

    Array elements are keyed by their index, `[[x]]` tables by (x, index).
    """
    return _Scanner(text).run()


def line_of(lines: dict[tuple, int], path: tuple) -> int:
    """The line of `path`, or of its nearest written ancestor (1 when none is written)."""
    path = tuple(path)
    while path:
        if path in lines:
            return lines[path]
        path = path[:-1]
    return 1
