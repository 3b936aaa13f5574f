"""Card sheets (geometry, backs, marks), the Blockd and Links decks, and `boardlab print`.

Card sizes are checked against layouts/print.toml and measured back out of the PDFs; counts
come from the definitions; a variant written to a temporary folder must change the print.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import sys
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.layouts import game_ids, game_part, load, print_conventions
from boardlab.printkit.draw import RecordingCanvas
from boardlab.printkit.games import blockd as blockd_print
from boardlab.printkit.games import links as links_print
from boardlab.printkit.output import render_print_files
from boardlab.printkit.pages import PrintOptions
from boardlab.printkit.pdf import render_pdf
from boardlab.layouts import registry
from boardlab.printkit.imposition import CardGeometry, impose_cards, plan_card_sheet
from boardlab.printkit.marks import FOOTER_GAP, MINIMUM_MARK, cut_marks, footer_height
from boardlab.layouts.errors import BoardlabError

from print_pdf_reading import open_pdf, page_geometry

CONVENTIONS = print_conventions()
OPTION_SETS = [PrintOptions(paper, duplex, backs) for paper in ("a4", "letter", "a3")
               for duplex, backs in (("long", "duplex"), ("short", "duplex"), ("long", "gutterfold"))]


def geometry_of(preset: str, bleed: float = 3.0, gutter: float = 0.0) -> CardGeometry:
    width, height = CONVENTIONS.card_sizes[preset]
    return CardGeometry(width, height, bleed, 3.0, 3.0, gutter)


def overlap(a, b) -> float:
    """Area shared by two (x, y, w, h) boxes."""
    dx = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    dy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(dx, 0) * max(dy, 0)


def touches(a, b, e: float = 1e-6) -> bool:
    """Whether two closed (x, y, w, h) boxes meet (a segment is a box of zero width)."""
    return a[0] <= b[0] + b[2] + e and b[0] <= a[0] + a[2] + e and a[1] <= b[1] + b[3] + e and b[1] <= a[1] + a[3] + e


def inside(inner, outer, tolerance=1e-9) -> bool:
    return (inner[0] >= outer[0] - tolerance and inner[1] >= outer[1] - tolerance
            and inner[0] + inner[2] <= outer[0] + outer[2] + tolerance
            and inner[1] + inner[3] <= outer[1] + outer[3] + tolerance)


# --- fitting: the planner against a brute-force search --------------------------------------------------------

def brute_force_cards_per_page(geometry: CardGeometry, paper: str, gutterfold: bool) -> int:
    """Try every grid, both orientations, separate or shared cuts per axis (always separate, by
    2 x bleed + gutter, with a gutter); keep the largest that leaves room for marks on every side
    (a mark starts past the cut line, past the bleed too with a gutter, is at least
    MINIMUM_MARK long and may use the margin down to mark_margin) and for the footer at top and
    bottom (the block is centred), or (not for gutterfold) room for the marks and a turned
    footer on both sides."""
    width, height = CONVENTIONS.papers[paper]
    margin = CONVENTIONS.sheet.margin
    mark = CONVENTIONS.sheet.cut_mark_offset + (geometry.bleed if geometry.gutter else 0) + MINIMUM_MARK
    side = max(0.0, mark - (margin - CONVENTIONS.sheet.mark_margin))
    footer = FOOTER_GAP + footer_height(CONVENTIONS)
    room_w, room_h = width - 2 * margin + 1e-9, height - 2 * margin + 1e-9
    best = 0
    for turned, shared_x, shared_y in itertools.product((False, True), repeat=3):
        if geometry.gutter and (shared_x or shared_y):
            continue
        w, h = (geometry.height, geometry.width) if turned else (geometry.width, geometry.height)
        for columns in range(1, 30):
            for rows in range(1, 30):
                if gutterfold and columns % 2:
                    continue
                gap_x = 0 if shared_x else 2 * geometry.bleed + geometry.gutter
                gap_y = 0 if shared_y else 2 * geometry.bleed + geometry.gutter
                block_w = columns * w + (columns - 1) * gap_x
                if gutterfold and shared_x:
                    block_w += 2 * geometry.bleed
                block_h = rows * h + (rows - 1) * gap_y
                bottom_footer = block_w + 2 * side <= room_w and block_h + 2 * (mark + footer) <= room_h
                side_footer = not gutterfold and block_w + 2 * (mark + footer) <= room_w and block_h + 2 * side <= room_h
                if bottom_footer or side_footer:
                    best = max(best, (columns // 2 if gutterfold else columns) * rows)
    return best


@pytest.mark.parametrize("preset", sorted(CONVENTIONS.card_sizes))
@pytest.mark.parametrize("paper", sorted(CONVENTIONS.papers))
@pytest.mark.parametrize("gutterfold", [False, True])
@pytest.mark.parametrize("gutter", [0.0, 2.0])
def test_planner_puts_as_many_cards_as_a_brute_force_search(preset, paper, gutterfold, gutter):
    geometry = geometry_of(preset, gutter=gutter)
    sheet_layout = plan_card_sheet(geometry, CONVENTIONS, paper, "gutterfold" if gutterfold else "duplex")
    assert sheet_layout.cards_per_page == brute_force_cards_per_page(geometry, paper, gutterfold)
    if gutter:
        assert not sheet_layout.shared_columns and not sheet_layout.shared_rows


def test_nine_poker_cards_on_a4_as_the_spec_says():
    sheet_layout = plan_card_sheet(geometry_of("poker"), CONVENTIONS, "a4")
    assert (sheet_layout.columns, sheet_layout.rows, sheet_layout.turned) == (3, 3, False)


def test_separate_bleed_where_it_fits_shared_cut_lines_where_it_does_not():
    # tarot cards (69.85 x 120.65) on A4: 2 x 2 with 6 mm gaps take 145.7 x 247.3 mm of 198 x 285
    tarot = plan_card_sheet(geometry_of("tarot"), CONVENTIONS, "a4")
    assert (tarot.columns, tarot.rows, tarot.shared_columns, tarot.shared_rows) == (2, 2, False, False)
    # poker on A4: 3 columns with gaps take 202.5 mm > 198 printable, so they share cut lines
    poker = plan_card_sheet(geometry_of("poker"), CONVENTIONS, "a4")
    assert (poker.columns, poker.shared_columns) == (3, True)


def test_a_card_bigger_than_the_paper_is_a_clear_error():
    with pytest.raises(BoardlabError, match="does not fit on a4"):
        plan_card_sheet(CardGeometry(300, 400, 3, 3, 3), CONVENTIONS, "a4")


def assert_marks_off_the_cards(marks, slots, paper_w: float, paper_h: float, geometry: CardGeometry) -> None:
    """Every cut mark: MINIMUM_MARK to cut_mark_length long, no nearer the paper's edge than
    mark_margin, touching no card (not even its cut line), and past every bleed with a gutter."""
    edge = CONVENTIONS.sheet.mark_margin
    assert marks
    for mark in marks:
        length = math.hypot(mark.x2 - mark.x1, mark.y2 - mark.y1)
        assert MINIMUM_MARK - 1e-9 <= length <= CONVENTIONS.sheet.cut_mark_length + 1e-9
        for x, y in ((mark.x1, mark.y1), (mark.x2, mark.y2)):
            assert inside((x, y, 0, 0), (edge, edge, paper_w - 2 * edge, paper_h - 2 * edge))
        box = (min(mark.x1, mark.x2), min(mark.y1, mark.y2), abs(mark.x2 - mark.x1), abs(mark.y2 - mark.y1))
        for slot in slots:
            assert not touches(box, slot.cut_box)
            if geometry.gutter:
                assert not touches(box, slot.bleed_box)


# --- the geometry of every slot ----------------------------------------------------------------------------

@pytest.mark.parametrize("preset", sorted(CONVENTIONS.card_sizes))
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: f"{o.paper}-{o.duplex}-{o.backs}")
@pytest.mark.parametrize("gutter", [0.0, 2.0])
def test_every_slot_has_the_preset_size_sits_inside_and_keeps_its_bleed_to_itself(preset, options, gutter):
    geometry = geometry_of(preset, gutter=gutter)
    sheet_layout, pages = impose_cards(23, geometry, CONVENTIONS, options)
    paper_w, paper_h = CONVENTIONS.papers[options.paper]
    margin = CONVENTIONS.sheet.margin
    printable = (margin, margin, paper_w - 2 * margin, paper_h - 2 * margin)
    for page in pages:
        for slot in page.printed:  # the cards and the spare blanks of the last sheet
            size = sorted(slot.cut_box[2:])
            assert size == pytest.approx(sorted((geometry.width, geometry.height)), abs=0.1)
            assert slot.rotation in ((90, 270) if sheet_layout.turned else (0, 180))
            assert inside(slot.cut_box, printable)
            assert inside(slot.cut_box, slot.bleed_box)
            assert inside(slot.bleed_box, (0, 0, paper_w, paper_h))
            # the bleed reaches `bleed` beyond the cut on every side it owns, never less than zero
            for other in page.printed:
                if other is not slot:
                    assert overlap(slot.bleed_box, other.cut_box) < 1e-9
        marks = cut_marks(sheet_layout, page.printed, CONVENTIONS, geometry.bleed)
        assert_marks_off_the_cards(marks, page.printed, paper_w, paper_h, geometry)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_pages_mirror_front_pages(duplex):
    geometry = geometry_of("poker")
    for paper in ("a4", "letter"):
        sheet_layout, pages = impose_cards(25, geometry, CONVENTIONS, PrintOptions(paper, duplex, "duplex"))
        paper_w, paper_h = CONVENTIONS.papers[paper]
        assert [p.kind for p in pages] == ["front", "back"] * (len(pages) // 2)
        for front_page, back_page in zip(pages[::2], pages[1::2]):
            backs = {slot.card: slot for slot in back_page.slots}
            assert sorted(backs) == sorted(slot.card for slot in front_page.slots)
            for front in front_page.slots:
                x, y, w, h = front.cut_box
                back = backs[front.card]
                # long edge: flipping about the vertical axis sends x to W - x; short edge: y to H - y
                expected = (paper_w - x - w, y, w, h) if duplex == "long" else (x, paper_h - y - h, w, h)
                assert back.cut_box == pytest.approx(expected, abs=1e-6)
                mirrored_bleed = front.bleed_box
                bx, by, bw, bh = mirrored_bleed
                expected_bleed = (paper_w - bx - bw, by, bw, bh) if duplex == "long" else (bx, paper_h - by - bh, bw, bh)
                assert back.bleed_box == pytest.approx(expected_bleed, abs=1e-6)


def test_long_edge_backs_reverse_the_column_order_and_short_edge_backs_the_row_order():
    geometry = geometry_of("poker")
    _, long_pages = impose_cards(9, geometry, CONVENTIONS, PrintOptions("a4", "long", "duplex"))
    _, short_pages = impose_cards(9, geometry, CONVENTIONS, PrintOptions("a4", "short", "duplex"))

    def grid(page):
        by_position = sorted(page.slots, key=lambda s: (round(s.cut_box[1], 3), round(s.cut_box[0], 3)))
        return [[s.card for s in by_position[r * 3:(r + 1) * 3]] for r in range(3)]
    assert grid(long_pages[0]) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert grid(long_pages[1]) == [[2, 1, 0], [5, 4, 3], [8, 7, 6]]
    assert grid(short_pages[1]) == [[6, 7, 8], [3, 4, 5], [0, 1, 2]]


def test_gutterfold_puts_each_back_beside_its_front_mirrored_across_the_fold_and_turned():
    geometry = geometry_of("poker")
    sheet_layout, pages = impose_cards(10, geometry, CONVENTIONS, PrintOptions("a4", "long", "gutterfold"))
    assert all(p.kind == "gutterfold" for p in pages)
    middle = sheet_layout.columns // 2
    fold = (sheet_layout.column_x[middle - 1] + sheet_layout.slot_width + sheet_layout.column_x[middle]) / 2
    for page in pages:
        fronts = {s.card: s for s in page.slots if s.side == "front"}
        backs = {s.card: s for s in page.slots if s.side == "back"}
        assert sorted(fronts) == sorted(backs)
        for card, front in fronts.items():
            x, y, w, h = front.cut_box
            assert x + w <= fold <= backs[card].cut_box[0]
            assert backs[card].cut_box == pytest.approx((2 * fold - x - w, y, w, h), abs=1e-6)
            assert (backs[card].rotation - front.rotation) % 360 in (0, 180)
            # turned half a turn relative to a plain mirror image (the spec's gutterfold)
            assert (backs[card].rotation + front.rotation) % 360 == 180


def mirrored(box, options, sheet_layout, paper_w, paper_h):
    """Where the back of a face in `box` lands: the flip of the paper, or the fold of a gutterfold sheet."""
    x, y, w, h = box
    if options.backs == "gutterfold":
        middle = sheet_layout.columns // 2
        fold = (sheet_layout.column_x[middle - 1] + sheet_layout.slot_width + sheet_layout.column_x[middle]) / 2
        return (2 * fold - x - w, y, w, h)
    return (paper_w - x - w, y, w, h) if options.duplex == "long" else (x, paper_h - y - h, w, h)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: f"{o.paper}-{o.duplex}-{o.backs}")
def test_the_last_sheets_empty_slots_hold_spare_blanks_with_backs_in_the_mirrored_slots(options):
    geometry = geometry_of("poker")
    per_page = plan_card_sheet(geometry, CONVENTIONS, options.paper, options.backs).cards_per_page
    paper_w, paper_h = CONVENTIONS.papers[options.paper]
    sheet_layout, pages = impose_cards(2 * per_page + 1, geometry, CONVENTIONS, options)  # one lone card on sheet 3
    sheets = [pages[i:i + 2] for i in range(0, len(pages), 2)] if options.backs == "duplex" else [[p] for p in pages]
    assert len(sheets) == 3
    assert all(not page.spares for sheet in sheets[:2] for page in sheet)
    last = [slot for page in sheets[-1] for slot in page.printed]
    real_fronts = [s for s in last if s.side == "front" and s.card >= 0]
    spare_fronts = [s for s in last if s.side == "front" and s.card < 0]
    spare_backs = [s for s in last if s.side == "back" and s.card < 0]
    assert [s.card for s in real_fronts] == [2 * per_page]
    assert len(spare_fronts) == len(spare_backs) == per_page - 1

    def rounded(box):
        return tuple(round(v, 6) for v in box)
    # the fronts, real and spare, take every slot of the grid once, in filling order
    every_slot = sorted(rounded(s.cut_box) for s in real_fronts + spare_fronts)
    grid = [(x, y, sheet_layout.slot_width, sheet_layout.slot_height) for x in sheet_layout.column_x
            for y in sheet_layout.row_y]
    if options.backs == "gutterfold":
        grid = [box for box in grid if box[0] < sheet_layout.column_x[sheet_layout.columns // 2]]
    assert every_slot == sorted(rounded(box) for box in grid)
    backs = sorted(rounded(s.cut_box) for s in spare_backs)
    assert backs == sorted(rounded(mirrored(s.cut_box, options, sheet_layout, paper_w, paper_h)) for s in spare_fronts)
    # turned like the real cards' faces on the same side
    real_back = next(s for s in last if s.side == "back" and s.card >= 0)
    assert {s.rotation for s in spare_fronts} == {real_fronts[0].rotation}
    assert {s.rotation for s in spare_backs} == {real_back.rotation}
    # a deck filling its sheets exactly gets no spare, and taken slots stay empty
    _, full = impose_cards(2 * per_page, geometry, CONVENTIONS, options)
    assert all(not page.spares and not page.free for page in full)
    _, some = impose_cards(per_page + 1, geometry, CONVENTIONS, options, taken=frozenset({1, per_page - 1}))
    assert sum(len(page.spares) for page in some) == 2 * (per_page - 3)


def poker_deck_with_pieces(count: int, pieces: int):
    """A poker deck of `count` cards on A4 (9 a sheet) whose empty slots offer room to `pieces`
    20 mm squares, as a game with small pieces does."""
    from boardlab.printkit.decks import Card, SheetStyle, card_sheet_file
    from boardlab.printkit.packing import Section, grid_positions, share_free_space

    def face(label):
        return lambda canvas: canvas.text(1, 1, label)
    cards = [Card(f"c{i}", face(f"card {i}"), face("back")) for i in range(count)]
    deck = card_sheet_file("deck", "Deck", cards, geometry_of("poker"), CONVENTIONS,
                           PrintOptions("a4", "long", "duplex"), SheetStyle("#000000", "#ffffff", "Test 1"))
    if not pieces:
        return deck
    square = Section(pieces, 20, lambda w, h: grid_positions(w, h, 20, 20, 0),
                     lambda canvas, k, x, y: canvas.text(x, y, "piece"))
    [deck], extra = share_free_space([deck], [square], (210, 297), CONVENTIONS, gap=2)
    assert not extra
    return deck


@pytest.mark.parametrize("pieces, spares", [(0, 2), (1, 1), (9, 0)])
def test_small_pieces_keep_the_empty_slots_they_take_and_spares_fill_the_others(pieces, spares):
    # 7 cards on a sheet of 9: slots 8 and 9 are empty; eight 20 mm squares fit one slot
    deck = poker_deck_with_pieces(7, pieces)
    front, back = RecordingCanvas(210, 297), RecordingCanvas(210, 297)
    deck.pages[0].draw(front)
    deck.pages[1].draw(back)
    assert texts(front).count("spare") == spares
    assert texts(front).count("piece") == pieces
    assert texts(back).count("back") == 7 + spares  # a spare carries the deck's back behind it
    assert sum(1 for name, *_ in front.calls if name == "clip") == 7 + spares


# --- the decks: counts, content, bytes -----------------------------------------------------------------------

def blockd_count(d) -> int:
    return len(d.cards.suits) * (1 + len(d.cards.values)) + d.cards.blind


@pytest.mark.parametrize("paper, per_page", [("a4", 9), ("letter", 9)])
def test_blockd_pdf_has_every_card_on_the_expected_pages(paper, per_page):
    d = load("blockd")
    assert blockd_count(d) == 25
    _cover, deck, *_others = blockd_print.print_files(d, PrintOptions(paper, "long", "duplex"))
    reader = open_pdf(render_pdf(deck))
    sheets = math.ceil(25 / per_page)
    assert len(reader.pages) == 2 * sheets
    counts = [len(page_geometry(reader, i).clips) for i in range(len(reader.pages))]
    expected = []
    for sheet in range(sheets):
        on_sheet = min(per_page, 25 - sheet * per_page)
        expected += [on_sheet, on_sheet]
    assert counts == expected


def test_blockd_has_a_pawn_standee_per_suit_in_the_empty_slots_of_the_last_card_sheet():
    d = load("blockd")
    for paper in ("a4", "letter"):
        _cover, deck, *others = blockd_print.print_files(d, PrintOptions(paper, "long", "duplex"))
        assert [f.name for f in others] == ["blockd-cards-single"]  # no sheet of its own for four pawns
        assert [c.name for c in deck.components][-4:] == [f"pawn-{suit}" for suit in d.cards.suits]
        canvas = RecordingCanvas(210, 297)
        deck.pages[-2].draw(canvas)  # the last front page
        shown = texts(canvas)
        labels = [t for t in shown if t in {d.colours[s].label for s in d.cards.suits}]
        assert labels[-8:] == [d.colours[s].label for s in d.cards.suits for _ in range(2)]
        assert "spare" not in shown  # the pawns take both empty slots: no spare blank there
    # without duplex the slots beside the fronts are folded onto: the pawns get their own sheet
    _cover, _deck, pawns, _single = blockd_print.print_files(d, PrintOptions("a4", "long", "gutterfold"))
    assert [c.name for c in pawns.components] == [f"pawn-{suit}" for suit in d.cards.suits]
    canvas = RecordingCanvas(210, 297)
    for page in pawns.pages:
        page.draw(canvas)
    shown = texts(canvas)
    assert shown[:-2] == [d.colours[s].label for s in d.cards.suits for _ in range(2)]
    assert shown[-2] == "50 mm" and "blockd-pawns-a4.pdf" in shown[-1]  # the footer


@pytest.mark.parametrize("game", ["blockd", "links"])
def test_single_card_file_has_every_face_with_trim_and_bleed_boxes(game):
    d = load(game)
    module = {"blockd": blockd_print, "links": links_print}[game]
    single = module.print_files(d, PrintOptions("a4", "long", "duplex"))[-1]
    cards = {"blockd": blockd_print.blockd_cards, "links": links_print.links_cards}[game](d)
    reader = open_pdf(render_pdf(single))
    assert len(reader.pages) == 2 * len(cards)
    width, height = CONVENTIONS.card_sizes[d.print.card]
    bleed, point = d.print.bleed, 72 / 25.4
    for page in reader.pages[:4]:
        assert [float(v) for v in page.trimbox] == pytest.approx(
            [bleed * point, bleed * point, (bleed + width) * point, (bleed + height) * point], abs=1e-3)
        assert [float(v) for v in page.bleedbox] == pytest.approx(
            [0, 0, (2 * bleed + width) * point, (2 * bleed + height) * point], abs=1e-3)


def test_links_pdf_holds_the_whole_deck():
    d = load("links")
    size = len(d.deck.game_cards) + d.deck.central + d.deck.empty + sum(m.count for m in d.deck.masters)
    assert size == 46  # layouts/rulebooks/links.en.md: 36 + 1 + 5 + 4
    _cover, deck, _single = links_print.print_files(d, PrintOptions("a4", "long", "duplex"))
    reader = open_pdf(render_pdf(deck))
    assert len(reader.pages) == 2 * math.ceil(size / 9)
    # every slot of every sheet is printed: the 46 cards, then 8 spare blanks on the last sheet
    assert [len(page_geometry(reader, i).clips) for i in range(len(reader.pages))] == [9] * 12
    canvas = RecordingCanvas(210, 297)
    for page in deck.pages:
        page.draw(canvas)
    assert texts(canvas).count("spare") == 6 * 9 - size


def measured_card_sizes(reader, bleed):
    """Card cut sizes read from a PDF: the cut marks above the block give the vertical cut lines,
    the marks left of it the horizontal ones; within each card's clip (its bleed box) the two cut
    lines it contains are the card's edges."""
    sizes = []
    for index in range(len(reader.pages)):
        page = page_geometry(reader, index)
        if not page.clips:
            continue
        top = min(c[1] for c in page.clips) + bleed
        left = min(c[0] for c in page.clips) + bleed
        page_level = [line for line in page.lines if line[4] == 1]
        # marks above the block, or running into it from its top edge where the rows fill the sheet
        xs = sorted({round(l[0], 4) for l in page_level if abs(l[0] - l[2]) < 1e-6 and min(l[1], l[3]) < top + 1e-3})
        ys = sorted({round(l[1], 4) for l in page_level if abs(l[1] - l[3]) < 1e-6 and max(l[0], l[2]) < left})
        if not xs:
            continue  # a back page of a sheet whose rows fill the height: its cards are cut from the front
        for x, y, w, h in page.clips:
            inner_x = [v for v in xs if x - 1e-3 <= v <= x + w + 1e-3]
            inner_y = [v for v in ys if y - 1e-3 <= v <= y + h + 1e-3]
            assert len(inner_x) == 2 and len(inner_y) == 2, (index, (x, y, w, h), inner_x, inner_y)
            sizes.append((inner_x[1] - inner_x[0], inner_y[1] - inner_y[0]))
    return sizes


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", ["blockd", "links"])
def test_card_sizes_measured_in_the_pdf_match_the_definition(game, paper):
    d = load(game)
    width, height = CONVENTIONS.card_sizes[d.print.card]
    module = {"blockd": blockd_print, "links": links_print}[game]
    deck = module.print_files(d, PrintOptions(paper, "long", "duplex"))[1]  # after the cover
    sizes = measured_card_sizes(open_pdf(render_pdf(deck)), d.print.bleed)
    assert sizes
    for measured in sizes:
        assert sorted(measured) == pytest.approx(sorted((width, height)), abs=0.1)


