"""The I/O-free table: seats, turns, refusals, timers, stand-ins, restore, and no leaks."""

from __future__ import annotations

from collections.abc import Callable
from itertools import count
from typing import Any

import pytest

from gnav.names import BadName, parse_name
from gnav.record import dumps
from gnav.table import Refused, Table, TableConfig, messages, render
from gnav.table.journal import ActEntry, Entry, Mover
from gnav.table.table import Result
from gnav.verify import verify_text
from gnav.vocab import Action, BotKind, TablePhase

T0 = 1000.0
Sent = tuple[int | None, dict[str, Any]]  # a message, and the seat it is for (None: spectators)


def sent(result: Result) -> list[Sent]:
    """The messages of a change, one for each seat told (``render``, everyone listening)."""
    return [(seat, o.message) for o in render(result.notices) for seat in o.to]


def hello(table: Table, seat: int, token: str, since: int | None,
          now: float) -> tuple[list[dict[str, Any]], Result]:
    """A connection's hello: what it gets at once, and the change for the others."""
    missed, result = table.connect(seat, token, since, now)
    return messages(missed, seat), result


def still() -> float:
    """A stopwatch that stands still: bots' bursts are cut by their number alone, never
    by how long a busy machine took to think them (``Table.stopwatch``)."""
    return 0.0


def new_table(**config: Any) -> tuple[Table, str, list[Entry]]:
    cfg = TableConfig.from_json({"seats": 4, "bot": "random", "turn_timer": 30,
                                 "grace": 10, **config})
    table, host, result = Table.create("t1", cfg, now=T0, seed=42)
    table.stopwatch = still
    return table, host, list(result.journal)


def seated(**config: Any) -> tuple[Table, str, dict[int, str], list[Entry]]:
    table, host, journal = new_table(**config)
    tokens = {}
    for name in ("Astrid", "Bjørn"):
        seat, token, result = table.join(parse_name(name), T0)
        tokens[seat] = token
        journal += result.journal
        table.connect(seat, token, None, T0)
    journal += table.start(host, T0).journal
    return table, host, tokens, journal


def play_out(table: Table, tokens: dict[int, str], journal: list[Entry],
             now: float = T0, limit: int = 5000) -> list[Sent]:
    """People always swap when they may (else stand) until the match ends."""
    out: list[Sent] = []
    for _ in range(limit):
        if table.phase != TablePhase.PLAYING or table.match is None:
            break
        seat = table.match.to_act
        assert seat is not None and seat in tokens
        legal = table.match.legal_actions()
        result = table.act(seat, tokens[seat], table.version,
                           Action.SWAP if Action.SWAP in legal else legal[0], now)
        journal += result.journal
        out += sent(result)
    return out


def test_join_then_start_fills_empty_seats_with_bots() -> None:
    table, _host, _tokens, _ = seated()
    assert [s.kind for s in table.seats] == ["human", "human", "bot", "bot"]
    assert table.phase == TablePhase.PLAYING and table.match is not None
    assert table.match.to_act in (0, 1)  # bots have played until a person is due


def test_a_whole_match_finishes_and_its_record_verifies() -> None:
    table, _host, tokens, journal = seated(options={"lives": 2})
    play_out(table, tokens, journal)
    assert table.phase == TablePhase.FINISHED
    code, lines = verify_text(dumps(table.record()), "table.json")
    assert code == 0, lines


@pytest.mark.parametrize(("look", "written"), [("cards52", "cards52"), ("cards", "cards"),
                                               ("pawns", None)])
def test_the_record_says_how_the_table_showed_its_pieces(look: str,
                                                          written: str | None) -> None:
    table, _host, tokens, journal = seated(options={"lives": 1}, look=look)
    play_out(table, tokens, journal)
    assert (table.record().get("x") or {}).get("look") == written


