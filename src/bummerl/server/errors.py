"""The one shape of a request the server refuses: an error code, a message, and where they apply a status and a rule.

Every refusal of the web app is this exception or a subclass named after what
refuses it (a table, the players' store, a tournament, a cap): the routes turn
it into ``{"detail": {"code", "message"}}`` with its ``status``, a table's socket
into an ``error`` message with its ``rule`` (docs/web.md).

>>> exc = RequestError("not_your_turn", "it is seat 1's turn", rule="turn")
>>> exc.code, exc.message, exc.status, exc.rule, str(exc)
('not_your_turn', "it is seat 1's turn", 400, 'turn', "it is seat 1's turn")

This module imports nothing of the server: every layer may raise it.
"""

from __future__ import annotations

__all__ = ["RequestError"]


class RequestError(Exception):
    """A refused request: ``code`` (docs/web.md's error codes), ``message`` for people, the HTTP ``status`` where
    HTTP answers it, and the ``rule`` of the game it breaks, if any."""

    def __init__(self, code: str, message: str, *, status: int = 400, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule
