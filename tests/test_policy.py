"""Trained policies: the reader (standard library only), what expert does with them, the
server's cap on costly bots, and the report of docs/strategy.md. The shipped files are
checked by loading and sampling them; their recorded figures are re-measured by a slow
command (gnav exploit, gnav simulate), not here."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest

from gnav.abstraction import VERSION, Layout, abstract_key
from gnav.bots.expert import ExpertBot
from gnav.errors import MalformedError
from gnav.match import MatchState
from gnav.rules import Rules
from gnav.strategies import match_policy as match_policies
from gnav.strategies import policy as policies
from gnav.strategies import round_options
from gnav.strategies.policy import FORMAT, load_policy, shipped_policies, shipped_policy
from gnav.table.config import TableConfig, costly_bot_problem
from gnav.views import SeatView, seat_view
from gnav.vocab import Action, BotKind


def views(rules: Rules, seats: int, seed: int, count: int) -> list[SeatView]:
    rng = Random(seed)
    match = MatchState.new(rules, tuple(f"s{i}" for i in range(seats)), seed=seed)
    out: list[SeatView] = []
    while len(out) < count:
        if match.over or match.phase == "deal":
            match = MatchState.new(rules, match.names, seed=rng.randrange(10**9)) \
                if match.over else match.deal(rng=rng)
            continue
        seat = match.to_act
        assert seat is not None
        view = seat_view(match, seat)
        if len(view.legal) == 2:
            out.append(view)
        match, _ = match.apply(rng.choice(match.legal_actions()))
    return out


def write_policy(path: Path, rules: Rules, lo: int, hi: int, swap: dict[int, int],
                 scale: int = 100) -> Path:
    """A policy file of the format written now, by hand: keys ascending, P * scale."""
    data = {"format": FORMAT, "preset": rules.name, "seats": [lo, hi],
            "options": round_options(rules), "abstraction": VERSION,
            "pieces": list(rules.ids), "scale": scale, "meta": {},
            "keys": sorted(swap), "swap": [swap[k] for k in sorted(swap)]}
    path.write_bytes(gzip.compress(json.dumps(data).encode()))
    return path


def write_policy_1(path: Path, rules: Rules, lo: int, hi: int, swap: dict[str, int],
                   scale: int = 100, *, dealer_stood: bool = False) -> Path:
    """A policy file of gnav-policy/1: keyed by strings (``dealer_stood``: keyed with
    the dealer's ``left`` digit, as files trained now are)."""
    data: dict[str, object] = {
        "format": "gnav-policy/1", "preset": rules.name, "seats": [lo, hi],
        "options": round_options(rules), "abstraction": VERSION, "scale": scale,
        "swap": swap, "meta": {}}
    if dealer_stood:
        data["dealer_stood"] = True
    path.write_bytes(gzip.compress(json.dumps(data).encode()))
    return path


@pytest.fixture
def shelf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty folder of shipped policies in place of the package's (and of match
    policies: the expert plays a shipped one before a round policy)."""
    monkeypatch.setattr(policies, "POLICIES", tmp_path)
    monkeypatch.setattr(match_policies, "MATCH_POLICIES", tmp_path / "match")
    policies._index.cache_clear()
    match_policies._index.cache_clear()
    yield tmp_path
    policies._index.cache_clear()
    match_policies._index.cache_clear()


def test_a_file_made_before_the_dealers_digit_plays_as_it_did(tmp_path: Path) -> None:
    """A file without ``dealer_stood`` (keyed when the dealer's ``left`` was always -)
    answers the dealer after a round of stands as it did; a file with it holds its
    own answer there, and an answer of the dealer's that it lacks backs off as any."""
    rules = Rules.of("gnav")
    key = Layout.of(rules).read_text
    swap = {"5|0|5|-|S|-|0": 90, "5|0|5|*|*|*|0": 40, "2|3|5|-|S|-|0": 10}
    old = load_policy(str(write_policy_1(tmp_path / "old.json.gz", rules, 5, 6, swap)))
    new = load_policy(str(write_policy_1(tmp_path / "new.json.gz", rules, 5, 6, swap,
                                         dealer_stood=True)))
    stood = key("5|0|5|-|S|K|0")
    assert old.lookup(stood) == old.lookup(key("5|0|5|-|S|-|0")) == 0.9
    assert new.lookup(stood) == 0.4  # backed off to the coarsest: the file never met it
    assert old.lookup(key("2|3|5|-|S|K|0")) is None  # not the dealer: no copy
    assert len(old.swap) == len(new.swap) + 1


@pytest.mark.parametrize("version", [2, 1])
def test_lookup_backs_off_to_coarser_keys(tmp_path: Path, version: int) -> None:
    rules = Rules.of("gnav")
    key = Layout.of(rules).read_text  # keys are ints: written here as people read them
    swap = {"2|3|5|-|S|-|0": 100, "2|3|5|*|S|-|0": 40, "2|3|5|*|*|*|*": 10}
    path = write_policy(tmp_path / "p.json", rules, 5, 9,
                        {key(k): q for k, q in swap.items()}) if version == 2 else \
        write_policy_1(tmp_path / "p.json", rules, 5, 9, swap)
    p = load_policy(str(path))
    assert p.lookup(key("2|3|5|-|S|-|0")) == 1.0
    assert p.lookup(key("2|3|5|9|S|-|0")) == 0.4  # gave unseen: gave left out
    assert p.lookup(key("2|3|5|9|W|K|2")) == 0.1  # down to position and piece
    assert p.lookup(key("2|3|6|9|W|K|2")) is None
    assert p.swap_probability(key("2|3|5|9|S|-|0")) is None


def test_bad_policy_files_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "gnav-policy/1", "preset": "gnav"}')
    with pytest.raises(MalformedError, match="missing field"):
        load_policy(str(bad))
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"format": FORMAT, "abstraction": "gnav-abstraction/0"}))
    with pytest.raises(MalformedError, match="abstraction"):
        load_policy(str(old))
    # Format 2: two lists of ints, keys ascending in the layout's range, the deck named.
    rules = Rules.of("gnav")
    good = json.loads(gzip.decompress(write_policy(
        tmp_path / "good.json.gz", rules, 5, 9, {7: 50, 9: 0}).read_bytes()))
    for field, value, said in (
            ("swap", {"7": 50}, "of one length"), ("swap", [50], "of one length"),
            ("swap", [50, 101], "'swap' must hold"), ("swap", [50, True], "'swap' must hold"),
            ("keys", ["7", 9], "'keys' must"), ("keys", [True, 9], "'keys' must"),
            ("keys", [-1, 9], "'keys' must"), ("keys", [7, 1 << 40], "'keys' must"),
            ("keys", [7, 7], "ascending"), ("keys", [9, 7], "ascending"),
            ("pieces", [], "'pieces' must"), ("pieces", ["3", "3"], "'pieces' must")):
        bad.write_text(json.dumps({**good, field: value}))
        with pytest.raises(MalformedError, match=said):
            load_policy(str(bad))
    # A format 1 file of a preset gnav does not know: one line too.
    bad.write_text(json.dumps({"format": "gnav-policy/1", "preset": "nonesuch",
                               "abstraction": VERSION, "seats": [5, 9], "options": {},
                               "scale": 100, "swap": {}}))
    with pytest.raises(MalformedError, match="nonesuch"):
        load_policy(str(bad))


