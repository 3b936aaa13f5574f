"""`boardlab watch`: a save of the definition rebuilds check, print and rulebook, one line each time."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from boardlab.commands.watch import watched_files

VARIANT = 'extends = "blockd"\n\n[rules]\nmax_turns = 300\n'


def _lines(stream, out: queue.Queue) -> None:
    for line in stream:
        out.put(line.rstrip("\n"))


def _next(lines: queue.Queue, timeout: float) -> str:
    try:
        return lines.get(timeout=timeout)
    except queue.Empty:
        raise AssertionError(f"no line from boardlab watch within {timeout} s") from None


def test_watched_files_are_the_chain_the_card_lists_and_the_rulebook_texts(tmp_path):
    (tmp_path / "deck.csv").write_text("kind,count\ncentral,1\n")
    (tmp_path / "mine.toml").write_text('extends = "links"\n[deck]\ncard_list = "deck.csv"\n')
    names = [p.name for p in watched_files("links", str(tmp_path / "mine.toml"))]
    assert names == ["mine.toml", "deck.csv", "links.toml", "links.es.md", "links.en.md"]


def test_the_images_a_definition_names_are_watched_too():
    """links-illustrated: its card list names an SVG per master and the compass, [art.back] the logo."""
    names = [p.name for p in watched_files("links", "links-illustrated")]
    assert names[:5] == ["links-illustrated.toml", "links-illustrated.csv", "links.toml", "links.es.md", "links.en.md"]
    assert sorted(names[5:]) == ["compass.svg", "logo.svg", "moon.svg", "mountain.svg", "sun.svg", "tree.svg"]


def test_a_saved_change_rebuilds_and_a_broken_one_says_where(tmp_path):
    variant = tmp_path / "blockd-watched.toml"
    variant.write_text(VARIANT)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "boardlab", "watch", "blockd", "--variant", variant.name,
                                "--interval", "0.2", "--rebuilds", "2"], cwd=tmp_path, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_lines, args=(process.stdout, lines), daemon=True).start()
    try:
        assert _next(lines, 300) == f"watching {variant.name} (Ctrl-C stops)"
        first = _next(lines, 300)
        folder = tmp_path / "build" / "print" / "blockd-watched"
        printed = len(list(folder.glob("*.pdf"))) - 2  # the two rulebooks beside the print files
        assert f"blockd-watched.toml: check ok; Blockd: {printed} PDF" in first and "2 rulebook PDF" in first, first
        cover = folder / "blockd-cover-a4.pdf"
        built = cover.stat().st_mtime_ns
        time.sleep(0.5)
        variant.touch()  # a save that changes nothing but the time
        second = _next(lines, 300)
        assert "(blockd-watched.toml changed): check ok" in second, second
        assert cover.stat().st_mtime_ns > built
        rebuilt = cover.read_bytes()
        time.sleep(0.5)
        variant.write_text(VARIANT.replace("max_turns = 300", "max_turns = 0"))
        third = _next(lines, 300)
        assert f"check failed: {variant.name}:4: rules.max_turns:" in third, third
        assert cover.read_bytes() == rebuilt  # nothing written from a refused definition
        assert process.wait(timeout=300) == 0  # --rebuilds 2: done
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
