"""The core imports nothing outside the standard library.

Every module under src/gnav is imported in a fresh interpreter, and the modules that
import brings in are checked against ``sys.stdlib_module_names``; each module's source
is also read for its import statements. Subpackages that may be added later with their
own dependencies (server, rl, tui, web) are left out, and so are the OpenSpiel and
PettingZoo adapters (the [rl] extra).

Across the whole package, imports flow one way: up the README's layers, and with no two
modules importing each other, however indirectly, nor two packages (the import graph is
read from the source, lazy, typing-only and relative imports included).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "gnav"
# bench: the engines' speed measured (numpy for the batch engine), no part of the core.
NOT_CORE = frozenset({"server", "rl", "tui", "web", "solve", "train",
                      "openspiel", "pettingzoo", "fast", "bench"})
# The odds atlas's two numpy sources (the [analysis] extra): the exact tree and the batch
# engine's playouts; the rest of gnav.odds, which chooses between them, is the core's.
NOT_CORE_MODULES = frozenset({"gnav.odds.exact", "gnav.odds.batch"})
FORBIDDEN = frozenset({"asyncio", "numpy"})
STDLIB = frozenset(sys.stdlib_module_names)
# Names the interpreter itself puts in sys.modules (multiprocessing aliases the main
# module as __mp_main__); they are not imports of anything.
ALIASES = frozenset({"__main__", "__mp_main__"})
# Optional extras a core module may import inside a function, only when asked for
# (simulate --plot): importing the module itself still loads only the stdlib.
LAZY_EXTRAS = {"gnav.sim.plot": frozenset({"matplotlib"}),
               "gnav.odds.plot": frozenset({"matplotlib"})}


def _module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _core_files() -> list[Path]:
    files = []
    for path in sorted(PACKAGE.rglob("*.py")):
        inside = path.relative_to(PACKAGE).parts[:-1]
        if any(part in NOT_CORE for part in inside) or _module_name(path) in NOT_CORE_MODULES:
            continue
        files.append(path)
    return files


CORE_FILES = _core_files()
CORE_MODULES = [_module_name(p) for p in CORE_FILES]

PROBE = """
import json, sys
before = set(sys.modules)
import importlib
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def _loaded_by(modules: list[str]) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", PROBE, *modules], capture_output=True,
                          text=True, timeout=120, check=False, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    loaded: list[str] = json.loads(proc.stdout)
    return loaded


def _outsiders(loaded: list[str]) -> list[str]:
    tops = {name.partition(".")[0] for name in loaded} - ALIASES
    return sorted(t for t in tops if t != "gnav" and (t not in STDLIB or t in FORBIDDEN))


def test_the_core_modules_are_found() -> None:
    expected = {"gnav", "gnav.record", "gnav.verify", "gnav.cli", "gnav.round", "gnav.match",
                "gnav.rules", "gnav.presets", "gnav.bots", "gnav.bots.random_bot"}
    assert expected <= set(CORE_MODULES)
    assert len(CORE_MODULES) == len(set(CORE_MODULES))


def test_stdlib_names_are_known() -> None:
    # The check below rests on these; a wrong table would make it pass vacuously.
    assert {"json", "random", "argparse", "asyncio", "__future__"} <= STDLIB
    assert "numpy" not in STDLIB
    assert _outsiders(["numpy", "numpy.linalg", "json.decoder", "gnav.x", "asyncio.tasks"]) \
        == ["asyncio", "numpy"]


@pytest.mark.parametrize("module", CORE_MODULES)
def test_importing_a_core_module_loads_only_the_stdlib(module: str) -> None:
    loaded = _loaded_by([module])
    assert module in loaded  # it really was imported here, fresh
    assert _outsiders(loaded) == []
    assert not FORBIDDEN & {name.partition(".")[0] for name in loaded}


def test_importing_the_whole_core_loads_only_the_stdlib() -> None:
    loaded = _loaded_by(CORE_MODULES)
    assert set(CORE_MODULES) <= set(loaded)
    assert _outsiders(loaded) == []


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, top-level module) of every absolute import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.partition(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.partition(".")[0]))
    return found


