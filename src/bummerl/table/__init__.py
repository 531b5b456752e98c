"""The table games' modules while they move into the one game family (issue #11).

The engine is :class:`bummerl.table_game.TableGame` (``Table`` here is its old
name); new code uses :class:`bummerl.game.Game` and the modules at the package root.

>>> from bummerl.table_game import TableGame
>>> t = TableGame.deal("dreierschnapsen", seed=5, dealer=2)
>>> t.vorhand, t.to_move
(0, 1)
"""

from bummerl.table.actions import DOUBLE_NAMES, TableAction, TableActionKind
from bummerl.table.match import TableMatch
from bummerl.table.view import TableView, table_view
from bummerl.table_game import Phase, TableEndReason, TableGame, TableResult, TableTrick

Table = TableGame

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
