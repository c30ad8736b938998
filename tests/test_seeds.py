"""gnav.seeds: one way to draw a seed from another, for tables, simulations and the
solver, and the online table's older arithmetic kept for the journals written with it."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path
from random import Random

import pytest

from gnav.match import MatchState
from gnav.names import parse_name
from gnav.seeds import (
    DERIVED,
    LEGACY,
    SEEDINGS,
    VIEWS,
    TableSeeds,
    counter_base,
    counter_random,
    derive,
    expert_uniform,
)
from gnav.table import Table, TableConfig
from gnav.table.journal import dump


def test_derived_seeds_are_fixed_and_distinct() -> None:
    # Fixed values: a change here changes every published figure of a seed.
    assert derive(0, "deal", 0) == derive(0, "deal", 0)
    seeds = {derive(s, label, i) for s in (0, 1) for label in ("deal", "bot")
             for i in range(50)}
    assert len(seeds) == 200
    assert all(0 <= s < 2**63 for s in seeds)


def test_a_derived_seed_is_the_top_63_bits_of_the_paths_sha256() -> None:
    digest = hashlib.sha256(b"7/deal/3/0").digest()
    assert derive(7, "deal", 3, 0) == int(digest[:8].hex(), 16) // 2


def test_legacy_table_seeds_are_the_old_arithmetic() -> None:
    seeds = TableSeeds(42, LEGACY)
    assert seeds.match(2) == 42 * 1009 + 2
    assert seeds.deal(2, 5) == 42 * 1_000_003 + 2 * 10_007 + 5
    assert seeds.bot(2, 17, 3) == ((42 * 1_000_003 + 2) * 10_007 + 17) * 41 + 3


def test_derived_table_seeds_do_not_collide_where_the_arithmetic_did() -> None:
    # Table 0's match 1010 and table 1's match 1 had one seed; derived, they do not.
    old_a, old_b = TableSeeds(0, LEGACY), TableSeeds(1, LEGACY)
    assert old_a.match(1010) == old_b.match(1)
    new_a, new_b = TableSeeds(0), TableSeeds(1)
    assert new_a.match(1010) != new_b.match(1)
    assert new_a.match(1) == derive(0, "match", 1)
    assert new_a.deal(1, 0) == derive(0, "deal", 1, 0)
    assert new_a.bot(1, 5, 2) == derive(0, "bot", 1, 5, 2)
    views = TableSeeds(0, VIEWS)  # the table's own seeds as DERIVED's; its bots' differ
    assert (views.match(1), views.deal(1, 0), views.bot(1, 5, 2)) == \
        (new_a.match(1), new_a.deal(1, 0), new_a.bot(1, 5, 2))
    with pytest.raises(ValueError, match="unknown way of seeding 4"):
        TableSeeds(0, 4)


def test_a_bots_draws_keep_the_way_of_the_table_it_plays_at() -> None:
    # Under the two older ways a bot drew from a text (a journal stored then goes on with
    # the answers its bots gave: tests/test_table_journals.py); new tables derive them.
    fields = (2, 3, 1, "V", 0, 4)
    old = [counter_random(counter_base(7, way), fields, way).random()
           for way in (LEGACY, DERIVED)]
    assert old[0] == old[1] != counter_random(counter_base(7), fields).random()
    assert counter_base(7) == 7 and counter_base(7, DERIVED) == Random(7).getrandbits(64)
    assert counter_random(7, fields).random() == Random(derive(7, "counter", *fields)).random()
    later = [expert_uniform(7, fields, way) for way in SEEDINGS]
    assert later[0] == later[1] != later[2] == derive(7, "expert", *fields) / 2**63
    assert all(0 <= u < 1 for u in later)


def _started(seed: int) -> tuple[Table, list[dict[str, object]]]:
    config = TableConfig.from_json({"seats": 3, "bot": "random"})
    table, host, result = Table.create("seeds", config, now=0.0, seed=seed)
    journal = list(result.journal)
    _, _, joined = table.join(parse_name("Astrid"), 0.0)
    journal += joined.journal + table.start(host, 0.0).journal
    return table, dump(journal)  # as a store keeps it


def test_a_new_table_writes_its_way_of_seeding_and_deals_from_derived_seeds() -> None:
    table, journal = _started(42)
    assert journal[0]["seeds"] == VIEWS
    first = MatchState.new(table.rules, [s.name or "" for s in table.seats],
                           seed=derive(42, "match", 1))
    dealt = first.deal(rng=Random(derive(42, "deal", 1, 0)))
    assert table.steps[0].match.round == dealt.round
    again = Table.restore(journal)
    assert again.seeds.version == VIEWS and again.match == table.match


def test_a_journal_without_its_way_of_seeding_replays_with_the_arithmetic() -> None:
    _, journal = _started(42)
    # Up to the start (the bots' decisions after it answered the derived deal).
    upto = next(i for i, e in enumerate(journal) if e["op"] == "start") + 1
    old = [{k: v for k, v in e.items() if k != "seeds"} for e in journal[:upto]]
    table = Table.restore(old)
    assert table.seeds.version == LEGACY
    first = MatchState.new(table.rules, [s.name or "" for s in table.seats],
                           seed=42 * 1009 + 1)
    assert table.steps[0].match.round == first.deal(rng=Random(42 * 1_000_003 + 10_007)).round


# -- no seed is drawn any other way ----------------------------------------------------

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "gnav"
_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Mod, ast.FloorDiv, ast.Pow, ast.BitXor,
               ast.BitOr, ast.BitAnd, ast.LShift, ast.RShift)
_SEEDED = frozenset({"Random", "default_rng", "RandomState", "SeedSequence", "seed"})
# Where a seed meets arithmetic on purpose, and why:
ALLOWED = {
    # The compiled engine's counter-based generator: splitmix64 over (seed, stream, row)
    # is the generator itself, not a seed drawn for another use (numba has no hashlib).
    ("fast/jit.py", "_key"),
}


def _is_seed(node: ast.expr) -> bool:
    name = node.id if isinstance(node, ast.Name) else \
        node.attr if isinstance(node, ast.Attribute) else ""
    return "seed" in name.lower()


def _called(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _mixed(node: ast.expr) -> bool:
    """A seed argument that is not a seed: a string, arithmetic, or a hash."""
    if isinstance(node, ast.JoinedStr | ast.BinOp) or (
            isinstance(node, ast.Constant) and isinstance(node.value, str | bytes)):
        return True
    return (isinstance(node, ast.Call) and _called(node) in {"hash", "hash_token"}) or any(
        isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
        and n.value.id == "hashlib" for n in ast.walk(node))


def seed_arithmetic(source: str, where: str = "<test>") -> list[str]:
    """Each place in ``source`` where a seed is drawn from another other than by
    ``derive``: arithmetic on a seed, a seeded generator or a ``seed=`` given a string,
    arithmetic or a hash, and a function that hashes with hashlib beside a seed."""
    found = []
    tree = ast.parse(source)
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    owner = {id(inner): f.name for f in functions for inner in ast.walk(f)}
    for node in ast.walk(tree):
        if (where, owner.get(id(node))) in ALLOWED:
            continue
        line = f"{where}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITHMETIC) and (
                _is_seed(node.left) or _is_seed(node.right)):
            found.append(f"{line}: arithmetic on a seed")
        elif isinstance(node, ast.Call):
            given = [k.value for k in node.keywords if k.arg and "seed" in k.arg]
            if _called(node) in _SEEDED:
                given += node.args[:1]
            if any(_mixed(g) for g in given):
                found.append(f"{line}: a seed made of a string, arithmetic or a hash")
        elif isinstance(node, ast.FunctionDef):
            names = list(ast.walk(node))
            if any(isinstance(n, ast.Name) and n.id == "hashlib" for n in names) and any(
                    isinstance(n, ast.Name | ast.Attribute) and _is_seed(n) for n in names):
                found.append(f"{line}: {node.name} hashes beside a seed")
    return found


@pytest.mark.parametrize("source", [
    "x = seed * 1009 + game",
    "bot = make(self.seed + player)",
    "rng = Random(f'{job.seed}/{shard}')",
    "rng = Random('coach:' + where)",
    "rng = default_rng(hash((name, seed)))",
    "bot = make_bot(kind, seed=base * 1000 + i)",
    "def u(self, v):\n    return hashlib.blake2b(f'{self.seed}/{v}'.encode()).digest()",
])
def test_the_scan_finds_seed_arithmetic(source: str) -> None:
    assert seed_arithmetic(source)


def test_the_scan_passes_derived_seeds() -> None:
    assert seed_arithmetic("rng = Random(derive(seed, 'bot', i))\n"
                           "bot = make_bot(kind, seed=derive(self.seed, 'bot', p))\n"
                           "rng = Random(seed)\nmatch = new(seed=seed)\n") == []


def test_no_seed_is_drawn_from_another_but_by_derive() -> None:
    # seeds.py holds derive and the table's legacy arithmetic (kept for old journals).
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        if where != "seeds.py":
            found += seed_arithmetic(path.read_text(encoding="utf-8"), where)
    assert found == []
