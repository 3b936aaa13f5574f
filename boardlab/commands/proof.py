"""`boardlab proof GAME`: one contact sheet PDF of every distinct face and back, with its name and count.

The file goes beside the print files (build/print/GAME/GAME-proof-PAPER.pdf, a variant's in its own
folder; `--out` elsewhere), written whole or not at all.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from boardlab.arguments import add_game_arguments, game_definition
from boardlab.layouts import print_conventions
from boardlab.common.notes import note

#: the command's line in `boardlab --help`
HELP = "a proof sheet of every face and back (PDF)"


def register(subparsers: argparse._SubParsersAction) -> None:
    conventions = print_conventions()
    p = subparsers.add_parser("proof", help=HELP,
                              description="Write one contact sheet PDF of every distinct card face, back, board "
                                          "and piece of a game, each with the name of its SVG file and how many "
                                          "the game has: the review to make before printing.")
    add_game_arguments(p, "print")
    p.add_argument("--paper", choices=tuple(conventions.papers), metavar="PAPER",
                   help=f"paper size: {', '.join(conventions.papers)} (default: the game's [print] paper)")
    p.add_argument("--lang", metavar="LANG",
                   help="the language of the sheet: one of the definition's [rulebook] languages, or 'all' for "
                        "each of them (default: the first)")
    p.add_argument("--out", metavar="DIR", type=Path,
                   help="output folder (default: that of `boardlab print`, build/print/GAME or build/print/VARIANT; "
                        "another language than the first goes to its subfolder LANG)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from boardlab.commands.print import default_out, languages_of
    from boardlab.layouts.terms import speaking, term
    from boardlab.printkit.marks import footer_date
    from boardlab.printkit.output import write_rendered
    from boardlab.printkit.pages import PrintOptions
    from boardlab.printkit.pdf import render_pdf
    from boardlab.printkit.proof import proof_file

    definition = game_definition(args.game, args.variant)
    footer_date()  # a bad SOURCE_DATE_EPOCH is refused before anything is drawn
    languages = languages_of(definition, args.lang)
    first = list(definition.rulebook.languages)[0]
    conventions = print_conventions()
    options = PrintOptions(args.paper or definition.print.paper, conventions.duplex, conventions.layout)
    for language in languages:
        with speaking(language, definition):
            out = args.out if args.out is not None else default_out(definition)
            out = out if language == first else out / language
            sheet, faces = proof_file(definition, options)
            [path] = write_rendered({f"{sheet.name}.pdf": render_pdf(sheet)}, out)
            note(term("proof.written", game=definition.game.name, n=faces, path=path))
    return 0
