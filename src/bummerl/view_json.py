"""The JSON form of what one player may know, for every variant: views, variants and results.

A view becomes JSON here and nowhere else: the bot protocol (docs/protocol.md)
sends it to bot programs, the web server to browsers (the table games through
:func:`bummerl.server.families.table_view_to_json`, which strips a spectator's copy).  Both view
kinds have one pair of functions, like ``Move.uci()`` / ``Move.from_uci()`` in
python-chess: :func:`view_to_json` reads a two-player
:class:`~bummerl.view.PlayerView` or a three-/four-player
:class:`~bummerl.view.TableView`, and :func:`view_from_json` rebuilds the
very same view, so a bot behind the protocol knows exactly what an in-process
bot knows.  The reader checks what it reads (cards in the pack, no card in two
places, seats and sizes that fit the variant) and raises :class:`ProtocolError`
naming the field.

>>> from bummerl.game import Game
>>> from bummerl.table_game import TableGame
>>> view = Game.deal("schnapsen", seed=1).view(0)
>>> view_from_json(view_to_json(view)) == view
True
>>> table = TableGame.deal("dreierschnapsen", seed=2, dealer=0)
>>> _ = table.apply("cut")
>>> data = view_to_json(table.view(1))
>>> data["variant"]["players"], data["phase"], data["hand"], data["legal"]
(3, 'trump', ['Js', 'Tc', 'Qc'], ['trump:c', 'trump:s', 'turn'])
>>> view_from_json(data) == table.view(1)
True

This module reads views only, never a game: nothing hidden can get in.  It
must not import the bots, the protocol or the server.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeAlias, cast

from bummerl.actions import Action
from bummerl.cards import Card, Rank, Suit, deck
from bummerl.errors import BummerlError
from bummerl.rules.result import Result
from bummerl.rules.tricks import TableTrick, Trick
from bummerl.variants import EndReason, GameResult, TableVariant, TwoPlayerVariant, Variant, find_variant
from bummerl.variants.bauernschnapsen import Contract, Phase, TableEndReason, TableResult
from bummerl.view import MatchContext, PlayerView, TableView, View

__all__ = [
    "AnyResult",
    "AnyView",
    "ProtocolError",
    "match_from_json",
    "match_to_json",
    "result_from_json",
    "result_to_json",
    "table_view_from_json",
    "trick_seats",
    "variant_from_json",
    "variant_to_json",
    "variant_traits",
    "view_from_json",
    "view_to_json",
]

AnyView: TypeAlias = PlayerView | TableView
AnyResult: TypeAlias = GameResult | TableResult


class ProtocolError(BummerlError):
    """JSON that breaks the protocol: not JSON, a wrong or missing field, or a view that
    does not fit its variant."""


# ==================================================================== helpers
def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _sorted_codes(cards: Iterable[Card]) -> list[str]:
    # Sorted by the card index so the same knowledge always gives the same line.
    return [c.code for c in sorted(cards, key=lambda c: c.index)]


def _seat(value: Any, field: str, players: int = 2) -> int:
    if isinstance(value, bool) or value not in range(players):
        if players == 2:  # the wording only: "seat 0 or 1" reads better than "a seat 0..1"
            raise ProtocolError(f"{field} must be seat 0 or 1, not {value!r}")
        raise ProtocolError(f"{field} must be a seat 0..{players - 1}, not {value!r}")
    return int(value)


def _optional_seat(value: Any, field: str, players: int) -> int | None:
    return None if value is None else _seat(value, field, players)


def _int(value: Any, field: str, low: int = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        bounds = f"{low}..{high}" if high is not None else f"of at least {low}"
        raise ProtocolError(f"{field} must be an integer {bounds}, not {value!r}")
    return value


def _int_pair(value: Any, field: str) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value)
    ):
        raise ProtocolError(f"{field} must be a list of two non-negative integers, not {value!r}")
    return (value[0], value[1])


def _ints(value: Any, field: str, count: int, high: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != count:
        raise ProtocolError(f"{field} must be a list of {count} integers, not {value!r}")
    return tuple(_int(x, f"{field}[{i}]", 0, high) for i, x in enumerate(value))


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise ProtocolError(f"{field} must be true or false, not {value!r}")
    return value


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise ProtocolError(f"{field} must be a list, not {value!r}")
    return value


def _object(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ProtocolError(f"{field} must be an object, not {value!r}")
    return value


def _suit(value: Any, field: str) -> Suit:
    try:
        return Suit.parse(value) if isinstance(value, str) else Suit.parse("?")
    except ValueError:
        raise ProtocolError(f"{field} must be a suit letter h, d, c or s, not {value!r}") from None


def _action(value: Any, field: str) -> Action:
    if not isinstance(value, str):
        raise ProtocolError(f"{field} must be an action token, not {value!r}")
    try:
        return Action.parse(value)
    except BummerlError as exc:
        raise ProtocolError(f"{field}: {exc}") from None


def _require(data: Mapping[str, Any], keys: Sequence[str]) -> None:
    missing = [k for k in keys if k not in data]
    if missing:
        raise ProtocolError(f"view lacks {', '.join(missing)}")


class _CardReader:
    """Parses card codes of one view, checking pack membership and uniqueness."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.pack = frozenset(deck(variant.deck_size))

    def card(self, value: Any, field: str) -> Card:
        if not isinstance(value, str):
            raise ProtocolError(f"{field} must be a card code like 'Ah', not {value!r}")
        try:
            card = Card.parse(value)
        except ValueError as exc:
            raise ProtocolError(f"{field}: {exc}") from None
        if card not in self.pack:
            raise ProtocolError(
                f"{field}: {card.code} is not in the {self.variant.deck_size}-card pack of {self.variant.title}"
            )
        return card

    def optional_card(self, value: Any, field: str) -> Card | None:
        return None if value is None else self.card(value, field)

    def cards(self, value: Any, field: str) -> list[Card]:
        if not isinstance(value, list):
            raise ProtocolError(f"{field} must be a list of card codes, not {value!r}")
        cards = [self.card(v, f"{field}[{i}]") for i, v in enumerate(value)]
        if len(set(cards)) != len(cards):
            raise ProtocolError(f"{field} names a card twice: {value!r}")
        return cards