def with_gutter(definition, gutter: float | None):
    return dataclasses.replace(definition, print=dataclasses.replace(definition.print, gutter=gutter))


@pytest.mark.parametrize("gutter", [None, 2.0])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_marks_stay_off_the_cards_the_footer_in_the_margin_and_the_calibration_bar_is_50_mm(paper, gutter):
    """Measured in the PDF: the footer (a 50 mm bar, a turned one on Letter) inside the margin;
    every cut mark outside every card's cut box (past its bleed with a gutter), no nearer the
    paper's edge than mark_margin; the cards' cut lines, read from the marks, are the card size
    apart, and with a gutter neighbours are 2 x bleed + gutter apart.  Blockd on Letter keeps 9
    cards a sheet with marks above and below the rows."""
    d = with_gutter(load("blockd"), gutter)
    width, height = CONVENTIONS.card_sizes[d.print.card]
    bleed = d.print.bleed
    _cover, deck, *_others = blockd_print.print_files(d, PrintOptions(paper, "long", "duplex"))
    reader = open_pdf(render_pdf(deck))
    paper_w, paper_h = CONVENTIONS.papers[paper]
    margin, edge = CONVENTIONS.sheet.margin, CONVENTIONS.sheet.mark_margin
    band = footer_height(CONVENTIONS) + 1e-3
    for index in (0, 1):  # a full sheet, front and back (the last one holds the pawns)
        page = page_geometry(reader, index)
        # marks and footer (the turned one one level down), not card art (clipped to its card)
        page_level = [line for line in page.lines if line[4] == 1 or line[4] == 2 and not any(
            c[0] < (line[0] + line[2]) / 2 < c[0] + c[2] and c[1] < (line[1] + line[3]) / 2 < c[1] + c[3]
            for c in page.clips)]
        bars = [l for l in page_level if math.hypot(l[2] - l[0], l[3] - l[1]) > 20]
        assert len(bars) == 1
        bar = bars[0]
        assert math.hypot(bar[2] - bar[0], bar[3] - bar[1]) == pytest.approx(CONVENTIONS.sheet.calibration_bar, abs=0.01)
        turned = abs(bar[0] - bar[2]) < 1e-6  # the footer stands in the left margin
        if turned:
            footer = [l for l in page_level if max(l[0], l[2]) <= margin + band]
        else:
            footer = [l for l in page_level if min(l[1], l[3]) >= paper_h - margin - band]
        for x1, y1, x2, y2, _ in footer:
            for x, y in ((x1, y1), (x2, y2)):
                assert margin - 1e-3 <= x <= paper_w - margin + 1e-3 and margin - 1e-3 <= y <= paper_h - margin + 1e-3
        marks = [l for l in page_level if l not in footer]
        xs = sorted({round(l[0], 4) for l in marks if abs(l[0] - l[2]) < 1e-6})
        ys = sorted({round(l[1], 4) for l in marks if abs(l[1] - l[3]) < 1e-6})
        cards = []
        for x, y, w, h in page.clips:
            inner_x = [v for v in xs if x - 1e-3 <= v <= x + w + 1e-3]
            inner_y = [v for v in ys if y - 1e-3 <= v <= y + h + 1e-3]
            assert len(inner_x) == 2 and len(inner_y) == 2
            cut = (inner_x[0], inner_y[0], inner_x[1] - inner_x[0], inner_y[1] - inner_y[0])
            assert sorted(cut[2:]) == pytest.approx(sorted((width, height)), abs=0.01)
            cards.append((cut, (x, y, w, h)))
        # nine poker cards on A4 and Letter without a gutter; with one, what the brute force finds (6)
        expected = 9 if gutter is None else brute_force_cards_per_page(
            CardGeometry(width, height, bleed, d.print.safe, d.print.corner_radius, gutter), paper, False)
        assert len(cards) == expected and (gutter is None or expected < 9)
        for x1, y1, x2, y2, _ in marks:
            for x, y in ((x1, y1), (x2, y2)):
                assert edge - 1e-3 <= x <= paper_w - edge + 1e-3 and edge - 1e-3 <= y <= paper_h - edge + 1e-3
            box = (min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))
            for cut, clip in cards:
                assert not touches(box, cut, e=-1e-3)
                if gutter:
                    assert not touches(box, clip, e=-1e-3)
        tops = [l for l in marks if abs(l[0] - l[2]) < 1e-6 and max(l[1], l[3]) < min(c[0][1] for c in cards)]
        bottoms = [l for l in marks if abs(l[0] - l[2]) < 1e-6 and min(l[1], l[3]) > max(c[0][1] + c[0][3] for c in cards)]
        # every vertical cut line marked above and below the block (a mark over the bleed is two
        # strokes: the paper underlay and the ink)
        assert {round(l[0], 4) for l in tops} == {round(l[0], 4) for l in bottoms} == set(xs)
        if gutter:
            lefts = sorted({c[0][0] for c in cards})
            assert [b - a for a, b in zip(lefts, lefts[1:])] == pytest.approx(
                [cards[0][0][2] + 2 * bleed + gutter] * (len(lefts) - 1), abs=0.01)


