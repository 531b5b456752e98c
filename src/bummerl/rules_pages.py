"""The short rules page of each variant, in German and English, built from the engine's own values.

The web page ``#/rules/<variant>`` (``GET /api/rules/{variant}``) shows what this
module returns.  Every number the page states is a value the engine computes: the
Augen of the cards (:attr:`bummerl.cards.Rank.augen`), the deal of the variant,
what its rule functions allow (:func:`bummerl.rules.talon.close_refusal` and its
siblings, asked with made-up positions), what its scoring hooks pay for made-up
ends of a game (:meth:`~bummerl.variants.TwoPlayerVariant.score_declaration`), the
contracts of a table game (:class:`~bummerl.variants.bauernschnapsen.Contract`),
and, where the table engine has no named value, what a short scripted game of
:class:`~bummerl.table_game.TableGame` scores.  The sentences around the values are
templates without a single digit, so a value can only come from here
(``tests/test_rules_pages.py`` checks both, and that each number also stands in
the variant's section of ``docs/rules.md``).

>>> from bummerl.variants import find_variant
>>> page = rules_page(find_variant("schnapsen"), "en")
>>> page["values"]["target"], page["values"]["augen"], page["doc"]
(66, [11, 10, 4, 3, 2], 'docs/rules.md#schnapsen-weich-default-schnapsen-weich')
>>> [s["id"] for s in page["sections"]]
['goal', 'cards', 'deal', 'play', 'exchange', 'close', 'marriages', 'out', 'end', 'match', 'house_rules']
>>> page["sections"][7]["text"][1]
'Points: 3 if the opponent has no trick, 2 with 32 Augen or fewer, 1 with 33 or more.'
>>> dreier = rules_page(find_variant("dreier", zehnerloch_points=8), "de")
>>> [(c["name"], c["points_text"]) for c in dreier["contracts"]][3:5]
[('gang', '9 Punkte'), ('zehnerloch', '8 Punkte')]

The page is plain JSON: ``sections`` (each ``id``, ``heading``, ``text`` paragraphs,
and optionally ``cards`` to draw with their captions and a ``table``), the
``house_rules`` (every option with its value and default), the ``contracts`` of a
table game (what each means and scores, also shown beside the bidding buttons),
``values`` (every number used) and ``doc`` (the section of the project's rules
documentation).  This module must not import the server; it never sees a game in
play, so it cannot tell anyone a card.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from bummerl.cards import Card, Rank, Suit, deck, marriage_value, siegpunkte
from bummerl.match import DEFAULT_TARGET
from bummerl.rules.talon import (
    close_refusal,
    declare_refusal,
    exchange_refusal,
    marriage_card_refusal,
    marriage_refusal,
)
from bummerl.table_game import TableGame
from bummerl.variants import SCHNAPSEN, EndReason, TableVariant, TwoPlayerVariant, Variant, find_variant
from bummerl.variants.bauernschnapsen import Bidders, Contract, Goal, Phase, Requirement, TableEndReason

__all__ = ["LANGS", "RULES_DOCS", "TEXTS", "anchor", "contract_rows", "numbers", "rules_page", "texts_of"]

#: The languages of the page.
LANGS = ("de", "en")

#: Where each variant's rules are documented: the file and the heading of its section.
RULES_DOCS: dict[str, tuple[str, str]] = {
    "schnapsen": ("docs/rules.md", "Schnapsen weich (default; `schnapsen`, `weich`)"),
    "schnapsen-scharf": ("docs/rules.md", "Schnapsen scharf (`scharf`, `schnapsen-scharf`, `hart`)"),
    "sechsundsechzig": ("docs/rules.md", "Sechsundsechzig (`66`, `sechsundsechzig`)"),
    "schnorps": ("docs/rules.md", "Schnorps (`schnorps`)"),
    "bauernschnapsen": ("docs/rules.md", "Bauernschnapsen (`bauernschnapsen`)"),
    "dreierschnapsen": ("docs/rules.md", "Dreierschnapsen (`dreierschnapsen`)"),
}

# --------------------------------------------------------------------------------------------- the texts
# Templates without digits: every number comes in through a {placeholder} filled from the page's values.
# Words in {braces} that are not values are names (cards, ranks, units, lists of such).

_DE: dict[str, str] = {
    # headings
    "h_goal": "Worum es geht",
    "h_cards": "Karten und Augen",
    "h_deal": "Geben und Kaufen",
    "h_tg_deal": "Geben und Atout",
    "h_play": "Stiche",
    "h_exchange": "Austauschen",
    "h_exchange_schnorps": "Rauben",
    "h_close": "Zudrehen",
    "h_close_schnorps": "Decken",
    "h_marriages": "Ansagen (Zwanziger, Vierziger)",
    "h_out": "Ausmelden („Genug“)",
    "h_out_schnorps": "Weglegen",
    "h_end": "Der letzte Stich",
    "h_match": "Die Partie",
    "h_house": "Hausregeln",
    "h_bidding": "Lizitieren und Spiele",
    "h_talon": "Der Talon",
    "h_doubling": "Kontra",
    "h_normal": "Normales Spiel: Ansagen und „Genug“",
    "h_scoring": "Punkte und Partie",
    # two players
    "goal": "{players} Spieler, {deck} Karten, je {hand} auf der Hand. Wer zuerst {target} Augen aus Stichen und "
    "Ansagen zählt, meldet sich aus und gewinnt das Spiel.",
    "goal_schnorps": "{players} Spieler, {deck} Karten (bis zur Sieben), je {hand} auf der Hand. Wer zuerst "
    "{target} Augen zählt, legt die Karten weg und gewinnt; bezahlt wird in Marken.",
    "cards": "Von hoch nach niedrig: {ranks}. Alle Karten zusammen zählen {total} Augen.",
    "deal": "Der Geber gibt: {packets}. Die aufgeschlagene Karte bestimmt Atout und liegt offen unter dem Talon; "
    "{facedown} Karten liegen verdeckt darauf.",
    "packet_v": "Vorhand {n}",
    "packet_d": "Geber {n}",
    "packet_t": "eine Karte wird aufgeschlagen",
    "deal_draw": "Vorhand (der Gegner des Gebers) spielt zum ersten Stich aus. Nach jedem Stich kauft der Gewinner "
    "die oberste Karte des Talons, dann der andere; der Gewinner spielt wieder aus.",
    "play_open": "Solange der Talon offen ist, darf man jede Karte spielen: kein Farb- und kein Stichzwang.",
    "play_strict": "Ist der Talon aufgebraucht oder zugedreht, muss man mit einer höheren Karte der ausgespielten "
    "Farbe stechen, sonst Farbe bekennen, sonst mit Atout stechen, sonst eine beliebige Karte abwerfen. Farbzwang "
    "geht vor Stichzwang.",
    "play_strict_schnorps": "Nach dem Decken und wenn der Talon erschöpft ist, muss man mit einer höheren Karte "
    "der ausgespielten Farbe stechen, sonst Farbe bekennen, sonst mit Atout stechen, sonst eine beliebige Karte "
    "abwerfen.",
    "play_win": "Den Stich gewinnt die höchste Karte der ausgespielten Farbe oder das höchste Atout.",
    "play_no_totals": "Scharf: abgelegte Stiche darf man nicht mehr ansehen – die Seite zeigt keinen Augenstand.",
    "trump_card": "Atout-{rank}",
    "exchange": "Wer am Ausspiel ist und das kleinste Atout hält ({card}), darf es vor dem Ausspielen gegen die "
    "aufgeschlagene Karte tauschen, solange der Talon offen ist.",
    "exchange_schnorps": "Wer am Ausspiel ist und das kleinste Atout hält ({card}), darf damit die aufgeschlagene "
    "Karte rauben (tauschen), solange der Talon offen ist.",
    "exchange_first_yes": "Das geht schon vor dem ersten Ausspiel.",
    "exchange_first_no": "Nicht vor dem ersten Ausspiel von Vorhand.",
    "exchange_one_yes": "Auch wenn nur noch eine Karte verdeckt auf der Atoutkarte liegt.",
    "exchange_one_no": "Nicht mehr, wenn nur noch eine Karte verdeckt auf der Atoutkarte liegt.",
    "exchange_trick": "Erst nachdem man einen Stich gemacht hat.",
    "exchange_off": "Hausregel: ohne Rauben, die aufgeschlagene Karte bleibt liegen.",
    "caption_hand": "in der Hand",
    "caption_face_up": "aufgeschlagen",
    "close": "Wer am Ausspiel ist, darf vor dem Ausspielen den Talon zudrehen, solange noch mindestens {close_min} "
    "{close_cards} verdeckt auf der Atoutkarte liegen.",
    "close_schnorps": "Wer am Ausspiel ist, darf den Talon decken (die Atoutkarte umdrehen), solange noch "
    "mindestens {close_min} {close_cards} verdeckt liegen.",
    "close_trick": "Das geht erst, nachdem man einen Stich gemacht hat.",
    "close_effect": "Danach wird nicht mehr gekauft, es gilt Farb- und Stichzwang, und der letzte Stich "
    "entscheidet nichts: der Zudreher muss {target} Augen erreichen und sich ausmelden.",
    "close_effect_schnorps": "Danach wird nicht mehr gekauft, mit Farb- und Stichzwang; der Deckende legt weg, "
    "sobald er {target} Augen hat, spätestens mit seiner letzten Karte.",
    "close_win": "Schafft der Zudreher das, zählen seine Punkte nach den Augen, die der Gegner beim Zudrehen hatte.",
    "close_win_after": "Schafft der Zudreher das, zählen seine Punkte nach den Augen des Gegners am Spielende "
    "(Hausregel).",
    "close_fail": "Schafft er es nicht oder meldet sich der Gegner zuerst aus, bekommt der Gegner {fail_trick} "
    "Punkte, oder {fail_no_trick}, wenn er beim Zudrehen noch keinen Stich hatte.",
    "close_marken": "Gewinnt der Deckende, zahlt der Verlierer doppelt: {mc1}, als Schneider {mc2}, ohne Stich "
    "{mc3} Marken. Verdeckt er sich (keine {target} Augen, oder der Gegner hat sie zuerst), zahlt er {m_fail}.",
    "marriage": "Wer am Ausspiel ist und {king} und {ober} einer Farbe hält, darf sie ansagen und spielt eine der "
    "beiden aus: {m20} Augen, in Atout {m40}.",
    "marriage_king": "Scharf: ausgespielt werden muss der {king}.",
    "marriage_before_yes": "Das geht schon vor dem ersten Stich, zählt aber erst, wenn man einen Stich gemacht hat.",
    "marriage_before_no": "Ansagen erst, nachdem man einen Stich gemacht hat.",
    "marriage_after_yes": "Auch nach dem Zudrehen und wenn der Talon aufgebraucht ist.",
    "marriage_after_no": "Nur solange der Talon nicht erschöpft ist; das Decken beendet sie nicht.",
    "marriage_off": "Hausregel: ohne Ansagen.",
    "caption_trump_pair": "Vierziger: {m40} ({suit} ist Atout)",
    "caption_pair": "Zwanziger: {m20}",
    "out": "Wer am Ausspiel ist, einen Stich gemacht hat und {target} Augen zählt, sagt „Genug“: das Spiel ist "
    "sofort aus.",
    "out_auto": "Hausregel: mit {target} Augen endet das Spiel von selbst.",
    "out_points": "Punkte: {p3}, wenn der Gegner keinen Stich hat, {p2} mit höchstens {low} Augen, {p1} ab "
    "{threshold} Augen.",
    "out_wrong": "Wer mit weniger als {target} Augen „Genug“ sagt, verliert: der Gegner bekommt die Punkte, die der "
    "Ausmelder bei richtigem „Genug“ bekommen hätte.",
    "out_schnorps": "Nach einem gemachten Stich darf man die Karten weglegen: mit {target} Augen gewinnt man, "
    "sonst zahlt man {m_wrong} Marken ({m_wrong_covered}, wenn der Gegner gedeckt hat).",
    "out_marken": "Der Verlierer zahlt {m1}, als Schneider (unter {threshold} Augen) {m2}, ohne Stich {m3} Marken.",
    "end_last_trick": "Hat sich niemand ausgemeldet, gewinnt, wer den letzten Stich macht – auch mit weniger "
    "Augen – und bekommt {last_points} {last_unit}.",
    "end_last_trick_augen": "Hat sich niemand ausgemeldet, gewinnt, wer den letzten Stich macht – auch mit "
    "weniger Augen; Hausregel: die Punkte zählen wie beim Ausmelden.",
    "end_sixty_six": "Wird bis zur letzten Karte gespielt, zählt der letzte Stich {bonus} Augen mehr (nicht nach "
    "dem {closing}). Dann gewinnt, wer {target} Augen hat; haben beide so viele, der Gewinner des letzten Stichs.",
    "end_stand": "Haben beide {stand}, steht das Spiel: niemand bekommt etwas.",
    "end_stand_schnorps": "Haben beide {stand}, steht das Spiel: es wird neu um das Geben gezogen und das nächste "
    "Spiel zählt doppelt (nach zwei Ständen vierfach).",
    "match_bummerl": "Beide beginnen bei {match_target} und zählen die gewonnenen Punkte herunter. Wer zuerst keine "
    "Punkte mehr braucht, gewinnt; der Verlierer bekommt ein Bummerl, ohne einen einzigen Punkt zwei (Schneider). "
    "Der Geber wechselt jedes Spiel.",
    "match_marken": "Gespielt wird, bis einer {match_target} Marken gewonnen hat. Der Gewinner eines Spiels gibt "
    "das nächste.",
    "house_none": "Das sind die üblichen Regeln. Beim Anlegen eines Tisches kann man diese Hausregeln wählen:",
    "house_some": "Mit diesen Hausregeln, oben schon eingerechnet:",
    # table games
    "tg_goal_teams": "{players} Spieler in zwei Teams (die Gegenübersitzenden), {deck} Karten, je {hand} auf der "
    "Hand, kein Talon. Wer ein Spiel ansagt, muss dessen Ziel erreichen; sonst bekommen die Gegner die Punkte.",
    "tg_goal_solo": "{players} Spieler, {deck} Karten, je {hand} auf der Hand und {talon} als Talon. Wer das "
    "Lizitieren gewinnt, spielt allein gegen die beiden anderen.",
    "tg_cards_trump": "Atout sticht jede andere Farbe. Manche Spiele werden ohne Atout oder mit anderer Reihenfolge "
    "gespielt (siehe die Tabelle).",
    "tg_deal": "Der Spieler rechts vom Geber hebt ab oder klopft. Vorhand (links vom Geber) bestimmt Atout aus den "
    "ersten drei Karten oder schlägt eine der nächsten Karten auf.",
    "tg_redeal": "Wer in den ersten drei Karten drei Unter bekommt, zeigt sie: es wird neu gegeben.",
    "tg_bidding": "Lizitiert wird im Uhrzeigersinn ab Vorhand; Vorhand beginnt und darf nicht passen. Jedes Gebot "
    "muss höher sein (dasselbe darf nur, wer früher an der Reihe ist); wer passt, ist draußen. Gespielt wird das "
    "letzte Gebot.",
    "tg_table_contract": "Spiel",
    "tg_table_points": "Punkte",
    "tg_table_who": "Wer darf",
    "tg_table_goal": "Ziel",
    "tg_talon": "Der Alleinspieler nimmt den Talon auf, ohne ihn zu zeigen, und legt {talon} Karten verdeckt weg; "
    "ihre Augen zählen für niemanden.",
    "tg_talon_skip": "Hausregel: Er darf den Talon liegen lassen; dann ist das Spiel {skip_bonus} {skip_unit} mehr "
    "wert.",
    "tg_talon_raise": "Hausregel: Nach dem Aufnehmen darf er ein höheres Spiel ansagen.",
    "tg_doubling": "Nach dem Lizitieren darf verdoppelt werden, jeder Schritt auf den vorigen: {steps}.",
    "tg_step_kontra": "Kontra (ein Gegenspieler) ×{factor}",
    "tg_step_rekontra": "Rekontra (die Ansager) ×{factor}",
    "tg_step_rekontra_solo": "Rekontra (der Alleinspieler) ×{factor}",
    "tg_step_subkontra": "Subkontra (ein Gegenspieler) ×{factor}",
    "tg_doubling_none": "Hausregel: ohne Kontra.",
    "tg_play": "Man muss Farbe bekennen und den Stich wenn möglich übernehmen – auch über den Partner –, sonst "
    "mit Atout stechen, über ein Atout im Stich überstechen und, wenn das nicht geht, ein kleineres Atout "
    "zugeben.",
    "tg_play_solo": "Man muss Farbe bekennen und den Stich wenn möglich übernehmen, sonst mit Atout stechen, über "
    "ein Atout im Stich überstechen und, wenn das nicht geht, ein kleineres Atout zugeben.",
    "tg_lead": "Bei Spielen mit Atout spielt Vorhand aus, bei Spielen ohne Atout der Ansager.",
    "tg_normal": "Im Normalspiel zählt ein Paar aus {king} und {ober}, wenn man eine der Karten ausspielt: {m20} "
    "Augen, in Atout {m40}. Vorhand darf schon zum ersten Stich ansagen, alle anderen erst nach einem Stich.",
    "tg_genug": "Hat die Seite {target} Augen, sagt man „Genug“: {p1} Punkt, {p2}, wenn die Gegner unter "
    "{threshold} Augen haben, {p3}, wenn sie keinen Stich haben. Falsches „Genug“ gibt den Gegnern diese Punkte.",
    "tg_last_trick": "Sagt niemand „Genug“, bekommt die Seite des letzten Stichs {last_points} {last_unit}.",
    "tg_scoring_teams": "Ein gewonnenes Spiel zählt für das Team des Ansagers, ein verlorenes für das andere, mal "
    "Kontra. Wer zuerst {match_target} Punkte hat, gewinnt; die Verlierer bekommen ein Bummerl, ohne einen Punkt "
    "zwei (Schneider).",
    "tg_scoring_solo": "Ein gewonnenes Spiel zählt für den Alleinspieler, ein verlorenes für jeden der beiden "
    "Gegenspieler, mal Kontra. Jeder zählt für sich bis {match_target}; die anderen bekommen ein Bummerl, ohne "
    "einen Punkt zwei (Schneider).",
    # contracts
    "c_goal_sixty_six": "zuerst {target} Augen, dann „Genug“",
    "c_goal_no_trick": "keinen Stich machen",
    "c_goal_first_tricks_66": "die ersten {n} Stiche machen, mit {target} Augen",
    "c_goal_all_tricks": "alle Stiche machen",
    "c_goal_claim": "gewonnen, sobald die Karten gezeigt sind",
    "c_trump": "Atout zählt",
    "c_no_trump": "ohne Atout",
    "c_lead_vorhand": "Vorhand spielt aus",
    "c_lead_declarer": "der Ansager spielt aus",
    "c_partner_out": "der Partner setzt aus",
    "c_req_ace": "braucht ein Ass",
    "c_req_full_suit": "braucht eine ganze Farbe",
    "c_req_all_trumps": "braucht alle Atouts",
    "c_order": "Reihenfolge {ranks}",
    "c_kontra_normal": "Kontra auf das Normalspiel von Vorhand",
    "bid_vorhand": "nur Vorhand",
    "bid_vorhand_team": "Vorhand oder Partner",
    "bid_vorhand_team_solo": "nur Vorhand",
    "bid_opponents": "ein Gegner von Vorhand",
    "bid_not_vorhand": "jeder außer Vorhand",
    "bid_any": "jeder",
    # units
    "unit_point_one": "Punkt",
    "unit_point_many": "Punkte",
    "unit_marke_one": "Marke",
    "unit_marke_many": "Marken",
    "unit_card_one": "Karte",
    "unit_card_many": "Karten",
    "points_range": "{low}–{high} {unit}",
    "points_one": "{n} {unit}",
    "list_sep": ", ",
    "closing": "Zudrehen",
    "closing_schnorps": "Decken",
}

_EN: dict[str, str] = {
    "h_goal": "The aim",
    "h_cards": "Cards and Augen",
    "h_deal": "Dealing and drawing",
    "h_tg_deal": "Dealing and trumps",
    "h_play": "Tricks",
    "h_exchange": "Exchanging the trump card",
    "h_exchange_schnorps": "Robbing the trump card",
    "h_close": "Closing the talon",
    "h_close_schnorps": "Covering (Decken)",
    "h_marriages": "Marriages",
    "h_out": "Going out (“Genug”)",
    "h_out_schnorps": "Laying down",
    "h_end": "The last trick",
    "h_match": "The match",
    "h_house": "House rules",
    "h_bidding": "Bidding and contracts",
    "h_talon": "The talon",
    "h_doubling": "Kontra",
    "h_normal": "Normal game: marriages and “Genug”",
    "h_scoring": "Points and match",
    "goal": "{players} players, {deck} cards, {hand} in each hand. Whoever first counts {target} Augen from tricks "
    "and marriages goes out and wins the game.",
    "goal_schnorps": "{players} players, {deck} cards (down to the Seven), {hand} in each hand. Whoever first counts "
    "{target} Augen lays down the cards and wins; games are paid in Marken.",
    "cards": "High to low: {ranks}. All cards together count {total} Augen.",
    "deal": "The dealer deals: {packets}. The turned card makes trumps and lies face up under the talon; "
    "{facedown} cards lie face down on it.",
    "packet_v": "Vorhand {n}",
    "packet_d": "dealer {n}",
    "packet_t": "one card turned up",
    "deal_draw": "Vorhand (the dealer's opponent) leads to the first trick. After each trick the winner draws the "
    "top card of the talon, then the other player; the winner leads next.",
    "play_open": "While the talon is open any card may be played: no need to follow suit or to win the trick.",
    "play_strict": "Once the talon is exhausted or closed you must beat with a higher card of the led suit, else "
    "follow suit, else trump, else play any card. Following suit comes before winning the trick.",
    "play_strict_schnorps": "After covering and once the talon is exhausted you must beat with a higher card of the "
    "led suit, else follow suit, else trump, else play any card.",
    "play_win": "The trick goes to the highest card of the led suit or to the highest trump.",
    "play_no_totals": "Scharf: taken tricks may not be looked at again – the page shows no running Augen total.",
    "trump_card": "trump {rank}",
    "exchange": "The player on lead holding the lowest trump ({card}) may swap it for the face-up card before "
    "leading, while the talon is open.",
    "exchange_schnorps": "The player on lead holding the lowest trump ({card}) may rob the face-up card with it "
    "(swap them), while the talon is open.",
    "exchange_first_yes": "This is allowed before the very first lead, too.",
    "exchange_first_no": "Not before Vorhand's first lead.",
    "exchange_one_yes": "Also with only one face-down card left on the trump card.",
    "exchange_one_no": "No longer once only one face-down card is left on the trump card.",
    "exchange_trick": "Only after winning a trick.",
    "exchange_off": "House rule: no robbing, the face-up card stays where it is.",
    "caption_hand": "in hand",
    "caption_face_up": "face up",
    "close": "The player on lead may close the talon before leading while at least {close_min} face-down "
    "{close_cards} lie on the trump card.",
    "close_schnorps": "The player on lead may cover the talon (turn the trump card down) while at least "
    "{close_min} face-down {close_cards} are left.",
    "close_trick": "Only after winning a trick.",
    "close_effect": "From then on nobody draws, the strict follow rules apply, and the last trick decides nothing: "
    "the closer must reach {target} Augen and go out.",
    "close_effect_schnorps": "From then on nobody draws and the strict follow rules apply; the coverer lays down as "
    "soon as he has {target} Augen, at the latest with his last card.",
    "close_win": "If the closer makes it, the points go by the Augen the opponent had when the talon was closed.",
    "close_win_after": "If the closer makes it, the points go by the opponent's Augen at the end (house rule).",
    "close_fail": "If the closer fails, or the opponent goes out first, the opponent scores {fail_trick} points, or "
    "{fail_no_trick} if they had no trick when the talon was closed.",
    "close_marken": "If the coverer wins, the loser pays double: {mc1}, as Schneider {mc2}, without a trick {mc3} "
    "Marken. If he fails (no {target} Augen, or the opponent gets them first), he pays {m_fail}.",
    "marriage": "The player on lead holding the {king} and {ober} of a suit may announce them and leads one of the "
    "two: {m20} Augen, {m40} in trumps.",
    "marriage_king": "Scharf: the {king} must be led.",
    "marriage_before_yes": "This is allowed before one's first trick, but counts only once one has won a trick.",
    "marriage_before_no": "Only after winning a trick.",
    "marriage_after_yes": "Also after closing and once the talon is exhausted.",
    "marriage_after_no": "Only while the talon is not exhausted; covering does not end them.",
    "marriage_off": "House rule: no marriages.",
    "caption_trump_pair": "{m40} when {suit} are trumps",
    "caption_pair": "{m20} in another suit",
    "out": "The player on lead who has won a trick and counts {target} Augen says “Genug”: the game ends at once.",
    "out_auto": "House rule: reaching {target} Augen ends the game by itself.",
    "out_points": "Points: {p3} if the opponent has no trick, {p2} with {low} Augen or fewer, {p1} with {threshold} "
    "or more.",
    "out_wrong": "Saying “Genug” with fewer than {target} Augen loses: the opponent scores what the declarer would "
    "have scored.",
    "out_schnorps": "After winning a trick a player may lay down the cards: with {target} Augen he wins, otherwise "
    "he pays {m_wrong} Marken ({m_wrong_covered} if the opponent has covered).",
    "out_marken": "The loser pays {m1}, as Schneider (under {threshold} Augen) {m2}, without a trick {m3} Marken.",
    "end_last_trick": "If nobody went out, whoever takes the last trick wins – even with fewer Augen – and scores "
    "{last_points} {last_unit}.",
    "end_last_trick_augen": "If nobody went out, whoever takes the last trick wins – even with fewer Augen; house "
    "rule: the points are counted as for going out.",
    "end_sixty_six": "Played to the last card, the last trick counts {bonus} Augen more (not after {closing}). Then "
    "whoever has {target} Augen wins; if both have, the winner of the last trick.",
    "end_stand": "If both have {stand}, the game stands: nobody scores.",
    "end_stand_schnorps": "If both have {stand}, the game stands: the deal is drawn for again and the next game "
    "pays double (fourfold after two stands).",
    "match_bummerl": "Both start at {match_target} and count the points they win down. Whoever needs no more "
    "points wins; the loser gets a Bummerl, two without a single point (Schneider). The deal alternates.",
    "match_marken": "The match goes on until a player has won {match_target} Marken. The winner of a game deals "
    "the next.",
    "house_none": "These are the usual rules. A new table may choose these house rules:",
    "house_some": "With these house rules, already applied above:",
    "tg_goal_teams": "{players} players in two teams (partners sit opposite), {deck} cards, {hand} in each hand, no "
    "talon. Whoever bids a contract must reach its goal; otherwise the opponents score its points.",
    "tg_goal_solo": "{players} players, {deck} cards, {hand} in each hand and {talon} as the talon. The winner of "
    "the bidding plays alone against the other two.",
    "tg_cards_trump": "A trump beats any other suit. Some contracts are played without trumps or with another "
    "order (see the table).",
    "tg_deal": "The player right of the dealer cuts or knocks. Vorhand (left of the dealer) calls trumps from the "
    "first three cards or turns up one of the next cards.",
    "tg_redeal": "A player dealt three Unter in the first three cards shows them: the cards are dealt again.",
    "tg_bidding": "Bidding goes clockwise from Vorhand, who opens and may not pass. Each bid must be higher (the "
    "same bid only from a player earlier in turn); a player who passes is out. The last bid is played.",
    "tg_table_contract": "Contract",
    "tg_table_points": "Points",
    "tg_table_who": "Who may bid",
    "tg_table_goal": "Goal",
    "tg_talon": "The soloist takes up the talon without showing it and lays {talon} cards away face down; their "
    "Augen count for nobody.",
    "tg_talon_skip": "House rule: the soloist may leave the talon; then the game is worth {skip_bonus} {skip_unit} "
    "more.",
    "tg_talon_raise": "House rule: after taking up the talon the soloist may bid a higher contract.",
    "tg_doubling": "After the bidding the game may be doubled, each step after the one before: {steps}.",
    "tg_step_kontra": "Kontra (a defender) ×{factor}",
    "tg_step_rekontra": "Rekontra (the bidder's side) ×{factor}",
    "tg_step_rekontra_solo": "Rekontra (the soloist) ×{factor}",
    "tg_step_subkontra": "Subkontra (a defender) ×{factor}",
    "tg_doubling_none": "House rule: no Kontra.",
    "tg_play": "You must follow suit and win the trick if you can – even over your partner –, else trump, "
    "over-trump a trump in the trick and, if you cannot, play a lower trump.",
    "tg_play_solo": "You must follow suit and win the trick if you can, else trump, over-trump a trump in the trick "
    "and, if you cannot, play a lower trump.",
    "tg_lead": "In contracts with trumps Vorhand leads, in contracts without trumps the bidder.",
    "tg_normal": "In the normal game a pair of {king} and {ober} counts when one of them is led: {m20} Augen, {m40} "
    "in trumps. Vorhand may announce at the first lead, everybody else after winning a trick.",
    "tg_genug": "A side with {target} Augen says “Genug”: {p1} point, {p2} if the opponents have under {threshold} "
    "Augen, {p3} if they have no trick. A wrong “Genug” gives these points to the opponents.",
    "tg_last_trick": "If nobody says “Genug”, the side of the last trick scores {last_points} {last_unit}.",
    "tg_scoring_teams": "A won contract scores for the bidder's team, a lost one for the other team, times any "
    "Kontra. The first team with {match_target} points wins; the losers get a Bummerl, two without a point "
    "(Schneider).",
    "tg_scoring_solo": "A won contract scores for the soloist, a lost one for each of the two defenders, times any "
    "Kontra. Everyone counts for themselves up to {match_target}; the others get a Bummerl, two without a point "
    "(Schneider).",
    "c_goal_sixty_six": "{target} Augen first, then “Genug”",
    "c_goal_no_trick": "take no trick",
    "c_goal_first_tricks_66": "take the first {n} tricks, with {target} Augen",
    "c_goal_all_tricks": "take every trick",
    "c_goal_claim": "won as soon as the cards are shown",
    "c_trump": "trumps count",
    "c_no_trump": "no trumps",
    "c_lead_vorhand": "Vorhand leads",
    "c_lead_declarer": "the bidder leads",
    "c_partner_out": "the partner sits out",
    "c_req_ace": "needs an Ace",
    "c_req_full_suit": "needs a whole suit",
    "c_req_all_trumps": "needs every trump",
    "c_order": "order {ranks}",
    "c_kontra_normal": "Kontra on Vorhand's normal game",
    "bid_vorhand": "Vorhand only",
    "bid_vorhand_team": "Vorhand or partner",
    "bid_vorhand_team_solo": "Vorhand only",
    "bid_opponents": "an opponent of Vorhand",
    "bid_not_vorhand": "anyone but Vorhand",
    "bid_any": "anyone",
    "unit_point_one": "point",
    "unit_point_many": "points",
    "unit_marke_one": "Marke",
    "unit_marke_many": "Marken",
    "unit_card_one": "card",
    "unit_card_many": "cards",
    "points_range": "{low}–{high} {unit}",
    "points_one": "{n} {unit}",
    "list_sep": ", ",
    "closing": "closing",
    "closing_schnorps": "covering",
}

# The house rules' names (the options of the variants) and the words of their values.  An option that has no
# name here yet is shown by its identifier: a new option never breaks the page.
_DE.update(
    {
        "opt_auto_declare": "Automatisch ausmelden, sobald jemand {target} Augen hat",
        "opt_count_after_closing": "Nach geglücktem Zudrehen zählen die Augen des Gegners am Spielende",
        "opt_last_trick_scoring": "Der letzte Stich (Talon aufgebraucht) zählt",
        "opt_last_trick_scoring.one": "einen Punkt",
        "opt_last_trick_scoring.augen": "wie Ausmelden",
        "opt_marriages": "Ansagen (Zwanziger, Vierziger)",
        "opt_trump_exchange": "Rauben mit dem kleinsten Atout",
        "opt_close_min_facedown": "Verdeckte Karten, die zum Zudrehen (Decken) mindestens liegen müssen",
        "opt_bettler": "Bettler",
        "opt_assen_bettler": "Assen-Bettler (braucht ein Ass)",
        "opt_bettler_points": "Punkte für den Bettler",
        "opt_bettler_ace_high": "Bettler mit dem Ass als höchster und dem Zehner als niedrigster Karte",
        "opt_bettler_partner_plays": "Beim Bettler spielt der Partner mit",
        "opt_gang_partner_plays": "Bei Gang und Zehnerloch spielt der Partner mit",
        "opt_zehnerloch": "Zehnerloch",
        "opt_zehnerloch_points": "Punkte für das Zehnerloch",
        "opt_zehnerloch_below_gang": "Zehnerloch rangiert unter dem Gang",
        "opt_bauernloch": "Bauernloch",
        "opt_kontra_beats_bettler": "Kontra auf das Normalspiel überbietet den Bettler",
        "opt_max_doubling": "Höchste Verdopplung",
        "opt_max_doubling.none": "keine",
        "opt_three_unter_redeal": "Drei Unter in den ersten drei Karten: neu geben",
        "opt_match_target": "Punkte für den Sieg",
        "opt_raise_after_talon": "Nach dem Aufnehmen des Talons höher bieten",
        "opt_may_skip_talon": "Den Talon liegen lassen",
        "yes": "ja",
        "no": "nein",
    }
)
_EN.update(
    {
        "opt_auto_declare": "Go out automatically as soon as someone has {target} Augen",
        "opt_count_after_closing": "After a successful closing, count the opponent's Augen at the end",
        "opt_last_trick_scoring": "The last trick (talon exhausted) scores",
        "opt_last_trick_scoring.one": "one point",
        "opt_last_trick_scoring.augen": "like going out",
        "opt_marriages": "Marriages (Zwanziger, Vierziger)",
        "opt_trump_exchange": "Robbing with the lowest trump",
        "opt_close_min_facedown": "Face-down cards needed on the trump card to close (cover)",
        "opt_bettler": "Bettler",
        "opt_assen_bettler": "Assen-Bettler (needs an Ace)",
        "opt_bettler_points": "Points of the Bettler",
        "opt_bettler_ace_high": "Bettler with the Ace highest and the Ten lowest",
        "opt_bettler_partner_plays": "In a Bettler the partner plays too",
        "opt_gang_partner_plays": "In Gang and Zehnerloch the partner plays too",
        "opt_zehnerloch": "Zehnerloch",
        "opt_zehnerloch_points": "Points of the Zehnerloch",
        "opt_zehnerloch_below_gang": "Zehnerloch ranks below the Gang",
        "opt_bauernloch": "Bauernloch",
        "opt_kontra_beats_bettler": "Kontra on the normal game outbids the Bettler",
        "opt_max_doubling": "Highest doubling",
        "opt_max_doubling.none": "none",
        "opt_three_unter_redeal": "Three Unter in the first three cards: deal again",
        "opt_match_target": "Points to win the match",
        "opt_raise_after_talon": "Bidding higher after taking up the talon",
        "opt_may_skip_talon": "Leaving the talon",
        "yes": "yes",
        "no": "no",
    }
)

#: Every template of the page, per language (the same keys in both).
TEXTS: dict[str, dict[str, str]] = {"de": _DE, "en": _EN}

#: The doubling steps by ``max_doubling``: none, then the names the game's actions use.
_DOUBLING_STEPS = ("none", "Kontra", "Rekontra", "Subkontra")

#: English names of the contracts whose German name is not used in English (the others keep it).
_CONTRACT_EN = {"normal": "Normal game", "kontra-normal": "Kontra on the normal game"}


# ------------------------------------------------------------------------------------ probing the engine
@dataclasses.dataclass(frozen=True)
class _End:
    """A made-up end of a two-player game, for asking a variant's scoring hooks what they pay
    (:class:`bummerl.variants.two_player.ScoringState`)."""

    counted: tuple[int, int]
    won: tuple[int, int]
    closed_by: int | None = None
    closed_opponent_augen: int = 0
    closed_opponent_had_trick: bool = True

    @property
    def tricks_won(self) -> list[int]:
        return list(self.won)

    def augen(self, player: int) -> int:
        return self.counted[player]


def _schneider_line() -> int:
    """The fewest Augen a loser with a trick needs to pay the least (seeds/000: 33)."""
    return next(a for a in range(121) if siegpunkte(a, True) == siegpunkte(120, True))


@functools.lru_cache(maxsize=256)
def _table_probe(v: TableVariant) -> dict[str, Any]:
    """What the table engine scores where it names no value: the last trick of a normal game, the doubling
    factors and the point for leaving the talon, read off short scripted games (cached per variant)."""
    out: dict[str, Any] = {}
    for seed in range(100):
        game = _scripted(v, seed, doubles=False)
        r = game.result
        if r is not None and r.reason is TableEndReason.LAST_TRICK:
            out["last_points"] = (r.points // r.multiplier) - game.bonus
            break
    for seed in range(100):
        factors: list[int] = []
        game = _scripted(v, seed, doubles=True, factors=factors)
        if game.result is not None and game.result.reason is not TableEndReason.REDEAL:
            out["factors"] = factors
            break
    if v.may_skip_talon:
        for seed in range(100):
            game = _scripted(v, seed, doubles=False, talon="skip-talon")
            if game.result is not None and game.result.reason is not TableEndReason.REDEAL:
                out["skip_bonus"] = game.bonus
                break
    return out


def _scripted(
    v: TableVariant, seed: int, *, doubles: bool, talon: str = "take-talon", factors: list[int] | None = None
) -> TableGame:
    """A game where Vorhand plays the normal game, nobody says "Genug" and the first legal card is played."""
    game = TableGame.deal(v, seed=seed, dealer=0)
    while not game.is_over:
        tokens = [a.token for a in game.legal_actions()]
        phase = game.phase
        if phase is Phase.CUT:
            token = "cut"
        elif phase is Phase.BIDDING:
            token = "bid:normal" if "bid:normal" in tokens else "pass"
        elif phase is Phase.TALON:
            token = talon if talon in tokens else ("pass" if "pass" in tokens else tokens[0])
        elif phase is Phase.DOUBLING:
            steps = [t for t in tokens if t != "pass"]
            token = steps[0] if doubles and steps else "pass"
        else:
            token = next(t for t in tokens if not t.startswith("declare"))
        game.apply(token)
        if factors is not None and phase is Phase.DOUBLING and token != "pass":
            factors.append(game.multiplier)
    return game


# ------------------------------------------------------------------------------------------- the page
class _Page:
    """One page being written: its values, its sections and the templates of its language."""

    def __init__(self, variant: Variant, lang: str, faces: str) -> None:
        self.variant = variant
        self.lang = lang
        self.faces = faces
        self.t = TEXTS[lang]
        self.values: dict[str, int | list[int]] = {}
        self.sections: list[dict[str, Any]] = []
        self.contracts: list[dict[str, Any]] = []

    def value(self, name: str, value: int) -> int:
        """Record one number of the page."""
        self.values[name] = value
        return value

    def say(self, key: str, **words: object) -> str:
        """The template ``key`` filled with the page's values and ``words`` (names, already-recorded numbers)."""
        params: dict[str, object] = {k: v for k, v in self.values.items() if isinstance(v, int)}
        params.update(words)
        return self.t[key].format_map(params)

    def unit(self, kind: str, n: int) -> str:
        return self.t[f"unit_{kind}_{'one' if n == 1 else 'many'}"]

    def rank(self, rank: Rank) -> str:
        return rank.name_in(self.faces, self.lang)

    def section(self, sid: str, heading: str, text: Sequence[str], **extra: Any) -> None:
        self.sections.append({"id": sid, "heading": self.t[heading], "text": list(text), **extra})

    # ------------------------------------------------------------------ parts shared by every variant
    def cards(self, *extra: str) -> None:
        """The cards' section: the ranks and their Augen, then the lines of the templates ``extra`` (the family's)."""
        ranks = sorted({c.rank for c in deck(self.variant.deck_size)}, reverse=True)
        augen = [r.augen for r in ranks]
        self.values["augen"] = augen
        self.value("total", sum(c.augen for c in deck(self.variant.deck_size)))
        names = self.t["list_sep"].join(self.rank(r) for r in ranks)
        cards = [{"codes": [Card(Suit.HEARTS, r).code], "caption": str(a)} for r, a in zip(ranks, augen, strict=True)]
        self.section("cards", "h_cards", [self.say("cards", ranks=names), *map(self.say, extra)], cards=cards)

    def marriage_values(self) -> None:
        self.value("m40", marriage_value(Suit.HEARTS, Suit.HEARTS))
        self.value("m20", marriage_value(Suit.CLUBS, Suit.HEARTS))

    def game_points(self) -> None:
        """The points of a game won by 66, by the loser's Augen (:func:`bummerl.cards.siegpunkte`)."""
        threshold = self.value("threshold", _schneider_line())
        self.value("low", threshold - 1)
        self.value("p3", siegpunkte(0, False))
        self.value("p2", siegpunkte(threshold - 1, True))
        self.value("p1", siegpunkte(threshold, True))

    def pairs(self) -> list[dict[str, Any]]:
        """King and Ober of Herz (trumps) and of Eichel: the two marriages, as card pictures."""
        trumps = Suit.HEARTS.name_in(self.faces, self.lang)
        return [
            {"codes": ["Kh", "Qh"], "caption": self.say("caption_trump_pair", suit=trumps)},
            {"codes": ["Kc", "Qc"], "caption": self.say("caption_pair")},
        ]


