"""A variant carries its own words (`[terms.LANG]`): a new colour's name in each language, without
editing boardlab's layouts/terms/ tables."""

from __future__ import annotations

import pypdf

from boardlab.cli import main
from boardlab.layouts import load
from boardlab.layouts.terms import speaking, table, word

TEAL = '''extends = "blockd"

[colours.teal]
hex = "#00796b"
letter = "T"
symbol = "star"
label = "teal"

[cards]
suits = ["red", "blue", "green", "teal"]
'''
OWN = '\n[terms.es]\nteal = "verde azulado"\n'


def test_a_new_colour_without_its_word_is_refused_at_its_line(tmp_path, capsys):
    variant = tmp_path / "my-colour.toml"
    variant.write_text(TEAL)
    assert "teal" not in table("es")  # the shipped table does not know it: the variant must say it
    assert main(["check", str(variant)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"{variant}:7: colours.teal.label: no es word") and "[terms.es]" in line


def test_the_variant_s_own_word_is_used_in_its_language(tmp_path, capsys):
    variant = tmp_path / "my-colour.toml"
    variant.write_text(TEAL + OWN)
    assert main(["check", "--quiet", str(variant)]) == 0
    d = load(variant)
    assert d.terms == {"es": {"teal": "verde azulado"}}
    with speaking("es", d):
        assert word("teal") == "verde azulado" and word("red") == table("es")["red"]
    with speaking("es"):  # another definition's work never sees it
        assert word("teal") == "teal"
    assert main(["rulebook", "blockd", "--variant", str(variant), "--lang", "es", "--out", str(tmp_path / "out"),
                 "-q"]) == 0
    (pdf,) = (tmp_path / "out").glob("*.pdf")
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages)
    assert text.count("verde azulado") > 3 and "teal" not in text


def test_words_for_a_language_the_definition_does_not_speak_are_refused(tmp_path, capsys):
    variant = tmp_path / "my-colour.toml"
    variant.write_text(TEAL + OWN + '\n[terms.fr]\nteal = "bleu canard"\n')
    assert main(["check", str(variant)]) == 2
    err = capsys.readouterr().err
    assert f"{variant}:15: terms.fr: 'fr' is not one of the definition's languages" in err
