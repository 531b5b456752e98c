"""Bummerl: the Schnapsen family of card games — rules engine, matches and records.

>>> import bummerl
>>> game = bummerl.Game.deal("schnapsen", seed=42)
>>> action = game.legal_actions()[0]
>>> game.apply(action)
(Play(seat=0, card=Card.parse('Ts')),)
>>> game.to_move
1
"""

from bummerl.actions import Action, ActionKind
from bummerl.cards import CARDS, Card, Rank, Suit, deck, format_cards, parse_cards
from bummerl.errors import (
    BummerlError,
    IllegalActionError,
    PositionError,
    RecordError,
    Rule,
    UnknownVariantError,
)
from bummerl.game import Game
from bummerl.match import Match, Session
from bummerl.record import GameRecord, MatchRecord
from bummerl.rules.tricks import Trick
from bummerl.table_game import TableGame
from bummerl.two_player import TwoPlayerGame, player_view
from bummerl.variants import VARIANTS, EndReason, GameResult, TableVariant, TwoPlayerVariant, Variant, find_variant
from bummerl.view import PlayerView

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "VARIANTS",
    "Action",
    "ActionKind",
    "BummerlError",
    "Card",
    "EndReason",
    "Game",
    "GameRecord",
    "GameResult",
    "IllegalActionError",
    "Match",
    "MatchRecord",
    "PlayerView",
    "PositionError",
    "Rank",
    "RecordError",
    "Rule",
    "Session",
    "Suit",
    "TableGame",
    "TableVariant",
    "Trick",
    "TwoPlayerGame",
    "TwoPlayerVariant",
    "UnknownVariantError",
    "Variant",
    "deck",
    "find_variant",
    "format_cards",
    "parse_cards",
    "player_view",
]
