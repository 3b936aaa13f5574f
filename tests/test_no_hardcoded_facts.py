"""Nothing in analysis/ or printkit/ repeats a colour, name or size that a definition holds.

The check reads every string and number constant of the source (docstrings excepted) and
compares it with the facts the definitions and layouts/print.toml hold.
"""

from __future__ import annotations

import ast
from pathlib import Path

from boardlab.layouts import GAMES, load, print_conventions

ROOT = Path(__file__).resolve().parent.parent


def definition_facts() -> tuple[set[str], set[float]]:
    words: set[str] = set()
    for game in GAMES:
        d = load(game)
        words.add(d.game.name)
        for name, colour in d.colours.items():
            # role names such as "back" or "ink" are keys, not facts; hues and inks are facts
            words |= {colour.label, colour.hex.lower(), colour.hex.upper()}
        if game == "links":
            words |= {m.name for m in d.deck.masters}
        if game == "deblockle":
            words |= set(d.faces)
    generic = {"#000000", "#ffffff", "#FFFFFF", "black", "white"}  # contrast inks, not game colours
    words = {w for w in words if len(w) > 1 and w not in GAMES and w not in generic}
    conventions = print_conventions()
    words |= set(conventions.card_sizes)
    numbers = {v for size in list(conventions.papers.values()) + list(conventions.card_sizes.values())
               for v in size if v not in (63.0, 88.0)}
    return words, numbers


def constants(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and id(node) not in docstrings:
            yield node.lineno, node.value


def test_engines_and_printkit_read_facts_from_the_definitions():
    words, numbers = definition_facts()
    offenders = []
    for folder in ("analysis", "printkit"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, value in constants(path):
                if isinstance(value, str) and value in words:
                    offenders.append(f"{path.relative_to(ROOT)}:{line}: {value!r}")
                elif isinstance(value, (int, float)) and not isinstance(value, bool) and value in numbers:
                    offenders.append(f"{path.relative_to(ROOT)}:{line}: {value!r}")
    assert not offenders, "facts that belong to a definition:\n" + "\n".join(offenders)


def test_the_check_itself_finds_a_planted_fact(tmp_path):
    words, numbers = definition_facts()
    assert {"red", "Blockd", "poker", "Star", "ONE", "#c62828"} <= words
    assert 63.5 in numbers and 215.9 in numbers
    planted = tmp_path / "planted.py"
    planted.write_text('"""Docstring mentioning red is fine."""\nCOLOUR = "red"\nWIDTH = 63.5\n')
    found = [(line, v) for line, v in constants(planted) if v in words or v in numbers]
    assert found == [(2, "red"), (3, 63.5)]
