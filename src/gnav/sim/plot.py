"""``--plot``: loss rate by position relative to the dealer and by piece held at the deal.

matplotlib is optional (the ``plot`` extra) and imported only here, only when asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gnav.errors import GnavError
from gnav.sim.report import Summary

MISSING = "--plot needs matplotlib: pip install 'gnav[plot]'"


def require_matplotlib() -> None:
    """Fail before a long run, not after it, when the plot cannot be drawn."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise GnavError(MISSING) from None


def _bars(ax: Any, labels: list[str], rows: list[dict[str, Any]], title: str,
          xlabel: str) -> None:
    rates = [r["loss_rate"]["value"] or 0.0 for r in rows]
    below = [v - (r["loss_rate"]["low"] or v) for v, r in zip(rates, rows, strict=True)]
    above = [(r["loss_rate"]["high"] or v) - v for v, r in zip(rates, rows, strict=True)]
    ax.bar(range(len(rates)), rates, yerr=[below, above], capsize=3, color="#4c72b0")
    ax.set_xticks(range(len(rates)), labels, rotation=90 if len(labels) > 12 else 0)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("loss rate (95% CI)")
    ax.grid(axis="y", alpha=0.3)


def write_plot(summary: Summary, path: str | Path) -> None:
    """A PNG with the two charts side by side."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # a file, never a window
        import matplotlib.pyplot as plt
    except ImportError:
        raise GnavError(MISSING) from None
    n = summary["seats"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.8),
                                      gridspec_kw={"width_ratios": [1, 2]})
    try:
        positions = summary["by_position"]
        labels = [str(r["position"]) for r in positions]
        _bars(left, labels, positions, "By position",
              f"position (1 = dealer's left, {n} = dealer)")
        pieces = summary["by_piece"]
        _bars(right, [r["name"] for r in pieces], pieces, "By piece held at the deal",
              "piece (highest first)")
        bots = summary["bots"]
        who = bots[0] if len(set(bots)) == 1 else ", ".join(bots)
        fig.suptitle(f"{summary['preset']}, {n} seats, {who}, {summary['rounds']} rounds")
        fig.tight_layout()
        try:
            fig.savefig(path, format="png", dpi=100)
        except OSError as e:
            raise GnavError(f"cannot write {path}: {e.strerror or e}") from None
    finally:
        plt.close(fig)
