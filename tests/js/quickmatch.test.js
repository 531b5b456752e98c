// The quick-match panel's words and numbers (static/quickmatch.js): the time waited, the seconds to the bots and
// the waits the select offers, in both languages.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { setLang } from "../../src/bummerl/server/static/i18n.js";
import { ApiError } from "../../src/bummerl/server/static/api.js";
import {
  botWaitLabel,
  botsIn,
  presetLabel,
  refusalText,
  waitedText,
} from "../../src/bummerl/server/static/quickmatch.js";

describe("quick match", () => {
  test("the time waited reads as minutes and seconds", () => {
    assert.equal(waitedText(0), "0:00");
    assert.equal(waitedText(7.9), "0:07");
    assert.equal(waitedText(90), "1:30");
    assert.equal(waitedText(-3), "0:00");
  });

  test("the seconds until bots sit down count down from the chosen wait, never below 0", () => {
    assert.equal(botsIn({ bots_after: 30, waited: 12.5 }), 18);
    assert.equal(botsIn({ bots_after: 10, waited: 11 }), 0);
    assert.equal(botsIn({ bots_after: null, waited: 3 }), null); // people only
    assert.equal(botsIn(null), null);
  });

  test("the waits and presets in German and English", () => {
    setLang("de");
    assert.deepEqual([null, 0, 10].map(botWaitLabel), ["nie – nur Menschen", "sofort", "nach 10 Sekunden"]);
    assert.equal(presetLabel("short"), "Kurz (bis 12 Punkte)");
    assert.equal(presetLabel("someday"), "someday"); // a preset a newer server has: its name
    setLang("en");
    assert.deepEqual([null, 0, 30].map(botWaitLabel), ["never – people only", "at once", "after 30 seconds"]);
    assert.equal(presetLabel("easy"), "Easy (going out automatically at 66)");
  });

  test("a refusal the page knows is said in the page's words, another one in the server's", () => {
    setLang("de");
    const waiting = new ApiError(409, "already_waiting", "you are waiting for a quick match already");
    assert.match(refusalText(waiting), /^Du wartest schon auf ein Spiel/);
    const other = new ApiError(503, "storage", "the database is busy");
    assert.equal(refusalText(other), "Fehler: the database is busy");
  });
});
