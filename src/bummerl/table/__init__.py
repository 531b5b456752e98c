"""The three- and four-player games: Bauernschnapsen and Dreierschnapsen.

>>> from bummerl.table import Table
>>> t = Table.deal("dreierschnapsen", seed=5, dealer=2)
>>> t.vorhand, t.to_move
(0, 1)

Modules: :mod:`~bummerl.table.actions` (tokens), :mod:`~bummerl.table.game`
(the state machine), :mod:`~bummerl.table.view` (what a seat may know),
:mod:`~bummerl.table.match` (to 24 with Bummerl and Schneider).  The rules
themselves are data in :mod:`bummerl.variants.bauernschnapsen` and
:mod:`bummerl.variants.dreierschnapsen`.
"""

from bummerl.table.actions import DOUBLE_NAMES, TableAction, TableActionKind
from bummerl.table.game import Phase, Table, TableEndReason, TableResult, TableTrick
from bummerl.table.match import TableMatch
from bummerl.table.view import TableView, table_view

__all__ = [
    "DOUBLE_NAMES",
    "Phase",
    "Table",
    "TableAction",
    "TableActionKind",
    "TableEndReason",
    "TableMatch",
    "TableResult",
    "TableTrick",
    "TableView",
    "table_view",
]