@pytest.mark.parametrize("game", game_ids("print"))
def test_identical_input_gives_identical_bytes(game):
    """Every game's print files (the registry's, a new game's too)."""
    module = game_part(game, "print")
    options = PrintOptions("a4", "long", "duplex")
    first = render_print_files(module.print_files(load(game), options))
    second = render_print_files(module.print_files(load(game), options))
    assert first == second
    assert any(name.endswith(".svg") for name in first)  # the SVGs too, not only the PDFs


def colours_used(draw) -> set[str]:
    canvas = RecordingCanvas(100, 100)
    draw(canvas)
    used = set()
    for _, _, kw in canvas.calls:
        for key in ("fill", "stroke"):
            if kw.get(key):
                used.add(kw[key].lower())
    return used, canvas


def texts(canvas) -> list[str]:
    return [args[2] for name, args, _ in canvas.calls if name == "text"]


def test_blockd_cards_show_value_symbol_and_label_from_the_definition():
    d = load("blockd")
    cards = blockd_print.blockd_cards(d)
    assert len(cards) == blockd_count(d)
    palette = {c.hex.lower() for c in d.colours.values()} | {"#000000", "#ffffff"}
    for card in cards:
        used, canvas = colours_used(card.front)
        assert used <= palette, (card.name, used - palette)
        suit, _, kind = card.name.partition("-")
        if suit in d.cards.suits:
            assert d.colours[suit].hex.lower() in used
            assert d.colours[suit].label in texts(canvas)
            if kind != "start":
                assert texts(canvas).count(kind) >= 3  # large in the middle and in both corners
    blind = [c for c in cards if c.name.startswith("blind")]
    assert len(blind) == d.cards.blind and blind[0].front is blind[0].back