def _each_card_once(places: Sequence[tuple[str, Iterable[Card]]]) -> None:
    seen: dict[Card, str] = {}
    for where, cards in places:
        for c in cards:
            if c in seen:
                raise ProtocolError(f"view: {c.code} is both in {seen[c]} and in {where}")
            seen[c] = where


# =================================================================== variants
def variant_to_json(variant: Variant) -> dict[str, Any]:
    """The variant as the protocol names it: name, players, non-default options, pack and hand size.

    A table variant adds its talon and its contracts in bidding order, lowest first.

    >>> from bummerl.variants import find_table_variant, find_variant
    >>> data = variant_to_json(find_variant("66"))
    >>> data["name"], data["players"], data["deck_size"], data["hand_size"], data["traits"]["undeclared_end"]
    ('sechsundsechzig', 2, 24, 6, 'sixty_six')
    >>> data = variant_to_json(find_table_variant("dreier", may_skip_talon=True))
    >>> data["players"], data["options"], data["talon_size"], data["contracts"][0]
    (3, {'may_skip_talon': True}, 2, {'name': 'normal', 'title': 'Normales Spiel', 'points': 1, 'goal': 'sixty_six', \
'trump': True, 'lead': 'vorhand', 'partner_plays': True, 'marriages': 'all', 'order': 'ATKQJ'})
    """
    data: dict[str, Any] = {
        "name": variant.name,
        "players": variant.players,
        "options": variant.options(),
        "deck_size": variant.deck_size,
        "hand_size": variant.hand_size,
        "traits": variant_traits(variant),
    }
    if data["players"] > 2:
        table = cast(TableVariant, variant)
        data["talon_size"] = table.talon_size
        data["contracts"] = [_contract_to_json(c, table.deck_size) for c in table.contracts]
    return data


