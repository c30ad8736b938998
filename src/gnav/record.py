"""Game records (docs/spec/records.md): read, check the shape, write, and replay.

Reading checks only the shape (exit 2 territory: not JSON, unknown preset or piece, a
piece used too often, a missing field). Replaying checks the record against the rules
(exit 1 territory). Seat names in a record become seat numbers inside the engine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from gnav.errors import IllegalActionError, InconsistentError, MalformedError
from gnav.events import Ask, Stand
from gnav.match import MatchState
from gnav.round import RoundState, check_pieces
from gnav.rules import Rules
from gnav.vocab import Action, Phase

FORMAT = 1
_ACTIONS = frozenset(Action)  # exact spellings only: a record is not a keyboard
RESULT_FIELDS = ("hands", "lives", "sit_out", "ended_by")


@dataclass(frozen=True)
class RoundRecord:
    """One round of a record, read: seats as numbers, pieces as ranks."""

    dealer: int
    deal: dict[int, int] | None  # seat -> piece; None for a seeded round
    stock: tuple[int, ...] | None
    seed: int | None
    actions: tuple[tuple[int, Action], ...]
    result: dict[str, Any] | None  # as written in the record (seat names, piece ids)
    x: Any = None


@dataclass(frozen=True)
class Record:
    """A record (docs/spec/records.md), read and shape-checked: ``parse`` or ``loads`` make one."""

    rules: Rules
    seats: tuple[str, ...]
    lives: dict[int, int]
    rounds: tuple[RoundRecord, ...]
    result: dict[str, Any] | None = None
    x: Any = None
    spec: Any = field(default=None, compare=False)  # the rules as the record wrote them


# -- reading -------------------------------------------------------------------------


def loads(text: str) -> Record:
    """A record from its JSON text.

    :raises: :exc:`MalformedError` (one line: what and where) for text that is not JSON or
        not a record's shape.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise MalformedError(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise MalformedError("not a record: JSON nested too deeply") from None
    except ValueError as e:  # e.g. an integer too long for Python's reader
        raise MalformedError(f"not JSON: {e}") from None
    return parse(data)


def _fields(obj: Any, where: str, required: Sequence[str], optional: Sequence[str]) -> None:
    if not isinstance(obj, dict):
        raise MalformedError(f"{where}: must be an object")
    for name in required:
        if name not in obj:
            raise MalformedError(f"{where}: missing field {name!r}")
    extra = set(obj) - set(required) - set(optional) - {"x"}
    if extra:
        raise MalformedError(f"{where}: unknown field {sorted(extra)[0]!r} "
                             "(fields of your own go under \"x\")")


def parse(data: Any) -> Record:
    """A record from JSON data (dicts and lists).

    :raises: :exc:`MalformedError` for anything that is not a record's shape: a missing or
        unknown field, an unknown preset, seat or piece, a piece used more often than the
        deck holds it.
    """
    _fields(data, "record", ("gnav", "rules", "seats", "rounds"), ("lives", "result"))
    if data["gnav"] != FORMAT or isinstance(data["gnav"], bool):
        raise MalformedError(f"gnav: format version must be {FORMAT}, not {data['gnav']!r}")
    rules = Rules.from_spec(data["rules"], where="rules")
    seats = data["seats"]
    if not isinstance(seats, list) or not all(isinstance(s, str) and s for s in seats):
        raise MalformedError("seats: must be a list of seat names")
    if len(set(seats)) != len(seats):
        raise MalformedError("seats: seat names must be unique")
    try:
        rules.check_seats(len(seats))
    except ValueError as e:
        raise MalformedError(f"seats: {e}") from None
    index = {name: i for i, name in enumerate(seats)}

    def seat(name: Any, where: str) -> int:
        if not isinstance(name, str) or name not in index:
            raise MalformedError(f"{where}: unknown seat {name!r}")
        return index[name]

    lives: dict[int, int] = {}
    if "lives" in data:
        if not isinstance(data["lives"], dict):
            raise MalformedError("lives: must be an object of seat: lives")
        for name, value in data["lives"].items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise MalformedError(f"lives of {name}: must be a whole number of at least 1, "
                                     f"not {value!r}")
            lives[seat(name, "lives")] = value
    if not isinstance(data["rounds"], list):
        raise MalformedError("rounds: must be a list")
    rounds = tuple(_parse_round(r, f"round {k}", rules, seat)
                   for k, r in enumerate(data["rounds"], 1))
    result = data.get("result")
    if result is not None:
        _fields(result, "result", (), ("winners", "out"))
        for key in ("winners", "out"):
            if key in result and (not isinstance(result[key], list)
                                  or not all(isinstance(s, str) for s in result[key])):
                raise MalformedError(f"result: {key} must be a list of seat names")
            for name in result.get(key, []):
                seat(name, f"result: {key}")
    return Record(rules, tuple(seats), lives, rounds, result, data.get("x"), data["rules"])


