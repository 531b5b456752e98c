"""Bauernschnapsen (4 players): one test per rule, contract, bidding and doubling step.

Every test cites its source: ``seeds/004`` (pagat's page, the primary text),
``seeds/003`` (the players' leaflet) or ``RULES.md``.  Unless a test says
otherwise seat 0 deals, so seat 1 is Vorhand, seat 2 the dealer's partner and
seat 3 Vorhand's partner; the teams are seats 1+3 and 0+2.  Most tests deal by
knocking, which gives every player five consecutive cards of the pack, so a
test can state the hands it needs.
"""

from __future__ import annotations

import pytest

from bummerl.actions import DOUBLE_NAMES, Action
from bummerl.cards import Card, Suit, parse_cards
from bummerl.errors import IllegalActionError, Rule
from bummerl.match import TableMatch
from bummerl.table_game import TableGame
from bummerl.variants import find_table_variant
from bummerl.variants.bauernschnapsen import BAUERNSCHNAPSEN, Phase, TableEndReason, TableResult


def knock_table(hands: list[str], dealer: int = 0, **options: object) -> TableGame:
    """A table whose seat ``s`` holds ``hands[s]`` after the knock."""
    v = BAUERNSCHNAPSEN.with_options(**options) if options else BAUERNSCHNAPSEN
    order: list[Card] = []
    for i in range(4):
        order += parse_cards(hands[(dealer + 1 + i) % 4])
    t = TableGame(v, order, dealer)
    t.apply("knock")
    return t


def run(t: TableGame, tokens: str) -> None:
    for token in tokens.split():
        t.apply(token)


def refused(t: TableGame, token: str, rule: Rule) -> None:
    before = t.position()
    with pytest.raises(IllegalActionError) as info:
        t.apply(token)
    assert info.value.rule is rule, info.value
    assert t.position() == before


# Seat 1 (Vorhand) holds the Herz marriage with Ace and Ten; seat 3 the Herz Unter.
STRONG = ["Tc Kc Qc Jc Ks", "Ah Th Kh Qh Ac", "Kd Qd Jd Qs Js", "Jh As Ts Ad Td"]
# Seat 2 has only Unter and Ober: a Bettler hand.
BETTLER = ["Kd Qd Qc Ks Qs", "Ah Th Kh Ad Td", "Jh Qh Jd Jc Js", "Ac Tc Kc As Ts"]
# Seat 1 holds all five trumps (Herz).
ALL_TRUMPS = ["Jd Qd Kd Td Ad", "Ah Th Kh Qh Jh", "Jc Qc Kc Tc Ac", "Js Qs Ks Ts As"]


def normal(t: TableGame, trump: str = "h") -> None:
    """Vorhand calls ``trump`` and bids the normal game; everyone passes, nobody doubles."""
    run(t, f"trump:{trump} bid:normal pass pass pass pass pass")
    assert t.phase is Phase.PLAY


# ---------------------------------------------------------------- the deal
def test_cut_or_knock_by_the_player_right_of_the_dealer() -> None:
    """seeds/004: "Der Spieler zu seiner Rechten kann entweder abheben oder nur auf den
    Kartenstapel klopfen." Right of the dealer is the seat before them clockwise."""
    for dealer in range(4):
        t = TableGame.deal("bauernschnapsen", seed=1, dealer=dealer)
        assert t.phase is Phase.CUT and t.to_move == (dealer + 3) % 4
        assert t.legal_actions() == [Action.cut(), Action.knock()]
        refused(t, "trump:h", Rule.DEAL)


def test_cut_deals_three_then_two() -> None:
    """seeds/004: "Wenn abgehoben wurde, gibt der Geber die Karten in zwei Runden –
    zunächst bekommt jeder drei Karten und danach jeder zwei Karten." """
    t = TableGame.deal("bauernschnapsen", seed=4, dealer=0)
    t.apply("cut")
    d = t.deck
    assert t.hands[1] == [*d[0:3], *d[12:14]]  # Vorhand first in both rounds
    assert t.hands[2] == [*d[3:6], *d[14:16]]
    assert t.hands[0] == [*d[9:12], *d[18:20]]
    assert t.first_three[1] == tuple(d[0:3])


def test_knock_deals_five_at_once() -> None:
    """seeds/004: "Wenn geklopft wurde, gibt der Geber die Karten in einer Runde, d. h.
    jeder Spieler bekommt fünf Karten auf einmal." """
    t = TableGame.deal("bauernschnapsen", seed=4, dealer=2)
    t.apply("knock")
    d = t.deck
    assert t.hands[3] == list(d[0:5]) and t.hands[0] == list(d[5:10]) and t.hands[2] == list(d[15:20])
    assert t.knocked is True


def test_three_unter_force_a_redeal() -> None:
    """seeds/003: "Erhält man vom Geber zu Beginn drei Unter, so muss neu gemischt werden." """
    t = knock_table(["Ah Th Kh Qh Ac", "Tc Kc Qc Ad Td", "Jh Jd Jc Kd Qd", "Js As Ts Ks Qs"])
    assert t.is_over and t.result is not None
    assert t.result.reason is TableEndReason.REDEAL and t.result.points == 0
    assert t.known[2] == set(parse_cards("Jh Jd Jc"))  # shown to the table


def test_three_unter_later_in_the_hand_do_not_redeal() -> None:
    """seeds/003: three Unter "zu Beginn", i.e. among the first three cards; option off."""
    hands = ["Ah Th Kh Qh Ac", "Tc Kc Qc Ad Td", "Kd Jh Jd Jc Qd", "Js As Ts Ks Qs"]
    assert knock_table(hands).phase is Phase.TRUMP
    redeal = ["Ah Th Kh Qh Ac", "Tc Kc Qc Ad Td", "Jh Jd Jc Kd Qd", "Js As Ts Ks Qs"]
    assert knock_table(redeal, three_unter_redeal=False).phase is Phase.TRUMP


# ---------------------------------------------------------------- the trump
def test_trump_is_a_suit_of_vorhands_first_three_cards() -> None:
    """seeds/004: "Es muß eine Farbe sein, von der Vorhand mindestens eine Karte in der
    Hand hält" — of the first three cards, before the last two are seen."""
    t = knock_table(STRONG)
    assert t.to_move == 1 and t.phase is Phase.TRUMP
    assert [a.token for a in t.legal_actions()] == ["trump:h", "turn"]
    refused(t, "trump:c", Rule.TRUMP_CALL)  # Ac is Vorhand's fifth card
    assert t.view(1).hand == tuple(parse_cards("Ah Th Kh"))


