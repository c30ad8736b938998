"""The journal's entries as types (``gnav.table.journal``): every kind the table writes
goes to the same JSON, byte for byte, and back; a malformed entry is refused in one line
naming the entry and the field; journals written before the types replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gnav.errors import GnavError, MalformedError
from gnav.names import parse_name
from gnav.seeds import DERIVED
from gnav.server.jsontext import dumps
from gnav.server.sealing import SECRET, Box, new_key
from gnav.strategies.match import STRATEGY_SETS
from gnav.table import Table, TableConfig
from gnav.table.journal import (
    ActEntry,
    CreateEntry,
    Entry,
    JoinEntry,
    Mover,
    Op,
    Raw,
    StartEntry,
    dump,
    parse_entry,
)
from gnav.table.retries import RequestKey
from gnav.vocab import Action, BotKind, SeatKind, TablePhase

T0 = 1000.0
OLD = sorted((Path(__file__).parent / "journals").glob("*.json"))
NAMES = ("Astrid", "Bjørn", "Cecilie", "Dag", "Åse")


def key(n: int) -> RequestKey:
    return RequestKey(f"key{n:020d}")


def stored(entries: list[Entry]) -> list[Raw]:
    """The entries as a store gives them back: written as the server writes its JSON,
    read with the standard parser."""
    return [json.loads(dumps(e)) for e in dump(entries)]


def same_bytes(raw: list[Raw]) -> None:
    """Each raw entry, parsed and dumped again, is the text it was."""
    for i, entry in enumerate(raw):
        again = parse_entry(entry, f"entry {i}").to_json()
        assert dumps(again) == dumps(entry)


# -- real play --------------------------------------------------------------------------

def _play(data: st.DataObject) -> list[Entry]:
    """A table played as people and hosts may: keys or none, joins, bots seated and
    seats freed, a start (or a lobby that expires), people's legal decisions and the
    clock's ticks (timers, stand-ins), a match or two."""
    draw = data.draw
    seats = draw(st.integers(3, 5))
    config = TableConfig.from_json({
        "seats": seats, "bot": draw(st.sampled_from(["random", "threshold"])),
        "turn_timer": draw(st.sampled_from([None, 5])), "grace": 10,
        "coaching": draw(st.booleans()),
        "options": {"lives": draw(st.integers(1, 2))}}, new=True)
    keys = iter(range(10**6))

    def req() -> RequestKey | None:
        return key(next(keys)) if draw(st.booleans()) else None

    table, host, result = Table.create("journal1", config, now=T0,
                                       seed=draw(st.integers(0, 2**48)), req=req())
    table.stopwatch = lambda: 0.0
    journal = list(result.journal)
    now = T0
    tokens: dict[int, str] = {}
    for name in NAMES[: draw(st.integers(0, seats - 1))]:
        seat, token, joined = table.join(parse_name(name), now, req())
        tokens[seat] = token
        journal += joined.journal
    for _ in range(draw(st.integers(0, 2))):
        if any(s.kind == SeatKind.EMPTY for s in table.seats):
            journal += table.add_bot(host, draw(st.sampled_from([None, BotKind.RANDOM])),
                                     now, req()).journal
    if draw(st.booleans()) and any(s.kind == SeatKind.BOT for s in table.seats):
        seat = next(i for i, s in enumerate(table.seats) if s.kind == SeatKind.BOT)
        journal += table.remove_seat(host, seat, now, req()).journal
    if draw(st.integers(0, 9)) == 9:  # (a lobby left to expire: one table in ten)
        journal += table.expire(now + 1).journal
        return journal
    for _ in range(draw(st.integers(1, 2))):
        journal += table.start(host, now, req()).journal
        for _ in range(400):
            if table.phase != TablePhase.PLAYING or table.match is None:
                break
            now += draw(st.sampled_from([0.5, 1.0, 30.0]))
            to_act = table.match.to_act
            if to_act is not None and to_act in tokens and draw(st.integers(0, 3)):
                if table.config.coaching and draw(st.booleans()):
                    table.coach_view(to_act, tokens[to_act])
                action = draw(st.sampled_from(table.match.legal_actions()))
                journal += table.act(to_act, tokens[to_act], table.version, action,
                                     now).journal
            else:
                journal += table.tick(now).journal
        if table.phase != TablePhase.FINISHED:
            break
    return journal


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_every_entry_of_real_play_goes_to_json_and_back_byte_for_byte(
        data: st.DataObject) -> None:
    journal = _play(data)
    raw = stored(journal)
    same_bytes(raw)
    parsed = [parse_entry(e) for e in raw]
    assert [type(e) for e in parsed] == [type(e) for e in journal]
    assert dump(parsed) == dump(journal)
    # And the table restored from that JSON is the table that wrote it.
    again = Table.restore(raw)
    restored = Table.restore(journal)
    assert (again.version, again.phase, again.match) == (restored.version, restored.phase,
                                                          restored.match)