def _parse_round(obj: Any, where: str, rules: Rules, seat: Any) -> RoundRecord:
    if isinstance(obj, dict) and "seed" in obj:
        _fields(obj, where, ("dealer", "seed", "actions"), ("result",))
        if isinstance(obj["seed"], bool) or not isinstance(obj["seed"], int):
            raise MalformedError(f"{where}: seed must be a whole number")
    else:
        _fields(obj, where, ("dealer", "deal", "stock", "actions"), ("result",))
    dealer = seat(obj["dealer"], f"{where}: dealer")
    deal: dict[int, int] | None = None
    stock: tuple[int, ...] | None = None
    if "deal" in obj:
        if not isinstance(obj["deal"], dict):
            raise MalformedError(f"{where}: deal must be an object of seat: piece")
        deal = {}
        for name, text in obj["deal"].items():
            deal[seat(name, f"{where}: deal")] = _piece(rules, text, f"{where}: deal of {name}")
        if not isinstance(obj["stock"], list):
            raise MalformedError(f"{where}: stock must be a list of pieces, top first")
        stock = tuple(_piece(rules, t, f"{where}: stock[{i}]") for i, t in enumerate(obj["stock"]))
        try:
            check_pieces(rules, [*deal.values(), *stock])
        except MalformedError as e:
            raise MalformedError(f"{where}: deal and stock: {e}") from None
    actions = obj["actions"]
    if not isinstance(actions, list):
        raise MalformedError(f"{where}: actions must be a list of [seat, action]")
    parsed = []
    for i, pair in enumerate(actions, 1):
        if not isinstance(pair, list) or len(pair) != 2:
            raise MalformedError(f"{where}: action {i}: must be [seat, \"stand\" | \"swap\"]")
        who = seat(pair[0], f"{where}: action {i}")
        if not isinstance(pair[1], str) or pair[1] not in _ACTIONS:
            raise MalformedError(f"{where}: action {i}: unknown action {pair[1]!r} "
                                 "(actions: stand, swap)")
        parsed.append((who, Action(pair[1])))
    result = obj.get("result")
    if result is not None:
        _fields(result, f"{where}: result", (), RESULT_FIELDS)
        for key in ("hands", "lives"):
            if key in result and not isinstance(result[key], dict):
                raise MalformedError(f"{where}: result: {key} must be an object of seat: value")
        if "sit_out" in result and not isinstance(result["sit_out"], list):
            raise MalformedError(f"{where}: result: sit_out must be a list of seats")
        if "ended_by" in result and not isinstance(result["ended_by"], str):
            raise MalformedError(f"{where}: result: ended_by must be \"turns\" or a piece id")
        for name, text in result.get("hands", {}).items():
            seat(name, f"{where}: result: hands")
            _piece(rules, text, f"{where}: result: hands of {name}")
        for name, value in result.get("lives", {}).items():
            seat(name, f"{where}: result: lives")
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise MalformedError(f"{where}: result: lives of {name} must be a whole "
                                     f"number, not {value!r}")
        for name in result.get("sit_out", []):
            seat(name, f"{where}: result: sit_out")
    return RoundRecord(dealer, deal, stock, obj.get("seed"), tuple(parsed), result,
                       obj.get("x"))


def _piece(rules: Rules, text: Any, where: str) -> int:
    try:
        return rules.index(text)
    except MalformedError as e:
        raise MalformedError(f"{where}: {e}") from None


# -- replaying -----------------------------------------------------------------------


@dataclass
class Replay:
    """Every state of a replayed record: ``states[k]`` holds the match after each
    decision of round k+1, the deal first."""

    record: Record
    states: list[list[MatchState]]
    final: MatchState


def replay(record: Record) -> Replay:
    """Replay ``record``.

    :raises: :exc:`InconsistentError`, saying where, if the record departs from the rules
        (a wrong dealer, turn or deal, too many or too few actions, an illegal action).
    """
    first = record.rounds[0].dealer if record.rounds else 0
    match = MatchState.new(record.rules, record.seats, dealer=first, lives=record.lives)
    names = record.seats
    states: list[list[MatchState]] = []
    for k, rr in enumerate(record.rounds, 1):
        where = f"round {k}"
        if match.over:
            raise InconsistentError(f"{where}: the match was already over")
        if rr.dealer != match.dealer:
            raise InconsistentError(f"{where}: dealer: record says {names[rr.dealer]}, "
                                    f"engine computes {names[match.dealer]}")
        order = match.turn_order()
        if rr.deal is None:
            match = match.deal(rng=Random(rr.seed))
        else:
            if set(rr.deal) != set(order):
                want = ", ".join(names[s] for s in sorted(order))
                got = ", ".join(names[s] for s in sorted(rr.deal))
                raise InconsistentError(f"{where}: deal: record deals to {got}, "
                                        f"engine deals to {want}")
            match = match.deal([rr.deal[s] for s in order], rr.stock or ())
        seen = [match]
        for i, (seat, action) in enumerate(rr.actions, 1):
            if match.phase != Phase.PLAY:
                raise InconsistentError(f"{where}: action {i}: the round has already ended "
                                        f"({len(rr.actions) - i + 1} action(s) too many)")
            if match.to_act != seat:
                due = match.to_act
                raise InconsistentError(f"{where}: action {i}: record says {names[seat]}, "
                                        f"engine says it is {names[due]}'s turn"
                                        if due is not None else f"{where}: action {i}")
            try:
                match, _ = match.apply(action)
            except IllegalActionError as e:
                raise InconsistentError(f"{where}: action {i}: {e}") from None
            seen.append(match)
        if match.phase == Phase.PLAY:
            raise InconsistentError(f"{where}: actions: too few; the engine waits for "
                                    f"{names[match.to_act or 0]}")
        states.append(seen)
    return Replay(record, states, match)


