"""Game records of the three- and four-player games, in the tag-pair text form and as JSON.

The same format as the two-player records (:mod:`bummerl.record`,
docs/records.md): tag pairs, a blank line, the deal as the chance player's move
(``deal:`` and the pack, top card first), the action tokens of
:class:`~bummerl.table.TableAction` in order, and a result token.  The
result token gives each seat's game points, seat 0 first (``2-0-2-0``: the team
of seats 0 and 2 won 2 points; ``0-3-3``: both Dreierschnapsen defenders won
3); ``*`` while unfinished.  :func:`bummerl.record.loads` and
:func:`bummerl.record.dumps` (and ``load``/``dump``) read and write these
records as well: the ``Variant`` tag decides.

>>> from bummerl.table import Table
>>> t = Table.deal("dreierschnapsen", seed=8, dealer=1)
>>> for token in "cut trump:s bid:normal pass pass discard:Qh discard:Js pass pass".split():
...     t.apply(token)
>>> record = TableGameRecord.from_table(t, Event="Example", Seed=8)
>>> print(record.dumps(), end="")
[Event "Example"]
[Site "?"]
[Date "????.??.??"]
[Seat0 "?"]
[Seat1 "?"]
[Seat2 "?"]
[Variant "dreierschnapsen"]
[Options ""]
[Seed "8"]
[Dealer "1"]
[Result "*"]
<BLANKLINE>
deal:QhAsJsThQdTsAhJdTcAdQsKsTdKdKcAcJcQcJhKh
cut trump:s bid:normal pass pass discard:Qh discard:Js pass pass *
>>> TableGameRecord.loads(record.dumps()) == record
True
>>> TableGameRecord.loads(record.dumps("json")) == record
True

Reading replays every action through :class:`~bummerl.table.Table`: a record
that loads is a legal game; anything else raises
:class:`~bummerl.errors.RecordError` naming the line, the action and the rule.
Finished games also carry ``Reason``, ``Contract``, ``Declarer`` and ``Augen``
(the declarer's side first), all checked against the replay.  Like the
engine, this module is standard library only and touches no files.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from bummerl.cards import Card, format_cards, parse_cards
from bummerl.errors import BummerlError, RecordError
from bummerl.record import Visitor, _check_tag, _format_options, _int_tag, _parse_options, format_movetext
from bummerl.table.actions import TableAction
from bummerl.table.game import Table, TableEndReason, TableResult
from bummerl.variants import TableVariant, find_table_variant

__all__ = ["TABLE_RESERVED_TAGS", "TableGameBuilder", "TableGameRecord", "is_table_variant_name"]

Format = Literal["text", "json"]

#: Tags written from the record itself (checked against the replay on reading).
TABLE_RESERVED_TAGS = ("Variant", "Options", "Dealer", "Result", "Reason", "Contract", "Declarer", "Augen")
_TAG_ORDER = (
    "Event",
    "Site",
    "Date",
    "Match",
    "Game",
    "Seat0",
    "Seat1",
    "Seat2",
    "Seat3",
    "Variant",
    "Options",
    "Seed",
    "Dealer",
    "Result",
    "Reason",
    "Contract",
    "Declarer",
    "Augen",
)
_DEFAULTS = {"Event": "?", "Site": "?", "Date": "????.??.??"}
_RESULT = re.compile(r"\d+(?:-\d+)+\Z")
_JSON_FORMAT = "bummerl-record"


def is_table_variant_name(name: object) -> bool:
    """Whether ``name`` names a three- or four-player variant (any alias).

    >>> is_table_variant_name("Bauern"), is_table_variant_name("schnapsen")
    (True, False)
    """
    try:
        find_table_variant(str(name))
    except BummerlError:
        return False
    return True


@dataclasses.dataclass(frozen=True)
class TableGameRecord:
    """One table game: free tags, the variant, the dealer, the pack, the actions, the result.

    ``comments`` are ``(after, text)`` pairs, ``after`` counting the actions
    before the comment (``-1``: before the deal), as in
    :class:`bummerl.record.GameRecord`.
    """

    tags: dict[str, str]
    variant: TableVariant
    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[TableAction, ...]
    result: TableResult | None
    comments: tuple[tuple[int, str], ...] = ()

    def __post_init__(self) -> None:
        for name, value in self.tags.items():
            _check_table_tag(name, value)
        if self.dealer not in range(self.variant.players):
            raise RecordError(f"dealer must be a seat 0..{self.variant.players - 1}, not {self.dealer!r}")
        object.__setattr__(self, "comments", tuple(sorted(self.comments, key=lambda c: c[0])))
        for after, text in self.comments:
            if not -1 <= after <= len(self.actions):
                raise RecordError(f"comment position {after} outside -1..{len(self.actions)}")
            if "}" in text or "\r" in text:
                raise RecordError(f"a comment cannot contain '}}' or a carriage return: {text!r}")

    @classmethod
    def from_table(cls, table: Table, /, comments: Iterable[tuple[int, str]] = (), **tags: object) -> TableGameRecord:
        """The record of ``table`` (finished or not); ``tags`` are free tag pairs.

        Event, Site, Date and one ``SeatN`` per seat default to ``?``.  Pass
        ``Seed`` when the table was dealt by :meth:`Table.deal`: reading checks it.
        """
        v = table.variant
        if find_table_variant(v.name, **v.options()) != v:
            raise RecordError(f"variant {v.name!r} is not a built-in variant plus options; it cannot be recorded")
        all_tags = dict(_DEFAULTS)
        all_tags.update({f"Seat{s}": "?" for s in range(v.players)})
        all_tags.update({k: str(val) for k, val in tags.items()})
        return cls(_ordered(all_tags), v, table.dealer, table.deck, tuple(table.actions), table.result, tuple(comments))

    @property
    def result_token(self) -> str:
        """Each seat's points joined by ``-`` (seat 0 first), ``*`` while unfinished."""
        return _result_token(self.result, self.variant.players)

    def all_tags(self) -> dict[str, str]:
        """Every tag as written: the free tags and those made from the fields."""
        tags = dict(self.tags)
        tags["Variant"] = self.variant.name
        tags["Options"] = _format_options(self.variant.options())
        tags["Dealer"] = str(self.dealer)
        tags["Result"] = self.result_token
        r = self.result
        if r is not None:
            tags["Reason"] = r.reason.value
            if r.contract:
                tags["Contract"] = r.contract
            if r.declarer is not None:
                tags["Declarer"] = str(r.declarer)
            tags["Augen"] = f"{r.augen[0]}-{r.augen[1]}"
        return _ordered(tags)

    def replay(self) -> Table:
        """Replay through the engine; raise :class:`RecordError` on any mismatch."""
        table = _new_table(self.variant, self.deck, self.dealer, self.tags.get("Seed"))
        for number, action in enumerate(self.actions, 1):
            _apply(table, number, action.token)
        _check_result(table, self.result_token)
        return table

    def dumps(self, format: Format = "text") -> str:
        """The text form (ending with a newline) or the one-line JSON form."""
        if format == "json":
            return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))
        if format != "text":
            raise ValueError(f"format must be 'text' or 'json', not {format!r}")
        return _text(self)

    @classmethod
    def loads(cls, text: str, format: Format | None = None) -> TableGameRecord:
        """Read exactly one table game record (text or JSON)."""
        from bummerl.record import loads

        record = loads(text, format)
        if not isinstance(record, TableGameRecord):
            raise RecordError(f"expected a three- or four-player game, found a {type(record).__name__}")
        return record

    def to_json(self) -> dict[str, Any]:
        """The JSON object (the keys of the two-player game records)."""
        result: dict[str, Any] | None = None
        r = self.result
        if r is not None:
            result = {
                "points": [r.points_of(s) for s in range(self.variant.players)],
                "reason": r.reason.value,
                "contract": r.contract,
                "declarer": r.declarer,
                "augen": list(r.augen),
            }
        return {
            "format": _JSON_FORMAT,
            "type": "game",
            "tags": dict(self.tags),
            "variant": self.variant.name,
            "options": dict(sorted(self.variant.options().items())),
            "dealer": self.dealer,
            "deal": format_cards(self.deck),
            "actions": [a.token for a in self.actions],
            "comments": [[after, text] for after, text in self.comments],
            "result": result,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> TableGameRecord:
        """Read the JSON object of :meth:`to_json`, replaying it."""
        if obj.get("format", _JSON_FORMAT) != _JSON_FORMAT or obj.get("type", "game") != "game":
            raise RecordError("not a Bummerl game record")
        tags = obj.get("tags", {})
        if not isinstance(tags, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tags.items()):
            raise RecordError("'tags' must be an object of strings")
        options = obj.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("'options' must be an object")
        variant = _variant(str(obj.get("variant")), options)
        dealer = obj.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool):
            raise RecordError(f"'dealer' must be a seat number, not {dealer!r}")
        deal = obj.get("deal")
        if not isinstance(deal, str):
            raise RecordError("the JSON record has no 'deal' string")
        tokens = obj.get("actions", [])
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise RecordError("'actions' must be a list of action tokens")
        comments = obj.get("comments", [])
        if not isinstance(comments, list) or not all(
            isinstance(c, list) and len(c) == 2 and isinstance(c[0], int) and isinstance(c[1], str) for c in comments
        ):
            raise RecordError("'comments' must be a list of [after, text] pairs")
        table = _new_table(variant, _parse_deal(deal), dealer, tags.get("Seed"))
        for number, token in enumerate(tokens, 1):
            _apply(table, number, token)
        result = obj.get("result")
        if result is None:
            _check_result(table, "*")
        else:
            if not isinstance(result, dict):
                raise RecordError("'result' must be an object or null")
            points = result.get("points")
            if not isinstance(points, list) or not all(isinstance(p, int) for p in points):
                raise RecordError(f"'points' must be a list of integers, not {points!r}")
            _check_result(table, "-".join(str(p) for p in points))
            assert table.result is not None
            for key, actual in (("reason", table.result.reason.value), ("contract", table.result.contract)):
                if result.get(key, actual) != actual:
                    raise RecordError(f"{key} {result[key]!r} disagrees with the replay ({actual})")
            if "augen" in result and result["augen"] != list(table.result.augen):
                raise RecordError(f"augen {result['augen']!r} disagree with the replay ({list(table.result.augen)})")
        return cls(
            dict(tags),
            variant,
            dealer,
            table.deck,
            tuple(table.actions),
            table.result,
            tuple((int(a), str(t)) for a, t in comments),
        )