def test_refusals_leave_the_table_unchanged() -> None:
    table, _host, tokens, _ = seated()
    assert table.match is not None
    seat = table.match.to_act
    assert seat is not None
    other = 1 - seat
    before = (table.version, table.match)
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: table.act(seat, tokens[seat], table.version - 1, Action.STAND, T0), "stale"),
        (lambda: table.act(other, tokens[other], table.version, Action.STAND, T0), "not_your_turn"),
        (lambda: table.act(seat, tokens[other], table.version, Action.STAND, T0), "bad_token"),
        (lambda: table.act(seat, "forged", table.version, Action.STAND, T0), "bad_token"),
        (lambda: table.act(7, tokens[seat], table.version, Action.STAND, T0), "bad_seat"),
        (lambda: table.act(2, tokens[seat], table.version, Action.STAND, T0), "bad_token"),
    ]
    for call, code in cases:
        with pytest.raises(Refused) as info:
            call()
        assert info.value.code == code
        assert (table.version, table.match) == before


def test_an_action_the_rules_forbid_now_is_refused() -> None:
    # A seat may stand only while holding a matador: the one action an Action can be
    # that the table refuses (what is no action at all, the edge refuses).
    table, _host, tokens, _ = seated(options={"stand_needs_matador": True})
    for _ in range(200):
        assert table.match is not None
        seat = table.match.to_act
        assert seat is not None
        if Action.STAND not in table.match.legal_actions():
            before = (table.version, table.match)
            with pytest.raises(Refused) as info:
                table.act(seat, tokens[seat], table.version, Action.STAND, T0)
            assert info.value.code == "illegal" and "'stand' is not allowed" in str(info.value)
            assert (table.version, table.match) == before
            return
        table.act(seat, tokens[seat], table.version, Action.STAND, T0)
    raise AssertionError("no seat without a matador came to act")


def test_lobby_refusals() -> None:
    table, host, _ = new_table()
    with pytest.raises(BadName, match="name"):
        table.join(parse_name("   "), T0)
    table.join(parse_name("Astrid"), T0)
    with pytest.raises(Refused) as info:
        table.join(parse_name("Astrid"), T0)
    assert info.value.code == "name_taken"
    # One person however the name is typed (issue 27 §4: "Å" three ways sat three times).
    table.join(parse_name("\u00c5se"), T0)
    for same in ("A\u030ase", "\u212bse", "\u00e5SE", "ASTRID", "\u0410strid"):
        with pytest.raises(Refused) as info:
            table.join(parse_name(same), T0)
        assert info.value.code == "name_taken"
    with pytest.raises(Refused) as info:
        table.start("not the host", T0)
    assert info.value.code == "not_host"
    big, big_host, _ = new_table(seats=13)
    with pytest.raises(Refused) as info:  # a counter bot thinks too long at 13 seats
        big.add_bot(big_host, BotKind.COUNTER, T0)
    assert info.value.code == "bad_bot"
    table.start(host, T0)
    with pytest.raises(Refused) as info:
        table.join(parse_name("Cecilie"), T0)
    assert info.value.code == "started"


def test_turn_timer_lets_a_bot_act_for_a_silent_seat() -> None:
    table, _host, _tokens, _ = seated()
    assert table.match is not None
    seat, version = table.match.to_act, table.version
    assert table.tick(T0 + 29).journal == []
    result = table.tick(T0 + 31)
    first = result.journal[0]
    assert isinstance(first, ActEntry) and first.seat == seat
    assert first.by == Mover.TIMER
    assert table.version > version


def test_the_turn_timer_starts_when_the_page_shows_the_turn_but_a_bounded_time_late(
        ) -> None:
    table, _host, tokens, _ = seated()
    assert table.match is not None
    seat, version = table.match.to_act, table.version
    assert seat is not None and table.deadline() == T0 + 30  # from the turn's start
    within = table.pace.shown_within
    # The page took 2 s (a slow phone, a slow network): the 30 s start from then, and
    # everyone is told the new deadline (the table, its version unchanged).
    result = table.shown(seat, tokens[seat], version, T0 + 2)
    assert result.journal == [] and table.version == version
    told = sent(result)
    assert {s for s, _ in told} == {0, 1, None}
    assert all(m["type"] == "table" and m["table"]["timer_left"] == 30 for _, m in told)
    assert table.deadline() == T0 + 2 + 30
    assert table.tick(T0 + 31).journal == []
    # Said again, it moves nothing (once a turn).
    assert table.shown(seat, tokens[seat], version, T0 + 3).notices == []
    assert table.deadline() == T0 + 32
    result = table.tick(T0 + 32)
    first = result.journal[0]
    assert isinstance(first, ActEntry) and first.by == Mover.TIMER and first.seat == seat
    # The next person's page says it far too late (or lies): it wins ``shown_within``.
    nxt = table.match.to_act
    assert nxt is not None and nxt in tokens and table.turn_since == T0 + 32
    table.shown(nxt, tokens[nxt], table.version, T0 + 32 + 500)
    assert table.deadline() == T0 + 32 + within + 30