def variant_traits(variant: Variant) -> dict[str, Any]:
    """What a front end needs to know of a variant's rules to show it, so that it never tests a variant's name.

    ``undeclared_end``: who wins a game nobody declared (``"last_trick"``: the last trick, Schnapsen;
    ``"sixty_six"``: the one who reached 66, Sechsundsechzig and Schnorps; ``None`` at a table game).
    ``match_kind``: what a match is played for (``"bummerl"``: 7 game points; ``"marken"``: Schnorps's Marken,
    where the loser pays; ``"points"``: the table games' race to a target). ``terms``: whose words the variant
    uses for closing and going out (``"schnorps"``: Decken and Weglegen; ``"schnapsen"``: Zudrehen and Genug).
    ``seats`` and ``teams``: the seats, and the fixed partnerships (``None`` where every seat plays alone).

    >>> from bummerl.variants import find_variant
    >>> variant_traits(find_variant("schnorps"))["match_kind"], variant_traits(find_variant("bauern"))["teams"]
    ('marken', [[0, 2], [1, 3]])
    """
    return {
        "seats": variant.players,
        "undeclared_end": variant.undeclared_end_rule,
        "match_kind": variant.match_unit,
        "terms": "schnorps" if variant.match_unit == "marken" else "schnapsen",
        "teams": [list(team) for team in variant.teams] if variant.teams else None,
    }


def _contract_to_json(contract: Contract, deck_size: int) -> dict[str, Any]:
    ranks = sorted({c.rank for c in deck(deck_size)}, reverse=True)
    if contract.order is not None:
        order = contract.order
        ranks.sort(key=lambda r: order[r], reverse=True)
    return {
        "name": contract.name,
        "title": contract.title,
        "points": contract.points,
        "goal": contract.goal.value,
        "trump": contract.trump,
        "lead": contract.lead,
        "partner_plays": contract.partner_plays,
        "marriages": contract.marriages,
        # Strongest first: "ATKQJ" (the natural order), "TKQJA" (Zehnerloch), ...
        "order": "".join(Rank(r).letter for r in ranks),
    }


def variant_from_json(data: Any) -> Variant:
    """The variant named by :func:`variant_to_json`'s object (sizes, players and contracts are checked)."""
    if not isinstance(data, Mapping):
        raise ProtocolError(f"variant must be an object, not {data!r}")
    name = data.get("name")
    options = data.get("options", {})
    if not isinstance(name, str):
        raise ProtocolError(f"variant.name must be a string, not {name!r}")
    if not isinstance(options, Mapping):
        raise ProtocolError(f"variant.options must be an object, not {options!r}")
    try:
        variant = find_variant(name, **dict(options))
    except BummerlError as exc:
        raise ProtocolError(f"variant: {exc}") from None
    actual: dict[str, Any] = {
        "players": variant.players,
        "deck_size": variant.deck_size,
        "hand_size": variant.hand_size,
    }
    contracts: list[str] = []
    if actual["players"] > 2:
        table = cast(TableVariant, variant)
        actual["talon_size"] = table.talon_size
        contracts = [c.name for c in table.contracts]
    for key, value in actual.items():
        if key in data and data[key] != value:
            raise ProtocolError(f"variant.{key} is {data[key]!r}, but {variant.title} has {value}")
    if "contracts" in data:
        names = [c.get("name") if isinstance(c, Mapping) else c for c in _list(data["contracts"], "variant.contracts")]
        if names != contracts:
            raise ProtocolError(f"variant.contracts are {names!r}, but {variant.title} has {contracts!r}")
    return variant


# ==================================================================== results
def result_to_json(result: Result, players: int = 2) -> dict[str, Any]:
    """A game result as a JSON object; ``players`` is the number of seats of its game.

    A two-player result names its ``winner``; a table game's result names its
    ``winners`` and the points of every seat.

    >>> result_to_json(GameResult(0, 2, EndReason.DECLARED, (70, 20)))
    {'winner': 0, 'points': 2, 'reason': 'declared', 'augen': [70, 20], 'unit': 'game points'}
    >>> result_to_json(TableResult("gang", 1, (1,), 6, TableEndReason.CONTRACT_WON, (120, 0)), players=3)
    {'contract': 'gang', 'declarer': 1, 'winners': [1], 'points': 6, 'points_by_seat': [0, 6, 0], \
'reason': 'contract_won', 'augen': [120, 0], 'multiplier': 1}
    """
    return result.to_json(players)


