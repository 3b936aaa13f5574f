"""A variant's outputs are the variant's: its own folder, and its name on every cover and footer."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from boardlab.cli import main


def _text(path: Path) -> list[str]:
    return [line for page in PdfReader(path).pages for line in page.extract_text().splitlines()]


def test_rulebook_of_a_variant_goes_beside_its_print_files(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    baseline = tmp_path / "build" / "print" / "links" / "links-rulebook-en-a4.pdf"
    assert main(["rulebook", "links", "--lang", "en"]) == 0
    before = baseline.read_bytes()
    assert main(["rulebook", "links", "--variant", "links-free-play", "--lang", "en"]) == 0
    assert main(["print", "links", "--variant", "links-free-play"]) == 0
    capsys.readouterr()
    assert baseline.read_bytes() == before  # the baseline's rulebook is left as it was
    folder = tmp_path / "build" / "print" / "links-free-play"
    rulebook = folder / "links-rulebook-en-a4.pdf"
    assert rulebook.exists() and (folder / "links-cover-a4.pdf").exists()
    assert any("links-free-play" in line for line in _text(rulebook))


@pytest.mark.parametrize("game, variant", [("blockd", "blockd-pawns-stack"), ("links", "links-free-play"),
                                           ("sixbysix", "sixbysix-house-bank"), ("deblockle", "deblockle-no-touching")])
def test_every_print_file_of_a_variant_names_it(tmp_path, capsys, game, variant):
    assert main(["print", game, "--variant", variant, "--out", str(tmp_path / "v")]) == 0
    assert main(["print", game, "--out", str(tmp_path / "b")]) == 0
    capsys.readouterr()
    pdfs = sorted((tmp_path / "v").glob("*.pdf"))
    assert pdfs and [p.name for p in pdfs] == [p.name for p in sorted((tmp_path / "b").glob("*.pdf"))]
    for pdf in pdfs:
        if pdf.name.endswith("-single.pdf"):
            continue  # one face per page for a print shop: no footer on any page, by design
        lines = _text(pdf)
        footers = [line for line in lines if f"{pdf.name} · " in line]
        assert footers and all(f"· variant {variant} ·" in line for line in footers), pdf.name
        base_lines = _text(tmp_path / "b" / pdf.name)
        assert not any("variant" in line for line in base_lines if f"{pdf.name} · " in line)
    cover = _text(next(p for p in pdfs if "-cover-" in p.name))
    assert any(line.startswith(f"Variant {variant}:") for line in cover)
