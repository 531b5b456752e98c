"""The plot of a tournament's ratings: one row per bot, its rating and 95% interval as an error bar.

Needs matplotlib (the extra ``bummerl[tournament]``), imported only when a plot
is drawn: without it :func:`plot_ratings` raises :class:`ImportError` and the
tournament notes that it made no plot (:mod:`bummerl.tournament.run`).  The plot
is made with a bare :class:`matplotlib.figure.Figure` (no ``pyplot``: no global
state, no display needed), written as SVG without a date, so that the same
standings give the same file.

This module draws; it plays and computes nothing.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bummerl.tournament.store import atomic_write

__all__ = ["plot_ratings"]


def plot_ratings(standings: Sequence[dict[str, Any]], path: Path, title: str) -> Path:
    """Draw ``standings`` (rows with ``bot``, ``rating``, ``interval``) to ``path`` as SVG."""
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    rows = sorted(standings, key=lambda row: row["rating"])
    labels = [row["bot"] if len(row["bot"]) <= 30 else row["bot"][:27] + "..." for row in rows]
    ratings = [row["rating"] for row in rows]
    below = [row["rating"] - row["interval"][0] for row in rows]
    above = [row["interval"][1] - row["rating"] for row in rows]
    figure = Figure(figsize=(7.0, 1.2 + 0.45 * len(rows)), layout="constrained")
    axes = figure.subplots()
    positions = list(range(len(rows)))
    axes.errorbar(ratings, positions, xerr=[below, above], fmt="o", capsize=4, color="tab:blue")
    axes.axvline(0.0, color="grey", linewidth=0.8, linestyle=":")
    axes.set_yticks(positions, labels)
    axes.set_ylim(-0.6, len(rows) - 0.4)
    axes.set_xlabel("rating (Elo scale, mean 0) with 95% interval")
    axes.set_title(title, fontsize=10)
    axes.grid(axis="x", alpha=0.3)
    text = io.StringIO()
    # A fixed salt for the SVG's element ids (random by default): the same standings, the same file.
    with rc_context({"svg.hashsalt": "bummerl"}):
        figure.savefig(text, format="svg", metadata={"Date": None})
    atomic_write(path, text.getvalue())
    return path