def test_a_shown_turn_that_is_not_the_seats_own_changes_nothing() -> None:
    table, _host, tokens, _ = seated()
    assert table.match is not None
    seat, version = table.match.to_act, table.version
    assert seat is not None
    other = next(s for s in tokens if s != seat)
    for who, v in ((other, version), (seat, version - 1), (seat, version + 1)):
        assert table.shown(who, tokens[who], v, T0 + 1).notices == []
        assert table.deadline() == T0 + 30
    with pytest.raises(Refused) as e:
        table.shown(seat, tokens[other], version, T0 + 1)
    assert e.value.code == "bad_token"
    # A change that fails is undone with the shown turn's start.
    saved = table.save()
    table.shown(seat, tokens[seat], version, T0 + 1)
    assert table.deadline() == T0 + 31
    table.undo(saved)
    assert table.deadline() == T0 + 30
    # No timer: nothing to start.
    untimed, _host, tokens, _ = seated(turn_timer=None)
    assert untimed.match is not None and untimed.match.to_act is not None
    s = untimed.match.to_act
    assert untimed.shown(s, tokens[s], untimed.version, T0 + 1).notices == []
    assert untimed.deadline() is None


def test_a_disconnected_seat_is_played_until_reclaimed() -> None:
    table, _host, tokens, _ = seated(turn_timer=None)
    assert table.match is not None
    for seat in tokens:
        table.disconnect(seat, T0)
    assert table.tick(T0 + 5).journal == []  # still within the grace period
    now = T0 + 11
    for _ in range(10000):
        if table.phase != TablePhase.PLAYING:
            break
        result = table.tick(now)
        assert result.journal, "a stand-in must act for an away seat"
        assert all(isinstance(e, ActEntry) and e.by in (Mover.STANDIN, Mover.BOT)
                   for e in result.journal)
        now += 1
    assert table.phase == TablePhase.FINISHED  # every match finishes
    # The player comes back and reclaims the seat with the token.
    seat = next(iter(tokens))
    got, _ = hello(table, seat, tokens[seat], 0, now)
    assert table.seats[seat].connected and got


def test_reconnect_sends_what_was_missed() -> None:
    table, _host, tokens, _ = seated()
    seat = 0
    since = table.version
    table.disconnect(seat, T0)
    play = table.match
    assert play is not None
    other = 1
    if play.to_act == other:
        table.act(other, tokens[other], table.version, Action.STAND, T0)
    got, _ = hello(table, seat, tokens[seat], since, T0 + 1)
    assert [m["version"] for m in got] == list(range(since + 1, table.version + 1))
    # Up to date, a hello is told where the table stands all the same (it was told
    # nothing: issue 27, a seat whose decision died with a process never heard it was
    # still its turn).
    fresh, _ = hello(table, seat, tokens[seat], table.version, T0 + 1)
    assert [(m["type"], m["version"]) for m in fresh] == [("snapshot", table.version)]
    lost, _ = hello(table, seat, tokens[seat], -5, T0 + 1)
    assert lost[0]["type"] == "snapshot"


def test_restore_from_the_journal_gives_the_same_table() -> None:
    table, _host, tokens, journal = seated(options={"lives": 3})
    for _ in range(6):
        if table.match is None or table.phase != TablePhase.PLAYING:
            break
        seat = table.match.to_act
        assert seat is not None
        journal += table.act(seat, tokens[seat], table.version, Action.SWAP, T0 + 1).journal
    again = Table.restore(journal)
    again.stopwatch = still
    assert again.version == table.version
    assert again.match == table.match
    assert again.deadline() is not None  # the timer comes back with the table
    play_out(table, tokens, journal[:0])
    play_out(again, tokens, journal[:0])
    assert table.record() == again.record()


