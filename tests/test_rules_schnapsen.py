"""Schnapsen weich, the default variant: one test per rule, each citing its source.

Seat 1 deals unless a test says otherwise, so seat 0 is Vorhand.  Trump is
clubs (``c``) throughout.  Sources: ``seeds/000`` (Schnapsen and
Sechsundsechzig), ``seeds/003`` (the players' leaflet) and ``RULES.md``.

Note on talon sizes: after each trick two cards are drawn from nine face-down
cards, so an open talon always holds an odd number (9, 7, 5, 3, 1) of them.
"""

from __future__ import annotations

import pytest

from bummerl.actions import Action
from bummerl.cards import Card, Suit, deck, parse_cards
from bummerl.errors import Rule
from bummerl.game import Game
from bummerl.variants import EndReason
from helpers import apply_all, assert_refused, deal_game, position

# Vorhand holds the trump Unter and a Herz marriage; the dealer holds the Herz Ace.
VORHAND = "Jc Kh Qh As Ts"
DEALER = "Ah Th Ks Qs Js"
TRUMP = "Kc"


def opening() -> Game:
    """The opening deal of several tests; the talon draws Jh Ad Td Kd Qd Jd Ac Tc Qc."""
    return deal_game("schnapsen", VORHAND, DEALER, TRUMP)


def codes(cards: list[Card]) -> str:
    return " ".join(c.code for c in cards)


def strict_follow(lead: str, follower: str) -> Game:
    """Talon exhausted, seat 0 has led ``lead``; seat 1 holds ``follower`` (5 cards)."""
    lead_card = Card.parse(lead)
    hand1 = parse_cards(follower)
    rest = [c for c in deck(20) if c is not lead_card and c not in hand1]
    return position(
        "schnapsen", 1, "c", codes(rest[:4]), follower, lead=lead, won0=codes(rest[4:10]), won1=codes(rest[10:])
    )


def on_lead(won0: str, won1: str, to_move: int = 1, variant: str = "schnapsen") -> Game:
    """A game with these trick piles and ``to_move`` on lead; the other cards fill hands and talon."""
    used = set(parse_cards(won0 + " " + won1))
    rest = [c for c in deck(20) if c not in used]
    if len(rest) <= 10:
        half = len(rest) // 2
        return position(variant, to_move, "c", codes(rest[:half]), codes(rest[half:]), won0=won0, won1=won1)
    trump_card = next(c for c in reversed(rest) if c.suit is Suit.CLUBS)
    rest.remove(trump_card)
    return position(
        variant,
        to_move,
        trump_card.code,
        codes(rest[:5]),
        codes(rest[5:10]),
        talon=codes(rest[10:]),
        won0=won0,
        won1=won1,
    )


# ---------------------------------------------------------------- the deal


def test_deal_packets_and_trump_card() -> None:
    """seeds/000: "zuerst erhält Vorhand drei Karten, dann der Teiler, die siebente Karte wird
    aufgeschlagen, so dann erhält Vorhand zwei weitere Karten und zuletzt der Teiler"."""
    pack = deck(20)
    game = Game.from_deck("schnapsen", pack, dealer=1)
    assert game.hands[0] == [pack[0], pack[1], pack[2], pack[7], pack[8]]
    assert game.hands[1] == [pack[3], pack[4], pack[5], pack[9], pack[10]]
    assert game.trump_card is pack[6]
    assert game.trump is pack[6].suit
    # "diese zählt als unterste Karte des Talons": the rest is drawn from the top.
    assert game.talon_size == 9
    assert game.talon[-1] is pack[11]


@pytest.mark.parametrize("dealer", [0, 1])
def test_vorhand_leads_first(dealer: int) -> None:
    """seeds/000: "Vorhand spielt zum ersten Stich aus." (Vorhand is the dealer's opponent)."""
    game = Game.from_deck("schnapsen", deck(20), dealer=dealer)
    assert game.vorhand == 1 - dealer
    assert game.to_move == 1 - dealer
    assert game.hands[1 - dealer][:3] == list(deck(20)[:3])


# ----------------------------------------------------------- playing tricks


def test_no_obligation_to_follow_while_talon_open() -> None:
    """seeds/000: "Zu Beginn des Spieles herrscht weder Farb- noch Stichzwang: Der Teiler kann ...
    auch eine beliebige Karte abwerfen"."""
    game = opening()
    game.apply("As")
    assert sorted(a.token for a in game.legal_actions()) == sorted(DEALER.split())


