"""`boardlab export tts GAME`: the game's components as a Tabletop Simulator saved object;
`boardlab export cards GAME`: its deck as a card list (CSV)."""

from __future__ import annotations

import argparse
from pathlib import Path

from boardlab.arguments import game_definition
from boardlab.layouts import BoardlabError, game_ids, game_part

#: where files go without --out; GAME (or the variant's name) is appended
DEFAULT_OUT = Path("build") / "tts"

#: the command's line in `boardlab --help`
HELP = "export a game for a virtual tabletop (Tabletop Simulator), or its deck as a card list"


def games_with_export() -> list[str]:
    return [g for g in game_ids("print") if hasattr(game_part(g, "print"), "tts_box")]


def games_with_card_lists() -> list[str]:
    return [g for g in game_ids() if hasattr(game_part(g, "definition"), "card_list")]


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("export", help=HELP,
                              description="Write a game's components for a virtual tabletop.")
    formats = p.add_subparsers(dest="format", metavar="FORMAT", parser_class=type(p))
    tts = formats.add_parser(
        "tts", help="Tabletop Simulator saved object",
        description="Write a Tabletop Simulator saved object: GAME.json (a bag with the decks, board, tiles, "
                    "tokens, blocks and dice) and its images (deck sheets of at most 10 x 7 cards with the hidden "
                    "card slot, backs, boards, pieces), drawn as the print files are and rasterised by PDFium. "
                    "Copy the folder's files into TTS's Saves/Saved Objects folder to load it.")
    tts.add_argument("game", metavar="GAME", help=f"one of {', '.join(games_with_export())}")
    tts.add_argument("--variant", metavar="V", help="a variant file, or the name of one in layouts/variants/")
    tts.add_argument("--out", metavar="DIR", type=Path,
                     help="output folder (default: build/tts/GAME; with --variant build/tts/VARIANT, as print does)")
    tts.add_argument("--relative", action="store_true",
                     help="name the images by file name alone (to replace with their addresses once uploaded) "
                          "instead of file:/// paths")
    tts.add_argument("--base-url", metavar="URL",
                     help="name the images by URL + file name: where you upload the folder's files (an http or "
                          "https address), so that the save can be shared with remote players")
    tts.set_defaults(run=run)
    cards = formats.add_parser(
        "cards", help="the deck as a card list (CSV)",
        description="Print the deck as a card list on standard output, one row a kind of card, in the CSV form "
                    "a definition's card_list names (a generated deck written out card by card): save it beside "
                    "a variant, edit the rows and name it there to add or take out single cards.")
    cards.add_argument("game", metavar="GAME", help=f"one of {', '.join(games_with_card_lists())}")
    cards.add_argument("--variant", metavar="V", help="a variant file, or the name of one in layouts/variants/")
    cards.set_defaults(run=run_cards)
    p.set_defaults(run=lambda args: _no_format())


def _no_format() -> int:
    raise BoardlabError("give a format: tts or cards (see boardlab export --help)")


def run_cards(args: argparse.Namespace) -> int:
    from boardlab.layouts.loader import card_list_csv

    definition = game_definition(args.game, args.variant)
    module = game_part(args.game, "definition")
    if not hasattr(module, "card_list"):
        raise BoardlabError(f"{args.game} has no deck to list (games with one: {', '.join(games_with_card_lists())})")
    print(card_list_csv(module.card_list(definition)), end="")
    return 0


def run(args: argparse.Namespace) -> int:
    from boardlab.commands.print import default_out
    from boardlab.printkit.output import write_rendered
    from boardlab.printkit.tts import DPI, file_urls, render

    base_url = args.base_url
    if base_url is not None:
        from urllib.parse import urlparse

        parsed = urlparse(base_url)
        if args.relative:
            raise BoardlabError("give --relative or --base-url, not both")
        if parsed.scheme not in ("http", "https") or not parsed.netloc or any(c.isspace() for c in base_url) \
                or parsed.query or parsed.fragment:
            raise BoardlabError(f"--base-url '{base_url[:80]}' is not an http(s) address of a folder "
                                f"(say https://example.org/tts/GAME/)")
    definition = game_definition(args.game, args.variant)
    module = game_part(args.game, "print")
    if not hasattr(module, "tts_box"):
        raise BoardlabError(f"{args.game}: its print module offers no Tabletop Simulator export "
                            f"(games with one: {', '.join(games_with_export())})")
    out_dir = args.out if args.out is not None else default_out(definition, DEFAULT_OUT)
    if out_dir.exists() and not out_dir.is_dir():
        raise BoardlabError(f"{out_dir} exists and is not a folder")
    files = render(definition.game.id, definition.game.name, module.tts_box(definition),
                   file_urls(out_dir, args.relative, base_url))
    write_rendered(files, out_dir)
    images = sum(1 for name in files if name.endswith(".png"))
    print(f"{definition.game.name}: {definition.game.id}.json and {images} PNG ({DPI} dpi) in {out_dir}")
    if base_url is not None:
        print(f"upload every file of {out_dir} but {definition.game.id}.json to {base_url}, then share "
              f"{definition.game.id}.json")
    return 0
