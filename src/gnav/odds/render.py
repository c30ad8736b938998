"""The atlas in words and tables, for a player: the terminal report of ``gnav odds``
and the sections of docs/odds.md."""

from __future__ import annotations

from gnav.odds.figures import PAYS, SITUATIONS, Atlas, Figure
from gnav.rules import Rules

SITUATION_WORDS = {
    "plain": "every seat before you stood",
    "swaps": "seats before you swapped (not with you)",
    "asked": "the seat on your right took your piece (you hold a new one)",
    "matador": "a matador answered someone",
    "knock": "a fool knocked",
}


def pct(f: Figure) -> str:
    """A chance as a player reads it: '52%', or '52% (48–56)' for an estimate."""
    if f.value != f.value:  # nan: never observed
        return "–"
    if f.exact or f.low is None or f.high is None:
        return f"{100 * f.value:.0f}%"
    return f"{100 * f.value:.0f}% ({100 * f.low:.0f}–{100 * f.high:.0f})"


def lives(f: Figure) -> str:
    if f.exact or f.low is None or f.high is None:
        return f"{f.value:+.3f}"
    return f"{f.value:+.3f} [{f.low:+.3f}, {f.high:+.3f}]"


def piece_name(rules: Rules, pid: str) -> str:
    return rules.piece(rules.ids.index(pid)).name("en")


def seat_name(position: int, seats: int) -> str:
    if position == seats - 1:
        return "dealer"
    return f"{position + 1}"


def limit(a: Atlas, rules: Rules, position: int, situation: str) -> str:
    """The swap threshold in words: a piece, 'nothing' (the policy stands on all), or
    'n/a' where the situation never comes up at that seat."""
    if not any(k[0] == position and k[1] == situation for k in a.choices):
        return "n/a"
    p = a.threshold(position, situation)
    return piece_name(rules, p) if p else "nothing"


def source_line(a: Atlas) -> str:
    if a.source == "exact":
        return ("exact: the solved strategy evaluated on every deal and every draw "
                "(no sampling error)")
    how = "the batch engine, every seat played both ways on the same deals" \
        if a.meta.get("engine") == "gnav.fast.jit" else "the reference engine"
    return f"simulated: {a.rounds:,} rounds through {how}; 95% intervals in brackets"


def text(a: Atlas, rules: Rules) -> str:
    """The terminal report."""
    n = a.seats
    out = [f"{a.preset}, {n} seats, policy {a.policy}: {source_line(a)}"]
    if a.note:
        out.append(f"note: {a.note}")
    out.append("")
    out.append("Seats count from the dealer's left (1) to the dealer. 'pays' is the chance "
               f"of paying this round. {PAYS}")
    out.append("")
    out.append("Value of each seat, lives a round, and its chance of paying:")
    for i in range(n):
        out.append(f"  {seat_name(i, n):>6}  {lives(a.values[i])}   pays {pct(a.pay[i])}")
    out.append("")
    out.append("Swap threshold (the highest piece the policy swaps) by seat, when:")
    for s in SITUATIONS:
        shown = ", ".join(f"{seat_name(i, n)}: {limit(a, rules, i, s)}" for i in range(n))
        out.append(f"  {SITUATION_WORDS[s]}:")
        out.append(f"    {shown}")
    out.append("")
    for title, attr in (("Chance of paying, playing the policy", "pay"),
                        ("Chance of paying if you stand whatever happens", "stand"),
                        ("Chance of paying if you swap whenever you may", "swap"),
                        ("How often the policy swaps", "swaps")):
        out.append(f"{title} (piece dealt × seat):")
        width = 16 if a.source != "exact" else 7
        out.append("  " + "piece".ljust(10) + "".join(
            (" " + seat_name(i, n)).rjust(width) for i in range(n)))
        for pid in reversed(a.pieces):
            cells = []
            for i in range(n):
                c = a.cells.get((pid, i))
                cells.append((pct(getattr(c, attr)) if c else "–").rjust(width))
            out.append("  " + piece_name(rules, pid)[:10].ljust(10) + "".join(cells))
        out.append("")
    return "\n".join(out)


def in_words(a: Atlas, rules: Rules) -> str:
    """A few sentences a player reads first: the safest and the riskiest seat, and what
    the worst piece costs kept and handed on. Computed from the atlas."""
    n = a.seats

    def seat(i: int) -> str:
        return "the dealer" if i == n - 1 else f"seat {i + 1}"

    safe = max(range(n), key=lambda i: a.values[i].value)
    risky = min(range(n), key=lambda i: a.values[i].value)
    words = [f"The safest seat is {seat(safe)} (it pays in "
             f"{100 * a.pay[safe].value:.0f}% of rounds), the riskiest {seat(risky)} "
             f"({100 * a.pay[risky].value:.0f}%)."]
    worst = a.pieces[0]
    c = a.cells.get((worst, 0))
    if c is not None and c.stand.value == c.stand.value and c.swap.value == c.swap.value:
        words.append(f"Dealt the {piece_name(rules, worst)} at seat 1, you pay "
                     f"{100 * c.stand.value:.0f}% of the time if you keep it and "
                     f"{100 * c.swap.value:.0f}% if you swap it away.")
    return " ".join(words)


def markdown(a: Atlas, rules: Rules, image: str | None) -> str:
    """One table's section of docs/odds.md."""
    n = a.seats
    out = [f"### {a.preset}, {n} seats", ""]
    out.append(in_words(a, rules))
    out.append("")
    out.append(f"*{source_line(a)}.*" + (f" *{a.note}.*" if a.note else ""))
    out.append("")
    if image:
        out.append(f"![{a.preset}, {n} seats: chance of paying by piece and seat]({image})")
        out.append("")
    out.append("| seat | " + " | ".join(seat_name(i, n) for i in range(n)) + " |")
    out.append("|---|" + "---|" * n)
    out.append("| lives a round | " + " | ".join(
        f"{a.values[i].value:+.2f}" for i in range(n)) + " |")
    out.append("| chance of paying | " + " | ".join(
        f"{100 * a.pay[i].value:.0f}%" for i in range(n)) + " |")
    for s in ("plain", "swaps", "asked"):
        out.append(f"| swaps up to ({s}) | " + " | ".join(
            limit(a, rules, i, s) for i in range(n)) + " |")
    out.append("")
    if n <= 10:
        out.append("<details><summary>Every piece: chance of paying if you play as "
                   f"{a.policy} / if you stand / if you swap</summary>")
        out.append("")
        out.append("| piece | " + " | ".join(seat_name(i, n) for i in range(n)) + " |")
        out.append("|---|" + "---|" * n)
        for pid in reversed(a.pieces):
            row = []
            for i in range(n):
                c = a.cells.get((pid, i))
                row.append("–" if c is None else
                           f"{_p(c.pay)} / {_p(c.stand)} / {_p(c.swap)}")
            out.append(f"| {piece_name(rules, pid)} | " + " | ".join(row) + " |")
        out.append("")
        out.append("</details>")
        out.append("")
    return "\n".join(out)


def _p(f: Figure) -> str:
    if f.value != f.value:
        return "–"
    if f.exact or f.low is None or f.high is None:
        return f"{100 * f.value:.0f}"
    return f"{100 * f.value:.0f}±{100 * (f.high - f.low) / 2:.0f}"