def test_links_cards_show_both_ends_and_the_masters_names():
    d = load("links")
    cards = links_print.links_cards(d)
    game_cards = cards[:len(d.deck.game_cards)]
    for card, (first, second) in zip(game_cards, d.deck.game_cards):
        used, canvas = colours_used(card.front)
        assert {d.colours[first.colour].hex.lower(), d.colours[second.colour].hex.lower()} <= used
        shown = texts(canvas)
        assert str(first.points) in shown and str(second.points) in shown
        assert d.colours[first.colour].label in shown and d.colours[second.colour].label in shown
    names = [t for card in cards for t in texts(colours_used(card.front)[1])]
    for master in d.deck.masters:
        assert master.name in names


VARIANT_BLOCKD = """
extends = "blockd"

[colours.red]
hex = "#00aa00"
label = "jade"

[print]
card = "bridge"
"""

VARIANT_LINKS = """
extends = "links"

[deck]
end_points = [1, 3]
"""


def test_a_variant_changes_the_print_with_no_code_change(tmp_path):
    (tmp_path / "blockd-jade.toml").write_text(VARIANT_BLOCKD, encoding="utf-8")
    d = load(tmp_path / "blockd-jade.toml")
    red_three = next(c for c in blockd_print.blockd_cards(d) if c.name == "red-3")
    used, canvas = colours_used(red_three.front)
    assert "#00aa00" in used and "#c62828" not in used
    assert "jade" in texts(canvas) and "red" not in texts(canvas)
    _cover, deck, *_others = blockd_print.print_files(d, PrintOptions("a4", "long", "duplex"))
    for measured in measured_card_sizes(open_pdf(render_pdf(deck)), d.print.bleed):
        assert sorted(measured) == pytest.approx(sorted(CONVENTIONS.card_sizes["bridge"]), abs=0.1)

    (tmp_path / "links-three.toml").write_text(VARIANT_LINKS, encoding="utf-8")
    links = load(tmp_path / "links-three.toml")
    names = [c.name for c in links_print.links_cards(links)]
    assert "red3-blue3" in names and "red2-blue2" not in names


