"""The one-line position form of a two-player game, like chess FEN.

Ten fields separated by single spaces::

    variant dealer to_move trump hands talon closed lead won marriages

==========  ==================================================================
field       meaning
==========  ==================================================================
variant     name, then ``:opt=value,...`` for options that differ from the default
dealer      ``0`` or ``1``
to_move     ``0`` or ``1``
trump       the trump card while it lies under the talon (``Jh``), else the
            trump suit alone (``h``)
hands       ``hand0/hand1``; a card followed by ``!`` is known to the opponent
            (a shown marriage card, a trump card taken from the talon); ``-``
            for an empty hand
talon       the face-down talon in draw order (next card first), or ``-``
closed      ``-``, or ``closer:opponent_augen:opponent_had_trick`` (``0:23:1``)
lead        the card led to the current trick, or ``-`` (the leader is the
            player not to move)
won         ``won0/won1``: each player's trick cards, ``-`` for none
marriages   announced marriages in order as player digit plus suit letter
            (``0h1c``), or ``-``
==========  ==================================================================

Game points already won are not part of a position (it describes one game);
neither is the order of the finished tricks (like FEN, a position has no history).

Reading refuses, with :class:`~bummerl.errors.PositionError` naming the fact,
what no game can reach: a card missing or twice, hand sizes that do not fit the
talon, a closed talon with fewer face-down cards than closing needs (two, or one
with the option ``close_min_facedown=1``), a closed field the
trick piles contradict, a marriage whose cards the other player holds, a ``!``
on a card nobody was shown, a first trick not led by Vorhand.

>>> TwoPlayerPosition.parse("schnapsen 1 1 Th AdJdKcJhJc/TcJsKdAhKs KhQsQdTsTdAcQhAsQc - - -/- -")
Traceback (most recent call last):
...
bummerl.errors.PositionError: before the first trick Vorhand (seat 0) leads, not seat 1

>>> from bummerl.game import Game
>>> text = Game.deal("schnapsen", seed=3).position()
>>> text.split()[:4]
['schnapsen', '1', '0', 'Th']
>>> TwoPlayerPosition.parse(text).text() == text == Game.from_position(text).position()
True

:class:`TwoPlayerPosition` is the parse/format pair of the line, a value that knows no engine: the two-player
engine writes its state into one (:meth:`bummerl.two_player.TwoPlayerGame.position`) and sets itself up from
one (:meth:`~bummerl.two_player.TwoPlayerGame.read_position`).  This module must not import an engine.
"""

from __future__ import annotations

from typing import NamedTuple

from bummerl.cards import Card, Rank, Suit, card_order, deck, format_cards, marriage_value, parse_cards
from bummerl.errors import PositionError
from bummerl.rules.going_out import counted_augen
from bummerl.rules.options import format_variant, parse_variant
from bummerl.variants import TwoPlayerVariant

__all__ = ["TwoPlayerPosition"]


class TwoPlayerPosition(NamedTuple):
    """The state a position line holds (the lists are the engine's own form: the talon's next card last)."""

    variant: TwoPlayerVariant
    dealer: int
    to_move: int
    trump: Suit
    trump_card: Card | None
    hands: list[list[Card]]
    #: Cards of each hand the other player was shown.
    known: list[set[Card]]
    #: The face-down talon, the next card to draw last.
    talon: list[Card]
    #: ``(closer, opponent_augen, opponent_had_trick)`` once closed.
    closed: tuple[int, int, bool] | None
    lead: Card | None
    won: list[list[Card]]
    marriages: list[tuple[int, Suit]]

    @property
    def leader(self) -> int:
        """The seat that leads the current trick (the one not to move while a card is led)."""
        return 1 - self.to_move if self.lead is not None else self.to_move

    def text(self) -> str:
        """The one line (see the module docstring)."""
        v = self.variant
        trump = self.trump_card.code if self.trump_card is not None else self.trump.letter
        hands = "/".join(_hand(self.hands[p], self.known[p]) for p in (0, 1))
        talon = format_cards(reversed(self.talon)) or "-"
        closed = "-" if self.closed is None else f"{self.closed[0]}:{self.closed[1]}:{int(self.closed[2])}"
        lead = self.lead.code if self.lead is not None else "-"
        won = "/".join(format_cards(self.won[p]) or "-" for p in (0, 1))
        marriages = "".join(f"{p}{s.letter}" for p, s in self.marriages) or "-"
        head = format_variant(v.name, v.options())
        return " ".join((head, str(self.dealer), str(self.to_move), trump, hands, talon, closed, lead, won, marriages))

    @classmethod
    def parse(cls, text: str) -> TwoPlayerPosition:
        """Read a position line; raises :class:`PositionError` naming what is malformed or unreachable."""
        if not isinstance(text, str):
            raise PositionError(f"a position is one line of text, not {type(text).__name__}")
        fields = text.split()
        if len(fields) != 10:
            raise PositionError(f"a position has 10 fields, got {len(fields)}: {text!r}")
        try:
            return _parse(fields)
        except PositionError:
            raise
        except ValueError as exc:
            raise PositionError(f"malformed position {text!r}: {exc}") from None


