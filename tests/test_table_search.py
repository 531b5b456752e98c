"""The ``search`` table bot: worlds consistent with the view, legal choices, the registry.

The worlds must respect what the follow rules prove (RULES.md, Bauernschnapsen:
"Play: follow suit, beat if possible (even a partner's card), trump and
over-trump if void"), and the bot sees only its view (issue 4: "the view never
shows a hidden card"; the partner's cards never).
"""

from __future__ import annotations

import pytest

from bummerl.bots import Bot, UnknownBotError, make_bot
from bummerl.bots.table_bots import TableBot
from bummerl.bots.table_search import TableSearchBot, constraints, sample_world
from bummerl.cards import Card, Suit, card_order, deck
from bummerl.protocol import ProcessBot
from bummerl.rng import SplitMix64
from bummerl.table_game import TableGame
from bummerl.variants import find_table_variant, find_variant
from bummerl.variants.bauernschnapsen import Phase
from bummerl.view import TableView

VARIANTS = ("bauernschnapsen", "dreierschnapsen")


def played_out(variant: str, seed: int, stop: int) -> TableGame:
    """A game with heuristic bidding and random play, stopped after ``stop`` card-play actions."""
    n = 4 if variant == "bauernschnapsen" else 3
    t = TableGame.deal(variant, seed=seed, dealer=seed % n)
    bots = [make_bot("heuristic" if seed % 2 else "random", seed * 5 + s, t.variant) for s in range(n)]
    done = 0
    while not t.is_over and (t.phase is not Phase.PLAY or done < stop):
        if t.phase is Phase.PLAY:
            done += 1
        t.apply(bots[t.to_move].choose(t.view(t.to_move)))
    return t


def test_constraints_farbzwang_and_trumpfzwang() -> None:
    """seeds/004: "Man muß Farbe bedienen ... Kann man nicht bedienen, muß man
    trumpfen": a seat that threw a card of another suit, not trump, is void in both."""
    t = TableGame.deal("bauernschnapsen", seed=3, dealer=0)
    for token in ["cut", "trump:d", "bid:normal", "pass", "pass", "pass", "pass", "pass", "Qs", "Ts", "Jc", "As"]:
        t.apply(token)
    forbidden = constraints(t.view(1))
    assert {c.suit for c in forbidden[3]} == {Suit.SPADES, Suit.DIAMONDS}
    assert len(forbidden[3]) == 10
    # Seat 2 beat the Qs with the Ts, seat 0 beat the Ts with the As: nothing proven.
    assert forbidden[0] == frozenset() and forbidden[2] == frozenset()


def test_constraints_stichzwang() -> None:
    """seeds/004: "muß man ... mit einer höheren Karte derselben Farbe stechen, wenn man
    kann": the second player who followed under the lead has no higher card of the suit."""
    found = 0
    for seed in range(200):
        t = played_out("bauernschnapsen", seed, 40)
        view = t.view(0)
        contract = view.variant.contract(view.contract) if view.contract else None
        if contract is None or contract.order is not None:
            continue
        for trick in view.tricks:
            lead, follow = trick.cards[0], trick.cards[1]
            seat = (trick.leader + 1) % 4
            while seat not in view.active:
                seat = (seat + 1) % 4
            if seat == 0 or lead.suit != follow.suit or follow.rank > lead.rank:
                continue
            higher = {c for c in deck(20) if c.suit == lead.suit and c.rank > lead.rank}
            assert higher <= constraints(view)[seat]
            found += 1
    assert found >= 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_sampled_worlds_agree_with_the_view_and_the_truth(variant: str) -> None:
    """Every world gives each seat its number of cards and its shown cards, never a card
    the viewer has seen elsewhere, never a proven-absent card; the true deal is one of
    the worlds the constraints allow (the constraints are never wrong)."""
    rng = SplitMix64(1)
    checked = 0
    for seed in range(60):
        t = played_out(variant, seed, 1 + seed % 12)
        if t.is_over:
            continue
        for seat in t.active:
            view = t.view(seat)
            forbidden = constraints(view)
            for s, cards in forbidden.items():
                assert not cards & set(t.hands[s]), (t.position(), seat, s)
            seen = set(view.hand) | set(view.played())
            for _ in range(3):
                world = sample_world(view, rng, forbidden)
                for s, hand in world.items():
                    assert len(hand) == view.hand_sizes[s]
                    assert view.known[s] <= set(hand)
                    assert not set(hand) & seen
                    assert not set(hand) & forbidden[s]
                all_cards = [c for h in world.values() for c in h]
                assert len(all_cards) == len(set(all_cards))
            checked += 1
    assert checked > 50


