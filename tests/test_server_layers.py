"""The web server's layers (issue 23): transport above the domain above the services, arrows pointing down only.

The transport (the app, the routes and the sockets) and the table manager with the cluster relay hold the live
tables; the domain (one :class:`~bummerl.server.rooms.Room`, its families, the sheet) is handed its services
(storage, bot scheduling, hints, results) and never reaches back up: no module of it imports the manager, the
cluster, the links, the routes or the app, not even lazily or for typing (grimp reads every import).
"""

from __future__ import annotations

import pytest

grimp = pytest.importorskip("grimp", reason="grimp comes with import-linter (the dev extra)")

from grimp import ImportGraph  # noqa: E402

#: What holds the live tables and talks to the network: above the domain.
ABOVE = ("bummerl.server.app", "bummerl.server.routes", "bummerl.server.manager", "bummerl.server.cluster")
#: The domain and the services it is handed.
DOMAIN = (
    "bummerl.server.rooms",
    "bummerl.server.families",
    "bummerl.server.sheet",
    "bummerl.server.hints",
    "bummerl.server.results",
    "bummerl.server.connections",
    "bummerl.server.scheduler",
    "bummerl.server.storage",
    "bummerl.server.database",
    "bummerl.server.errors",
    "bummerl.server.tasks",
)


@pytest.fixture(scope="module")
def graph() -> ImportGraph:
    built: ImportGraph = grimp.build_graph("bummerl")
    return built


def _above(module: str) -> bool:
    return any(module == a or module.startswith(a + ".") for a in ABOVE)


@pytest.mark.parametrize("module", DOMAIN)
def test_the_domain_never_imports_what_holds_it(graph: ImportGraph, module: str) -> None:
    reached = graph.find_upstream_modules(module)
    assert sorted(m for m in reached if _above(m)) == []


def test_the_links_know_no_manager_nor_cluster(graph: ImportGraph) -> None:
    """A socket's link relays through whatever it is handed (the cluster): it imports neither."""
    assert sorted(m for m in graph.find_upstream_modules("bummerl.server.links") if _above(m)) == []


def test_the_server_has_no_import_circle(graph: ImportGraph) -> None:
    server = {m for m in graph.modules if m.startswith("bummerl.server")}
    tangled = sorted(m for m in server if graph.find_upstream_modules(m) & graph.find_downstream_modules(m) & server)
    assert tangled == []
