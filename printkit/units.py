"""Millimetres and points: the one place where the two units meet.

Drawing code works in millimetres; text sizes are in points (1 pt = 25.4/72 mm), the unit
printers and designers think in.  Every conversion in printkit uses these two numbers.

>>> round(12 * MM_PER_POINT, 4), round(25.4 * POINTS_PER_MM, 6)
(4.2333, 72.0)
"""

from __future__ import annotations

#: one typographic point in millimetres
MM_PER_POINT = 25.4 / 72.0
#: points per millimetre (the PDF backend's scale)
POINTS_PER_MM = 72.0 / 25.4