def test_turning_up_makes_the_turned_card_trump_and_shows_it() -> None:
    """seeds/004: "Eine seiner beiden letzten Karten gibt die Trumpffarbe an. Das nennt
    man „Aufschlagen“ ... der Geber gibt eine der beiden Karten für Vorhand offen." """
    t = knock_table(STRONG)
    t.apply("turn")
    assert t.trump is Suit.HEARTS and t.turned_card == Card.parse("Qh")
    assert Card.parse("Qh") in t.view(2).known[1]


# ---------------------------------------------------------------- bidding
def test_vorhand_opens_and_may_not_pass() -> None:
    """seeds/004: "Vorhand beginnt mit der Reizung. Er darf nicht passen" """
    t = knock_table(STRONG)
    t.apply("trump:h")
    assert t.phase is Phase.BIDDING and t.to_move == 1
    refused(t, "pass", Rule.BIDDING)


def test_the_normal_game_is_bid_by_vorhand_only() -> None:
    """seeds/004, table: Normales Spiel — "Nur Vorhand"."""
    t = knock_table(STRONG)
    run(t, "trump:h bid:normal")
    refused(t, "bid:normal", Rule.BID_RIGHT)


def test_bidding_goes_clockwise_in_seat_priority_and_ends_after_three_passes() -> None:
    """seeds/004: "Vorhand hat den höchsten Vorrang, dann kommt der Partner des Gebers,
    dann der Partner von Vorhand und zuletzt der Geber" and "Das Reizen geht so lange
    rundum, bis drei Spieler hintereinander passen." """
    t = knock_table(STRONG)
    run(t, "trump:h bid:normal")
    order = []
    while t.phase is Phase.BIDDING:
        order.append(t.to_move)
        t.apply("pass")
    assert order == [2, 3, 0]
    assert [t.priority(s) for s in (1, 2, 3, 0)] == [0, 1, 2, 3]
    assert t.contract is not None and t.contract.name == "normal" and t.declarer == 1


def test_a_player_of_higher_priority_may_hold_the_same_bid() -> None:
    """seeds/004: "Vorhand bietet ein Normalspiel, die nächsten beiden Spieler passen und
    der Geber bietet einen Gang. Vorhand kann jetzt passen, oder er bietet auch einen
    Gang, der Vorrang vor dem Gang des Gebers hat, oder er kann höher bieten." """
    t = knock_table(STRONG)
    run(t, "trump:h bid:normal pass pass bid:gang")
    assert t.to_move == 1 and t.can_bid("gang")
    run(t, "bid:gang")
    # The dealer, lower in priority, may not hold Vorhand's Gang: higher or pass.
    assert t.to_move == 0
    refused(t, "bid:gang", Rule.BIDDING)
    assert t.can_bid("zehnerloch")
    t.apply("pass")
    assert t.contract is not None and t.contract.name == "gang" and t.declarer == 1


def test_a_lower_bid_is_refused() -> None:
    """seeds/004: "muß der folgende Spieler entweder einen höheren Kontrakt bieten oder
    passen." """
    t = knock_table(STRONG)
    run(t, "trump:h bid:normal bid:gang")
    refused(t, "bid:bettler", Rule.BIDDING)


def test_passing_is_final() -> None:
    """seeds/004: "Ein Spieler, der gepaßt hat, nimmt nicht mehr am Reizen teil und hat
    keine Möglichkeit mehr, später erneut in die Reizung einzusteigen." """
    t = knock_table(STRONG)
    run(t, "trump:h bid:normal pass bid:gang pass")  # seat 2 and seat 0 passed
    assert t.to_move == 1
    run(t, "bid:zehnerloch")
    assert t.to_move == 3  # seat 2 is skipped
    t.apply("pass")
    assert t.contract is not None and t.contract.name == "zehnerloch" and t.declarer == 1


def test_who_may_bid_what() -> None:
    """seeds/004, column "Es reizt": Schnapser and Bauernschnapser "Vorhand oder der
    Partner von Vorhand"; Kontra-Schnapser and Kontra-Bauernschnapser "Einer der
    Gegenspieler von Vorhand"; Bettler, Gang, Zehner-Gang "jeder"."""
    t = knock_table(STRONG)
    run(t, "trump:h")
    allowed = {a.contract for a in t.legal_actions()}
    assert {"normal", "bettler", "schnapser", "gang", "zehnerloch", "bauernschnapser"} <= allowed
    assert "kontra-schnapser" not in allowed and "kontra-bauernschnapser" not in allowed
    run(t, "bid:normal")  # seat 2: an opponent of Vorhand
    allowed = {a.contract for a in t.legal_actions()}
    assert {"kontra-schnapser", "kontra-bauernschnapser", "gang", "bettler"} <= allowed
    assert "schnapser" not in allowed
    refused(t, "bid:schnapser", Rule.BID_RIGHT)
    run(t, "pass")  # seat 3: Vorhand's partner
    allowed = {a.contract for a in t.legal_actions()}
    assert "schnapser" in allowed and "bauernschnapser" in allowed
    refused(t, "bid:kontra-schnapser", Rule.BID_RIGHT)


def test_farbenring_needs_a_full_suit_and_not_vorhand() -> None:
    """seeds/004: Farben-Gang "Jeder außer Vorhand ... muß alle fünf Karten einer Farbe
    haben"."""
    t = knock_table(ALL_TRUMPS)
    run(t, "trump:h")
    refused(t, "bid:farbenring", Rule.BID_RIGHT)  # Vorhand, though holding a full suit
    run(t, "bid:normal")
    assert t.can_bid("farbenring")  # seat 2 holds every Kreuz
    t2 = knock_table(STRONG)
    run(t2, "trump:h bid:normal")
    refused(t2, "bid:farbenring", Rule.BID_RIGHT)


def test_herrenschnapser_needs_all_trumps_and_vorhand() -> None:
    """seeds/003: "Wenn der Rufer alle Karten der Trumpffarbe hält, kann er einen
    Herrenschnapser ansagen." seeds/004: "Vorhand"."""
    t = knock_table(ALL_TRUMPS)
    run(t, "trump:h")
    assert t.can_bid("herrenschnapser")
    t2 = knock_table(STRONG)
    run(t2, "trump:h")
    refused(t2, "bid:herrenschnapser", Rule.BID_RIGHT)


