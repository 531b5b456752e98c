"""``Game.side_of``: the index of a seat's side in ``augen`` and in a result's ``augen``, for every family.

Two seats: each player is a side.  A table: 0 for the declarer's side, 1 for the defenders, once the contract is
fixed (seeds/003: the declarer, with the partner at four, plays against the others).
"""

from __future__ import annotations

from bummerl.game import Game
from bummerl.table_game import TableGame
from bummerl.variants.bauernschnapsen import Phase


def test_two_players_are_each_a_side() -> None:
    game = Game.deal("schnapsen", seed=4)
    assert [game.side_of(s) for s in range(2)] == [0, 1]
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    result = game.result
    assert result is not None
    assert [result.augen[game.side_of(s)] for s in range(2)] == [game.augen(0), game.augen(1)]


def test_at_a_table_the_declarers_side_is_0_and_the_defenders_1() -> None:
    for variant, seed in (("bauernschnapsen", 3), ("dreierschnapsen", 5)):
        table = TableGame.deal(variant, seed=seed, dealer=0)
        while table.phase is not Phase.PLAY and not table.is_over:
            table.apply(table.legal_actions()[0])
        if table.is_over:  # a redeal (three Unter): no contract to take sides in
            continue
        declarer = table.declarer
        assert declarer is not None
        sides = [table.side_of(s) for s in range(table.players)]
        assert sides[declarer] == 0 and sides.count(1) >= 1
        assert tuple(sides) == table.view(declarer).side
        while not table.is_over:
            table.apply(table.legal_actions()[0])
        result = table.result
        assert result is not None
        assert result.augen[table.side_of(declarer)] == table.augen(0)