def round_results(rep: Replay) -> list[dict[str, Any]]:
    """The engine's ``result`` of every round, in record form."""
    rounds = [seen[-1].round for seen in rep.states]
    return results_of([r for r in rounds if r is not None], rep.record.seats)


def results_of(rounds: Sequence[RoundState], names: Sequence[str]) -> list[dict[str, Any]]:
    """The record form of each finished round's ``result``: the lives of every seat
    still in the match (sitting-out seats too), the final hands, who sits out next,
    and what ended the round."""
    out: list[dict[str, Any]] = []
    in_match = set(range(len(names)))
    for rnd in rounds:
        ids = rnd.rules.ids
        lives = rnd.lives
        out.append({
            "hands": {names[s]: ids[h] for s, h in zip(rnd.seats, rnd.hands, strict=True)},
            "lives": {names[s]: lives[s] for s in sorted(in_match)},
            "sit_out": [names[s] for s in rnd.sit_out],
            "ended_by": rnd.ended_by,
        })
        in_match -= {s for s in in_match if lives[s] <= 0}
    return out


def match_result(match: MatchState) -> dict[str, Any] | None:
    """The record's ``result`` of a finished match (None while it goes on)."""
    if match.winners is None:
        return None
    return {"winners": [match.names[s] for s in match.winners],
            "out": [match.names[s] for s in match.out]}


# -- writing -------------------------------------------------------------------------


def from_match(match: MatchState, *, x: Any = None) -> dict[str, Any]:
    """The record of a match so far: explicit deals, every decision, every result.

    A round still being played cannot be a record round (docs/spec/records.md: too few actions
    is inconsistent), so it is kept under ``x.unfinished_round``, where readers ignore
    it: a match saved mid-round still verifies.

    :raises:
        - :exc:`UnknownPresetError` for rules whose preset a record cannot name (one of
          your own that is not registered: ``gnav.presets.register``).
        - :exc:`MalformedError` for a round dealt with its stock undrawn (chance's draws
          are no record's).
    """
    names = match.names
    data: dict[str, Any] = {"gnav": FORMAT, "rules": match.rules.to_spec(),
                            "seats": list(names)}
    default = match.rules.options.lives
    special = {names[s]: v for s, v in enumerate(match.start_lives) if v != default}
    if special:
        data["lives"] = special
    # The history holds every round's outcome: nothing is replayed to write it.
    data["rounds"] = [{**_round_data(r, names), "result": res}
                      for r, res in zip(match.history, results_of(match.history, names),
                                        strict=True)]
    result = match_result(match)
    if result is not None:
        data["result"] = result
    extra: dict[str, Any] = dict(x) if isinstance(x, dict) else {} if x is None else {"x": x}
    if match.round is not None and not match.round.over:
        extra["unfinished_round"] = _round_data(match.round, names)
    if extra:
        data["x"] = extra
    return data


def _round_data(rnd: RoundState, names: tuple[str, ...]) -> dict[str, Any]:
    if rnd.undrawn:
        # The pieces chance never drew are nobody's knowledge: a record holds the whole
        # stock (docs/spec/records.md), and the stock's size is in every view.
        raise MalformedError(f"round {rnd.number} was dealt with its stock undrawn: a "
                             f"record needs the whole stock, known at the deal")
    ids = rnd.rules.ids
    actions = [[names[e.seat], Action.STAND if isinstance(e, Stand) else Action.SWAP]
               for e in rnd.public if isinstance(e, Stand | Ask)]
    return {
        "dealer": names[rnd.dealer],
        "deal": {names[s]: ids[p] for s, p in zip(rnd.seats, rnd.deal, strict=True)},
        "stock": [ids[p] for p in rnd.stock],
        "actions": actions,
    }


def dumps(data: Mapping[str, Any]) -> str:
    """A record as JSON laid out like the worked records: one line per round field."""
    def line(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    parts = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        if key == "rounds" and data[key]:
            parts.append(' "rounds": [')
            for j, rd in enumerate(data[key]):
                parts.append("  {")
                rkeys = list(rd)
                for m, rk in enumerate(rkeys):
                    c = "," if m < len(rkeys) - 1 else ""
                    parts.append(f"   {line(rk)}: {line(rd[rk])}{c}")
                parts.append("  }" + ("," if j < len(data[key]) - 1 else ""))
            parts.append(" ]" + comma)
        else:
            parts.append(f" {line(key)}: {line(data[key])}{comma}")
    parts.append("}")
    return "\n".join(parts) + "\n"