def test_assen_bettler_needs_an_ace_and_ranks_above_bettler() -> None:
    """seeds/003: "Assen Bettler - 5 Punkte ... muss mindestens ein Ass in der Hand
    haben"; seeds/004: "der beim Reizen höher als der gewöhnliche Bettler bewertet wird"."""
    v = BAUERNSCHNAPSEN.with_options(assen_bettler=True)
    assert v.contract_rank("assen-bettler") == v.contract_rank("bettler") + 1
    assert v.contract("assen-bettler").points == 5
    t = knock_table(BETTLER, assen_bettler=True)
    run(t, "trump:h bid:normal")
    refused(t, "bid:assen-bettler", Rule.BID_RIGHT)  # seat 2 holds no Ace
    run(t, "bid:bettler")
    assert t.can_bid("assen-bettler")  # seat 3 holds Ac and As
    assert "assen-bettler" not in [c.name for c in BAUERNSCHNAPSEN.contracts]


def test_contract_order_and_points() -> None:
    """RULES.md: "Normal 1/2/3, Bettler 4, Schnapser 6, Gang 9, Zehnerloch (Zehner-Gang)
    10, Kontra-Schnapser 12, Bauernschnapser 12, Farbenring 18, Kontra-Bauernschnapser
    24, Herrenschnapser 24", lowest to highest as in seeds/004's table."""
    v = BAUERNSCHNAPSEN
    assert [(c.name, c.points) for c in v.contracts] == [
        ("normal", 1),
        ("bettler", 4),
        ("schnapser", 6),
        ("gang", 9),
        ("zehnerloch", 10),
        ("kontra-schnapser", 12),
        ("bauernschnapser", 12),
        ("farbenring", 18),
        ("kontra-bauernschnapser", 24),
        ("herrenschnapser", 24),
    ]


def test_options_change_the_contract_list() -> None:
    """seeds/004 Varianten: "Einige Spielkreise spielen ohne Bettler", "Der Bettler zählt
    5 Spielpunkte", Zehner-Gang "mit 8 oder 9 Spielpunkten ... und er rangiert unter dem
    gewöhnlichen Gang", "Einige spielen ohne den Kontrakt Zehner-Gang"; seeds/003:
    Bauernloch 12."""
    v = find_table_variant("bauernschnapsen", bettler=False, zehnerloch=False)
    assert "bettler" not in [c.name for c in v.contracts] and "zehnerloch" not in [c.name for c in v.contracts]
    v = find_table_variant("bauernschnapsen", bettler_points=5, zehnerloch_points=9, zehnerloch_below_gang=True)
    assert v.contract("bettler").points == 5 and v.contract("zehnerloch").points == 9
    assert v.contract_rank("zehnerloch") < v.contract_rank("gang")
    v = find_table_variant("bauernschnapsen", bauernloch="yes")
    assert v.contract("bauernloch").points == 12
    assert v.contract_rank("bauernschnapser") < v.contract_rank("bauernloch") < v.contract_rank("farbenring")
    with pytest.raises(ValueError, match="zehnerloch_points"):
        find_table_variant("bauernschnapsen", zehnerloch_points=7)
    with pytest.raises(ValueError, match="no option"):
        find_table_variant("bauernschnapsen", colour="red")


# ---------------------------------------------------------------- doubling
def test_kontra_rekontra_subkontra() -> None:
    """seeds/004: "kann einer der beiden Gegenspieler „Kontra“ sagen, was den Wert des
    Spieles verdoppelt. Derjenige, der den Kontrakt angesagt hatte oder sein Partner
    können mit „Rekontra“ antworten ... Einer der beiden Gegenspieler kann ... „Subkontra“
    sagen ... so daß das Spiel den achtfachen Wert des ursprünglichen Wertes hat." """
    t = knock_table(STRONG)
    run(t, "trump:h bid:normal pass pass pass")
    assert t.phase is Phase.DOUBLING and t.to_move == 2  # a defender, clockwise after the declarer
    assert [a.token for a in t.legal_actions()] == ["kontra", "pass"]
    refused(t, "rekontra", Rule.DOUBLING)
    t.apply("kontra")
    assert t.multiplier == 2 and t.to_move == 3  # the declarer's side answers: partner first
    t.apply("pass")
    assert t.to_move == 1
    t.apply("rekontra")
    assert t.multiplier == 4 and t.to_move == 2
    t.apply("subkontra")
    assert t.multiplier == 8 and t.phase is Phase.PLAY


def test_nobody_doubles() -> None:
    """seeds/004: doubling is a choice ("kann ... sagen"): both defenders pass, play starts
    at the normal value."""
    t = knock_table(STRONG)
    run(t, "trump:h bid:normal pass pass pass pass")
    assert t.to_move == 0 and t.phase is Phase.DOUBLING
    t.apply("pass")
    assert t.phase is Phase.PLAY and t.multiplier == 1


def test_max_doubling_option() -> None:
    """RULES.md: "who may double and how often" is a regional option; max_doubling=1 allows
    Kontra only, 0 no doubling."""
    t = knock_table(STRONG, max_doubling=1)
    run(t, "trump:h bid:normal pass pass pass kontra")
    assert t.phase is Phase.PLAY and t.multiplier == 2
    t = knock_table(STRONG, max_doubling=0)
    run(t, "trump:h bid:normal pass pass pass")
    assert t.phase is Phase.PLAY


@pytest.mark.parametrize("max_doubling", [0, 1, 2, 3])
def test_named_doubling_triple_follows_max_doubling(max_doubling: int) -> None:
    """RULES.md: "Kontra ×2, Rekontra ×4, Subkontra ×8", capped by the option max_doubling.
    can_double/verify_double/double ask the same rule as apply (no fixed cap of three): every
    step up to the variant's cap, none after it, and a step beyond it names the allowed ones."""
    t = knock_table(STRONG, max_doubling=max_doubling)
    run(t, "trump:h bid:normal pass pass")
    assert not t.can_double()
    with pytest.raises(IllegalActionError, match="doubling is not possible now"):
        t.verify_double()
    t.apply("pass")
    for level in range(1, max_doubling + 1):
        assert t.phase is Phase.DOUBLING and t.can_double()
        t.verify_double()
        for beyond in range(level + 1, 4):
            with pytest.raises(IllegalActionError) as info:
                t.verify(Action.double(beyond))
            assert info.value.rule is Rule.DOUBLING
            assert info.value.detail.endswith(f"steps allowed: {', '.join(DOUBLE_NAMES[:max_doubling])})")
        t.double()
        assert t.doubling == level
    assert t.phase is Phase.PLAY and t.multiplier == 2**max_doubling
    before = t.position()
    assert not t.can_double()
    with pytest.raises(IllegalActionError) as info:
        t.double()
    assert info.value.rule is Rule.DOUBLING and t.position() == before


