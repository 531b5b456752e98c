"""Dreierschnapsen (3 players): the deal with a talon, the soloist, the three-player goals.

Sources: ``seeds/003`` ("Dreierschnapsen") and ``seeds/004`` ("Talon-Schnapsen für
drei Spieler"), and RULES.md ("Three and four players").  Seat 0 deals unless a
test says otherwise, so seat 1 is Vorhand, then seat 2, then the dealer.  Most
tests deal by knocking: Vorhand, seat 2 and the dealer get six consecutive cards
each and the talon is the last two cards of the pack.
"""

from __future__ import annotations

import pytest

from bummerl.cards import Card, parse_cards
from bummerl.errors import IllegalActionError, Rule
from bummerl.match import TableMatch
from bummerl.table_game import TableGame
from bummerl.variants import find_table_variant
from bummerl.variants.bauernschnapsen import Phase, TableEndReason, TableResult
from bummerl.variants.dreierschnapsen import DREIERSCHNAPSEN


def knock_table(hands: list[str], talon: str, dealer: int = 0, **options: object) -> TableGame:
    """A table whose seat ``s`` holds ``hands[s]`` and whose talon is ``talon``."""
    v = DREIERSCHNAPSEN.with_options(**options) if options else DREIERSCHNAPSEN
    order: list[Card] = []
    for i in range(3):
        order += parse_cards(hands[(dealer + 1 + i) % 3])
    order += parse_cards(talon)
    t = TableGame(v, order, dealer)
    t.apply("knock")
    return t


def run(t: TableGame, tokens: str) -> None:
    for token in tokens.split():
        t.apply(token)


# Vorhand (seat 1) holds the Herz marriage with Ace and Ten.
STRONG = ["Ac Tc Kc Qc Jc Td", "Ah Th Kh Qh As Ad", "Jh Ks Qs Js Kd Qd"]
STRONG_TALON = "Ts Jd"
# Seat 2 holds the top cards of three suits.
GANG = ["Ad Td Kd Qd Jd Js", "Qh Jh Qc Jc Ks Qs", "Ah Th Ac Tc As Ts"]
GANG_TALON = "Kh Kc"


def test_the_deal_three_talon_three() -> None:
    """seeds/003: "Der Geber gibt jedem 3 Karten, die Vorhand ... ruft den Trumpf, dann
    werden 2 Karten verdeckt als Talon weggelegt, dann bekommt wieder jeder 3 Karten." """
    t = TableGame.deal("dreierschnapsen", seed=2, dealer=0)
    assert t.to_move == 2  # right of the dealer: seeds/004 "der Spieler rechts vom Geber"
    t.apply("cut")
    d = t.deck
    assert t.hands[1] == [*d[0:3], *d[11:14]]
    assert t.hands[2] == [*d[3:6], *d[14:17]]
    assert t.hands[0] == [*d[6:9], *d[17:20]]
    assert t.talon == list(d[9:11])


def test_knocking_deals_six_each_and_the_talon_last() -> None:
    """seeds/004: "Wenn der Spieler rechts vom Geber klopft ..., dann erhält Vorhand zunächst
    zweimal drei Karten, danach erhalten die anderen Spieler jeder sechs Karten, und der
    Talon von zwei Karten wird zuletzt auf den Tisch gelegt." """
    t = TableGame.deal("dreierschnapsen", seed=2, dealer=1)
    t.apply("knock")
    d = t.deck
    assert t.hands[2] == list(d[0:6]) and t.hands[0] == list(d[6:12]) and t.hands[1] == list(d[12:18])
    assert t.talon == list(d[18:20])


def test_vorhand_calls_from_three_or_turns_the_next_card() -> None:
    """seeds/004: "Wie beim Bauernschnapsen muß Vorhand anhand der ersten drei Karten Trumpf
    wählen, oder er muß eine beliebige Karte von den letzten drei Karten umdrehen" """
    t = knock_table(STRONG, STRONG_TALON)
    assert [a.token for a in t.legal_actions()] == ["trump:h", "turn"]
    t.apply("turn")
    assert t.turned_card == Card.parse("Qh") and t.trump == Card.parse("Qh").suit


