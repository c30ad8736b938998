"""The repository stands alone: nothing in it reads a folder beside the checkout, and it
cites its own contract (docs/spec/) rather than files that are not in it.

`.ci/run` proves the same the slow way, by running `make test` in a fresh clone with
nothing beside it; this test fails in a second, before that.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Spelled in pieces, so that this file does not match itself.
OUTSIDE = re.compile("|".join([
    re.escape(".." + "/shared"),  # the Makefile's old verify line
    r"""['"]shared['"]\s*/""",  # a path built in Python, either side of the folder
    r"""/\s*['"]shared['"]""",
    r"""parents\[\d+\]\.parent""",  # climbing out of the repository
    re.escape("/work/" + "shared"),
]))
OLD_NAMES = re.compile(r"\b(RULES|RECORD)\.md\b")


def _files(*roots: str, suffixes: tuple[str, ...] = (".py", ".md", ".toml", ".cfg")) -> \
        list[Path]:
    out: list[Path] = []
    for root in roots:
        path = ROOT / root
        if path.is_file():
            out.append(path)
            continue
        out += [p for p in sorted(path.rglob("*"))
                if p.is_file() and p.suffix in suffixes and "__pycache__" not in p.parts
                and not any(part.endswith(".egg-info") for part in p.parts)]
    return out


def _hits(pattern: re.Pattern[str], files: list[Path]) -> list[str]:
    hits = []
    for path in files:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{path.name}:{n}: {line.strip()}")
    return hits


def test_nothing_reads_a_folder_beside_the_repository() -> None:
    files = _files("src", "tests", "Makefile", "pyproject.toml",
                   suffixes=(".py", ".js", ".toml", ".cfg", ".html"))
    assert len(files) > 50
    assert _hits(OUTSIDE, files) == []


# A path on the machine the project was written on (its notes' folders): meaningless in
# a clone. Spelled in pieces, as above.
MACHINE = re.compile(re.escape("/wo" + "rk/") + r"\w")


def test_no_source_or_doc_names_a_path_of_the_machine_it_was_written_on() -> None:
    files = _files("src", "docs", "README.md", "tools", "tests",
                   suffixes=(".py", ".js", ".md", ".html"))
    assert len(files) > 50
    assert _hits(MACHINE, files) == []
    assert MACHINE.search("see " + "/wo" + "rk/coord/x.md")  # the pattern does catch one


def test_the_pattern_catches_what_the_old_tests_did(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    up, folder = "parents[1]" + ".parent", '"sha' + 'red"'
    bad.write_text(f"R = Path(__file__).resolve().{up} / {folder} / 'records'\n"
                   "V = 'gnav verify " + ".." + "/shared/records/*.json'\n", encoding="utf-8")
    assert len(_hits(OUTSIDE, [bad])) == 2


def test_the_contract_is_cited_by_its_place_in_the_repository() -> None:
    # docs/spec/rules.md and docs/spec/records.md, never the names of files kept elsewhere.
    # (The browser's own words are the web client's to change: not checked here.)
    files = _files("src", "tests", "README.md", "docs", "Makefile", suffixes=(".py", ".md"))
    assert _hits(OLD_NAMES, files) == []
    for spec in ("docs/spec/rules.md", "docs/spec/records.md"):
        assert (ROOT / spec).is_file(), spec


def _tracked(*paths: str) -> set[str]:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--", *paths],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:  # pragma: no cover
        pytest.fail(f"the repository's files are known from git, which failed: {e}")
    return set(out.splitlines())


def test_a_clone_has_every_worked_record_and_the_spec() -> None:
    # A record left uncommitted verifies here and is missing from every clone.
    tracked = _tracked("tests/records", "docs/spec")
    on_disk = {str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "records").glob("*.json")}
    assert on_disk and on_disk <= tracked, sorted(on_disk - tracked)
    assert {"docs/spec/rules.md", "docs/spec/records.md"} <= tracked


def test_ci_runs_make_test_in_an_empty_folder_and_then_the_shared_records() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line.strip() for line in script.splitlines() if not line.lstrip().startswith("#")]
    code = "\n".join(lines)
    clone = code.index("git clone")
    assert "mktemp -d" in code[:clone]
    assert code.index("make test") > clone
    assert code.index("gnav verify") > code.index("make test")
    # What pip cannot bring is make test's own first step (tools/sysdeps.sh), not CI's.
    assert "apt-get" not in code
