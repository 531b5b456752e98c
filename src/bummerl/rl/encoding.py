"""One action numbering and one tensor encoding of a player's view, for every RL interface.

The OpenSpiel game (:mod:`bummerl.rl.openspiel`) and the PettingZoo environment
(:mod:`bummerl.rl.pettingzoo`) number actions and encode observations the same
way, here, so that an agent trained in one framework reads the other.  Everything
is computed from ``game.view(seat)``, never from the game itself: an encoding
cannot contain a card its player does not know.

**Actions.** An action's number is its :attr:`bummerl.actions.Action.code`
(0..31 play a card, 32..63 a marriage led with that card, 64 exchange, 65
close, 66 declare, 67..70 declare with a marriage; the table games' fixed
actions 71..115); a table game's bids follow at 116 + the contract's place in
the variant's bidding order.  A variant offers :attr:`ActionSpace.size` numbers;
most are never legal in it (no card 7 in Schnapsen), which is what the action
mask says.

>>> from bummerl.game import Game
>>> space = ActionSpace.of("schnapsen")
>>> space.size, space.index(Action.parse("close")), space.action(66).token
(71, 65, 'declare')
>>> game = Game.deal("schnapsen", seed=1)
>>> mask = space.mask(game.view(game.to_move))
>>> sum(mask) == len(game.legal_actions())
True
>>> bauern = ActionSpace.of("bauernschnapsen")
>>> bauern.size - FIXED_ACTIONS == len(bauern.variant.contracts)
True
>>> bauern.action(bauern.index(Action.bid("gang"))).token
'bid:gang'

**Observations.** :class:`ViewEncoder` turns a view into a flat list of floats
of fixed length (:attr:`ViewEncoder.size`), seats counted from the observer
(0 is the observer, 1 the next seat in play order, ...); cards are planes of 32
(one per card of the 32-card pack, :data:`bummerl.cards.CARDS` order).
``observation`` is the present (hand, table, what is known of other hands,
scores, phase); ``information_state`` adds the whole play history (each trick's
cards in order, by relative seat) and the bidding, so that two different
histories never share an information-state tensor.

>>> encoder = ViewEncoder.of("schnapsen")
>>> obs = encoder.observation(game.view(0))
>>> len(obs) == encoder.observation_size, sum(obs[:32])
(True, 5.0)
>>> len(encoder.information_state(game.view(0))) == encoder.information_state_size
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import cast

from bummerl.actions import ALL_ACTIONS, Action, ActionKind
from bummerl.cards import CARDS, Card
from bummerl.variants import Variant, find_variant
from bummerl.variants.bauernschnapsen import Phase, TableVariant
from bummerl.view import PlayerView, TableView, View
from bummerl.view_json import trick_seats

__all__ = ["FIXED_ACTIONS", "ActionSpace", "ViewEncoder"]

#: Numbers of the actions with a fixed code (every family); bids come after them.
FIXED_ACTIONS = len(ALL_ACTIONS)
#: The two-player games use the codes below this.
TWO_PLAYER_ACTIONS = 71
_CARDS = len(CARDS)
_PHASES = tuple(Phase)


def _variant(variant: Variant | str) -> Variant:
    return find_variant(variant) if isinstance(variant, str) else variant


class ActionSpace:
    """The numbering of one variant's actions; build with :meth:`of`."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.bids: tuple[str, ...] = _BIDS[variant.FAMILY](variant)
        self._bid_index = {name: FIXED_ACTIONS + i for i, name in enumerate(self.bids)}
        #: How many numbers: 71 for the two-player games, 116 + the bids for the table games.
        self.size = FIXED_ACTIONS + len(self.bids) if self.bids else TWO_PLAYER_ACTIONS

    @staticmethod
    def of(variant: Variant | str) -> ActionSpace:
        """The action space of ``variant`` (a name or a variant with options), cached."""
        return _space(_variant(variant))

    def index(self, action: Action) -> int:
        """The number of ``action``."""
        if action.kind is ActionKind.BID:
            assert action.contract is not None
            try:
                return self._bid_index[action.contract]
            except KeyError:
                raise ValueError(f"{self.variant.title} has no contract {action.contract!r}") from None
        if action.code >= self.size:
            raise ValueError(f"{action.token} is not an action of {self.variant.title}")
        return action.code

    def action(self, index: int) -> Action:
        """The action numbered ``index`` (``ValueError`` for a number no action of this variant has)."""
        if FIXED_ACTIONS <= index < self.size:
            return Action.bid(self.bids[index - FIXED_ACTIONS])
        found = ALL_ACTIONS[index] if 0 <= index < min(self.size, FIXED_ACTIONS) else None
        if found is None:
            raise ValueError(f"no action of {self.variant.title} is numbered {index!r}")
        return found

    def legal(self, view: View) -> list[int]:
        """The numbers of the view's legal actions, ascending."""
        return sorted(self.index(a) for a in view.legal)

    def mask(self, view: View) -> list[int]:
        """1 for every legal action of the view, else 0 (length :attr:`size`)."""
        out = [0] * self.size
        for a in view.legal:
            out[self.index(a)] = 1
        return out


