// The move clock's countdown and the log's lines of the clock and of phrases (static/clock.js, static/phrases.js).
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { clockText, remainingMs, timeoutText } from "../../src/bummerl/server/static/clock.js";
import { setLang } from "../../src/bummerl/server/static/i18n.js";
import { phraseLine, phraseText } from "../../src/bummerl/server/static/phrases.js";

const anna = () => ({ you: false, name: "Anna" });
const me = () => ({ you: true, name: "Du" });

describe("the countdown", () => {
  test("minutes and seconds, rounded up so 0:00 shows only when the time is up", () => {
    assert.equal(clockText(30_000), "0:30");
    assert.equal(clockText(29_001), "0:30");
    assert.equal(clockText(1), "0:01");
    assert.equal(clockText(0), "0:00");
    assert.equal(clockText(-50), "0:00");
    assert.equal(clockText(90_000), "1:30");
    assert.equal(clockText(600_000), "10:00");
  });

  test("counts from when the message arrived, never below zero, and not at all without a clock", () => {
    const clock = { seat: 1, remaining_ms: 20_000 };
    assert.equal(remainingMs(clock, 1000, 1000), 20_000);
    assert.equal(remainingMs(clock, 1000, 6500), 14_500);
    assert.equal(remainingMs(clock, 1000, 99_000), 0);
    assert.equal(remainingMs(clock, 1000, 500), 20_000); // a clock that went back changes nothing
    assert.equal(remainingMs(null, 0, 0), null);
  });
});

describe("the log's lines", () => {
  test("a time-out names whom the computer played for, in both languages", () => {
    setLang("de");
    assert.equal(timeoutText({ seat: 1, reason: "time" }, anna), "Zeit abgelaufen: Der Computer spielt für Anna.");
    assert.equal(
      timeoutText({ seat: 0, reason: "away" }, me),
      "Du bist nicht verbunden: Der Computer spielt für dich.",
    );
    setLang("en");
    assert.equal(timeoutText({ seat: 1, reason: "time" }, anna), "Time's up: the computer plays for Anna.");
  });

  test("the strike that takes the seat over says the game counts as abandoned", () => {
    setLang("de");
    const line = timeoutText({ seat: 1, reason: "time", strikes: 3, taken_over: true }, anna);
    assert.match(line, /^Zeit abgelaufen: .*Die Zeit von Anna ist 3-mal abgelaufen: .* als aufgegeben zählt\.$/);
    setLang("en");
    assert.match(timeoutText({ seat: 0, strikes: 2, taken_over: true }, me), /Your time ran out 2 times: .*abandoned/);
  });

  test("a phrase in the reader's language, an emote with its emoji", () => {
    setLang("de");
    assert.equal(phraseLine({ seat: 1, id: "well_played" }, anna), "Anna: Gut gespielt!");
    assert.equal(phraseLine({ seat: 0, id: "servus" }, me), "Du: Servus!");
    setLang("en");
    assert.equal(phraseLine({ seat: 1, id: "well_played" }, anna), "Anna: Well played!");
    assert.equal(phraseText("clap", "👏"), "👏 Applause");
  });
});
