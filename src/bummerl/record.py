"""Game and match records of every variant: a PGN-like text form and a JSON form, both replayed on reading.

A record holds what is needed to replay a game exactly: the variant and its
options, the dealer, the deal (the chance player's action: the whole pack order,
top card first) and every player action; plus free tag pairs (event, players,
match standing ...).  One format serves all six variants; the ``Variant`` tag
says which game it is, and the format is specified in ``docs/records.md``:

>>> from bummerl.game import Game
>>> game = Game.deal("sechsundsechzig", seed=99, dealer=0)
>>> for token in "Qs Tc Ah Jh Ac".split():
...     _ = game.apply(token)
>>> print(dumps(GameRecord.from_game(game, Event="Unfinished", Seed=99)), end="")
[Event "Unfinished"]
[Site "?"]
[Date "????.??.??"]
[Seat0 "?"]
[Seat1 "?"]
[Variant "sechsundsechzig"]
[Options ""]
[Seed "99"]
[Dealer "0"]
[Result "*"]
<BLANKLINE>
deal:QsAhAcTcJhJdThKhQcAdKdQdKs9cAsJsTsQhTdJc9h9sKc9d
Qs Tc Ah Jh Ac *

A table game is the same record with a seat tag per player and the table's
action tokens; its result token names every seat's game points:

>>> table = Game.deal("dreierschnapsen", seed=8, dealer=1)
>>> for token in "cut trump:s bid:normal pass pass discard:Qh discard:Js pass pass".split():
...     _ = table.apply(token)
>>> text = dumps(GameRecord.from_game(table, Event="Example", Seed=8))
>>> print(text.split("\\n\\n")[1], end="")
deal:QhAsJsThQdTsAhJdTcAdQsKsTdKdKcAcJcQcJhKh
cut trump:s bid:normal pass pass discard:Qh discard:Js pass pass *

Reading replays every action through the engine (:meth:`bummerl.game.Game.apply`),
so a record that loads is a legal game; anything else raises
:class:`~bummerl.errors.RecordError` naming the line, the move and the rule.

>>> game = Game.deal("schnapsen", seed=5)
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[0])
>>> record = GameRecord.from_game(game, Event="Test", Seed=5)
>>> text = dumps(record)
>>> text.splitlines()[0], text.splitlines()[-1].split()[-1] == record.result_token
('[Event "Test"]', True)
>>> loads(text) == record, loads(dumps(record, format="json")) == record
(True, True)
>>> record.replay().result == game.result
True

This module reads and writes text; it never touches files by name, a network
or global state.  Like the engine it is pure standard library.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any, Generic, Literal, Self, TypeAlias, TypeVar, overload

from bummerl.actions import Action
from bummerl.cards import Card, format_cards, parse_cards
from bummerl.errors import BummerlError, RecordError, UnknownVariantError
from bummerl.game import Game
from bummerl.match import Match
from bummerl.rng import derive_seed, key_commitment
from bummerl.rules.options import format_options, parse_options
from bummerl.rules.result import Result as ResultProtocol
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import EndReason, TwoPlayerVariant, Variant, find_variant
from bummerl.variants.bauernschnapsen import TableEndReason

__all__ = [
    "GameBuilder",
    "GameRecord",
    "MatchRecord",
    "Record",
    "TagScanner",
    "Visitor",
    "dump",
    "dumps",
    "iter_games",
    "iter_records",
    "load",
    "loads",
    "loads_all",
    "read_game",
    "visit_games",
]

T = TypeVar("T")
G = TypeVar("G", bound=Game)
Format = Literal["text", "json"]
#: The result of a finished game: a two-player game's or a table game's.
# A game's result, of either family (:class:`bummerl.rules.result.Result`): what a record reads of it.
Result: TypeAlias = ResultProtocol

#: Tags made from the finished game's result, in the order they are written (a table game's names its
#: contract and its declarer; the Augen of a table game are the declarer's side's first).
RESULT_TAGS = ("Reason", "Contract", "Declarer", "Augen")
#: Tags written from the record's own fields; they cannot be set as free tags.
RESERVED_TAGS = ("Variant", "Options", "Dealer", "Result", *RESULT_TAGS)
#: The order in which known tags are written; other tags follow in their own order.
TAG_ORDER = (
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
    "MatchSeed",
    "Target",
    "Dealer",
    "StandingBefore",
    "StandingAfter",
    "Result",
    *RESULT_TAGS,
)
#: Tags that differ from game to game within a match record.
GAME_TAGS = ("Game", "Seed", "StandingBefore", "StandingAfter")
#: Default values of the tags :meth:`GameRecord.from_game` always writes (PGN style), with ``SeatN`` ``?``
#: for every seat.
DEFAULT_TAGS = {"Event": "?", "Site": "?", "Date": "????.??.??"}
#: Every way a game can end, of either family: a ``Reason`` tag names one.
_REASONS = tuple(dict.fromkeys([r.value for r in EndReason] + [r.value for r in TableEndReason]))
#: The fields of a table game's result that name its contract; a two-player result has none.
_CONTRACT_FIELDS = ("contract", "declarer")

_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_TAG_LINE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*\Z')
_SCORE = re.compile(r"([0-9]+)-([0-9]+)\Z")
#: A result token ending the movetext: two seats' points, or three or four (table games).
_RESULT_TOKEN = re.compile(r"[0-9]+(?:-[0-9]+)+\Z")
_INTEGER = re.compile(r"-?[0-9]+\Z")
_WIDTH = 79
_JSON_FORMAT = "bummerl-record"
_NUMBER_WORDS = {2: "two", 3: "three", 4: "four"}


class _TextForm:
    """``dumps`` and ``loads`` on a record type itself, as :func:`dumps` and :func:`loads` for any record."""

    def dumps(self, format: Format = "text") -> str:
        assert isinstance(self, GameRecord | MatchRecord)
        return dumps(self, format)

    @classmethod
    def loads(cls, text: str, format: Format | None = None) -> Self:
        """Read exactly one record of this type: one game (:class:`GameRecord`) or one match (:class:`MatchRecord`)."""
        record = loads(text, format)
        if isinstance(record, cls):
            return record
        if isinstance(record, MatchRecord):
            raise RecordError(f"expected one game, found a match of {len(record.games)} games")
        raise RecordError("expected a match (games with a Match tag), found a single game")


# ---------------------------------------------------------------- game records
@dataclasses.dataclass(frozen=True)
class GameRecord(_TextForm):
    """One game of any variant: free tags, the variant, the dealer, the deal, the actions, the result.

    ``result`` is ``None`` for an unfinished game (a two-player game's
    :class:`~bummerl.variants.GameResult` or a table game's
    :class:`~bummerl.variants.bauernschnapsen.TableResult` otherwise).  ``comments`` are
    ``(after, text)`` pairs: ``after`` counts the player actions before the
    comment (``-1``: before the deal).  Build one with :meth:`from_game` or by
    reading; :meth:`replay` checks it.  Records compare by value (they hold a
    dict of tags, so they are not hashable).
    """

    tags: dict[str, str]
    variant: Variant
    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[Action, ...]
    result: Result | None
    comments: tuple[tuple[int, str], ...] = ()

    def __post_init__(self) -> None:
        for name, value in self.tags.items():
            _check_tag(name, value)
        n = self.variant.players
        if self.dealer not in range(n) or isinstance(self.dealer, bool):
            raise RecordError(f"dealer must be {'seat ' if n == 2 else ''}{_seats(n)}, not {self.dealer!r}")
        # Comments are kept in game order (stable for one position), as the text
        # form writes them, so that a record equals its own reading.
        object.__setattr__(self, "comments", tuple(sorted(self.comments, key=lambda c: c[0])))
        for after, text in self.comments:
            if not isinstance(after, int) or not -1 <= after <= len(self.actions):
                raise RecordError(f"comment position {after} outside -1..{len(self.actions)}")
            if not isinstance(text, str) or "}" in text or "\r" in text:
                raise RecordError(f"a comment is text that cannot contain '}}' or a carriage return: {text!r}")

    @classmethod
    def from_game(cls, game: Game, /, comments: Iterable[tuple[int, str]] = (), **tags: object) -> GameRecord:
        """The record of ``game`` (any variant, finished or not); ``tags`` are free tag pairs.

        Event, Site, Date and one ``SeatN`` per seat default to ``?`` (Date
        ``????.??.??``).  Pass ``Seed`` when the game was dealt by
        :meth:`Game.deal`: reading checks that the seed deals the recorded pack.
        """
        return cls._of(game, {k: str(v) for k, v in tags.items()}, comments)

    @classmethod
    def _of(cls, game: Game, tags: Mapping[str, str], comments: Iterable[tuple[int, str]] = ()) -> GameRecord:
        if not game.deck:
            raise RecordError("a game set up from a position has no deal and cannot be recorded")
        _check_recordable(game.variant)
        all_tags = dict(DEFAULT_TAGS)
        all_tags.update({f"Seat{s}": "?" for s in range(game.players)})
        all_tags.update(tags)
        return cls(
            _ordered(all_tags),
            game.variant,
            game.dealer,
            game.deck,
            tuple(game.actions),
            game.result,
            tuple(comments),
        )

    # ------------------------------------------------------------ properties
    @property
    def result_token(self) -> str:
        """Each seat's points joined by ``-``, seat 0 first (``2-0``, ``0-9-0-9``); ``*`` while unfinished."""
        return _result_token(self.result, self.variant.players)

    @property
    def seed(self) -> int | None:
        """The deal seed from the ``Seed`` tag, if any."""
        text = self.tags.get("Seed")
        return None if text is None else _int_tag("Seed", text)

    def all_tags(self) -> dict[str, str]:
        """Every tag as written: the free tags and those made from the fields."""
        tags = dict(self.tags)
        tags["Variant"] = self.variant.name
        tags["Options"] = format_options(self.variant.options())
        tags["Dealer"] = str(self.dealer)
        tags["Result"] = self.result_token
        if self.result is not None:
            tags.update(_result_tags(self.result))
        return _ordered(tags)

    # ---------------------------------------------------------------- replay
    @overload
    def replay(self) -> Game: ...

    @overload
    def replay(self, engine: type[G]) -> G: ...

    def replay(self, engine: type[Game] = Game) -> Game:
        """Replay the record through the engine; raise :class:`RecordError` on any mismatch.

        ``engine`` (:class:`~bummerl.two_player.TwoPlayerGame` or
        :class:`~bummerl.table_game.TableGame`) refuses a record of the other
        family and gives code of one family its type.
        """
        _check_seed(self.variant, self.deck, self.dealer, self.tags.get("Seed"))
        game = _new_game(self.variant, self.deck, self.dealer, engine)
        for number, action in enumerate(self.actions, 1):
            _apply(game, number, action.token)
        _check_result(game, self.result_token, self.result)
        return game


