// Where each seat sits at a table of 2, 3 or 4 (static/trick.js): the trick's cards and the seats are laid out by it.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { positions } from "../../src/bummerl/server/static/trick.js";

describe("positions", () => {
  test("the own seat at the bottom, the others clockwise from the left", () => {
    assert.deepEqual(positions(0, 4), { 0: "bottom", 1: "left", 2: "top", 3: "right" });
    assert.deepEqual(positions(2, 4), { 2: "bottom", 3: "left", 0: "top", 1: "right" });
    assert.deepEqual(positions(1, 3), { 1: "bottom", 2: "left", 0: "right" });
    assert.deepEqual(positions(1, 2), { 1: "bottom", 0: "top" });
  });

  test("at four the partner (two seats on) sits at the top, whoever one is", () => {
    for (const me of [0, 1, 2, 3]) assert.equal(positions(me, 4)[(me + 2) % 4], "top");
  });
});