@pytest.mark.parametrize(
    ("lead", "follow", "winner"),
    [
        ("As", "Ks", 0),  # same suit, lower: the leader keeps it
        ("Ts", "Ks", 0),  # the Ten beats the King
        ("Ts", "Qs", 0),
        ("Ts", "Js", 0),
        ("Kh", "Ah", 1),  # "mit einer höheren Karte derselben Farbe ... stechen"
        ("Qh", "Th", 1),
        ("As", "Ah", 0),  # another suit, not trump: thrown off
    ],
)
def test_trick_taken_by_higher_card_of_led_suit(lead: str, follow: str, winner: int) -> None:
    """seeds/000: "Der Teiler kann entweder mit einer höheren Karte derselben Farbe oder einem Atout
    stechen – in diesem Fall gewinnt er den Stich"; RULES.md: ranks "A, 10, K, O/D, U/B"."""
    game = opening()
    apply_all(game, f"{lead} {follow}")
    assert game.tricks[-1].winner == winner
    assert game.to_move == winner


def test_trump_takes_the_trick() -> None:
    """seeds/000: "... oder einem Atout stechen – in diesem Fall gewinnt er den Stich"."""
    game = deal_game("schnapsen", "As Ts Ks Qs Js", "Jc Ah Th Kh Qh", "Kc")
    apply_all(game, "As Jc")
    assert game.tricks[-1].winner == 1
    assert game.augen(1) == 13


def test_winner_draws_first_then_loser_and_leads() -> None:
    """seeds/000: "Der Spieler, der den Stich gewonnen hat, nimmt die oberste Karte des Talons,
    sein Gegner die folgende ... spielt der Gewinner des Stichs zum nächsten Stich aus"."""
    game = opening()
    apply_all(game, "Kh Ah")  # the dealer (seat 1) wins
    assert game.hands[1][-1] == Card.parse("Jh")
    assert game.hands[0][-1] == Card.parse("Ad")
    assert game.to_move == 1 and game.talon_size == 7
    assert len(game.hands[0]) == len(game.hands[1]) == 5


def test_last_face_down_card_to_winner_trump_card_to_loser() -> None:
    """RULES.md: "The last face-down card goes to the trick winner, the face-up trump card to the
    loser"; seeds/000: the trump card "zählt als unterste Karte des Talons"."""
    game = position(
        "schnapsen",
        0,
        "Jc",
        "Ah Th Kh Qh Jh",
        "Ad Td Kd Qd Jd",
        talon="Qc",
        won0="Ac Tc As Ts",
        won1="Kc Ks Qs Js",
    )
    apply_all(game, "Ah Jd")
    assert game.hands[0][-1] == Card.parse("Qc")
    assert game.hands[1][-1] == Card.parse("Jc")
    assert game.trump_card is None and game.talon_size == 0
    # Both saw the trump card: the winner knows where it went.
    assert Card.parse("Jc") in game.view(0).opponent_known
    assert game.strict


# ------------------------------------------------------ Farbzwang, Stichzwang


def test_stichzwang_must_beat_with_higher_card_of_led_suit() -> None:
    """seeds/000: once the talon is exhausted a player must "mit einer höheren Karte der
    angespielten Farbe stechen"."""
    game = strict_follow("Kh", "Ah Jh Ac Ad As")
    assert [a.token for a in game.legal_actions()] == ["Ah"]
    assert_refused(game, "Jh", Rule.STICHZWANG)


def test_farbzwang_before_stichzwang() -> None:
    """seeds/000: "Farbzwang geht immer vor Stichzwang: Es ist nicht erlaubt mit einer Trumpfkarte
    zu stechen, wenn man die angespielte Farbe bedienen könnte"."""
    game = strict_follow("Kh", "Qh Jh Ac Ad As")
    assert sorted(a.token for a in game.legal_actions()) == ["Jh", "Qh"]
    # A trump would win the trick, but a lower Herz must be given.
    assert_refused(game, "Ac", Rule.FARBZWANG)
    assert_refused(game, "Ad", Rule.FARBZWANG)
    game.apply("Jh")
    assert game.tricks[-1].winner == 0


def test_trumpfzwang_when_void_in_led_suit() -> None:
    """seeds/000: "Ist das nicht möglich, so muss er mit einer Trumpfkarte stechen"."""
    game = strict_follow("Kh", "Ac Qc Ad As Ks")
    assert sorted(a.token for a in game.legal_actions()) == ["Ac", "Qc"]
    assert_refused(game, "Ad", Rule.TRUMPFZWANG)