def result_from_json(data: Any, players: int = 2) -> AnyResult:
    """The inverse of :func:`result_to_json` for a game of ``players`` seats.

    >>> result_from_json({"winner": 1, "points": 3, "reason": "last_trick", "augen": [40, 80]}).winner
    1
    >>> result = result_from_json({"contract": "normal", "declarer": 0, "winners": [0, 2], "points": 2,
    ...                            "reason": "declared", "augen": [66, 30], "multiplier": 2}, players=4)
    >>> result.winners, result.multiplier
    ((0, 2), 2)
    """
    if not isinstance(data, Mapping):
        raise ProtocolError(f"result must be an object, not {data!r}")
    points = data.get("points")
    if not isinstance(points, int) or isinstance(points, bool) or points < 0:
        raise ProtocolError(f"result.points must be a non-negative integer, not {points!r}")
    augen = _int_pair(data.get("augen"), "result.augen")
    if players > 2:
        return _table_result_from_json(data, points, augen, players)
    winner = data.get("winner")
    if winner is not None:
        winner = _seat(winner, "result.winner")
    try:
        reason = EndReason(data.get("reason"))
    except ValueError:
        known = ", ".join(r.value for r in EndReason)
        raise ProtocolError(f"result.reason {data.get('reason')!r} is not one of: {known}") from None
    unit = data.get("unit", "game points")
    if not isinstance(unit, str):
        raise ProtocolError(f"result.unit must be a string, not {unit!r}")
    return GameResult(winner, points, reason, augen, unit)


def _table_result_from_json(data: Mapping[str, Any], points: int, augen: tuple[int, int], players: int) -> TableResult:
    contract = data.get("contract")
    if not isinstance(contract, str):
        raise ProtocolError(f"result.contract must be a string, not {contract!r}")
    winners = tuple(
        _seat(w, f"result.winners[{i}]", players) for i, w in enumerate(_list(data.get("winners"), "result.winners"))
    )
    try:
        reason = TableEndReason(data.get("reason"))
    except ValueError:
        known = ", ".join(r.value for r in TableEndReason)
        raise ProtocolError(f"result.reason {data.get('reason')!r} is not one of: {known}") from None
    multiplier = data.get("multiplier", 1)
    if multiplier not in (1, 2, 4, 8) or isinstance(multiplier, bool):
        raise ProtocolError(f"result.multiplier must be 1, 2, 4 or 8, not {multiplier!r}")
    declarer = _optional_seat(data.get("declarer"), "result.declarer", players)
    return TableResult(contract, declarer, winners, points, reason, augen, multiplier)


# ====================================================================== views
def view_to_json(view: View) -> dict[str, Any]:
    """Serialise what the player of ``view`` knows (the schema of docs/protocol.md).

    Everything comes from the view, so nothing hidden can get in.

    >>> from bummerl.game import Game
    >>> data = view_to_json(Game.deal("schnapsen", seed=1).view(0))
    >>> data["seat"], len(data["hand"]), data["talon_size"], data["augen"], data["opponent_known"]
    (0, 5, 9, [0, 0], [])
    >>> view_from_json(data) == Game.deal("schnapsen", seed=1).view(0)
    True
    """
    # The variant says which kind of view this is (no test of the view's type): each family's view has its own
    # parts (the talon, or the bidding), so its JSON is written by its own function.
    if view.variant.players == 2:
        return _player_view_to_json(cast(PlayerView, view))
    return _table_view_to_json(cast(TableView, view))


def view_from_json(data: Any) -> AnyView:
    """Rebuild the view of :func:`view_to_json`'s object: a :class:`~bummerl.view.PlayerView`
    or, when its variant is a table game, a :class:`~bummerl.view.TableView`.

    Raises :class:`ProtocolError` naming the field when the object is malformed
    or does not fit its variant (a card outside the pack, a card in two places,
    more cards than the variant deals, a seat that does not exist).
    """
    data = _object(data, "view")
    _require(data, ["variant"])
    variant = variant_from_json(data["variant"])
    if variant.players == 2:  # the family's own parts, as in view_to_json
        return _player_view_from_json(data, cast(TwoPlayerVariant, variant))
    return _table_view_from_json(data, cast(TableVariant, variant))


