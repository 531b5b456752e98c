"""Policy-based inference: weight the worlds of a search by how well they explain the opponent's plays.

Uniform sampling (:func:`~bummerl.bots.inference.sample_world`) treats every
consistent world alike, although the opponent's choices tell more: a player
who throws a Ten rather than trumping it rarely holds a small trump; a player
who leads a trump under an open talon usually holds several.  Given a world
(the opponent's hand now), this module rebuilds the hand the opponent held at
each of its recent card plays and asks a model of a strong player
(:class:`~bummerl.bots.policy.PolicyModel`) how likely that play was with that
hand, and, for a plain lead, how likely it was to pass over the trump exchange
and the marriages that hand allowed.  The product over the plays is the
world's *likelihood*; a search that samples worlds uniformly and weighs each by
it estimates the mean over the posterior (importance sampling,
``Budget(inference=True)`` in :mod:`bummerl.bots.search`; measured without a
gain, so no level uses it: docs/bots.md).

Which plays count (:func:`observations`): the opponent's hand at a play is
known in a world only if no card was drawn since, or one (then the drawn card
is any of the cards the opponent holds or played since, each alike):

* every play under the strict rules (talon closed or exhausted: no more draws);
* the opponent's lead to the current trick;
* the opponent's play in the last trick before it, while the talon is open
  (one draw since), unless that draw was the last one (the trump card) or
  the lowest trump lies face up (someone may have exchanged since).

A marriage's lead is left out (the card was the marriage's, not a choice).  A
game set up from a position has no trick history and gives no observation.

>>> from bummerl.two_player import TwoPlayerGame
>>> from bummerl.bots.inference import infer, sample_world
>>> from bummerl.rng import SplitMix64
>>> game = TwoPlayerGame.deal("schnapsen", seed=5)
>>> _ = game.apply(game.legal_actions()[0])       # the Vorhand leads
>>> view = game.view(game.to_move)
>>> obs = observations(view)
>>> len(obs), obs[0].lead is None
(1, True)
>>> w = likelihood(view, sample_world(infer(view), SplitMix64(1)), obs)
>>> 0.0 < w <= 1.0
True

Everything here is computed from the view and a world built from it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bummerl.bots.inference import World, strict_from
from bummerl.bots.policy import CardChoice, PolicyModel, model_for
from bummerl.cards import Card, Rank, Suit, deck
from bummerl.rules.talon import exchange_refusal, marriage_refusal
from bummerl.rules.tricks import FollowRules, legal_follows
from bummerl.variants import TwoPlayerVariant
from bummerl.view import PlayerView

__all__ = ["MIX", "Observation", "hands_then", "likelihood", "observations"]

#: Each play's probability is mixed with the uniform choice, ``(1 - MIX) * p + MIX / n``, so a player
#: who plays unlike the model (a human, a weak bot) cannot make a consistent world all but impossible.
MIX = 0.1


@dataclasses.dataclass(frozen=True)
class Observation:
    """One card play of the opponent whose hand a world determines."""

    #: The card the opponent played.
    card: Card
    #: The card it followed (``None``: it led).
    lead: Card | None
    #: The opponent's cards played after this one: they were in its hand then.
    later: tuple[Card, ...]
    #: Every card played before this decision (the lead it followed included).
    played_before: frozenset[Card]
    #: Whether the strict follow rules applied.
    strict: bool
    #: The opponent's draws since this play, oldest first: for each, the cards it cannot have drawn then
    #: (those it had played by that trick).  Its hand then lacked the drawn cards.
    draws: tuple[frozenset[Card], ...] = ()
    #: For a lead, the state the lead rules ask about (:func:`bummerl.rules.talon.exchange_refusal`,
    #: :func:`~bummerl.rules.talon.marriage_refusal`): face-down talon cards, closed, Vorhand's first lead
    #: done, the opponent has won a trick.  A plain lead passes over the exchange and the marriages its
    #: hand allowed.
    face_down: int = 0
    closed: bool = True
    first_lead_done: bool = True
    has_trick: bool = True

    @property
    def drew_since(self) -> bool:
        """Whether the opponent drew since this play."""
        return bool(self.draws)


#: Plays older than this many draws are not rebuilt: the possible hands multiply with every draw and the
#: older plays say less about the hand now.
MAX_DRAWS = 1


def observations(view: PlayerView, max_draws: int = MAX_DRAWS) -> list[Observation]:
    """The opponent's card plays in ``view`` whose hand a world determines (see the module text), with at
    most ``max_draws`` draws since."""
    start = strict_from(view)
    if start is None:
        return []
    opp = view.opponent
    tricks = view.tricks
    n = len(tricks)
    v = view.variant
    last_draw_after = (v.deck_size - 2 * v.hand_size) // 2 - 1  # the trick after which the talon ran out
    first_face_down = v.deck_size - 2 * v.hand_size - 1  # the talon above the trump card after the deal
    married = {suit for who, suit in view.marriages if who == opp}
    # The lowest trump lies face up after an exchange: the hand before it held that card instead of the
    # one taken, so a play before a possible exchange is not rebuilt (over-cautious when the card turned
    # up was the lowest trump from the start).
    lowest = min(c.rank for c in deck(v.deck_size))
    exchanged = view.trump_card is not None and view.trump_card.rank == lowest
    # The opponent's play in every trick (and its lead to the current one).
    plays: list[tuple[int, Card, Card | None]] = []
    for j, t in enumerate(tricks):
        if t.leader == opp:
            plays.append((j, t.lead, None))
        else:
            plays.append((j, t.follow, t.lead))
    if view.lead is not None and view.leader == opp:
        plays.append((n, view.lead, None))
    out: list[Observation] = []
    before: list[Card] = []
    played_by_trick = [frozenset((t.lead, t.follow)) for t in tricks]
    for idx, (j, card, lead) in enumerate(plays):
        draws = max(0, min(start, n) - j)
        seen = frozenset(before) | (frozenset((lead,)) if lead is not None else frozenset())
        if j < n:
            before.extend(played_by_trick[j])
        last_draw = view.closed_at_trick is None and j + draws - 1 >= last_draw_after
        if draws > max_draws or (draws and (last_draw or exchanged)):
            continue
        if lead is None and card.rank in (Rank.KING, Rank.OBER) and card.suit in married:
            continue
        later = tuple(c for _, c, _ in plays[idx + 1 :])
        excluded = tuple(frozenset(c for _, c, _ in plays[idx : idx + k + 1]) for k in range(draws))
        closed = view.closed_at_trick is not None and j >= view.closed_at_trick
        face_down = max(0, first_face_down - 2 * min(j, start))
        has_trick = any(t.winner == opp for t in tricks[:j])
        out.append(Observation(card, lead, later, seen, j >= start, excluded, face_down, closed, j > 0, has_trick))
    return out


def likelihood(
    view: PlayerView,
    world: World,
    obs: Sequence[Observation],
    model: PolicyModel | None = None,
    cache: dict[tuple[int, frozenset[Card]], float] | None = None,
) -> float:
    """How likely the opponent's observed plays are if ``world`` is the truth (a product of probabilities).

    ``cache`` (one dict per decision, for the same ``obs``) keeps the probability of each observation from
    each hand: many worlds give the opponent the same hand at a past play.
    """
    if not obs:
        return 1.0
    model = model or model_for(view.variant.name)
    full = deck(view.variant.deck_size)
    trump = view.trump
    weight = 1.0
    for i, o in enumerate(obs):
        total = mass = 0.0
        for hand, count in hands_then(o, world):
            key = (i, frozenset(hand))
            q = None if cache is None else cache.get(key)
            if q is None:
                q = _probability(model, o, hand, full, trump, view.variant)
                if cache is not None:
                    cache[key] = q
            total += count * q
            mass += count
        weight *= total / mass
    return weight


def hands_then(o: Observation, world: World) -> list[tuple[list[Card], int]]:
    """The hands the opponent may have held at the play ``o`` if ``world`` is the truth, each with the
    number of draw orders that give it (every order alike).

    One hand if it drew nothing since: the cards it holds now, those it played
    since and the card itself.  After draws, that hand without the drawn
    cards: any of the cards held or played since, one per draw, except a card
    played before the draw.
    """
    held = [*world.opponent_hand, *o.later, o.card]
    if not o.draws:
        return [(held, 1)]
    counts: dict[frozenset[Card], int] = {}

    def pick(k: int, drawn: frozenset[Card]) -> None:
        if k == len(o.draws):
            counts[drawn] = counts.get(drawn, 0) + 1
            return
        for x in held:
            if x not in drawn and x not in o.draws[k]:
                pick(k + 1, drawn | {x})

    pick(0, frozenset())
    return [([c for c in held if c not in drawn], n) for drawn, n in counts.items()]


def _probability(
    model: PolicyModel, o: Observation, hand: list[Card], full: Sequence[Card], trump: Suit, v: TwoPlayerVariant
) -> float:
    """The (mixed) probability of the observed play from ``hand``."""
    if o.lead is not None and o.strict:
        legal = legal_follows(hand, [o.lead], trump, FollowRules.STRICT)
    else:
        legal = hand
    if o.card not in legal:
        return 0.0
    held = frozenset(hand)
    outstanding = [c for c in full if c not in held and c not in o.played_before]
    p = model.probability(o.card, CardChoice(hand, legal, o.lead, trump, outstanding, o.strict))
    if o.lead is None and model.special_rates:
        exchange = exchange_refusal(v, held, trump, o.face_down, o.closed, o.first_lead_done, o.has_trick) is None
        marriages = sum(
            1
            for k in hand
            if k.rank == Rank.KING
            and Card(k.suit, Rank.OBER) in held
            and marriage_refusal(v, held, k.suit, o.face_down, o.has_trick) is None
        )
        p *= model.plain_lead(exchange, marriages)
    return (1.0 - MIX) * p + MIX / len(legal)