class TableGameBuilder(Visitor[TableGameRecord]):
    """Builds a :class:`TableGameRecord` from the text form, replaying each action as it comes."""

    def begin_game(self) -> None:
        self._tags: dict[str, str] = {}
        self._raw: dict[str, str] = {}
        self._comments: list[tuple[int, str]] = []
        self._table: Table | None = None
        self._variant: TableVariant | None = None
        self._record: TableGameRecord | None = None

    def visit_tag(self, name: str, value: str) -> None:
        if name in self._raw:
            raise RecordError(f"tag {name} appears twice")
        self._raw[name] = value
        if name == "Variant":
            _variant(value, {})
        elif name == "Options":
            _parse_options(value)
        elif name == "Result":
            if value != "*" and not _RESULT.match(value):
                raise RecordError(f"Result must be each seat's points joined by '-' or '*', not {value!r}")
        elif name == "Reason":
            if value not in {r.value for r in TableEndReason}:
                raise RecordError(f"unknown Reason {value!r}; known: {', '.join(r.value for r in TableEndReason)}")
        elif name not in TABLE_RESERVED_TAGS:
            _check_table_tag(name, value)
            self._tags[name] = value

    def end_tags(self) -> bool:
        raw = self._raw
        if "Dealer" not in raw:
            raise RecordError("the Dealer tag is missing")
        self._variant = _variant(raw["Variant"], _parse_options(raw.get("Options", "")))
        if raw["Dealer"] not in [str(s) for s in range(self._variant.players)]:
            raise RecordError(f"Dealer must be a seat 0..{self._variant.players - 1}, not {raw['Dealer']!r}")
        return True

    def visit_deal(self, cards: str) -> None:
        assert self._variant is not None
        self._table = _new_table(self._variant, _parse_deal(cards), int(self._raw["Dealer"]), self._tags.get("Seed"))

    def visit_action(self, number: int, token: str) -> None:
        if self._table is None:
            raise RecordError(f"move {number} {token!r} before the deal: the movetext must start with deal:<cards>")
        _apply(self._table, number, token)

    def visit_comment(self, text: str) -> None:
        after = -1 if self._table is None else len(self._table.actions)
        self._comments.append((after, text))

    def visit_result(self, token: str) -> None:
        table = self._table
        if table is None:
            raise RecordError("the deal is missing: the movetext must start with deal:<cards>")
        raw = self._raw
        if raw.get("Result", token) != token:
            raise RecordError(f"the Result tag {raw['Result']!r} disagrees with the result token {token!r}")
        _check_result(table, token)
        made = TableGameRecord(
            self._tags,
            table.variant,
            table.dealer,
            table.deck,
            tuple(table.actions),
            table.result,
            tuple(self._comments),
        )
        written = made.all_tags()
        for name in ("Reason", "Contract", "Declarer", "Augen"):
            if name in raw and raw[name] != written.get(name):
                raise RecordError(f"{name} {raw[name]!r} disagrees with the replay ({written.get(name, 'none')})")
        self._record = made

    def result(self) -> TableGameRecord:
        assert self._record is not None
        return self._record


