#!/usr/bin/env node
// A Bummerl bot in JavaScript, to show that the bot protocol is language-neutral
// (docs/protocol.md).  Run it against a built-in bot:
//
//   bummerl arena --a "cmd:node examples/bots/greedy.js" --b random --deals 100
//
// Strategy, from the view alone: go out with 66, exchange the trump card,
// announce a marriage (40 before 20); otherwise, when leading, play the
// cheapest card, and when following, win the trick with the cheapest winning
// card if the lead is worth Augen, else throw the cheapest card.
"use strict";
const readline = require("readline");

const AUGEN = { A: 11, T: 10, K: 4, Q: 3, J: 2, 9: 0, 8: 0, 7: 0 };
const ORDER = "789JQKTA"; // low to high within a suit

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function beats(card, lead, trump) {
  if (card[1] === lead[1]) return ORDER.indexOf(card[0]) > ORDER.indexOf(lead[0]);
  return card[1] === trump;
}

function cheapest(cards, trump) {
  // Fewest Augen first, and a non-trump before a trump of the same value.
  return cards.slice().sort((x, y) =>
    AUGEN[x[0]] - AUGEN[y[0]] || (x[1] === trump) - (y[1] === trump) || ORDER.indexOf(x[0]) - ORDER.indexOf(y[0])
  )[0];
}

function choose(view, legal) {
  // "declare" is legal after any trick won; only 66 Augen make it a win.  Where
  // the variant hides the totals (scharf: view.augen is null) never declare.
  const mine = view.augen === null ? 0 : view.augen[view.seat];
  if (mine >= 66 && legal.includes("declare")) return "declare";
  const withMarriage = legal.find((a) => a.startsWith("declare:") && mine + (a[8] === view.trump ? 40 : 20) >= 66);
  if (withMarriage) return withMarriage;
  if (legal.includes("exchange")) return "exchange";
  const marriages = legal.filter((a) => a.startsWith("marry:K"));
  const trumpMarriage = marriages.find((a) => a[7] === view.trump);
  if (trumpMarriage || marriages.length) return trumpMarriage || marriages[0];
  const cards = legal.filter((a) => a.length === 2);
  if (view.lead === null) return cheapest(cards, view.trump);
  const winners = cards.filter((c) => beats(c, view.lead, view.trump));
  if (AUGEN[view.lead[0]] >= 10 && winners.length) return cheapest(winners, view.trump);
  return cheapest(cards, view.trump);
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  if (!line.trim()) return;
  let message;
  try {
    message = JSON.parse(line);
  } catch (err) {
    send({ type: "error", message: "not JSON: " + err.message });
    return;
  }
  switch (message.type) {
    case "hello":
      send({ type: "hello", protocol: "bummerl-bot", version: 1, name: "greedy-js" });
      break;
    case "decide":
      send({ type: "action", id: message.id, action: choose(message.view, message.legal) });
      break;
    case "quit":
      input.close();
      break;
    default: // game_start, game_end: nothing to do
  }
});