# --- the command ---------------------------------------------------------------------------------------------

def test_print_command_writes_pdf_and_svgs_identically_twice(tmp_path, capsys):
    assert main(["print", "blockd", "--out", str(tmp_path / "one")]) == 0
    assert main(["print", "blockd", "--out", str(tmp_path / "two")]) == 0
    one = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    two = sorted(p.relative_to(tmp_path / "two") for p in (tmp_path / "two").rglob("*") if p.is_file())
    assert one == two and Path("blockd-cards-a4.pdf") in one
    # 25 distinct fronts (blind included), the back, a pawn per suit
    assert len([p for p in one if p.suffix == ".svg"]) == 25 + 1 + len(load("blockd").cards.suits)
    for path in one:
        assert (tmp_path / "one" / path).read_bytes() == (tmp_path / "two" / path).read_bytes()


def test_print_command_options_name_the_file(tmp_path):
    assert main(["print", "links", "--paper", "letter", "--duplex", "short", "--out", str(tmp_path)]) == 0
    assert main(["print", "links", "--layout", "gutterfold", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["links-aid-a4.pdf", "links-aid-letter.pdf",  # one side
                                                               "links-cards-a4-gutterfold.pdf",
                                                               "links-cards-letter-short-edge.pdf",
                                                               "links-cards-single.pdf",
                                                               "links-cover-a4-gutterfold.pdf",
                                                               "links-cover-letter-short-edge.pdf"]


def test_bad_option_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["print", "blockd", "--paper", "a5", "--out", str(tmp_path / "out")])
    assert exit_info.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_a_card_too_big_for_the_paper_fails_cleanly_and_keeps_old_files(tmp_path, capsys):
    (tmp_path / "huge.toml").write_text('extends = "blockd"\n\n[print]\ncard = [300.0, 400.0]\n', encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "blockd-cards-a4.pdf").write_bytes(b"before")
    assert main(["print", "blockd", "--variant", str(tmp_path / "huge.toml"), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not fit" in err[0]
    assert [p.name for p in out.iterdir()] == ["blockd-cards-a4.pdf"]
    assert (out / "blockd-cards-a4.pdf").read_bytes() == b"before"


def test_unknown_game_and_missing_print_module_are_one_line_errors(monkeypatch, capsys):
    assert main(["print", "chess"]) == 2
    assert "unknown game" in capsys.readouterr().err
    monkeypatch.setattr(registry, "BUILT_IN", tuple(
        dataclasses.replace(e, print="boardlab.printkit.games.not_written_yet") if e.id == "links" else e
        for e in registry.BUILT_IN))
    assert main(["print", "links"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not available yet" in err[0]


def test_every_registered_game_prints_and_every_pdf_opens(tmp_path):
    printed = 0
    for game in registry.game_ids("print"):
        module = registry.game_part(game, "print")
        for paper in ("a4", "letter"):
            for print_file in module.print_files(load(game), PrintOptions(paper, "long", "duplex")):
                reader = open_pdf(render_pdf(print_file))
                assert len(reader.pages) == len(print_file.pages) > 0
        printed += 1
    assert printed >= 2


def test_footer_names_game_version_file_and_a_date_only_from_source_date_epoch(monkeypatch):
    d = load("blockd")

    def footer_texts():
        deck = blockd_print.print_files(d, PrintOptions("a4", "long", "duplex"))[1]  # after the cover
        canvas = RecordingCanvas(210, 297)
        deck.pages[0].draw(canvas)
        return [t for t in texts(canvas) if "blockd-cards-a4.pdf" in t]
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    [line] = footer_texts()
    assert d.game.name in line and d.game.version in line and "sheet 1/3" in line and "20" not in line
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    [line] = footer_texts()
    assert "2026-01-01" in line


def test_every_sheet_of_every_game_carries_the_source_date_epoch_date(monkeypatch):
    """One footer helper for all games: the pawn sheet's footer once lacked the date."""
    from boardlab.printkit.measure import PlacedCanvas
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    for game in registry.game_ids("print"):
        for print_file in registry.game_part(game, "print").print_files(load(game), PrintOptions("a4", "long", "duplex")):
            if print_file.pages[0].trim_box is not None:
                continue  # one face per page for print-on-demand: no footer, the page is the card
            for number, page in enumerate(print_file.pages, start=1):
                canvas = PlacedCanvas(page.width, page.height)
                page.draw(canvas)
                footers = [s.content for s in canvas.shapes if s.kind == "text" and f"{print_file.name}.pdf" in s.content]
                assert len(footers) == 1 and "2026-01-01" in footers[0], (print_file.name, number, footers)


def test_matching_masters_show_their_ends_only_when_the_rules_say_so():
    plain, matching = load("links"), load("links-master-match")
    assert plain.rules.master_links == "any" and matching.rules.master_links == "match"
    for d, shows_ends in ((plain, False), (matching, True)):
        masters = [c for c in links_print.links_cards(d) if c.name.startswith("master-")]
        for card, master in zip(masters, d.deck.masters):
            used, canvas = colours_used(card.front)
            end_colours = {d.colours[end.colour].hex.lower() for end in master.ends}
            assert (end_colours <= used) == shows_ends, (card.name, used)


from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=60, deadline=None)
@given(width=st.floats(20, 200), height=st.floats(20, 200), bleed=st.sampled_from([0.0, 1.5, 3.0, 3.175, 5.0]),
       paper=st.sampled_from(sorted(CONVENTIONS.papers)), duplex=st.sampled_from(["long", "short"]),
       backs=st.sampled_from(["duplex", "gutterfold"]), count=st.integers(1, 40),
       gutter=st.sampled_from([0.0, 0.0, 1.0, 4.0]))
def test_any_card_size_either_fits_cleanly_or_is_refused(width, height, bleed, paper, duplex, backs, count, gutter):
    geometry = CardGeometry(width, height, bleed, 3.0, 3.0, gutter)
    expected = brute_force_cards_per_page(geometry, paper, backs == "gutterfold")
    options = PrintOptions(paper, duplex, backs)
    if expected == 0:
        with pytest.raises(BoardlabError, match="does not fit"):
            impose_cards(count, geometry, CONVENTIONS, options)
        return
    sheet_layout, pages = impose_cards(count, geometry, CONVENTIONS, options)
    assert sheet_layout.cards_per_page == expected
    paper_w, paper_h = CONVENTIONS.papers[paper]
    margin = CONVENTIONS.sheet.margin
    printable = (margin, margin, paper_w - 2 * margin, paper_h - 2 * margin)
    fronts = sorted(s.card for p in pages for s in p.slots if s.side == "front")
    backs = sorted(s.card for p in pages for s in p.slots if s.side == "back")
    assert fronts == backs == list(range(count))
    spares = sum(len(p.spares) for p in pages)
    assert spares == 2 * (-count % expected)  # a front and a back for every empty slot of the last sheet
    for page in pages:
        for slot in page.printed:
            assert sorted(slot.cut_box[2:]) == pytest.approx(sorted((width, height)), abs=1e-6)
            assert inside(slot.cut_box, printable) and inside(slot.bleed_box, (0, 0, paper_w, paper_h))
            assert all(overlap(slot.bleed_box, o.cut_box) < 1e-9 for o in page.printed if o is not slot)
        assert_marks_off_the_cards(cut_marks(sheet_layout, page.printed, CONVENTIONS, bleed), page.printed,
                                   paper_w, paper_h, geometry)


def test_the_blind_card_carries_a_mark_on_both_faces_that_a_face_down_card_lacks():
    from boardlab.layouts import load
    from boardlab.layouts.terms import speaking
    from boardlab.printkit.games.blockd import blockd_cards
    from boardlab.printkit.measure import PlacedCanvas

    def texts(draw):
        canvas = PlacedCanvas(100, 100)
        draw(canvas)
        return [s.content for s in canvas.shapes if s.kind == "text"]

    d = load("blockd")
    for language, mark in (("en", "BLIND CARD"), ("es", "CARTA CIEGA")):
        with speaking(language):
            cards = blockd_cards(d)
            blind = next(c for c in cards if c.name == "blind")
            face_down = next(c for c in cards if c.name == "red-1").back
            assert mark in texts(blind.front) and mark in texts(blind.back)
            assert mark not in texts(face_down) and d.game.name in texts(face_down)


def test_a_gutter_changes_the_definition_hash_only_when_set():
    """print.gutter came after games were stored: unset, the hash is the one computed without the
    key at all (the stored games stay theirs); set, it is a different definition."""
    from boardlab.analysis.store import canonical, definition_hash
    d = load("blockd")
    assert "gutter" not in canonical(d)["print"]
    assert definition_hash(with_gutter(d, 2.0)) != definition_hash(d) == definition_hash(with_gutter(d, None))
    assert canonical(with_gutter(d, 2.0))["print"]["gutter"] == 2.0