def test_any_card_when_void_in_led_suit_and_trumps() -> None:
    """seeds/000: "... und falls auch das nicht geschehen kann, eine beliebige andere Karte abwerfen"."""
    game = strict_follow("Kh", "Ad Td As Ts Ks")
    assert sorted(a.token for a in game.legal_actions()) == sorted(["Ad", "Td", "As", "Ts", "Ks"])


def test_trump_lead_must_be_beaten_with_a_higher_trump() -> None:
    """seeds/000: "mit einer höheren Karte der angespielten Farbe stechen" also when trump is led."""
    game = strict_follow("Kc", "Ac Jc Ah Ad As")
    assert [a.token for a in game.legal_actions()] == ["Ac"]
    assert_refused(game, "Jc", Rule.STICHZWANG)
    assert_refused(game, "Ah", Rule.FARBZWANG)


def test_strict_rules_after_closing() -> None:
    """seeds/000: after closing "gilt wieder Farb- und Stichzwang, genau so, als ob der Talon
    aufgebraucht wäre"."""
    game = position(
        "schnapsen",
        0,
        "Jc",
        "Kh Qh Ac Tc Kc",
        "Ah Jh Qc As Ts",
        talon="Ad Td Kd",
        won0="Th Ks",
        won1="Qd Jd Qs Js",
    )
    apply_all(game, "close Kh")
    assert [a.token for a in game.legal_actions()] == ["Ah"]
    assert_refused(game, "Qc", Rule.FARBZWANG)
    game.apply("Ah")
    assert game.talon_size == 3  # no drawing after closing
    assert len(game.hands[0]) == len(game.hands[1]) == 4


# ---------------------------------------------------------------- exchange


def test_exchange_swaps_unter_for_face_up_trump() -> None:
    """seeds/000: the holder of the trump Unter, "ist dieser Spieler am Ausspiel, so darf er die
    niedrigste Trumpfkarte gegen die offen aufliegende Trumpfkarte austauschen"."""
    game = opening()
    apply_all(game, "As Ks")  # Vorhand wins and stays on lead
    assert game.can_exchange_trump()
    game.exchange_trump()
    assert Card.parse("Kc") in game.hands[0] and Card.parse("Jc") not in game.hands[0]
    assert game.trump_card == Card.parse("Jc")
    assert Card.parse("Kc") in game.view(1).opponent_known
    assert game.to_move == 0  # still on lead, the exchange is not a lead
    assert not game.can_exchange_trump()


def test_exchange_before_first_lead_weich() -> None:
    """seeds/000 lists "vor dem ersten Ausspiel von Vorhand" among scharf's restrictions, so weich
    allows it; RULES.md: "Weich: allowed also before the very first lead"."""
    game = opening()
    assert Action.exchange() in game.legal_actions()
    game.apply("exchange")
    assert game.trump_card == Card.parse("Jc")


def test_exchange_with_one_face_down_card_left_weich() -> None:
    """seeds/003: "Liegt nur mehr eine Karte als Talon auf der offenen Trumpfkarte, darf man
    austauschen, jedoch nicht zudreuen"."""
    game = position(
        "schnapsen",
        0,
        "Kc",
        "Jc Ah Th Kh Qh",
        "Ad Td Kd Qd Jd",
        talon="Qc",
        won0="Ac Tc As Ts",
        won1="Jh Ks Qs Js",
    )
    assert game.can_exchange_trump()
    game.exchange_trump()
    assert game.trump_card == Card.parse("Jc")


def test_exchange_only_on_lead() -> None:
    """seeds/000: exchanging needs the player "am Ausspiel", "bevor die erste Karte zum nächsten
    Stich gespielt wird"."""
    game = deal_game("schnapsen", "As Ts Ks Qs Js", "Jc Ah Th Kh Qh", "Kc")
    game.apply("As")
    assert_refused(game, "exchange", Rule.NOT_ON_LEAD)


def test_exchange_needs_the_trump_unter() -> None:
    """seeds/000: "Hält ein Spieler die niedrigste Trumpfkarte ... beim Schnapsen den Trumpf-Buben"."""
    game = deal_game("schnapsen", "As Ts Ks Qs Js", "Jc Ah Th Kh Qh", "Kc")
    err = assert_refused(game, "exchange", Rule.EXCHANGE)
    assert "Jc" in str(err)


def test_exchange_after_drawing_the_unter() -> None:
    """seeds/000: "sei es, dass er diese Karte bereits beim Teilen, sei es, dass er sie erst nach
    einem Kauf vom Talon erhalten hat"."""
    game = deal_game("schnapsen", "As Ts Ks Qs Js", "Ah Th Kh Qh Ad", "Kc", talon="Jc")
    apply_all(game, "As Qh")  # seat 0 wins and draws Jc
    assert Card.parse("Jc") in game.hands[0]
    assert game.can_exchange_trump()


