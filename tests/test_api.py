"""The public API (gnav/__init__.py): what ``import gnav`` gives, and the README's code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import gnav

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_facade_exports_the_bots_the_loop_the_protocol_events_and_records() -> None:
    for name in ("RandomBot", "ThresholdBot", "CounterBot", "ExpertBot", "make_bot",
                 "bot_from_spec", "play_match", "play_round", "Bot", "Event", "Swap",
                 "RoundEnd", "loads", "dumps", "parse", "from_match", "replay", "Action",
                 "Phase", "BotKind", "Lang", "SeatKind", "Ending"):
        assert name in gnav.__all__, name
    assert all(hasattr(gnav, name) for name in gnav.__all__)
    assert gnav.STAND == "stand" and gnav.STAND is gnav.Action.STAND


def test_a_piece_from_any_name_in_one_call() -> None:
    rules = gnav.Rules.of("gnav")
    assert rules.piece_named("Gjøk").id == "cuckoo"
    assert rules.piece_named("xii").id == "12"
    with pytest.raises(gnav.UnknownPieceError):
        rules.piece_named("queen")


def test_the_play_match_seed_seeds_the_deals_and_new_says_it_does_not() -> None:
    rules = gnav.Rules.of("gnav", lives=2)

    def final(seed: int) -> gnav.MatchState:
        bots = [gnav.make_bot("random", seed=i) for i in range(3)]
        return gnav.play_match(rules, ["A", "B", "C"], bots, seed=seed)

    assert gnav.dumps(gnav.from_match(final(3))) == gnav.dumps(gnav.from_match(final(3)))
    assert gnav.dumps(gnav.from_match(final(3))) != gnav.dumps(gnav.from_match(final(4)))
    doc = gnav.MatchState.new.__doc__ or ""
    assert "seeds only that cut" in doc


@pytest.mark.parametrize("block", range(3))
def test_the_readme_examples_run(block: int, capsys: pytest.CaptureFixture[str]) -> None:
    section = README.read_text(encoding="utf-8").partition("## Using the engine")[2]
    code = re.findall(r"```python\n(.*?)```", section, re.S)[block]
    exec(compile(code, f"README block {block}", "exec"), {})
    out = capsys.readouterr().out
    assert out.strip()


def _public_callables() -> list[tuple[str, object]]:
    """Every class and function ``gnav`` exports, and the public methods of its classes
    that gnav defines."""
    import inspect

    found: list[tuple[str, object]] = []
    for name in gnav.__all__:
        obj = getattr(gnav, name)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue
        if not (getattr(obj, "__module__", "") or "").startswith("gnav"):
            continue
        found.append((name, obj))
        if inspect.isclass(obj):
            for key, value in vars(obj).items():
                func = value.__func__ if isinstance(value, classmethod | staticmethod) \
                    else value
                if not key.startswith("_") and inspect.isfunction(func):
                    found.append((f"{name}.{key}", func))
    return found


def _raised(func: object) -> set[str]:
    """The names of the exceptions ``func``'s own body raises."""
    import ast
    import inspect
    import textwrap

    tree = ast.parse(textwrap.dedent(inspect.getsource(func)))  # type: ignore[arg-type]
    names = set()
    for node in ast.walk(tree.body[0]):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            names.add(exc.id if isinstance(exc, ast.Name) else ast.unparse(exc))
    return names


def test_public_classes_and_methods_have_docstrings_that_say_what_they_raise() -> None:
    import inspect

    undocumented, silent = [], []
    for name, obj in _public_callables():
        doc = inspect.getdoc(obj)
        if not doc:
            undocumented.append(name)
        elif inspect.isfunction(obj):
            raised = _raised(obj)
            if raised and "raise" not in doc.lower() and not raised & set(re.findall(r"\w+", doc)):
                silent.append(f"{name} ({', '.join(sorted(raised))})")
    assert not undocumented, f"no docstring: {undocumented}"
    assert not silent, f"raises without saying so: {silent}"