def test_dreier_defenders_do_not_know_the_laid_away_cards() -> None:
    """seeds/004 (Talon-Schnapsen): the soloist "legt zwei beliebige Karten verdeckt ab":
    in a defender's worlds the soloist's hand is sampled from all unseen cards, the two
    laid away included; the soloist's own worlds never contain them."""
    t = TableGame.deal("dreierschnapsen", seed=8, dealer=1)
    for token in ["cut", "trump:s", "bid:normal", "pass", "pass", "discard:Qh", "discard:Js", "pass", "pass"]:
        t.apply(token)
    rng = SplitMix64(3)
    soloist_seat = t.declarer
    assert soloist_seat is not None
    defender = t.view((soloist_seat + 1) % 3)
    assert Card.parse("Qh") in defender.unseen()
    seen_in_soloist = set()
    for _ in range(60):
        seen_in_soloist |= set(sample_world(defender, rng)[soloist_seat])
    assert Card.parse("Qh") in seen_in_soloist or Card.parse("Js") in seen_in_soloist
    soloist = t.view(soloist_seat)
    for _ in range(20):
        world = sample_world(soloist, rng)
        assert not {Card.parse("Qh"), Card.parse("Js")} & {c for h in world.values() for c in h}


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_bot_plays_whole_games_legally(variant: str) -> None:
    n = 4 if variant == "bauernschnapsen" else 3
    for seed in range(3):
        t = TableGame.deal(variant, seed=seed, dealer=seed % n)
        bots: list[TableBot] = [TableSearchBot(seed * 4 + s, worlds=3) for s in range(n)]
        while not t.is_over:
            action = bots[t.to_move].choose(t.view(t.to_move))
            assert action in t.legal_actions()
            t.apply(action)


def test_search_bot_depends_only_on_the_view() -> None:
    """Two deals that differ only in cards the player cannot see give the same view and
    the same choice (a bot never gets a hidden card)."""
    t = TableGame.deal("bauernschnapsen", seed=3, dealer=0)
    tokens = ["cut", "trump:d", "bid:normal", "pass", "pass", "pass", "pass", "pass", "Qs"]
    for token in tokens:
        t.apply(token)
    # Swap an unplayed card of seat 1 with one of seat 3 in the pack: seat 2 cannot tell.
    deck = list(t.deck)
    a, b = deck.index(Card.parse("Kc")), deck.index(Card.parse("Jh"))
    deck[a], deck[b] = deck[b], deck[a]
    other = TableGame.replay(t.variant, deck, 0, tokens)
    assert other.hands[1] != t.hands[1]
    v1, v2 = t.view(2), other.view(2)
    assert v1 == v2
    assert TableSearchBot(7, worlds=4).choose(v1) == TableSearchBot(7, worlds=4).choose(v2)


def test_registry_makes_table_bots_by_name() -> None:
    """``make_bot(name, seed, variant=...)`` gives table bots for table variants."""
    bauern = find_table_variant("bauernschnapsen")
    for name in ("random", "heuristic", "search"):
        bot = make_bot(name, 1, variant=bauern)
        assert isinstance(bot, TableBot) and bot.name == name
        assert isinstance(bot.choose(TableGame.deal(bauern, 1).view(3)), object)
    assert isinstance(make_bot("heuristic", 1, variant=find_variant("schnapsen")), Bot)
    with pytest.raises(UnknownBotError, match="bots that play Bauernschnapsen: random, heuristic, search"):
        make_bot("nonsense", variant=bauern)
    # The bot protocol plays table games too (one process per seat): tests/test_protocol.py.
    assert isinstance(make_bot("cmd:python bot.py", variant=bauern), ProcessBot)
    assert isinstance(make_bot("search", 2, variant=bauern), TableSearchBot)
    assert isinstance(TableGame.deal(bauern, 1).view(0), TableView)


def test_sampled_bidding_estimates_contracts() -> None:
    """Four Aces and the Ten of the fifth Ace's suit: every card is a master, so a Gang
    (seeds/004: "muß alle 5 Stiche machen") is won in every world and a Bettler ("darf
    keinen Stich machen") in none; the bot bids a contract it estimates as won."""
    first = [Card.parse(c) for c in ("As", "Ah", "Ad")]
    last = [Card.parse(c) for c in ("Ac", "Ts")]
    rest = [c for c in deck(20) if c not in first + last]
    pack = first + rest[:9] + last + rest[9:]
    t = TableGame.from_deck("bauernschnapsen", pack, dealer=0)
    t.apply("cut")
    t.apply("trump:s")
    assert sorted(t.hands[1], key=card_order) == sorted(first + last, key=card_order)
    view = t.view(1)
    bot = TableSearchBot(3, worlds=6)
    v = view.variant
    assert bot.contract_success(view, v.contract("gang")) == 1.0
    assert bot.contract_success(view, v.contract("bettler")) == 0.0
    choice = bot.choose(view)
    assert choice.contract is not None and choice.contract != "normal"
    assert bot.contract_success(view, v.contract(choice.contract)) >= 0.8
    assert TableSearchBot(3, bidding="heuristic").choose(view).contract in ("gang", "normal")


def test_time_cap_stops_sampling_after_the_minimum(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 3: every named bot has "a time or budget per move".  A spent cap stops
    the search after ``MIN_WORLDS`` worlds; without a cap all worlds are solved."""
    import bummerl.bots.table_search as ts

    calls: list[int] = []
    real = ts.sample_world

    def counting(*args: object, **kwargs: object) -> dict[int, list[Card]]:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ts, "sample_world", counting)
    table = next(
        t
        for t in (played_out("dreierschnapsen", seed, 1) for seed in range(5, 50))
        if t.phase is Phase.PLAY and len(t.legal_actions()) >= 2
    )
    v = table.view(table.to_move)
    TableSearchBot(1, worlds=12, seconds=1e-9).action_values(v)
    assert len(calls) == ts.MIN_WORLDS
    calls.clear()
    TableSearchBot(1, worlds=12, seconds=None).action_values(v)
    assert len(calls) == 12
    with pytest.raises(ValueError, match="seconds"):
        TableSearchBot(1, seconds=0)
