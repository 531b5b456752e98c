"""The matchmaker of quick match (``bummerl.server.quickmatch.Matchmaker``; issue 24: "a Quick match button seats
the player with others who wait for the same; a 3/4-player table fills the seats nobody takes with bots after a
wait the player chooses (or at once)").

Pure: the time is a list the test moves on, so nothing sleeps.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

from bummerl.server.config import QuickMatchSettings, ServerConfig
from bummerl.server.quickmatch import PRESETS, Matchmaker, QuickMatchError, Seated, preset_options, presets_json
from bummerl.server.routes.lobby import variants_json
from bummerl.variants import find_variant


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def maker(**settings: object) -> tuple[Matchmaker, Clock]:
    clock = Clock()
    return Matchmaker(QuickMatchSettings(**settings), clock=clock), clock  # type: ignore[arg-type]


def names(mm: Matchmaker) -> list[tuple[str, list[str], int]]:
    return [(g.variant, [t.name for t in g.tickets], g.bots) for g in mm.groups()]


def test_every_variant_has_a_standard_preset() -> None:
    """Quick match for every variant of the lobby (issue 24), each with its rules as they are (``standard``)."""
    assert set(PRESETS) == {v["name"] for v in variants_json(ServerConfig())}
    for variant in ("schnapsen", "schnapsen-scharf", "sechsundsechzig", "schnorps", "dreierschnapsen"):
        assert preset_options(variant, "standard")[1] == {}
    seats = {v["variant"]: v["seats"] for v in presets_json()}
    assert seats == {
        "schnapsen": 2,
        "schnapsen-scharf": 2,
        "sechsundsechzig": 2,
        "schnorps": 2,
        "dreierschnapsen": 3,
        "bauernschnapsen": 4,
    }


def test_a_preset_is_the_variants_own_options() -> None:
    """Every preset's options are options the variant has (found by the one variant lookup)."""
    for variant, presets in PRESETS.items():
        for preset in presets:
            name, options, _ = preset_options(variant, preset)
            assert name == variant
            assert find_variant(name, **options).options() == options  # options it has, none a default


@pytest.mark.parametrize(
    ("variant", "preset", "code"),
    [("skat", "standard", "bad_variant"), ("schnapsen", "short", "bad_preset"), ("bauern", "easy", "bad_preset")],
)
def test_unknown_variant_or_preset_is_422(variant: str, preset: str, code: str) -> None:
    mm, _ = maker()
    with pytest.raises(QuickMatchError) as exc:
        mm.enter(variant, preset, "Anna", "p1", "c1", None)
    assert (exc.value.code, exc.value.status) == (code, 422)
    assert mm.tickets == {}


def test_two_who_wait_for_the_same_sit_together_first_come_first_seated() -> None:
    mm, _ = maker()
    for i, who in enumerate(["Anna", "Bert", "Cleo"]):
        mm.enter("schnapsen", "standard", who, f"p{i}", f"c{i}", None)
    assert names(mm) == [("schnapsen", ["Anna", "Bert"], 0)]
    assert [t.state for t in mm.tickets.values()] == ["seating", "seating", "waiting"]
    assert names(mm) == []  # Cleo waits for the next one


def test_different_presets_or_variants_never_meet() -> None:
    mm, _ = maker()
    mm.enter("schnapsen", "standard", "Anna", "p1", "c", None)
    mm.enter("schnapsen", "easy", "Bert", "p2", "c", None)
    mm.enter("66", "standard", "Cleo", "p3", "c", None)
    mm.enter("schnapsen-scharf", "standard", "Dora", "p4", "c", None)
    assert names(mm) == []
    mm.enter("sechsundsechzig", "standard", "Emil", "p5", "c", None)  # an alias's queue is the variant's
    assert names(mm) == [("sechsundsechzig", ["Cleo", "Emil"], 0)]


def test_four_people_fill_a_bauernschnapsen_table_without_bots() -> None:
    mm, _ = maker()
    for i in range(3):
        mm.enter("bauernschnapsen", "standard", f"P{i}", f"p{i}", "c", None)
    assert names(mm) == []
    mm.enter("bauernschnapsen", "standard", "P3", "p3", "c", 30)
    assert names(mm) == [("bauernschnapsen", ["P0", "P1", "P2", "P3"], 0)]


def test_bots_fill_the_seats_after_the_chosen_wait() -> None:
    mm, clock = maker()
    mm.enter("bauernschnapsen", "standard", "Anna", "p1", "c", 10)
    clock.now += 5
    mm.enter("bauernschnapsen", "standard", "Bert", "p2", "c", 30)  # accepts bots: joins Anna's table
    mm.enter("bauernschnapsen", "standard", "Cleo", "p3", "c", None)  # never bots: waits on
    clock.now += 4.9
    for t in mm.tickets.values():
        t.seen = clock.now
    assert names(mm) == []
    clock.now += 0.1
    assert names(mm) == [("bauernschnapsen", ["Anna", "Bert"], 2)]
    assert [t.name for t in mm.tickets.values() if t.state == "waiting"] == ["Cleo"]


