// The Bummerl sheet in words (static/sheet.js): each game's line, a match's end and header, the text download.
// The sheets below have the shape of the server's sheet_json (bummerl/server/sheet.py); the panel itself (DOM)
// is left to the browser tests.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { setLang } from "../../src/bummerl/server/static/i18n.js";
import { endingText, lineText, matchEndText, sheetText, standingNote } from "../../src/bummerl/server/static/sheet.js";

const SCHNAPSEN = { undeclared_end: "last_trick", match_kind: "bummerl", terms: "schnapsen", seats: 2, teams: null };
const SCHNORPS = { undeclared_end: "sixty_six", match_kind: "marken", terms: "schnorps", seats: 2, teams: null };
const names = { name: (seat) => ["Anna", "Bert"][seat] };

function twoPlayerSheet(traits) {
  return {
    table_id: "t1",
    title: "Schnapsen",
    variant: "this name is never read",
    traits,
    players: [
      { seat: 0, name: "Anna", kind: "human" },
      { seat: 1, name: null, kind: "bot", bot: "expert", titles: { de: "Stark", en: "Strong" } },
    ],
    sides: [[0], [1]],
    matches: [
      {
        match_no: 1,
        scoring: "bummerl",
        target: 7,
        start: [7, 7],
        games: [
          {
            game_no: 1,
            dealer: 1,
            winner: 0,
            points: 2,
            credited: 2,
            unit: "game points",
            multiplier: 1,
            reason: "declared",
            closed_by: null,
            class: "schneider",
            augen: [68, 30],
            standing: [5, 7],
          },
          {
            game_no: 2,
            dealer: 0,
            winner: 1,
            points: 1,
            credited: 1,
            unit: "game points",
            multiplier: 1,
            reason: "last_trick",
            closed_by: null,
            class: null,
            augen: [50, 70],
            standing: [5, 6],
          },
        ],
        standing: [5, 6],
        current: { game_no: 3, dealer: 1 },
        over: false,
        winners: [],
      },
    ],
    totals: {},
  };
}

afterEach(() => setLang("de"));

describe("how a game ended", () => {
  test("the last trick: a Schnapsen sheet says so, a 66 sheet says 66 after the last card (by the traits)", () => {
    setLang("de");
    const line = { reason: "last_trick", winner: 1 };
    assert.equal(endingText(line, { traits: SCHNAPSEN }, names), "letzter Stich");
    assert.equal(endingText(line, { traits: SCHNORPS }, names), "66 nach der letzten Karte");
    assert.equal(endingText(line, { variant: "schnapsen" }, names), "66 nach der letzten Karte");
  });

  test("closing is Zudrehen, in Schnorps Decken (the traits' terms)", () => {
    setLang("de");
    const failed = { reason: "closer_failed", winner: 0, closed_by: 1 };
    assert.equal(endingText(failed, { traits: SCHNAPSEN }, names), "Bert: zugedreht, verfehlt");
    assert.equal(endingText(failed, { traits: SCHNORPS }, names), "Bert: gedeckt, verfehlt");
    assert.equal(endingText({ reason: "closer_won", winner: 0 }, { traits: SCHNORPS }, names), "gedeckt, geschafft");
  });

  test("a declaration gives the winner's Augen, also in a round game where players are not seats 0 and 1", () => {
    setLang("en");
    assert.equal(endingText({ reason: "declared", winner: 1, augen: [30, 70] }, {}, names), "declared with 70");
    const roundGame = { reason: "declared", winner: 3, players: [1, 3], augen: [20, 66] };
    assert.equal(endingText(roundGame, {}, names), "declared with 66");
  });
});