def test_no_exchange_once_talon_closed_or_exhausted() -> None:
    """RULES.md: the exchange is made "while the talon is open"."""
    game = deal_game("schnapsen", "Jc As Ts Ks Qs", "Ah Th Kh Qh Js", "Kc")
    game.apply("close")
    assert_refused(game, "exchange", Rule.EXCHANGE)
    exhausted = position(
        "schnapsen", 0, "c", "Jc Ah Th Kh Qh", "Ad Td Kd Qd Jd", won0="Ac Tc As Ts", won1="Jh Ks Qs Js Kc Qc"
    )
    assert_refused(exhausted, "exchange", Rule.EXCHANGE)


def test_exchange_then_close() -> None:
    """RULES.md: closing comes "before leading (after an exchange if any)"."""
    game = opening()
    apply_all(game, "exchange close")
    assert game.closed_by == 0 and game.trump_card == Card.parse("Jc")


# ----------------------------------------------------------------- closing


def test_close_with_three_face_down_cards() -> None:
    """RULES.md: closing "while at least two face-down cards remain above the trump card"."""
    game = position(
        "schnapsen", 0, "Kc", "Jc Ah Th Kh Qh", "Ad Td Kd Qd Jd", talon="Qc Js Qs", won0="Ac Tc", won1="As Ts Jh Ks"
    )
    assert game.talon_size == 3
    game.close_talon()
    assert game.closed_by == 0 and game.closed_opponent_augen == 27 and game.closed_opponent_had_trick


def test_close_with_one_face_down_card_refused() -> None:
    """seeds/003: "Liegt nur mehr eine Karte als Talon auf der offenen Trumpfkarte, darf man
    austauschen, jedoch nicht zudreuen" (two cards left: one face down plus the trump card)."""
    game = position(
        "schnapsen",
        0,
        "Kc",
        "Jc Ah Th Kh Qh",
        "Ad Td Kd Qd Jd",
        talon="Qc",
        won0="Ac Tc As Ts",
        won1="Jh Ks Qs Js",
    )
    assert not game.can_close_talon()
    err = assert_refused(game, "close", Rule.CLOSE)
    assert "1 face-down" in str(err)


def test_close_before_the_first_lead() -> None:
    """seeds/000: "Glaubt der Spieler, der am Ausspiel ist, dass er ohne weiteres Kaufen vom Talon
    die benötigte Anzahl von 66 Augen erreichen kann, so kann er den Talon sperren" (Vorhand is on
    lead before the first trick)."""
    game = opening()
    game.close_talon()
    assert game.closed_by == 0 and not game.closed_opponent_had_trick and game.closed_opponent_augen == 0


def test_close_stops_drawing_and_the_trump_card_stays_known() -> None:
    """seeds/000: the closer "nimmt dann die offene unterste Karte des Talons und legt sie verdeckt
    quer über den restlichen Stapel"; no more buying from the talon."""
    game = opening()
    apply_all(game, "close As Ks")
    assert game.is_closed and game.talon_size == 9
    assert len(game.hands[0]) == len(game.hands[1]) == 4
    assert game.view(1).trump_card == Card.parse("Kc")
    assert_refused(game, "close", Rule.CLOSE)


def test_close_only_on_lead() -> None:
    """seeds/000: "Glaubt der Spieler, der am Ausspiel ist, ... so kann er den Talon sperren"."""
    game = opening()
    game.apply("As")
    assert_refused(game, "close", Rule.NOT_ON_LEAD)


# --------------------------------------------------------------- marriages


def test_marriage_twenty_and_forty() -> None:
    """seeds/000: "Eine Ansage mit Atout zählt 40 Augen ... in einer anderen Farbe zählt 20 Augen"."""
    game = deal_game("schnapsen", "Kh Qh Kc Qc As", "Ah Th Ks Qs Js", "Jc")
    apply_all(game, "As Js")  # seat 0 wins a trick: 13
    game.apply("marry:Kh")
    assert game.augen(0) == 33
    assert game.lead == Card.parse("Kh")
    game.apply("Ks")  # a spade cannot take a Herz lead: seat 0 leads again
    assert game.to_move == 0
    game.apply("marry:Qc")
    assert game.augen(0) == 33 + 4 + 4 + 40
    assert game.marriages == [(0, Suit.HEARTS), (0, Suit.CLUBS)]