def table_view_from_json(data: Any) -> TableView:
    """:func:`view_from_json` for a table game's view; a two-player view is an error."""
    view = view_from_json(data)
    if view.variant.players == 2:  # the one check of a caller that plays only table games
        raise ProtocolError(f"expected the view of a table game, not of {view.variant.title}")
    return cast(TableView, view)


# ------------------------------------------------------------ two-player views
def _player_view_to_json(view: PlayerView) -> dict[str, Any]:
    out: dict[str, Any] = {
        "variant": variant_to_json(view.variant),
        "seat": view.player,
        "dealer": view.dealer,
        "to_move": view.to_move,
        "hand": [c.code for c in view.hand],
        "trump": view.trump.letter,
        "trump_card": view.trump_card.code if view.trump_card is not None else None,
        "talon_size": view.talon_size,
        "closed_by": view.closed_by,
        "closed_at_trick": view.closed_at_trick,
        "lead": view.lead.code if view.lead is not None else None,
        "leader": view.leader,
        "tricks": [
            {"leader": t.leader, "lead": t.lead.code, "follow": t.follow.code, "winner": t.winner} for t in view.tricks
        ],
        "played": _sorted_codes(view.played),
        "marriages": [{"seat": p, "suit": s.letter} for p, s in view.marriages],
        "tricks_won": list(view.tricks_won),
        "augen": list(view.augen) if view.augen is not None else None,
        "opponent_known": _sorted_codes(view.opponent_known),
        "opponent_hand_size": view.opponent_hand_size,
        "first_lead_done": view.first_lead_done,
        "result": result_to_json(view.result) if view.result is not None else None,
    }
    if view.match is not None:
        # Optional (docs/protocol.md): absent for a single game, so older hosts' and bots' lines are unchanged.
        out["match"] = match_to_json(view.match)
    return out


def match_to_json(match: MatchContext) -> dict[str, Any]:
    """The ``match`` object of a two-player view (docs/protocol.md, The view).

    >>> match_to_json(MatchContext("bummerl", 7, (2, 6), True, 1))
    {'kind': 'bummerl', 'target': 7, 'needed': [2, 6], 'schneider': True, 'multiplier': 1}
    """
    return {
        "kind": match.kind,
        "target": match.target,
        "needed": list(match.needed),
        "schneider": match.schneider,
        "multiplier": match.multiplier,
    }


def match_from_json(data: Any) -> MatchContext:
    """Read the ``match`` object of a view; :class:`ProtocolError` names what is wrong.

    >>> match_from_json({"kind": "marken", "target": 7, "needed": [7, 3], "schneider": False, "multiplier": 2})
    MatchContext(kind='marken', target=7, needed=(7, 3), schneider=False, multiplier=2)
    >>> match_from_json({"kind": "bummerl", "target": 7, "needed": [0, 3], "schneider": True, "multiplier": 1})
    Traceback (most recent call last):
    ...
    bummerl.view_json.ProtocolError: view.match: needed must be between 1 and the target 7 for each seat, not (0, 3)
    """
    data = _object(data, "view.match")
    _require(data, ["kind", "target", "needed"])
    kind = data["kind"]
    if kind not in MatchContext.KINDS:
        raise ProtocolError(f"view.match.kind must be 'bummerl' or 'marken', not {_clip(repr(kind))}")
    target = _int(data["target"], "view.match.target", 1, 10_000)
    needed = _int_pair(data["needed"], "view.match.needed")
    schneider = _bool(data.get("schneider", kind == "bummerl"), "view.match.schneider")
    multiplier = _int(data.get("multiplier", 1), "view.match.multiplier", 1, 1 << 20)
    try:
        return MatchContext(kind, target, needed, schneider, multiplier)
    except ValueError as exc:
        raise ProtocolError(f"view.match: {exc}") from None


_PLAYER_VIEW_FIELDS = (
    *("variant", "seat", "dealer", "to_move", "hand", "trump", "trump_card", "talon_size", "closed_by"),
    *("closed_at_trick", "lead", "leader", "tricks", "played", "marriages", "tricks_won", "augen"),
    *("opponent_known", "opponent_hand_size", "first_lead_done"),
)


