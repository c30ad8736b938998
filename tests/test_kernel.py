"""The rules kernel: the decisions a preset's options imply, as data (gnav.kernel)."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest

from gnav.kernel import FOOL, LOWEST, TWO_FOOLS, Kernel, Settlement, json_key, preset_json
from gnav.options import BOOLS, CHOICES, RANGES
from gnav.powers import Effect, Outcome
from gnav.presets import PRESETS
from gnav.round import SWAP, RoundState
from gnav.rules import Rules
from gnav.vocab import Action, TwoFools


def kernel(**options: object) -> Kernel:
    return Rules.of("gnav", **options).kernel


def test_the_kernel_reads_each_piece_s_power_as_its_effect() -> None:
    rules = Rules.of("gnav")
    k = rules.kernel
    assert len(k.effects) == len(rules.pieces) == len(k.ids)
    for piece, effect in zip(rules.pieces, k.effects, strict=True):
        assert effect == (piece.power.effect if piece.power else None)
    cuckoo = rules.index("cuckoo")
    assert k.effects[cuckoo] == Effect(False, Outcome.STOP)
    assert k.fool_ranks == (rules.index("fool"),)
    assert k.deck == tuple(sorted(k.deck)) and len(k.deck) == 2 * len(k.ids)


def test_the_options_set_the_kernel_s_rules() -> None:
    k = kernel(revealed="act", knock="silent", penalty_to="holder", drag=False,
               two_fools="pay", two_fools_sit_out=False, dealer_wins_ties=True,
               max_rounds=7, lives=3, copies=1)
    assert (k.skip_revealed, k.knock_public, k.to_holder, k.drag) == (False, False, True, False)
    assert (k.two_fools, k.two_fools_sit_out, k.dealer_wins_ties) == (TwoFools.PAY, False, True)
    assert (k.max_rounds, k.lives, len(k.deck)) == (7, 3, len(k.ids))
    assert kernel().max_rounds == 0  # no limit


def test_a_seat_without_a_matador_may_only_swap_when_standing_needs_one() -> None:
    k = kernel(stand_needs_matador=True)
    for effect, legal in zip(k.effects, k.legal, strict=True):
        assert legal == ((Action.SWAP,) if effect is None else (Action.STAND, Action.SWAP))
    assert set(kernel().legal) == {(Action.STAND, Action.SWAP)}


def test_the_next_turn_skips_revealed_matadors_only_when_the_rules_say_so() -> None:
    revealed = 0b0110  # positions 1 and 2 answered
    assert kernel().next_turn(revealed, 0, 5) == 3
    assert kernel(revealed="act").next_turn(revealed, 0, 5) == 1
    assert kernel().next_turn(0b1000, 2, 4) == 4  # past the last: the round is over


def test_the_lowest_pays_and_the_dealer_is_let_off_a_tie_only_under_its_rule() -> None:
    rules = Rules.of("gnav")
    low = rules.index("fool") - 1  # the lowest plain piece, just above the fool
    assert rules.effects[low] is None and not rules.fools[low]
    hands = (3, low, 5, low)
    assert kernel().settle(hands) == Settlement((), ((1, LOWEST), (3, LOWEST)), (), -1)
    assert kernel(dealer_wins_ties=True).settle(hands) == \
        Settlement((), ((1, LOWEST),), (), 3)
    # Not a tie: the dealer alone at the lowest pays.
    assert kernel(dealer_wins_ties=True).settle((3, 5, low)).pays == ((2, LOWEST),)


def test_a_lone_fool_drags_the_lowest_of_the_others_or_the_lowest_pays() -> None:
    rules = Rules.of("gnav")
    fool = rules.index("fool")
    hands = (fool, 4, fool - 1, 6)
    assert max(hands) == fool  # the fool shows lowest: the drag takes the next
    dragged = kernel().settle(hands)
    others = max(h for h in hands if h != fool)
    assert dragged.pays == ((0, FOOL), (hands.index(others), LOWEST))
    plain = kernel(drag=False).settle(hands)
    assert plain.pays == ((hands.index(max(hands)), LOWEST),)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_last_draw_shows_what_the_engine_shows(name: str) -> None:
    """The dealer's swap with the stock, the round's last move, over every piece the
    stock may hold on top (and a plain piece below it): the hands the kernel says the
    showdown shows, and its charge, are the engine's own; a pass piece hands the request
    to the piece below."""
    rules = Rules.of(name)
    k = rules.kernel
    plains = [t for t, e in enumerate(k.effects) if e is None and not k.fools[t]]
    deal = (plains[0], plains[-1], plains[1])  # the dealer holds the last, position 2
    hands = (plains[1], plains[-1], plains[0])  # as if 0 and 2 swapped on the way
    below = plains[2]
    for top in range(len(k.ids)):
        state = RoundState.imagined(rules, (0, 1, 2), deal, hands, (top, below),
                                    (9, 9, 9), number=1, turn=2)
        end, _ = state.apply(SWAP)
        assert end.over
        answer = k.last_draw(top, hands, deal, 2)
        if answer is None:
            assert k.passes[top]
            answer = k.last_draw(below, hands, deal, 2)
        assert answer is not None
        shown, charge = answer
        assert end.hands == tuple(shown), k.ids[top]
        settled = k.settle(shown)
        lives = [9, 9, 9]
        for p in settled.gains:
            lives[p] += 1
        for p, _reason in settled.pays:
            lives[p] -= 1
        lives[2] -= charge
        assert end.lives == tuple(lives), k.ids[top]


@pytest.mark.parametrize("two", list(TwoFools))
def test_two_fools_gain_pay_or_are_a_plain_hand(two: TwoFools) -> None:
    rules = Rules.of("gnav")
    fool = rules.index("fool")
    hands = (fool, 2, fool, 5)
    got = kernel(two_fools=two.value).settle(hands)
    if two is TwoFools.GAIN:
        assert got == Settlement((0, 2), (), (0, 2), -1)
    elif two is TwoFools.PAY:
        assert got == Settlement((), ((0, TWO_FOOLS), (2, TWO_FOOLS)), (0, 2), -1)
    else:
        assert got.gains == () and got.fools == ()
        assert got.pays == tuple((p, LOWEST) for p, h in enumerate(hands) if h == max(hands))


def test_fools_sit_out_while_two_seats_play_on_and_a_next_round_comes() -> None:
    k = kernel()
    assert k.sit_out((0, 2), [True, True, True, True], 1, 0) == (0, 2)
    assert k.sit_out((0, 2), [True, False, True, True], 1, 0) == ()  # 1 seat would play
    assert k.sit_out((0, 2), [True, False, True, True], 1, 1) == (0, 2)  # one comes back
    assert k.sit_out((0, 2), [False, True, True, True], 1, 0) == (2,)  # out: no sitting
    assert kernel(max_rounds=3).sit_out((0, 2), [True] * 4, 3, 0) == ()  # the last round
    assert kernel(max_rounds=3).sit_out((0, 2), [True] * 4, 2, 0) == (0, 2)
    assert kernel(two_fools_sit_out=False).sit_out((0, 2), [True] * 4, 1, 0) == ()


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_json_export_is_the_kernel_in_plain_words(name: str) -> None:
    k = Rules.of(name).kernel
    data = json.loads(json.dumps(k.to_json()))
    assert data["ids"] == list(k.ids)
    for effect, out in zip(k.effects, data["effects"], strict=True):
        if effect is None:
            assert out is None
        else:
            assert Effect(out["charge"], Outcome(out["outcome"])) == effect
    assert data["two_fools"] == k.two_fools.value
    assert data["fools"] == list(k.fools) and data["deck"] == list(k.deck)


def test_a_rules_reads_its_tables_off_its_kernel() -> None:
    rules = Rules.of("gnav", stand_needs_matador=True, revealed="act")
    k = rules.kernel
    assert rules.effects is k.effects and rules.deck is k.deck
    assert rules.legal_holding is k.legal and rules.fool_set == frozenset(k.fool_ranks)
    assert (rules.skip_revealed, rules.stand_needs_matador) == (False, True)


def _laid_over(export: dict[str, Any], changes: dict[str, object]) -> dict[str, Any]:
    """What the companion does (book.js, kernelOf): ``base`` with each changed option's
    fields laid over it."""
    out = dict(export["base"])
    for name, value in changes.items():
        out.update(export["by_option"][name][json_key(value)])
    return out


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_any_options_kernel_is_the_base_with_each_option_s_fields_laid_over_it(
        name: str) -> None:
    preset = PRESETS[name]
    export = json.loads(json.dumps(preset_json(preset)))
    assert export["base"] == Rules.of(name).kernel.to_json()
    rng = Random(name)
    choices = {k: list(v) for k, v in CHOICES.items()} | {k: [False, True] for k in BOOLS} \
        | {k: list(range(lo, hi + 1)) for k, (lo, hi) in RANGES.items()}
    assert set(export["by_option"]) == set(choices)
    for _ in range(40):
        changes = {k: rng.choice(v) for k, v in choices.items() if rng.random() < 0.5}
        want = Kernel.of(preset, preset.options.updated(changes)).to_json()
        assert _laid_over(export, changes) == want, changes