def test_the_narrowest_band_is_played_and_expert_plays_it(shelf: Path) -> None:
    rules = Rules.of("gnav")
    write_policy(shelf / "gnav-5-41.json.gz", rules, 5, 41, {})
    sample = views(rules, 12, 3, 30)
    keys = {abstract_key(v): 100 for v in sample}
    write_policy(shelf / "gnav-10-14.json.gz", rules, 10, 14, keys)
    narrow, wide = shipped_policy(rules, 12), shipped_policy(rules, 20)
    assert narrow is not None and narrow.seats == (10, 14)
    assert wide is not None and wide.seats == (5, 41)
    assert shipped_policy(Rules.of("gnav", drag=False), 12) is None
    bot = ExpertBot(1)
    assert bot.plays(rules, 12) == "the trained policy of gnav at 10-14 seats"
    for view in sample:  # every sampled key says swap: the bot swaps, no counter
        assert bot.probabilities(view) == {"stand": 0.0, "swap": 1.0}
        assert bot.act(view) == "swap"


def test_expert_sits_at_any_table_its_policies_cover(shelf: Path) -> None:
    rules = Rules.of("gnav")
    assert costly_bot_problem(BotKind.EXPERT, 20, rules) is not None
    write_policy(shelf / "gnav-5-41.json.gz", rules, 5, 41, {})
    policies._index.cache_clear()  # the folder is read once a process
    assert costly_bot_problem(BotKind.EXPERT, 41, rules) is None
    assert costly_bot_problem(BotKind.COUNTER, 41, rules) is not None
    # Options nothing was trained for: the expert would think as counter, so capped.
    assert costly_bot_problem(BotKind.EXPERT, 20, Rules.of("gnav", drag=False)) is not None
    config = TableConfig.from_json({"preset": "gnav", "seats": 41, "bot": "expert"})
    assert config.bot_problem(BotKind.EXPERT) is None


