"""A failed print run leaves every file already written exactly as it was."""

from __future__ import annotations

import hashlib
import os

import pytest

from boardlab.cli import main
from boardlab.layouts import BoardlabError, load
from boardlab.printkit import output
from boardlab.printkit.games import links
from boardlab.printkit.pages import PrintOptions


def digests(folder):
    return {p.relative_to(folder): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def printed(tmp_path):
    out = tmp_path / "out"
    assert main(["print", "links", "--out", str(out)]) == 0
    variant = tmp_path / "v.toml"
    variant.write_text('extends = "links"\n[colours.red]\nhex = "#00aa00"\n')
    return out, variant


def test_a_blocked_svg_folder_stops_the_run_before_anything_moves(printed, capsys):
    out, variant = printed
    for svg in (out / "svg").iterdir():
        svg.unlink()
    (out / "svg").rmdir()
    (out / "svg").write_text("in the way")
    before = digests(out)
    assert main(["print", "links", "--variant", str(variant), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "svg" in err[0]
    assert digests(out) == before


def test_a_failing_move_puts_back_the_files_already_replaced(printed, monkeypatch):
    out, variant = printed
    before = digests(out)
    real_replace = os.replace
    moved = []

    def flaky(src, dst):
        if ".boardlab-print-" in str(src) and ".previous" not in str(src) + str(dst):  # a new file moving in
            moved.append(dst)
            if len(moved) == 3:  # the third new file cannot be moved in
                raise PermissionError(13, "Permission denied", str(dst))
        return real_replace(src, dst)

    new = links.print_files(load(variant), PrintOptions("a4", "long", "duplex"))
    monkeypatch.setattr(output.os, "replace", flaky)
    with pytest.raises(BoardlabError, match="Permission denied"):
        output.write_print_files(new, out)
    assert len(moved) == 3
    assert digests(out) == before
    assert not [p for p in out.iterdir() if p.name.startswith(".boardlab-print-")]


@pytest.mark.parametrize("value", ["abc", "99999999999999999999", "-5", "1.5"])
def test_a_bad_source_date_epoch_is_one_line_and_writes_nothing(tmp_path, monkeypatch, capsys, value):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    assert main(["print", "links", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "SOURCE_DATE_EPOCH" in err[0]
    assert not (tmp_path / "out").exists()


def test_an_empty_source_date_epoch_means_no_date(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", " ")
    assert main(["print", "links", "--out", str(tmp_path / "out")]) == 0
