// Card faces drawn as our own SVG: doppeldeutsche (Herz, Schellen, Eichel, Laub) and French (♥ ♦ ♣ ♠).
//
// A card is named by its record code (rank letter then suit letter: "Ah", "Tc", "Qs", "9d"), exactly as
// the server sends it; this module only draws and names cards, it never decides what may be played.
//
//   import { cardSvg, cardName } from "./cards.js";
//   el.innerHTML = cardSvg("Qh", "german");      // an <svg> string
//   cardName("Qh", "german", "de")               // "Herz-Ober"
//   cardName("Qh", "french", "en")               // "Queen of Hearts"

const SUITS = "hdcs";
const RANKS = "789JQKTA";

// Mirrors bummerl.cards: the same names the terminal prints.
const SUIT_NAMES = {
  "german/de": ["Herz", "Schellen", "Eichel", "Laub"],
  "german/en": ["Hearts", "Bells", "Acorns", "Leaves"],
  "french/de": ["Herz", "Karo", "Kreuz", "Pik"],
  "french/en": ["Hearts", "Diamonds", "Clubs", "Spades"],
};
const RANK_NAMES = {
  "german/de": ["Sieben", "Acht", "Neun", "Unter", "Ober", "König", "Zehner", "Ass"],
  "german/en": ["Seven", "Eight", "Nine", "Unter", "Ober", "King", "Ten", "Ace"],
  "french/de": ["Sieben", "Acht", "Neun", "Bube", "Dame", "König", "Zehner", "Ass"],
  "french/en": ["Seven", "Eight", "Nine", "Jack", "Queen", "King", "Ten", "Ace"],
};
// The index printed in the corner: A/10/K/O/U (German faces), A/10/K/D/B (French, German
// language) or A/10/K/Q/J (French, English).
const RANK_LABELS = {
  "german/de": ["7", "8", "9", "U", "O", "K", "10", "A"],
  "german/en": ["7", "8", "9", "U", "O", "K", "10", "A"],
  "french/de": ["7", "8", "9", "B", "D", "K", "10", "A"],
  "french/en": ["7", "8", "9", "J", "Q", "K", "10", "A"],
};

/** A record code's suit and rank as indices (`parseCode("Qh")`: `{ suit: 0, rank: 4 }`); "10h" is "Th". */
export function parseCode(code) {
  // A whole match: an empty or one-letter code was once read as the Seven of Hearts (indexOf("") is 0).
  const m = /^(10|[789TJQKA])([hdcs])$/i.exec(String(code));
  if (!m) throw new Error(`not a card code: ${code}`);
  return { suit: SUITS.indexOf(m[2].toLowerCase()), rank: RANKS.indexOf(m[1].toUpperCase().replace("10", "T")) };
}

function key(faces, lang) {
  return `${faces === "french" ? "french" : "german"}/${lang === "en" ? "en" : "de"}`;
}

export function suitName(letter, faces, lang) {
  return SUIT_NAMES[key(faces, lang)][SUITS.indexOf(letter)];
}

export function rankName(code, faces, lang) {
  return RANK_NAMES[key(faces, lang)][parseCode(code).rank];
}

export function rankLabel(code, faces, lang) {
  return RANK_LABELS[key(faces, lang)][parseCode(code).rank];
}

/** The full name: "Herz-Ober" (German) or "Queen of Hearts" (English), as in bummerl.cards. */
export function cardName(code, faces, lang) {
  const { suit, rank } = parseCode(code);
  const k = key(faces, lang);
  const s = SUIT_NAMES[k][suit];
  const r = RANK_NAMES[k][rank];
  return lang === "en" ? `${r} of ${s}` : `${s}-${r}`;
}

// ---------------------------------------------------------------- suit symbols
// Each symbol is drawn in a 100x100 box; callers place and scale it.

function circle(cx, cy, r) {
  // A circle as path data, so a whole symbol stays one <path> where it can.
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
}

const HEART =
  "M50 90C22 68 6 52 6 32C6 16 18 6 31 6C40 6 47 11 50 19C53 11 60 6 69 6C82 6 94 16 94 32C94 52 78 68 50 90Z";
const DIAMOND = "M50 4L86 50L50 96L14 50Z";
const CLUB = `${circle(50, 29, 19)}${circle(28, 59, 19)}${circle(72, 59, 19)}${circle(50, 52, 10)}M45 60L38 95H62L55 60Z`;
const SPADE =
  "M50 5C72 30 94 44 94 63C94 78 83 86 71 86C62 86 56 82 53 76L59 95H41L47 76C44 82 38 86 29 86C17 86 6 78 6 63C6 44 28 30 50 5Z";

function symbol(suit, faces) {
  if (faces === "french") {
    const d = [HEART, DIAMOND, CLUB, SPADE][suit];
    const fill = suit < 2 ? "#c8102e" : "#1a1a1a";
    return `<path d="${d}" fill="${fill}"/>`;
  }
  switch (suit) {
    case 0: // Herz: a red heart, as on Austrian cards
      return `<path d="${HEART}" fill="#d01c1f" stroke="#7a0c0e" stroke-width="3"/>`;
    case 1: // Schellen: a round golden bell with a slit and a ring on top
      return (
        `<path d="${circle(50, 14, 7)}" fill="none" stroke="#6b4a00" stroke-width="4"/>` +
        `<path d="${circle(50, 56, 34)}" fill="#f2b705" stroke="#6b4a00" stroke-width="4"/>` +
        `<path d="M18 48H82" stroke="#c0392b" stroke-width="7"/>` +
        `<path d="M50 70V86" stroke="#3b2a00" stroke-width="5" stroke-linecap="round"/>` +
        `<path d="${circle(50, 70, 6)}" fill="#3b2a00"/>`
      );
    case 2: // Eichel: a brown nut in a scaly cup on a short stem
      return (
        `<path d="M47 4H53V20H47Z" fill="#5a3a12"/>` +
        `<path d="M28 56C28 86 40 96 50 96C60 96 72 86 72 56Z" fill="#d9a441" stroke="#5a3a12" stroke-width="3"/>` +
        `<path d="M20 56C20 28 80 28 80 56Z" fill="#7a4a14" stroke="#3d2408" stroke-width="3"/>` +
        `<path d="M30 44L40 52M42 38L52 50M56 38L64 50M68 44L74 52" stroke="#3d2408" stroke-width="3"/>`
      );
    default: // Laub: a green leaf with its vein
      return (
        `<path d="M50 4C80 28 88 60 54 86V97H46V86C12 60 20 28 50 4Z" fill="#2e8b3a" stroke="#145a20" stroke-width="3"/>` +
        `<path d="M50 16V84M50 40L34 30M50 40L66 30M50 58L32 48M50 58L68 48" stroke="#b7e4a0" stroke-width="3" fill="none"/>`
      );
  }
}

