"""What players may say at a table: a fixed list of phrases and emotes, and how often.

There is no free text at a table, so nothing needs moderating: a seated player
sends the id of one of :data:`PHRASES` (``{"type": "phrase", "id": "servus"}``),
the server checks the id and the sender's rate, and every seat and spectator of
the table gets ``{"type": "phrase", "seat": 0, "id": "servus"}``.  The words are
the page's (``phrase.<id>`` in ``static/i18n/{de,en}.json``): each reader sees
them in their own language.

The rate is a token bucket per connection (:class:`PhraseBucket`): a burst of
:data:`BURST` phrases, then one every :data:`EVERY` seconds.  A phrase over the
rate is answered with an ``error`` to its sender only, so a flood costs the
sender and never reaches the others.  This module knows no table and no socket.

>>> bucket = PhraseBucket(now=lambda: 0.0)
>>> [bucket.take() for _ in range(4)]
[0.0, 0.0, 0.0, 3.0]
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["BURST", "EMOTES", "EVERY", "PHRASES", "PhraseBucket", "catalog", "check_phrase", "phrase_message"]

#: The phrases, in the order of the page's menu (their words: ``phrase.<id>`` in the i18n files).
PHRASES: tuple[str, ...] = (
    "servus",
    "well_played",
    "lucky",
    "unlucky",
    "thanks",
    "bravo",
    "oops",
    "one_more",
    "bye",
)
#: The emotes (an emoji each; also ``phrase.<id>`` in the i18n files, where the screen reader's words are).
EMOTES: dict[str, str] = {
    "thumbs_up": "\U0001f44d",
    "clap": "\U0001f44f",
    "laugh": "\U0001f604",
    "think": "\U0001f914",
    "sad": "\U0001f622",
    "wow": "\U0001f62e",
}
#: Phrases a connection may send at once, and the seconds after which it may send one more.
BURST = 3
EVERY = 3.0

_KNOWN = frozenset(PHRASES) | frozenset(EMOTES)


def catalog() -> list[dict[str, str | None]]:
    """The phrases and emotes as the page's menu lists them (``welcome.phrases``): the page never restates them.

    >>> catalog()[0], catalog()[-1]
    ({'id': 'servus', 'emote': None}, {'id': 'wow', 'emote': '😮'})
    """
    return [{"id": p, "emote": None} for p in PHRASES] + [{"id": e, "emote": emoji} for e, emoji in EMOTES.items()]


def check_phrase(phrase_id: str) -> str | None:
    """Why ``phrase_id`` is no phrase (naming the known ones), or ``None`` when it is one.

    >>> check_phrase("servus") is None, check_phrase("clap") is None
    (True, True)
    >>> check_phrase("<script>")[:40]
    "unknown phrase '<script>'; known: servus"
    """
    if phrase_id in _KNOWN:
        return None
    return f"unknown phrase {phrase_id[:32]!r}; known: {', '.join([*PHRASES, *EMOTES])}"


def phrase_message(seat: int, phrase_id: str) -> dict[str, object]:
    """What every client of the table gets when ``seat`` says ``phrase_id`` (checked already)."""
    message: dict[str, object] = {"type": "phrase", "seat": seat, "id": phrase_id}
    if phrase_id in EMOTES:
        message["emote"] = EMOTES[phrase_id]
    return message


class PhraseBucket:
    """One connection's phrase rate: :data:`BURST` at once, then one every :data:`EVERY` seconds."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self._tokens = float(BURST)
        self._filled = now()

    def take(self) -> float:
        """Take one phrase: ``0.0`` if it may go now (and it is counted), else the seconds until one may."""
        now = self._now()
        self._tokens = min(float(BURST), self._tokens + (now - self._filled) / EVERY)
        self._filled = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return 0.0
        return (1.0 - self._tokens) * EVERY
