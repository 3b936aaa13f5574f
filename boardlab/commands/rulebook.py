"""`boardlab rulebook GAME`: the rulebook PDF of a game in each language, from its definition.

The text is layouts/rulebooks/GAME.LANG.md; the facts come from the definition (or variant),
the drawings from the game's print module and the appendix from its exact tables.  Files go to
build/print/GAME/GAME-rulebook-LANG-PAPER.pdf (a variant's to build/print/VARIANT/, beside its
print files) unless --out says otherwise; all are made before
any is written, so a mistake leaves the folder as it was.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from boardlab.arguments import add_game_arguments, game_definition
from boardlab.layouts import BoardlabError, print_conventions
from boardlab.common.notes import note

LANGUAGES = ("es", "en")

#: the command's line in `boardlab --help`
HELP = "the rulebook PDF (Spanish and English)"


def register(subparsers: argparse._SubParsersAction) -> None:
    papers = tuple(print_conventions().papers)
    p = subparsers.add_parser("rulebook", help=HELP,
                              description="Write a game's rulebook: its text in layouts/rulebooks/GAME.LANG.md "
                                          "filled with the definition's facts, with drawings of the components, "
                                          "a drawn setup, a quick reference page and the exact tables.")
    add_game_arguments(p, None)
    p.add_argument("--lang", choices=LANGUAGES, help="one language (default: every language of the definition)")
    p.add_argument("--paper", choices=papers, metavar="PAPER",
                   help=f"paper size: {', '.join(papers)} (default: the game's [print] paper)")
    p.add_argument("--out", metavar="DIR", type=Path,
                   help="output folder (default: build/print/GAME; with --variant build/print/VARIANT, beside the "
                        "variant's print files)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from boardlab.commands.print import default_out
    from boardlab.printkit.marks import footer_date
    from boardlab.printkit.output import write_rendered
    from boardlab.printkit.rulebook import render_rulebook, rulebook_name

    definition = game_definition(args.game, args.variant)
    footer_date()  # a bad SOURCE_DATE_EPOCH is refused before anything is made
    languages = [args.lang] if args.lang else list(definition.rulebook.languages)
    if args.lang and args.lang not in definition.rulebook.languages:
        raise BoardlabError(f"{definition.game.name} has no rulebook in '{args.lang}' "
                            f"(languages: {', '.join(definition.rulebook.languages)})")
    paper = args.paper or definition.print.paper
    out_dir = args.out if args.out is not None else default_out(definition)
    if out_dir.exists() and not out_dir.is_dir():
        raise BoardlabError(f"{out_dir} exists and is not a folder")
    rendered = {f"{rulebook_name(args.game, language, paper)}.pdf": render_rulebook(definition, language, paper)
                for language in languages}
    for path in write_rendered(rendered, out_dir):
        note(str(path))
    return 0