describe("a line of the sheet", () => {
  test("who was paid, how the game ended, the loser's class, a doubling", () => {
    setLang("de");
    const sheet = twoPlayerSheet(SCHNAPSEN);
    const [first, second] = sheet.matches[0].games;
    assert.equal(lineText(first, sheet, names), "Anna: 2 Punkte – ausgemeldet mit 68 · Schneider");
    assert.equal(lineText(second, sheet, names), "Bert: 1 Punkt – letzter Stich");
    const doubled = { ...second, unit: "Marken", credited: 4, multiplier: 2 };
    assert.equal(
      lineText(doubled, twoPlayerSheet(SCHNORPS), names),
      "Bert: 4 Marken – 66 nach der letzten Karte · 2-fach",
    );
  });

  test("a Schwarz after Zudrehen that ended 13:93 says the class was counted when the talon was closed", () => {
    setLang("de");
    const sheet = twoPlayerSheet(SCHNAPSEN);
    const closed = { game_no: 2, winner: 0, points: 3, unit: "game points", reason: "closer_won", closed_by: 0 };
    assert.equal(
      lineText({ ...closed, class: "schwarz", augen: [93, 13] }, sheet, names),
      "Anna: 3 Punkte – zugedreht, geschafft · Schwarz: Bert hatte beim Zudrehen noch keinen Stich",
    );
    // Where the end shows the class, the short word says it.
    assert.match(lineText({ ...closed, class: "schwarz", augen: [120, 0] }, sheet, names), / · Schwarz \(/);
    const schneider = { ...closed, points: 2, class: "schneider", augen: [70, 50] };
    assert.match(lineText(schneider, sheet, names), /Schneider: Bert hatte beim Zudrehen noch keine 33 Augen$/);
    setLang("en");
    assert.match(
      lineText({ ...closed, class: "schwarz", augen: [93, 13] }, twoPlayerSheet(SCHNORPS), names),
      /Schwarz: Bert had no trick yet when the talon was covered$/,
    );
  });

  test("a stand pays nobody: its line is the ending alone", () => {
    setLang("en");
    assert.equal(lineText({ reason: "stand", winner: null }, {}, names), "stands (65:65) – nobody scores");
  });

  test("a table game: the winning side, the points, the contract and a Kontra", () => {
    setLang("de");
    const sheet = {
      sides: [
        [0, 2],
        [1, 3],
      ],
    };
    const line = { winners: [0, 2], sides: [0], points: 2, contract: "normal", multiplier: 2 };
    assert.equal(lineText(line, sheet, { name: (s) => `P${s}` }), "Team 1: 2 – Normales Spiel ×2");
    assert.equal(lineText({ winners: [], reason: "redeal" }, sheet, names), "neu gegeben (drei Unter)");
  });
});

describe("a match", () => {
  test("its header: Bummerl count down, Marken up, a round in plus or minus, table games in points", () => {
    setLang("de");
    assert.equal(standingNote({ scoring: "bummerl", target: 7 }), "von 7 abwärts");
    assert.equal(standingNote({ scoring: "marken", target: 24 }), "Marken, bis 24");
    assert.equal(standingNote({ scoring: "marken", round: true, target: 10 }), "Marken im Plus oder Minus, Ziel 10");
    assert.equal(standingNote({ scoring: "points", target: 24 }), "Punkte bis 24");
  });

  test("its end: nothing while it runs, the winner, Schneider's second Bummerl", () => {
    setLang("en");
    const sheet = twoPlayerSheet(SCHNAPSEN);
    assert.equal(matchEndText({ over: false }, sheet, names), null);
    assert.equal(matchEndText({ over: true, winners: [1], scoring: "bummerl" }, sheet, names), "Bert wins the Bummerl");
    assert.equal(
      matchEndText({ over: true, winners: [0], scoring: "bummerl", schneider: true }, sheet, names),
      "Anna wins the Bummerl · Schneider: two Bummerl",
    );
    assert.equal(matchEndText({ over: true, winners: [0], scoring: "marken" }, sheet, names), "Anna wins the match");
  });
});

describe("the sheet as text", () => {
  test("every seat by its name (a bot by its one name), the standing in columns, a line per game", () => {
    setLang("en");
    const text = sheetText(twoPlayerSheet(SCHNAPSEN), {});
    const lines = text.split("\n");
    assert.equal(lines[0], "Score sheet – Schnapsen (t1)");
    assert.ok(
      lines.some((l) => /^\s+1 {2}Computer \(Strong\)\s+5\s+7 {2}Anna: 2 game points – declared with 68/.test(l)),
      text,
    );
    assert.ok(
      lines.some((l) => /^\s+2 {2}Anna\s+5\s+6 {2}Computer \(Strong\): 1 game point – last trick$/.test(l)),
      text,
    );
  });
});