def test_bots_at_once() -> None:
    mm, _ = maker()
    mm.enter("dreier", "short", "Anna", "p1", "c", 0)
    assert names(mm) == [("dreierschnapsen", ["Anna"], 2)]


def test_a_two_player_game_waits_for_a_person() -> None:
    mm, _ = maker()
    with pytest.raises(QuickMatchError) as exc:
        mm.enter("schnapsen", "standard", "Anna", "p1", "c", 10)
    assert (exc.value.code, exc.value.status) == ("bad_wait", 422)


def test_the_wait_for_bots_is_bounded() -> None:
    mm, _ = maker(max_bot_wait=60)
    with pytest.raises(QuickMatchError) as exc:
        mm.enter("bauern", "standard", "Anna", "p1", "c", 61)
    assert (exc.value.code, exc.value.status) == ("bad_wait", 422)
    mm.enter("bauern", "standard", "Anna", "p1", "c", 60)


def test_one_ticket_per_player() -> None:
    mm, _ = maker()
    mm.enter("schnapsen", "standard", "Anna", "p1", "c", None)
    with pytest.raises(QuickMatchError) as exc:
        mm.enter("66", "standard", "Anna", "p1", "other address", None)
    assert (exc.value.code, exc.value.status) == ("already_waiting", 409)


def test_a_player_never_sits_against_themself() -> None:
    """The one ticket per player keeps two tabs of one player from being seated together."""
    mm, _ = maker()
    mm.enter("schnapsen", "standard", "Anna", "p1", "c", None)
    with pytest.raises(QuickMatchError):
        mm.enter("schnapsen", "standard", "Anna 2", "p1", "c", None)
    assert names(mm) == []


def test_caps_per_client_and_in_all() -> None:
    mm, _ = maker(max_per_client=2, max_waiting=3)
    mm.enter("schnapsen", "standard", "A", "p1", "home", None)
    mm.enter("66", "standard", "B", "p2", "home", None)
    with pytest.raises(QuickMatchError) as exc:
        mm.enter("schnorps", "standard", "C", "p3", "home", None)
    assert (exc.value.code, exc.value.status) == ("too_many_tickets", 429)
    mm.enter("schnorps", "standard", "C", "p3", "cafe", None)
    with pytest.raises(QuickMatchError) as exc:
        mm.enter("schnapsen-scharf", "standard", "D", "p4", "library", None)
    assert (exc.value.code, exc.value.status) == ("queue_full", 503)


def test_a_ticket_not_polled_expires_and_a_polled_one_lives() -> None:
    mm, clock = maker(ticket_seconds=15)
    anna = mm.enter("schnapsen", "standard", "Anna", "p1", "c", None)
    bert = mm.enter("66", "standard", "Bert", "p2", "c", None)
    for _ in range(4):
        clock.now += 10
        mm.find(anna.id)  # Anna's page polls; Bert's tab was closed
    assert bert.id not in mm.tickets
    with pytest.raises(QuickMatchError) as exc:
        mm.find(bert.id)
    assert (exc.value.code, exc.value.status) == ("unknown_ticket", 404)
    # Bert's player may ask again at once.
    mm.enter("66", "standard", "Bert", "p2", "c", None)


def test_an_expired_ticket_is_never_seated() -> None:
    mm, clock = maker(ticket_seconds=15)
    mm.enter("schnapsen", "standard", "Anna", "p1", "c", None)
    clock.now += 16
    mm.enter("schnapsen", "standard", "Bert", "p2", "c", None)
    assert names(mm) == []


def test_cancel() -> None:
    mm, _ = maker()
    anna = mm.enter("schnapsen", "standard", "Anna", "p1", "c", None)
    mm.cancel(anna.id)
    mm.enter("schnapsen", "standard", "Bert", "p2", "c", None)
    assert names(mm) == []
    with pytest.raises(QuickMatchError) as exc:
        mm.cancel(anna.id)
    assert exc.value.status == 404


def test_a_seated_ticket_cannot_be_cancelled_and_says_where() -> None:
    mm, clock = maker()
    anna = mm.enter("schnapsen", "standard", "Anna", "p1", "c", None)
    mm.enter("schnapsen", "standard", "Bert", "p2", "c", None)
    assert len(mm.groups()) == 1
    with pytest.raises(QuickMatchError) as exc:
        mm.cancel(anna.id)
    assert (exc.value.code, exc.value.status) == ("seated", 409)
    mm.seated(anna, Seated("T1", "two_player", 1, "tok", 30))
    shown = mm.find(anna.id).to_json(clock.now)
    assert shown["state"] == "seated"
    assert shown["table"] == {
        "table_id": "T1",
        "kind": "two_player",
        "seat": 1,
        "token": "tok",
        "ws_url": "/ws/tables/T1",
        "move_seconds": 30,
    }
    # Seated, the player may look for the next quick match.
    mm.enter("66", "standard", "Anna", "p1", "c", None)


