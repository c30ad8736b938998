"""The developer tools in tools/: each is named in the README's table of tools, with what
it is for, and says in its own first lines how it is run (issue 28: five were missing
from the README, and nothing noticed)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"
# A row of the README's table: its first cell names one tool or several, in backticks.
ROW = re.compile(r"^\| (`[\w.]+`(?:, `[\w.]+`)*) \|", re.MULTILINE)


def _named() -> set[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return {name for cell in ROW.findall(text) for name in re.findall(r"`([\w.]+)`", cell)
            if name.endswith((".py", ".sh"))}


def _tools() -> set[str]:
    return {p.name for p in TOOLS.iterdir() if p.suffix in (".py", ".sh")}


def test_every_tool_is_in_the_readme_and_every_row_is_a_tool() -> None:
    named, tools = _named(), _tools()
    assert len(tools) > 15
    assert tools - named == set(), "tools the README does not name"
    assert named - tools == set(), "rows of the README for tools that are gone"


def test_every_python_tool_says_what_it_is() -> None:
    for path in sorted(TOOLS.glob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        assert doc and len(doc.split()) >= 8, path.name


def test_the_readme_pattern_reads_a_row_of_several_tools() -> None:
    text = "| `a.py`, `b.py` | two tools |\n| `c.sh` | one |\n| cli | `cli/` | a layer |\n"
    found = {n for cell in ROW.findall(text) for n in re.findall(r"`([\w.]+)`", cell)}
    assert found == {"a.py", "b.py", "c.sh"}