def test_doubling_multiplies_the_score() -> None:
    """seeds/004: "dann erhält sein Team 1, 2 oder 3 Spielpunkte (verdoppelt, vervierfacht
    usw. für irgendwelche Kontras)"."""
    t = knock_table(STRONG)
    run(t, "trump:h bid:normal pass pass pass kontra pass rekontra pass pass")
    assert t.multiplier == 4
    run(t, "marry:Kh Js Jh Jc Ah Qs Td Ks declare")
    assert t.result is not None and t.result.points == 3 * 4 and t.result.multiplier == 4


# ---------------------------------------------------------------- card play
def test_vorhand_leads_a_trump_contract() -> None:
    """seeds/004: "Bei einem Spiel mit einer Trumpffarbe spielt Vorhand zum ersten Stich
    aus." """
    t = knock_table(STRONG)
    normal(t)
    assert t.to_move == 1 and t.active == (0, 1, 2, 3)


def test_stichzwang_over_the_partner() -> None:
    """seeds/004: "wenn möglich müssen sie eine Karte spielen, die die höchste bis dahin in
    diesem Stich gespielte Karte schlägt (selbst wenn das bedeutet, daß ein Spieler die
    höchste Karte seines Partners übernehmen muß)" — seat 3 must take its partner's Ks."""
    t = knock_table(["Qh Jh Ts Ac Jc", "Ah Th Kh Ks Qd", "Qs Ad Kd Jd Td", "As Js Tc Kc Qc"])
    normal(t)
    refused(t, "Kd", Rule.NOT_IN_HAND)  # not Vorhand's card
    run(t, "Ks Qs")
    assert [a.token for a in t.legal_actions()] == ["As"]
    refused(t, "Js", Rule.STICHZWANG)
    refused(t, "Tc", Rule.FARBZWANG)
    run(t, "As")
    assert [a.token for a in t.legal_actions()] == ["Ts"]


def test_must_follow_suit_before_trumping_and_trump_when_void() -> None:
    """seeds/004: "Die Spieler müssen, wenn es ihnen möglich ist, Farbe bedienen" and "Ein
    Spieler, der keine Karte der ausgespielten Farbe hat, muß – wenn möglich – Trumpf
    spielen." """
    t = knock_table(["Qh Jc Tc Kc Qc", "Ad Ah Th Kh Td", "Jh Ac Kd Qd Jd", "As Ts Ks Qs Js"])
    normal(t, "d")  # trump Karo
    run(t, "Ah")
    refused(t, "Kd", Rule.FARBZWANG)  # seat 2 holds Jh: Farbzwang before trumping
    run(t, "Jh")
    assert len(t.legal_actions()) == 5  # seat 3: no Herz, no trump: any card
    run(t, "Js Qh")
    assert t.tricks[-1].winner == 1
    run(t, "Th")
    refused(t, "Ac", Rule.TRUMPFZWANG)  # seat 2 is void in Herz and holds trumps
    run(t, "Jd Qs Jc")
    assert t.tricks[-1].winner == 2  # the trump takes it


def test_over_trump_and_under_trump() -> None:
    """seeds/004: "Wenn schon ein Trumpf in diesem Stich liegt und der Spieler nicht bedienen
    konnte, muß er, wenn er kann, einen höheren Trumpf spielen. Wenn der Stich einen Trumpf
    enthält, den man nicht übernehmen kann, muß man dennoch einen niedrigeren Trumpf
    zugeben." """
    t = knock_table(["Jh Tc Ac Qs Js", "Ad Ah Th Kh Qh", "Kd Jd Kc Qc Jc", "Qd Td As Ts Ks"])
    normal(t, "d")
    run(t, "Ah Kd")  # seat 2, void in Herz, trumps
    assert [a.token for a in t.legal_actions()] == ["Td"]  # seat 3 must over-trump
    refused(t, "Qd", Rule.UEBERSTECHEN)
    run(t, "Td Jh")
    assert t.tricks[-1].winner == 3
    run(t, "Ts Qs Ad")
    assert [a.token for a in t.legal_actions()] == ["Jd"]  # seat 2 must under-trump
    refused(t, "Kc", Rule.TRUMPFZWANG)


# ---------------------------------------------------------------- marriages
def test_vorhand_may_announce_at_once_and_40_in_trumps() -> None:
    """seeds/004: "Vorhand kann das schon beim ersten Stich tun" and "das Team bekommt 40
    Kartenpunkte, wenn es König und Dame von Trumpf sind"."""
    t = knock_table(STRONG)
    normal(t)
    assert t.can_announce_marriage(Card.parse("Kh"))
    t.announce_marriage(Card.parse("Kh"))
    assert t.marriages == [(1, Suit.HEARTS)] and t.side_marriage_augen == [40, 0]
    assert Card.parse("Qh") in t.view(0).known[1]


def test_a_marriage_is_allowed_to_the_player_who_won_a_trick() -> None:
    """seeds/004: "Jeder andere Spieler muß zunächst einen Stich gewinnen" — seat 2 wins
    the first trick, then leads its Karo marriage (20)."""
    t = knock_table(["Tc Kc Qc Jc Js", "Ah Th Kh Jd Qs", "Ad Kd Qd As Ks", "Jh Qh Ts Ac Td"])
    normal(t)
    run(t, "Jd Ad Td Jc")
    assert t.to_move == 2 and t.tricks_won[2] == 1
    assert t.can_announce_marriage(Card.parse("Kd")) and t.can_announce_marriage(Card.parse("Qd"))
    run(t, "marry:Qd")
    assert t.side_marriage_augen == [0, 20]