def test_a_table_that_could_not_be_made_leaves_them_waiting_in_their_places() -> None:
    mm, _ = maker()
    mm.enter("schnapsen", "standard", "Anna", "p1", "c", None)
    mm.enter("schnapsen", "standard", "Bert", "p2", "c", None)
    (group,) = mm.groups()
    mm.unseat(group.tickets)
    assert names(mm) == [("schnapsen", ["Anna", "Bert"], 0)]


def test_the_queues_name_nobody() -> None:
    mm, clock = maker()
    mm.enter("bauern", "standard", "Anna", "p1", "c", None)
    clock.now += 7
    mm.enter("bauern", "standard", "Bert", "p2", "c", None)
    mm.enter("schnapsen", "easy", "Cleo", "p3", "c", None)
    assert mm.queues() == [
        {"variant": "bauernschnapsen", "preset": "standard", "seats": 4, "waiting": 2, "longest": 7.0},
        {"variant": "schnapsen", "preset": "easy", "seats": 2, "waiting": 1, "longest": 0.0},
    ]
    assert "Anna" not in repr(mm.queues())


def test_ticket_ids_are_long_secrets() -> None:
    mm, _ = maker()
    ids = {mm.enter("schnapsen", "standard", f"P{i}", f"p{i}", f"c{i}", None).id for i in range(50)}
    assert len(ids) == 50
    assert all(len(i) >= 32 for i in ids)


def test_a_seated_ticket_lives_a_while_however_often_it_is_polled() -> None:
    """A seated ticket holds a seat's token: it is told for ``ticket_seconds`` and then forgotten, so a client
    that keeps polling keeps no memory of the server busy."""
    mm, clock = maker(ticket_seconds=15)
    anna = mm.enter("schnapsen", "standard", "Anna", "p1", "c", None)
    mm.enter("schnapsen", "standard", "Bert", "p2", "c", None)
    mm.groups()
    mm.seated(anna, Seated("T1", "two_player", 0, "tok", 30))
    for _ in range(3):
        clock.now += 5
        assert mm.find(anna.id).state == "seated"
    clock.now += 0.5
    with pytest.raises(QuickMatchError):
        mm.find(anna.id)


def test_a_seated_or_gone_ticket_no_longer_counts_for_its_address() -> None:
    """The cap per client counts the people of an address who wait, not those already seated or gone."""
    mm, clock = maker(max_per_client=1, ticket_seconds=15)
    anna = mm.enter("schnapsen", "standard", "Anna", "p1", "home", None)
    with pytest.raises(QuickMatchError):
        mm.enter("66", "standard", "Anna's brother", "p2", "home", None)
    mm.enter("schnapsen", "standard", "Bert", "p3", "cafe", None)
    (group,) = mm.groups()
    mm.seated(anna, Seated("T1", "two_player", 0, "tok", 30))
    brother = mm.enter("66", "standard", "Anna's brother", "p2", "home", None)  # Anna sits: the place is free
    assert mm.waiting() == 2  # the brother, and Bert whose seat is being made
    clock.now += 16  # the brother's tab was closed
    mm.enter("schnorps", "standard", "Anna's sister", "p4", "home", None)
    assert brother.id not in mm.tickets and group.tickets[1].id in mm.tickets  # a seat being made stays


def test_a_no_show_waits_before_asking_again_and_so_does_an_address_of_many() -> None:
    """A flood that never sits down seats honest people at tables nobody else comes to: a player who did not come
    to their table may not ask again for ``bar_seconds``, nor an address after ``no_shows_per_client`` no-shows."""
    mm, clock = maker(bar_seconds=300, no_shows_per_client=2)
    mm.no_show("p1", "home")
    with pytest.raises(QuickMatchError) as exc:
        mm.enter("schnapsen", "standard", "Anna", "p1", "cafe", None)
    assert (exc.value.code, exc.value.status) == ("no_show", 429)
    assert "300 s" in exc.value.message
    mm.enter("schnapsen", "standard", "Bert", "p2", "home", None)  # one no-show bars the player, not the address
    mm.no_show("p3", "home")
    with pytest.raises(QuickMatchError) as exc:  # two from one address: everybody there waits
        mm.enter("66", "standard", "Cleo", "p4", "home", None)
    assert exc.value.code == "no_show"
    clock.now += 299
    with pytest.raises(QuickMatchError) as exc:
        mm.enter("66", "standard", "Anna", "p1", "cafe", None)
    assert "1 s" in exc.value.message
    clock.now += 1
    mm.enter("66", "standard", "Anna", "p1", "cafe", None)
    mm.enter("schnorps", "standard", "Cleo", "p4", "home", None)
