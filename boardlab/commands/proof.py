"""`boardlab proof GAME`: one contact sheet PDF of every distinct face and back, with its name and count.

The file goes beside the print files (build/print/GAME/GAME-proof-PAPER.pdf, a variant's in its own
folder; `--out` elsewhere), written whole or not at all.
"""

from __future__ import annotations

import argparse

from boardlab.arguments import add_game_arguments, add_print_arguments, game_definition
from boardlab.layouts import print_conventions
from boardlab.common.notes import note

#: the command's line in `boardlab --help`
HELP = "a proof sheet of every face and back (PDF)"


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("proof", help=HELP,
                              description="Write one contact sheet PDF of every distinct card face, back, board "
                                          "and piece of a game, each with the name of its SVG file and how many "
                                          "the game has: the review to make before printing.")
    add_game_arguments(p, "print")
    add_print_arguments(p, "the sheet")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from boardlab.commands.print import language_outputs
    from boardlab.layouts.terms import speaking, term
    from boardlab.printkit.marks import footer_date
    from boardlab.printkit.output import write_rendered
    from boardlab.printkit.pages import PrintOptions
    from boardlab.printkit.pdf import render_pdf
    from boardlab.printkit.proof import proof_file

    definition = game_definition(args.game, args.variant)
    footer_date()  # a bad SOURCE_DATE_EPOCH is refused before anything is drawn
    conventions = print_conventions()
    options = PrintOptions(args.paper or definition.print.paper, conventions.duplex, conventions.layout)
    for language, out in language_outputs(args, definition):
        with speaking(language, definition):
            sheet, faces = proof_file(definition, options)
            [path] = write_rendered({f"{sheet.name}.pdf": render_pdf(sheet)}, out)
            note(term("proof.written", game=definition.game.name, n=faces, path=path))
    return 0