def test_play_writes_every_kind_of_entry() -> None:
    config = TableConfig.from_json({"seats": 4, "bot": "random", "turn_timer": None,
                                    "grace": 10, "options": {"lives": 1}})
    table, host, result = Table.create("journal2", config, now=T0, seed=7, req=key(1))
    journal = list(result.journal)
    seat, token, joined = table.join(parse_name("Astrid"), T0, key(2))
    journal += joined.journal
    journal += table.add_bot(host, BotKind.RANDOM, T0, key(3)).journal
    journal += table.remove_seat(host, 1, T0, key(4)).journal
    journal += table.start(host, T0, key(5)).journal  # its bots: entries without a time
    table.watched = False  # nobody watches: the bots play in bursts
    now = T0
    while table.match is not None and table.match.to_act != seat and now < T0 + 9:
        now += 1  # within Astrid's grace: nobody stands in for her
        journal += table.tick(now).journal
    assert table.match is not None and table.match.to_act == seat
    table.coach_view(seat, token)
    journal += table.act(seat, token, table.version, table.match.legal_actions()[0],
                         now).journal
    lobby, _, _ = Table.create("journal3", config, now=T0, seed=8)
    journal += lobby.expire(T0 + 2).journal
    assert {e.op for e in journal} == set(Op)
    acted = [e for e in journal if isinstance(e, ActEntry) and e.by == Mover.PERSON]
    assert acted and acted[0].coached
    raw = stored(journal)
    same_bytes(raw)
    # The JSON as it was written before the types (the same keys, in the same order),
    # with the version of the match strategies its bots play beside the way of seeding.
    assert list(raw[0]) == ["op", "id", "config", "seed", "seeds", "strategies", "host",
                            "t", "req", "sealed"]
    assert list(raw[1]) == ["op", "seat", "name", "token", "req", "sealed", "v", "t"]
    start = next(e for e in raw if e["op"] == "start")
    assert list(start) == ["op", "t", "v", "req"]
    assert list(acted[0].to_json()) == ["op", "seat", "action", "by", "t", "v", "coached"]


@pytest.mark.parametrize("path", OLD, ids=lambda p: p.stem)
def test_journals_stored_before_the_types_read_and_write_the_same_bytes(path: Path) -> None:
    journal = json.loads(path.read_text())["journal"]
    same_bytes(journal[1:])
    first = parse_entry(journal[0])
    assert isinstance(first, CreateEntry)
    if path.stem.startswith("derived-"):  # written with derived seeds (tests/journals)
        assert first.seeds == DERIVED
        assert dumps(first.to_json()) == dumps(journal[0])
        return
    assert first.seeds is None  # before derived seeds
    # The config comes back as the table reads it: a field added since ("coaching")
    # with its default; the rest of the entry is the text it was.
    assert "coaching" not in journal[0]["config"]
    config = TableConfig.from_json(journal[0]["config"]).to_json()
    assert dumps(first.to_json()) == dumps({**journal[0], "config": config})
    assert {**journal[0]["config"], "coaching": True} == config


def test_a_first_entry_sealed_for_redis_opens_to_the_same_entry() -> None:
    table, _, result = Table.create("journal4", TableConfig(seats=3), now=T0, seed=11,
                                    req=key(9))
    box = Box(new_key())
    raw = result.journal[0].to_json()
    kept = box.seal_entry(table.id, raw)
    assert not set(SECRET) & set(kept)  # the seed and host digest are sealed
    opened = box.open_entry(table.id, json.loads(dumps(kept)))
    assert opened == raw and list(opened) != list(raw)  # the secrets come back last
    assert dumps(parse_entry(opened).to_json()) == dumps(raw)
    assert Table.restore([opened]).seed == 11


def test_an_early_journal_without_times_versions_or_movers_replays() -> None:
    config = TableConfig.from_json({"seats": 3, "bot": "random", "options": {"lives": 1}})
    table, host, result = Table.create("journal5", config, now=T0, seed=3)
    journal = list(result.journal) + table.start(host, T0).journal
    for _ in range(3):
        journal += table.tick(T0 + 1).journal
    early = [{k: v for k, v in e.items() if k not in ("by", "v", "t") or e["op"] == "create"}
             for e in stored(journal)]
    same_bytes(early)
    again = Table.restore(early)
    assert again.match == table.match
    assert isinstance(parse_entry(early[-1]), ActEntry)
    assert parse_entry(early[-1]) == ActEntry(early[-1]["seat"], Action(early[-1]["action"]))


# -- malformed entries ----------------------------------------------------------------------

def _journal() -> list[Raw]:
    config = TableConfig.from_json({"seats": 3, "bot": "random", "options": {"lives": 1}})
    table, host, result = Table.create("journal6", config, now=T0, seed=5)
    journal = list(result.journal)
    journal += table.join(parse_name("Astrid"), T0)[2].journal
    journal += table.start(host, T0).journal
    return stored(journal)


def _at(op: str) -> int:
    return next(i for i, e in enumerate(_journal()) if e["op"] == op)


