"""The table games' exact solver is :mod:`bummerl.solver.table` (with the two-player solver)."""

from bummerl.solver.table import PlayState, TableSolver, action_values, best_action, solve

__all__ = ["PlayState", "TableSolver", "action_values", "best_action", "solve"]
