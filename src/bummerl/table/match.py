"""The table games' match is :class:`bummerl.match.TableMatch` (one module for every variant's matches)."""

from bummerl.match import TableMatch

__all__ = ["TableMatch"]