@dataclasses.dataclass(frozen=True)
class MatchRecord(_TextForm):
    """The games of one two-player match (a Bummerl, or Marken in Schnorps), in order.

    A match record is a run of consecutive game records sharing a ``Match`` tag,
    with ``Game`` numbers 1, 2, ... and ``StandingBefore``/``StandingAfter``;
    each game carries the match's tags.  The table games' match to 24 has no
    record form: a table game's ``Match`` tag only names the match it belongs to.
    """

    games: tuple[GameRecord, ...]

    def __post_init__(self) -> None:
        if not self.games:
            raise RecordError("a match record needs at least one game")
        ident = self.games[0].tags.get("Match")
        if ident is None:
            raise RecordError("the games of a match record need a Match tag")
        for i, g in enumerate(self.games, 1):
            if g.tags.get("Match") != ident:
                raise RecordError(f"game {i} has Match tag {g.tags.get('Match')!r}, not {ident!r}")
            if _match_variant(g.variant) is None:
                raise RecordError(f"game {i}: {g.variant.title} has no match record (its games are recorded alone)")

    @classmethod
    def from_match(cls, match: Match, **tags: object) -> MatchRecord:
        """The record of ``match`` so far (an unfinished current game included)."""
        base = dict(DEFAULT_TAGS)
        base.update(Seat0="?", Seat1="?")
        if match.deal_key is None:
            base["Match"] = f"{match.variant.name}-{match.seed}"
        else:
            # A keyed match names neither its key nor its seed (the seed draws its dealers):
            # its record may be public while it runs.  The key's commitment identifies it.
            base["Match"] = f"{match.variant.name}-{key_commitment(match.deal_key)[:16]}"
        base.update({k: str(v) for k, v in tags.items()})
        for name in GAME_TAGS:
            if name in base:
                raise RecordError(f"{name} is set per game by from_match(), not as a match tag")
        if match.deal_key is None:
            base["MatchSeed"] = str(match.seed)
        base["Target"] = str(match.target)
        history = match.history
        seeds = match.game_seeds
        games = []
        for i, game in enumerate(match.games):
            game_tags = dict(base)
            game_tags["Game"] = str(i + 1)
            if seeds[i] is not None:
                game_tags["Seed"] = str(seeds[i])
            if i < len(history):
                h = history[i]
                game_tags["StandingBefore"] = _pair(h.standing_before)
                game_tags["StandingAfter"] = _pair(h.standing_after)
            else:
                game_tags["StandingBefore"] = _pair(match.standing)
            games.append(GameRecord._of(game, game_tags))
        return cls(tuple(games))

    @property
    def tags(self) -> dict[str, str]:
        """The match-level tags (those of the first game, without the per-game ones)."""
        return {k: v for k, v in self.games[0].tags.items() if k not in GAME_TAGS}

    @property
    def variant(self) -> TwoPlayerVariant:
        variant = _match_variant(self.games[0].variant)
        assert variant is not None  # checked on construction
        return variant

    def replay(self) -> Match:
        """Replay every game into a :class:`Match`, checking dealers, seeds and standings."""
        first = self.games[0]
        ident = first.tags["Match"]
        seed_text = first.tags.get("MatchSeed")
        seed = None if seed_text is None else _int_tag("MatchSeed", seed_text)
        target_text = first.tags.get("Target")
        target = None if target_text is None else _int_tag("Target", target_text)
        try:
            match = Match(self.variant, seed=seed or 0, first_dealer=first.dealer, target=target)
        except BummerlError as exc:
            raise RecordError(f"match {ident!r}: {exc}") from None
        for i, rec in enumerate(self.games, 1):
            where = f"match {ident!r}, game {i}"
            try:
                _replay_match_game(match, rec, i, seed)
            except RecordError as exc:
                raise RecordError(f"{where}: {exc}") from None
        return match


