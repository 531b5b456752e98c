"""The table games' view is :class:`bummerl.view.TableView` (one module for every variant's views)."""

from bummerl.view import TableView, table_view

__all__ = ["TableView", "table_view"]