def _contract_names(variant: Variant) -> tuple[str, ...]:
    # Looked up for the table family only (_BIDS): its variants are TableVariants.
    return tuple(c.name for c in cast(TableVariant, variant).contracts)


#: The bids of each family of rules (``Variant.FAMILY``): the table games' contracts in bidding order.
_BIDS: dict[str, Callable[[Variant], tuple[str, ...]]] = {"two_player": lambda _: (), "table_game": _contract_names}


@cache
def _space(variant: Variant) -> ActionSpace:
    return ActionSpace(variant)


class ViewEncoder:
    """Flat float encodings of a variant's views; build with :meth:`of`.

    One class per family of rules (:attr:`~bummerl.variants.base.Variant.FAMILY`),
    chosen once per variant by :meth:`of`.  The layout, in order (``n`` players,
    seats relative to the observer):

    two players: hand, known cards of the opponent, face-up trump card, the card
    led to the current trick, cards won by me, cards won by the opponent (six
    planes of 32); trump suit (4); whose turn, dealer, leader (2 each); talon
    size / pack; closed by me, by the opponent; tricks won > 0 (2); Augen / 66
    (2, zero where the variant hides them) and whether they are shown (1);
    marriages announced, by seat and suit (8); the first lead done; game over.

    table games: hand, known cards of each other seat (n-1), current trick by
    seat (n), cards won by the declarer's side and by the defenders, cards laid
    away (planes of 32); trump suit (4); turned-up card (32); phase; whose turn,
    dealer, Vorhand, declarer (n each, declarer all zero before a contract);
    my side; contract (one per contract); doubling level (4); knocked; talon
    size; Augen of both sides / 66; cards in each hand / hand size (n); marriages
    by seat and suit (4n); each seat's last bid (contracts + pass, per seat).

    ``information_state`` appends the history: for each trick in order, each
    card by relative seat (planes of 32 per seat), and for the table games the
    leader; the bidding is already in the observation as each seat's last bid,
    and the whole bidding sequence follows (up to 4 rounds of n bids).
    """

    #: The length of :meth:`observation` and of :meth:`information_state` (set by each family).
    observation_size: int
    information_state_size: int

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.players = variant.players
        self.space = ActionSpace.of(variant)
        #: Tricks a game can have: its pack dealt out to the players.
        self.max_tricks = variant.deck_size // variant.players

    @staticmethod
    def of(variant: Variant | str) -> ViewEncoder:
        """The encoder of ``variant``, cached."""
        return _encoder(_variant(variant))

    @property
    def size(self) -> int:
        """The length of :meth:`observation`."""
        return self.observation_size

    def observation(self, view: View) -> list[float]:
        """The present as the view's player sees it."""
        raise NotImplementedError

    def information_state(self, view: View) -> list[float]:
        """:meth:`observation` followed by the whole history of the game as the player saw it."""
        raise NotImplementedError

    def _rel(self, me: int, seat: int) -> int:
        return (seat - me) % self.players