def _player_view_from_json(data: Mapping[str, Any], variant: TwoPlayerVariant) -> PlayerView:
    _require(data, _PLAYER_VIEW_FIELDS)
    read = _CardReader(variant)
    hand = read.cards(data["hand"], "view.hand")
    if len(hand) > variant.hand_size:
        raise ProtocolError(f"view.hand holds {len(hand)} cards; {variant.title} deals {variant.hand_size}")
    trump = _suit(data["trump"], "view.trump")
    trump_card = read.optional_card(data["trump_card"], "view.trump_card")
    if trump_card is not None and trump_card.suit != trump:
        raise ProtocolError(f"view.trump_card {trump_card.code} is not of the trump suit {trump.letter}")
    max_talon = variant.deck_size - 2 * variant.hand_size - 1
    talon_size = _int(data["talon_size"], "view.talon_size", 0, max_talon)
    closed_by = _optional_seat(data["closed_by"], "view.closed_by", 2)
    closed_at = data["closed_at_trick"]
    if closed_at is not None:
        closed_at = _int(closed_at, "view.closed_at_trick")
    if (closed_at is None) != (closed_by is None):
        raise ProtocolError("view.closed_at_trick and view.closed_by must both be null or both be set")
    lead = read.optional_card(data["lead"], "view.lead")
    tricks: list[Trick] = []
    for i, t in enumerate(_list(data["tricks"], "view.tricks")):
        field = f"view.tricks[{i}]"
        t = _object(t, field)
        tricks.append(
            Trick(
                (
                    _seat(t.get("leader"), field + ".leader"),
                    read.card(t.get("lead"), field + ".lead"),
                    read.card(t.get("follow"), field + ".follow"),
                    _seat(t.get("winner"), field + ".winner"),
                )
            )
        )
    played = read.cards(data["played"], "view.played")
    if lead is not None and lead not in played:
        raise ProtocolError(f"view.lead {lead.code} is missing from view.played")
    marriages = _marriages(data["marriages"], 2)
    opponent_known = read.cards(data["opponent_known"], "view.opponent_known")
    places = [("hand", hand), ("played", played), ("opponent_known", opponent_known)]
    if trump_card is not None:
        places.append(("trump_card", [trump_card]))
    _each_card_once(places)
    opp_size = _int(data["opponent_hand_size"], "view.opponent_hand_size", 0, variant.hand_size)
    if len(opponent_known) > opp_size:
        raise ProtocolError(f"view.opponent_known names {len(opponent_known)} cards of a hand of {opp_size}")
    augen = _int_pair(data["augen"], "view.augen") if data["augen"] is not None else None
    result = data.get("result")
    view = PlayerView(
        variant=variant,
        player=_seat(data["seat"], "view.seat"),
        dealer=_seat(data["dealer"], "view.dealer"),
        to_move=_seat(data["to_move"], "view.to_move"),
        hand=tuple(hand),
        trump=trump,
        trump_card=trump_card,
        talon_size=talon_size,
        closed_by=closed_by,
        closed_at_trick=closed_at,
        lead=lead,
        leader=_seat(data["leader"], "view.leader"),
        tricks=tuple(tricks),
        played=frozenset(played),
        marriages=marriages,
        tricks_won=_int_pair(data["tricks_won"], "view.tricks_won"),
        augen=augen,
        opponent_known=frozenset(opponent_known),
        opponent_hand_size=opp_size,
        first_lead_done=_bool(data["first_lead_done"], "view.first_lead_done"),
        result=cast(GameResult, result_from_json(result)) if result is not None else None,
        legal=(),
        match=match_from_json(data["match"]) if data.get("match") is not None else None,
    )
    # Not sent: worked out as the game works it out, so the view equals the one the game made.
    return view._replace(legal=view.compute_legal())


