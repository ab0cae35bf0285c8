"""Server-rendered SVG line charts (no JavaScript library): scores through a game, totals."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.utils.formats import number_format
from django.utils.safestring import SafeString, mark_safe


def line_chart_svg(
    values: Sequence[int | float],
    *,
    labels: Sequence[str] = (),
    title: str = "",
    baseline: int | float | None = None,
    signed: bool = False,
    width: int = 600,
    height: int = 220,
) -> SafeString:
    """A line through ``values``, with a dashed ``baseline`` (e.g. the start score) if given.

    The SVG scales to its container (viewBox), carries a <title> for screen readers, and
    writes each value as a tooltip. Values are points in the active language's number format
    (thousands separator); `signed` writes a sign on gains and losses (a running total around
    0: "+12,500", or U+2212 and "26,500"), so an axis never reads "0 / -26 500" (issue 33).
    """
    pad_left, pad_right, pad_top, pad_bottom = 78, 14, 18, 30
    inner_w = width - pad_left - pad_right
    inner_h = height - pad_top - pad_bottom
    points = list(values)
    low = min([*points, baseline] if baseline is not None else points or [0])
    high = max([*points, baseline] if baseline is not None else points or [0])
    if not points:
        low, high = 0, 1
    if high == low:
        high, low = high + 1, low - 1
    step = inner_w / max(len(points) - 1, 1)

    def x(i: int) -> float:
        return pad_left + i * step

    def y(v: float) -> float:
        return pad_top + (high - v) * inner_h / (high - low)

    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line class="axis" x1="{pad_left}" y1="{pad_top}" x2="{pad_left}" '
        f'y2="{height - pad_bottom}"/>',
        f'<line class="axis" x1="{pad_left}" y1="{height - pad_bottom}" '
        f'x2="{width - pad_right}" y2="{height - pad_bottom}"/>',
        f'<text x="{pad_left - 8}" y="{pad_top + 6}" text-anchor="end">{_fmt(high, signed)}</text>',
        f'<text x="{pad_left - 8}" y="{height - pad_bottom}" text-anchor="end">'
        f"{_fmt(low, signed)}</text>",
    ]
    if baseline is not None:
        by = y(baseline)
        parts.append(
            f'<line class="zero" x1="{pad_left}" y1="{by:.1f}" x2="{width - pad_right}" '
            f'y2="{by:.1f}"/>'
        )
    if points:
        path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
        parts.append(f'<polyline class="line" points="{path}"/>')
        for i, v in enumerate(points):
            label = labels[i] if i < len(labels) else str(i)
            parts.append(
                f'<circle class="dot" cx="{x(i):.1f}" cy="{y(v):.1f}" r="3">'
                f"<title>{escape(label)}: {_fmt(v, signed)}</title></circle>"
            )
        # Label the first and last x positions only: readable at 390 px.
        if labels:
            parts.append(
                f'<text x="{x(0):.1f}" y="{height - 6}" text-anchor="start">'
                f"{escape(labels[0])}</text>"
            )
            if len(points) > 1:
                parts.append(
                    f'<text x="{x(len(points) - 1):.1f}" y="{height - 6}" text-anchor="end">'
                    f"{escape(labels[min(len(labels), len(points)) - 1])}</text>"
                )
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _fmt(value: float, signed: bool = False) -> str:
    """`value` in points with the language's thousands separator; `signed`: with + or the minus
    sign (U+2212, not a hyphen: it does not break the number apart) unless 0."""
    number = int(value)
    text = number_format(abs(number), force_grouping=True)
    if number < 0:
        return "\u2212" + text
    return f"+{text}" if signed and number > 0 else text
