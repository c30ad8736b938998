"""Docstrings say what a function raises in one form, python-chess's: a ``:raises:``
field at the end (one ``:exc:`Name` ...`` line, or a list of them), never a sentence."""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

import gnav.errors

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "gnav"
# The prose forms the field replaced: "Raises X ...", "...; XError if ...".
PROSE = re.compile(r"\bRaises\b|\braises [A-Z]|[;,] [A-Z]\w*Error\b|^\s*[A-Z]\w*Error (if|unless)",
                   re.M)
FIELD = re.compile(r":exc:`(\w+)`")


def _docstrings() -> list[tuple[str, str]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                doc = ast.get_docstring(node)
                if doc:
                    found.append((f"{path.relative_to(PACKAGE)}:{node.lineno}", doc))
    return found


def test_no_docstring_says_what_it_raises_in_a_sentence() -> None:
    prose = [where for where, doc in _docstrings()
             if PROSE.search(doc.split(":raises:")[0])]
    assert prose == []


def test_each_raises_field_names_exceptions_that_exist() -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py"))
    fields = [(where, doc.split(":raises:", 1)[1]) for where, doc in _docstrings()
              if ":raises:" in doc]
    assert len(fields) > 40
    for where, field in fields:
        names = FIELD.findall(field)
        assert names, where
        for name in names:
            known = hasattr(builtins, name) or hasattr(gnav.errors, name) \
                or f"class {name}(" in source
            assert known, f"{where}: {name}"