def _marriages(value: Any, players: int) -> tuple[tuple[int, Suit], ...]:
    marriages: list[tuple[int, Suit]] = []
    for i, m in enumerate(_list(value, "view.marriages")):
        field = f"view.marriages[{i}]"
        if not isinstance(m, Mapping) or not isinstance(m.get("suit"), str):
            raise ProtocolError(f"{field} must be an object with seat and suit, not {m!r}")
        try:
            suit = Suit.parse(m["suit"])
        except ValueError as exc:
            raise ProtocolError(f"{field}.suit: {exc}") from None
        marriages.append((_seat(m.get("seat"), field + ".seat", players), suit))
    return tuple(marriages)


# ------------------------------------------------------------------ table views
def trick_seats(leader: int, count: int, active: Sequence[int], players: int) -> list[int]:
    """The seats that played the cards of a trick, in play order (sitting-out seats skipped).

    >>> trick_seats(3, 3, (0, 1, 3), 4)
    [3, 0, 1]
    """
    seats = [leader]
    s = leader
    while len(seats) < count:
        s = (s + 1) % players
        if s in active:
            seats.append(s)
    return seats


def _table_view_to_json(view: TableView) -> dict[str, Any]:
    n = view.variant.players
    contract = view.variant.contract(view.contract) if view.contract is not None else None
    return {
        "variant": variant_to_json(view.variant),
        "players": n,
        "seat": view.player,
        "partner": view.partner,
        "dealer": view.dealer,
        "vorhand": view.vorhand,
        "phase": view.phase.value,
        "to_move": view.to_move,
        "hand": [c.code for c in view.hand],
        "knocked": view.knocked,
        "trump": view.trump.letter if view.trump is not None else None,
        # The trump of the card play: none in contracts without trump (Bettler, Gang, ...).
        "play_trump": (view.trump.letter if view.trump is not None and (contract is None or contract.trump) else None),
        "turned_card": view.turned_card.code if view.turned_card is not None else None,
        "bids": [{"seat": s, "action": a.token} for s, a in view.bids],
        "contract": view.contract,
        "declarer": view.declarer,
        "doubling": view.doubling,
        "doubles": [{"seat": s, "level": level} for s, level in view.doubles],
        "active": list(view.active),
        "side": list(view.side),
        "discarded": [c.code for c in view.discarded],
        "talon_size": view.talon_size,
        "trick": [{"seat": s, "card": c.code} for s, c in view.trick],
        "tricks": [
            {
                "leader": t.leader,
                "winner": t.winner,
                "cards": [
                    {"seat": s, "card": c.code}
                    for s, c in zip(trick_seats(t.leader, len(t.cards), view.active, n), t.cards, strict=True)
                ],
            }
            for t in view.tricks
        ],
        "tricks_won": list(view.tricks_won),
        "marriages": [{"seat": s, "suit": suit.letter} for s, suit in view.marriages],
        "augen": list(view.augen),
        "hand_sizes": list(view.hand_sizes),
        "known": [_sorted_codes(k) for k in view.known],
        "result": result_to_json(view.result, n) if view.result is not None else None,
        "legal": [a.token for a in view.legal],
    }


_TABLE_VIEW_FIELDS = (
    *("seat", "dealer", "vorhand", "phase", "to_move", "hand", "knocked", "trump", "turned_card", "bids"),
    *("contract", "declarer", "doubling", "doubles", "active", "side", "discarded", "talon_size", "trick"),
    *("tricks", "tricks_won", "marriages", "augen", "hand_sizes", "known", "result", "legal"),
)


