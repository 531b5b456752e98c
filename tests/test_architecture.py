"""The import graph of ``bummerl``: no circle, and the layers of pyproject.toml's import contract.

Issue 23's done-when: "The import graph of src/bummerl has no circle except the lazy load of an optional
extra's plugin"; an import inside a function to dodge a circle is a design smell (STYLE.md), so the graph read
here counts those imports too (grimp reads every import statement, in functions and under TYPE_CHECKING).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

grimp = pytest.importorskip("grimp", reason="grimp comes with import-linter (the dev extra)")

ROOT = Path(__file__).resolve().parent.parent

#: Circles allowed: each an optional extra's plugin that its host loads lazily and that registers itself
#: with the host.  None today: the Ray backend imports Ray only when it is made (bummerl.arena.ray_backend),
#: and it and the process backend build on bummerl.arena.backend_base.
ALLOWED: list[frozenset[str]] = []


def circles(graph: grimp.ImportGraph) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work: list[tuple[str, Iterable[str]]] = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def test_circles_are_found() -> None:
    """The finder itself, on a made-up graph: a circle of three, a circle of two, and a module outside both."""
    graph = grimp.ImportGraph()
    for importer, imported in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e"), ("e", "d"), ("f", "a")]:
        graph.add_import(importer=importer, imported=imported)
    assert sorted(sorted(c) for c in circles(graph)) == [["a", "b", "c"], ["d", "e"]]


def test_the_package_has_no_import_circle() -> None:
    """No strongly connected component of more than one module, but the allowed plugin loads."""
    graph = grimp.build_graph("bummerl")
    unexpected = [sorted(c) for c in circles(graph) if c not in ALLOWED]
    assert unexpected == []


def test_the_engine_layers_have_no_import_circle() -> None:
    """From the game downwards (rules, variants, views, engines, game), nothing imports back up, also not lazily."""
    graph = grimp.build_graph("bummerl")
    engine = {
        "bummerl",
        "bummerl.game",
        "bummerl.engine",
        "bummerl.two_player",
        "bummerl.table_game",
        "bummerl.view",
        "bummerl.view_json",
        "bummerl.position",
        "bummerl.events",
        "bummerl.rng",
    }
    touching = [sorted(c) for c in circles(graph) if c & engine or any(m.startswith("bummerl.variants") for m in c)]
    assert touching == []


def test_the_import_contract_is_kept() -> None:
    """pyproject.toml's [tool.importlinter] layers, as `.ci/run` checks them."""
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    if lint is None:
        pytest.skip("lint-imports is not installed (the dev extra)")
    done = subprocess.run([lint], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:]