def test_only_the_declarer_announces_in_a_schnapser() -> None:
    """seeds/004: "bei einem Schnapser und Kontra-Schnapser [kann] nur der Spielmacher
    Hochzeiten melden ...; wenn der Partner von Vorhand einen Schnapser spielt, kann
    Vorhand keine Hochzeiten melden." """
    t = knock_table(["Tc Kc Qc Jc Ks", "Kh Qh Jh Qs Js", "Kd Qd Jd Td Ad", "Ah Th As Ts Ac"])
    run(t, "trump:h bid:normal pass bid:schnapser pass pass pass pass")
    assert t.contract is not None and t.contract.name == "schnapser" and t.declarer == 3
    assert t.to_move == 1  # Vorhand leads, but may not announce
    assert not t.can_announce_marriage(Card.parse("Kh"))
    refused(t, "marry:Kh", Rule.MARRIAGE)


# ---------------------------------------------------------------- the normal game
def test_genug_with_66_scores_3_against_no_trick() -> None:
    """seeds/004: "Wenn ein Spieler während eines Normalspiels glaubt, daß sein Team
    mindestens 66 Punkte ... erreicht hat, kann er das Spiel beenden, indem er „Genug“
    sagt" and "3 Spielpunkte, wenn die Gegner keinen Stich gemacht haben"."""
    t = knock_table(STRONG)
    normal(t)
    run(t, "marry:Kh Js Jh Jc")  # 40 + 4 + 2 + 2 + 2
    assert t.augen(0) == 50
    run(t, "Ah Qs Td Ks")  # 11 + 3 + 10 + 4 -> 78
    assert t.augen(0) == 78
    t.declare()
    r = t.result
    assert r is not None and r.reason is TableEndReason.DECLARED
    assert r.winners == (1, 3) and r.points == 3 and r.augen == (78, 0)


def test_wrong_genug_gives_the_other_team_the_points() -> None:
    """seeds/004: "wenn man „Genug“ sagt und es stellt sich heraus, daß man weniger als die
    notwendigen 66 Punkte hat, dann gewinnt das andere Team so viele Spielpunkte, die man
    gewonnen hätte, wenn die Ansage richtig gewesen wäre." """
    t = knock_table(STRONG)
    normal(t)
    run(t, "marry:Kh Js Jh Jc declare")
    r = t.result
    assert r is not None and r.reason is TableEndReason.WRONG_DECLARATION
    assert r.winners == (0, 2) and r.points == 3  # the other side had no trick


def test_genug_needs_a_trick_just_won_or_a_marriage() -> None:
    """seeds/004: "Man kann das Spiel mit der Ansage „Genug“ beenden, wenn man gerade einen
    Stich gemacht hat oder direkt nach einer Meldung." """
    t = knock_table(STRONG)
    normal(t)
    refused(t, "declare", Rule.DECLARE)
    assert t.can_declare(Suit.HEARTS)  # showing the marriage and going out
    run(t, "Kh")
    refused(t, "declare", Rule.NOT_ON_LEAD)


def test_declare_with_marriage_counts_it_without_playing() -> None:
    """seeds/004: "Man kann das Spiel mit der Ansage „Genug“ beenden, wenn man gerade einen
    Stich gemacht hat oder direkt nach einer Meldung. Der Stich wird nicht zu Ende
    gespielt"."""
    t = knock_table(STRONG)
    normal(t)
    run(t, "Ah Qs Jh Tc")  # 11 + 3 + 2 + 10
    assert t.augen(0) == 26 and t.to_move == 1
    t.declare(Suit.HEARTS)  # 40 more: 66
    r = t.result
    assert r is not None and r.reason is TableEndReason.DECLARED and r.points == 3 and r.augen == (66, 0)
    assert Card.parse("Kh") in t.hands[1] and Card.parse("Qh") in t.hands[1]


def test_last_trick_wins_one_point() -> None:
    """seeds/004: "Hat niemand vor dem Ausspiel zum letzten Stich das Spiel beendet ...,
    dann gewinnt das Team, das den letzten Stich macht, einen Spielpunkt"."""
    t = knock_table(STRONG)
    normal(t)
    while not t.is_over:
        plays = [a for a in t.legal_actions() if a.kind.name == "PLAY"]
        t.apply(plays[0])
    r = t.result
    assert r is not None and r.reason is TableEndReason.LAST_TRICK and r.points == 1
    last = t.tricks[-1].winner
    assert set(r.winners) == {last, (last + 2) % 4}


def test_declaration_points_by_the_opponents_augen() -> None:
    """seeds/004: "1 Spielpunkt, wenn die Gegenspieler 33 oder mehr Kartenpunkte haben;
    2 Spielpunkte, wenn die Gegner wenigstens einen Stich gemacht haben, aber weniger als
    33 Punkte erreicht haben" — checked over many random games."""
    from bummerl.rng import SplitMix64

    seen = set()
    for seed in range(300):
        t = TableGame.deal("bauernschnapsen", seed=seed)
        rng = SplitMix64(seed)
        run(t, "cut")
        if t.is_over:
            continue
        t.apply(t.legal_actions()[0])
        run(t, "bid:normal pass pass pass pass pass")
        while not t.is_over:
            acts = t.legal_actions()
            declares = [a for a in acts if a.token == "declare"]
            if declares and max(t.augen(0), t.augen(1)) >= 66 and t.augen(t.side[t.to_move]) >= 66:
                t.apply(declares[0])
            else:
                plays = [a for a in acts if a.kind.name == "PLAY"]
                t.apply(plays[rng.below(len(plays))])
        r = t.result
        assert r is not None
        if r.reason is TableEndReason.DECLARED:
            loser = 1 - t.side[r.winners[0]]
            expected = 3 if t.side_tricks[loser] == 0 else (2 if t.augen(loser) < 33 else 1)
            assert r.points == expected
            seen.add(expected)
    assert {1, 2} <= seen


# ---------------------------------------------------------------- contracts
def bettler_game(hands: list[str], **options: object) -> TableGame:
    t = knock_table(hands, **options)
    run(t, "trump:h bid:normal bid:bettler pass pass pass pass pass")
    assert t.contract is not None and t.contract.name == "bettler" and t.declarer == 2
    return t