def test_marriage_leads_one_of_its_cards() -> None:
    """seeds/000: "Wer eine Ansage macht, muss eine der beiden Karten zum nächsten Stich ausspielen"."""
    game = opening()
    legal = {a.token for a in game.legal_actions()}
    assert {"marry:Kh", "marry:Qh"} <= legal
    game.apply("marry:Qh")
    assert game.lead == Card.parse("Qh") and game.to_move == 1
    assert Card.parse("Kh") in game.view(1).opponent_known


def test_marriage_before_first_trick_counts_once_a_trick_is_won() -> None:
    """seeds/000: "Eine Ansage ist beim weichen Schnapsen auch vor dem allerersten Ausspiel möglich,
    wenn der Spieler aber stichlos bleibt, zählt die Ansage jedoch nicht"."""
    game = opening()
    apply_all(game, "marry:Kh Ah")  # the dealer takes the King
    assert game.marriage_augen[0] == 20
    assert game.augen(0) == 0
    apply_all(game, "Js As")  # now Vorhand wins a trick: 13 and the 20
    assert game.augen(0) == 33


def test_marriage_of_a_trickless_player_never_counts() -> None:
    """seeds/000: "wenn der Spieler aber stichlos bleibt, zählt die Ansage jedoch nicht"; RULES.md:
    "An opponent's marriage counts only if they have a trick"."""
    game = position(
        "schnapsen",
        1,
        "Jc",
        "Qh! Ad Td Kd Qd",
        "Th Kc Qc Ac Jd",
        talon="Jh Tc Js",
        won1="Kh Ah As Ts Ks Qs",
        marriages="0h",
    )
    assert game.marriage_augen[0] == 20 and game.augen(0) == 0
    game.declare(Suit.CLUBS)
    assert game.result is not None
    assert (game.result.winner, game.result.points) == (1, 3)
    assert game.result.augen == (0, 83)


def test_marriage_only_on_lead() -> None:
    """seeds/000: a marriage is announced by the player "wenn er am Ausspiel ist"."""
    game = deal_game("schnapsen", "As Ts Ks Qs Js", "Kh Qh Ah Th Jc", "Kc")
    game.apply("As")
    assert_refused(game, "marry:Kh", Rule.NOT_ON_LEAD)


def test_marriage_needs_king_and_ober() -> None:
    """seeds/000: "Besitzt ein Spieler König und Dame bzw. König und Ober von einer Farbe"."""
    game = opening()
    assert_refused(game, "marry:Ks", Rule.MARRIAGE)
    with pytest.raises(ValueError, match="King or Ober"):
        Action.marriage(Card.parse("As"))


def test_marriage_after_closing_and_after_exhaustion() -> None:
    """RULES.md: marriages are "Allowed after closing and after the talon is exhausted"."""
    game = opening()
    game.apply("close")
    assert game.can_announce_marriage(Card.parse("Kh"))
    exhausted = position(
        "schnapsen", 0, "c", "Kh Qh Ac Tc Kc", "Ad Td Kd Qd Jd", won0="Ah Th As Ts", won1="Jh Qc Jc Ks Qs Js"
    )
    assert exhausted.can_announce_marriage(Card.parse("Qh"))
    exhausted.announce_marriage(Card.parse("Qh"))
    assert exhausted.augen(0) == 42 + 20


# ---------------------------------------------------------- going out (Ausmelden)

WINNER_71 = "Ad Td Ac Tc As Ts Kd Kc"


@pytest.mark.parametrize(
    ("won0", "points"),
    [
        ("", 3),  # "Hat der Gegner keinen Stich erzielt, so gewinnt der Spieler drei Punkte"
        ("Jh Qh", 2),  # 5 Augen
        ("Ah Th Kh Qh Jh Js", 2),  # 32: "32 oder weniger Augen ... zwei Punkte"
        ("Ah Th Kh Qh Jh Qs", 1),  # 33: "33 oder mehr Augen ... einen Punkt"
    ],
)
def test_declaration_points_by_opponents_augen(won0: str, points: int) -> None:
    """seeds/000: "Hat der Gegner keinen Stich erzielt, so gewinnt der Spieler drei Punkte, hat der
    Gegner nur 32 oder weniger Augen ... zwei Punkte, ... 33 oder mehr Augen ... einen Punkt"."""
    game = on_lead(won0, WINNER_71)
    assert game.augen(1) == 71
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, points, EndReason.DECLARED)


