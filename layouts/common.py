"""Sections every game definition shares: game facts, colours, print settings, rulebook."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from boardlab.layouts.art import Art, appearance
from boardlab.layouts.errors import BoardlabError
from boardlab.layouts.faces import RegionSpec
from boardlab.layouts.schema import FrozenDict, Report, limits, loaded

#: Symbols the drawing code knows how to draw as vector art.  A definition may use only these.
SYMBOLS = frozenset({
    "star", "stop", "cross", "x", "slider", "hoops",
    "circle", "square", "triangle", "diamond", "hexagon", "pentagon", "heart", "ring",
})

HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class GameInfo:
    """Facts about the game as a product."""

    id: str  # the game's id in commands and file names (`boardlab report ID`); a variant keeps its game's
    name: str  # the game's name as the rulebook, the reports and the print files write it
    version: str  # the rules' version, printed in every footer
    summary: str  # one sentence: what the game is (`boardlab list` prints it)
    min_players: int = field(metadata=limits(min=1, max=12))  # the fewest players the game is for
    max_players: int = field(metadata=limits(min=1, max=12))  # the most players the game is for
    minutes: int = field(metadata=limits(min=1, max=600))  # the playing time printed on the box and rulebook
    #: where `minutes` comes from (the game's own rules or box); empty: no source states a playing time,
    #: so `minutes` is the designer's target, and reports call it "the target time", never "stated"
    minutes_source: str = ""
    #: what the definition decides for want of a source (printed at the head of every report)
    assumptions: tuple[str, ...] = ()

    def check_players(self, players: int) -> int:
        """`players` when the game allows that many (the one player-range check).

        :raises BoardlabError: when it does not.
        """
        if not self.min_players <= players <= self.max_players:
            raise BoardlabError(f"{self.name} is for {self.min_players} to {self.max_players} players, not {players}")
        return players


@dataclass(frozen=True)
class Analysis:
    """How reports and `boardlab compare` model and judge the game (not a rule)."""

    agent: str = "random"  # the agent seated everywhere: one that plays the game as people would
    #: the agent of the reports' skilled players (e.g. "mcts-256"); unset: the strongest level the
    #: report's skill ladder reached
    skilled_agent: str | None = None
    #: table time of one turn, for table minutes (a game counted in rounds states `seconds_per_round`)
    seconds_per_turn: float | None = field(default=None, metadata=limits(min=1, max=3600))
    #: the smallest change of a win share that matters to the designer (0.05: 5 points); a test that
    #: could not detect it reads "too few games to tell"
    difference: float = field(default=0.05, metadata=limits(min=0.005, max=0.5))
    #: the largest share of games stopped at the turn or round cap that a length or a table time may
    #: rest on: above it `tune` and `sweep` count no length or minutes goal as met (0.05: 5%)
    max_capped: float = field(default=0.05, metadata=limits(min=0, max=1))
    #: the largest share of drawn games (no single winner) that is no problem (0.10: 10%)
    max_draws: float = field(default=0.10, metadata=limits(min=0, max=1))
    #: CPU minutes `boardlab report` may take unless its `--budget` says: each phase is estimated
    #: from a probe and sized to fit, and the report says what the budget bought and left out
    report_cpu_minutes: float = field(default=10.0, metadata=limits(min=0.1, max=10_000))
    #: CPU minutes `boardlab sweep` may take unless its `--budget` says (games per point sized to fit)
    sweep_cpu_minutes: float = field(default=10.0, metadata=limits(min=0.1, max=10_000))
    #: CPU minutes `boardlab tune` may take unless its `--budget` says (its race and confirmation)
    tune_cpu_minutes: float = field(default=10.0, metadata=limits(min=0.1, max=10_000))


@dataclass(frozen=True)
class Colour:
    """A named colour: its ink, a letter for text forms and a symbol for greyscale play."""

    hex: str  # the ink, "#rrggbb"
    letter: str  # one letter naming the colour in position files and text boards
    symbol: str  # the mark printed with the colour, so that the game plays in greyscale
    label: str  # how the rulebook and reports name it, e.g. "red"


@dataclass(frozen=True)
class PrintSettings:
    """How the printkit lays out this game's components (sizes in millimetres)."""

    card: str | tuple[float, float]  # a preset name from layouts/print.toml or [width, height]
    bleed: float = field(metadata=limits(min=0, max=10))  # printed past the cut line on every side (mm)
    safe: float = field(metadata=limits(min=0, max=20))  # margin inside the cut line that no text crosses (mm)
    corner_radius: float = field(metadata=limits(min=0, max=10))  # rounded corners of the cut outline (mm)
    paper: str  # the default paper: a name from layouts/print.toml (`print --paper` overrides it)
    back_colour: str  # the colour (a name from [colours]) of the card backs
    ink_colour: str  # the colour of text and lines
    paper_colour: str  # the colour of the paper the faces are printed on
    #: blank paper between neighbouring cards' bleeds on a card sheet (mm); unset: print.toml's
    #: [sheet] gutter.  With a gutter no two cards share a cut line and the cut marks start
    #: outside the bleed.  Left out of the definition hash while unset (it changes no rule)
    gutter: float | None = field(default=None, kw_only=True, metadata={**limits(min=0, max=30), "hashed_when_set": True})


