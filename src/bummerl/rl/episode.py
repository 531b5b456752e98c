"""What the RL environments share: how an episode's game is dealt, scored and shown.

:mod:`bummerl.rl.pettingzoo` (every seat an agent) and :mod:`bummerl.rl.gym`
(one seat an agent, the others Bummerl bots) deal, score and draw their games
here, so the two agree on every rule below; this module needs nothing beyond the
standard library (the environments add NumPy and their framework).

**Seeds.** An episode's game is ``Game.deal(variant, seed, dealer)`` with the
seed given to ``reset(seed=...)``: the same deal as every other Bummerl tool
deals from that seed.  A reset without a seed takes the next seed of a stream
(:class:`SeedStream`, restarted by every seeded reset), so a seeded reset
followed by unseeded ones is reproducible as a whole.

**Dealer.** ``dealer="seed"`` (the default) draws the dealer from the game's seed
(``derive_seed(seed, DEALER_SEEDS) % players``), so over many seeds every seat
deals equally often and a seeded reset deals the same way each time;
``"rotate"`` passes the deal to the next seat every game, starting from the
variant's default dealer at each seeded reset; an integer fixes the dealing seat.

>>> from bummerl.variants import find_variant
>>> variant = find_variant("schnapsen")
>>> game = deal(variant, seed=7, dealer="seed", index=0)
>>> game.deck == Game.deal(variant, 7, dealer=game.dealer).deck
True
>>> [pick_dealer("rotate", variant, 7, k) for k in range(3)]
[1, 0, 1]

**Rewards.** The reward is 0 until the game ends.  ``reward="zero_sum"`` (the
default) scores each scoring unit (a seat, or a team of partners at
Bauernschnapsen) with its game points minus the mean of the other units' game
points, as the arena credits them (``result.points_of``, :func:`bummerl.arena.families.scoring_seats`):
with two players the winner gets ``+points`` and the loser ``-points``; at
Bauernschnapsen each partner of the winning team ``+points``, each of the
other ``-points``; at Dreierschnapsen a winning soloist ``+points`` and each
defender ``-points/2``, a losing soloist ``-points`` and each defender
``+points/2``.  The rewards of a game always sum to zero.  ``reward="points"``
gives each seat just the game points credited to it (never negative).

>>> from bummerl.variants import EndReason, GameResult
>>> seat_rewards(GameResult(1, 2, EndReason.DECLARED, (66, 30)), 2, "zero_sum")
(-2.0, 2.0)
>>> table = Game.deal("dreierschnapsen", seed=3)
>>> while not table.is_over:
...     _ = table.apply(table.legal_actions()[0])
>>> rewards = seat_rewards(table.result, 3, "zero_sum")
>>> sum(rewards), max(rewards) == table.result.points or min(rewards) == -table.result.points
(0.0, True)

**Illegal actions.** ``illegal="raise"`` raises
:class:`~bummerl.errors.IllegalActionError` naming the rule the engine refuses
the action by (the game is unchanged); ``illegal="lose"`` ends the game as a
forfeit, scored as the arena scores one (:func:`forfeit_rewards`: the other
units win the arena's forfeit points).

>>> forfeit_rewards(variant, 0, "zero_sum")
(-3.0, 3.0)

This module never decides what a player may see: everything shown comes from
``game.view(seat)``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from bummerl.arena.families import forfeit_points, scoring_seats
from bummerl.cards import Card
from bummerl.game import Game
from bummerl.i18n import Messages
from bummerl.rl.encoding import ActionSpace
from bummerl.rng import SplitMix64, derive_seed
from bummerl.text import Words, record_result, view_lines
from bummerl.variants import Variant
from bummerl.view import View

__all__ = [
    "DEALER_RULES",
    "DEALER_SEEDS",
    "ILLEGAL_RULES",
    "REWARD_RULES",
    "SEAT_SEEDS",
    "SeedStream",
    "check_settings",
    "deal",
    "forfeit_rewards",
    "pick_dealer",
    "render_view",
    "seat_rewards",
]

#: Named ways to choose the dealer (an integer seat is the third way).
DEALER_RULES = ("seed", "rotate")
REWARD_RULES = ("zero_sum", "points")
ILLEGAL_RULES = ("raise", "lose")
#: Path elements of :func:`~bummerl.rng.derive_seed` ("DEAL", "SEAT"): the dealer and the
#: Gymnasium agent's seat drawn from a game's seed, on streams of their own.
DEALER_SEEDS = 0x4445414C
SEAT_SEEDS = 0x53454154


def check_settings(variant: Variant, dealer: int | str, reward: str, illegal: str) -> None:
    """Raise ``ValueError`` naming the choices for a dealer rule, reward or illegal-action rule that does not exist.

    >>> from bummerl.variants import find_variant
    >>> check_settings(find_variant("schnapsen"), 2, "zero_sum", "raise")
    Traceback (most recent call last):
    ...
    ValueError: dealer must be 'seed', 'rotate' or a seat 0..1, not 2
    """
    seats = range(variant.players)
    if not (dealer in DEALER_RULES or (isinstance(dealer, int) and not isinstance(dealer, bool) and dealer in seats)):
        raise ValueError(f"dealer must be 'seed', 'rotate' or a seat 0..{variant.players - 1}, not {dealer!r}")
    if reward not in REWARD_RULES:
        raise ValueError(f"reward must be one of {', '.join(REWARD_RULES)}, not {reward!r}")
    if illegal not in ILLEGAL_RULES:
        raise ValueError(f"illegal must be one of {', '.join(ILLEGAL_RULES)}, not {illegal!r}")


class SeedStream:
    """The seeds of successive episodes: a seeded reset's own seed, then the stream restarted from it.

    Without any seeded reset the stream starts from the operating system's entropy.

    >>> stream = SeedStream()
    >>> first = [stream.next(5), stream.next(None), stream.next(None)]
    >>> first == [stream.next(5), stream.next(None), stream.next(None)], first[0]
    (True, 5)
    >>> stream.games_since_seed
    2
    """

    def __init__(self) -> None:
        self._rng = SplitMix64(secrets.randbits(64))
        #: Games dealt since the last seeded reset (0 for the seeded game itself).
        self.games_since_seed = 0

    def next(self, seed: int | None) -> int:
        """The seed of the next game: ``seed`` itself if given (restarting the stream), else the stream's next."""
        if seed is not None:
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise ValueError(f"a seed must be an integer, not {seed!r}")
            self._rng = SplitMix64(seed)
            self.games_since_seed = 0
            return seed
        self.games_since_seed += 1
        return self._rng.next_u64()


