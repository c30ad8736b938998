"""The coach at a served table: a seat asks for its own decision with its own token, the
host's "no coaching here" refuses it in one line, a coached decision is marked in the
journal and the record (``x.coached``), and a restored table keeps both."""

from __future__ import annotations

import random
from typing import Any

from gnav.names import parse_name
from gnav.odds.analyse import analyse, coached_of
from gnav.record import dumps, parse
from gnav.table import Refused, Table, TableConfig
from gnav.table.journal import ActEntry, Entry, Mover
from gnav.verify import verify_text
from gnav.views import seat_view
from gnav.vocab import Action, TablePhase
from server_kit import a_match, create, http_error, play_out

T0 = 1000.0


def _coach(client: Any, tid: str, seat: int, token: str) -> Any:
    return client.post(f"/api/tables/{tid}/seats/{seat}/coach",
                       headers={"Authorization": f"Bearer {token}"})


def test_a_seat_asks_the_coach_at_its_own_turn_and_the_record_marks_it(tmp_path: Any
                                                                       ) -> None:
    with a_match(tmp_path, table={"options": {"lives": 2}}) as m:
        assert m.state()[1] == "playing"
        info = m.client.get(f"/api/tables/{m.tid}").json()
        assert info["config"]["coaching"] is True
        mover = m.mover
        me, other = mover.seat, m.waiter.seat
        assert me is not None and other is not None
        r = _coach(m.client, m.tid, me, m.tokens[me])
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["seat"] == me and got["version"] == mover.version
        # The seat's first decision need not be in round 1: a bot that acts first can
        # end a round by itself (a request answered by the Cuckoo), and a charge can
        # take a seat's last life. The deal is the table's own (a fresh seed each run):
        # the coach speaks of the round and the seats the view shows.
        assert mover.view is not None
        asked_round = int(mover.view["round"])
        assert got["round"] == asked_round and got["seats"] == len(mover.view["order"])
        assert got["cpu_ms"] >= 0
        advice = got["advice"]
        if got["seats"] == 3 and len(mover.view["legal"]) == 2:
            assert advice["source"] == "exact"  # a solved 3-seat table: a lookup
            assert 0.0 <= advice["pay_stand"] <= 1.0 and 0.0 <= advice["pay_swap"] <= 1.0
            assert advice["expert"] in ("stand", "swap")
        # Asked again for the same decision: the same answer, not a second computation.
        assert _coach(m.client, m.tid, me, m.tokens[me]).json() == got
        # Not your turn, another's token, no token: one line each.
        http_error(_coach(m.client, m.tid, other, m.tokens[other]), 409, "not_your_turn")
        http_error(_coach(m.client, m.tid, me, m.tokens[other]), 403, "bad_token")
        http_error(m.client.post(f"/api/tables/{m.tid}/seats/{me}/coach"), 403,
                   "bad_token")
        coached_round = (m.client.get(f"/api/tables/{m.tid}").json()["games"], me)
        assert coached_round[0] == 1
        play_out(m.players, random.Random(3))
        r = m.client.get(f"/api/tables/{m.tid}/record")
        assert r.status_code == 200
        assert verify_text(r.text, "coached.json")[0] == 0
        record = parse(r.json())
        marked = coached_of(record)
        # Exactly the one decision taken after asking: its round, the seat that asked.
        assert marked == {(asked_round, me)}
        analysis = analyse(record)
        flagged = [(d.round, d.seat) for d in analysis.decisions if d.coached]
        assert flagged in ([(asked_round, me)], [])  # [] only if it had no choice
        if len(mover.view["legal"]) == 2:
            assert flagged == [(asked_round, me)]


def test_no_coaching_here_is_refused_in_one_line_and_seen_by_everyone(tmp_path: Any
                                                                      ) -> None:
    with a_match(tmp_path, table={"coaching": False, "listed": True}) as m:
        info = m.client.get(f"/api/tables/{m.tid}").json()
        assert info["config"]["coaching"] is False
        for p in m.players:  # every seat and the spectator see it in the table
            assert p.table is not None and p.table["config"]["coaching"] is False
        lobby = m.client.get("/api/tables").json()["tables"]
        assert [line["coaching"] for line in lobby if line["id"] == m.tid] == [False]
        me = m.mover.seat
        assert me is not None
        reason = http_error(_coach(m.client, m.tid, me, m.tokens[me]), 403, "no_coaching")
        assert "no coaching" in reason