def test_the_soloist_takes_the_talon_and_lays_two_away() -> None:
    """seeds/004: "Nach der Reizung nimmt der Alleinspieler die beiden Karten des Talons auf,
    ohne sie den Gegenspielern zu zeigen. Er hat jetzt acht Karten auf der Hand und legt
    zwei beliebige Karten verdeckt ab. Die Kartenpunkte in diesen abgelegten Karten zählen
    weder für den Alleinspieler noch für seine Gegenspieler." """
    t = knock_table(STRONG, STRONG_TALON)
    run(t, "trump:h bid:normal pass pass")
    assert t.phase is Phase.TALON and t.to_move == 1 and len(t.hands[1]) == 8
    assert t.view(2).talon_size == 0
    assert Card.parse("Ts") not in t.view(2).hand and not t.view(2).discarded
    with pytest.raises(IllegalActionError) as info:
        t.apply("discard:Jh")
    assert info.value.rule is Rule.NOT_IN_HAND
    run(t, "discard:Ts discard:Jd")
    assert t.phase is Phase.DOUBLING and len(t.hands[1]) == 6
    assert t.view(1).discarded == tuple(parse_cards("Ts Jd")) and t.view(2).discarded == ()
    assert Card.parse("Ts") in t.view(2).unseen()


def test_the_soloist_plays_alone_against_the_other_two() -> None:
    """seeds/004: "spielt der Gewinner der Reizung allein gegen die beiden anderen Spieler,
    die für dieses Spiel ein Team bilden"; Rekontra is the soloist's alone."""
    t = knock_table(STRONG, STRONG_TALON)
    run(t, "trump:h bid:normal pass pass discard:Ts discard:Jd")
    assert t.side == [1, 0, 1]
    assert t.to_move == 2
    run(t, "kontra")
    assert t.to_move == 1  # the soloist has no partner
    run(t, "rekontra")
    assert t.to_move == 2
    run(t, "pass pass")
    assert t.phase is Phase.PLAY and t.multiplier == 4


def test_schnapser_needs_the_first_four_tricks_and_66() -> None:
    """seeds/004: "Beim Schnapser und Kontra-Schnapser muß der Alleinspieler die ersten vier
    Stiche machen und mindestens 66 Punkte in diesen vier Stichen erreichen." seeds/003:
    "Dieses Spiel kann nur der Rufer ansagen"."""
    t = knock_table(STRONG, STRONG_TALON)
    run(t, "trump:h")
    assert t.can_bid("schnapser")
    run(t, "bid:schnapser")
    assert not t.can_bid("schnapser")  # seat 2 is not the Rufer
    run(t, "pass pass discard:Ts discard:Jd pass pass")
    run(t, "marry:Kh Jh Ac Ah Ks Jc Th Qs Qc")
    assert t.result is None  # three tricks are not enough
    run(t, "As Js Kc")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_WON and r.winners == (1,) and r.points == 6
    assert len(t.tricks) == 4


def test_schnapser_lost_in_the_fourth_trick() -> None:
    """seeds/004: "die ersten vier Stiche machen" — losing the fourth trick loses it, and
    both defenders score (RULES.md: "scoring for each defender")."""
    t = knock_table(["Ac Tc Kc Qc Jc Td", "Ah Th Kh Qh Ks Ad", "Jh As Qs Js Kd Qd"], "Ts Jd")
    run(t, "trump:h bid:schnapser pass pass discard:Ts discard:Jd pass pass")
    run(t, "marry:Kh Jh Ac Ah Js Jc Th Qs Qc Ks As Kc")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST
    assert r.winners == (0, 2) and r.points == 6


def test_gang_needs_all_six_tricks() -> None:
    """seeds/004: "Beim Gang, Zehner-Gang, Bauern-Schnapser und Kontra-Bauernschnapser muß
    der Alleinspieler alle sechs Stiche machen." """
    t = knock_table(GANG, GANG_TALON)
    run(t, "trump:h bid:normal bid:gang pass pass discard:Kh discard:Kc pass pass")
    assert t.declarer == 2 and t.to_move == 2 and t.play_trump is None
    run(t, "Ah Ad Qh Th Td Jh Ac Kd Qc Tc Qd Jc As Js Ks")
    assert t.result is None  # five tricks are not enough
    run(t, "Ts Jd Qs")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_WON and r.winners == (2,) and r.points == 9


