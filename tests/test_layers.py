"""Layers that hold: a module imports only from its own layer or the layers below it.

    layouts (what the games are) < analysis (what they do) < printkit (how they look)
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
LAYERS = {"layouts": ("boardlab.layouts", 0), "analysis": ("boardlab.analysis", 1),
          "printkit": ("boardlab.printkit", 2), "boardlab": ("boardlab", 3), "games": ("boardlab.games", 3)}
#: modules of boardlab/ that every layer uses (signals, files written whole, quiet notes; standard
#: library only), still in the top package: to move below analysis/ and printkit/ (issue 41, item 3).
#: A module is taken off this list when it moves; nothing is added to it.
USED_BY_EVERY_LAYER = {"boardlab.stopping", "boardlab.files", "boardlab.notes"}


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
            if target is not None and target > level and module not in USED_BY_EVERY_LAYER:
                found.append(f"{path.relative_to(ROOT)}:{line}: imports {module}")
    return found


def test_the_reading_of_imports_finds_lazy_and_root_imports():
    tree = ast.parse("import os\nfrom boardlab import stopping, __version__\n"
                     "def f():\n    from boardlab.analysis.runner import run\n")
    assert sorted(imported(tree)) == [(1, "os"), (2, "boardlab.stopping"), (4, "boardlab.analysis.runner")]
    assert [layer_of(m) for m in ("os", "boardlab", "boardlab.layouts.loader", "boardlab.printkit.draw",
                                  "boardlab.cli", "boardlab.games.nim.engine")] == [None, None, 0, 2, 3, 3]


@pytest.mark.parametrize("folder", [f for f, (_, level) in LAYERS.items() if level < 3])
def test_no_module_imports_from_a_layer_above_its_own(folder):
    assert upward_imports(folder) == []


def test_the_modules_used_by_every_layer_exist_and_import_nothing_of_boardlab():
    """The allowance above is for modules that could move below as they are."""
    for module in USED_BY_EVERY_LAYER:
        path = ROOT / (module.replace(".", "/") + ".py")
        assert path.is_file(), f"{module} moved: take it off USED_BY_EVERY_LAYER"
        assert [m for _, m in imported(ast.parse(path.read_text())) if m.startswith("boardlab")] == []
