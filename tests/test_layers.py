"""Layers that hold: a module imports only from its own layer or the layers below it.

    common (stopping, files written whole, notes: standard library only)
    < layouts (what the games are) < analysis (what they do) < printkit (how they look)
    < boardlab (the command line, the play server) and games/ (games written by new-game)

Every module's imports are read from its source (ast), those inside functions too: a lazy import
is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: folder -> (its package, its layer); a higher layer may import a lower one, never the reverse
LAYERS = {"common": ("boardlab.common", 0), "layouts": ("boardlab.layouts", 1), "analysis": ("boardlab.analysis", 2),
          "printkit": ("boardlab.printkit", 3), "boardlab": ("boardlab", 4), "games": ("boardlab.games", 4)}
#: the top layer: the command line and the games, which nothing imports
TOP = LAYERS["boardlab"][1]


def layer_of(module: str) -> int | None:
    """The layer of a boardlab module (None for another package, or the root package itself)."""
    if module == "boardlab" or not module.startswith("boardlab."):
        return None
    sub = module.split(".")[1]
    for package, level in LAYERS.values():
        if package != "boardlab" and package.split(".")[1] == sub:
            return level
    return LAYERS["boardlab"][1]


def imported(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module) of every absolute import of a module's source, `from boardlab import x` as
    boardlab.x (a module, or a name of the root package such as __version__)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "boardlab":
                out += [(node.lineno, f"boardlab.{alias.name}") for alias in node.names if alias.name != "__version__"]
            else:
                out.append((node.lineno, node.module))
    return out


def upward_imports(folder: str) -> list[str]:
    _, level = LAYERS[folder]
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for line, module in imported(ast.parse(path.read_text(encoding="utf-8"))):
            target = layer_of(module)
            if target is not None and target > level:
                found.append(f"{path.relative_to(ROOT)}:{line}: imports {module}")
    return found


def test_the_reading_of_imports_finds_lazy_and_root_imports():
    tree = ast.parse("import os\nfrom boardlab import cli, __version__\n"
                     "def f():\n    from boardlab.analysis.runner import run\n")
    assert sorted(imported(tree)) == [(1, "os"), (2, "boardlab.cli"), (4, "boardlab.analysis.runner")]
    assert [layer_of(m) for m in ("os", "boardlab", "boardlab.common.stopping", "boardlab.layouts.loader",
                                  "boardlab.printkit.draw", "boardlab.cli", "boardlab.games.nim.engine")] \
        == [None, None, 0, 1, 3, 4, 4]


@pytest.mark.parametrize("folder", [f for f, (_, level) in LAYERS.items() if level < TOP])
def test_no_module_imports_from_a_layer_above_its_own(folder):
    assert upward_imports(folder) == []