def test_bettler_won_partner_sits_out() -> None:
    """seeds/004: "Der Ansager des Bettlers darf keinen Stich machen um zu gewinnen. Der
    Partner des Bettlerspielers nimmt nicht am Spiel teil." Bettler: no trump, the bidder
    leads, 4 points."""
    t = bettler_game(BETTLER)
    assert t.active == (1, 2, 3) and t.to_move == 2 and t.play_trump is None
    run(t, "Jh Ac Kh")  # seat 1 must beat Jh
    run(t, "Ad Jd As Td Qh Tc Ah Jc Kc Th Js Ts")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_WON
    assert r.winners == (0, 2) and r.points == 4
    assert all(len(tr.cards) == 3 for tr in t.tricks)


def test_bettler_lost_when_the_bidder_takes_a_trick() -> None:
    """seeds/004: "Der Ansager des Bettlers darf keinen Stich machen um zu gewinnen." """
    t = bettler_game(["Kd Qd Qc Ks Qs", "Jh Th Kh Ad Td", "Ah Qh Jd Jc Js", "Ac Tc Kc As Ts"])
    run(t, "Ah Kc Jh")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.winners == (1, 3) and r.points == 4


def test_bettler_variants() -> None:
    """seeds/004 Varianten: "Die Rangfolge der Karten wird geändert; von hoch zu niedrig
    A – K – D – B – 10", "Der Bettler zählt 5 Spielpunkte", "Der Partner des Spielers,
    der Bettler spielt, spielt mit"."""
    t = bettler_game(BETTLER, bettler_ace_high=True, bettler_points=5, bettler_partner_plays=True)
    assert t.active == (0, 1, 2, 3)
    run(t, "Jh Ac")
    # Seat 0 (partner) follows; seat 1 must beat Jh: with A-K-O-U-10 the Ten is lowest.
    run(t, "Qc")
    assert sorted(a.token for a in t.legal_actions()) == ["Ah", "Kh"]


def test_schnapser_won() -> None:
    """seeds/004: "Um zu gewinnen, muß der Ansager des Schnapsers die ersten drei Stiche
    machen und dabei mindestens 66 Punkte machen"; 6 points; only three tricks played."""
    t = knock_table(["Tc Kc Qc Jc Ks", "Ah Th Kh Qh As", "Kd Qd Jd Qs Js", "Jh Ts Ad Td Ac"])
    run(t, "trump:h bid:schnapser pass pass pass pass pass")
    run(t, "marry:Kh Js Jh Jc Ah Qs Ts Ks Th Jd Td Qc")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_WON and r.points == 6 and r.winners == (1, 3)
    assert len(t.tricks) == 3 and all(len(h) == 2 for h in t.hands)


def test_schnapser_lost_when_a_defender_takes_a_trick() -> None:
    """seeds/004: "Das Spiel ist verloren, wenn irgendein anderer Spieler einen Stich macht";
    the defenders score the 6 points."""
    t = knock_table(["Tc Kc Qc Jc Ks", "Ah Th Kh Qh Jd", "Kd Qd Ad Qs Js", "Jh Ts As Td Ac"])
    run(t, "trump:h bid:schnapser pass pass pass pass pass")
    run(t, "Jd Ad Td Tc")  # seat 2 must beat the Unter
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.winners == (0, 2) and r.points == 6


def test_schnapser_lost_by_the_partner() -> None:
    """seeds/004: "- selbst dann, wenn es der Partner des Spielmachers ist!" — the partner,
    void in Pik, must trump Vorhand's Pik Ace and so loses the Schnapser."""
    t = knock_table(["Tc Kc Qc Ts Ks", "Ah Th Kh Qh As", "Kd Qd Jd Qs Js", "Jh Ad Jc Td Ac"])
    run(t, "trump:h bid:schnapser pass pass pass pass pass")
    run(t, "As Js")
    assert [a.token for a in t.legal_actions()] == ["Jh"]  # void in Pik: must trump
    run(t, "Jh Ks")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.winners == (0, 2)


def test_schnapser_lost_under_66() -> None:
    """seeds/004: "die ersten drei Stiche machen und dabei mindestens 66 Punkte" — three
    tricks with 56 Augen lose."""
    t = knock_table(["Td Tc Ts Ac As", "Jh Qh Kh Ah Th", "Qd Jd Jc Js Qc", "Qs Kd Kc Ks Ad"])
    run(t, "trump:h bid:schnapser pass pass pass pass pass")
    run(t, "Jh Jd Qs Td Qh Jc Kd Tc Kh Js Kc Ts")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.augen == (56, 0)
    assert r.winners == (0, 2) and r.points == 6


def test_gang_won_and_lost() -> None:
    """seeds/004: Gang "jeder ... Ohne Trumpf ... Der Ansagende ... muß alle 5 Stiche
    machen", 9 points; the partner sits out (RULES.md default, option gang_partner_plays)."""
    hands = ["Kd Qd Jd Qs Js", "Kh Qh Jh Td Ad", "Kc Qc Jc Ks Tc", "Ah Th Ac Ts As"]
    t = knock_table(hands)
    run(t, "trump:h bid:normal pass bid:gang pass pass pass pass")
    assert t.declarer == 3 and t.active == (0, 2, 3) and t.to_move == 3 and t.play_trump is None
    run(t, "Ah Jd Kc Th Qd Qc Ac Js Jc As Qs Ks Ts Kd Tc")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_WON and r.points == 9 and r.winners == (1, 3)
    hands = ["Kd Qd Jd Qs Js", "Kh Qh Jh Td Ad", "Kc Qc Jc As Tc", "Ah Th Ac Ts Ks"]
    t = knock_table(hands)
    run(t, "trump:h bid:normal pass bid:gang pass pass pass pass")
    run(t, "Ks Qs As")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.winners == (0, 2)


def test_zehnerloch_ranks_the_ace_lowest() -> None:
    """seeds/004: Zehner-Gang "muß alle fünf Stiche machen; die Rangfolge der Karten ist in
    allen Farben 10-K-D-B-A", 10 points."""
    hands = ["Kd Qd Jd Qs Js", "Kh Qh Jh Ad As", "Th Td Tc Ts Kc", "Ah Ac Qc Jc Ks"]
    t = knock_table(hands)
    run(t, "trump:h bid:normal bid:zehnerloch pass pass pass pass pass")
    assert t.declarer == 2 and t.to_move == 2 and t.active == (1, 2, 3)
    run(t, "Th Ah Kh")  # nothing beats the Ten
    assert t.tricks[-1].winner == 2
    run(t, "Td Ks Ad Tc Ac Qh Ts Qc As Kc Jc Jh")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_WON and r.points == 10 and r.winners == (0, 2)