BAD: list[tuple[str, Any, str, str]] = [
    # (the entry's op, a change to it, the field named, what is said)
    ("join", {"seat": "0"}, "seat", "must be a whole number, not text"),
    ("join", {"seat": True}, "seat", "must be a whole number, not true or false"),
    ("join", {"seat": -1}, "seat", "must be at least 0, not -1"),
    ("join", {"token": None}, "token", "must be text, not null"),
    ("join", {"token": ...}, "token", "missing"),
    ("join", {"t": "noon"}, "t", "must be a finite number of seconds, not text"),
    ("join", {"t": float("nan")}, "t", "must be a finite number of seconds, not a number"),
    ("join", {"v": 1.5}, "v", "must be a whole number, not a number"),
    ("join", {"extra": 1}, "'extra'", "not a field of this entry"),
    ("join", {"x\n" * 40: 1}, "'x\\nx\\nx", "not a field of this entry"),
    ("bot", {"kind": "oracle"}, "kind", "must be one of"),
    ("bot", {"name": ["Bot"]}, "name", "must be text, not a list"),
    ("act", {"action": "cheat"}, "action", "must be one of"),
    ("act", {"by": "ghost"}, "by", "must be one of"),
    ("act", {"coached": "yes"}, "coached", "must be true or false, not text"),
    ("act", {"seat": ...}, "seat", "missing"),
    ("create", {"seed": "42"}, "seed", "must be a whole number, not text"),
    ("create", {"seeds": 9}, "seeds", "must be one of 1, 2, 3, not 9"),
    ("create", {"strategies": 0}, "strategies",
     f"must be one of {', '.join(map(str, STRATEGY_SETS))}, not 0"),
    ("create", {"strategies": "2"}, "strategies", "must be a whole number, not text"),
    ("create", {"strategies": True}, "strategies", "must be a whole number, not true or"),
    ("create", {"config": {"seats": "six"}}, "config", "seats: must be a whole number"),
    ("create", {"host": 5}, "host", "must be text, not a number"),
]


@pytest.mark.parametrize(("op", "change", "name", "said"), BAD,
                         ids=[f"{op}-{name}-{i}" for i, (op, _, name, _) in enumerate(BAD)])
def test_a_malformed_entry_is_refused_in_one_line_naming_the_entry_and_field(
        op: str, change: dict[str, Any], name: str, said: str) -> None:
    journal = _journal()
    if op == "act":  # the bots' first decision after the start
        journal += stored(Table.restore(journal).tick(T0 + 1000).journal)
    at = next(i for i, e in enumerate(journal) if e["op"] == op)
    entry = {k: v for k, v in journal[at].items() if change.get(k, 0) is not ...}
    entry |= {k: v for k, v in change.items() if v is not ...}
    journal[at] = entry
    with pytest.raises(MalformedError) as refused:
        Table.restore(journal)
    text = str(refused.value)
    assert text.startswith(f"journal entry {at} ({op}): {name}")
    assert said in text and "\n" not in text
    # No value of the entry is shown: a digest or sealed token never reaches a log.
    for value in entry.values():
        if isinstance(value, str) and len(value) > 24:
            assert value not in text


@pytest.mark.parametrize(("raw", "said"), [
    ({"op": "leave", "seat": 0}, "journal entry: op: must be one of create, join, bot, "
                                 "unbot, start, act, expire, not 'leave'"),
    ({"seat": 0}, "journal entry: op: must be one of"),
    ([1, 2], "journal entry: must be an object, not a list"),
    ({"op": 3}, "journal entry: op: must be one of"),
])
def test_an_entry_of_no_kind_the_table_writes_is_refused(raw: object, said: str) -> None:
    with pytest.raises(MalformedError, match="^" + said.replace("(", r"\(")):
        parse_entry(raw)


def test_a_journal_that_does_not_fit_its_table_is_refused_in_one_line() -> None:
    journal = _journal()
    with pytest.raises(GnavError, match=r"^a table journal starts with its creation$"):
        Table.restore(journal[1:])
    with pytest.raises(GnavError, match=r"^a table journal starts with its creation$"):
        Table.restore([])
    join = _at("join")
    far = [*journal[:join], {**journal[join], "seat": 3}, *journal[join + 1:]]
    with pytest.raises(GnavError, match=rf"^journal entry {join} \(join\): seat: the table "
                                        r"has seats 0 to 2, not 3$"):
        Table.restore(far)
    with pytest.raises(GnavError, match=r"^journal entry 1 \(create\): a table journal "
                                        r"holds one creation"):
        Table.restore([journal[0], journal[0]])


def test_typed_entries_are_taken_as_they_are() -> None:
    """A table's own entries, not yet stored, restore as their JSON does (the hub
    writes a record from the stored journal and the change's new entries)."""
    journal = _journal()
    typed = [parse_entry(e) for e in journal]
    start = _at("start")
    assert isinstance(typed[start], StartEntry) and isinstance(typed[1], JoinEntry)
    mixed: list[Raw | Entry] = [*journal[:start], *typed[start:]]
    assert Table.restore(mixed).match == Table.restore(journal).match