#: What the readers return and the writers take: a game of any variant, or a two-player match.
Record: TypeAlias = GameRecord | MatchRecord


def _match_variant(variant: Variant) -> TwoPlayerVariant | None:
    """``variant`` as the variant of a :class:`Match` (Bummerl, Marken); ``None`` for a table game, whose
    match to 24 has no record form yet (the games that :mod:`bummerl.server` and ``bummerl play`` store carry a
    ``Match`` and a ``Game`` tag but neither the match's seed nor its standing, and are read one by one)."""
    try:
        return TwoPlayerVariant.find(variant)
    except UnknownVariantError:
        return None


def _replay_match_game(match: Match, rec: GameRecord, number: int, seed: int | None) -> None:
    if match.current is not None:
        raise RecordError(f"game {number - 1} is not finished, yet game {number} follows")
    if match.is_over:
        raise RecordError(f"the match was over after game {number - 1} (won by seat {match.winner})")
    if rec.variant != match.variant:
        raise RecordError(f"variant {rec.variant.name} differs from the match's {match.variant.name}")
    game_tag = rec.tags.get("Game")
    if game_tag is not None and game_tag != str(number):
        raise RecordError(f"Game tag {game_tag!r} should be {number}")
    if seed is not None:
        expected = derive_seed(seed, number - 1)
        if rec.seed is not None and rec.seed != expected:
            raise RecordError(f"Seed {rec.seed} is not game {number}'s seed of MatchSeed {seed} ({expected})")
        if rec.dealer != match.next_dealer:
            raise RecordError(f"dealt by seat {rec.dealer}, but seat {match.next_dealer} deals this game")
        if TwoPlayerGame.deal(match.variant, expected, rec.dealer).deck != rec.deck:
            raise RecordError(f"the deal is not the one MatchSeed {seed} gives game {number}")
    before = _pair(match.standing)
    _expect_tag(rec, "StandingBefore", before)
    try:
        game = match.deal_next(deck=rec.deck, dealer=rec.dealer)
    except BummerlError as exc:
        raise RecordError(str(exc)) from None
    _check_seed(rec.variant, rec.deck, rec.dealer, rec.tags.get("Seed"))
    for n, action in enumerate(rec.actions, 1):
        _apply(game, n, action.token)
    _check_result(game, rec.result_token, rec.result)
    if game.is_over:
        match.complete(game)
        _expect_tag(rec, "StandingAfter", _pair(match.standing))
    elif "StandingAfter" in rec.tags:
        raise RecordError("an unfinished game has no StandingAfter")