def test_gang_lost() -> None:
    """seeds/004: "muß der Alleinspieler alle sechs Stiche machen" — the Pik Ace of a defender
    takes the Pik King."""
    t = knock_table(["Ad Td Kd Qd Jd Js", "Qh Jh Qc Jc As Qs", "Ah Th Ac Tc Ks Ts"], GANG_TALON)
    run(t, "trump:h bid:normal bid:gang pass pass discard:Kh discard:Kc pass pass")
    run(t, "Ks Js As")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.winners == (0, 1) and r.points == 9


FARBENRING = ["Ad Td Kd Qd Jd Jc", "Ac Tc Kc Qc As Ts", "Ah Th Kh Qh Jh Ks"]


def test_farbenring_needs_the_sixth_trick_too() -> None:
    """seeds/004: "Beim Farben-Gang und Herren-Schnapser muß der Alleinspieler eine
    vollständige Farbe von fünf Karten auf der Hand haben und eine sechste Karte dazu ...
    Mit seiner letzten Karte muß er dann den sechsten Stich gewinnen" — the Pik Ace of
    Vorhand takes the Pik King."""
    t = knock_table(FARBENRING, "Qs Js")
    run(t, "trump:c bid:normal bid:farbenring pass pass discard:Qs discard:Js pass pass")
    assert t.contract is not None and t.contract.name == "farbenring" and t.play_trump is None
    run(t, "Ah Ad Ac Th Td Tc Kh Kd Kc Qh Qd Qc Jh Jd Ts")
    assert t.result is None
    run(t, "Ks Jc As")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.winners == (0, 1) and r.points == 18


def test_farbenring_won_with_an_ace_as_sixth_card() -> None:
    """seeds/004: "was im günstigsten Fall ein Ass ist"; seeds/003: "es sei denn, man hat als
    sechste Karte ein Ass" — the soloist takes the Pik Ace from the talon."""
    t = knock_table(["Ad Td Kd Qd Jd Jc", "Ac Tc Kc Qc Js Ts", "Ah Th Kh Qh Jh Ks"], "As Qs")
    run(t, "trump:c bid:normal bid:farbenring pass pass discard:Ks discard:Qs pass pass")
    run(t, "Ah Ad Ac Th Td Tc Kh Kd Kc Qh Qd Qc Jh Jd Js As Jc Ts")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_WON and r.winners == (2,) and r.points == 18


def test_herrenschnapser_is_played_out_with_three() -> None:
    """seeds/003: "Beim Dreierschnapsen ist der Herrenring nicht automatisch gewonnen, es sei
    denn, man hat als sechste Karte ein Ass." """
    t = knock_table(["Ad Td Kd Qd Jd Jc", "Ah Th Kh Qh Jh Ks", "Ac Tc Kc Qc As Ts"], "Qs Js")
    run(t, "trump:h bid:herrenschnapser pass pass discard:Qs discard:Js pass pass")
    assert t.phase is Phase.PLAY and t.to_move == 1
    run(t, "Ah Ac Ad Th Tc Td Kh Kc Kd Qh Qc Qd Jh Ts Jd")
    assert t.result is None
    run(t, "Ks As Jc")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.winners == (0, 2) and r.points == 24


def test_a_wrong_genug_pays_each_defender() -> None:
    """seeds/004: a wrong "Genug" gives the other side the points; RULES.md: "scoring for
    each defender" — both defenders are credited."""
    t = knock_table(STRONG, STRONG_TALON)
    run(t, "trump:h bid:normal pass pass discard:Ts discard:Jd pass pass")
    run(t, "Ah Jh Ac declare")
    r = t.result
    assert r is not None and r.reason is TableEndReason.WRONG_DECLARATION
    assert r.winners == (0, 2) and r.points == 3 and r.points_of(0) == r.points_of(2) == 3 and r.points_of(1) == 0


def test_discarded_augen_count_for_nobody() -> None:
    """seeds/004: "Die Kartenpunkte in diesen abgelegten Karten zählen weder für den
    Alleinspieler noch für seine Gegenspieler." """
    t = knock_table(STRONG, STRONG_TALON)
    run(t, "trump:h bid:normal pass pass discard:Ts discard:Jd pass pass")
    while not t.is_over:
        plays = [a for a in t.legal_actions() if a.kind.name == "PLAY"]
        t.apply(plays[0])
    in_tricks = sum(c.augen for tr in t.tricks for c in tr.cards)
    assert t.side_trick_augen[0] + t.side_trick_augen[1] == in_tricks == 120 - 12