@pytest.mark.parametrize(("won0", "points"), [("", 3), ("Jh Qh", 2), ("Ah Th Kh Qh Jh Qs", 1)])
def test_wrong_declaration_gives_opponent_the_points(won0: str, points: int) -> None:
    """seeds/000: "Hat ein Spieler sich irrtümlich ausgemeldet, d. h. hat er 65 oder weniger Augen,
    so ist das Spiel trotzdem beendet. In diesem Fall gewinnt der Gegner so viele Punkte, wie der
    Spieler gewonnen hätte"."""
    game = on_lead(won0, "Ad Td Ac Tc Kd Kc")
    assert game.augen(1) == 50
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points) == (0, points)
    assert game.result.reason is EndReason.WRONG_DECLARATION


def test_declare_with_65_is_wrong_and_with_66_right() -> None:
    """seeds/000: "hat er 65 oder weniger Augen" (wrong) against "66 oder mehr Augen" (right)."""
    right = on_lead("Qh Jh", "Ah Th Kh Ad Kd Ac Kc As")
    assert right.augen(1) == 66
    right.declare()
    assert right.result is not None and right.result.reason is EndReason.DECLARED
    wrong = on_lead("Qh Jh", "Ah Th Kh Ad Td Kd Ac Kc")
    assert wrong.augen(1) == 65
    wrong.declare()
    assert wrong.result is not None and wrong.result.reason is EndReason.WRONG_DECLARATION


def test_declare_needs_a_trick() -> None:
    """seeds/000: "Hat ein Spieler nach Gewinn eines Stichs oder einer Ansage ... 66 ... erreicht,
    so darf er sich ausmelden"; a player without a trick cannot go out."""
    game = opening()
    assert_refused(game, "declare", Rule.DECLARE)
    assert_refused(game, "declare:h", Rule.DECLARE)


def test_declare_only_on_lead() -> None:
    """RULES.md: "The player on lead may declare after winning a trick or after a marriage"."""
    game = on_lead("Jh Qh", WINNER_71)
    game.apply(game.hands[1][0].code)
    assert_refused(game, "declare", Rule.NOT_ON_LEAD)


def test_declaration_ends_the_game_with_cards_left() -> None:
    """seeds/000: "Das Spiel ist beendet, und jeder Spieler zählt die gesammelten Augen."."""
    game = on_lead("Jh Qh", WINNER_71)
    game.declare()
    assert game.is_over and game.hands[1]
    assert game.legal_actions() == []
    assert_refused(game, game.hands[1][0].code, Rule.GAME_OVER)


def test_marriage_reaching_66_declares_before_its_card_is_played() -> None:
    """RULES.md: "a marriage that reaches 66 may end the game before its card is played, if the
    player has won a trick"; seeds/000: "nach Gewinn eines Stichs oder einer Ansage"."""
    game = position(
        "schnapsen", 1, "Jc", "Ah Th Qd Jd Js", "Kh Qh Kd Ad Td", talon="Jh Kc Qc", won1="Ac Tc As Ts Ks Qs"
    )
    assert game.augen(1) == 49
    assert Action.declare(Suit.HEARTS) in game.legal_actions()
    game.apply("declare:h")
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 3, EndReason.DECLARED)
    assert game.result.augen == (0, 69)
    assert Card.parse("Kh") in game.hands[1]  # never played


def test_marriage_below_66_then_declare_is_wrong() -> None:
    """seeds/000: with "65 oder weniger Augen" after the marriage, the declaration is wrong."""
    game = position(
        "schnapsen", 1, "Jc", "Ah Th Qd Jd Js", "Kh Qh Kd Ad Kc", talon="Td Tc Qc Ks Qs", won1="Ac Jh As Ts"
    )
    game.apply("declare:h")  # 34 + 20 = 54
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (0, 3, EndReason.WRONG_DECLARATION)


def test_player_at_66_who_plays_on_can_be_beaten() -> None:
    """RULES.md: "A player who reaches 66 and plays on may still be beaten by the opponent
    declaring first"."""
    game = position(
        "schnapsen",
        0,
        "c",
        "Kh Qh Qd Jd",
        "Ad Td Kd Jc",
        won0="Ac Tc As Ts Ah Th Jh Js",
        won1="Kc Ks Qc Qs",
        marriages="1c",
    )
    assert game.augen(0) == 67 and game.can_declare()
    apply_all(game, "Qd Ad")  # seat 0 plays on; seat 1 must take it: 54 + 14
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 1, EndReason.DECLARED)
    assert game.result.augen == (67, 68)


# ---------------------------------------------------------------- last trick

REST = "Ah Th Kh Ad Td Kd Qd Jd Ac Tc Kc Qc Jc Ts Qs Js"  # 100 Augen


def last_trick(won0: str, won1: str, variant: str = "schnapsen") -> Game:
    """Talon exhausted, one card each, seat 0 leads As and seat 1 must answer Ks."""
    game = position(variant, 0, "c", "As", "Ks", won0=won0, won1=won1)
    apply_all(game, "As Ks")
    return game