def test_the_report_reads_a_policy(shelf: Path) -> None:
    from policy_report import plain_key, report

    rules = Rules.of("gnav")
    swap = {plain_key(rules, 10, pos, "3"): 100 for pos in range(10)}
    swap.update({plain_key(rules, 10, pos, "6"): 100 if pos >= 7 else 0 for pos in range(10)})
    write_policy(shelf / "gnav-10-14.json.gz", rules, 10, 14, swap)
    text, figures = report("gnav-10")
    assert "Highest plain piece swapped, by position: " + ", ".join(
        ["III"] * 7 + ["VI"] * 3) in text
    assert figures["n"] == 10


def test_shipped_policies_load_and_sample() -> None:
    for path in shipped_policies():
        policy = load_policy(str(path))
        rules = Rules.of(policy.preset)
        lo, hi = policy.seats
        assert path.name == f"{policy.preset}-{lo}-{hi}.json.gz"
        assert 5 <= lo <= hi <= 41 and policy.fits(rules, lo)
        bot = ExpertBot(0)
        for seats in sorted({lo, hi}):
            if shipped_policy(rules, seats) is not policy:
                continue  # a narrower band serves this size
            for view in views(rules, seats, 1, 20):
                if len(view.order) != seats:
                    continue
                probs = bot.probabilities(view)
                assert set(probs) == {Action.STAND, Action.SWAP}
                assert 0.0 <= probs[Action.SWAP] <= 1.0


def test_every_preset_has_a_policy_at_every_size_from_5_to_41() -> None:
    from gnav.presets import PRESETS
    from gnav.strategies import game_name

    bot = ExpertBot(0, match=False)  # the round's: expert plays gnav's match policies
    for name in PRESETS:
        rules = Rules.of(name)
        for seats in range(max(5, rules.min_seats), min(41, rules.max_seats) + 1):
            policy = shipped_policy(rules, seats)
            assert policy is not None, f"{name} at {seats} seats has no policy"
            lo, hi = policy.seats
            assert bot.plays(rules, seats) == \
                f"the trained policy of {game_name(rules)} at {lo}-{hi} seats"


# -- found by the game, not the name (issue 26 §2) --------------------------------------

def test_a_policy_is_found_by_the_rules_not_the_presets_name() -> None:
    from gnav.bots.expert import ExpertBot
    from gnav.rules import Rules
    from gnav.strategies import games_like, shipped
    from gnav.strategies.policy import shipped_policy

    pay = Rules.of("gnav", two_fools="pay")  # what a large table of gnav plays
    pagat, gnav = Rules.of("gnav-pagat"), Rules.of("gnav")
    assert games_like(pay)[0] == "gnav" and "gnav-pagat" in games_like(pay)
    assert shipped_policy(pay, 41) is shipped_policy(pagat, 41) is not None
    assert shipped(pay, 3) is shipped(pagat, 3) is not None
    assert ExpertBot(0).plays(pay, 20).startswith("the trained policy of gnav-pagat")
    # One file a game (issue 28): gnav-rulebook plays gnav's, the very same object;
    # another game's never fits (other pieces, other powers).
    own = shipped_policy(Rules.of("gnav-rulebook"), 20)
    assert own is not None and own.preset == "gnav" and own is shipped_policy(gnav, 20)
    assert shipped_policy(Rules.of("gnav-1917", two_fools="pay"), 20) is None
    assert "gnav-pagat" not in games_like(Rules.of("gnav-1917"))