def _expect_tag(rec: GameRecord, name: str, value: str) -> None:
    got = rec.tags.get(name)
    if got is not None and got != value:
        raise RecordError(f"{name} {got!r} disagrees with the replay ({value})")


# --------------------------------------------------------------- shared checks
def _check_tag(name: str, value: str) -> None:
    if not isinstance(name, str) or not _TAG_NAME.match(name):
        raise RecordError(f"tag names are a letter then letters, digits or '_': {name!r}")
    if name in RESERVED_TAGS:
        raise RecordError(f"the {name} tag is written from the record itself; it cannot be a free tag")
    if not isinstance(value, str) or "\n" in value or "\r" in value:
        raise RecordError(f"tag {name} needs a one-line string value, not {value!r}")


def _check_recordable(variant: Variant) -> None:
    try:
        again = find_variant(variant.name, **variant.options())
    except BummerlError:
        again = None
    if again != variant:
        raise RecordError(f"variant {variant.name!r} is not a built-in variant plus options; it cannot be recorded")


def _new_game(variant: Variant, deck: Iterable[Card], dealer: int, engine: type[Game] = Game) -> Game:
    try:
        return engine.from_deck(variant, deck, dealer)
    except UnknownVariantError as exc:
        raise RecordError(str(exc)) from None
    except ValueError as exc:
        raise RecordError(f"bad deal: {exc}") from None


def _check_seed(variant: Variant, deck: tuple[Card, ...], dealer: int, seed_text: str | None) -> None:
    if seed_text is None:
        return
    seed = _int_tag("Seed", seed_text)
    if Game.deal(variant, seed, dealer).deck != deck:
        raise RecordError(f"Seed {seed} does not deal the recorded pack")


def _apply(game: Game, number: int, token: str) -> Action:
    try:
        action = Action.parse(token)
        game.apply(action)
    except BummerlError as exc:
        raise RecordError(f"move {number} {token!r}: {exc}") from None
    return action


def _check_result(game: Game, token: str, claimed: Result | None = None) -> None:
    """``token`` (and the full ``claimed`` result, if given) must match the replay."""
    actual = _result_token(game.result, game.players)
    if token == "*":
        if game.result is not None:
            raise RecordError(f"the game is over ({actual}, {game.result.reason.value}) but the record says *")
        return
    if game.result is None:
        raise RecordError(f"the record says {token} but the game is not over after {len(game.actions)} moves")
    if token != actual:
        raise RecordError(f"result {token} disagrees with the replay: {actual} ({game.result.reason.value})")
    if claimed is not None and claimed != game.result:
        raise RecordError(f"result {claimed} disagrees with the replay: {game.result}")


def _result_token(result: Result | None, players: int) -> str:
    if result is None:
        return "*"
    return "-".join(str(result.points_of(s)) for s in range(players))


def _result_tags(result: Result) -> dict[str, str]:
    """The tags of a finished game's result, in :data:`RESULT_TAGS` order."""
    tags = {"Reason": result.reason.value}
    contract = _contract_fields(result)
    if contract.get("contract"):
        tags["Contract"] = str(contract["contract"])
    if contract.get("declarer") is not None:
        tags["Declarer"] = str(contract["declarer"])
    tags["Augen"] = _pair(result.augen)
    return tags


def _contract_fields(result: Result) -> dict[str, Any]:
    """A table game's contract and declarer (either may be empty: a redeal has neither); nothing for a
    two-player game, which is played without a contract."""
    return {name: getattr(result, name) for name in _CONTRACT_FIELDS if hasattr(result, name)}


def _seats(players: int) -> str:
    """The seat numbers of a table, as an error message names them."""
    return "0 or 1" if players == 2 else f"a seat 0..{players - 1}"


def _score_form(players: int | None) -> str:
    """How a result token looks, as an error message names it."""
    if players is None:
        return "each seat's points joined by '-'"
    return "'" + "-".join("abcd"[:players]) + "'"


def _int_tag(name: str, text: str) -> int:
    # ASCII digits only: int() also takes "+5", "0_5" and other scripts' digits,
    # which would make two spellings of one seed.
    try:
        if not _INTEGER.match(text):
            raise ValueError
        value = int(text, 10)
    except ValueError:  # also Python's limit on the digits of an int
        raise RecordError(f"{name} tag must be an integer, not {_clip(text)!r}") from None
    # Negative seeds are seeds too (the generator takes them modulo 2**64); a
    # negative Target is refused by the Match it is given to.
    return value


def _clip(text: str, width: int = 60) -> str:
    """``text`` cut to ``width`` characters for an error message (hostile input can be huge)."""
    return text if len(text) <= width else text[:width] + "..."


def _pair(values: tuple[int, ...]) -> str:
    return "-".join(map(str, values))


def _ordered(tags: Mapping[str, str]) -> dict[str, str]:
    out = {k: tags[k] for k in TAG_ORDER if k in tags}
    out.update({k: v for k, v in tags.items() if k not in out})
    return out


def _parse_options(text: str) -> dict[str, str]:
    try:
        return parse_options(text)
    except BummerlError as exc:
        raise RecordError(str(exc)) from None


def _variant(name: str, options: Mapping[str, Any]) -> Variant:
    try:
        return find_variant(name, **options)
    except BummerlError as exc:
        raise RecordError(str(exc)) from None