def test_last_trick_wins_the_game_for_one_point() -> None:
    """seeds/000: "Beim Schnapsen gewinnt der Spieler, der den letzten Stich erzielt, das Spiel";
    RULES.md: "Default: 1 game point"."""
    game = last_trick("Jh Qh", REST)
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (0, 1, EndReason.LAST_TRICK)
    assert game.result.augen == (20, 100)  # fewer Augen, still the winner
    game = last_trick(REST, "Jh Qh")
    assert game.result is not None and game.result.points == 1  # even against 5 Augen


def test_last_trick_scoring_augen_option() -> None:
    """RULES.md: "option: scored like a declaration, by the opponent's Augen (some online rooms)"."""
    option = "schnapsen:last_trick_scoring=augen"
    game = last_trick(REST, "Jh Qh", option)
    assert game.result is not None and (game.result.winner, game.result.points) == (0, 2)
    game = last_trick("Jh Qh " + REST, "", option)
    assert game.result is not None and game.result.points == 3
    game = last_trick("Jh Qh", REST, option)
    assert game.result is not None and game.result.points == 1


def test_no_last_trick_bonus_in_schnapsen() -> None:
    """seeds/000: the ten extra Augen are "Bei Sechsendsechzig"; Schnapsen counts 120 in all."""
    game = last_trick("Jh Qh", REST)
    assert game.result is not None and sum(game.result.augen) == 120


# ----------------------------------------------------------- closing: scoring


def closing_game(variant: str = "schnapsen") -> Game:
    """Seat 0 on lead with four trumps; seat 1 has 19 Augen and a trick, three face-down cards."""
    return position(
        variant,
        0,
        "Jc",
        "Ac Tc Kc Qc Td",
        "As Ts Ad Qd Ks",
        talon="Jd Qs Js",
        won0="Ah Kd",
        won1="Th Kh Qh Jh",
    )


# After closing, seat 1 must take Td with Ad (21 Augen after closing: 40 in all);
# seat 0 takes the other four tricks, the last one with 71 Augen.
LINE = "close Td Ad As Qc Ac Ks Tc Ts Kc Qd"


def test_closer_wins_scored_by_augen_at_closing() -> None:
    """seeds/000: "Die Anzahl der Siegpunkte richtet sich nach der Augenzahl des Gegners im
    Zeitpunkt des Zudrehens. Stiche und Ansagen des Gegners, welche erst nach dem Zudrehen erfolgen,
    zählen nicht."."""
    game = apply_all(closing_game(), LINE)
    assert game.result is not None
    assert game.closed_opponent_augen == 19 and game.augen(1) == 40
    assert (game.result.winner, game.result.points, game.result.reason) == (0, 2, EndReason.CLOSER_WON)


def test_count_after_closing_option() -> None:
    """seeds/000: "manchmal werden im Turnierspiel auch diejenigen Augen des Gegners gezählt, welche
    erst nach dem Zudrehen gesammelt werden"; RULES.md option ``count_after_closing``."""
    game = apply_all(closing_game("schnapsen:count_after_closing=true"), LINE)
    assert game.result is not None
    assert (game.result.winner, game.result.points) == (0, 1)  # 40 Augen at the end


def closed_endgame(closed: str, lead: str, follow: str, won0: str, won1: str) -> Game:
    """Talon closed by seat 0 with three face-down cards left; one card each, seat 0 to lead."""
    return position("schnapsen", 0, "Jc", lead, follow, talon="Qc Kc Js", closed=closed, won0=won0, won1=won1)


@pytest.mark.parametrize(("closed", "points"), [("0:10:1", 2), ("0:0:0", 3)])
def test_closer_fails_when_losing_the_last_trick(closed: str, points: int) -> None:
    """seeds/000: "Kann der Spieler, der den Talon gesperrt hat, keine 66 Augen erzielen ... so
    gewinnt der Gegner 3 Punkte, falls er zum Zeitpunkt des Zudrehens noch stichlos war, ansonsten
    2 Punkte"."""
    game = closed_endgame(closed, "Ks", "As", "Ah Th Ad Td Kh Kd", "Qh Jh Qd Jd Ac Tc Ts Qs")
    apply_all(game, "Ks As")
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, points, EndReason.CLOSER_FAILED)


