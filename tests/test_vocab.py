"""The shared vocabulary (gnav.vocab): one definition of each word, plain on the wire."""

from __future__ import annotations

import json
import pickle

import pytest

from gnav.bots.registry import BOT_KINDS, MAKERS, make_bot, parse_bot_spec
from gnav.errors import MalformedError
from gnav.match import MatchState
from gnav.presets import PRESETS
from gnav.record import dumps, from_match, loads
from gnav.rules import Rules
from gnav.vocab import (
    TEXT_LANGS,
    Action,
    BotKind,
    Ending,
    Lang,
    Phase,
    SeatKind,
    ending_of,
    parse_action,
    parse_bot_kind,
    parse_lang,
)


def test_members_are_their_strings_on_the_wire() -> None:
    assert list(Action) == ["stand", "swap"]
    assert json.dumps([Action.STAND, Phase.OVER, BotKind.COUNTER]) == \
        '["stand", "over", "counter"]'
    assert f"{Lang.NB}" == "nb" and str(SeatKind.EMPTY) == "empty"
    assert {"stand": 1}[Action.STAND] == 1
    assert pickle.loads(pickle.dumps(Action.SWAP)) is Action.SWAP
    assert [str(p) for p in Phase] == ["deal", "play", "over", "draw"]
    assert [str(k) for k in SeatKind] == ["empty", "human", "bot"]


@pytest.mark.parametrize(("text", "action"), [("stand", Action.STAND), (" SWAP ", Action.SWAP),
                                              (Action.SWAP, Action.SWAP)])
def test_parse_action(text: str, action: Action) -> None:
    assert parse_action(text) is action


@pytest.mark.parametrize("bad", ["", "pass", None, 1, ["stand"]])
def test_parse_action_rejects_in_one_line(bad: object) -> None:
    with pytest.raises(MalformedError, match=r"unknown action .* \(actions: stand, swap\)$"):
        parse_action(bad)


def test_bot_kinds_and_languages_parse_or_say_what_is_known() -> None:
    assert parse_bot_kind(" Counter") is BotKind.COUNTER
    with pytest.raises(MalformedError, match="bots: random, threshold, counter"):
        parse_bot_kind("expert?")
    assert parse_lang("DA") is Lang.DA
    assert parse_lang("sv") is Lang.SV
    with pytest.raises(MalformedError, match=r"languages: en, nb, da\)$"):
        parse_lang("sv", TEXT_LANGS)
    with pytest.raises(MalformedError):
        parse_lang(None)


def test_the_registry_is_read_from_the_enum_and_makes_every_kind() -> None:
    assert tuple(BotKind) == BOT_KINDS
    assert set(MAKERS) == set(BotKind)  # a kind added to the enum needs a maker
    for kind in BotKind:
        assert make_bot(kind).name == kind
        assert parse_bot_spec(kind.upper()) == (kind, {})


def test_preset_languages_are_languages() -> None:
    assert {p.lang for p in PRESETS.values()} <= set(Lang)
    for preset in PRESETS.values():
        for piece in preset.pieces:
            assert set(piece.names) <= set(Lang), (preset.name, piece.id)


def test_ended_by_stays_the_record_string_and_ending_names_its_kind() -> None:
    assert ending_of("turns") is Ending.TURNS
    assert ending_of("cuckoo") is Ending.STOP
    rules = Rules.of("gnav")
    match = MatchState.new(rules, ["A", "B", "C"], dealer=0)
    match = match.deal([rules.index(p) for p in ("5", "cuckoo", "7")], [rules.index("3")])
    match, _ = match.apply("swap")  # A asks B, who holds the cuckoo: the round stops
    assert match.round is not None and match.round.ended_by == "cuckoo"
    assert match.round.ending is Ending.STOP
    record = loads(dumps(from_match(match)))
    assert record.rounds[0].result is not None
    assert record.rounds[0].result["ended_by"] == "cuckoo"
    assert type(record.rounds[0].actions[0][1]) is Action
