"""``gnav verify``: replay records and compare every stated result with the engine's."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from gnav.errors import InconsistentError, MalformedError
from gnav.record import dumps, loads, match_result, replay, round_results
from gnav.rules import Rules
from gnav.vocab import Ending

OK, INCONSISTENT, MALFORMED = 0, 1, 2


def verify_text(text: str, name: str, *, write: Path | None = None) -> tuple[int, list[str]]:
    """(exit code, lines) for one record's text: 0 agrees, 1 inconsistent, 2 malformed.
    Raises nothing for a bad record: its fault is in the lines."""
    try:
        record = loads(text)
        rep = replay(record)
    except MalformedError as e:
        return MALFORMED, [f"{name}: {e}"]
    except InconsistentError as e:
        return INCONSISTENT, [f"{name}: {e}"]
    engine = round_results(rep)
    final = match_result(rep.final)
    if write is not None:
        data: dict[str, Any] = json.loads(text)
        for rd, res in zip(data["rounds"], engine, strict=True):
            rd["result"] = res
        if final is not None:
            data["result"] = final
        else:
            data.pop("result", None)
        write.write_text(dumps(data), encoding="utf-8")
        return OK, [f"{name}: wrote the results of {len(engine)} round(s)"]
    problems: list[str] = []
    for k, (rr, res) in enumerate(zip(record.rounds, engine, strict=True), 1):
        if rr.result is not None:
            problems += _compare_round(f"{name}: round {k}", rr.result, res, record.rules)
    if record.result is not None:
        problems += _compare_match(name, record.result, final)
    if problems:
        return INCONSISTENT, problems
    return OK, [f"{name}: ok ({len(engine)} round(s))"]


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


def results_warnings(text: str) -> dict[str, str] | None:
    """The warning in every language, for a record that replays: None when every result
    it states agrees with the engine."""
    code, lines = verify_text(text, "record")
    if code == OK:
        return None
    problems = [line.removeprefix("record: ") for line in lines]
    details = "; ".join(problems[:SHOWN]) + "."
    if len(problems) > SHOWN:
        details += f" ({len(problems) - SHOWN} more.)"
    return {lang: words.format(details=details) for lang, words in WARNING.items()}


def results_warning(text: str, lang: str = "en") -> str | None:
    """``results_warnings`` in one language (English for one it does not have)."""
    warnings = results_warnings(text)
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