@pytest.mark.parametrize("path", CORE_FILES, ids=CORE_MODULES)
def test_core_source_imports_only_stdlib_or_gnav(path: Path) -> None:
    allowed = LAZY_EXTRAS.get(_module_name(path), frozenset())
    bad = [(line, name) for line, name in _imports(path)
           if name != "gnav" and name not in allowed
           and (name not in STDLIB or name in FORBIDDEN)]
    assert bad == [], f"{path.relative_to(ROOT)} imports {bad}"


def test_dynamic_imports_are_absent_or_stdlib() -> None:
    # importlib.import_module("x") / __import__("x") with a literal name count too.
    bad: list[str] = []
    for path in CORE_FILES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else \
                func.id if isinstance(func, ast.Name) else ""
            arg = node.args[0]
            if called in ("import_module", "__import__") and isinstance(arg, ast.Constant) \
                    and isinstance(arg.value, str):
                top = arg.value.partition(".")[0]
                if top != "gnav" and (top not in STDLIB or top in FORBIDDEN):
                    bad.append(f"{path.name}: {arg.value}")
    assert bad == []


def test_the_package_declares_no_dependencies() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project.get("dependencies", []) == []


# -- imports flow one way ------------------------------------------------------------
#
# The layers, lowest first: a module may import its own layer and the layers below it,
# never one above. The README's layout table lists the same order (checked below).
# ``gnav`` itself (the package's __init__) is the public facade: it re-exports the core
# and the bots, so it sits just above the bots, and no module inside imports it.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("gnav.*", "gnav.texts", "gnav.strategies")),
    ("bots", ("gnav.bots",)),
    ("facade", ("gnav",)),
    # The analysis side, lowest first (issue 28). Statistics and the reference engine's
    # seeded batches read only the core; the batch engines and the solver read them; the
    # odds atlas reads both of its sources (the solver's exact tree, the engines'
    # playouts); the lesson and the puzzles ask the coach; the terminal shows the lesson
    # and the coach; training reports through the terminal's progress bar; measurement
    # reads the engines; the OpenSpiel and PettingZoo adapters draw with the terminal's
    # table. The narrator, which both the lesson and the terminal read, is the core's
    # (gnav.texts.narrate).
    ("sim", ("gnav.sim",)),
    ("engines", ("gnav.fast", "gnav.solve")),
    ("odds", ("gnav.odds",)),
    ("learn", ("gnav.learn",)),
    ("tui", ("gnav.tui",)),
    ("train", ("gnav.train",)),
    ("bench", ("gnav.bench",)),
    ("adapters", ("gnav.openspiel", "gnav.pettingzoo")),
    ("table", ("gnav.table",)),
    # The browser client's files and the data they read; the server mounts them, and
    # nothing in web imports the server.
    ("web", ("gnav.web",)),
    ("server", ("gnav.server",)),
    ("cli", ("gnav.cli",)),
)


def layer_of(module: str) -> int:
    """The index in LAYERS of ``module``: the longest matching entry wins, so
    ``gnav.bots.counter`` is a bot and ``gnav.round`` is the core."""
    best, best_len = -1, -1
    for i, (_, patterns) in enumerate(LAYERS):
        for pattern in patterns:
            if pattern.endswith(".*"):  # any top-level module of the package
                hit = module.startswith(pattern[:-1]) and "." not in module[len(pattern) - 1:]
            elif pattern.endswith("*"):
                hit = module.startswith(pattern[:-1])
            else:
                hit = module == pattern or module.startswith(pattern + ".")
            if hit and len(pattern) > best_len:
                best, best_len = i, len(pattern)
    assert best >= 0, f"{module} is in no layer"
    return best