def test_a_burst_of_bots_ends_when_its_thinking_time_is_up() -> None:
    """The stopwatch says where a burst ends (``Pace.seconds`` of thinking): one that
    moves a second at each look cuts every burst after its first decision, and the
    timer's ticks play the rest; one that stands still lets the bots play until the
    person is due, in one change. Either way the same decisions."""
    def acts(result: Result) -> int:
        return sum(1 for e in result.journal if isinstance(e, ActEntry))

    played = []
    for ticking in (False, True):
        table, host, journal = new_table(seats=5)
        if ticking:
            table.stopwatch = map(float, count()).__next__
        seat, token, result = table.join(parse_name("Astrid"), T0)
        table.connect(seat, token, None, T0)
        journal += result.journal
        result = table.start(host, T0)
        journal += result.journal
        assert table.match is not None
        if ticking:
            assert acts(result) <= 1
            while table.match.to_act != seat:
                result = table.tick(T0)
                assert acts(result) == 1
                journal += result.journal
        assert table.match.to_act == seat
        played.append([e for e in journal if isinstance(e, ActEntry)])
    assert len(played[0]) > 1
    assert played[0] == played[1]


def _pieces_in(message: dict[str, Any]) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    for e in message.get("events", []) + message.get("view", {}).get("events", []):
        for key in ("piece", "seat_got", "target_got", "set_aside"):
            if e.get(key) is not None and e["type"] != "answer":
                found.append((e["type"], e))
    return found


def test_no_message_carries_a_piece_its_recipient_may_not_know() -> None:
    table, _host, tokens, journal = seated(options={"lives": 2})
    out = play_out(table, tokens, journal)
    assert out
    names = table.match.names if table.match else ()
    for to, message in out:
        for kind, e in _pieces_in(message):
            assert to is not None, f"a spectator got a hidden piece in {kind}"
            me = names[to]
            if kind == "swap":
                assert me in (e["seat"], e["target"])
            elif kind == "draw":
                assert e["seat"] == me
        view = message.get("view", {})
        if to is None:
            assert view.get("piece") is None


def test_a_restored_table_restarts_its_timers_at_the_restart() -> None:
    _table, _host, _tokens, journal = seated()
    later = T0 + 3600  # the server was down for an hour
    again = Table.restore(journal, now=later)
    deadline = again.deadline()
    assert deadline is not None and deadline >= later + 10  # grace counts from the restart
    assert again.tick(later + 1).journal == []


def test_names_with_control_characters_are_refused() -> None:
    # The edge reads a name once (gnav.names.parse_name); the table takes only a Name.
    for name in ("A\x00B", "evil\u202emoc", "tab\there", "A\ud800"):
        with pytest.raises(BadName) as info:
            parse_name(name)
        assert info.value.code == "bad_name"


def test_a_seat_that_leaves_or_comes_back_is_told_to_everyone_at_once() -> None:
    table, _host, tokens, _ = seated(turn_timer=None)
    seat, other = sorted(tokens)
    version = table.version
    left = table.disconnect(seat, T0 + 1)
    assert left.journal == [] and table.version == version  # nothing was played
    told = {to for to, _ in sent(left)}
    assert told == {seat, other, None}  # every person and the spectators
    for _to, message in sent(left):
        assert message["type"] == "table" and message["version"] == version
        assert message["table"]["seats"][seat]["connected"] is False
        assert message["table"]["seats"][other]["connected"] is True
    _got, back = hello(table, seat, tokens[seat], version, T0 + 2)
    assert {to for to, _ in sent(back)} == {seat, other, None}
    assert all(message["table"]["seats"][seat]["connected"] for _, message in sent(back))
    # A connection that was never away says nothing new.
    _got, again = hello(table, other, tokens[other], version, T0 + 3)
    assert sent(again) == []