def _parse(fields: list[str]) -> TwoPlayerPosition:
    vtext, dealer_t, to_move_t, trump_t, hands_t, talon_t, closed_t, lead_t, won_t, marr_t = fields
    name, options = parse_variant(vtext)
    variant = TwoPlayerVariant.find(name)
    variant = variant.with_options(**options)
    dealer, to_move = _seat(dealer_t, "dealer"), _seat(to_move_t, "to_move")
    if len(trump_t) == 1:
        trump, trump_card = Suit.parse(trump_t), None
    else:
        trump_card = Card.parse(trump_t)
        trump = trump_card.suit
    hand_parts = hands_t.split("/")
    if len(hand_parts) != 2:
        raise PositionError(f"hands field needs 'hand0/hand1', got {hands_t!r}")
    hands: list[list[Card]] = [[], []]
    known: list[set[Card]] = [set(), set()]
    for p, part in enumerate(hand_parts):
        if part == "-":
            continue
        for token in part.replace("!", "! ").split():
            if token == "!":
                raise PositionError(f"'!' marks the card before it as shown; none precedes it in {part!r}")
            shown = token.endswith("!")
            for card in parse_cards(token.rstrip("!")):
                hands[p].append(card)
            if shown:
                known[p].add(hands[p][-1])
    talon = [] if talon_t == "-" else list(reversed(parse_cards(talon_t)))
    lead = None if lead_t == "-" else Card.parse(lead_t)
    won_parts = won_t.split("/")
    if len(won_parts) != 2:
        raise PositionError(f"won field needs 'won0/won1', got {won_t!r}")
    won = [[] if w == "-" else list(parse_cards(w)) for w in won_parts]
    marriages: list[tuple[int, Suit]] = []
    if marr_t != "-":
        if len(marr_t) % 2:
            raise PositionError(f"marriages field needs player-suit pairs, got {marr_t!r}")
        for i in range(0, len(marr_t), 2):
            marriages.append((_seat(marr_t[i], "marriage player"), Suit.parse(marr_t[i + 1])))

    # --- consistency: the pack exactly once, sizes that a game can reach
    everything = hands[0] + hands[1] + talon + won[0] + won[1] + ([lead] if lead else [])
    if trump_card is not None:
        everything.append(trump_card)
    pack = set(deck(variant.deck_size))
    if len(everything) != len(pack) or set(everything) != pack:
        dup = sorted({c for c in everything if everything.count(c) > 1}, key=card_order)
        missing = sorted(pack - set(everything), key=card_order)
        raise PositionError(
            f"a {variant.title} position holds each of its {len(pack)} cards once"
            + (f"; twice: {format_cards(dup, ' ')}" if dup else "")
            + (f"; missing: {format_cards(missing, ' ')}" if missing else "")
        )
    if len(won[0]) % 2 or len(won[1]) % 2:
        raise PositionError("each trick pile holds an even number of cards")
    leader = 1 - to_move if lead is not None else to_move
    expected = len(hands[1 - leader]) - (1 if lead is not None else 0)
    if len(hands[leader]) != expected:
        raise PositionError(f"hand sizes {len(hands[0])}/{len(hands[1])} do not fit the lead")
    if not hands[to_move]:
        raise PositionError("the player to move has no cards: the game would be over")
    if len(hands[to_move]) > variant.hand_size:
        raise PositionError(f"{variant.title} hands hold at most {variant.hand_size} cards")
    if (trump_card is None) != (not talon):
        raise PositionError("the trump card lies under the talon exactly while face-down cards remain")
    if len({s for _, s in marriages}) != len(marriages):
        raise PositionError("a suit's marriage can be announced only once")
    closed = _closed(closed_t)
    _check_reachable(variant, dealer, to_move, trump, trump_card, hands, known, talon, lead, won, marriages, closed)

    return TwoPlayerPosition(
        variant, dealer, to_move, trump, trump_card, hands, known, talon, closed, lead, won, marriages
    )


def _closed(text: str) -> tuple[int, int, bool] | None:
    """The closed field: ``None`` or ``(closer, opponent_augen, opponent_had_trick)``."""
    if text == "-":
        return None
    parts = text.split(":")
    # isascii(): str.isdigit() also accepts other scripts' digits and superscripts.
    if len(parts) != 3 or parts[2] not in ("0", "1") or not (parts[1].isascii() and parts[1].isdigit()):
        raise PositionError(f"closed field needs 'closer:augen:had_trick', got {text!r}")
    if len(parts[1]) > 3:
        raise PositionError(f"closed field: {parts[1][:12]}... Augen are more than a game holds")
    return _seat(parts[0], "closer"), int(parts[1]), parts[2] == "1"