@dataclass(frozen=True)
class Rulebook:
    """The rulebook: its languages (text in layouts/rulebooks/GAME.LANG.md) and the players' age."""

    #: the rulebook's languages, first the one the outputs use by default (`--lang` picks another)
    languages: tuple[Literal["es", "en"], ...] = field(metadata=limits(min=1))
    age: int = field(metadata=limits(min=3, max=99))  # the youngest players the game is for


@dataclass(frozen=True)
class MeasuredPace:
    """Seconds of table time per turn or round measured from logged playtests (not a rule: set by
    `boardlab.analysis.playtests.with_measured_pace`, never read from TOML, not in the definition hash)."""

    players: int | None  # the player count it was measured at; None: every count (a pace per turn)
    seconds: float
    low: float  # its 95% interval
    high: float
    games: int  # the playtests it was measured from


@dataclass(frozen=True)
class GameDefinition:
    """What every game's `Definition` holds (each game's module subclasses it and adds its own
    sections).  `variant` and `source` are set by the loader, not written in the TOML."""

    game: GameInfo
    colours: dict[str, Colour]
    rulebook: Rulebook
    if TYPE_CHECKING:
        #: every game's `Definition` declares its [print] table (a PrintSettings, or a game's subclass
        #: of it) among its own sections; declared here for the type checker only, so that code drawing
        #: any game reads it typed (a field here would move it before the game's own fields)
        print: PrintSettings
    #: this definition's own words in other languages, `[terms.es]` `purple = "morado"`: a new colour's or
    #: master's name, so that a variant never needs layouts/terms/ edited; they add to (and win over) those tables
    terms: dict[str, dict[str, str]] = field(default_factory=dict, kw_only=True)
    #: the designer's own images on the components (layouts/art.py); how the game looks, not how it plays
    art: Art = field(default_factory=Art, kw_only=True, metadata=appearance())
    #: where the printed faces put their title, art, text and indices: the layout file's regions
    #: (layouts/faces/GAME.toml, or `[layout] file`) with this table's own keys over them
    #: (layouts/faces.py); the look of the print files only, so left out of the definition hash
    layout: dict[str, dict[str, RegionSpec]] = field(default_factory=dict, kw_only=True, metadata=appearance())
    #: the designer's own icons, `logo = "art/logo.svg"` (an SVG beside the definition), written :logo: in
    #: card text, player aids and rulebooks like the built-in symbols (layouts/icons.py)
    icons: dict[str, str] = field(default_factory=dict, kw_only=True, metadata=appearance())
    variant: str = field(default="baseline", kw_only=True, metadata=loaded())  # "baseline" or the variant's name
    source: str = field(default="", kw_only=True, metadata=loaded())  # the file it was loaded from
    #: paces measured from playtests, which replace the stated one for table minutes
    measured_paces: tuple[MeasuredPace, ...] = field(default=(), kw_only=True, metadata=loaded())
    #: every image the definition names, resolved and checked: key path -> layouts.art.Placement
    images: dict = field(default_factory=FrozenDict, kw_only=True, metadata=loaded())

    def measured_pace(self, players: int | None) -> MeasuredPace | None:
        """The measured pace for `players` (one measured at that count, else one for every count), or None."""
        found = {p.players: p for p in self.measured_paces}
        return found.get(players) if players in found else found.get(None)