def pick_dealer(rule: int | str, variant: Variant, seed: int, index: int) -> int:
    """The dealing seat of game ``index`` (counted from the last seeded reset), dealt from ``seed``."""
    if rule == "seed":
        return derive_seed(seed, DEALER_SEEDS) % variant.players
    if rule == "rotate":
        return (variant.default_dealer + index) % variant.players
    assert isinstance(rule, int)
    return rule


def deal(
    variant: Variant,
    seed: int,
    dealer: int | str,
    index: int,
    options: dict[str, Any] | None = None,
) -> Game:
    """The game of an episode: ``Game.deal(variant, seed)`` with the dealer of ``dealer`` (see the module docstring).

    ``options`` are ``reset``'s: ``"dealer"`` (a seat) overrides the rule for this
    game, ``"deck"`` (the pack order, top card first: card codes or cards) deals
    that pack instead of shuffling, e.g. a record's deal; other keys are ignored
    (PettingZoo's ``api_test`` passes one of its own).

    >>> from bummerl.variants import find_variant
    >>> pack = "Ah Th Kh Qh Jh Ad Td Kd Qd Jd Ac Tc Kc Qc Jc As Ts Ks Qs Js"
    >>> game = deal(find_variant("schnapsen"), 0, "seed", 0, {"deck": pack, "dealer": 0})
    >>> game.dealer, [c.code for c in game.hands[1]]  # Vorhand: 3 cards, then 2 after the trump card
    (0, ['Ah', 'Th', 'Kh', 'Kd', 'Qd'])
    """
    options = options or {}
    chosen = options.get("dealer", pick_dealer(dealer, variant, seed, index))
    check_settings(variant, chosen, "zero_sum", "raise")
    deck = options.get("deck")
    if deck is None:
        return Game.deal(variant, seed, dealer=chosen)
    cards = [c if isinstance(c, Card) else Card.parse(c) for c in (deck.split() if isinstance(deck, str) else deck)]
    return Game.from_deck(variant, cards, chosen)


def _unit_rewards(points: Sequence[int]) -> list[float]:
    others = len(points) - 1
    total = sum(points)
    return [p - (total - p) / others for p in points]


def _by_seat(unit_rewards: Sequence[float], players: int) -> tuple[float, ...]:
    # One scoring seat per unit (scoring_seats): with four players seat s plays for team s % 2.
    units = len(unit_rewards)
    return tuple(float(unit_rewards[s % units]) for s in range(players))


def seat_rewards(result: Any, players: int, reward: str) -> tuple[float, ...]:
    """Each seat's reward for a finished game's ``result`` (see the module docstring)."""
    if reward == "points":
        return tuple(float(result.points_of(s)) for s in range(players))
    return _by_seat(_unit_rewards([result.points_of(s) for s in scoring_seats(players)]), players)


def forfeit_rewards(variant: Variant, seat: int, reward: str) -> tuple[float, ...]:
    """Each seat's reward when ``seat`` forfeits: every other scoring unit wins the arena's forfeit points."""
    players = variant.players
    units = scoring_seats(players)
    loser = seat % len(units)
    points = [0 if u == loser else forfeit_points(variant) for u in range(len(units))]
    if reward == "points":
        return tuple(float(points[s % len(units)]) for s in range(players))
    return _by_seat(_unit_rewards(points), players)


def render_view(view: View, lang: str = "en", faces: str = "french") -> str:
    """The table as the player of ``view`` sees it, with the numbers of the legal actions (``render_mode="ansi"``).

    >>> print(render_view(Game.deal("schnapsen", seed=4).view(0)))  # doctest: +ELLIPSIS
    Schnapsen (weich), seat 0 (dealer: seat 1), seat 0 to move
    Trump: ... · face-up card: ... · talon: 9 cards
    ...
    Hand: ...
    Actions: ...
    """
    msgs = Messages(lang)
    variant = view.variant
    words = Words(msgs, faces, variant, seat=view.player)
    state = "game over" if view.result is not None else f"seat {view.to_move} to move"
    dealer, table = view.dealer, view_lines(view, words)
    lines = [f"{variant.title}, seat {view.player} (dealer: seat {dealer}), {state}", *table]
    lines.append("Hand: " + words.cards(view.hand))
    if view.result is not None:
        lines.append(record_result(view.result, words))
    elif view.legal:
        space = ActionSpace.of(variant)
        lines.append("Actions: " + "  ".join(f"{space.index(a)}={a.token}" for a in view.legal))
    return "\n".join(lines)