def test_zehnerloch_lost_with_an_ace() -> None:
    """seeds/004: "10-K-D-B-A": an Ace led in a Zehnerloch is beaten by every card of its suit."""
    hands = ["Kd Qd Jd Qs Js", "Kh Qh Jh Ad As", "Ah Td Tc Ts Kc", "Th Ac Qc Jc Ks"]
    t = knock_table(hands)
    run(t, "trump:h bid:normal bid:zehnerloch pass pass pass pass pass")
    run(t, "Ah Th")  # seat 3 must beat the Ace: every heart does
    assert sorted(a.token for a in t.legal_actions()) == ["Jh", "Kh", "Qh"]
    run(t, "Jh")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.winners == (1, 3) and r.points == 10


def test_kontra_schnapser_won() -> None:
    """seeds/003: "Der Kontraschnapser kann von einem Gegenspieler des Rufers gespielt
    werden. Die vom Rufer gerufene Trumpffarbe zählt, der Rufer spielt aus und der
    Ansager muss das Spiel gewinnen." 12 points."""
    hands = ["Tc Kc Qc Jc Ks", "Jh Qd Jd Js Qs", "Ah Th Kh Qh As", "Ac Kd Td Ad Ts"]
    t = knock_table(hands)
    run(t, "trump:h bid:normal bid:kontra-schnapser pass pass pass pass pass")
    assert t.declarer == 2 and t.to_move == 1  # Vorhand leads
    run(t, "Qd Ah Ad Jc")  # seat 2 void in Karo trumps; seat 3 follows Karo with the Ace
    assert t.tricks[-1].winner == 2
    run(t, "marry:Kh Ac Tc Jh")
    run(t, "Th Ts Ks Js")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_WON and r.points == 12 and r.winners == (0, 2)


def test_kontra_schnapser_lost() -> None:
    """seeds/004: Kontra-Schnapser "muss die ersten drei Stiche machen; und in ihnen muß er
    mindestens 66 Punkte erreichen" — three tricks with 58 Augen lose."""
    hands = ["Tc Kc Qc Jc Ks", "Jh Qd Jd Js Qs", "Ah Th Kh Qh As", "Ac Kd Td Ad Ts"]
    t = knock_table(hands)
    run(t, "trump:h bid:normal bid:kontra-schnapser pass pass pass pass pass")
    run(t, "Js As Ts Ks Qh Kd Jc Jh Kh Td Qc Qd")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.augen == (58, 0)
    assert r.winners == (1, 3) and r.points == 12


def test_bauernschnapser_won() -> None:
    """seeds/003: Bauernschnapser "Wie beim Gang ist das Ziel, alle Stiche zu machen. Im
    Gegensatz zum Gang gibt es Trumpf." seeds/004: Vorhand leads, 12 points; the partner
    plays."""
    t = knock_table(ALL_TRUMPS)
    run(t, "trump:h bid:bauernschnapser pass pass pass pass pass")
    assert t.active == (0, 1, 2, 3) and t.to_move == 1
    for card in ["Ah", "Th", "Kh", "Qh", "Jh"]:
        run(t, card)
        while t.trick:
            t.apply(t.legal_actions()[0])
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_WON and r.points == 12 and r.winners == (1, 3)


def test_bauernschnapser_lost_to_the_partners_trump() -> None:
    """seeds/004: Bauernschnapser "muß alle fünf Stiche gewinnen"; "selbst dann, wenn es der
    Partner des Spielmachers ist" — the partner, void in Kreuz, must trump Vorhand's Ace."""
    t = knock_table(["Jd Qd Kd Td Ad", "Ah Th Kh Qh Ac", "As Qc Kc Tc Jc", "Jh Qs Ks Ts Js"])
    run(t, "trump:h bid:bauernschnapser pass pass pass pass pass")
    run(t, "Ac Jc")
    assert [a.token for a in t.legal_actions()] == ["Jh"]
    run(t, "Jh Ad")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.winners == (0, 2) and r.points == 12


def test_bauernloch_option() -> None:
    """seeds/003: Bauernloch "Es müssen gleich wie beim Zehnerloch alle Stiche gemacht
    werden, jedoch mit Trumpf" — Zehnerloch order and the called trump."""
    t = knock_table(ALL_TRUMPS, bauernloch=True)
    run(t, "trump:h bid:bauernloch pass pass pass pass pass")
    assert t.contract is not None and t.contract.order is not None and t.play_trump is Suit.HEARTS
    run(t, "Ah Ac As Ad")  # the Ace is the lowest trump and still beats every other suit
    assert t.tricks[-1].winner == 1
    run(t, "Th Tc Ts Td Kh Kc Ks Kd Qh Qc Qs Qd Jh Jc Js Jd")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_WON and r.points == 12 and r.winners == (1, 3)


def test_bauernloch_lost_to_the_partners_ten() -> None:
    """seeds/003: Bauernloch "wie beim Zehnerloch" — the partner's trump Ten beats Vorhand's
    trump King and must be played (Stichzwang), so the Bauernloch is lost."""
    t = knock_table(["Jc Ts Ks Qs Js", "Ah Kh Qh Jh As", "Ad Td Kd Qd Jd", "Th Ac Tc Kc Qc"], bauernloch=True)
    run(t, "trump:h bid:bauernloch pass pass pass pass pass")
    run(t, "Kh Ad")
    assert [a.token for a in t.legal_actions()] == ["Th"]
    run(t, "Th Jc")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.winners == (0, 2) and r.points == 12


def test_assen_bettler_lost_with_its_ace() -> None:
    """seeds/003: Assen-Bettler "Regeln gleich wie beim Bettler", 5 points: the bidder who
    leads the Kreuz Ace takes the trick and loses."""
    t = knock_table(BETTLER, assen_bettler=True)
    run(t, "trump:h bid:normal bid:bettler bid:assen-bettler pass pass pass pass pass")
    assert t.contract is not None and t.contract.name == "assen-bettler" and t.declarer == 3
    assert t.active == (0, 2, 3) and t.to_move == 3
    run(t, "Ac Qc Jc")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.winners == (0, 2) and r.points == 5