def _from_module(node: ast.ImportFrom, module: str | None, is_package: bool) -> str | None:
    """The module a ``from`` import reads from, a relative form (``from . import x``,
    ``from ..store import y``) resolved against ``module`` (the importer's name); None
    for a relative form where the importer's name is unknown."""
    if node.level == 0:
        return node.module
    if module is None:
        return None
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _gnav_imports(path: Path, package: Path = PACKAGE) -> list[tuple[int, str]]:
    """(line, module) of every import of a gnav module in ``path``, lazy ones too (in a
    function, under ``if TYPE_CHECKING``) and relative ones for a file of ``package``.
    ``from X import a`` is an import of ``X.a`` where that is a module or subpackage,
    else of ``X``: ``from gnav import sim`` is the simulator, ``from gnav import STAND``
    the facade."""
    inside = path.is_relative_to(package)
    module = _module_name(path, package) if inside else None
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("gnav")]
        elif isinstance(node, ast.ImportFrom):
            source = _from_module(node, module, path.name == "__init__.py")
            if source is None or not (source == "gnav" or source.startswith("gnav.")):
                continue
            folder = package.parent.joinpath(*source.split("."))
            subs = [a.name for a in node.names if (folder / a.name).is_dir()
                    or (folder / f"{a.name}.py").exists()]
            found += [(node.lineno, f"{source}.{s}") for s in subs]
            if len(subs) < len(node.names):
                found.append((node.lineno, source))
    return found


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Every module of ``package`` and the modules of it that its source imports.

    An arrow is an import statement's own target: the parent packages Python runs first
    are left out (a package's ``__init__`` that gathers its modules would otherwise make
    a circle of every module that imports a sibling)."""
    files = {_module_name(p, package): p for p in sorted(package.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        targets = set()
        for _, name in _gnav_imports(path, package):
            while name not in files and "." in name:  # import gnav.x.y.NAME -> gnav.x.y
                name = name.rpartition(".")[0]
            if name in files and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle of imports in each group of modules that reach each other (the
    strongly connected components, by Tarjan's algorithm), as the path around it from
    the group's first module back to it: the shortest such path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group: set[str] = set()
            while not group or v not in group:
                group.add(stack.pop())
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    found = []
    for group in sorted(groups, key=min):
        first = min(group)
        came: dict[str, str] = {}  # breadth first, inside the group, back to ``first``
        frontier = [first]
        while first not in came:
            following = []
            for v in frontier:
                for w in sorted(graph[v] & group):
                    if w not in came:
                        came[w] = v
                        following.append(w)
            frontier = following
        path = [first]
        while len(path) == 1 or path[-1] != first:
            path.append(came[path[-1]])
        found.append(path[::-1])
    return found


ALL_FILES = sorted(PACKAGE.rglob("*.py"))


def test_layers_sort_modules_as_meant() -> None:
    names = [LAYERS[layer_of(m)][0] for m in
             ("gnav.round", "gnav.texts.narration", "gnav.protocol", "gnav.runner", "gnav.bots",
              "gnav.bots.counter", "gnav", "gnav.sim.batch", "gnav.tui.game",
              "gnav.table.table", "gnav.server.app", "gnav.web.routes", "gnav.cli",
              "gnav.cli.play", "gnav.cli.common", "gnav.server.hub", "gnav.texts.narrate",
              "gnav.tui.progress", "gnav.web.steps", "gnav.sim.stats", "gnav.fast.jit",
              "gnav.solve.tree", "gnav.odds.exact", "gnav.odds.batch", "gnav.learn.lesson",
              "gnav.train.batch", "gnav.bench.jit", "gnav.openspiel", "gnav.pettingzoo")]
    # The narrator moved to the core (issue 28), below both the lesson and the terminal.
    assert names == ["core", "core", "core", "core", "bots", "bots", "facade", "sim",
                     "tui", "table", "server", "web", "cli", "cli", "cli", "server",
                     "core", "tui", "web", "sim", "engines", "engines", "odds", "odds",
                     "learn", "train", "bench", "adapters", "adapters"]


def test_wrong_way_imports_are_seen(tmp_path: Path) -> None:
    # The check below could not fail if a wrong-way import went unseen: lazy ones too.
    bad = tmp_path / "bad.py"
    bad.write_text("from gnav.server.app import x\nimport gnav.cli\nfrom gnav import tui, STAND\n"
                   "def f():\n    from gnav.bots import make_bot\n", encoding="utf-8")
    found = _gnav_imports(bad)
    assert sorted(found) == [(1, "gnav.server.app"), (2, "gnav.cli"), (3, "gnav"),
                             (3, "gnav.tui"), (5, "gnav.bots")]
    core = layer_of("gnav.round")
    assert all(layer_of(name) > core for _, name in found)


@pytest.mark.parametrize("path", ALL_FILES, ids=[_module_name(p) for p in ALL_FILES])
def test_imports_flow_one_way(path: Path) -> None:
    module = _module_name(path)
    mine = layer_of(module)
    upward = [(line, name, LAYERS[layer_of(name)][0]) for line, name in _gnav_imports(path)
              if layer_of(name) > mine and not (module == "gnav" and name == "gnav")]
    assert upward == [], f"{module} ({LAYERS[mine][0]}) imports upward: {upward}"


# -- no circles ------------------------------------------------------------------------
#
# Inside a layer too, imports run one way: two modules that import each other (at the
# top, in a function, or under ``if TYPE_CHECKING``) are one module split in two, and a
# change to either is a change to both. A module that needs the one that calls it takes a
# typed interface (a ``Protocol``) instead, or both read what they share from a module
# below them.


def test_circles_are_seen(tmp_path: Path) -> None:
    # The check below could not fail if the graph missed relative, lazy or typing-only
    # imports, or the finder missed a circle of three.
    package = tmp_path / "gnav"
    (package / "inner").mkdir(parents=True)
    files = {
        "__init__.py": "STAND = 0\n",
        "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n",
        "b.py": "def f():\n    from . import a\n",
        "c.py": "from .inner import d\n",
        "inner/__init__.py": "from . import d\n",
        "inner/d.py": "import gnav.inner.e.NAME\nfrom .. import STAND\n",
        "inner/e.py": "from ..c import x\n",
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    graph = import_graph(package)
    assert graph == {"gnav": set(), "gnav.a": {"gnav.b"}, "gnav.b": {"gnav.a"},
                     "gnav.c": {"gnav.inner.d"}, "gnav.inner": {"gnav.inner.d"},
                     "gnav.inner.d": {"gnav.inner.e", "gnav"}, "gnav.inner.e": {"gnav.c"}}
    assert circles(graph) == [["gnav.a", "gnav.b", "gnav.a"],
                              ["gnav.c", "gnav.inner.d", "gnav.inner.e", "gnav.c"]]
    assert circles(graph | {"gnav.b": set(), "gnav.inner.e": set()}) == []


def test_the_graph_holds_the_package() -> None:
    graph = import_graph()
    assert set(graph) == {_module_name(p) for p in ALL_FILES}
    assert graph["gnav.server.hub"] >= {"gnav.server.store", "gnav.server.cluster",
                                        "gnav.table.table"}
    assert "gnav.learn.puzzles" in graph["gnav.server.hub"]  # imported in a function


def test_no_modules_import_each_other() -> None:
    found = [" -> ".join(circle) for circle in circles(import_graph())]
    assert found == [], "imports that run in a circle: " + "; ".join(found)


def package_arrows(graph: dict[str, set[str]], package: Path = PACKAGE) -> set[tuple[str, str]]:
    """The arrows of ``graph`` between packages: a module's package is the folder that
    holds it (``gnav.fast.jit`` is ``gnav.fast``'s; a subpackage is a package of
    its own), the top-level modules are the core's (``gnav.*``), ``gnav`` the facade's."""
    def room(module: str) -> str:
        if module == "gnav":
            return "gnav"
        folder = package.parent.joinpath(*module.split("."))
        return module if folder.is_dir() else module.rpartition(".")[0] + (
            ".*" if module.count(".") == 1 else "")
    return {(room(m), room(t)) for m, targets in graph.items() for t in targets
            if room(m) != room(t)}


def test_packages_import_each_other_one_way(tmp_path: Path) -> None:
    # Inside a layer too (issue 28: odds and the batch engine, odds and the solver, learn
    # and the terminal imported each other): a package reads another, never back.
    arrows = package_arrows(import_graph())
    both = sorted((a, b) for a, b in arrows if a < b and (b, a) in arrows)
    assert both == []
    # The check can see one: two subpackages whose modules read each other.
    package = tmp_path / "gnav"
    for name, text in {"__init__.py": "", "x/__init__.py": "", "y/__init__.py": "",
                       "x/a.py": "from gnav.y import b\n", "y/b.py": "",
                       "y/c.py": "from gnav.x.a import A\n", "top.py": "import gnav.x.a\n"
                       }.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text, encoding="utf-8")
    assert package_arrows(import_graph(package), package) == {
        ("gnav.x", "gnav.y"), ("gnav.y", "gnav.x"), ("gnav.*", "gnav.x")}


def test_the_readme_layout_table_lists_the_layers_in_order() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.partition("## Layout")[2].partition("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    layers = [row.split("|")[1].strip() for row in rows if row.split("|")[1].strip()]
    header, *listed = layers
    assert header == "layer"
    assert listed == [name for name, _ in LAYERS]


def test_web_sits_below_the_server() -> None:
    # The server mounts the client's routes; a web module importing the server goes up.
    assert layer_of("gnav.web.routes") < layer_of("gnav.server.app")


# -- developer tools stay out of the installed package ---------------------------------

DEV_ONLY = frozenset({"playwright", "httpx"})  # the [dev] extra's test and tool libraries


def test_developer_tools_are_outside_the_package() -> None:
    # The browser tests' kit lives with the tests (issue 28), the commands in tools/.
    for room, name in (("tests", "devserver.py"), ("tests", "browser.py"),
                       ("tests", "companion_drive.py"), ("tools", "screenshots.py")):
        assert (ROOT / room / name).is_file(), name
        assert not list(PACKAGE.rglob(name)), f"{name} is back in src/gnav"
        assert not (ROOT / ("tools" if room == "tests" else "tests") / name).exists(), name
    # The load client is a developer's tool too (issue 28): a player never needs it.
    assert (ROOT / "tools" / "loadtest.py").is_file()
    assert (ROOT / "tools" / "loadclient" / "run.py").is_file()
    assert not list(PACKAGE.glob("loadtest/*.py"))  # a stale __pycache__ may stay


def test_measurement_stays_in_its_room() -> None:
    # gnav bench's code is gnav.bench's (issue 28: it sat in the core and in the batch
    # simulator); only the command reads it, and nothing that plays a game does.
    assert not (PACKAGE / "bench.py").exists()
    assert not (PACKAGE / "fast" / "bench.py").exists()
    graph = import_graph()
    readers = {m for m, targets in graph.items() if m.split(".")[:2] != ["gnav", "bench"]
               and any(t.split(".")[:2] == ["gnav", "bench"] for t in targets)}
    assert readers == {"gnav.cli.bench"}


def test_the_package_imports_no_developer_library() -> None:
    bad = [f"{path.relative_to(ROOT)}:{line} imports {name}" for path in ALL_FILES
           for line, name in _imports(path) if name in DEV_ONLY]
    assert bad == []
    # The check can see one: the screenshot maker imports Playwright.
    assert any(name == "playwright" for _, name in _imports(ROOT / "tools" / "screenshots.py"))


def test_the_commands_share_cli_common_not_the_cli_package() -> None:
    # gnav/cli/__init__.py assembles the commands; a command importing it goes back up.
    commands = [p for p in sorted((PACKAGE / "cli").glob("*.py"))
                if p.stem not in ("__init__", "__main__")]
    assert {"common", "play", "simulate", "serve", "solve"} <= {p.stem for p in commands}
    back = [f"{p.name}:{line}" for p in commands for line, name in _gnav_imports(p)
            if name == "gnav.cli"]
    assert back == []
    users = [p.stem for p in commands if any(name == "gnav.cli.common"
                                             for _, name in _gnav_imports(p))]
    assert {"play", "simulate", "solve", "bench", "demo"} <= set(users)