def _check_reachable(
    variant: TwoPlayerVariant,
    dealer: int,
    to_move: int,
    trump: Suit,
    trump_card: Card | None,
    hands: list[list[Card]],
    known: list[set[Card]],
    talon: list[Card],
    lead: Card | None,
    won: list[list[Card]],
    marriages: list[tuple[int, Suit]],
    closed: tuple[int, int, bool] | None,
) -> None:
    """Reject what no game can reach; the card counts are checked already.

    Facts of every deal used here: the talon starts odd (the pack minus two
    hands minus the trump card) and loses two cards a trick while open, so an
    open talon means full hands; closing needs two face-down cards (RULES.md;
    one with the option ``close_min_facedown=1``);
    a marriage leads one of its cards (seeds/000: "Besitzt ein Spieler König
    und Dame ... ausspielt"), the other stays shown; Augen never go down.
    """
    leader = 1 - to_move if lead is not None else to_move
    tricks = [len(won[0]) // 2, len(won[1]) // 2]
    start_talon = variant.deck_size - 2 * variant.hand_size - 1
    if talon and (len(talon) > start_talon or (start_talon - len(talon)) % 2):
        raise PositionError(
            f"a {variant.title} talon starts with {start_talon} cards and loses two a trick: {len(talon)} is impossible"
        )
    if talon and closed is None and len(hands[1 - leader]) != variant.hand_size:
        raise PositionError(f"while the talon is open both hands are refilled to {variant.hand_size} cards")
    if not any(tricks) and (leader != 1 - dealer):
        raise PositionError(f"before the first trick Vorhand (seat {1 - dealer}) leads, not seat {leader}")
    if closed is not None:
        closer, opp_augen, opp_had_trick = closed
        opp = 1 - closer
        if len(talon) < variant.close_min_facedown:
            need = "one" if variant.close_min_facedown == 1 else "two"
            raise PositionError(
                f"closed with {len(talon)} face-down card(s): closing needs {need} above the trump card"
                f" (close_min_facedown={variant.close_min_facedown})"
            )
        if opp_had_trick and not tricks[opp]:
            raise PositionError(f"closed field says seat {opp} had a trick at closing, but it has none")
        if opp_had_trick and len(talon) == start_talon:
            raise PositionError(f"closed field says seat {opp} had a trick, but the talon was closed before any trick")
        if not opp_had_trick and opp_augen:
            raise PositionError(f"closed field: seat {opp} had no trick at closing, so 0 Augen, not {opp_augen}")
        if opp_augen > _augen(opp, trump, won, marriages):
            raise PositionError(f"closed field: seat {opp} had {opp_augen} Augen at closing, more than now")
        if variant.close_needs_trick and not tricks[closer]:
            raise PositionError(f"{variant.title}: seat {closer} closed without a trick")
    played = set(won[0]) | set(won[1]) | ({lead} if lead is not None else set())
    for p, suit in marriages:
        if not variant.marriages:
            raise PositionError(f"{variant.title} is played without marriages")
        pair = (Card(suit, Rank.KING), Card(suit, Rank.OBER))
        if not all(c in played or c in hands[p] for c in pair) or not any(c in played for c in pair):
            raise PositionError(
                f"seat {p} announced the marriage in {suit.name.title()}: it led {pair[0].code} or"
                f" {pair[1].code} and holds or has played the other"
            )
        if any(c in hands[p] and c not in known[p] for c in pair):
            raise PositionError(f"seat {p}'s marriage card in hand is shown: mark it with '!'")
        if not tricks[p] and not variant.marriage_before_trick:
            raise PositionError(f"{variant.title}: seat {p} announced a marriage without a trick")
    # Once the talon is exhausted every card is known by elimination, marked or not.
    for p in (0, 1) if talon else ():
        shown = {c for s_p, s in marriages if s_p == p for c in (Card(s, Rank.KING), Card(s, Rank.OBER))}
        for card in known[p]:
            if card.suit != trump and card not in shown:
                raise PositionError(
                    f"{card.code}! in seat {p}'s hand: only marriage cards and trumps taken from the talon are shown"
                )
    if variant.auto_declare:
        for p in (0, 1):
            if tricks[p] and _augen(p, trump, won, marriages) >= variant.target:
                raise PositionError(f"with auto_declare seat {p}'s 66 would have ended the game")


def _augen(p: int, trump: Suit, won: list[list[Card]], marriages: list[tuple[int, Suit]]) -> int:
    """Counted Augen of seat ``p``: tricks, plus marriages once a trick is won."""
    marriage_augen = sum(marriage_value(s, trump) for q, s in marriages if q == p)
    return counted_augen(sum(c.augen for c in won[p]), marriage_augen, bool(won[p]))


def _hand(cards: list[Card], known: set[Card]) -> str:
    return "".join(c.code + ("!" if c in known else "") for c in cards) or "-"


def _seat(text: str, what: str) -> int:
    if text not in ("0", "1"):
        raise PositionError(f"{what} must be 0 or 1, got {text!r}")
    return int(text)