# -- keys are ints (issue 28 §2) ---------------------------------------------------------

def old_lookup(swap: dict[str, int], scale: int, key: str) -> float | None:
    """Second method: gnav-policy/1's lookup as it was, on key strings: the features
    ``gave``, ``right``, ``left``, ``k`` written ``*`` one after another."""
    q = swap.get(key)
    parts = key.split("|")
    for at in (3, 4, 5, 6):
        if q is not None:
            break
        parts[at] = "*"
        q = swap.get("|".join(parts))
    return None if q is None else q / scale


TABLES = [("gnav", (5, 8, 12, 20, 41)), ("gnav-1917", (6, 17, 33)),
          ("chase-the-ace", (7, 24)), ("kille", (10, 38))]


@pytest.mark.parametrize(("preset", "sizes"), TABLES)
def test_format_2_answers_as_format_1_at_views_of_random_play(
        preset: str, sizes: tuple[int, ...], tmp_path: Path) -> None:
    """Each shipped policy met, written back as format 1 (keys as strings): read again,
    it is the same policy, and at every view of random play (its own key, and the same
    with each feature changed, so that the back-off is met) the int lookup answers as the
    string lookup of format 1 did."""
    rules = Rules.of(preset)
    for seats in sizes:
        policy = shipped_policy(rules, seats)
        assert policy is not None
        layout = policy.layout
        text = {layout.text(k): q for k, q in policy.swap.items()}
        assert len(text) == len(policy.swap)
        lo, hi = policy.seats
        # As read (a file made before the dealer's digit with its copies), so flagged.
        again = load_policy(str(write_policy_1(
            tmp_path / f"{preset}-{seats}.json", Rules.of(policy.preset), lo, hi, text,
            policy.scale, dealer_stood=True)))
        assert again.swap == policy.swap and again.layout == layout
        backed_off = 0
        for view in views(rules, seats, seats, 60):
            key = abstract_key(view)
            digits = layout.unpack(key)
            for f, r in enumerate(layout.radix):  # the key, and each feature changed
                other = layout.pack(digits._replace(**{digits._fields[f]: (digits[f] + 1) % r}))
                for k in (key, other):
                    want = old_lookup(text, policy.scale, layout.text(k))
                    assert policy.lookup(k) == again.lookup(k) == want, layout.text(k)
                    backed_off += k not in policy.swap and want is not None
        assert backed_off > 0


def test_the_expert_decides_as_from_format_1() -> None:
    """Second method: the expert's decision made as before keys were ints, from the key
    string (its probability by the string lookup, its draw from the string), at every
    view of a few hundred rounds of random play at tables of 5 to 41."""
    from gnav.seeds import VIEWS, expert_uniform

    mixed = 0
    texts: dict[int, dict[str, int]] = {}  # by the policy's id (lru_cache keeps it)
    for preset, sizes in TABLES[:2]:
        rules = Rules.of(preset)
        for seats in sizes:
            bot = ExpertBot(7, match=False)  # the round policy (expert: gnav's match's)
            for view in views(rules, seats, seats + 1, 150):
                table = bot.table(rules, len(view.order))
                if not isinstance(table, policies.Policy):
                    continue  # a match's last seats: an exact strategy
                layout = table.layout
                old = texts.get(id(table))
                if old is None:  # the policy as format 1 held it
                    old = texts[id(table)] = {layout.text(k): q for k, q in table.swap.items()}
                key = layout.text(abstract_key(view))
                p = old_lookup(old, table.scale, key)
                assert p is not None
                if p <= 0.0 or p >= 1.0:
                    want = Action.SWAP if p >= 1.0 else Action.STAND
                else:
                    mixed += 1
                    u = expert_uniform(7, (view.round, view.seat, view.lives, key), VIEWS)
                    want = Action.SWAP if u < p else Action.STAND
                assert bot.act(view) == want
                assert bot.probabilities(view)[Action.SWAP] == p
    assert mixed > 100