def _two_player(page: _Page, variant: Variant) -> None:
    v = cast(TwoPlayerVariant, variant)  # looked up for the two-player family (_FAMILY_PAGES)
    schnorps = v.match_kind == "marken"
    hand, decksize = v.hand_size, v.deck_size
    facedown = decksize - 2 * hand - 1
    page.value("players", v.players)
    page.value("deck", decksize)
    page.value("hand", hand)
    page.value("facedown", facedown)
    target = page.value("target", v.target)
    page.section("goal", "h_goal", [page.say("goal_schnorps" if schnorps else "goal")])
    page.cards()

    # The deal, packet by packet.
    page.values["packets"] = [n for who, n in v.deal if who != "t"]
    packets = [page.t[f"packet_{who}"].format(n=n) for who, n in v.deal]
    page.section("deal", "h_deal", [page.say("deal", packets=page.t["list_sep"].join(packets)), page.say("deal_draw")])

    play = [page.say("play_open"), page.say("play_strict_schnorps" if schnorps else "play_strict")]
    play.append(page.say("play_win"))
    if not v.show_points:
        play.append(page.say("play_no_totals"))
    page.section("play", "h_play", play)

    # Exchanging (robbing): what exchange_refusal allows, asked with the card in hand on lead.
    low = Card(Suit.HEARTS, v.exchange_rank)
    trump = Suit.HEARTS

    def may_exchange(face_down: int = facedown, first_done: bool = True, trick: bool = True) -> bool:
        return exchange_refusal(v, {low}, trump, face_down, False, first_done, trick) is None

    card = page.t["trump_card"].format(rank=page.rank(v.exchange_rank))
    heading = "h_exchange_schnorps" if schnorps else "h_exchange"
    if may_exchange():
        text = [page.say("exchange_schnorps" if schnorps else "exchange", card=card)]
        if not may_exchange(trick=False):
            # Before the first lead nobody has a trick: the trick rule says all there is to say about it.
            text.append(page.say("exchange_trick"))
        else:
            text.append(page.say("exchange_first_yes" if may_exchange(first_done=False) else "exchange_first_no"))
        if facedown > 1:
            text.append(page.say("exchange_one_yes" if may_exchange(face_down=1) else "exchange_one_no"))
        pictures = [
            {"codes": [low.code], "caption": page.t["caption_hand"]},
            {"codes": [Card(trump, Rank.ACE).code], "caption": page.t["caption_face_up"]},
        ]
        page.section("exchange", heading, text, cards=pictures)
    else:
        page.section("exchange", heading, [page.say("exchange_off")])

    # Closing (covering): the fewest face-down cards close_refusal accepts, and whether it needs a trick.
    close_min = page.value(
        "close_min", next(n for n in range(facedown + 1) if close_refusal(v, n, False, True) is None)
    )
    cards_word = page.unit("card", close_min)
    text = [page.say("close_schnorps" if schnorps else "close", close_cards=cards_word)]
    if close_refusal(v, facedown, False, False) is not None:
        text.append(page.say("close_trick"))
    text.append(page.say("close_effect_schnorps" if schnorps else "close_effect"))
    if schnorps:
        for i, (augen, won) in enumerate((((60, 40), (3, 2)), ((80, 20), (3, 1)), ((120, 0), (6, 0))), start=1):
            page.value(f"mc{i}", v.score_declaration(_End(_plus(augen, target), won, closed_by=0), 0).points)
        page.value("m_fail", v.score_declaration(_End((target - 1, 40), (3, 2), closed_by=0), 0).points)
        text.append(page.say("close_marken"))
    else:
        text.append(page.say("close_win_after" if v.count_after_closing else "close_win"))
        failed = v.score_declaration(_End((target - 1, 40), (3, 2), closed_by=0), 0)
        alone = v.score_declaration(_End((target - 1, 0), (3, 0), closed_by=0, closed_opponent_had_trick=False), 0)
        page.value("fail_trick", failed.points)
        page.value("fail_no_trick", alone.points)
        text.append(page.say("close_fail"))
    page.section("close", "h_close_schnorps" if schnorps else "h_close", text)

    # Marriages: what marriage_refusal allows with King and Ober in hand.
    page.marriage_values()
    pair = {Card(Suit.HEARTS, Rank.KING), Card(Suit.HEARTS, Rank.OBER)}
    king, ober = page.rank(Rank.KING), page.rank(Rank.OBER)

    def may_marry(face_down: int = facedown, trick: bool = True) -> bool:
        return marriage_refusal(v, pair, Suit.HEARTS, face_down, trick) is None

    if may_marry():
        text = [page.say("marriage", king=king, ober=ober)]
        if marriage_card_refusal(v, Card(Suit.HEARTS, Rank.OBER)) is not None:
            text.append(page.say("marriage_king", king=king))
        text.append(page.say("marriage_before_yes" if may_marry(trick=False) else "marriage_before_no"))
        text.append(page.say("marriage_after_yes" if may_marry(face_down=0) else "marriage_after_no"))
        page.section("marriages", "h_marriages", text, cards=page.pairs())
    else:
        page.section("marriages", "h_marriages", [page.say("marriage_off")])

    # Going out: what the scoring hook pays for a correct declaration against each kind of loser.
    threshold = _schneider_line()
    declared = [
        v.score_declaration(_End((target, augen), won), 0).points
        for augen, won in (((threshold, (3, 2))), ((threshold - 1, (3, 1))), ((0, (5, 0))))
    ]
    page.value("threshold", threshold)
    page.value("low", threshold - 1)
    if schnorps:
        for i, points in enumerate(declared, start=1):
            page.value(f"m{i}", points)
        page.value("m_wrong", v.score_declaration(_End((target - 1, 40), (3, 2)), 0).points)
        page.value("m_wrong_covered", v.score_declaration(_End((target - 1, 40), (3, 2), closed_by=1), 0).points)
        text = [page.say("out_schnorps"), page.say("out_marken")]
    else:
        for i, points in enumerate(declared, start=1):
            page.value(f"p{i}", points)
        text = [page.say("out"), page.say("out_points"), page.say("out_wrong")]
    if declare_refusal(v, True) is not None:
        text.insert(1, page.say("out_auto"))
    page.section("out", "h_out_schnorps" if schnorps else "h_out", text)

    # The end of the cards: what score_end_of_cards pays.
    if v.undeclared_end == "last_trick":
        result = v.score_end_of_cards(_End((40, 80), (2, 3)), 0)
        if v.last_trick_scoring == "one":
            points = page.value("last_points", result.points)
            text = [page.say("end_last_trick", last_unit=page.unit("point", points))]
        else:
            text = [page.say("end_last_trick_augen")]
    else:
        page.value("bonus", v.last_trick_bonus)
        total = sum(c.augen for c in deck(decksize)) + v.last_trick_bonus
        stand = page.value("stand", total // 2)
        if v.score_end_of_cards(_End((stand, total - stand), (3, 3)), 0).reason is not EndReason.STAND:
            raise AssertionError(f"{v.title}: {stand}:{total - stand} does not stand")  # pragma: no cover
        closing = page.t["closing_schnorps" if schnorps else "closing"]
        text = [page.say("end_sixty_six", closing=closing), page.say("end_stand_schnorps" if schnorps else "end_stand")]
    page.section("end", "h_end", text)

    page.value("match_target", DEFAULT_TARGET)
    page.section("match", "h_match", [page.say("match_marken" if schnorps else "match_bummerl")])


def _plus(augen: tuple[int, int], target: int) -> tuple[int, int]:
    """A winner's Augen raised to at least ``target``."""
    return (max(augen[0], target), augen[1])


def _table(page: _Page, variant: Variant) -> None:
    v = cast(TableVariant, variant)  # looked up for the table family (_FAMILY_PAGES)
    solo = not v.teams
    probe = _table_probe(v)
    page.value("players", v.players)
    page.value("deck", v.deck_size)
    page.value("hand", v.hand_size)
    # The table engine counts "Genug" from the same 66 as the two-player games (seeds/004).
    page.value("target", SCHNAPSEN.target)
    page.value("match_target", v.match_target)
    if solo:
        page.value("talon", v.talon_size)
    page.section("goal", "h_goal", [page.say("tg_goal_solo" if solo else "tg_goal_teams")])
    page.cards("tg_cards_trump")
    deal = [page.say("tg_deal")]
    if v.three_unter_redeal:
        deal.append(page.say("tg_redeal"))
    page.section("deal", "h_tg_deal", deal)

    contracts = contract_rows(page, v)
    table = {
        "head": [page.t[k] for k in ("tg_table_contract", "tg_table_points", "tg_table_who", "tg_table_goal")],
        "rows": [[c["title"], c["points_text"], c["bidders"], c["summary"]] for c in contracts],
    }
    page.section("bidding", "h_bidding", [page.say("tg_bidding")], table=table)

    if solo:
        text = [page.say("tg_talon")]
        if v.may_skip_talon:
            bonus = page.value("skip_bonus", probe["skip_bonus"])
            text.append(page.say("tg_talon_skip", skip_unit=page.unit("point", bonus)))
        if v.raise_after_talon:
            text.append(page.say("tg_talon_raise"))
        page.section("talon", "h_talon", text)

    factors: list[int] = probe["factors"][: v.max_doubling]
    if factors:
        page.values["factors"] = factors
        keys = ("tg_step_kontra", "tg_step_rekontra_solo" if solo else "tg_step_rekontra", "tg_step_subkontra")
        steps = page.t["list_sep"].join(page.t[k].format(factor=f) for k, f in zip(keys, factors, strict=False))
        page.section("doubling", "h_doubling", [page.say("tg_doubling", steps=steps)])
    else:
        page.section("doubling", "h_doubling", [page.say("tg_doubling_none")])

    page.section("play", "h_play", [page.say("tg_play_solo" if solo else "tg_play"), page.say("tg_lead")])

    page.marriage_values()
    page.game_points()
    last = page.value("last_points", probe["last_points"])
    normal = [
        page.say("tg_normal", king=page.rank(Rank.KING), ober=page.rank(Rank.OBER)),
        page.say("tg_genug"),
        page.say("tg_last_trick", last_unit=page.unit("point", last)),
    ]
    page.section("normal", "h_normal", normal, cards=page.pairs())
    page.section("scoring", "h_scoring", [page.say("tg_scoring_solo" if solo else "tg_scoring_teams")])
    page.contracts = contracts


def contract_rows(page: _Page, v: TableVariant) -> list[dict[str, Any]]:
    """Every contract of ``v`` in bidding order: its name, points, who may bid it and what it means."""
    page.game_points()
    page.value("target", SCHNAPSEN.target)
    out: list[dict[str, Any]] = []
    contract_points: list[int] = []
    for c in v.contracts:
        title = _CONTRACT_EN.get(c.name, c.title) if page.lang == "en" else c.title
        if c.goal is Goal.SIXTY_SIX:
            low, high = siegpunkte(120, True) * c.points, siegpunkte(0, False) * c.points
            points_text = page.t["points_range"].format(low=low, high=high, unit=page.unit("point", high))
            points = [low, high]
        else:
            points_text = page.t["points_one"].format(n=c.points, unit=page.unit("point", c.points))
            points = [c.points]
        contract_points += points
        out.append(
            {
                "name": c.name,
                "title": title,
                "points": c.points,
                "points_range": points,
                "points_text": points_text,
                "bidders": _bidders(page, c.bidders, bool(v.teams)),
                "goal": _goal(page, c),
                "summary": _summary(page, c, v),
            }
        )
    page.values["contract_points"] = contract_points
    return out


def _bidders(page: _Page, bidders: Bidders, teams: bool) -> str:
    if bidders is Bidders.VORHAND_TEAM and not teams:
        return page.t["bid_vorhand_team_solo"]
    return page.t[f"bid_{bidders.value}"]


def _goal(page: _Page, c: Contract) -> str:
    """What the bidder must achieve, in a few words (the bidding buttons show it)."""
    if c.goal is Goal.FIRST_TRICKS_66:
        page.value("goal_tricks", c.goal_tricks)
        return page.t["c_goal_first_tricks_66"].format(n=c.goal_tricks, target=page.values["target"])
    return page.t[f"c_goal_{c.goal.value}"].format(target=page.values["target"])


def _summary(page: _Page, c: Contract, v: TableVariant) -> str:
    """What a contract means: its goal, trumps, lead, partner, requirement, rank order."""
    parts: list[str] = []
    if c.name == "kontra-normal":
        parts.append(page.t["c_kontra_normal"])
    parts.append(_goal(page, c))
    if c.goal is not Goal.CLAIM:
        parts.append(page.t["c_trump" if c.trump else "c_no_trump"])
        parts.append(page.t[f"c_lead_{c.lead}"])
        if v.teams and not c.partner_plays:
            parts.append(page.t["c_partner_out"])
    if c.requirement is not Requirement.NONE:
        parts.append(page.t[f"c_req_{c.requirement.value}"])
    if c.order is not None:
        ranks = sorted({card.rank for card in deck(v.deck_size)}, key=lambda r: -c.order[r] if c.order else 0)
        parts.append(page.t["c_order"].format(ranks="–".join(page.rank(r) for r in ranks)))
    return page.t["list_sep"].join(parts)


# ------------------------------------------------------------------------------------------ entry point
def rules_page(variant: Variant, lang: str = "de", faces: str = "german") -> dict[str, Any]:
    """The rules page of ``variant`` (with its options applied) in ``lang`` (``de``/``en``) with the card names
    of ``faces`` (``german``/``french``).  The result is shared between callers: do not change it.

    Raises :class:`ValueError` for an unknown language or faces.
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: expected 'de' or 'en'")
    if faces not in ("german", "french"):
        raise ValueError(f"unknown card faces {faces!r}: expected 'german' or 'french'")
    return _cached_page(variant, lang, faces)


#: The sections of each family of rules (``Variant.FAMILY``).
_FAMILY_PAGES: dict[str, Callable[[_Page, Variant], None]] = {
    "two_player": _two_player,
    "table_game": _table,
}


@functools.lru_cache(maxsize=512)
def _cached_page(variant: Variant, lang: str, faces: str) -> dict[str, Any]:
    page = _Page(variant, lang, faces)
    _FAMILY_PAGES[variant.FAMILY](page, variant)
    options = variant.options()
    house = [_house_rule(page, name, getattr(variant, name), default) for name, default in _defaults(variant).items()]
    page.section("house_rules", "h_house", [page.say("house_some" if options else "house_none")])
    path, heading = RULES_DOCS[variant.name]
    return {
        "variant": variant.name,
        "title": variant.title,
        "players": variant.players,
        "family": variant.FAMILY,
        "lang": lang,
        "faces": faces,
        "options": options,
        "house_rules": house,
        "help": variant.option_help(),
        "sections": page.sections,
        "contracts": page.contracts,
        "values": page.values,
        "doc": f"{path}#{anchor(heading)}",
    }


def _house_rule(page: _Page, name: str, value: object, default: object) -> dict[str, Any]:
    """One option as the page lists it: its name, its value and its default, in words."""
    label = page.say(f"opt_{name}") if f"opt_{name}" in page.t else name.replace("_", " ")
    return {
        "name": name,
        "value": value,
        "default": default,
        "changed": value != default,
        "label": label,
        "value_text": _option_words(page, name, value),
        "default_text": _option_words(page, name, default),
    }


def _option_words(page: _Page, name: str, value: object) -> str:
    """An option's value in words; a number is the variant's own (recorded among the page's values)."""
    if isinstance(value, bool):
        return page.t["yes" if value else "no"]
    if name == "max_doubling" and isinstance(value, int) and 0 <= value < len(_DOUBLING_STEPS):
        return page.t["opt_max_doubling.none"] if value == 0 else _DOUBLING_STEPS[value]
    if isinstance(value, int):
        listed = page.values.setdefault("option_values", [])
        assert isinstance(listed, list)
        listed.append(value)
        return str(value)
    key = f"opt_{name}.{value}"
    return page.t.get(key, str(value))


def _defaults(variant: Variant) -> dict[str, Any]:
    """Each option's value in the built-in variant of the same name (what :meth:`Variant.options` compares)."""
    reference = find_variant(variant.name)
    return {name: getattr(reference, name) for name in variant.OPTIONS}


def anchor(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading: lower case, punctuation dropped, spaces to hyphens.

    >>> anchor("Schnorps (`schnorps`)")
    'schnorps-schnorps'
    """
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def numbers(text: str) -> list[int]:
    """The numbers a text states (its runs of digits).

    >>> numbers("3 if none, 2 with 32 or fewer")
    [3, 2, 32]
    """
    return [int(n) for n in re.findall(r"\d+", text)]


def texts_of(page: Mapping[str, Any]) -> list[str]:
    """Every sentence of a page: paragraphs, captions, table cells and the contracts' texts."""
    out: list[str] = []
    for s in page["sections"]:
        out.append(s["heading"])
        out.extend(s["text"])
        out.extend(group["caption"] for group in s.get("cards", ()))
        table = s.get("table")
        if table:
            out.extend(table["head"])
            out.extend(cell for row in table["rows"] for cell in row)
    for c in page["contracts"]:
        out.extend((c["title"], c["points_text"], c["bidders"], c["goal"], c["summary"]))
    for o in page["house_rules"]:
        out.extend((o["label"], o["value_text"], o["default_text"]))
    return out