def _parse_deal(text: str) -> tuple[Card, ...]:
    try:
        return parse_cards(text)
    except ValueError as exc:
        raise RecordError(f"bad deal {text!r}: {exc}") from None


# ------------------------------------------------------------------ text form
def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _game_text(record: GameRecord) -> str:
    """Tag pairs, a blank line, the deal on a line of its own, the actions wrapped at 79 characters."""
    lines = [f'[{name} "{_escape(value)}"]' for name, value in record.all_tags().items()]
    lines.append("")
    notes: dict[int, list[str]] = {}
    for after, text in record.comments:
        notes.setdefault(after, []).append("{" + text + "}")
    # The deal gets a line of its own: it is the chance player's move, and the
    # players' moves below read like a score sheet.
    lines.append(" ".join([*notes.get(-1, ()), "deal:" + format_cards(record.deck)]))
    words = list(notes.get(0, ()))
    for i, action in enumerate(record.actions, 1):
        words.append(action.token)
        words.extend(notes.get(i, ()))
    words.append(record.result_token)
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > _WIDTH:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines) + "\n"


class Visitor(Generic[T]):
    """Receives the parts of one text game as the reader meets them (python-chess style).

    Subclass and override what you need; :meth:`result` gives the value that
    :func:`read_game` returns.  Raising :class:`RecordError` in a method stops
    the reading with the line number added.  :meth:`end_tags` returning
    ``False`` skips the movetext (it is still scanned to find the game's end).
    """

    def begin_game(self) -> None:
        """A new game starts."""

    def visit_tag(self, name: str, value: str) -> None:
        """A tag pair (value unescaped)."""

    def end_tags(self) -> bool:
        """The tags are done; return ``False`` to skip the movetext."""
        return True

    def visit_deal(self, cards: str) -> None:
        """The chance action: the pack order as written after ``deal:``."""

    def visit_action(self, number: int, token: str) -> None:
        """Player action ``number`` (1, 2, ...) as written."""

    def visit_comment(self, text: str) -> None:
        """A ``{comment}`` (without its braces)."""

    def visit_result(self, token: str) -> None:
        """The result token ending the game: each seat's points joined by ``-``, or ``*``."""

    def end_game(self) -> None:
        """The game is complete."""

    def result(self) -> T:
        """What :func:`read_game` returns for this game."""
        raise NotImplementedError


class GameBuilder(Visitor[GameRecord]):
    """The default visitor: builds a :class:`GameRecord` of any variant, replaying each action as it comes.

    Each structural tag is checked on its own line, so that errors point at it;
    what needs the variant (the seats of ``Dealer``, the points in ``Result``)
    is checked as soon as the ``Variant`` tag has come, at the latest after the
    tags.  The tags made from the result are checked against the replay.
    """

    def begin_game(self) -> None:
        self._tags: dict[str, str] = {}
        self._raw: dict[str, str] = {}
        self._comments: list[tuple[int, str]] = []
        self._game: Game | None = None
        self._players: int | None = None
        self._variant: Variant | None = None
        self._record: GameRecord | None = None

    def visit_tag(self, name: str, value: str) -> None:
        if name in self._raw:
            raise RecordError(f"tag {name} appears twice")
        self._raw[name] = value
        if name == "Variant":
            self._players = _variant(value, {}).players
        elif name == "Options":
            _parse_options(value)
        elif name == "Dealer":
            self._check_dealer(value)
        elif name == "Result":
            self._check_result_tag(value)
        elif name == "Reason":
            if value not in _REASONS:
                raise RecordError(f"unknown Reason {value!r}; known: {', '.join(_REASONS)}")
        elif name == "Augen":
            if not _SCORE.match(value):
                raise RecordError(f"Augen must be 'a-b', not {value!r}")
        elif name not in RESULT_TAGS:  # Contract and Declarer: checked against the replay
            _check_tag(name, value)
            self._tags[name] = value

    def _check_dealer(self, value: str) -> None:
        n = self._players
        if n is None:
            if not re.fullmatch("[0-9]", value):
                raise RecordError(f"Dealer must be a seat number, not {value!r}")
        elif value not in [str(s) for s in range(n)]:
            raise RecordError(f"Dealer must be {_seats(n)}, not {value!r}")

    def _check_result_tag(self, value: str) -> None:
        n = self._players
        if value != "*" and (not _RESULT_TOKEN.match(value) or (n is not None and value.count("-") != n - 1)):
            raise RecordError(f"Result must be {_score_form(n)} or '*', not {value!r}")

    def end_tags(self) -> bool:
        raw = self._raw
        if "Variant" not in raw:
            raise RecordError("the Variant tag is missing")
        if "Dealer" not in raw:
            raise RecordError("the Dealer tag is missing")
        self._variant = _variant(raw["Variant"], _parse_options(raw.get("Options", "")))
        # Tags that came before the Variant tag, now with their seats.
        self._check_dealer(raw["Dealer"])
        if "Result" in raw:
            self._check_result_tag(raw["Result"])
        return True

    def visit_deal(self, cards: str) -> None:
        if self._game is not None:
            raise RecordError("a second deal")
        assert self._variant is not None
        deck = _parse_deal(cards)
        dealer = int(self._raw["Dealer"])
        _check_seed(self._variant, deck, dealer, self._tags.get("Seed"))
        self._game = _new_game(self._variant, deck, dealer)

    def visit_action(self, number: int, token: str) -> None:
        if self._game is None:
            raise RecordError(f"move {number} {token!r} before the deal: the movetext must start with deal:<cards>")
        _apply(self._game, number, token)

    def visit_comment(self, text: str) -> None:
        after = -1 if self._game is None else len(self._game.actions)
        self._comments.append((after, text))

    def visit_result(self, token: str) -> None:
        game = self._game
        if game is None:
            raise RecordError("the deal is missing: the movetext must start with deal:<cards>")
        raw = self._raw
        tag = raw.get("Result")
        if tag is not None and tag != token:
            raise RecordError(f"the Result tag {tag!r} disagrees with the result token {token!r}")
        _check_result(game, token)
        record = GameRecord(
            self._tags, game.variant, game.dealer, game.deck, tuple(game.actions), game.result, tuple(self._comments)
        )
        written = record.all_tags()
        for name in RESULT_TAGS:
            if name not in raw:
                continue
            if game.result is None:
                raise RecordError(f"an unfinished game has no {name} tag")
            if raw[name] != written.get(name):
                verb = "disagree" if name == "Augen" else "disagrees"
                raise RecordError(f"{name} {raw[name]!r} {verb} with the replay ({written.get(name, 'none')})")
        self._record = record

    def result(self) -> GameRecord:
        assert self._record is not None
        return self._record