def test_contracts_by_seat() -> None:
    """seeds/004: "Die möglichen Kontrakte und das Reizen entsprechen dem Vorgehen beim
    Bauernschnapsen" — Kontra contracts for Vorhand's opponents, Farbenring not for
    Vorhand."""
    t = knock_table(STRONG, STRONG_TALON)
    run(t, "trump:h")
    names = {a.contract for a in t.legal_actions()}
    assert "kontra-schnapser" not in names and "schnapser" in names
    run(t, "bid:normal")
    names = {a.contract for a in t.legal_actions()}
    assert {"kontra-schnapser", "kontra-bauernschnapser", "gang"} <= names and "schnapser" not in names


def test_variant_lookup_and_goals() -> None:
    """RULES.md: "Schnapser needs the first four tricks and 66, Gang-type contracts all six
    tricks, Farbenring and Herrenschnapser a full suit plus the sixth trick"."""
    v = find_table_variant("dreier")
    assert v is DREIERSCHNAPSEN and v.contract("schnapser").goal_tricks == 4
    assert v.contract("farbenring").goal.value == "all_tricks"
    assert v.contract("herrenschnapser").lead == "declarer"


def test_match_scores_each_player() -> None:
    """seeds/003: "jeder gegen jeden" (RULES.md: no fixed partnerships); seeds/004: 24 wins.
    Both defenders can pass 24 in the same game; the soloist then takes the Bummerl."""
    m = TableMatch("dreierschnapsen", seed=2)
    m.score(TableResult("gang", 2, (2,), 9, TableEndReason.CONTRACT_WON, (120, 0)))
    m.score(TableResult("kontra-bauernschnapser", 0, (1, 2), 24, TableEndReason.CONTRACT_LOST, (20, 100)))
    assert m.is_over and m.scores == [0, 24, 33] and m.winners == (1, 2) and m.bummerl == [2, 0, 0]
    m = TableMatch("dreierschnapsen", seed=2)
    assert m.deal_next().dealer == 0
    m.score(TableResult("normal", 1, (1,), 1, TableEndReason.LAST_TRICK, (60, 48)))
    assert m.deal_next().dealer == 1 and m.scores == [0, 1, 0]


def test_raise_after_taking_up_the_talon() -> None:
    """seeds/004: "Die Spieler müssen vor dem Spiel abmachen, ob es dem Alleinspieler erlaubt
    sein soll, einen höheren Kontrakt anzusagen nachdem er den Talon aufgenommen hat." """
    t = knock_table(GANG, GANG_TALON, raise_after_talon=True)
    run(t, "trump:h bid:normal bid:bettler pass pass discard:Kh discard:Kc")
    assert t.phase is Phase.TALON and t.to_move == 2
    assert t.can_bid("gang") and t.can_pass() and not t.can_bid("bettler")
    with pytest.raises(IllegalActionError) as info:
        t.apply("bid:schnapser")  # not seat 2's contract
    assert info.value.rule is Rule.BID_RIGHT
    run(t, "bid:gang")
    assert t.contract is not None and t.contract.name == "gang" and t.phase is Phase.DOUBLING
    plain = knock_table(GANG, GANG_TALON)
    run(plain, "trump:h bid:normal bid:bettler pass pass discard:Kh discard:Kc")
    assert plain.phase is Phase.DOUBLING


def test_leaving_the_talon_is_worth_a_point_more() -> None:
    """seeds/004: "Einige spielen so, daß der Alleinspieler sich entscheiden kann, den Talon
    nicht aufzunehmen ...; in dem Falle ist der Kontrakt einen Spielpunkt mehr wert." """
    t = knock_table(GANG, GANG_TALON, may_skip_talon=True)
    run(t, "trump:h bid:normal bid:gang pass pass")
    assert [a.token for a in t.legal_actions()] == ["take-talon", "skip-talon"]
    run(t, "skip-talon pass pass")
    assert len(t.hands[2]) == 6 and t.view(2).talon_size == 2 and t.view(2).discarded == ()
    assert set(parse_cards(GANG_TALON)) <= t.view(2).unseen()
    run(t, "Ah Ad Qh Th Td Jh Ac Kd Qc Tc Qd Jc As Js Ks Ts Jd Qs")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_WON and r.points == 9 + 1
    with pytest.raises(ValueError, match="no option 'may_skip_talon'"):
        find_table_variant("bauernschnapsen", may_skip_talon=True)
