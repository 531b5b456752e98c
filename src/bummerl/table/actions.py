"""The table games' actions are :class:`bummerl.actions.Action` (one type for every variant).

The names below keep the imports of the table modules working while they move
into the one game family (issue #11); new code imports from :mod:`bummerl.actions`.
"""

from __future__ import annotations

from bummerl.actions import DOUBLE_NAMES, Action, ActionKind

__all__ = ["DOUBLE_NAMES", "TableAction", "TableActionKind"]

TableAction = Action
TableActionKind = ActionKind
