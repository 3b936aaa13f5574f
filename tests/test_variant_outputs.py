"""A variant's outputs are the variant's: its own folder, and its name on every cover and footer."""

from __future__ import annotations

import re
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
        pages = [page.extract_text() for page in PdfReader(pdf).pages]
        assert all(variant in page for page in pages), pdf.name  # every page's footer names the variant
        sheets = [line for page in pages for line in page.splitlines() if f"{pdf.name} · " in line]
        assert all(re.search(rf"· (variant|variante) {variant} ·", line) for line in sheets), pdf.name
        base_pages = [page.extract_text() for page in PdfReader(tmp_path / "b" / pdf.name).pages]
        assert not any(variant in page for page in base_pages)
    cover = _text(next(p for p in pdfs if "-cover-" in p.name))
    assert any(re.match(rf"(Variant|Variante) {variant}:", line) for line in cover)


BLIND_FOUR = '''extends = "blockd"
[board]
rows = 6
columns = 4
[cards]
values = [1, 2, 3, 4]
blind = 4
'''
SIX_BY_SIX = '''extends = "blockd"
[game]
max_players = 3
[board]
rows = 6
columns = 6
[cards]
suits = ["red", "blue", "green"]
values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
blind = 3
'''


@pytest.mark.parametrize("name, text", [("blockd-blind-four", BLIND_FOUR), ("blockd-six", SIX_BY_SIX)])
def test_blockd_variants_at_the_schemas_limits_build_every_output(tmp_path, monkeypatch, capsys, name, text):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOARDLAB_CACHE", str(tmp_path / "cache"))
    variant = tmp_path / f"{name}.toml"
    variant.write_text(text)
    assert main(["check", str(variant)]) == 0
    assert main(["print", "blockd", "--variant", str(variant)]) == 0
    assert main(["rulebook", "blockd", "--variant", str(variant)]) == 0
    assert main(["tables", "blockd", "--variant", str(variant), "--deals", "2", "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["simulate", "blockd", "--variant", str(variant), "--games", "4", "--workers", "1", "--json"]) == 0
    import json
    summary = json.loads(capsys.readouterr().out)
    assert summary["variant"] == name and summary["games"] == 4 and summary["agents"] == ["random"] * summary["players"]
    folder = tmp_path / "build" / "print" / name
    assert {p.name for p in folder.glob("blockd-rulebook-*.pdf")} == {"blockd-rulebook-es-a4.pdf", "blockd-rulebook-en-a4.pdf"}
    blind = int(text.split("blind = ")[1].split()[0])
    svgs = {p.stem for p in folder.rglob("*.svg")}
    assert {"blind"} | {f"blind-{k}" for k in range(2, blind + 1)} <= svgs
    assert f"blind-{blind + 1}" not in svgs


def test_a_new_colour_without_a_spanish_word_is_refused_at_its_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    variant = tmp_path / "links-teal.toml"
    variant.write_text('extends = "links"\n\n[colours.teal]\nhex = "#008080"\nletter = "T"\nsymbol = "star"\n'
                       'label = "teal"\n\n[deck]\nend_colours = ["red", "blue", "green", "teal"]\n')
    assert main(["check", variant.name]) == 2
    err = capsys.readouterr().err
    assert 'links-teal.toml:7: colours.teal.label: no es word for colours.teal.label = "teal"' in err, err
    purple = variant.read_text().replace('"teal"', '"purple"').replace("teal", "purple")
    variant.write_text(purple)  # a colour the Spanish table names ("morado"): accepted
    assert main(["check", variant.name]) == 0
