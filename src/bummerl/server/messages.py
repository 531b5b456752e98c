"""The web app's message schemas: HTTP bodies and the table WebSocket's client messages.

``docs/web.md`` specifies the protocol; this module checks what clients send
and shapes the error answers.  What the server sends about a game is built in
:mod:`bummerl.server.rooms` (with its family's part, :mod:`bummerl.server.families`) from
:func:`bummerl.protocol.view_to_json`, the one view serialiser of the project.

>>> parse_client_message('{"type":"action","action":"Ah"}')
ActionMessage(type='action', action='Ah')
>>> parse_client_message('{"type":"hello"}')
HelloMessage(type='hello', token=None)
>>> parse_client_message("e2e4")
ClientError(code='bad_json', message="not a JSON object: 'e2e4'")
>>> parse_client_message('{"type":"dance"}').code
'unknown_type'
>>> parse_client_message('{"type":"action","action":7}').code
'bad_message'
>>> spectator_view({"seat": 0, "hand": ["Ah"], "opponent_known": ["Kh"], "opponent_hand_size": 5})
{'seat': None, 'hand': [], 'opponent_known': [], 'opponent_hand_size': 5, 'hand_sizes': [1, 5]}
>>> JoinTable(code="x", name="  Anna\u3000 Maria ").name
'Anna Maria'
"""

from __future__ import annotations

import dataclasses
import json
import re
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from bummerl.server.clock import MAX_MOVE_SECONDS, MIN_MOVE_SECONDS

__all__ = [
    "MAX_MESSAGE_CHARS",
    "ActionMessage",
    "ClientError",
    "ClientMessage",
    "CreateTable",
    "HelloMessage",
    "HintMessage",
    "HintsVoteMessage",
    "JoinTable",
    "NextGameMessage",
    "PhraseMessage",
    "PingMessage",
    "PlayerName",
    "ReviewMessage",
    "error_message",
    "parse_client_message",
    "player_name",
    "spectator_view",
]

#: A client message longer than this is refused unread (the longest valid one is ~100 characters).
MAX_MESSAGE_CHARS = 4096

_MAX_SEED = 2**64 - 1

#: The longest player name, in characters after normalisation.
MAX_NAME_CHARS = 40
#: Unicode categories a name may not contain, with what to call them in the error.
_REFUSED_CATEGORIES = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
    "Cs": "a surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
}
#: Formatting characters that names need: the zero-width joiner of emoji sequences (👩‍💻) and the
#: non-joiner of Persian and Indic spellings.
_NEEDED_FORMAT = frozenset("\u200c\u200d")
#: An emoji subdivision flag (🏴 + tag letters + cancel tag): the only place tag characters may stand.
_TAG_FLAG = re.compile("\U0001f3f4[\U000e0020-\U000e007e]{1,30}\U000e007f")


def player_name(value: str) -> str:
    """A player's name as it is stored: one NFC-normalised line, runs of spaces as one, no hidden characters.

    Letters of every script, spaces inside the name, emoji (also joined by U+200D,
    with variation selectors) stay.  Refused: controls (Cc), invisible formatting
    characters (Cf: bidi marks, embeddings, overrides and isolates such as U+202E,
    which can make a name read backwards in the other players' view, zero-width spaces),
    line and paragraph separators, surrogates, private-use and unassigned code points.

    >>> player_name("Zo\u0065\u0308  Ann")
    'Zoë Ann'
    >>> player_name("👩\u200d💻 Kim")
    '👩\u200d💻 Kim'
    >>> player_name("Anna\u202egpj.exe")
    Traceback (most recent call last):
    ...
    ValueError: a name may not contain U+202E RIGHT-TO-LEFT OVERRIDE (an invisible formatting character)
    """
    for char in _TAG_FLAG.sub("\U0001f3f4", value):
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES and char not in _NEEDED_FORMAT:
            what = f"U+{ord(char):04X} {unicodedata.name(char, '')}".rstrip()
            raise ValueError(f"a name may not contain {what} ({_REFUSED_CATEGORIES[category]})")
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not 1 <= len(name) <= MAX_NAME_CHARS:
        raise ValueError(f"a name has 1 to {MAX_NAME_CHARS} characters besides spaces at its ends")
    return name


#: A player's name in an HTTP body (it becomes a record tag and is shown to the other players).
PlayerName = Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS), AfterValidator(player_name)]


# ------------------------------------------------------------------ HTTP bodies
class CreateTable(BaseModel):
    """``POST /api/tables``: a new table of any variant with the creator at seat 0.

    Who sits at the other seats: ``seats`` names them in order (``"friend"``
    for an invitation, else a bot's name), ``opponent`` the one other seat of a
    two-player game, ``bots`` one bot for all of them; at most one of the three,
    none for the variant's default bot.  Whether they fit the variant (the number
    of seats, a bot that plays it, a ``target`` only where the match has one) is
    checked when the variant is known: a ``400 bad_table`` says what is wrong.
    """

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    variant: str = Field(default="schnapsen", max_length=64)
    options: dict[str, bool | str | int] = Field(default_factory=dict, max_length=32)
    seats: list[Annotated[str, Field(max_length=64)]] | None = Field(default=None, max_length=3)
    #: A bot name of :mod:`bummerl.bots`, or ``"friend"`` for an invitation (two-player variants).
    opponent: str | None = Field(default=None, max_length=64)
    bots: str | None = Field(default=None, max_length=64)
    name: PlayerName = "Player"
    seed: int | None = Field(default=None, ge=0, le=_MAX_SEED)
    target: int | None = Field(default=None, ge=1, le=99)
    #: The table's time per move in seconds (:mod:`bummerl.server.clock`); ``null``: no clock.
    move_seconds: int | None = Field(default=None, ge=MIN_MOVE_SECONDS, le=MAX_MOVE_SECONDS, strict=True)