# ------------------------------------------------------------------ helpers
def _check_table_tag(name: str, value: str) -> None:
    if name in TABLE_RESERVED_TAGS:
        raise RecordError(f"the {name} tag is written from the record itself; it cannot be a free tag")
    _check_tag(name, value)


def _ordered(tags: Mapping[str, str]) -> dict[str, str]:
    out = {k: tags[k] for k in _TAG_ORDER if k in tags}
    out.update({k: v for k, v in tags.items() if k not in out})
    return out


def _variant(name: str, options: Mapping[str, Any]) -> TableVariant:
    try:
        return find_table_variant(name, **options)
    except BummerlError as exc:
        raise RecordError(str(exc)) from None


def _parse_deal(text: str) -> tuple[Card, ...]:
    try:
        return parse_cards(text)
    except ValueError as exc:
        raise RecordError(f"bad deal {text!r}: {exc}") from None


def _new_table(variant: TableVariant, deck: tuple[Card, ...], dealer: int, seed_text: str | None) -> Table:
    try:
        table = Table.from_deck(variant, deck, dealer)
    except ValueError as exc:
        raise RecordError(f"bad deal: {exc}") from None
    if seed_text is not None:
        seed = _int_tag("Seed", seed_text)
        if Table.deal(variant, seed, dealer).deck != deck:
            raise RecordError(f"Seed {seed} does not deal the recorded pack")
    return table


def _apply(table: Table, number: int, token: str) -> None:
    try:
        table.apply(TableAction.parse(token))
    except BummerlError as exc:
        raise RecordError(f"move {number} {token!r}: {exc}") from None


def _result_token(result: TableResult | None, players: int) -> str:
    if result is None:
        return "*"
    return "-".join(str(result.points_of(s)) for s in range(players))


def _check_result(table: Table, token: str) -> None:
    actual = _result_token(table.result, table.variant.players)
    if token == "*":
        if table.result is not None:
            raise RecordError(f"the game is over ({actual}, {table.result.reason.value}) but the record says *")
        return
    if table.result is None:
        raise RecordError(f"the record says {token} but the game is not over after {len(table.actions)} actions")
    if token != actual:
        raise RecordError(f"result {token} disagrees with the replay: {actual} ({table.result.reason.value})")


def _text(record: TableGameRecord) -> str:
    tokens = [a.token for a in record.actions]
    return format_movetext(record.all_tags(), record.deck, tokens, record.comments, record.result_token)