def _table_view_from_json(data: Mapping[str, Any], variant: TableVariant) -> TableView:
    _require(data, _TABLE_VIEW_FIELDS)
    n = variant.players
    read = _CardReader(variant)
    seat = _seat(data["seat"], "view.seat", n)
    try:
        phase = Phase(data["phase"])
    except ValueError:
        phases = ", ".join(p.value for p in Phase)
        raise ProtocolError(f"view.phase {data['phase']!r} is not one of: {phases}") from None
    hand = read.cards(data["hand"], "view.hand")
    most = variant.hand_size + variant.talon_size
    if len(hand) > most:
        raise ProtocolError(f"view.hand holds {len(hand)} cards; {variant.title} has at most {most} in a hand")
    knocked = None if data["knocked"] is None else _bool(data["knocked"], "view.knocked")
    trump = None if data["trump"] is None else _suit(data["trump"], "view.trump")
    contract = data["contract"]
    if contract is not None:
        if not isinstance(contract, str):
            raise ProtocolError(f"view.contract must be a contract name or null, not {contract!r}")
        try:
            variant.contract(contract)
        except BummerlError as exc:
            raise ProtocolError(f"view.contract: {exc}") from None
    bids = []
    for i, b in enumerate(_list(data["bids"], "view.bids")):
        b = _object(b, f"view.bids[{i}]")
        bids.append(
            (_seat(b.get("seat"), f"view.bids[{i}].seat", n), _action(b.get("action"), f"view.bids[{i}].action"))
        )
    doubles = []
    for i, d in enumerate(_list(data["doubles"], "view.doubles")):
        d = _object(d, f"view.doubles[{i}]")
        doubles.append(
            (_seat(d.get("seat"), f"view.doubles[{i}].seat", n), _int(d.get("level"), f"view.doubles[{i}].level", 1, 3))
        )
    active = tuple(_seat(s, f"view.active[{i}]", n) for i, s in enumerate(_list(data["active"], "view.active")))
    discarded = read.cards(data["discarded"], "view.discarded")
    trick = []
    for i, entry in enumerate(_list(data["trick"], "view.trick")):
        entry = _object(entry, f"view.trick[{i}]")
        trick.append(
            (
                _seat(entry.get("seat"), f"view.trick[{i}].seat", n),
                read.card(entry.get("card"), f"view.trick[{i}].card"),
            )
        )
    tricks = []
    for i, t in enumerate(_list(data["tricks"], "view.tricks")):
        field = f"view.tricks[{i}]"
        t = _object(t, field)
        cards = tuple(
            read.card(_object(c, f"{field}.cards[{j}]").get("card"), f"{field}.cards[{j}].card")
            for j, c in enumerate(_list(t.get("cards"), f"{field}.cards"))
        )
        tricks.append(
            TableTrick(
                (_seat(t.get("leader"), field + ".leader", n), cards, _seat(t.get("winner"), field + ".winner", n))
            )
        )
    played = [c for t in tricks for c in t.cards] + [c for _, c in trick]
    known_lists = _list(data["known"], "view.known")
    if len(known_lists) != n:
        raise ProtocolError(f"view.known must hold one list per seat ({n}), not {len(known_lists)}")
    known = [read.cards(k, f"view.known[{s}]") for s, k in enumerate(known_lists)]
    if known[seat]:
        raise ProtocolError(f"view.known[{seat}] must be empty: it is the player's own seat")
    _each_card_once(
        [("hand", hand), ("discarded", discarded), ("the tricks", played)]
        + [(f"known[{s}]", k) for s, k in enumerate(known)]
    )
    result = data["result"]
    return TableView(
        variant=variant,
        player=seat,
        dealer=_seat(data["dealer"], "view.dealer", n),
        vorhand=_seat(data["vorhand"], "view.vorhand", n),
        phase=phase,
        to_move=_seat(data["to_move"], "view.to_move", n),
        hand=tuple(hand),
        knocked=knocked,
        trump=trump,
        turned_card=read.optional_card(data["turned_card"], "view.turned_card"),
        bids=tuple(bids),
        contract=contract,
        declarer=_optional_seat(data["declarer"], "view.declarer", n),
        doubling=_int(data["doubling"], "view.doubling", 0, 3),
        doubles=tuple(doubles),
        active=active,
        side=_ints(data["side"], "view.side", n, 1),
        discarded=tuple(discarded),
        talon_size=_int(data["talon_size"], "view.talon_size", 0, variant.talon_size),
        trick=tuple(trick),
        tricks=tuple(tricks),
        tricks_won=_ints(data["tricks_won"], "view.tricks_won", n),
        marriages=_marriages(data["marriages"], n),
        augen=_int_pair(data["augen"], "view.augen"),
        hand_sizes=_ints(data["hand_sizes"], "view.hand_sizes", n, most),
        known=tuple(frozenset(k) for k in known),
        result=cast(TableResult, result_from_json(result, n)) if result is not None else None,
        legal=tuple(_action(a, f"view.legal[{i}]") for i, a in enumerate(_list(data["legal"], "view.legal"))),
    )
