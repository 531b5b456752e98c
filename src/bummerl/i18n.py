"""Every user-facing sentence of the terminal front end, in German and English.

Messages are looked up by key and formatted with keyword arguments; a
:class:`Messages` object binds the language.  Card names come from
:meth:`bummerl.cards.Card.name`, not from here.

>>> de, en = Messages("de"), Messages("en")
>>> de("you_took_trick")
'Du nimmst den Stich.'
>>> en("points", n=1, unit=en.unit("game points", 1))
'1 game point'
>>> Messages("fr")
Traceback (most recent call last):
...
ValueError: unknown language 'fr': expected 'de' or 'en'

The engine never imports this module: words are the front end's business.
"""

from __future__ import annotations

from bummerl.cards import LANGUAGES

__all__ = ["MESSAGES", "Messages"]

#: key -> (German, English).  Placeholders use :meth:`str.format` names.
MESSAGES: dict[str, tuple[str, str]] = {
    # --- match and game headers
    "welcome": (
        "Bummerl: {variant} gegen den Computer ({bot}).",
        "Bummerl: {variant} against the computer ({bot}).",
    ),
    # The seed deals every card of the match: shown only once the match is over or abandoned.
    "seed_note": (
        "Seed {seed}: mit --seed {seed} werden dieselben Karten noch einmal gegeben.",
        "Seed {seed}: --seed {seed} deals the same cards again.",
    ),
    "goal_bummerl": (
        "Gespielt wird ein Bummerl: beide beginnen bei 7, wer zuerst 0 erreicht, gewinnt.",
        "Playing a Bummerl: both start at 7; the first to count down to 0 wins.",
    ),
    "goal_marken": (
        "Gespielt wird um Marken: wer zuerst {target} Marken hat, gewinnt.",
        "Playing for Marken: the first to win {target} Marken wins.",
    ),
    "game_header": ("=== Spiel {n} · Geber: {dealer} ===", "=== Game {n} · dealer: {dealer} ==="),
    "you": ("du", "you"),
    "You": ("Du", "You"),
    "computer": ("Computer", "computer"),
    "Computer": ("Computer", "Computer"),
    "trump_line": (
        "Atout: {suit} · aufgeschlagen: {card} · Talon: {talon}",
        "Trump: {suit} · face-up card: {card} · talon: {talon}",
    ),
    "trump_line_closed": (
        "Atout: {suit} · Talon zugedreht von {closer} ({talon}, Atoutkarte {card})",
        "Trump: {suit} · talon closed by {closer} ({talon}, trump card {card})",
    ),
    "trump_line_empty": (
        "Atout: {suit} · Talon aufgebraucht: Farb- und Stichzwang",
        "Trump: {suit} · talon exhausted: follow suit and win if you can",
    ),
    "talon_cards": ("{n} Karten", "{n} cards"),
    "augen_line": ("Augen: du {mine}, Computer {theirs}", "Augen: you {mine}, computer {theirs}"),
    "augen_hidden": (
        "(Scharf: keine Augenanzeige, zählen musst du selbst)",
        "(Scharf: no running totals; count for yourself)",
    ),
    "tricks_line": ("Stiche: du {mine}, Computer {theirs}", "Tricks: you {mine}, computer {theirs}"),
    "marriages_line": ("Ansagen: {items}", "Marriages: {items}"),
    "marriage_item": ("{who} {value} in {suit}", "{who} {value} in {suit}"),
    "known_cards": ("Karten des Computers, die du kennst: {cards}", "Computer's cards you know: {cards}"),
    "table_card": ("Auf dem Tisch: {card} (vom Computer ausgespielt)", "On the table: {card} (led by the computer)"),
    "your_hand": ("Deine Karten:", "Your hand:"),
    "not_allowed_mark": ("nicht erlaubt", "not allowed"),
    "more_actions": ("Außerdem:", "Also:"),
    "prompt": (
        "Deine Wahl (Nummer oder Karte, ? Hilfe, q beenden): ",
        "Your choice (number or card, ? help, q quit): ",
    ),
    "continue": ("Weiter mit Enter (q beendet): ", "Press Enter to continue (q quits): "),
    # --- actions, described for the menu
    "menu_exchange": ("Atout-{rank} gegen {card} tauschen", "exchange your trump {rank} for {card}"),
    "menu_close": ("Zudrehen (Talon sperren)", "close the talon (Zudrehen)"),
    "menu_close_schnorps": ("Decken (Talon sperren)", "cover the talon (Decken)"),
    "menu_marriage": ("{value} ansagen und {card} ausspielen", "announce {value} and lead {card}"),
    "menu_declare": ("Genug! (ausmelden)", "Genug! (declare 66 and end the game)"),
    "menu_declare_schnorps": ("Weglegen (66 erreicht)", "lay down (Weglegen: 66 reached)"),
    "menu_declare_marriage": ("{value} in {suit} ansagen und ausmelden", "announce {value} in {suit} and declare"),
    # --- what happened
    "you_lead": ("Du spielst {card} aus.", "You lead {card}."),
    "you_follow": ("Du gibst {card} zu.", "You play {card}."),
    "marriage_announced": ("{who_cap} {verb} {value} in {suit} an.", "{who_cap} {verb} {value} in {suit}."),
    "verb_announce_you": ("sagst", "announce"),
    "verb_announce_bot": ("sagt", "announces"),
    "exchanged_you": ("Du tauschst {low} gegen {card}.", "You exchange {low} for {card}."),
    "closed_you": (
        "Du drehst zu: ab jetzt Farb- und Stichzwang.",
        "You close the talon: from now on follow suit and win if you can.",
    ),
    "declared_you": ("Du sagst: Genug!", "You say: Genug!"),
    "you_took_trick": ("Du nimmst den Stich.", "You take the trick."),
    "other_took_trick": ("{who} nimmt den Stich.", "{who} takes the trick."),
    "trick_line": ("Stich: {cards}. ", "Trick: {cards}. "),
    "you_draw": ("Du ziehst {card}.", "You draw {card}."),
    "talon_exhausted": (
        "Der Talon ist aufgebraucht: ab jetzt Farb- und Stichzwang.",
        "The talon is exhausted: from now on follow suit and win if you can.",
    ),
    # --- results
    "result_declared_you": ("Du hast dich ausgemeldet: {points}", "You declared 66: {points}"),
    "result_declared_bot": (
        "Der Computer hat sich ausgemeldet: {points} für ihn",
        "The computer declared 66: {points} for it",
    ),
    "result_wrong_you": (
        "Du hast dich mit nur {augen} Augen ausgemeldet – zu wenig: {points} für den Computer",
        "You declared with only {augen} Augen – not enough: {points} for the computer",
    ),
    "result_wrong_bot": (
        "Der Computer hat sich mit nur {augen} Augen ausgemeldet – zu wenig: {points} für dich",
        "The computer declared with only {augen} Augen – not enough: {points} for you",
    ),
    "result_closer_won_you": (
        "Zudrehen geglückt, du hast 66: {points}",
        "You closed the talon and reached 66: {points}",
    ),
    "result_closer_won_bot": (
        "Der Computer hat zugedreht und 66 erreicht: {points} für ihn",
        "The computer closed the talon and reached 66: {points} for it",
    ),
    "result_closer_failed_you_won": (
        "Der Computer hat zugedreht und es nicht geschafft: {points} für dich",
        "The computer closed the talon and failed: {points} for you",
    ),
    "result_closer_failed_bot_won": (
        "Du hast zugedreht und es nicht geschafft: {points} für den Computer",
        "You closed the talon and failed: {points} for the computer",
    ),
    "result_last_trick_you": ("Du hast den letzten Stich: {points}", "You won the last trick: {points}"),
    "result_last_trick_bot": (
        "Der Computer hat den letzten Stich: {points} für ihn",
        "The computer won the last trick: {points} for it",
    ),
    "result_66_you": ("Nach dem letzten Stich hast du 66: {points}", "After the last trick you have 66: {points}"),
    "result_66_bot": (
        "Nach dem letzten Stich hat der Computer 66: {points} für ihn",
        "After the last trick the computer has 66: {points} for it",
    ),
    "result_stand": (
        "Niemand hat 66 – das Spiel steht, keiner bekommt etwas.",
        "Nobody has 66 – the game stands, nobody scores.",
    ),
    "final_augen": ("Augen am Ende: du {mine}, Computer {theirs}.", "Augen at the end: you {mine}, computer {theirs}."),
    "points": ("{n} {unit}", "{n} {unit}"),
    "multiplier": ("(zählt {m}-fach nach Stehen)", "(counts {m} times after a stand)"),
    "standing_bummerl": (
        "Bummerl (von 7 abwärts): du {mine}, Computer {theirs}",
        "Bummerl (counting down from 7): you {mine}, computer {theirs}",
    ),
    "standing_marken": ("Marken: du {mine}, Computer {theirs}", "Marken: you {mine}, computer {theirs}"),
    "you_win_bummerl": (
        "Du gewinnst das Bummerl! Der Computer kriegt das Bummerl.",
        "You win! The computer gets the Bummerl.",
    ),
    "bot_wins_bummerl": ("Der Computer gewinnt – du kriegst das Bummerl.", "The computer wins – you get the Bummerl."),
    "schneider_you": (
        "Schneider! Der Computer hat keinen Punkt: zwei Bummerl.",
        "Schneider! The computer scored nothing: two Bummerl.",
    ),
    "schneider_bot": (
        "Schneider! Du hast keinen Punkt: zwei Bummerl für dich.",
        "Schneider! You scored nothing: two Bummerl for you.",
    ),
    "you_win_marken": (
        "Du gewinnst die Partie mit {mine}:{theirs} Marken!",
        "You win the match {mine}:{theirs} in Marken!",
    ),
    "bot_wins_marken": (
        "Der Computer gewinnt die Partie mit {theirs}:{mine} Marken.",
        "The computer wins the match {theirs}:{mine} in Marken.",
    ),
    # --- input handling
    "help": (
        "Gib die Nummer aus dem Menü ein, oder eine Karte: ihren Code (Ah, 10d, Qc),"
        " ihre Kurzform ({short}) oder ihren Namen ({name}).\n"
        "Außerdem: 'zudrehen', 'tauschen', 'genug', das Token in [Klammern] (pass, kontra, bid:gang),"
        " ?/hilfe, q/quit zum Beenden.",
        "Enter the number from the menu, or a card: its code (Ah, 10d, Qc), its short form ({short})"
        " or its name ({name}).\n"
        "Also: 'close', 'exchange', 'declare', the token in [brackets] (pass, kontra, bid:gang),"
        " ?/help, q/quit to quit.",
    ),
    "unknown_input": (
        "Das verstehe ich nicht: {text!r}. ? zeigt die Hilfe.",
        "I don't understand {text!r}. ? shows help.",
    ),
    "not_in_hand": ("{card} hast du nicht.", "You don't hold {card}."),
    "illegal": ("Das geht nicht ({rule}). Erlaubt: {allowed}", "Not allowed ({rule}). Allowed: {allowed}"),
    "not_possible": ("Das ist jetzt nicht möglich. Erlaubt: {allowed}", "That is not possible now. Allowed: {allowed}"),
    "eof": ("Eingabe beendet – das Spiel wird abgebrochen.", "Input closed – the game is abandoned."),
    "save_offer": (
        "Partie speichern? Dateiname eingeben (leer: nicht speichern): ",
        "Save the match? Enter a file name (empty: don't save): ",
    ),
    "saved": ("Gespeichert in {path}.", "Saved to {path}."),
    "save_failed": ("Speichern fehlgeschlagen: {error}", "Saving failed: {error}"),
    "bye": ("Servus!", "Bye."),
    "yes_words": ("j ja y yes", "y yes j ja"),
    # --- words the player may type for the special actions
    "words_close": ("zudrehen zu sperren decken close", "close zudrehen cover decken"),
    "words_exchange": ("tauschen austauschen exchange", "exchange swap tauschen"),
    "words_declare": ("genug ausmelden weglegen declare", "declare genug enough out"),
    "words_help": ("? hilfe help h", "? help hilfe h"),
    "words_quit": ("q quit ende beenden exit", "q quit exit end"),
    # --- bummerl play, every variant: who, the events, the table games' table and match
    "seat": ("Platz {n}", "seat {n}"),
    "Seat": ("Platz {n}", "Seat {n}"),
    # A record's seats, told to nobody in particular.
    "player": ("Spieler {n}", "player {n}"),
    "Player": ("Spieler {n}", "Player {n}"),
    "other_leads": ("{who} spielt {card} aus.", "{who} leads {card}."),
    "other_follows": ("{who} gibt {card} zu.", "{who} plays {card}."),
    "other_draws": ("{who} zieht {card}.", "{who} draws {card}."),
    "exchanged_other": ("{who} tauscht {low} gegen {card}.", "{who} exchanges {low} for {card}."),
    "closed_other": (
        "{who} dreht zu: ab jetzt Farb- und Stichzwang.",
        "{who} closes the talon: from now on follow suit and win if you can.",
    ),
    "declared_other": ("{who} sagt: Genug!", "{who} says: Genug!"),
    "welcome_table": (
        "{variant}: du sitzt auf Platz {seat}{partner}; Bots: {bots}.",
        "{variant}: you sit in seat {seat}{partner}; bots: {bots}.",
    ),
    "partner": (", dein Partner auf Platz {p}", ", your partner in seat {p}"),
    "goal_table": (
        "Gespielt wird bis {target} Punkte: wer sie zuerst hat, gewinnt die Partie.",
        "Playing to {target} game points: the first to reach them wins the match.",
    ),
    "cut": ("{who}: abheben (erst drei Karten, dann der Rest).", "{who}: cut (three cards first, then the rest)."),
    "knock": ("{who}: klopfen (alle Karten auf einmal).", "{who}: knock (all cards at once)."),
    "trump_call": ("{who}: {suit} ist Trumpf.", "{who}: {suit} is trump."),
    "trump_turn": ("{who}: {card} aufgeschlagen, {suit} ist Trumpf.", "{who}: turns up {card}, {suit} is trump."),
    "bid": ("{who}: {contract}.", "{who}: {contract}."),
    "pass": ("{who}: passe.", "{who}: pass."),
    "double": ("{who}: {word}!", "{who}: {word}!"),
    "contract": ("Spiel: {contract}, Spielmacher: {who}.", "Contract: {contract}, declarer {who}."),
    "take_talon": ("{who}: Talon aufgenommen.", "{who}: takes up the talon."),
    "take_talon_cards": ("{who}: Talon aufgenommen: {cards}.", "{who}: talon taken up: {cards}."),
    "skip_talon": ("{who}: Talon liegen gelassen (ein Punkt mehr).", "{who}: leaves the talon (one point more)."),
    "discard": ("{who}: eine Karte abgelegt.", "{who}: lays a card away."),
    "discard_card": ("{who}: {card} abgelegt.", "{who}: {card} laid away."),
    "table_trump": ("Trumpf: {suit}", "Trump: {suit}"),
    "table_bids": ("Reizung: {bids}", "Bidding: {bids}"),
    "table_contract": (
        "Spiel: {contract}, Spielmacher: {who}{doubling}",
        "Contract: {contract}, declarer {who}{doubling}",
    ),
    "table_augen": ("Augen: Spielmacher-Seite {a}, Gegenspieler {b}", "Augen: declarer's side {a}, defenders {b}"),
    "table_trick": ("Am Tisch: {cards}", "On the table: {cards}"),
    "menu_cut": ("abheben", "cut"),
    "menu_knock": ("klopfen (alle Karten auf einmal)", "knock (all cards at once)"),
    "menu_turn": ("Trumpf aufschlagen", "turn up a card for trump"),
    "menu_pass": ("passen", "pass"),
    "menu_take_talon": ("Talon aufnehmen", "take up the talon"),
    "menu_skip_talon": ("Talon liegen lassen (ein Punkt mehr)", "leave the talon (one point more)"),
    "menu_discard": ("{card} ablegen", "lay away {card}"),
    "menu_bid": ("{contract} ({points})", "{contract} ({points})"),
    "table_result": (
        "Ergebnis: {winners}: {points} ({reason}{mult}).",
        "Result: {winners}: {points} ({reason}{mult}).",
    ),
    "redeal": ("Drei Unter: es wird neu gegeben.", "Three Unter: the cards are dealt again."),
    "reason_contract_won": ("Spiel gewonnen", "contract made"),
    "reason_contract_lost": ("Spiel verloren", "contract lost"),
    "reason_claimed": ("aufgelegt", "claimed"),
    "standing_table": ("Stand: {standing}", "Standing: {standing}"),
    "match_over": (
        "Partie aus: {winners} gewinnt. Bummerl: {bummerl}.",
        "Match over: {winners} won. Bummerl: {bummerl}.",
    ),
    "save_name": ("Dateiname: ", "File name: "),
    "no_words": ("n nein no", "n no nein"),
    # --- bummerl play --participants 3|4: Schnorps for three or four (seeds/001, bummerl.commands.play_round)
    "round_welcome": ("{variant} zu {n}: {seats}.", "{variant} for {n}: {seats}."),
    "round_goal": (
        "Es spielen immer zwei, der Geber (zu viert auch der nach ihnen) wartet; wer verliert, zahlt allen {n}."
        " Nach jeder vollen Runde endet die Partie, sobald jemand {target} Marken im Plus hat.",
        "Two play each game; the dealer (at four also the one after them) waits; the loser pays all {n}."
        " After each full round the match ends once someone is {target} Marken up.",
    ),
    "round_header": (
        "=== Spiel {n} · Geber: {dealer} · es spielen {a} (Vorhand) und {b} · es wartet: {waiting} ===",
        "=== Game {n} · dealer: {dealer} · {a} (Vorhand) plays {b} · waiting: {waiting} ===",
    ),
    "round_you_wait": ("Du wartest dieses Spiel ab und siehst zu.", "You sit this game out and watch."),
    "round_handover": (
        "{who} ist dran – Enter, wenn nur {who} auf den Bildschirm sieht: ",
        "{who} to play – press Enter when only {who} is looking: ",
    ),
    "round_human": ("Mensch", "human"),
    "round_augen": ("Augen: du {mine}, {other} {theirs}", "Augen: you {mine}, {other} {theirs}"),
    "round_tricks": ("Stiche: du {mine}, {other} {theirs}", "Tricks: you {mine}, {other} {theirs}"),
    "round_known": ("Karten von {other}, die du kennst: {cards}", "Cards of {other} you know: {cards}"),
    "round_table_card": ("Auf dem Tisch: {card} (ausgespielt von {who})", "On the table: {card} (led by {who})"),
    "round_result": ("Spiel an {winner} ({reason}); Augen {a}:{b}.", "Game to {winner} ({reason}); Augen {a}:{b}."),
    "round_pays": (
        "{loser} zahlt jedem {points} ({total} zusammen).",
        "{loser} pays {points} to everyone ({total} in all).",
    ),
    "round_stand_again": (
        "Dieselben zwei spielen noch einmal, das nächste Spiel zählt {m}-fach.",
        "The same two play again; the next game counts {m} times.",
    ),
    "round_standing": ("Marken: {standing}", "Marken: {standing}"),
    "round_over": (
        "Partie aus: {winners} gewinnt mit {top:+d} Marken. Stand: {standing}",
        "Match over: {winners} won, {top:+d} Marken. Standing: {standing}",
    ),
    # --- replay
    "replay_game": (
        "=== Spiel {n}: {variant} · Geber: {dealer} ===",
        "=== Game {n}: {variant} · dealer: {dealer} ===",
    ),
    "replay_hand": ("{who}: {cards}", "{who}: {cards}"),
    "replay_trump": ("Atout: {suit} (aufgeschlagen: {card})", "Trump: {suit} (face-up card: {card})"),
    "replay_talon": ("Talon (in Ziehreihenfolge): {cards}", "Talon (in draw order): {cards}"),
    "replay_draws": ("  gezogen: {items}", "  drawn: {items}"),
    "replay_trick_cards": ("Stich {n}: {cards} → {winner}", "Trick {n}: {cards} → {winner}"),
    "replay_talon_lying": ("Talon: {cards}", "Talon: {cards}"),
    "replay_result": ("Ergebnis: {text}", "Result: {text}"),
    "replay_result_text": (
        "{winner} gewinnt {points} ({reason}); Augen {a0}:{a1}",
        "{winner} wins {points} ({reason}); Augen {a0}:{a1}",
    ),
    "replay_unfinished": ("(Spiel nicht beendet)", "(game not finished)"),
    "replay_stand": ("keiner gewinnt ({reason}); Augen {a0}:{a1}", "nobody wins ({reason}); Augen {a0}:{a1}"),
    "replay_match_end_bummerl": (
        "Bummerl: {winner} gewinnt; Stand (von 7 abwärts) {s0}:{s1}.{schneider}",
        "Bummerl: {winner} wins; score (counting down from 7) {s0}:{s1}.{schneider}",
    ),
    "replay_match_end_marken": (
        "Partie: {winner} gewinnt mit {s0}:{s1} Marken.",
        "Match: {winner} wins, {s0}:{s1} in Marken.",
    ),
    "replay_schneider": (" Schneider!", " Schneider!"),
    "reason_declared": ("ausgemeldet", "declared"),
    "reason_wrong_declaration": ("falsch ausgemeldet", "wrong declaration"),
    "reason_closer_won": ("Zudrehen geglückt", "closer succeeded"),
    "reason_closer_failed": ("Zudrehen misslungen", "closer failed"),
    "reason_last_trick": ("letzter Stich", "last trick"),
    "reason_stand": ("Spiel steht", "the game stands"),
    "reason_redeal": ("neu gegeben", "dealt again"),
}

_UNITS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    # unit -> ((de singular, de plural), (en singular, en plural))
    "game points": (("Punkt", "Punkte"), ("game point", "game points")),
    "Marken": (("Marke", "Marken"), ("Mark", "Marken")),
}


class Messages:
    """The messages of one language; call with a key and format arguments."""

    def __init__(self, lang: str = "de") -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}: expected 'de' or 'en'")
        self.lang = lang
        self._index = LANGUAGES.index(lang)

    def __call__(self, key: str, **kwargs: object) -> str:
        try:
            text = MESSAGES[key][self._index]
        except KeyError:
            raise KeyError(f"no message {key!r}") from None
        return text.format(**kwargs) if kwargs else text

    def words(self, key: str) -> set[str]:
        """The words of a ``words_*`` message, as a set (both languages' words are listed)."""
        return set(self(key).split())

    def unit(self, unit: str, n: int) -> str:
        """The unit of a result (``game points`` or ``Marken``) in this language, by number."""
        forms = _UNITS.get(unit)
        if forms is None:
            return unit
        singular, plural = forms[self._index]
        return singular if n == 1 else plural
