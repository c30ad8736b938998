"""A simulation's figures as one JSON-ready summary, and that summary as a table or CSV.

Everything printed comes from ``summarise``: the table, the CSV, the JSON and the plot
cannot disagree. The summary holds nothing that depends on the machine (no timings, no
job count), so a seed gives the same JSON everywhere.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator
from typing import Any

from gnav.sim.batch import MATCHES, Plan, Result
from gnav.sim.stats import Estimate, wilson

Summary = dict[str, Any]
DIGITS = 6


def _num(x: float) -> float | None:
    # JSON has no NaN or infinity: an interval that cannot be had is null.
    return None if math.isnan(x) or math.isinf(x) else round(x, DIGITS)


def _est(e: Estimate) -> dict[str, Any]:
    return {"value": _num(e.value), "low": _num(e.low), "high": _num(e.high), "n": e.n}


def position_label(position: int, seats: int) -> str:
    if position == seats:
        return "dealer"
    if position == 1:
        return "dealer's left"
    return ""


def _plays(plan: Plan) -> dict[str, list[dict[str, str]]]:
    """What each expert spec of the plan actually plays, by table size: the sizes a
    match passes through (seats go out), or the one size of single rounds."""
    from gnav.bots.expert import ExpertBot, what_plays
    from gnav.bots.registry import bot_from_spec

    sizes = range(2, plan.seats + 1) if plan.mode == MATCHES else [plan.seats]
    out: dict[str, list[dict[str, str]]] = {}
    for spec in dict.fromkeys((*plan.kinds, *([plan.challenger] if plan.challenger else []))):
        bot = bot_from_spec(spec, 0, plan.rules)
        if isinstance(bot, ExpertBot):
            out[spec] = [{"seats": span, "plays": text}
                         for span, text in what_plays(bot, plan.rules, sizes)]
    return out


def summarise(result: Result) -> Summary:
    plan, tally, duel = result.plan, result.tally, result.duel
    n = plan.seats
    matches = plan.mode == MATCHES
    seats = []
    for s in range(n):
        row: dict[str, Any] = {"seat": s + 1, "bot": plan.bots[s],
                               "lives_lost_per_round": _est(tally.seat_lost[s].estimate())}
        if matches:
            row["win_rate"] = _est(wilson(tally.seat_wins[s], tally.matches))
        seats.append(row)
    kinds = []
    for kind in plan.kinds:
        row = {"bot": kind, "seats": plan.bots.count(kind),
               "lives_lost_per_round": _est(tally.kind_lost[kind].estimate())}
        if matches:
            row["win_rate"] = _est(tally.kind_wins[kind].estimate())
        kinds.append(row)
    positions = [{"position": p + 1, "label": position_label(p + 1, n),
                  "rounds": tally.position_rounds[p], "losses": tally.position_losses[p],
                  "loss_rate": _est(wilson(tally.position_losses[p],
                                           tally.position_rounds[p]))}
                 for p in range(n)]
    # "piece" is the id, for programs; "name" is the piece as the game shows it (XII, O).
    pieces = [{"piece": plan.rules.ids[i], "name": plan.rules.pieces[i].name(),
               "rounds": tally.piece_rounds[i],
               "losses": tally.piece_losses[i],
               "loss_rate": _est(wilson(tally.piece_losses[i], tally.piece_rounds[i]))}
              for i in range(tally.pieces) if tally.piece_rounds[i]]
    summary: Summary = {
        "preset": plan.rules.name,
        "rules": plan.rules.to_spec(),
        "seats": n,
        "bots": list(plan.bots),
        "mode": plan.mode,
        "seed": plan.seed,
        "matches": tally.matches if matches else None,
        "rounds": tally.rounds,
        "rounds_per_match": _est(tally.match_rounds.estimate()) if matches else None,
        "by_seat": seats,
        "by_bot": kinds,
        "by_position": positions,
        "by_piece": pieces,
        "challenger": None,
        "plays": _plays(plan),
    }
    if duel is not None and plan.challenger is not None:
        by_seat = []
        for p in range(n):
            row = {"seat": p + 1,
                   "field_lives_lost_per_round": _est(duel.field_lost[p].estimate()),
                   "challenger_lives_lost_per_round": _est(duel.challenger_lost[p].estimate()),
                   "difference": _est(duel.by_seat[p].estimate())}
            if matches:
                row["field_win_rate"] = _est(wilson(duel.field_wins[p], duel.units))
                row["challenger_win_rate"] = _est(wilson(duel.challenger_wins[p], duel.units))
            by_seat.append(row)
        summary["challenger"] = {
            "challenger": plan.challenger,
            "field": plan.bots[0],
            "deal_sequences": duel.units,
            # Field minus challenger, lives lost per round: positive = challenger better.
            "difference": _est(duel.pooled.estimate(scale=1 / n)),
            "by_seat": by_seat,
        }
        if matches:
            # Seats rotated: each deal sequence's mean win share over the challenger's
            # seats, its interval over the sequences (the seats share their deals).
            summary["challenger"]["win_rate"] = _est(duel.wins.estimate())
    return summary


# -- text ----------------------------------------------------------------------------

def _ci(e: dict[str, Any], digits: int = 3, *, signed: bool = False) -> str:
    """An estimate and its interval, ``0.412 [0.398, 0.426]``; ``signed`` gives every
    number its sign (a difference: ``+0.012 [-0.003, +0.027]``)."""
    v, lo, hi = e["value"], e["low"], e["high"]
    if v is None:
        return "-"
    form = f"{'+' if signed else ''}.{digits}f"
    if lo is None or hi is None:
        return format(v, form)
    return f"{v:{form}} [{lo:{form}}, {hi:{form}}]"


def _table(headers: list[str], rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        out = [c.rjust(w) if i in right else c.ljust(w)
               for i, (c, w) in enumerate(zip(cells, widths, strict=True))]
        return "  ".join(out).rstrip()

    return [line(headers), *(line(r) for r in rows)]


def _bots_text(bots: list[str]) -> str:
    if len(set(bots)) == 1:
        return f"{bots[0]} × {len(bots)}"
    return ", ".join(bots)


def render_table(s: Summary) -> str:
    n = s["seats"]
    matches = s["mode"] == MATCHES
    duel = s["challenger"]
    out: list[str] = []
    size = f"{s['matches']} matches ({s['rounds']} rounds)" if matches else \
        f"{s['rounds']} single rounds"
    if duel is not None:
        out.append(f"{s['preset']}, {n} seats: challenger {duel['challenger']} against a field "
                   f"of {duel['field']}, {duel['deal_sequences']} deal sequences, seed "
                   f"{s['seed']}")
    else:
        out.append(f"{s['preset']}, {n} seats, {_bots_text(s['bots'])}: {size}, "
                   f"seed {s['seed']}")
    for spec, rows in s.get("plays", {}).items():
        out.append(f"{spec} plays: " + "; ".join(f"at {r['seats']} seats {r['plays']}"
                                                 for r in rows))
    out.append("Intervals are 95% confidence intervals.")
    if duel is not None:
        out += ["", f"Challenger at each seat against the same deals with {duel['field']} "
                    "there (lives lost per round; difference = field - challenger, "
                    "positive = challenger better)"]
        headers = ["Seat", duel["field"], duel["challenger"], "Difference"]
        rows = [[str(r["seat"]), _ci(r["field_lives_lost_per_round"]),
                 _ci(r["challenger_lives_lost_per_round"]), _ci(r["difference"], signed=True)]
                for r in duel["by_seat"]]
        if matches:
            headers += [f"Wins {duel['field']}", f"Wins {duel['challenger']}"]
            for row, r in zip(rows, duel["by_seat"], strict=True):
                row += [_ci(r["field_win_rate"]), _ci(r["challenger_win_rate"])]
        rows.append(["all", "", "", _ci(duel["difference"], signed=True)]
                    + (["", _ci(duel["win_rate"])] if matches else []))
        out += _table(headers, rows, {0})
        out += ["", f"Field games ({_bots_text(s['bots'])}): {size}"]
    out.append("")
    headers = ["Seat", "Bot", "Lives lost/round"] + (["Win rate"] if matches else [])
    rows = [[str(r["seat"]), r["bot"], _ci(r["lives_lost_per_round"])]
            + ([_ci(r["win_rate"])] if matches else []) for r in s["by_seat"]]
    out += _table(headers, rows, {0})
    if len(s["by_bot"]) > 1 or matches:
        out.append("")
        headers = ["Bot", "Seats", "Lives lost/round"] + (["Win rate/seat"] if matches else [])
        rows = [[r["bot"], str(r["seats"]), _ci(r["lives_lost_per_round"])]
                + ([_ci(r["win_rate"])] if matches else []) for r in s["by_bot"]]
        out += _table(headers, rows, {1})
    if matches:
        out += ["", f"Rounds per match: {_ci(s['rounds_per_match'], 2)}"]
    out += ["", f"Loss rate by position (1 = dealer's left, {n} = dealer; "
                "rounds with every seat dealt in)"]
    rows = [[str(r["position"]), r["label"], str(r["rounds"]), _ci(r["loss_rate"])]
            for r in s["by_position"]]
    out += _table(["Pos", "", "Rounds", "Loss rate"], rows, {0, 2})
    out += ["", "Loss rate by piece held at the deal"]
    rows = [[r["name"], str(r["rounds"]), _ci(r["loss_rate"])] for r in s["by_piece"]]
    out += _table(["Piece", "Dealt", "Loss rate"], rows, {1})
    return "\n".join(out)


# -- CSV ---------------------------------------------------------------------------

CSV_COLUMNS = ("table", "key", "bot", "metric", "n", "value", "low", "high")


def _csv_rows(s: Summary) -> Iterator[list[Any]]:
    def est(table: str, key: object, bot: str, metric: str,
            e: dict[str, Any]) -> list[Any]:
        return [table, key, bot, metric, e["n"], e["value"], e["low"], e["high"]]

    for r in s["by_seat"]:
        yield est("seat", r["seat"], r["bot"], "lives_lost_per_round",
                  r["lives_lost_per_round"])
        if "win_rate" in r:
            yield est("seat", r["seat"], r["bot"], "win_rate", r["win_rate"])
    for r in s["by_bot"]:
        yield est("bot", r["bot"], r["bot"], "lives_lost_per_round", r["lives_lost_per_round"])
        if "win_rate" in r:
            yield est("bot", r["bot"], r["bot"], "win_rate", r["win_rate"])
    if s["rounds_per_match"] is not None:
        yield est("match", "all", "", "rounds_per_match", s["rounds_per_match"])
    for r in s["by_position"]:
        yield est("position", r["position"], "", "loss_rate", r["loss_rate"])
    for r in s["by_piece"]:
        yield est("piece", r["piece"], "", "loss_rate", r["loss_rate"])
    duel = s["challenger"]
    if duel is not None:
        field, chal = duel["field"], duel["challenger"]
        for r in duel["by_seat"]:
            yield est("challenger", r["seat"], field, "lives_lost_per_round",
                      r["field_lives_lost_per_round"])
            yield est("challenger", r["seat"], chal, "lives_lost_per_round",
                      r["challenger_lives_lost_per_round"])
            yield est("challenger", r["seat"], chal, "difference", r["difference"])
            if "field_win_rate" in r:
                yield est("challenger", r["seat"], field, "win_rate", r["field_win_rate"])
                yield est("challenger", r["seat"], chal, "win_rate", r["challenger_win_rate"])
        yield est("challenger", "all", chal, "difference", duel["difference"])


def render_csv(s: Summary) -> str:
    """Long form: one estimate a row, so every table shares one set of columns."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for row in _csv_rows(s):
        w.writerow(["" if v is None else v for v in row])
    return buf.getvalue()