def check_colour_palette(colours: Mapping[str, Colour], report: Report) -> None:
    """Every palette entry has a #rrggbb ink, a one-character letter and a known symbol."""
    letters: dict[str, str] = {}
    for name, colour in colours.items():
        if not HEX_COLOUR.match(colour.hex):
            report(("colours", name, "hex"), f'not a colour "{colour.hex}"', 'write "#rrggbb", e.g. "#c0392b"')
        if len(colour.letter) != 1 or not colour.letter.isalpha():
            report(("colours", name, "letter"), f'"{colour.letter}" is not one letter', "a single letter A-Z")
        elif colour.letter.upper() in letters:
            report(("colours", name, "letter"), f'letter "{colour.letter}" is already used by {letters[colour.letter.upper()]}',
                   "each colour its own letter")
        else:
            letters[colour.letter.upper()] = name
        if colour.symbol not in SYMBOLS:
            report(("colours", name, "symbol"), f'unknown symbol "{colour.symbol}"', ", ".join(sorted(SYMBOLS)))


def check_colour_ref(colours: Mapping[str, Colour], name: str, path: tuple, report: Report) -> None:
    if name not in colours:
        report(path, f'unknown colour "{name}"', "colours defined: " + ", ".join(colours))


def check_print(settings: PrintSettings, colours: Mapping[str, Colour], presets: PrintConventions, report: Report) -> None:
    if isinstance(settings.card, str) and settings.card not in presets.card_sizes:
        report(("print", "card"), f'unknown card size "{settings.card}"',
               "presets: " + ", ".join(presets.card_sizes) + ", or [width, height] in mm")
    if isinstance(settings.card, tuple) and min(settings.card) <= 0:
        report(("print", "card"), "card sides must be positive", "[width, height] in mm")
    if settings.paper not in presets.papers:
        report(("print", "paper"), f'unknown paper "{settings.paper}"', ", ".join(presets.papers))
    for key in ("back_colour", "ink_colour", "paper_colour"):
        check_colour_ref(colours, getattr(settings, key), ("print", key), report)


@dataclass(frozen=True)
class SheetSettings:
    margin: float = field(metadata=limits(min=0, max=30))
    #: how close to the paper's edge a cut mark may run (a thin line in the margin: a printer
    #: that cannot reach it loses a piece of a mark, never a card)
    mark_margin: float = field(metadata=limits(min=0, max=30))
    #: the default blank gap between neighbouring cards' bleeds (a game's print.gutter overrides it)
    gutter: float = field(metadata=limits(min=0, max=30))
    cut_mark_length: float = field(metadata=limits(min=0, max=20))
    cut_mark_offset: float = field(metadata=limits(min=0, max=10))
    calibration_bar: float = field(metadata=limits(min=10, max=150))
    tile_overlap: float = field(metadata=limits(min=0, max=50))
    footer_size: float = field(metadata=limits(min=4, max=14))
    poster_paper: str  # a paper name from [papers]: the one-page version of a tiled board
    aid: tuple[float, float]  # a player aid card, width and height: four to an A4 or Letter page


@dataclass(frozen=True)
class PrintConventions:
    """layouts/print.toml: paper sizes, card presets and sheet conventions (millimetres)."""

    papers: dict[str, tuple[float, float]]
    card_sizes: dict[str, tuple[float, float]]
    sheet: SheetSettings
    duplex: Literal["long", "short"]
    layout: Literal["duplex", "gutterfold"]
    #: print-on-demand bleed presets: name -> bleed in mm round every card face (`print --pod NAME`)
    pod_bleeds: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class StandeeSize:
    """A folding paper standee (printkit/standees.py): one strip of base, front, back, base.

    `width` and `height` are those of the standing figure; `base` is the depth of each of the
    two base flaps that fold out to make it stand.
    """

    width: float = field(metadata=limits(min=5, max=150))  # the standing figure's width (mm)
    height: float = field(metadata=limits(min=5, max=200))  # the standing figure's height (mm)
    base: float = field(metadata=limits(min=3, max=60))  # the depth of each base flap (mm)
