"""One game of any variant: the interface that every front end, bot and record uses, with every engine loaded.

>>> game = Game.deal("schnapsen", seed=7)
>>> game.players, game.to_move, len(game.hands[0])
(2, 0, 5)
>>> table = Game.deal("bauernschnapsen", seed=7)
>>> table.players, [a.token for a in table.legal_actions()]
(4, ['cut', 'knock'])
>>> for g in (game, table):
...     while not g.is_over:
...         events = g.apply(g.legal_actions()[0])
>>> type(events[-1]).__name__, game.result is not None
('GameEnd', True)

:class:`Game` (defined in :mod:`bummerl.engine`, below the engines) is abstract: a variant's
:attr:`~bummerl.variants.base.Variant.FAMILY` names its engine in :data:`bummerl.engine.ENGINES`,
:class:`~bummerl.two_player.TwoPlayerGame` for the two-player variants and
:class:`~bummerl.table_game.TableGame` for Bauernschnapsen and Dreierschnapsen.  This module imports both
engines, so that the table is full wherever :class:`Game` is imported from here; ``Game.deal``,
``Game.from_deck``, ``Game.replay`` and ``Game.from_position`` make the right one.  Called on an engine
class they make only its games (``TwoPlayerGame.deal("bauernschnapsen")`` is refused), which gives code that
needs one family its type.  docs/architecture.md says why there are two engines behind one interface.

The interface: :meth:`~Game.legal_actions`, the triples ``can_apply``/``verify``/``apply`` (``apply``
returns the :mod:`~bummerl.events` it caused), :meth:`~Game.view` (a :class:`~bummerl.view.View`),
:attr:`~Game.result` (a :class:`~bummerl.rules.result.Result`), :attr:`~Game.tricks`
(:class:`~bummerl.rules.tricks.CompletedTrick`\\ s), all typed without ``Any``.

This module holds no code: it is the game layer's one import, above the engines and below the series,
records and bots.
"""

from __future__ import annotations

from bummerl.engine import DEFAULT_DEALER, Game
from bummerl.table_game import TableGame
from bummerl.two_player import TwoPlayerGame

__all__ = ["DEFAULT_DEALER", "Game", "TableGame", "TwoPlayerGame"]
