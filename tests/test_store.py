"""The results store: stored runs equal plain runs, interrupted runs resume, bad files are refused."""

from __future__ import annotations

import gc
import sqlite3
import weakref

import pytest

from boardlab.analysis import engines, runner
from boardlab.analysis.store import (SCHEMA_VERSION, ResultStore, StoreError, config_key, decode_record,
                                     encode_record, games_to_play, run_stored)
from boardlab.layouts import load


def _match(game_id: str, players: int):
    game = engines.make_game(load(game_id), players)
    known = engines.agent_factories(game_id)
    return game, [known["random"]] * players, ["random"] * players


def _without_seconds(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k != "seconds"}


@pytest.mark.parametrize("game_id, players, games", [("blockd", 3, 150), ("sixbysix", 3, 70)])
def test_stored_run_equals_plain_run_and_second_run_plays_nothing(tmp_path, game_id, players, games):
    game, agents, names = _match(game_id, players)
    _, plain = runner.run_records(game, agents, games, 5, workers=1, agent_names=names, progress=False)
    with ResultStore(tmp_path / "r.sqlite") as store:
        records, stored = run_stored(store, game, agents, games, 5, names, workers=2)
        assert _without_seconds(stored) == _without_seconds(plain)
        assert [r.index for r in records] == list(range(games))
        assert games_to_play(store, game, agents, games, 5, names) == 0
        calls = []
        store.put_block = lambda *a: calls.append(a)  # a rerun must not play or store anything
        _, again = run_stored(store, game, agents, games, 5, names, workers=1)
        assert calls == [] and again == stored


def _block(game, agents, names, seed: int) -> int:
    """The runner's block size for this match (the compiled paths choose larger blocks than
    runner.BLOCK), so that a test can ask for a number of whole and part blocks."""
    blocks = runner.blocks_of(runner.make_match(game, agents, seed, True, names), 10**6)
    return blocks[0][1]


def test_interrupted_run_resumes_with_only_the_missing_blocks(tmp_path):
    game, agents, names = _match("sixbysix", 2)
    size = _block(game, agents, names, 2)
    games = 4 * size + size // 2  # five blocks, the last one short
    with ResultStore(tmp_path / "whole.sqlite") as store:
        _, whole = run_stored(store, game, agents, games, 2, names, workers=1)
    store = ResultStore(tmp_path / "cut.sqlite")
    real_put, stored_blocks = store.put_block, []

    def put_then_die(config, start, stop, records, seconds):
        real_put(config, start, stop, records, seconds)
        stored_blocks.append((start, stop))
        if len(stored_blocks) == 2:
            raise KeyboardInterrupt

    store.put_block = put_then_die
    with pytest.raises(KeyboardInterrupt):
        run_stored(store, game, agents, games, 2, names, workers=1)
    store.close()
    assert stored_blocks == [(0, size), (size, 2 * size)]
    with ResultStore(tmp_path / "cut.sqlite") as store:
        assert games_to_play(store, game, agents, games, 2, names) == games - 2 * size
        _, resumed = run_stored(store, game, agents, games, 2, names, workers=1)
    assert _without_seconds(resumed) == _without_seconds(whole)


def test_a_stored_run_lets_go_of_each_block_once_it_is_saved(tmp_path):
    game, agents, names = _match("sixbysix", 3)
    size = _block(game, agents, names, 3)
    store = ResultStore(tmp_path / "r.sqlite")
    real_put, saved = store.put_block, []

    def put_and_watch(config, start, stop, records, seconds):
        gc.collect()
        if saved:  # the block saved before this one: nobody holds its records any more
            assert not any(ref() for ref in saved[-1]), f"block {start - size}..{start} is still held"
        real_put(config, start, stop, records, seconds)
        saved.append([weakref.ref(r) for r in records])

    store.put_block = put_and_watch
    records, _ = run_stored(store, game, agents, 4 * size, 3, names, workers=1)
    assert len(saved) == 4 and [r.index for r in records] == list(range(4 * size))  # read back from the store
    store.close()


def test_record_round_trip_and_keys():
    record = runner.GameRecord(4, 1, 2, ("a", "b"), (1,), False, 12, {"x": [1, 2], "y": {"3": 4, "10": 5, "25": 6}})
    assert decode_record(4, encode_record(record)) == record
    assert list(decode_record(4, encode_record(record)).stats["y"]) == ["3", "10", "25"]  # the engine's order
    game, _, names = _match("blockd", 2)
    key = config_key(game, names, 1, True)
    assert key.id() == config_key(game, names, 1, True).id()
    assert key.id() != config_key(game, names, 2, True).id()
    flat = engines.make_game(load("blockd-flat"), 2)
    assert config_key(flat, names, 1, True).id() != key.id()
    assert config_key(flat, names, 1, True).variant == "blockd-flat"


def test_a_file_that_is_not_a_store_is_refused_untouched(tmp_path):
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"this is not a database at all" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a usable results store"):
        ResultStore(path)
    assert path.read_bytes() == before


def test_a_store_of_another_version_is_moved_aside(tmp_path):
    path = tmp_path / "r.sqlite"
    ResultStore(path).close()
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE meta SET value = ? WHERE name = 'schema'", (str(SCHEMA_VERSION + 7),))
    db.close()
    lines = []
    with ResultStore(path, notice=lines.append) as store:
        assert store.db.execute("SELECT value FROM meta WHERE name = 'schema'").fetchone()[0] == str(SCHEMA_VERSION)
    assert len(lines) == 1 and "moved to r.sqlite.old" in lines[0]
    assert (tmp_path / "r.sqlite.old").exists()
