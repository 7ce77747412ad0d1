"""The package's shape: no import cycle, the fast path free of the reference engine, no
import-time side effects."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import mighty_sim

SRC = Path(mighty_sim.__file__).parent
FAST_PATH = ("mighty_sim.engine", "mighty_sim.kernels", "mighty_sim.dataset",
             "mighty_sim.analysis")


def _module_name(path: Path) -> str:
    parts = ("mighty_sim",) + path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Every module's imports of package modules, lazy ones (inside functions) included,
    those only for type checkers left out."""
    modules = {_module_name(p): p for p in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text())
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and ast.unparse(node.test) == "TYPE_CHECKING"
                       for n in ast.walk(node)}
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    found.add(full if full in modules else target)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_graph_sees_imports() -> None:
    """The graph itself: a known edge of each kind is in it (so the tests below are not
    vacuous)."""
    graph = import_graph()
    assert "mighty_sim.rules.profile" in graph["mighty_sim.dataset.config"]  # relative
    assert "mighty_sim.dataset.runner" in graph["mighty_sim.cli.commands"]  # lazy
    assert "mighty_sim.reference.rules" in graph["mighty_sim.verify.differential"]


def test_no_import_cycle() -> None:
    graph = import_graph()
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])
    graph["mighty_sim.rules.cards"].add("mighty_sim.rules.profile")  # a cycle is noticed
    assert _cycle(graph) is not None


def test_fast_path_does_not_import_the_reference_engine() -> None:
    graph = import_graph()
    for start in graph:
        if not start.startswith(FAST_PATH):
            continue
        seen, todo = set(), [start]
        while todo:
            node = todo.pop()
            for nxt in graph[node] - seen:
                assert not nxt.startswith("mighty_sim.reference"), (start, node, nxt)
                seen.add(nxt)
                todo.append(nxt)


def test_importing_has_no_side_effects(tmp_path: Path) -> None:
    """Importing every module changes neither the environment nor the compile caches (a
    stale cache folder survives; `mighty-sim compile` is what removes it). The libraries
    are imported first: Polars, for one, sets a variable of its allocator."""
    code = (
        "import os, importlib, pathlib, sys\n"
        "from mighty_sim.kernels import cache_root\n"
        "stale = cache_root() / 'stale-test-folder'\n"
        "stale.mkdir(parents=True, exist_ok=True)\n"
        "import numba, numpy, polars, pyarrow.parquet, click, rich  # set their own\n"
        "before = dict(os.environ)\n"
        f"for name in {sorted(import_graph())!r}:\n"
        "    if not name.endswith('__main__'):\n"
        "        importlib.import_module(name)\n"
        "ok = os.environ == before and stale.is_dir()\n"
        "stale.rmdir()\n"
        "print(ok)\n")
    env = {k: v for k, v in __import__("os").environ.items() if k != "NUMBA_CACHE_DIR"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True"


KERNEL_DOORS = ("mighty_sim.engine", "mighty_sim.verify", "mighty_sim.dataset.schema")
"""The modules that may import the kernels: the engine (their public face), the checks
of the kernels against the reference engine, and the dataset schema's one mapping of
the row columns to names."""

FLOORS = {"files": 0, "workers": 0, "rules": 1, "kernels": 2, "engine": 3, "reference": 3,
          "dataset": 4, "verify": 5, "analysis": 5, "cli": 6}
"""Each package's floor: a package imports only packages on floors below its own."""


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def kernel_imports_outside(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((a, b) for a, bs in graph.items() for b in bs
                  if b.startswith("mighty_sim.kernels") and not a.startswith(
                      ("mighty_sim.kernels",) + KERNEL_DOORS))


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    out = []
    for a, bs in graph.items():
        pa = _package(a)
        for b in bs:
            pb = _package(b)
            if pa in FLOORS and pb in FLOORS and pa != pb and FLOORS[pb] >= FLOORS[pa]:
                out.append((a, b))
    return sorted(out)


def test_only_the_engine_opens_the_kernels() -> None:
    graph = import_graph()
    assert kernel_imports_outside(graph) == []
    graph["mighty_sim.analysis.duel"].add("mighty_sim.kernels.layout")  # noticed
    assert kernel_imports_outside(graph) == [("mighty_sim.analysis.duel",
                                              "mighty_sim.kernels.layout")]


def test_no_package_imports_one_above_it() -> None:
    graph = import_graph()
    assert set(FLOORS) | {"", "__main__"} >= {_package(m) for m in graph}, "a new package"
    assert upward_imports(graph) == []
    graph["mighty_sim.engine.batch"].add("mighty_sim.dataset.shards")  # noticed
    assert upward_imports(graph) == [("mighty_sim.engine.batch", "mighty_sim.dataset.shards")]


MAX_KERNEL_ARGS = 12


def kernels_with_many_arguments(sources: dict[str, str] | None = None
                                 ) -> list[tuple[str, str, int]]:
    """Jitted functions of the kernels (or of ``sources``, module name: text) taking more
    than :data:`MAX_KERNEL_ARGS` arguments: what they take is bundled in tuples instead
    (rows, work arrays, the trick as it stands)."""
    if sources is None:
        sources = {_module_name(p): p.read_text()
                   for p in sorted((SRC / "kernels").rglob("*.py"))}
    out = []
    for name, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and any(
                    "njit" in ast.unparse(d) for d in node.decorator_list):
                if len(node.args.args) > MAX_KERNEL_ARGS:
                    out.append((name, node.name, len(node.args.args)))
    return out


def test_no_kernel_takes_more_than_twelve_arguments() -> None:
    assert kernels_with_many_arguments() == []
    wide = "@njit(cache=True)\ndef f_nb(" + ", ".join(f"a{i}" for i in range(13)) + "):\n    pass\n"
    assert kernels_with_many_arguments({"m": wide}) == [("m", "f_nb", 13)]  # noticed
