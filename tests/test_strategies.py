"""``gnav.strategies``: one game, one shipped file a size (issue 28).

A game is its pieces and the options of one round; a preset that is another's game under
its own name (gnav-rulebook is gnav) ships nothing of its own and plays the game's file.
"""

from __future__ import annotations

from gnav.presets import PRESETS_LIST
from gnav.rules import Rules
from gnav.strategies import game_name, load, read_json, shipped, shipped_files, shipped_name
from gnav.strategies.policy import policy_name, shipped_policies, shipped_policy


def test_a_game_is_named_by_its_first_preset_with_those_pieces_and_round_options() -> None:
    assert game_name(Rules.of("gnav-rulebook")) == "gnav"
    # A large table of gnav sets two_fools = pay: gnav-pagat's round.
    assert game_name(Rules.of("gnav", two_fools="pay")) == "gnav-pagat"
    assert game_name(Rules.of("gnav-pagat", two_fools="gain")) == "gnav"
    # Hypp is gnav's pieces with one set of them: a round option, so another game.
    assert game_name(Rules.of("gnav", copies=1)) == "hypp"
    # A match option (lives, the pack, who sits out) does not make another game.
    assert game_name(Rules.of("gnav-rulebook", lives=5)) == "gnav"
    assert game_name(Rules.of("gnav-1917", two_fools_sit_out=True)) == "gnav-1917"
    # Options no preset has: the game is the rules' own, and nothing ships for it.
    assert game_name(Rules.of("gnav-rulebook", drag=False)) == "gnav-rulebook"
    assert shipped(Rules.of("gnav-rulebook", drag=False), 3) is None
    # The same cards but Le Her's ties: not Chase the Ace.
    assert game_name(Rules.of("le-her")) == "le-her"
    assert game_name(Rules.of("chase-the-ace", dealer_wins_ties=True)) == "le-her"
    assert {game_name(Rules.of(p.name)) for p in PRESETS_LIST} == \
        {p.name for p in PRESETS_LIST} - {"gnav-rulebook"}


def test_no_two_shipped_strategies_are_for_one_game() -> None:
    """Each file is named by the game it was solved for, so a duplicate under another
    preset's name cannot come back."""
    seen: dict[tuple[str, int], str] = {}
    files = shipped_files()
    assert files
    for path in files:
        strategy = load(str(path))
        game = game_name(Rules.of(strategy.preset, **strategy.options))
        assert game == strategy.preset, f"{path.name} is {game}'s game"
        assert path.name == shipped_name(game, strategy.seats)
        slot = (game, strategy.seats)
        assert slot not in seen, f"{path.name} and {seen[slot]} are one game"
        seen[slot] = path.name


def test_no_two_shipped_policies_are_for_one_game_at_one_size() -> None:
    seen: dict[tuple[str, int], str] = {}
    files = shipped_policies()
    assert files
    for path in files:
        data = read_json(str(path))
        lo, hi = (int(s) for s in data["seats"])
        game = game_name(Rules.of(data["preset"], **data["options"]))
        assert game == data["preset"], f"{path.name} is {game}'s game"
        assert path.name == policy_name(game, lo, hi)
        for seats in range(lo, hi + 1):
            slot = (game, seats)
            assert slot not in seen, f"{path.name} and {seen[slot]} are one game"
            seen[slot] = path.name


def test_every_preset_of_a_game_finds_the_very_same_file() -> None:
    for preset in PRESETS_LIST:
        rules = Rules.of(preset.name)
        game = Rules.of(game_name(rules))
        for seats in range(preset.min_seats, min(41, rules.max_seats) + 1):
            found = shipped(rules, seats) if seats <= 4 else shipped_policy(rules, seats)
            again = shipped(game, seats) if seats <= 4 else shipped_policy(game, seats)
            assert found is again and found is not None, (preset.name, seats)
            assert found.preset == game.name
