"""`boardlab print GAME`: the print-and-play files of a game (PDF, and SVG per component).

Files go to build/print/GAME/ (a variant's to build/print/VARIANT/) unless --out says otherwise;
in a language other than the definition's first (`--lang`), to the subfolder LANG/ of that.  Everything is drawn first and then
moved into place, so a bad option or a component that does not fit the paper leaves the output
folder as it was.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardlab.arguments import add_game_arguments, add_print_arguments, game_definition, offset_mm
from boardlab.layouts import BoardlabError, game_part, print_conventions
from boardlab.common.notes import note

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition

#: where files go without --out; GAME is appended
DEFAULT_OUT = Path("build") / "print"

#: the command's line in `boardlab --help`
HELP = "print-and-play files (PDF and SVG)"


def register(subparsers: argparse._SubParsersAction) -> None:
    conventions = print_conventions()
    p = subparsers.add_parser("print", help=HELP,
                              description="Write a game's print-and-play files: one PDF per file "
                                          "and one SVG per component.")
    add_game_arguments(p, "print")
    p.add_argument("--duplex", choices=("long", "short"), default=conventions.duplex,
                   help=f"how back pages are flipped (default: {conventions.duplex})")
    p.add_argument("--layout", choices=("duplex", "gutterfold"), default=conventions.layout,
                   help=f"backs on their own pages or folded beside the fronts (default: {conventions.layout})")
    p.add_argument("--back-offset", metavar="X,Y", type=offset_mm, default=(0.0, 0.0),
                   help="move back pages X mm right and Y mm down, as seen from the front against the light, for a "
                        "printer that shifts its backs (measure with the cover's test square; default 0,0)")
    p.add_argument("--pod", metavar="PRESET", choices=tuple(conventions.pod_bleeds),
                   help="also write one PNG per card face at 300 dpi into pod-PRESET/, with the bleed of a "
                        f"print-on-demand shop: {', '.join(conventions.pod_bleeds)}")
    add_print_arguments(p, "every printed text (card faces, covers, footers)")
    p.set_defaults(run=run)


def default_out(definition: GameDefinition, base: Path = DEFAULT_OUT) -> Path:
    """build/print/GAME for the game's own definition; for a variant build/print/VARIANT, with the
    game id in front when the variant's name does not start with it (the baseline files stay);
    `base` instead of build/print for other outputs.

    >>> from boardlab.layouts import load
    >>> str(default_out(load("blockd"))), str(default_out(load("blockd-pawns-stack")))
    ('build/print/blockd', 'build/print/blockd-pawns-stack')
    """
    game, variant = definition.game.id, definition.variant
    if variant == "baseline":
        return base / game
    return base / (variant if variant.startswith(f"{game}-") else f"{game}-{variant}")


def languages_of(definition: GameDefinition, asked: str | None) -> list[str]:
    """The languages a print run writes: the definition's first, one it lists, or all of them.

    :raises BoardlabError: for a language the definition does not list.
    """
    have = list(getattr(getattr(definition, "rulebook", None), "languages", ()) or ("en",))
    if asked is None:
        return have[:1]
    if asked == "all":
        return have
    if asked not in have:
        raise BoardlabError(f"{definition.game.name} has no language '{asked}' (languages: {', '.join(have)})")
    return [asked]


def language_outputs(args: argparse.Namespace, definition: GameDefinition) -> list[tuple[str, Path]]:
    """(language, output folder) for each language a command with `add_print_arguments` writes: the
    definition's first, the one --lang names or each of them ('all'); into --out, else `default_out`;
    a language other than the first into its subfolder LANG.

    >>> from boardlab.layouts import load
    >>> args = argparse.Namespace(lang="all", out=None)
    >>> [(language, str(out)) for language, out in language_outputs(args, load("blockd"))]
    [('es', 'build/print/blockd'), ('en', 'build/print/blockd/en')]

    :raises BoardlabError: for a language the definition does not list.
    """
    languages = languages_of(definition, getattr(args, "lang", None))
    first = list(getattr(getattr(definition, "rulebook", None), "languages", ()) or ("en",))[0]
    out = args.out if args.out is not None else default_out(definition)
    return [(language, out if language == first else out / language) for language in languages]


def run(args: argparse.Namespace) -> int:
    from boardlab.layouts.terms import speaking

    definition = game_definition(args.game, args.variant)
    for language, out in language_outputs(args, definition):
        with speaking(language, definition):
            code = run_language(args, definition, out)
        if code:
            return code
    return 0


def run_language(args: argparse.Namespace, definition: Any, out_dir: Path) -> int:
    # `definition`: a game's own Definition (each game's has its `print` settings)
    from boardlab.layouts.terms import language, plural, term
    from boardlab.printkit.marks import footer_date
    from boardlab.printkit.rulebook import player_aid_name, render_player_aid
    from boardlab.printkit.output import render_print_files, write_rendered
    from boardlab.printkit.pages import PrintOptions
    from boardlab.printkit.pictures import image_findings
    from boardlab.printkit.pod import DPI, face_images, with_pod_bleed

    footer_date()  # a bad SOURCE_DATE_EPOCH is refused before anything is drawn
    module = game_part(args.game, "print")
    options = PrintOptions(paper=args.paper or definition.print.paper, duplex=args.duplex, backs=args.layout,
                           back_offset=args.back_offset)
    if out_dir.exists() and not out_dir.is_dir():
        raise BoardlabError(f"{out_dir} exists and is not a folder")
    files = module.print_files(definition, options)
    # an image under 150 dpi where it is printed is refused, as `check` refuses it (before anything is written)
    low = [finding.line for finding in image_findings(definition, files) if finding.error]
    if low:
        raise BoardlabError(low[0])
    rendered = render_print_files(files)
    images = 0
    if args.pod is not None:  # one image per card face, drawn again with the shop's bleed
        pod_definition = with_pod_bleed(definition, args.pod, print_conventions())
        for print_file in module.print_files(pod_definition, options):
            if print_file.pages and print_file.pages[0].trim_box is not None:
                faces = face_images(print_file, f"pod-{args.pod}")
                images += len(faces)
                rendered.update(faces)
    # the player aid: the rulebook's quick reference on one page (none when the rulebook has none)
    aid = render_player_aid(definition, language(), options.paper)
    if aid is not None:
        rendered[f"{player_aid_name(definition.game.id, options.paper)}.pdf"] = aid
    written = write_rendered(rendered, out_dir)
    pdfs = [path for path in written if path.suffix == ".pdf"]
    svgs = sum(path.suffix == ".svg" for path in written)
    # what was written, in the run's language
    note(term("print.written", game=definition.game.name, pdfs=len(pdfs), svgs=svgs, folder=out_dir,
               pngs=term("print.pngs", n=images) if args.pod else ""))
    for print_file, path in zip(files, pdfs):
        note(term("print.file", path=path, title=print_file.title, pages=plural("print.pages", len(print_file.pages))))
    if aid is not None:
        note(term("print.aid", path=out_dir / f"{player_aid_name(definition.game.id, options.paper)}.pdf"))
    if args.pod is not None:
        note(term("print.pod", path=out_dir / f"pod-{args.pod}", dpi=DPI,
                   bleed=float(print_conventions().pod_bleeds[args.pod])))
    return 0
