"""`read_bounded` (common/files.py): a user's file read only when it is a regular file within a size,
with one `UnreadableFile` error saying why not, whatever the reason."""

from __future__ import annotations

import os
import threading

import pytest

from boardlab.common.files import FOLDER, NO_SUCH_FILE, UnreadableFile, read_bounded


def test_a_file_at_the_limit_is_read_and_one_byte_more_is_refused(tmp_path):
    path = tmp_path / "list.csv"
    path.write_bytes(b"a" * 99 + b"\n")
    assert read_bounded(path, 100) == "a" * 99 + "\n"
    assert read_bounded(path, 100, encoding=None) == b"a" * 99 + b"\n"
    with pytest.raises(UnreadableFile) as refused:
        read_bounded(path, 99, shown="list.csv")
    assert str(refused.value) == "list.csv is larger than 99 bytes"
    assert (refused.value.reason, refused.value.line) == ("is larger than 99 bytes", None)


@pytest.mark.parametrize("make, message, reason", [
    (lambda folder: folder / "gone.csv", "no such file gone.csv", NO_SUCH_FILE),
    (lambda folder: folder, "gone.csv is a folder, not a file", FOLDER),
])
def test_a_missing_file_and_a_folder_are_one_error_each(tmp_path, make, message, reason):
    with pytest.raises(UnreadableFile) as refused:
        read_bounded(make(tmp_path), 100, shown="gone.csv")
    assert (str(refused.value), refused.value.reason, refused.value.line) == (message, reason, None)


def test_a_fifo_and_a_device_are_refused_without_being_read(tmp_path):
    """Opening a FIFO to read waits for a writer for ever, reading /dev/zero never ends: neither is read."""
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    answers: list[str] = []

    def read_it() -> None:
        for path in (fifo, "/dev/zero"):
            try:
                read_bounded(path, 100)
            except UnreadableFile as err:
                answers.append(err.reason)

    reader = threading.Thread(target=read_it, daemon=True)
    reader.start()
    reader.join(timeout=120)  # generous: the answer comes at once unless the open blocks for ever
    assert answers == ["is not a regular file", "is not a regular file"]


def test_bytes_that_are_not_text_name_their_line(tmp_path):
    path = tmp_path / "list.csv"
    path.write_bytes(b"name,count\nstar,3\nm\xe9teor,2\n")
    with pytest.raises(UnreadableFile) as refused:
        read_bounded(path, 100, shown="list.csv")
    assert str(refused.value) == "list.csv is not UTF-8 text (line 3)"
    assert refused.value.line == 3
    assert read_bounded(path, 100, encoding="latin-1").splitlines()[2] == "méteor,2"
    assert read_bounded(path, 100, encoding=None) == path.read_bytes()  # bytes: never decoded


def test_a_byte_order_mark_is_dropped_with_utf_8_sig(tmp_path):
    path = tmp_path / "list.csv"
    path.write_bytes(b"\xef\xbb\xbfname\n")
    assert read_bounded(path, 100, encoding="utf-8-sig") == "name\n"
    assert read_bounded(path, 100) == "\ufeffname\n"
    path.write_bytes(b"\xef\xbb\xbfna\n\xef\xbb")  # a mark cut short on line 2
    with pytest.raises(UnreadableFile, match=r"list.csv is not UTF-8 text \(line 2\)"):
        read_bounded(path, 100, shown="list.csv", encoding="utf-8-sig")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_a_file_that_cannot_be_read_says_so(tmp_path):
    path = tmp_path / "secret.csv"
    path.write_text("x\n")
    path.chmod(0)
    with pytest.raises(UnreadableFile, match="secret.csv cannot be read: Permission denied"):
        read_bounded(path, 100, shown="secret.csv")