def test_an_update_says_when_a_bot_played_for_a_person() -> None:
    table, _host, tokens, _ = seated()
    assert table.match is not None
    seat = table.match.to_act
    assert seat is not None
    name = table.seats[seat].name
    result = sent(table.tick(T0 + 31))  # the turn timer runs out
    marked = [message for _, message in result if "by" in message]
    assert marked and all(m["by"] == {"seat": name, "how": "timer"} for m in marked)
    first = min(message["version"] for _, message in result if message["type"] == "update")
    assert {m["version"] for m in marked} == {first}  # only the decision made for them
    assert {to for to, message in result if "by" in message} >= set(tokens)
    # Decisions people make themselves, and the bots' own, carry no mark.
    assert table.match is not None and table.match.to_act is not None
    seat = table.match.to_act
    legal = table.match.legal_actions()
    mine = table.act(seat, tokens[seat], table.version, legal[0], T0 + 32)
    assert not any("by" in message for _, message in sent(mine))


def test_blank_and_long_names_have_codes_of_their_own() -> None:
    table, _host, _ = new_table()
    for name, code in (("   ", "name_blank"), ("x" * 25, "name_too_long"), (None, "bad_name")):
        with pytest.raises(BadName) as info:
            parse_name(name)
        assert info.value.code == code
    # spaces round it do not count
    seat, _token, _ = table.join(parse_name("  " + "y" * 24 + "  "), T0)
    assert table.seats[seat].name == "y" * 24


def test_the_tables_bots_and_play_round_play_the_same_match() -> None:
    # Threshold bots decide from the view alone (their seed changes nothing), so the
    # table's bots, made afresh for each decision, are the same players as one
    # ThresholdBot a seat: from each deal the table made, play_round must reach the
    # state the table reached at that round's end.
    from gnav.bots.threshold import ThresholdBot
    from gnav.runner import play_round

    table, host, _ = new_table(bot="threshold", options={"lives": 2})
    table.watched = False
    table.start(host, T0)
    now = T0
    while table.phase == TablePhase.PLAYING:
        now += 60
        table.tick(now)
    assert table.phase == TablePhase.FINISHED
    steps = table.steps
    deals = [i for i, s in enumerate(steps) if s.start == 0 and s.seat is None]
    assert deals and deals[0] == 0, "the whole match is in the table's steps"
    bots = [ThresholdBot() for _ in range(4)]
    for n, i in enumerate(deals):
        end = deals[n + 1] - 1 if n + 1 < len(deals) else len(steps) - 1
        match, decisions = play_round(steps[i].match, bots)
        assert decisions == end - i
        assert match == steps[end].match
    assert len(deals) > 3


def test_the_tables_methods_take_parsed_values() -> None:
    # A str where an Action, a Name or a BotKind is due is a mypy error (the edge
    # parses them once); the annotations say so.
    from typing import get_type_hints

    from gnav.names import Name

    assert get_type_hints(Table.act)["action"] is Action
    assert get_type_hints(Table.join)["name"] is Name
    assert get_type_hints(Table.add_bot)["kind"] == BotKind | None
    for method in (Table.act, Table.join, Table.add_bot, Table.remove_seat, Table.start,
                   Table.connect, Table.tick):
        hints = get_type_hints(method)
        assert object not in hints.values() and Any not in hints.values(), method


def test_a_round_that_ends_is_kept_before_the_next_waits_for_a_person() -> None:
    # Between rounds nothing waits: the round's last decision settles it and the next is
    # dealt in the same change, so a table restored from its journal right then (the
    # server stopped, the people gone) holds the finished round, not an unfinished one.
    table, _host, tokens, journal = seated(options={"lives": 3})
    while table.match is not None and not table.match.history:
        seat = table.match.to_act
        assert seat is not None and seat in tokens
        journal += table.act(seat, tokens[seat], table.version, Action.SWAP
                             if Action.SWAP in table.match.legal_actions() else Action.STAND,
                             T0).journal
    again = Table.restore(journal)
    # The bots may have played a whole round more in the same change (both people sitting
    # it out): every finished round is kept, and the next one is dealt.
    assert table.match is not None
    played = len(table.match.history)
    assert again.match is not None and played >= 1 and len(again.match.history) == played
    record = again.record()
    assert len(record["rounds"]) == played and all(r["result"] for r in record["rounds"])
    assert again.match.round is not None and again.match.round.number == played + 1


