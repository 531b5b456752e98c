// The page's pure helpers (static/render.js): hand order, legal tokens, actions, reasons and names in words.
// Whatever builds elements (h, cardButton, ...) needs a document and is left to the browser tests.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { setLang } from "../../src/bummerl/server/static/i18n.js";
import {
  actionText,
  botName,
  botTitle,
  classifyLegal,
  houseRules,
  marriageWord,
  pointsText,
  reasonText,
  seatNames,
  sortHand,
  variantTitle,
} from "../../src/bummerl/server/static/render.js";

afterEach(() => setLang("de"));

describe("sortHand", () => {
  test("trumps first, then hearts, bells, acorns, leaves; high to low (A, 10, K, Q, J, ...)", () => {
    assert.deepEqual(sortHand(["Jh", "As", "Th", "Kc", "Ah", "Qs"], "s"), ["As", "Qs", "Ah", "Th", "Jh", "Kc"]);
    assert.deepEqual(sortHand(["9d", "Ad", "10d", "7h"], "c"), ["7h", "Ad", "10d", "9d"]);
  });

  test("leaves the hand it was given as it was", () => {
    const hand = ["Jh", "Ah"];
    sortHand(hand, "h");
    assert.deepEqual(hand, ["Jh", "Ah"]);
  });
});

describe("classifyLegal", () => {
  test("every kind of token lands in its place", () => {
    const out = classifyLegal(["Ah", "Qs", "marry:Kd", "exchange", "close", "declare", "declare:h"]);
    assert.deepEqual([...out.plays], ["Ah", "Qs"]);
    assert.deepEqual([...out.marriages], [["Kd", "marry:Kd"]]);
    assert.equal(out.exchange && out.close && out.declare, true);
    assert.deepEqual(out.declareWith, ["h"]);
  });

  test("nothing legal (not our turn) is all empty", () => {
    const out = classifyLegal(null);
    assert.equal(out.plays.size + out.marriages.size + out.declareWith.length, 0);
    assert.equal(out.exchange || out.close || out.declare, false);
  });
});

describe("actions in words", () => {
  test("the marriage's value comes from the server; an unknown value is printed as it is", () => {
    setLang("de");
    assert.equal(marriageWord(40), "Vierziger");
    assert.equal(marriageWord(undefined), "Paar");
    assert.equal(marriageWord(60), "60");
  });

  test("each token in the page's language", () => {
    setLang("de");
    const o = { faces: "german", lang: "de", marriages: { h: 40, d: 20 } };
    assert.equal(actionText("exchange", o), "Atout tauschen");
    assert.equal(actionText("marry:Kd", o), "Zwanziger ansagen: Schellen-König");
    assert.equal(actionText("declare:h", o), "Vierziger in Herz + Genug!");
    assert.equal(actionText("Qh", o), "Herz-Ober");
    setLang("en");
    assert.equal(
      actionText("marry:Qh", { faces: "french", lang: "en", marriages: { h: 40 } }),
      "Announce Vierziger (40): Queen of Hearts",
    );
    assert.equal(actionText("close", { faces: "french", lang: "en" }), "Close (Zudrehen)");
  });

  test("points by unit and count", () => {
    setLang("en");
    assert.equal(pointsText(1, "game points"), "1 game point");
    assert.equal(pointsText(3, "Marken"), "3 Marken");
  });
});

describe("reasonText", () => {
  const person = (seat) => (seat === 0 ? { you: true } : { you: false, name: "Anna" });
  const schnapsen = { name: "schnapsen", traits: { undeclared_end: "last_trick" } };
  const sixtySix = { name: "sechsundsechzig", traits: { undeclared_end: "sixty_six" } };

  test("the last trick: who took it, or who has 66 after it, by the variant's trait (not its name)", () => {
    setLang("de");
    const result = { winner: 1, reason: "last_trick" };
    assert.equal(reasonText(result, { person, variant: schnapsen }), "Anna hat den letzten Stich.");
    assert.equal(reasonText(result, { person, variant: sixtySix }), "Nach dem letzten Stich hat Anna 66.");
    // A variant named like Schnapsen whose trait says 66 is worded by the trait.
    const renamed = { name: "schnapsen", traits: { undeclared_end: "sixty_six" } };
    assert.equal(reasonText(result, { person, variant: renamed }), "Nach dem letzten Stich hat Anna 66.");
  });

  test("a failed closing names the closer, else the loser", () => {
    setLang("en");
    const result = { winner: 1, reason: "closer_failed" };
    assert.equal(reasonText(result, { person, variant: schnapsen }), "You closed the talon and failed.");
    assert.equal(reasonText(result, { person, closedBy: 1, variant: schnapsen }), "Anna closed the talon and failed.");
  });

  test("a wrong declaration gives the declarer's Augen; no result is empty; an unknown reason is shown as it is", () => {
    setLang("de");
    const result = { winner: 1, reason: "wrong_declaration", augen: [61, 30] };
    assert.equal(reasonText(result, { person }), "Du hast dich mit nur 61 Augen ausgemeldet – zu wenig.");
    assert.equal(reasonText(null, { person }), "");
    assert.equal(reasonText({ winner: 0, reason: "odd" }, { person }), "odd");
  });
});

describe("names", () => {
  test("a bot's title in the page's language, English where the language is missing, else the id", () => {
    setLang("de");
    assert.equal(botTitle({ de: "Stark", en: "Strong" }), "Stark");
    setLang("en");
    assert.equal(botTitle({ de: "Stark", en: "Strong" }), "Strong");
    assert.equal(botTitle({ de: "Stark" }, "expert"), "expert");
    assert.equal(botTitle(null, "expert"), "expert");
    assert.equal(botName({ bot: "random" }), "Computer (random)");
  });

  test("two bots of one kind are numbered in seat order, a single one is not", () => {
    setLang("de");
    const bot = (id) => ({ kind: "bot", bot: id, titles: { de: id === "h" ? "Faustregeln" : "Stark" } });
    const players = [{ kind: "human", name: "Anna" }, bot("h"), bot("e"), bot("h"), null];
    assert.deepEqual(seatNames(players), [
      "Anna",
      "Computer 1 (Faustregeln)",
      "Computer (Stark)",
      "Computer 2 (Faustregeln)",
      null,
    ]);
  });

  test("a variant's title: the page's words, else the server's, else the name", () => {
    setLang("en");
    const server = [{ name: "schnapsen", title: "Schnapsen (server)" }];
    assert.equal(variantTitle("bauernschnapsen", server), "Bauernschnapsen (4 players, 2 teams)");
    assert.equal(variantTitle("schnapsen", server), "Schnapsen (server)");
    assert.equal(variantTitle("schnapsen", [], "Fallback"), "Fallback");
    assert.equal(variantTitle("unknown"), "unknown");
    assert.equal(variantTitle(undefined), "");
  });

  test("house rules in words: a yes is the option's name, a no says so, a choice by its label", () => {
    setLang("en");
    assert.deepEqual(houseRules({ auto_declare: true, last_trick_scoring: "one", some_rule: false, n_cards: 5 }), [
      "Declare automatically as soon as someone has 66",
      "Last trick (talon exhausted): wins 1 game point",
      "some rule: no",
      "n cards: 5",
    ]);
    assert.deepEqual(houseRules(null), []);
  });
});