def test_coaching_must_be_true_or_false(tmp_path: Any) -> None:
    from server_kit import serving

    with serving(tmp_path) as client:
        r = client.post("/api/tables", json={"coaching": "no"})
        assert "coaching" in http_error(r, 400, "bad_config")
        assert create(client)["table"]["config"]["coaching"] is True


def _seated(**config: Any) -> tuple[Table, dict[int, str], list[Entry]]:
    cfg = TableConfig.from_json({"seats": 3, "bot": "threshold", **config})
    table, host, result = Table.create("t1", cfg, now=T0, seed=7)
    journal = list(result.journal)
    tokens = {}
    for name in ("Astrid", "Bjørn"):
        seat, token, joined = table.join(parse_name(name), T0)
        tokens[seat] = token
        journal += joined.journal
    journal += table.start(host, T0).journal
    return table, tokens, journal


def _person_to_act(table: Table, tokens: dict[int, str],
                   journal: list[Entry]) -> int | None:
    """The person to decide next, once the bots have played (they play in bursts cut by
    the clock: the test's clock moves on until a person is due), or None at the end."""
    now = T0
    while table.phase == TablePhase.PLAYING and table.match is not None:
        seat = table.match.to_act
        if seat in tokens:
            return seat
        now += 60.0
        journal += table.tick(now).journal
    return None


def test_a_restored_table_keeps_no_coaching_and_every_coached_decision() -> None:
    table, tokens, journal = _seated(coaching=False, options={"lives": 2})
    again = Table.restore(journal)
    assert again.config.coaching is False
    for _ in range(5000):  # the match played out: its record says no coaching was offered
        s = _person_to_act(table, tokens, journal)
        if s is None or table.match is None:
            break
        journal += table.act(s, tokens[s], table.version, table.match.legal_actions()[0],
                             T0).journal
    assert table.record()["x"] == {"coaching": False}
    assert Table.restore(journal).record()["x"] == {"coaching": False}
    seat = again.match.to_act if again.match is not None else None
    assert seat is not None
    try:
        again.coach_view(seat, tokens[seat])
    except Refused as e:
        assert e.code == "no_coaching"
    else:
        raise AssertionError("a table with no coaching gave the coach")

    table, tokens, journal = _seated(options={"lives": 2})
    asked: list[tuple[int, int]] = []
    for _ in range(5000):
        seat = _person_to_act(table, tokens, journal)
        if seat is None or table.match is None:
            break
        number = table.match.round.number if table.match.round is not None else 0
        if seat == 0:  # Astrid always asks; Bjørn never does
            view = table.coach_view(seat, tokens[seat])
            assert view == seat_view(table.match, seat)  # her own view, nothing else
            asked.append((number, seat))
        legal = table.match.legal_actions()
        result = table.act(seat, tokens[seat], table.version,
                           Action.SWAP if Action.SWAP in legal else legal[0], T0)
        journal += result.journal
    assert table.phase == TablePhase.FINISHED and asked
    marked = [(e.seat, e.coached) for e in journal
              if isinstance(e, ActEntry) and e.by == Mover.PERSON]
    assert all(coached == (seat == 0) for seat, coached in marked)
    record = table.record()
    assert record["x"] == {"coached": [[r, "Astrid"] for r, _ in asked]}
    restored = Table.restore(journal)
    assert restored.record() == record
    assert verify_text(dumps(record), "coached.json")[0] == 0


def test_a_coach_asked_for_an_earlier_version_marks_nothing() -> None:
    """The mark is for the decision the coach was asked about: the seat's later
    decisions, taken without asking again, are not marked."""
    table, tokens, journal = _seated(options={"lives": 3})
    seat = _person_to_act(table, tokens, journal)
    assert seat is not None and table.match is not None
    table.coach_view(seat, tokens[seat])
    legal = table.match.legal_actions()
    table.act(seat, tokens[seat], table.version, legal[0], T0)
    assert table.coached and table.coached[-1][1] == seat
    count = len(table.coached)
    for _ in range(200):  # play on without asking: nothing more is marked
        s = _person_to_act(table, tokens, journal)
        if s is None or table.match is None:
            break
        table.act(s, tokens[s], table.version, table.match.legal_actions()[0], T0)
    assert len(table.coached) == count
