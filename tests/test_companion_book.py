"""The companion's bookkeeping (web/static/companion/book.js) against the engine: random
matches played by the engine are turned into what a table would tap (who stands, who
asks, what was answered, the pieces at the showdown), the JavaScript keeps the match
from those taps alone, and its record must equal the engine's and verify.

The vectors are made here from seeded matches and shared with the JavaScript through a
file; node runs it (Debian's nodejs)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from gnav.bots.random_bot import RandomBot
from gnav.events import Answer, Ask, Draw, Knock, Stand, StockEmpty, Swap, Undo
from gnav.match import MatchState
from gnav.record import dumps, from_match
from gnav.rules import Rules
from gnav.runner import play_match
from gnav.verify import OK, verify_text
from gnav.web.data import preset_json

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "src/gnav/web/static/companion/book.js"
RUNNER = ROOT / "tests/js/companion_vectors.mjs"
NODE = shutil.which("node")  # Debian's nodejs (tools/sysdeps.txt)

CASES: list[tuple[str, dict[str, Any], int]] = [
    ("gnav", {"lives": 2}, 5),
    ("gnav", {"lives": 2, "penalty_to": "holder", "two_fools": "pay"}, 4),
    ("gnav", {"lives": 1, "revealed": "act", "knock": "silent", "copies": 1}, 6),
    ("gnav", {"lives": 2, "stand_needs_matador": True, "dealer_wins_ties": True}, 3),
    ("gnav", {"lives": 3, "max_rounds": 4, "two_fools": "gain"}, 8),
    ("gnav-1917", {"lives": 2}, 5),
    ("gnav-summary", {"lives": 2}, 4),
    ("hypp", {"lives": 2}, 4),
    ("slabberjan", {"lives": 2}, 5),
    ("slabberjan", {"lives": 4}, 3),
    ("cuccu", {"lives": 2}, 4),
    ("kille", {"lives": 2}, 6),
    ("chase-the-ace", {"lives": 2}, 4),
    ("le-her", {"lives": 3}, 2),
    ("hypp", {"lives": 4}, 20),  # a stock of one: it runs dry
]
REPEATS = 4  # matches of each case, from other seeds
RUNS = [(case, rep) for case in range(len(CASES)) for rep in range(REPEATS)]


def taps_of(rnd: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """What the table taps in one round of the engine, and the pieces it shows."""
    ids = rnd.rules.ids
    taps: list[list[str]] = []
    knocked: list[int] = []
    last_undo = -1
    for i, e in enumerate(rnd.public):
        if isinstance(e, Undo):
            last_undo = i
    aside: list[str] = []
    for i, e in enumerate(rnd.public):
        if isinstance(e, Knock):
            knocked.append(e.seat)
        elif isinstance(e, Stand):
            taps.append(["act", "stand"])
        elif isinstance(e, Ask):
            taps.append(["act", "swap"])
        elif isinstance(e, Answer):
            taps.append(["answer", e.piece])
        elif isinstance(e, Swap | StockEmpty):
            taps.append(["answer", "swap" if isinstance(e, Swap) else "empty"])
        elif isinstance(e, Draw):
            taps.append(["answer", "swap"])
            if i > last_undo:
                pos = rnd.seats.index(e.seat)
                full = dict(rnd.private[pos])[i]
                assert isinstance(full, Draw) and full.set_aside is not None
                aside.append(full.set_aside)
    hands = {str(s): ids[p] for s, p in zip(rnd.seats, rnd.hands, strict=True)}
    if rnd.rules.options.knock == "silent":
        knocked = []
    return {"dealer": rnd.dealer, "knocked": knocked, "taps": taps, "hands": hands,
            "aside": aside}


def vectors() -> tuple[list[dict[str, Any]], list[MatchState]]:
    out, finals = [], []
    for k, (case, _) in enumerate(RUNS):
        preset, options, seats = CASES[case]
        rules = Rules.of(preset, **options)
        names = tuple(f"P{i}" for i in range(seats))
        bots = [RandomBot(seed=100 * k + i) for i in range(seats)]
        final = play_match(rules, names, bots, seed=k)
        out.append({"preset": preset_json(rules.preset), "options": options,
                    "names": list(names), "dealer": final.history[0].dealer,
                    "rounds": [taps_of(r, names) for r in final.history]})
        finals.append(final)
    return out, finals


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Any], list[MatchState]]:
    if NODE is None:
        raise RuntimeError("the companion's tests need node: make test installs it "
                           "(tools/sysdeps.txt)")
    vs, finals = vectors()
    path = tmp_path_factory.mktemp("companion") / "vectors.json"
    path.write_text(json.dumps(vs), encoding="utf-8")
    run = subprocess.run([NODE, "--experimental-default-type=module", str(RUNNER), str(BOOK),
                          str(path)], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout), finals


@pytest.mark.parametrize("case", range(len(RUNS)),
                         ids=[f"{CASES[c][0]}-{c}-{r}" for c, r in RUNS])
def test_the_companion_keeps_the_match_the_engine_played(
        played: tuple[list[Any], list[MatchState]], case: int) -> None:
    results, finals = played
    got, final = results[case], finals[case]
    assert "error" not in got, got.get("error")
    engine = from_match(final)
    mine = got["record"]
    assert mine["rules"] == engine["rules"] and mine["seats"] == engine["seats"]
    assert mine.get("result") == engine.get("result")
    assert len(mine["rounds"]) == len(engine["rounds"])
    for k, (a, b) in enumerate(zip(mine["rounds"], engine["rounds"], strict=True)):
        assert (a["dealer"], a["deal"], a["actions"], a["result"]) == \
            (b["dealer"], b["deal"], b["actions"], b["result"]), f"round {k + 1}"
    assert got["lives"] == [list(r.lives) for r in final.history]
    code, lines = verify_text(dumps(mine), "companion")
    assert code == OK, lines


def test_the_vectors_reach_every_kind_of_answer(
        played: tuple[list[Any], list[MatchState]]) -> None:
    # The vectors are worth what they cover: every power asked and from the stock, undos,
    # two fools, eliminations, and a stock that ran dry somewhere.
    seen: set[str] = set()
    for final in played[1]:
        for rnd in final.history:
            for e in rnd.public:
                if isinstance(e, Answer):
                    seen.add(f"{e.power}:{'stock' if e.seat is None else 'seat'}")
                seen.add(type(e).__name__)
    for need in ("stop:seat", "charge:seat", "charge_undo:seat", "pass:seat", "pass:stock",
                 "refuse:seat", "undo:seat", "charge_stop:seat", "stop:stock", "charge:stock",
                 "charge_undo:stock", "refuse:stock", "undo:stock", "charge_stop:stock",
                 "Undo", "Knock", "Draw", "StockEmpty", "Gain"):
        assert need in seen, need


def test_every_word_the_companion_says_is_in_the_catalogue_in_every_language() -> None:
    import re

    from gnav.texts.catalogue import CATALOGUE
    from gnav.vocab import TEXT_LANGS

    source = "\n".join(p.read_text(encoding="utf-8") for p in BOOK.parent.glob("*.js"))
    ids = set(re.findall(r"""["'`](companion\.[a-z_.]+)["'`]""", source))
    # The ids spelled at run time: a pack's name, a reason's, a problem's.
    for part in ("pieces", "cards", "cards52"):
        ids.add(f"companion.pack.{part}")
    ids |= {f"companion.why.{w}" for w in ("lowest", "fool", "two_fools")}
    assert len(ids) > 50
    for id in ids:
        if id.endswith("."):
            continue
        assert id in CATALOGUE and set(TEXT_LANGS) <= set(CATALOGUE[id]), id


def test_a_match_kept_without_a_kernel_gets_its_preset_s_for_its_options(
        tmp_path: Path) -> None:
    if NODE is None:
        raise RuntimeError("the companion's tests need node (tools/sysdeps.txt)")
    preset = preset_json(Rules.of("gnav").preset)
    options = {"lives": 2, "two_fools": "plain", "penalty_to": "holder", "copies": 1}
    script = tmp_path / "upgrade.mjs"
    script.write_text(
        "import { pathToFileURL } from 'node:url';\n"
        "import { readFileSync } from 'node:fs';\n"
        f"const B = await import(pathToFileURL({json.dumps(str(BOOK))}).href);\n"
        f"const preset = JSON.parse(readFileSync({json.dumps(str(tmp_path / 'p.json'))}));\n"
        f"const m = B.newMatch(B.rulesOf(preset, {json.dumps(options)}), ['a', 'b'], 0);\n"
        "const old = { ...m, rules: { ...m.rules } };\n"
        "delete old.rules.kernel;\n"
        "const back = B.withKernel(old, preset);\n"
        "process.stdout.write(JSON.stringify([m.rules.kernel, back.rules.kernel]));\n",
        encoding="utf-8")
    (tmp_path / "p.json").write_text(json.dumps(preset), encoding="utf-8")
    run = subprocess.run([NODE, str(script)], capture_output=True, text=True, timeout=60,
                         check=False)
    assert run.returncode == 0, run.stderr
    made, upgraded = json.loads(run.stdout)
    want = Rules.of("gnav", **options).kernel.to_json()
    assert made == upgraded == want
