"""The compiled walk tables (walks_kernel) against their plain-Python twin (walks.walk_table_python)."""

from __future__ import annotations

import numpy as np
import pytest

from boardlab.analysis.blockd import walks_kernel
from boardlab.analysis.blockd.walks import Grid, walk_table, walk_table_python


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDLAB_CACHE", str(tmp_path / "cache"))


GRIDS = [Grid(2, 2, False), Grid(2, 2, True), Grid(2, 3, True), Grid(3, 3, False), Grid(3, 3, True),
         Grid(2, 5, True), Grid(4, 3, False), Grid(4, 5, True), Grid(5, 5, True), Grid(5, 4, False), Grid(1, 6, False)]
STEPS = [(1,), (2,), (3,), (5,), (1, 2, 3, 4, 5), (2, 4), (3, 4, 5, 6), (7,)]


@pytest.mark.parametrize("grid", GRIDS, ids=str)
def test_every_cell_every_step_class_equals_the_twin(grid):
    for steps in STEPS:
        tables = walks_kernel.walk_arrays(grid, steps)
        assert len(tables) == grid.cells
        for cell, (masks, dests) in enumerate(tables):
            assert list(zip(masks.tolist(), dests.tolist())) == list(walk_table_python(grid, cell, steps)), \
                (grid, steps, cell)


def test_walk_table_uses_the_compiled_path_and_the_twin_beyond_an_int64():
    grid = Grid(5, 5, True)
    assert walk_table(grid, 12, (1, 2, 3, 4, 5)) == walk_table_python(grid, 12, (1, 2, 3, 4, 5))
    wide = Grid(8, 8, False)  # 64 cells: a mask needs bit 63, so the twin builds it
    assert walk_table(wide, 0, (2,)) == walk_table_python(wide, 0, (2,))
    with pytest.raises(ValueError, match="at most 63"):
        walks_kernel.walk_arrays(wide, (2,))


def test_tables_are_cached_on_disk_and_a_damaged_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setattr(walks_kernel, "CACHE_FROM", 0)
    grid, steps = Grid(4, 4, True), (1, 2, 3)
    built = walks_kernel.walk_arrays(grid, steps)
    files = list((tmp_path / "cache").glob("blockd-walks-*.npz"))
    assert [f.name for f in files] == [f"blockd-walks-{walks_kernel.cache_key(grid, steps)}.npz"]
    again = walks_kernel.walk_arrays(grid, steps)
    assert all(np.array_equal(a, b) and np.array_equal(c, d) for (a, c), (b, d) in zip(built, again))
    files[0].write_bytes(b"not a table")
    rebuilt = walks_kernel.walk_arrays(grid, steps)
    assert all(np.array_equal(a, b) for (a, _), (b, _) in zip(built, rebuilt))
    assert walks_kernel.cache_key(grid, steps) != walks_kernel.cache_key(Grid(4, 4, False), steps)


def test_a_cache_folder_that_cannot_be_written_only_costs_time(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("BOARDLAB_CACHE", str(blocker / "cache"))
    monkeypatch.setattr(walks_kernel, "CACHE_FROM", 0)
    masks, dests = walks_kernel.walk_arrays(Grid(3, 3, True), (2,))[4]
    assert list(zip(masks.tolist(), dests.tolist())) == list(walk_table_python(Grid(3, 3, True), 4, (2,)))


def test_progress_shows_only_after_a_second(capsys):
    import io

    quiet = io.StringIO()
    p = walks_kernel.Progress("walk tables", 3, stream=quiet, after=3600)
    p.step(1)
    p.close()
    assert quiet.getvalue() == ""
    loud = io.StringIO()
    p = walks_kernel.Progress("walk tables", 3, stream=loud, after=0)
    p.step(1)
    p.step(2)
    p.close(" (kept in the cache)")
    lines = loud.getvalue().splitlines()
    assert lines[0].startswith("walk tables: 1/3") and lines[-1].startswith("walk tables: done in ")
    assert lines[-1].endswith("(kept in the cache)") and len(lines) == 2  # not a terminal: the first step only