class TagScanner(Visitor[dict[str, str]]):
    """Collects a game's tags and skips its movetext: a fast index of a large file.

    >>> text = '[Variant "schnapsen"]\\n[Dealer "1"]\\n\\ndeal:AhTh *\\n'
    >>> read_game(io.StringIO(text), TagScanner())
    {'Variant': 'schnapsen', 'Dealer': '1'}
    """

    def begin_game(self) -> None:
        self._tags: dict[str, str] = {}

    def visit_tag(self, name: str, value: str) -> None:
        self._tags[name] = value

    def end_tags(self) -> bool:
        return False

    def result(self) -> dict[str, str]:
        return self._tags


class _Lines:
    """Numbered lines of a text stream with one line of push-back; never reads ahead."""

    def __init__(self, fp: IO[str]) -> None:
        self._it = iter(fp)
        self.number = 0
        self._back: str | None = None

    def next(self) -> str | None:
        if self._back is not None:
            line, self._back = self._back, None
        else:
            try:
                line = next(self._it)
            except StopIteration:
                return None
            except UnicodeDecodeError as exc:
                # Files are decoded in blocks: the bad byte is somewhere after this line.
                raise RecordError(f"after line {self.number}: the file is not UTF-8 text ({exc.reason})") from None
        self.number += 1
        if self.number == 1:
            # A byte order mark, as some editors write one at the start of a UTF-8 file.
            line = line.removeprefix("\ufeff")
        return line.rstrip("\r\n")

    def push_back(self, line: str) -> None:
        self._back = line
        self.number -= 1


@overload
def read_game(fp: IO[str] | _Lines, visitor: None = None) -> GameRecord | None: ...


@overload
def read_game(fp: IO[str] | _Lines, visitor: Visitor[T]) -> T | None: ...


def read_game(fp: IO[str] | _Lines, visitor: Visitor[Any] | None = None) -> Any:
    """Read the next text game from ``fp`` with ``visitor`` (default :class:`GameBuilder`).

    Returns ``visitor.result()``, or ``None`` at the end of the stream.  Line
    numbers in errors count from where this call started reading; to read a
    whole file with one visitor use :func:`visit_games`.
    """
    lines = fp if isinstance(fp, _Lines) else _Lines(fp)
    v: Visitor[Any] = visitor if visitor is not None else GameBuilder()
    if not _parse_game(lines, v):
        return None
    return v.result()


def visit_games(fp: IO[str], visitor: Visitor[T]) -> Iterator[T]:
    """``visitor``'s result for every text game in ``fp``, one game at a time.

    Unlike calling :func:`read_game` in a loop, line numbers in errors count
    from the start of ``fp``.

    >>> text = '[Variant "66"]\\n[Dealer "0"]\\n\\ndeal: *\\n' * 2
    >>> [tags["Variant"] for tags in visit_games(io.StringIO(text), TagScanner())]
    ['66', '66']
    """
    lines = _Lines(fp)
    while _parse_game(lines, visitor):
        yield visitor.result()


def _parse_game(lines: _Lines, visitor: Visitor[Any]) -> bool:
    line = lines.next()
    while line is not None and not line.strip():
        line = lines.next()
    if line is None:
        return False
    start = lines.number
    if not line.lstrip().startswith("["):
        raise RecordError(
            f'line {lines.number}: expected a tag pair [Name "value"] to start a game, got {_clip(line)!r}'
        )
    _call(lines.number, visitor.begin_game)
    while line is not None and line.lstrip().startswith("["):
        m = _TAG_LINE.match(line.strip())
        if m is None:
            raise RecordError(
                f'line {lines.number}: malformed tag pair {_clip(line.strip())!r}; expected [Name "value"]'
            )
        _call(lines.number, visitor.visit_tag, m.group(1), _unescape(m.group(2)))
        line = lines.next()
    visit = _call(lines.number, visitor.end_tags)
    number = 0
    dealt = False
    while True:
        if line is None:
            raise RecordError(f"line {lines.number}: truncated: the game starting at line {start} has no result token")
        if line.lstrip().startswith("["):
            raise RecordError(
                f"line {lines.number}: a tag pair inside the movetext: the game starting at line {start}"
                " has no result token"
            )
        pos = 0
        while True:
            while pos < len(line) and line[pos].isspace():
                pos += 1
            if pos >= len(line):
                break
            here = lines.number
            if line[pos] == "{":
                text, line, pos = _read_comment(lines, line, pos + 1, start)
                if visit:
                    _call(here, visitor.visit_comment, text)
                continue
            end = pos
            while end < len(line) and not line[end].isspace() and line[end] != "{":
                end += 1
            token, pos = line[pos:end], end
            if token == "*" or _RESULT_TOKEN.match(token):
                rest = line[pos:].strip()
                if rest:
                    raise RecordError(f"line {here}: text after the result token {token!r}: {_clip(rest)!r}")
                if not dealt:
                    raise RecordError(f"line {here}: the deal is missing: the movetext must start with deal:<cards>")
                if visit:
                    _call(here, visitor.visit_result, token)
                _call(here, visitor.end_game)
                return True
            if token.startswith("deal:"):
                if dealt:
                    raise RecordError(f"line {here}: a second deal token")
                dealt = True
                if visit:
                    _call(here, visitor.visit_deal, token[5:])
                continue
            if not dealt:
                raise RecordError(
                    f"line {here}: the deal is missing: the movetext must start with deal:<cards>, not {token!r}"
                )
            number += 1
            if visit:
                _call(here, visitor.visit_action, number, token)
        line = lines.next()