def _counter_spans(preset: str, seats: int, **options: object) -> list[dict[str, str]]:
    """Second method: what the expert bot says it plays at each size, kept where counter."""
    from gnav.bots.expert import ExpertBot, what_plays
    from gnav.rules import Rules

    rules = Rules.of(preset, **options)
    return [{"seats": span, "plays": "counter"}
            for span, text in what_plays(ExpertBot(0), rules,
                                         range(rules.min_seats, seats + 1))
            if text.startswith("counter")]


def test_the_table_says_where_an_expert_plays_counter() -> None:
    """Where expert bots sit at a table whose rules nothing was solved or trained for,
    the table's info names the sizes where they play as counter (the page says it once);
    where they play solved strategies and policies throughout, or no expert sits, None."""
    from gnav.rules import Rules

    # Every preset ships strategies and policies for its own options at every size, so
    # the odd table is gnav with its drag turned the other way: nothing trained for that.
    untrained = {"drag": not Rules.of("gnav").options.drag}
    spans = _counter_spans("gnav", 8, **untrained)
    assert spans and _counter_spans("gnav", 8) == []
    table, _, _ = new_table(preset="gnav", options=untrained, seats=8, bot="expert")
    assert table.info(T0)["expert_plays"] == spans
    table, _, _ = new_table(preset="gnav", seats=8, bot="expert")
    assert table.info(T0)["expert_plays"] is None
    table, _, _ = new_table(preset="gnav", options=untrained, seats=8, bot="random")
    assert table.info(T0)["expert_plays"] is None


# -- a large table sets what makes a match end (issue 26 §2, docs/spec/rules.md §6.1) ---

def test_a_new_large_table_sets_the_remedy_and_a_restored_one_keeps_its_own() -> None:
    from gnav.lengths import shipped, table_options

    start = shipped().presets["gnav"].remedy
    assert start is not None
    big = TableConfig.from_json({"seats": 41, "bot": "random"}, new=True)
    assert big.options == table_options("gnav", 41) == {"two_fools": "pay"}
    assert big.rules().to_spec() == {"preset": "gnav", "two_fools": "pay"}
    # Below the sizes, and where the host named the option, nothing is set.
    small = TableConfig.from_json({"seats": start.start - 1}, new=True)
    assert small.options == {}
    own = TableConfig.from_json({"seats": 41, "options": {"two_fools": "gain"}}, new=True)
    assert own.options == {"two_fools": "gain"}
    # A journal is history: restoring it never adds an option (new=False).
    assert TableConfig.from_json({"seats": 41, "bot": "random"}).options == {}


def test_the_record_of_a_large_table_names_the_option_it_set() -> None:
    cfg = TableConfig.from_json({"seats": 41, "bot": "random", "turn_timer": 30,
                                 "options": {"lives": 1}}, new=True)
    table, host, _ = Table.create("t1", cfg, now=T0, seed=5)
    table.stopwatch = still
    table.start(host, T0)
    for step in range(20_000):
        if table.phase == TablePhase.FINISHED:
            break
        table.tick(T0 + step)
    assert table.phase == TablePhase.FINISHED
    record = table.record()
    assert record["rules"] == {"preset": "gnav", "lives": 1, "two_fools": "pay"}
    code, lines = verify_text(dumps(record), "table.json")
    assert code == 0, lines


def test_the_lobby_is_told_how_long_a_match_lasts() -> None:
    from gnav.lengths import shipped

    found = shipped().presets["gnav"]
    cfg = TableConfig.from_json({"seats": 41, "bot": "random"}, new=True)
    table, _, _ = Table.create("t1", cfg, now=T0, seed=5)
    length = table.info(T0)["length"]
    assert length["seats"] == 41 and length["measured"] and length["remedied"]
    assert length["median"] == found.remedied[41].median
    assert length["table_options"] == {"two_fools": "pay"} and length["plays_table_options"]
    # The host's own rule at 41 seats: the preset's figure, which does not end.
    cfg = TableConfig.from_json({"seats": 41, "options": {"two_fools": "gain"}}, new=True)
    table, _, _ = Table.create("t1", cfg, now=T0, seed=5)
    length = table.info(T0)["length"]
    assert not length["plays_table_options"] and not length["remedied"]
    assert length["ends"] == found.default[41].ends < 1
