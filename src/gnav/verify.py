"""``gnav verify``: replay records and compare every stated result with the engine's."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from gnav.errors import InconsistentError, MalformedError
from gnav.record import Replay, dumps, loads, match_result, replay, round_results
from gnav.rules import Rules
from gnav.vocab import Ending

OK, INCONSISTENT, MALFORMED = 0, 1, 2


def verify_text(text: str, name: str, *, write: Path | None = None) -> tuple[int, list[str]]:
    """(exit code, lines) for one record's text: 0 agrees, 1 inconsistent, 2 malformed.
    A bad record is no exception: its fault is in the lines."""
    try:
        rep = replay(loads(text))
    except MalformedError as e:
        return MALFORMED, [one_line(f"{name}: {e}")]
    except InconsistentError as e:
        return INCONSISTENT, [one_line(f"{name}: {e}")]
    if write is not None:
        engine = round_results(rep)
        final = match_result(rep.final)
        data: dict[str, Any] = json.loads(text)
        for rd, res in zip(data["rounds"], engine, strict=True):
            rd["result"] = res
        if final is not None:
            data["result"] = final
        else:
            data.pop("result", None)
        write.write_text(dumps(data), encoding="utf-8")
        return OK, [f"{name}: wrote the results of {len(engine)} round(s)"]
    problems = disagreements(rep, name)
    if problems:
        return INCONSISTENT, problems
    return OK, [f"{name}: ok ({len(rep.states)} round(s))"]


def disagreements(rep: Replay, name: str) -> list[str]:
    """Each result the replayed record states that the engine computes otherwise, one
    line each, starting with ``name``: the check of ``gnav verify`` and of the replays'
    warning, on a replay made once by whoever read the record."""
    record = rep.record
    engine = round_results(rep)
    problems: list[str] = []
    for k, (rr, res) in enumerate(zip(record.rounds, engine, strict=True), 1):
        if rr.result is not None:
            problems += _compare_round(f"{name}: round {k}", rr.result, res, record.rules)
    if record.result is not None:
        problems += _compare_match(name, record.result, match_result(rep.final))
    return [one_line(p) for p in problems]


def one_line(message: str) -> str:
    """``message`` with every unprintable character escaped (a line break as ``\\n``).

    A record is hostile input, and a message quotes what it holds (a seat's name, a piece,
    a result): a line break there would split the one line that says what is wrong."""
    if message.isprintable():
        return message
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in message)


# The warning over a record that replays, but whose stated results disagree with the
# engine's: both replays (``gnav replay`` and the browser's) open it with these words.
WARNING = {
    "en": "The results this record states disagree with the rules; the replay shows what "
          "the rules compute. {details}",
    "nb": "Resultatene dette partiet oppgir, stemmer ikke med reglene; avspillingen viser "
          "det reglene gir. {details}",
    "da": "Resultaterne, dette spil angiver, stemmer ikke med reglerne; afspilningen viser, "
          "hvad reglerne giver. {details}",
}
SHOWN = 3  # disagreements named in a warning; the rest are counted


def results_warnings(rep: Replay) -> dict[str, str] | None:
    """The warning in every language over the replayed record: None when every result
    it states agrees with the engine. The caller's replay is read, not made again."""
    problems = [line.removeprefix("record: ") for line in disagreements(rep, "record")]
    if not problems:
        return None
    details = "; ".join(problems[:SHOWN]) + "."
    if len(problems) > SHOWN:
        details += f" ({len(problems) - SHOWN} more.)"
    return {lang: words.format(details=details) for lang, words in WARNING.items()}


def results_warning(rep: Replay, lang: str = "en") -> str | None:
    """``results_warnings`` in one language (English for one it does not have)."""
    warnings = results_warnings(rep)
    return None if warnings is None else warnings.get(lang, warnings["en"])


def verify_file(path: str, *, write: bool = False) -> tuple[int, list[str]]:
    """(exit code, lines) for one record file; a missing or unreadable file is exit 2,
    in the lines: nothing is raised."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        return MALFORMED, [f"{path}: no such file"]
    except (OSError, UnicodeDecodeError) as e:
        return MALFORMED, [f"{path}: cannot read: {e}"]
    return verify_text(text, p.name, write=p if write else None)


def _show(value: Any) -> str:
    if value is None:
        return "(not playing)"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def _compare_round(where: str, said: dict[str, Any], engine: dict[str, Any],
                   rules: Rules) -> list[str]:
    problems = []
    for key in ("hands", "lives"):
        if key not in said:
            continue
        mine: dict[str, Any] = engine[key]
        theirs: dict[str, Any] = said[key]
        if key == "hands":  # read aliases the way the deck reads them
            theirs = {s: rules.pieces[rules.index(p)].id for s, p in theirs.items()}
        for seat in list(dict.fromkeys([*mine, *theirs])):
            a, b = theirs.get(seat), mine.get(seat)
            if a != b:
                problems.append(f"{where}: {key} of {seat}: record says {_show(a)}, "
                                f"engine computes {_show(b)}")
    if "sit_out" in said and sorted(said["sit_out"]) != sorted(engine["sit_out"]):
        problems.append(f"{where}: sit_out: record says {_show(said['sit_out'])}, "
                        f"engine computes {_show(engine['sit_out'])}")
    if "ended_by" in said:
        told = said["ended_by"]
        if told != Ending.TURNS:
            with contextlib.suppress(MalformedError):
                told = rules.pieces[rules.index(told)].id
        if told != engine["ended_by"]:
            problems.append(f"{where}: ended_by: record says {said['ended_by']}, "
                            f"engine computes {engine['ended_by']}")
    return problems


def _compare_match(name: str, said: dict[str, Any], final: dict[str, Any] | None) -> list[str]:
    if final is None:
        return [f"{name}: result: record says the match is over, engine computes that it "
                "goes on"]
    problems = []
    if "winners" in said and sorted(said["winners"]) != sorted(final["winners"]):
        problems.append(f"{name}: result: winners: record says {_show(said['winners'])}, "
                        f"engine computes {_show(final['winners'])}")
    if "out" in said and said["out"] != final["out"]:
        problems.append(f"{name}: result: out: record says {_show(said['out'])}, "
                        f"engine computes {_show(final['out'])}")
    return problems