/** One suit symbol as a small standalone <svg> (for trump indicators and buttons). */
export function suitSvg(letter, faces, cls = "suit-icon") {
  const suit = SUITS.indexOf(letter);
  return `<svg class="${cls}" viewBox="0 0 100 100" aria-hidden="true" focusable="false">${symbol(suit, faces)}</svg>`;
}

function place(suit, faces, x, y, size, flip = false) {
  const s = size / 100;
  const rot = flip ? ` rotate(180 50 50)` : "";
  return `<g transform="translate(${x - size / 2} ${y - size / 2}) scale(${s})${rot}">${symbol(suit, faces)}</g>`;
}

// Pip positions of the number cards, in the 100x150 card box (x, y, upside-down).
const PIPS = {
  A: [[50, 75, false]],
  T: [
    [32, 28, false],
    [68, 28, false],
    [50, 46, false],
    [32, 60, false],
    [68, 60, false],
    [32, 90, true],
    [68, 90, true],
    [50, 104, true],
    [32, 122, true],
    [68, 122, true],
  ],
  9: [
    [32, 30, false],
    [68, 30, false],
    [32, 58, false],
    [68, 58, false],
    [50, 75, false],
    [32, 92, true],
    [68, 92, true],
    [32, 120, true],
    [68, 120, true],
  ],
  8: [
    [32, 30, false],
    [68, 30, false],
    [50, 52, false],
    [32, 75, false],
    [68, 75, false],
    [50, 98, true],
    [32, 120, true],
    [68, 120, true],
  ],
  7: [
    [32, 30, false],
    [68, 30, false],
    [50, 52, false],
    [32, 75, false],
    [68, 75, false],
    [32, 120, true],
    [68, 120, true],
  ],
};

function faceFigure(suit, faces, label, colour) {
  // Court cards (K, O/D, U/B): a framed panel with the rank letter large and the suit above and below,
  // in place of a painted figure.
  return (
    `<rect x="20" y="24" width="60" height="102" rx="6" fill="${faces === "german" ? "#fbf3dc" : "#f3f0ff"}" ` +
    `stroke="${colour}" stroke-width="2"/>` +
    place(suit, faces, 50, 46, 26) +
    `<text x="50" y="90" text-anchor="middle" font-size="34" font-weight="700" fill="${colour}" ` +
    `font-family="Georgia, 'Times New Roman', serif">${label}</text>` +
    place(suit, faces, 50, 108, 20, true)
  );
}

const INK = {
  german: ["#b3161a", "#8a5a00", "#5a3a12", "#1d6b2a"],
  french: ["#c8102e", "#c8102e", "#1a1a1a", "#1a1a1a"],
};

/** A card face as an <svg> string (viewBox 100x150); decorative: the button around it carries the name. */
export function cardSvg(code, faces = "german", lang = "de") {
  const { suit, rank } = parseCode(code);
  const f = faces === "french" ? "french" : "german";
  const label = RANK_LABELS[key(f, lang)][rank];
  const colour = INK[f][suit];
  const r = RANKS[rank];
  let middle;
  if (PIPS[r]) {
    const big = r === "A" ? 54 : 20;
    middle = PIPS[r].map(([x, y, flip]) => place(suit, f, x, y, big, flip)).join("");
  } else {
    middle = faceFigure(suit, f, label, colour);
  }
  const corner =
    `<text x="9" y="20" font-size="17" font-weight="700" fill="${colour}" ` +
    `font-family="Georgia, 'Times New Roman', serif">${label}</text>` +
    place(suit, f, 15, 31, 12);
  return (
    `<svg class="card-svg" viewBox="0 0 100 150" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="98" height="148" rx="8" fill="#fffdf7" stroke="#444" stroke-width="1.5"/>` +
    middle +
    corner +
    `<g transform="rotate(180 50 75)">${corner}</g>` +
    `</svg>`
  );
}

/** The back of a card: for the opponent's hand and the talon. */
export function backSvg() {
  return (
    `<svg class="card-svg" viewBox="0 0 100 150" aria-hidden="true" focusable="false">` +
    `<defs><pattern id="bummerl-back" width="10" height="10" patternUnits="userSpaceOnUse" ` +
    `patternTransform="rotate(45)"><rect width="10" height="10" fill="#1f3f8a"/>` +
    `<path d="M0 5H10M5 0V10" stroke="#3d63c2" stroke-width="2"/></pattern></defs>` +
    `<rect x="1" y="1" width="98" height="148" rx="8" fill="#fffdf7" stroke="#444" stroke-width="1.5"/>` +
    `<rect x="7" y="7" width="86" height="136" rx="5" fill="url(#bummerl-back)"/>` +
    `</svg>`
  );
}