class JoinTable(BaseModel):
    """``POST /api/join``: take the seat that an invitation code keeps."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    code: str = Field(min_length=1, max_length=64)
    name: PlayerName = "Friend"


# ------------------------------------------------------ WebSocket, client side
class HelloMessage(BaseModel):
    """Take a seat with its token, or watch (no token)."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=256)


class ActionMessage(BaseModel):
    """Play one action token (``Ah``, ``marry:Kh``, ``exchange``, ``close``, ``declare``, ``declare:h``)."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["action"]
    action: str = Field(max_length=32)


class NextGameMessage(BaseModel):
    model_config = ConfigDict(extra="ignore")

    type: Literal["next_game"]


class PingMessage(BaseModel):
    model_config = ConfigDict(extra="ignore")

    type: Literal["ping"]


class HintMessage(BaseModel):
    """Ask the expert for the seat's current decision (:mod:`bummerl.server.hints`)."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["hint"]


class ReviewMessage(BaseModel):
    """The learning mode: judge the seat's decision at ``ply`` (0-based) of game ``game_id`` on the table."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["review"]
    ply: int = Field(ge=0, le=10_000)
    game_id: int | None = Field(default=None, ge=1, le=2**63 - 1)


class HintsVoteMessage(BaseModel):
    """The seat's vote in the hints agreement of a table where several people play."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["hints"]
    allow: bool


class PhraseMessage(BaseModel):
    """Say one of the table's fixed phrases or emotes (:mod:`bummerl.server.phrases`): no free text."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["phrase"]
    id: str = Field(max_length=32)


ClientMessage = (
    HelloMessage
    | ActionMessage
    | NextGameMessage
    | PingMessage
    | HintMessage
    | ReviewMessage
    | HintsVoteMessage
    | PhraseMessage
)

_BY_TYPE: dict[str, type[BaseModel]] = {
    "hello": HelloMessage,
    "action": ActionMessage,
    "next_game": NextGameMessage,
    "ping": PingMessage,
    "hint": HintMessage,
    "review": ReviewMessage,
    "hints": HintsVoteMessage,
    "phrase": PhraseMessage,
}


@dataclasses.dataclass(frozen=True)
class ClientError:
    """Why a client message could not be read: an ``error`` code of docs/web.md and a text."""

    code: str
    message: str


def parse_client_message(text: str) -> ClientMessage | ClientError:
    """Read one WebSocket text frame; a :class:`ClientError` says what is wrong with it."""
    if len(text) > MAX_MESSAGE_CHARS:
        return ClientError("bad_json", f"a message may have at most {MAX_MESSAGE_CHARS} characters")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return ClientError("bad_json", f"not a JSON object: {_clip(text)!r}")
    if not isinstance(data, dict):
        return ClientError("bad_json", f"not a JSON object: {_clip(text)!r}")
    kind = data.get("type")
    if not isinstance(kind, str):
        return ClientError("bad_json", "a message needs a string 'type'")
    model = _BY_TYPE.get(kind)
    if model is None:
        return ClientError("unknown_type", f"unknown message type {kind!r}; known: {', '.join(_BY_TYPE)}")
    try:
        message: ClientMessage = model.model_validate(data)  # type: ignore[assignment]
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
        return ClientError("bad_message", f"{kind}: {problems}")
    return message


def error_message(code: str, message: str, rule: str | None = None) -> dict[str, Any]:
    """The ``error`` message a client gets; the table is unchanged.

    >>> error_message("not_your_turn", "it is seat 1's turn", "turn")
    {'type': 'error', 'code': 'not_your_turn', 'rule': 'turn', 'message': "it is seat 1's turn"}
    """
    return {"type": "error", "code": code, "rule": rule, "message": message}


def spectator_view(view: dict[str, Any]) -> dict[str, Any]:
    """A spectator's copy of a seat's :func:`~bummerl.protocol.view_to_json` object.

    The hand and the cards known of the other hand are removed: a spectator
    sees only what lies face up on the table (played cards, the trump card,
    shown marriages in the events).  ``hand_sizes`` takes their place.
    """
    seat = view["seat"]
    sizes = [0, 0]
    sizes[seat] = len(view["hand"])
    sizes[1 - seat] = view["opponent_hand_size"]
    out = dict(view)
    out["seat"] = None
    out["hand"] = []
    out["opponent_known"] = []
    out["hand_sizes"] = sizes
    return out


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
