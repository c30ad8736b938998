"""Requests sent again (gnav.table.retries): a retry of a create, join, bot, unseat,
start or decision that was stored is answered as the first was and changes nothing,
in the table that made it and in one restored from its journal (another process)."""

from __future__ import annotations

from typing import Any

import pytest

from gnav.names import parse_name
from gnav.table import Missed, Refused, Snapshot, Table, TableConfig
from gnav.table.journal import Entry, dump
from gnav.table.retries import KEPT, RequestKey, digest, parse_key, seal, unseal
from gnav.table.table import hash_token
from gnav.vocab import Action, BotKind, TablePhase

T0 = 1000.0
A, B, C, D = (RequestKey(f"{c}" * 22) for c in "abcd")


def _table(**config: Any) -> tuple[Table, str, list[Entry]]:
    cfg = TableConfig.from_json({"seats": 4, "bot": "random", "turn_timer": None,
                                 "grace": 600, **config})
    table, host, result = Table.create("t1", cfg, now=T0, seed=42, req=A)
    table.stopwatch = lambda: 0.0
    return table, host, list(result.journal)


def test_a_key_is_bounded_and_its_seal_opens_with_it_alone() -> None:
    assert parse_key("k" * 16) == "k" * 16 and parse_key("k" * 64) == "k" * 64
    for bad in ("k" * 15, "k" * 65, "k" * 20 + "!", "k" * 20 + "\u00e5", None, 7):
        assert parse_key(bad) is None
    token = "Zm9vYmFyYmF6cXV4LXRva2VuLTEyMzQ1"
    sealed = seal(token, A)
    assert token not in sealed and unseal(sealed, A) == token
    assert unseal(sealed, B) != token
    assert digest(A) != digest(B) and A not in digest(A)


def test_a_retried_create_finds_the_host_token_in_the_journal() -> None:
    _, host, entries = _table()
    journal = dump(entries)  # as a store keeps it
    assert "sealed" in journal[0] and host not in str(journal)
    again = Table.restore(journal)
    assert again.host_token_for(A) == host
    assert hash_token(host) == again.host
    assert again.host_token_for(B) is None


def test_a_retried_join_gets_the_same_seat_and_token_even_after_the_start() -> None:
    table, host, journal = _table()
    seat, token, result = table.join(parse_name("Astrid"), T0, B)
    journal += result.journal
    version = table.version
    # Sent again: the same seat, the same token, nothing stored, nobody told.
    assert table.join(parse_name("Astrid"), T0, B)[:2] == (seat, token)
    again = table.join(parse_name("Astrid"), T0, B)[2]
    assert (again.journal, again.notices, table.version) == ([], [], version)
    # Without its key, or with another, it is a second person, refused by name.
    with pytest.raises(Refused) as info:
        table.join(parse_name("Astrid"), T0, C)
    assert info.value.code == "name_taken"
    journal += table.start(host, T0).journal
    # At another process, from the journal, after the match has started.
    restored = Table.restore(journal)
    assert restored.phase == TablePhase.PLAYING
    assert restored.join(parse_name("Astrid"), T0, B)[:2] == (seat, token)


def test_a_retried_start_is_not_refused_as_started() -> None:
    table, host, journal = _table()
    table.join(parse_name("Astrid"), T0)
    result = table.start(host, T0, C)
    journal += result.journal
    assert table.phase == TablePhase.PLAYING
    for t in (table, Table.restore(journal)):
        version = t.version
        again = t.start(host, T0, C)
        assert (again.journal, again.notices, t.version) == ([], [], version)
        with pytest.raises(Refused) as info:  # another start, or one with no key
            t.start(host, T0, D)
        assert info.value.code == "started"
        with pytest.raises(Refused) as info:  # only the host's own requests
            t.start("not the host", T0, C)
        assert info.value.code == "not_host"


def test_retried_bots_and_unseats_change_nothing_and_keys_are_bounded() -> None:
    table, host, journal = _table()
    journal += table.add_bot(host, BotKind.RANDOM, T0, B).journal
    assert table.add_bot(host, BotKind.RANDOM, T0, B).journal == []
    assert sum(s.kind == "bot" for s in table.seats) == 1
    journal += table.remove_seat(host, 0, T0, C).journal
    assert table.remove_seat(host, 0, T0, C).journal == []
    assert Table.restore(journal).asked == [digest(B), digest(C)]
    for n in range(KEPT + 5):  # many requests: the latest KEPT are kept
        key = RequestKey(f"key{n:04d}".ljust(16, "x"))
        table.add_bot(host, BotKind.RANDOM, T0, key)
        table.remove_seat(host, 0, T0, RequestKey(f"un{n:04d}".ljust(16, "x")))
    assert len(table.asked) == KEPT


def test_a_failed_change_forgets_its_key() -> None:
    table, host, _ = _table()
    saved = table.save()
    table.add_bot(host, BotKind.RANDOM, T0, B)
    table.undo(saved)  # the store refused it: the retry must seat the bot
    assert table.asked == [] and table.add_bot(host, BotKind.RANDOM, T0, B).journal


def _playing() -> tuple[Table, dict[int, str], list[Entry]]:
    table, host, journal = _table(seats=3)
    tokens = {}
    for name in ("Astrid", "Bjørn"):
        seat, token, result = table.join(parse_name(name), T0)
        tokens[seat] = token
        journal += result.journal
        table.connect(seat, token, None, T0)
    journal += table.start(host, T0).journal
    return table, tokens, journal


def test_a_retried_decision_is_answered_with_what_followed_it() -> None:
    table, tokens, journal = _playing()
    assert table.match is not None
    seat = table.match.to_act
    assert seat is not None
    version = table.version
    action = table.match.legal_actions()[0]
    journal += table.act(seat, tokens[seat], version, action, T0).journal
    for t in (table, Table.restore(journal)):  # here, and at another process
        answer = t.again(seat, tokens[seat], version, action, T0)
        assert isinstance(answer, Missed)
        assert [s.version for s in answer.steps] == list(range(version + 1, t.version + 1))
        # Not the decision it made: no answer (the refusal stands).
        other = Action.SWAP if action == Action.STAND else Action.STAND
        assert t.again(seat, tokens[seat], version, other, T0) is None
        assert t.again(seat, tokens[seat], version - 1, action, T0) is None
        with pytest.raises(Refused) as info:
            t.again(seat, "not the token", version, action, T0)
        assert info.value.code == "bad_token"
    # A decision a bot made for the seat is not the person's.
    others = [s for s in (0, 1) if s != seat]
    assert table.again(others[0], tokens[others[0]], version, action, T0) is None


def test_a_hello_that_missed_nothing_gets_where_the_table_stands() -> None:
    table, tokens, _ = _playing()
    got, _ = table.connect(0, tokens[0], table.version, T0)
    assert isinstance(got, Snapshot) and got.version == table.version