def test_farbenring_is_claimed() -> None:
    """seeds/004: Farben-Gang "muß alle fünf Karten einer Farbe haben", 18 points; the
    cards are shown and the game is won without play (RULES.md: "contracts that are
    claimed by showing the cards")."""
    t = knock_table(ALL_TRUMPS)
    run(t, "trump:h bid:normal bid:farbenring pass pass pass")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CLAIMED and r.points == 18 and r.winners == (0, 2)
    assert t.view(1).known[2] == frozenset(parse_cards("Jc Qc Kc Tc Ac"))


def test_herrenschnapser_is_claimed() -> None:
    """seeds/003: "Wenn der Rufer alle Karten der Trumpffarbe hält, kann er einen
    Herrenschnapser ansagen", 24 points."""
    t = knock_table(ALL_TRUMPS)
    run(t, "trump:h bid:herrenschnapser pass pass pass")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CLAIMED and r.points == 24 and r.winners == (1, 3)


def test_kontra_bauernschnapser_won_and_lost() -> None:
    """seeds/003: Kontrabauernschnapser "die vom Rufer gerufene Trumpffarbe zählt. Der Rufer
    spielt die erste Karte aus und der Ansager muss alle Stiche machen", 24 points."""
    hands = ["Jd Qd Kd Td Ad", "Jh Jc Qc Js Qs", "Ah Th Kh Qh As", "Ac Tc Kc Ts Ks"]
    t = knock_table(hands)
    run(t, "trump:h bid:normal bid:kontra-bauernschnapser pass pass pass pass pass")
    assert t.declarer == 2 and t.to_move == 1
    run(t, "Jh Ah Ks Jd")
    run(t, "Th Ts Qd Jc Kh Tc Kd Qc Qh Kc Td Js As Ac Ad Qs")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_WON and r.points == 24 and r.winners == (0, 2)
    hands = ["Jd Qd Kd Td Ad", "Jh Jc Qc Js As", "Ah Th Kh Qh Qs", "Ac Tc Kc Ts Ks"]
    t = knock_table(hands)
    run(t, "trump:h bid:normal bid:kontra-bauernschnapser pass pass pass pass pass")
    run(t, "As Qs Ts Ad")
    r = t.result
    assert r is not None and r.reason is TableEndReason.CONTRACT_LOST and r.winners == (1, 3) and r.points == 24


# ---------------------------------------------------------------- the match
def test_match_to_24_bummerl_and_schneider() -> None:
    """seeds/004: "Sobald ein Team 24 oder mehr Spielpunkte erreicht, gewinnt das Team die
    Partie ... ein „Bummerl“ ... Haben die Verlierer keinen Spielpunkt ..., sind sie
    „Schneider“; das zählt als doppelter Gewinn und wird mit zwei Bummerln belohnt." """
    m = TableMatch("bauernschnapsen", seed=1)
    m.score(TableResult("kontra-bauernschnapser", 2, (0, 2), 24, TableEndReason.CONTRACT_WON, (120, 0)))
    assert m.is_over and m.winners == (0,) and m.bummerl == [0, 2]
    m = TableMatch("bauernschnapsen", seed=1)
    m.score(TableResult("normal", 1, (1, 3), 3, TableEndReason.DECLARED, (90, 30)))
    m.score(TableResult("gang", 0, (0, 2), 9, TableEndReason.CONTRACT_WON, (120, 0)))
    m.score(TableResult("kontra-schnapser", 0, (0, 2), 12, TableEndReason.CONTRACT_WON, (70, 0)))
    assert not m.is_over and m.scores == [21, 3]
    m.score(TableResult("normal", 1, (0, 2), 3, TableEndReason.DECLARED, (80, 40)))
    assert m.is_over and m.winners == (0,) and m.bummerl == [0, 1]


def test_the_deal_passes_to_vorhand_and_stays_after_a_redeal() -> None:
    """seeds/003: "Am Ende jeden Spiels wird der Rufer zum Geber"; after a redeal (seeds/003,
    "so muss neu gemischt werden") the same dealer deals again."""
    m = TableMatch("bauernschnapsen", seed=3, first_dealer=2)
    assert m.deal_next().dealer == 2
    m.score(TableResult("normal", 3, (1, 3), 1, TableEndReason.LAST_TRICK, (60, 60)))
    assert m.deal_next().dealer == 3
    m.score(TableResult("", None, (), 0, TableEndReason.REDEAL, (0, 0)))
    assert m.deal_next().dealer == 3
    assert m.scores == [0, 1]


def test_a_whole_match_with_bots_ends_correctly() -> None:
    """seeds/004: the match ends when a team reaches 24."""
    from bummerl.bots import make_bot

    m = TableMatch("bauernschnapsen", seed=5)
    bots = [make_bot("heuristic", seed=s, variant=m.variant) for s in range(4)]
    while not m.is_over:
        t = m.deal_next()
        while not t.is_over:
            t.apply(bots[t.to_move].choose(t.view(t.to_move)))
        m.complete(t)
    assert max(m.scores) >= 24 and min(m.scores) < 24
    assert sum(r.points for r in m.results if 0 in r.winners) == m.scores[0]


def test_kontra_on_the_normal_game_outranks_the_bettler() -> None:
    """seeds/004 Varianten: "Sagt einer der Gegenspieler von Vorhand Kontra gegen das
    Normalspiel, dann ist das höherrangig als der Bettler. ... selbst wenn Vorhand einen
    Bettler ansagt, kann ein Gegenspieler ein Normalspiel kontrieren – und das macht die
    Ansage des Bettlers ungültig und zwingt Vorhand, ein Normalspiel mit dem gewählten
    Trumpf zu spielen, es sei denn, irgendeiner reizt einen höheren Kontrakt"."""
    t = knock_table(STRONG, kontra_beats_bettler=True)
    run(t, "trump:h bid:bettler")
    assert t.can_bid("kontra-normal")
    run(t, "bid:kontra-normal pass pass pass")
    assert t.contract is not None and t.contract.name == "normal" and t.declarer == 1
    assert t.multiplier == 2 and t.phase is Phase.DOUBLING and t.to_move == 3  # Rekontra next
    run(t, "pass pass")
    assert t.phase is Phase.PLAY and t.to_move == 1
    t = knock_table(STRONG, kontra_beats_bettler=True)
    run(t, "trump:h bid:bettler bid:kontra-normal pass bid:gang pass pass pass pass")
    assert t.contract is not None and t.contract.name == "gang"
    assert "kontra-normal" not in [c.name for c in BAUERNSCHNAPSEN.contracts]
