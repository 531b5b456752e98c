// The German of the page (static/i18n/de.json) as a native speaker reads it: with "Du" the verb takes the second
// person singular ("Du kriegst", "Du spielst"), never the third ("Du kriegt", "Du spielt": issue 24).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, describe, test } from "node:test";

import { setLang, t } from "../../src/bummerl/server/static/i18n.js";

const DE = JSON.parse(readFileSync(new URL("../../src/bummerl/server/static/i18n/de.json", import.meta.url), "utf-8"));

// The third person singular of the verbs the page uses with a person as subject; after "Du" each is wrong.
const THIRD_PERSON = [
  "bekommt",
  "darf",
  "dreht",
  "gewinnt",
  "gibt",
  "hat",
  "ist",
  "kann",
  "kennt",
  "kriegt",
  "legt",
  "meldet",
  "muss",
  "nimmt",
  "sagt",
  "schaut",
  "setzt",
  "sieht",
  "spielt",
  "tauscht",
  "verliert",
  "wartet",
  "wird",
  "zahlt",
];
const WRONG = new RegExp(`\\b[Dd]u (${THIRD_PERSON.join("|")})\\b`, "g");

/** Every "Du <verb>" in `text` whose verb is a third person. */
function wrongForms(text) {
  return [...text.matchAll(WRONG)].map((m) => m[0]);
}

afterEach(() => setLang("de"));

describe("German with Du", () => {
  test("the pattern finds the bugs of issue 24 and passes the right forms", () => {
    assert.deepEqual(wrongForms("Anna gewinnt – Du kriegt das Bummerl."), ["Du kriegt"]);
    assert.deepEqual(wrongForms("Du spielt Herz-Ass aus."), ["Du spielt"]);
    assert.deepEqual(wrongForms("Du kriegst das Bummerl. Du spielst aus. Du hast zugedreht. du bist dran"), []);
  });

  test("no message of de.json says Du with a verb in the third person", () => {
    const found = Object.entries(DE).flatMap(([key, text]) => wrongForms(text).map((w) => `${key}: ${w}`));
    assert.deepEqual(found, []);
  });

  test("the messages that may name the player as their subject say Du in the second person", () => {
    setLang("de");
    const you = { you: true, count: 1, name: "Du", who: "Du", names: "Du", dealer: "Du", loser: "Du" };
    const filled = {
      match_lost_you: t("match_lost_you", { name: "Anna" }),
      sc_match_won: t("sc_match_won", you),
      sc_match_won_marken: t("sc_match_won_marken", you),
      sr_match_won: t("sr_match_won", { ...you, top: "+7" }),
      sr_ev_game_start: t("sr_ev_game_start", { ...you, game_no: 2, a: "Anna", b: "Bert" }),
    };
    assert.equal(filled.match_lost_you, "Anna gewinnt – du kriegst das Bummerl.");
    assert.equal(filled.sc_match_won, "Du gewinnst das Bummerl");
    assert.equal(filled.sr_match_won, "Partie aus: Du gewinnst mit +7 Marken.");
    assert.equal(filled.sr_ev_game_start, "Spiel 2: Du gibst; es spielen Anna und Bert.");
    for (const [key, text] of Object.entries(filled)) assert.deepEqual(wrongForms(text), [], key);
    // A Schnorps seat's badge after its name: "Du spielst (Vorhand)", "Anna spielt (Vorhand)".
    assert.equal(t("sr_role_vorhand", { you: true }), "spielst (Vorhand)");
    assert.equal(t("sr_role_vorhand", { you: false }), "spielt (Vorhand)");
    assert.equal(t("sr_role_dealer", { you: true }), "gibst");
    assert.equal(t("sr_role_waits", { you: true }), "wartest");
    // Two winners take the plural: "Anna & Bert gewinnen".
    assert.equal(t("sc_match_won", { you: false, count: 2, who: "Anna & Bert" }), "Anna & Bert gewinnen das Bummerl");
  });

  test("the analysis says what a count of mistakes means, and none as none, numbers in German digits", () => {
    setLang("de");
    assert.equal(
      t("analysis_mistakes", { name: "Computer (Stark)", n: 0, lost: "0,00" }),
      "Computer (Stark): keine Fehler",
    );
    assert.equal(
      t("analysis_mistakes", { name: "Anna", n: 1, lost: "1,12" }),
      "Anna: ein Fehler, 1,12 erwartete Punkte verschenkt",
    );
    assert.match(t("analysis_mistakes", { name: "Anna", n: 3, lost: "2,50" }), /^Anna: 3 Fehler, zusammen 2,50 /);
    assert.match(t("analysis_line", { you: true, n: 2, chosen: "a", best: "b", loss: "0,21" }), /^Zug 2 · Du: /);
  });
});
