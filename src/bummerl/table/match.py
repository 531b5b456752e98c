"""The match of a table game: games to 24 points, Bummerl and Schneider.

seeds/004: "Sobald ein Team 24 oder mehr Spielpunkte erreicht, gewinnt das Team
die Partie ... das Verliererteam [bekommt] ein „Bummerl“ ... Haben die Verlierer
keinen Spielpunkt ..., sind sie „Schneider“; das zählt als doppelter Gewinn und
wird mit zwei Bummerln belohnt."  seeds/003: "Am Ende jeden Spiels wird der Rufer
zum Geber" — the deal passes to the left; after a redeal (three Unter) the same
dealer deals again.

With four players the score is kept per team (seats 0 and 2 are team 0, seats 1
and 3 team 1); with three players per seat ("jeder gegen jeden").  If two
players of Dreierschnapsen pass the target in the same game (both defenders
scoring), both win and only the third gets the Bummerl.

>>> m = TableMatch("bauernschnapsen", seed=11)
>>> while not m.is_over:
...     t = m.table
...     t.apply(t.legal_actions()[0])
...     _ = m.advance()
>>> max(m.scores) >= 24 and sum(m.bummerl) >= 1
True

Every game gets its own seed ``derive_seed(seed, game_number)``, or with a secret
``deal_key`` the one-way ``keyed_seed(deal_key, game_number)`` (:mod:`bummerl.rng`).
"""

from __future__ import annotations

from bummerl.rng import derive_seed, keyed_seed
from bummerl.table.game import Table, TableEndReason, TableResult
from bummerl.variants import find_table_variant
from bummerl.variants.bauernschnapsen import TableVariant

__all__ = ["TableMatch"]


class TableMatch:
    """A sequence of table games with one seed, until a side reaches the target."""

    def __init__(
        self,
        variant: TableVariant | str = "bauernschnapsen",
        seed: int = 0,
        first_dealer: int = 0,
        *,
        deal_key: bytes | None = None,
    ) -> None:
        self.variant = find_table_variant(variant) if isinstance(variant, str) else variant
        n = self.variant.players
        if first_dealer not in range(n):
            raise ValueError(f"first_dealer must be a seat 0..{n - 1}, not {first_dealer!r}")
        self.seed = seed
        self.deal_key = deal_key
        #: Score per team (four players) or per seat (three players).
        self.scores: list[int] = [0] * self.sides
        #: Bummerl per team or seat, given when the match ends.
        self.bummerl: list[int] = [0] * self.sides
        self.results: list[TableResult] = []
        self.games: list[Table] = []
        self.winners: tuple[int, ...] = ()
        self._dealer = first_dealer
        self.table = self._new_table()

    @property
    def sides(self) -> int:
        """Scoring units: 2 teams with four players, 3 seats with three."""
        return 2 if self.variant.players == 4 else 3

    def side_of(self, seat: int) -> int:
        """The team (four players) or the seat itself (three players)."""
        return seat % 2 if self.variant.players == 4 else seat

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    def _new_table(self) -> Table:
        n = len(self.games)
        seed = derive_seed(self.seed, n) if self.deal_key is None else keyed_seed(self.deal_key, n)
        table = Table.deal(self.variant, seed, self._dealer)
        self.games.append(table)
        return table

    def advance(self) -> bool:
        """Score the current game if it is over (and deal the next); ``True`` if it did."""
        result = self.table.result
        if result is None or self.is_over:
            return False
        self.score(result)
        return True

    def score(self, result: TableResult) -> None:
        """Count one game's result, then end the match or deal the next game.

        :meth:`advance` calls this with the current table's result; scoring a
        result directly is for matches kept by hand (and tests).
        """
        if self.is_over:
            raise ValueError("the match is over")
        self.results.append(result)
        credited = {self.side_of(s) for s in result.winners}
        for side in credited:
            self.scores[side] += result.points
        if result.reason is not TableEndReason.REDEAL:
            self._dealer = (self._dealer + 1) % self.variant.players
        target = self.variant.match_target
        winners = tuple(s for s in range(self.sides) if self.scores[s] >= target)
        if winners:
            self.winners = winners
            for s in range(self.sides):
                if s not in winners:
                    # Schneider: "Haben die Verlierer keinen Spielpunkt" — two Bummerl.
                    self.bummerl[s] = 2 if self.scores[s] == 0 else 1
            return
        self.table = self._new_table()
