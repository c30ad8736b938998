"""Heat maps of the atlas: piece dealt × seat, the chance of paying (matplotlib, the
``plot`` extra; imported only when a plot is asked for)."""

from __future__ import annotations

from pathlib import Path

from gnav.errors import GnavError
from gnav.odds.figures import Atlas
from gnav.odds.render import piece_name, seat_name
from gnav.rules import Rules


def heatmap(a: Atlas, rules: Rules, path: str | Path) -> None:
    """Two panels: the chance of paying playing the policy, and standing whatever
    happens; darker is worse. Cells carry percentages up to 10 seats."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise GnavError("plots need matplotlib: pip install 'gnav[plot]'") from None
    n = a.seats
    pieces = a.pieces
    fig, axes = plt.subplots(1, 2, figsize=(5 + 1.0 * n, 0.32 * len(pieces) + 1.8),
                             squeeze=False)
    for ax, attr, title in ((axes[0][0], "pay", f"you play as {a.policy}"),
                            (axes[0][1], "stand", "you always stand")):
        grid = [[(getattr(a.cells[p, i], attr).value if (p, i) in a.cells else float("nan"))
                 for i in range(n)] for p in pieces]
        im = ax.imshow(grid, vmin=0, vmax=1, cmap="Reds", aspect="auto", origin="lower")
        ax.set_xticks(range(n), [seat_name(i, n) for i in range(n)],
                      rotation=90 if n > 10 else 0)
        ax.set_yticks(range(len(pieces)), [piece_name(rules, p) for p in pieces])
        ax.set_xlabel("seat (1 = the dealer's left)")
        ax.set_title(f"chance of paying:\n{title}", fontsize=10)
        if n <= 10:
            for y, row in enumerate(grid):
                for x, v in enumerate(row):
                    if v == v:
                        ax.text(x, y, f"{100 * v:.0f}", ha="center", va="center",
                                fontsize=7, color="white" if v > 0.6 else "black")
    fig.colorbar(im, ax=axes[0].tolist(), shrink=0.8)
    src = "exact" if a.source == "exact" else f"simulated, {a.rounds:,} rounds"
    fig.suptitle(f"{a.preset}, {n} seats ({src})")
    fig.savefig(path, dpi=80, bbox_inches="tight")
    plt.close(fig)