def _read_comment(lines: _Lines, line: str, pos: int, start: int) -> tuple[str, str, int]:
    parts = []
    while True:
        close = line.find("}", pos)
        if close >= 0:
            parts.append(line[pos:close])
            return "\n".join(parts), line, close + 1
        parts.append(line[pos:])
        nxt = lines.next()
        if nxt is None:
            raise RecordError(f"line {lines.number}: truncated: unclosed comment in the game starting at line {start}")
        line, pos = nxt, 0


def _call(line: int, method: Any, *args: Any) -> Any:
    try:
        return method(*args)
    except RecordError as exc:
        raise RecordError(f"line {line}: {exc}") from None


# ------------------------------------------------------------------ JSON form
def _game_obj(record: GameRecord) -> dict[str, Any]:
    result: dict[str, Any] | None = None
    r = record.result
    if r is not None:
        result = {"points": [r.points_of(s) for s in range(record.variant.players)], "reason": r.reason.value}
        result.update(_contract_fields(r))
        result["augen"] = list(r.augen)
    return {
        "format": _JSON_FORMAT,
        "type": "game",
        "tags": dict(record.tags),
        "variant": record.variant.name,
        "options": dict(sorted(record.variant.options().items())),
        "dealer": record.dealer,
        "deal": format_cards(record.deck),
        "actions": [a.token for a in record.actions],
        "comments": [[after, text] for after, text in record.comments],
        "result": result,
    }


def _game_from_obj(obj: Any) -> GameRecord:
    if not isinstance(obj, dict):
        raise RecordError(f"a JSON game is an object, not {type(obj).__name__}")
    _expect_keys(obj, "game")
    tags = obj.get("tags", {})
    if not isinstance(tags, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tags.items()):
        raise RecordError("'tags' must be an object of strings")
    for name, value in tags.items():
        _check_tag(name, value)
    name = _field(obj, "variant", str)
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("'options' must be an object")
    variant = _variant(name, options)
    n = variant.players
    dealer = _field(obj, "dealer", int)
    if dealer not in range(n):
        raise RecordError(f"'dealer' must be {_seats(n)}, not {dealer!r}")
    deck = _parse_deal(_field(obj, "deal", str))
    tokens = obj.get("actions", [])
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        raise RecordError("'actions' must be a list of action tokens")
    comments = obj.get("comments", [])
    if not isinstance(comments, list) or not all(
        isinstance(c, list)
        and len(c) == 2
        and isinstance(c[0], int)
        and not isinstance(c[0], bool)
        and isinstance(c[1], str)
        for c in comments
    ):
        raise RecordError("'comments' must be a list of [after, text] pairs")
    _check_seed(variant, deck, dealer, tags.get("Seed"))
    game = _new_game(variant, deck, dealer)
    for number, token in enumerate(tokens, 1):
        _apply(game, number, token)
    result = obj.get("result")
    if result is None:
        _check_result(game, "*")
    else:
        if not isinstance(result, dict):
            raise RecordError("'result' must be an object or null")
        _check_result(game, "-".join(str(p) for p in _score_list(result, "points", n)))
        assert game.result is not None  # _check_result refused a token other than "*" for a game not over
        _check_result_obj(result, game.result)
    return GameRecord(
        dict(tags),
        variant,
        dealer,
        deck,
        tuple(game.actions),
        game.result,
        tuple((int(a), str(t)) for a, t in comments),
    )


def _check_result_obj(result: dict[str, Any], actual: Result) -> None:
    """The reason, the contract, the declarer and the Augen of a JSON result, where given, must match the replay."""
    replayed = {"reason": actual.reason.value, **_contract_fields(actual)}
    for key, value in replayed.items():
        if key in result and result[key] != value:
            raise RecordError(f"{key} {result[key]!r} disagrees with the replay ({value})")
    for key in result.keys() - replayed.keys() - {"points", "augen"}:
        if key in _CONTRACT_FIELDS:
            raise RecordError(f"{key} {result[key]!r} disagrees with the replay (none)")
    if "augen" in result and tuple(_score_list(result, "augen", 2)) != actual.augen:
        raise RecordError(f"augen {result['augen']!r} disagree with the replay ({list(actual.augen)})")


def _expect_keys(obj: dict[str, Any], kind: str) -> None:
    if obj.get("format", _JSON_FORMAT) != _JSON_FORMAT:
        raise RecordError(f"not a Bummerl record: format {obj.get('format')!r}")
    if obj.get("type", kind) != kind:
        raise RecordError(f"expected a JSON {kind}, got type {obj.get('type')!r}")


def _field(obj: dict[str, Any], key: str, kind: type[T]) -> T:
    if key not in obj:
        raise RecordError(f"the JSON record has no {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{key!r} must be {kind.__name__}, not {value!r}")
    return value


