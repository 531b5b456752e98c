"""``bummerl play --participants 3|4``: Schnorps for three or four in the terminal.

Two play each game and the others wait, the loser pays everyone
(:class:`bummerl.schnorps_round.SchnorpsRound`, seeds/001).  Every
participant is a bot or a person at the console: ``--seat`` is yours, and
``--bots A,B,C`` names the others in seat order, where ``human`` is one more
person at the same keyboard (a hot seat: before each of their turns the
console asks to hand it over, and the game is told as a spectator sees it).

While you wait you follow the game as a spectator: no card drawn from the
talon and no hand is named.  When you play, the game is told from your side,
your opponent named by seat and name.

>>> import io
>>> from bummerl.commands.play_session import Console
>>> from bummerl.variants import find_variant
>>> out = io.StringIO()
>>> session = RoundSession(find_variant("schnorps"), 3, ["random", "random"], seed=2, lang="en",
...                        console=Console(io.StringIO("1\\n" * 3000), out), target=2)
>>> session.run()
0
>>> "Match over" in out.getvalue(), "pays" in out.getvalue()
(True, True)

Bots see their game seat's view and nothing else; so do you.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from bummerl.actions import Action
from bummerl.bots import Bot, make_bot
from bummerl.cards import marriage_value, sort_hand
from bummerl.commands.play_match import EVENT, PlayMatch
from bummerl.commands.play_session import HUMAN_SEAT, Console, PlaySession, QuitGame, other_seats
from bummerl.commands.play_text import card_names
from bummerl.game import Game
from bummerl.i18n import Messages
from bummerl.record import GameRecord, dumps
from bummerl.rng import derive_seed
from bummerl.schnorps_round import SchnorpsRound
from bummerl.text import Words, menu_label
from bummerl.variants import GameResult, TwoPlayerVariant, Variant
from bummerl.view import PlayerView

__all__ = ["HUMAN_SEAT", "RoundMatch", "RoundSession", "RoundWords"]

#: Path element of :func:`derive_seed` for the bots' own randomness ("BOT"), as ``bummerl play``.
_BOT_STREAM = 0x424F54


@dataclasses.dataclass(frozen=True)
class RoundWords(Words):
    """:class:`~bummerl.text.Words` for one game of a round: game seats named as participants.

    ``seat`` is the game seat told as "you" (``None``: a spectator's story);
    ``players`` the participants at game seats 0 and 1; ``labels`` each
    participant's label (``Platz 2 (random)``).
    """

    players: tuple[int, int] = (0, 1)
    labels: Mapping[int, str] = dataclasses.field(default_factory=dict)

    def _name(self, seat: int, you: str, computer: str, other: str, player: str) -> str:
        if seat == self.seat:
            return self(you)
        return self.labels[self.players[seat]]


class RoundMatch(PlayMatch):
    """A :class:`~bummerl.schnorps_round.SchnorpsRound` as the terminal plays it.

    ``labels`` names every participant (seat and who sits there).
    """

    def __init__(
        self, variant: Variant, participants: int, seed: int, labels: Mapping[int, str], target: int | None
    ) -> None:
        self.round = SchnorpsRound(TwoPlayerVariant.find(variant), participants, seed, target=target)
        super().__init__(self.round)
        self.labels = dict(labels)

    def _standing(self) -> str:
        return ", ".join(f"{self.labels[p]} {b:+d}" for p, b in enumerate(self.round.balance))

    def goal(self, w: Words) -> str:
        return w("round_goal", n=self.round.participants, target=self.round.target)

    def game_header(self, game: Game, w: Words) -> str:
        """Who deals, who plays and who waits in the game just dealt."""
        r = self.round
        a, b = (self.labels[p] for p in r.next_players)
        waiting = ", ".join(self.labels[p] for p in r.waiting)
        return w("round_header", n=len(r.games), dealer=self.labels[r.next_dealer], a=a, b=b, waiting=waiting)

    def result_lines(self, result: GameResult, w: Words) -> list[str]:
        r = self.round
        players = r.next_players  # the game is not paid yet: its players are still the current ones
        a, b = result.augen
        reason = w("reason_" + result.reason.value)
        names = [self.labels[p] for p in players]
        if result.winner is None:
            return ["", w("result_stand"), w("round_stand_again", m=2 * r.multiplier)]
        winner, loser = names[result.winner], names[1 - result.winner]
        marken = result.points * r.multiplier
        points = w("points", n=marken, unit=w.msgs.unit("Marken", marken))
        return [
            "",
            w("round_result", winner=winner, reason=reason, a=f"{names[0]} {a}", b=f"{b} {names[1]}"),
            w("round_pays", loser=loser, points=points, total=marken * (r.participants - 1)),
        ]

    def standing_lines(self, w: Words) -> list[str]:
        return [w("round_standing", standing=self._standing())]

    def final_lines(self, w: Words) -> list[str]:
        r = self.round
        winners = ", ".join(self.labels[p] for p in r.winners)
        return [w("round_over", winners=winners, top=max(r.balance), standing=self._standing())]

    def view_lines(self, view: PlayerView, w: Words) -> list[str]:
        """The table of a two-player game, with the opponent named (:func:`bummerl.text.render_view`'s lines)."""
        me, opp = view.player, view.opponent
        faces, lang = w.faces, w.lang
        other = w.who(opp)
        suit = w.suit(view.trump)
        talon = w("talon_cards", n=view.talon_size)
        card = view.trump_card.name(faces, lang) if view.trump_card else "-"
        if view.closed_by is not None:
            lines = [w("trump_line_closed", suit=suit, closer=w.whom(view.closed_by), talon=talon, card=card)]
        elif view.talon_size == 0:
            lines = [w("trump_line_empty", suit=suit)]
        else:
            lines = [w("trump_line", suit=suit, card=card, talon=talon)]
        if view.augen is not None:
            lines.append(w("round_augen", mine=view.augen[me], other=other, theirs=view.augen[opp]))
        lines.append(w("round_tricks", mine=view.tricks_won[me], other=other, theirs=view.tricks_won[opp]))
        if view.marriages:
            items = [
                w("marriage_item", who=w.whom(who), value=marriage_value(s, view.trump), suit=w.suit(s))
                for who, s in view.marriages
            ]
            lines.append(w("marriages_line", items="; ".join(items)))
        if view.opponent_known:
            known = sort_hand(list(view.opponent_known), view.trump)
            lines.append(w("round_known", other=other, cards=w.cards(known)))
        if view.lead is not None:
            lines.append(w("round_table_card", card=w.card(view.lead), who=other))
        return lines

    def label(self, action: Action, view: Any, w: Words) -> str:
        return menu_label(action, view, w.msgs, w.faces)

    def dumps(self, seats: Mapping[int, str]) -> str:
        """One game record per game, each naming its two players and the round's balances (no ``Match`` tag:
        a round has no match record, so each game is read on its own)."""
        r = self.round
        names = [seats[p] for p in range(r.participants)]
        texts = []
        for i, game in enumerate(r.games):
            tags = {"Event": EVENT, "Round": f"{self.variant.name}-{self.seed}", **r.record_tags(i, names)}
            texts.append(dumps(GameRecord.from_game(game, (), **tags)) + "\n")
        return "".join(texts)


class RoundSession(PlaySession):
    """A Schnorps round at the console: ``seat`` is yours, ``others`` name the other participants in seat
    order (a bot's name, or :data:`HUMAN_SEAT` for another person at the same keyboard)."""

    def __init__(
        self,
        variant: Variant,
        participants: int,
        others: str | Sequence[str],
        seed: int,
        faces: str = "german",
        lang: str = "de",
        record_path: str | None = None,
        console: Console | None = None,
        seat: int = 0,
        target: int | None = None,
    ) -> None:
        who = other_seats(seat, participants, others, f"with {participants} participants")
        msgs = Messages(lang)
        #: The participants at the console (you first).
        self.humans = [seat] + [p for p, name in who.items() if name == HUMAN_SEAT]
        self.bots: dict[int, Bot] = {}
        for p, name in who.items():
            if name != HUMAN_SEAT:
                self.bots[p] = make_bot(name, derive_seed(seed, _BOT_STREAM, p), variant)
        hot_seat = len(self.humans) > 1
        labels = {}
        for p in range(participants):
            if p in self.bots:
                name = self.bots[p].name
            else:
                name = msgs("round_human") if hot_seat else msgs("you")
            labels[p] = msgs("Seat", n=f"{p} ({name})")
        self.match: RoundMatch = RoundMatch(variant, participants, seed, labels, target)
        self.variant = self.match.variant
        self.seed = seed
        #: Your participant seat; while a person at the console acts, :attr:`seat` is their game seat.
        self.participant = seat
        self.seat = seat
        self.record_path = record_path
        self.console = console or Console()
        self.faces = faces
        self._msgs = msgs
        self.hot_seat = hot_seat
        self.words = self._words(None)
        self._names = card_names(self.variant.deck_size, faces)

    def _words(self, game_seat: int | None) -> RoundWords:
        r = self.match.round
        return RoundWords(
            self._msgs,
            self.faces,
            self.variant,
            game_seat,
            players=r.next_players,
            labels=self.match.labels,
        )

    def _welcome(self) -> str:
        w = self.words
        seats = ", ".join(self.match.labels[p] for p in range(self.match.round.participants))
        return w("round_welcome", variant=self.variant.title, n=self.match.round.participants, seats=seats)

    def seats(self) -> int:
        return self.match.round.participants

    def _story(self, players: Sequence[int]) -> Words:
        at_console = [g for g in (0, 1) if players[g] in self.humans]
        # Told from the side of the one person at the console who plays; else as a spectator sees it.
        self.words = self._words(at_console[0] if len(at_console) == 1 and not self.hot_seat else None)
        return self.words

    def _waiting(self, players: Sequence[int], story: Words) -> list[str]:
        return [story("round_you_wait")] if self.participant not in players and not self.hot_seat else []

    def _human_action(self, game: Game, seat: int, player: int, story: Words) -> Action:
        if self.hot_seat:
            answer = self.console.ask(story("round_handover", who=self.match.labels[player]))
            if answer is None:
                raise QuitGame(eof=True)
        self.seat = seat
        self.words = self._words(seat)
        try:
            return self._ask_action(game)
        finally:
            self.words = story