class _TwoPlayerEncoder(ViewEncoder):
    """The encoder of the two-player family (Schnapsen, 66, Schnorps)."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.observation_size = _CARDS * 6 + 4 + 6 + 1 + 2 + 2 + 3 + 8 + 2
        self._trick_size = 2 * _CARDS + 2
        self.information_state_size = self.observation_size + self.max_tricks * self._trick_size

    def observation(self, view: View) -> list[float]:
        v = cast(PlayerView, view)  # this encoder was chosen for the variant's family: its views are PlayerViews
        me = v.player
        opp = 1 - me
        won: tuple[list[Card], list[Card]] = ([], [])
        for t in v.tricks:
            won[0 if t.winner == me else 1].extend((t.lead, t.follow))
        out = _planes(
            v.hand,
            v.opponent_known,
            (v.trump_card,) if v.trump_card is not None else (),
            (v.lead,) if v.lead is not None else (),
            won[0],
            won[1],
        )
        out += _one_hot(4, int(v.trump))
        out += _one_hot(2, self._rel(me, v.to_move))
        out += _one_hot(2, self._rel(me, v.dealer))
        out += _one_hot(2, self._rel(me, v.leader))
        out.append(v.talon_size / self.variant.deck_size)
        out += [float(v.closed_by == me), float(v.closed_by == opp)]
        out += [float(v.tricks_won[me] > 0), float(v.tricks_won[opp] > 0)]
        if v.augen is not None:
            out += [v.augen[me] / 66, v.augen[opp] / 66, 1.0]
        else:
            out += [0.0, 0.0, 0.0]
        marriages = [0.0] * 8
        for seat, suit in v.marriages:
            marriages[self._rel(me, seat) * 4 + int(suit)] = 1.0
        out += marriages
        out += [float(v.first_lead_done), float(v.result is not None)]
        return out

    def information_state(self, view: View) -> list[float]:
        out = self.observation(view)
        v = cast(PlayerView, view)  # chosen for the variant's family, as in observation
        for trick in v.tricks:
            block = [0.0] * self._trick_size
            seats = ((trick.leader, trick.lead), (1 - trick.leader, trick.follow))
            for seat, card in seats:
                block[self._rel(v.player, seat) * _CARDS + card.index] = 1.0
            block[2 * _CARDS + self._rel(v.player, trick.winner)] = 1.0
            out += block
        out += [0.0] * ((self.max_tricks - len(v.tricks)) * self._trick_size)
        return out


class _TableEncoder(ViewEncoder):
    """The encoder of the table family (Dreierschnapsen, Bauernschnapsen)."""

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        n = self.players
        contracts = len(self.space.bids)
        self._bid_slots = contracts + 1  # a contract or pass
        self._bid_rounds = 4 * n
        self.observation_size = (
            _CARDS * (1 + (n - 1) + n + 2 + 1 + 1)
            + 4
            + len(_PHASES)
            + 4 * n
            + 1
            + contracts
            + 4
            + 1
            + 1
            + 2
            + n
            + 4 * n
            + n * self._bid_slots
        )
        self._trick_size = n * _CARDS + n
        self.information_state_size = (
            self.observation_size + self.max_tricks * self._trick_size + self._bid_rounds * (self._bid_slots + n)
        )

    def observation(self, view: View) -> list[float]:
        v = cast(TableView, view)  # this encoder was chosen for the variant's family: its views are TableViews
        n, me = self.players, v.player
        others = [v.known[(me + k) % n] for k in range(1, n)]
        trick: list[list[Card]] = [[] for _ in range(n)]
        for seat, card in v.trick:
            trick[self._rel(me, seat)].append(card)
        won: tuple[list[Card], list[Card]] = ([], [])
        for t in v.tricks:
            won[v.side[t.winner] if v.declarer is not None else 0].extend(t.cards)
        out = _planes(v.hand, *others, *trick, won[0], won[1], v.discarded)
        out += _one_hot(4, int(v.trump)) if v.trump is not None else [0.0] * 4
        out += _planes((v.turned_card,) if v.turned_card is not None else ())
        out += _one_hot(len(_PHASES), _PHASES.index(v.phase))
        out += _one_hot(n, self._rel(me, v.to_move))
        out += _one_hot(n, self._rel(me, v.dealer))
        out += _one_hot(n, self._rel(me, v.vorhand))
        out += _one_hot(n, self._rel(me, v.declarer)) if v.declarer is not None else [0.0] * n
        out.append(float(v.declarer is not None and v.side[me] == 0))
        contracts = [0.0] * len(self.space.bids)
        if v.contract is not None:
            contracts[self.space.bids.index(v.contract)] = 1.0
        out += contracts
        out += _one_hot(4, v.doubling)
        out.append(float(bool(v.knocked)))
        out.append(v.talon_size / self.variant.deck_size)
        out += [v.augen[0] / 66, v.augen[1] / 66]
        sizes = [0.0] * n
        for seat, size in enumerate(v.hand_sizes):
            sizes[self._rel(me, seat)] = size / self.variant.hand_size
        out += sizes
        marriages = [0.0] * (4 * n)
        for seat, suit in v.marriages:
            marriages[self._rel(me, seat) * 4 + int(suit)] = 1.0
        out += marriages
        last = [0.0] * (n * self._bid_slots)
        latest: dict[int, Action] = dict(v.bids)
        for seat, action in latest.items():
            last[self._rel(me, seat) * self._bid_slots + self._bid_slot(action)] = 1.0
        out += last
        return out

    def information_state(self, view: View) -> list[float]:
        out = self.observation(view)
        v = cast(TableView, view)  # chosen for the variant's family, as in observation
        n = self.players
        for t in v.tricks:
            block = [0.0] * self._trick_size
            for seat, card in zip(trick_seats(t.leader, len(t.cards), v.active, n), t.cards, strict=True):
                block[self._rel(v.player, seat) * _CARDS + card.index] = 1.0
            block[n * _CARDS + self._rel(v.player, t.leader)] = 1.0
            out += block
        out += [0.0] * ((self.max_tricks - len(v.tricks)) * self._trick_size)
        width = self._bid_slots + n
        for seat, action in v.bids[: self._bid_rounds]:
            block = [0.0] * width
            block[self._bid_slot(action)] = 1.0
            block[self._bid_slots + self._rel(v.player, seat)] = 1.0
            out += block
        out += [0.0] * ((self._bid_rounds - min(len(v.bids), self._bid_rounds)) * width)
        return out

    def _bid_slot(self, action: Action) -> int:
        if action.kind is ActionKind.BID:
            return self.space.index(action) - FIXED_ACTIONS
        return self._bid_slots - 1


#: The encoder of each family of rules (``Variant.FAMILY``).
_ENCODERS: dict[str, type[ViewEncoder]] = {"two_player": _TwoPlayerEncoder, "table_game": _TableEncoder}


@cache
def _encoder(variant: Variant) -> ViewEncoder:
    return _ENCODERS[variant.FAMILY](variant)


def _planes(*groups: Sequence[Card] | frozenset[Card]) -> list[float]:
    out = [0.0] * (_CARDS * len(groups))
    for g, cards in enumerate(groups):
        base = g * _CARDS
        for card in cards:
            out[base + card.index] = 1.0
    return out


def _one_hot(size: int, index: int) -> list[float]:
    out = [0.0] * size
    out[index] = 1.0
    return out