def test_closer_taking_the_last_trick_without_66_fails() -> None:
    """seeds/003: "Wer den letzten Stich erzielen kann, spielt im Falle einer Talonsperre keine
    Rolle"; seeds/000: "Kann der Spieler, der den Talon gesperrt hat, keine 66 Augen erzielen"."""
    game = closed_endgame("0:10:1", "As", "Ks", "Ah Th Ad Td Kh Kd", "Qh Jh Qd Jd Ac Tc Ts Qs")
    apply_all(game, "As Ks")
    assert game.result is not None and game.augen(0) == 65
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 2, EndReason.CLOSER_FAILED)


def test_closer_taking_the_last_trick_with_66_wins() -> None:
    """seeds/000: "Gelingt es dem Spieler, der den Talon gesperrt hat, im weiteren Spiel insgesamt
    66 Augen zu sammeln ..., so gewinnt er das Spiel" (taking the last trick with 66 is going out)."""
    game = closed_endgame("0:10:1", "As", "Ks", "Ah Th Ad Td Kh Qh Jh Jd", "Kd Qd Ac Tc Ts Qs")
    apply_all(game, "As Ks")
    assert game.result is not None and game.augen(0) == 68
    assert (game.result.winner, game.result.points, game.result.reason) == (0, 2, EndReason.CLOSER_WON)


@pytest.mark.parametrize(("closed", "points"), [("0:10:1", 2), ("0:0:0", 3)])
def test_closer_declaring_wrongly_fails(closed: str, points: int) -> None:
    """Our choice (docs/rules.md): a closer who declares with 65 or fewer has failed to reach 66
    (seeds/000: "Kann der Spieler, der den Talon gesperrt hat, keine 66 Augen erzielen ... 3 Punkte,
    falls er zum Zeitpunkt des Zudrehens noch stichlos war, ansonsten 2 Punkte")."""
    game = closed_endgame(closed, "As", "Ks", "Ah Th Ad Td Kh Kd", "Qh Jh Qd Jd Ac Tc Ts Qs")
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, points, EndReason.CLOSER_FAILED)


@pytest.mark.parametrize(("closed", "points"), [("0:10:1", 2), ("0:0:0", 3)])
def test_opponent_of_closer_going_out_first(closed: str, points: int) -> None:
    """seeds/000: "bzw. kann sich sein Gegner zuvor ausmelden, so gewinnt der Gegner 3 Punkte, falls
    er zum Zeitpunkt des Zudrehens noch stichlos war, ansonsten 2 Punkte"."""
    game = position(
        "schnapsen",
        1,
        "Jc",
        "Ks",
        "As",
        talon="Qc Kc Js",
        closed=closed,
        won0="Qh Jh Qd Jd",
        won1="Ah Th Ad Td Kh Kd Ac Tc Ts Qs",
    )
    assert game.augen(1) >= 66
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, points, EndReason.CLOSER_FAILED)


def test_opponent_of_closer_declaring_wrongly() -> None:
    """Our choice (docs/rules.md), after seeds/000 "gewinnt der Gegner so viele Punkte, wie der
    Spieler gewonnen hätte": the closer wins what the wrong declarer would have won (2 or 3)."""
    game = position(
        "schnapsen",
        1,
        "Jc",
        "Ks",
        "As",
        talon="Qc Kc Js",
        closed="0:10:1",
        won0="Ah Th Ad Td Kh Kd Ac Tc",
        won1="Qh Jh Qd Jd Ts Qs",
    )
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (0, 2, EndReason.WRONG_DECLARATION)


# ------------------------------------------------------------------ auto_declare


def test_auto_declare_ends_the_game_at_66() -> None:
    """RULES.md: "Option ``auto_declare`` ...: 66 ends the game automatically"."""
    game = on_lead("Jh Qh", "Ad Td Ac Tc Kd Kc", to_move=1, variant="schnapsen:auto_declare=true")
    assert game.augen(1) == 50
    assert all(a.token != "declare" for a in game.legal_actions())
    assert_refused(game, "declare", Rule.DECLARE)
    apply_all(game, "As Ah")  # seat 1 takes 22 Augen: 72
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 2, EndReason.DECLARED)
    assert game.hands[1]  # cards were left


def test_auto_declare_after_a_marriage() -> None:
    """RULES.md: with ``auto_declare`` "66 ends the game automatically", also when reached by a
    marriage of a player who has won a trick."""
    game = position(
        "schnapsen:auto_declare=true",
        1,
        "Jc",
        "Ah Th Qd Jd Js",
        "Kh Qh Kd Ad Td",
        talon="Jh Kc Qc",
        won1="Ac Tc As Ts Ks Qs",
    )
    game.apply("marry:Kh")
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 3, EndReason.DECLARED)
    assert Card.parse("Kh") in game.hands[1]