def _score_list(obj: dict[str, Any], key: str, size: int) -> list[int]:
    value = obj.get(key)
    if (
        not isinstance(value, list)
        or len(value) != size
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value)
    ):
        raise RecordError(f"{key!r} must be a list of {_NUMBER_WORDS[size]} non-negative integers, not {value!r}")
    return value


def _record_obj(record: Record) -> dict[str, Any]:
    if isinstance(record, GameRecord):
        return _game_obj(record)
    return {"format": _JSON_FORMAT, "type": "match", "games": [_game_obj(g) for g in record.games]}


def _record_from_obj(obj: Any) -> Record:
    if not isinstance(obj, dict):
        raise RecordError(f"a JSON record is an object, not {type(obj).__name__}")
    kind = obj.get("type", "game")
    if kind == "game":
        return _game_from_obj(obj)
    if kind != "match":
        raise RecordError(f"unknown JSON record type {kind!r}; expected 'game' or 'match'")
    _expect_keys(obj, "match")
    games = obj.get("games")
    if not isinstance(games, list):
        raise RecordError("a JSON match needs a 'games' list")
    out = []
    for i, g in enumerate(games, 1):
        try:
            out.append(_game_from_obj(g))
        except RecordError as exc:
            raise RecordError(f"game {i}: {exc}") from None
    match = MatchRecord(tuple(out))
    match.replay()
    return match


def _json_loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:  # JSONDecodeError, and integers too long to convert
        raise RecordError(f"{where}malformed JSON: {exc}") from None
    except RecursionError:
        raise RecordError(f"{where}malformed JSON: nested too deeply") from None


# ---------------------------------------------------------------- public API
def dumps(record: Record, format: Format = "text") -> str:
    """The text (default) or JSON form of a game or match record.

    Text ends with a newline; a match is its games one after another, separated
    by blank lines.  JSON is one line without a newline.
    """
    if format == "json":
        return json.dumps(_record_obj(record), ensure_ascii=False, separators=(",", ":"))
    if format != "text":
        raise ValueError(f"format must be 'text' or 'json', not {format!r}")
    if isinstance(record, GameRecord):
        return _game_text(record)
    return "\n".join(_game_text(g) for g in record.games)


def dump(record: Record, fp: IO[str], format: Format = "text") -> None:
    """Write ``record`` to ``fp`` followed by a newline.

    Call it once per record to write many into one file: text records end up
    separated by a blank line, JSON records one per line (JSON Lines).
    """
    fp.write(dumps(record, format) + "\n")


def loads(text: str, format: Format | None = None) -> Record:
    """Read exactly one game or match record (``format`` ``None``: detect it)."""
    records = loads_all(text, format)
    if len(records) != 1:
        raise RecordError(f"expected one record, found {len(records)}; use loads_all() or iter_records()")
    return records[0]


def load(fp: IO[str], format: Format | None = None) -> Record:
    """Read exactly one game or match record from ``fp``."""
    records = list(iter_records(fp, format))
    if len(records) != 1:
        raise RecordError(f"expected one record, found {len(records)}; use iter_records()")
    return records[0]


def loads_all(text: str, format: Format | None = None) -> list[Record]:
    """Every record in ``text`` (games and matches)."""
    if not isinstance(text, str):
        # Usually bytes from a file opened in binary mode: say so instead of failing deep inside.
        raise RecordError(f"a record is text (str), not {type(text).__name__}; decode it (UTF-8) first")
    text = text.removeprefix("\ufeff")
    if (format or _detect(text)) == "json" and not _is_json_lines(text):
        return [_record_from_obj(_json_loads(text, ""))]
    return list(iter_records(io.StringIO(text), format))


def iter_games(fp: IO[str], format: Format | None = None) -> Iterator[GameRecord]:
    """Each game in ``fp``, read and replayed one at a time (a match's games one by one)."""
    lines = _Lines(fp)
    if format is None:
        format = _detect_stream(lines)
    if format == "json":
        while True:
            line = lines.next()
            if line is None:
                return
            if not line.strip():
                continue
            try:
                record = _record_from_obj(_json_loads(line, ""))
            except RecordError as exc:
                raise RecordError(f"line {lines.number}: {exc}") from None
            if isinstance(record, MatchRecord):
                yield from record.games
            else:
                yield record
        return
    if format != "text":
        raise ValueError(f"format must be 'text' or 'json', not {format!r}")
    while True:
        game = read_game(lines)
        if game is None:
            return
        yield game


def iter_records(fp: IO[str], format: Format | None = None) -> Iterator[Record]:
    """Each record in ``fp``: single games, and runs of two-player games sharing a ``Match``
    tag as one :class:`MatchRecord` (replayed as a match).  Streams: only the current
    match is held in memory."""
    pending: list[GameRecord] = []

    def flush() -> MatchRecord:
        record = MatchRecord(tuple(pending))
        record.replay()
        pending.clear()
        return record

    for game in iter_games(fp, format):
        # A table game's Match tag only names its match: it is read alone (see _match_variant).
        ident = game.tags.get("Match") if _match_variant(game.variant) is not None else None
        if pending and ident != pending[0].tags.get("Match"):
            yield flush()
        if ident is None:
            yield game
        else:
            pending.append(game)
    if pending:
        yield flush()


def _detect(text: str) -> Format:
    stripped = text.lstrip()
    return "json" if stripped.startswith("{") else "text"


def _is_json_lines(text: str) -> bool:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return len(lines) > 1 and all(ln.lstrip().startswith("{") and ln.rstrip().endswith("}") for ln in lines)


def _detect_stream(lines: _Lines) -> Format:
    line = lines.next()
    while line is not None and not line.strip():
        line = lines.next()
    if line is None:
        return "text"
    lines.push_back(line)
    return _detect(line)
