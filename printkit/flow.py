"""Flowing documents (rulebooks, player aids, reports): what platypus does not do by itself.

>>> from reportlab.lib.styles import ParagraphStyle
>>> from reportlab.platypus import Paragraph, Spacer
>>> head = Paragraph("Setup", ParagraphStyle("h", keepWithNext=1))
>>> body = KeepTogether([Paragraph("text", ParagraphStyle("b"))])
>>> [type(f).__name__ for f in headings_kept([head, Spacer(1, 4), body])]
['KeepTogether']
"""

from __future__ import annotations

from reportlab.platypus import KeepTogether, Paragraph, Spacer


def headings_kept(story: list) -> list:
    """The story with every heading (a paragraph whose style keeps it with the next) held on one
    page with the first content that follows it.  platypus keeps a heading with a paragraph, but
    not with a KeepTogether (a table with its caption, a figure with its caption, a chart), and a
    Spacer after a heading satisfies its keepWithNext; so a heading, the spacers after it and the
    next content are joined here.  Page breaks and other flowables that cannot be kept together
    end a run as they are.
    """
    out: list = []
    run: list = []
    for flowable in story:
        if isinstance(flowable, Paragraph) and getattr(flowable.style, "keepWithNext", False):
            run.append(flowable)
            continue
        if run and isinstance(flowable, Spacer):
            run.append(flowable)
            continue
        if run:
            if isinstance(flowable, KeepTogether):
                flowable = KeepTogether(run + list(flowable._content))
            elif isinstance(flowable, (Paragraph, Spacer)) or type(flowable).__name__ in ("Table", "Figure",
                                                                                         "ListFlowable", "Drawing"):
                flowable = KeepTogether(run + [flowable])
            else:
                out.extend(run)
            run = []
        out.append(flowable)
    return out + run
