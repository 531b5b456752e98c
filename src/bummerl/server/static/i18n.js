// Every sentence of the web page in German and English: the words are data (i18n/de.json, i18n/en.json; wording
// follows bummerl/i18n.py, the terminal's), this module only picks and fills them.
//
//   import { t, setLang } from "./i18n.js";
//   setLang("en");
//   t("your_turn")                              // "Your turn"
//   t("points", { n: 2, unit: "game points" })  // "2 game points"
//
// A message is a string in a small part of ICU MessageFormat, the format translators' tools know:
//   {name}                                       the parameter, as given
//   {you, select, true {Du hast} other {{name} hat}}   a branch by the parameter's value ("other" otherwise;
//                                                a missing parameter selects "undefined" if there is one)
//   {n, plural, =0 {keine} one {# Karte} other {# Karten}}   by Intl.PluralRules; # is n in the language's digits
// A parameter the message names but the caller did not give stays as written ("{name}"). There is no quoting
// with apostrophes: no message needs a literal brace.
//
// This module must never touch the page beyond <html lang>: the unit tests import it under Node.

import de from "./i18n/de.json" with { type: "json" };
import en from "./i18n/en.json" with { type: "json" };

const MESSAGES = { de, en };

let lang = "de";

export function setLang(value) {
  lang = value === "en" ? "en" : "de";
  if (globalThis.document) document.documentElement.lang = lang;
}

export function getLang() {
  return lang;
}

/** The locale of the current language as Intl takes it: Austrian German, British English (the dates' too). */
export function locale() {
  return lang === "en" ? "en-GB" : "de-AT";
}

/**
 * A number in the current language's digits: `formatNumber(1234.5)` is "1 234,5" in (Austrian) German, "1,234.5"
 * in English; a minus sign is the typographic "−" in both. `options` are Intl.NumberFormat's (e.g.
 * `{ maximumFractionDigits: 1 }`, `{ signDisplay: "exceptZero" }`).
 */
export function formatNumber(value, options = {}) {
  return new Intl.NumberFormat(locale(), options).format(value).replace("-", "−");
}

// A message parsed once into a list of parts: a string, { arg }, { arg, kind, branches }, or HASH (the plural's n).
export const HASH = Object.freeze({ hash: true });
const parsed = new Map();

/**
 * A message's parts (the format above): strings, `{ arg }`, `{ arg, kind, branches: { key: parts } }` and HASH.
 * Throws on a message that is not well formed.
 */
export function parseMessage(text) {
  let i = 0;
  function message(inPlural) {
    const parts = [];
    let literal = "";
    while (i < text.length && text[i] !== "}") {
      if (text[i] === "{") {
        if (literal) parts.push(literal);
        literal = "";
        parts.push(argument());
      } else if (text[i] === "#" && inPlural) {
        if (literal) parts.push(literal);
        literal = "";
        parts.push(HASH);
        i++;
      } else literal += text[i++];
    }
    if (literal) parts.push(literal);
    return parts;
  }
  function expect(char) {
    if (text[i] !== char) throw new Error(`message "${text}": "${char}" expected at ${i}`);
    i++;
  }
  function word() {
    while (text[i] === " ") i++;
    const start = i;
    while (i < text.length && !" ,{}".includes(text[i])) i++;
    const found = text.slice(start, i);
    while (text[i] === " ") i++;
    return found;
  }
  function argument() {
    expect("{");
    const arg = word();
    if (text[i] === "}") {
      i++;
      return { arg };
    }
    expect(",");
    const kind = word();
    if (kind !== "select" && kind !== "plural") throw new Error(`message "${text}": unknown kind "${kind}"`);
    expect(",");
    const branches = {};
    for (let key = word(); key; key = word()) {
      expect("{");
      branches[key] = message(kind === "plural");
      expect("}");
    }
    if (!("other" in branches)) throw new Error(`message "${text}": {${arg}} has no "other" branch`);
    expect("}");
    return { arg, kind, branches };
  }
  const parts = message(false);
  if (i < text.length) throw new Error(`message "${text}": unmatched "}" at ${i}`);
  return parts;
}

function render(parts, params, count) {
  let out = "";
  for (const part of parts) {
    if (typeof part === "string") out += part;
    else if (part === HASH) out += formatNumber(count);
    else if (!part.kind) out += part.arg in params ? String(params[part.arg]) : `{${part.arg}}`;
    else {
      const value = params[part.arg];
      let branch;
      if (part.kind === "plural") {
        const n = Number(value);
        branch = part.branches[`=${n}`] ?? part.branches[new Intl.PluralRules(locale()).select(n)];
        out += render(branch ?? part.branches.other, params, n);
      } else {
        branch = part.branches[String(value)] ?? part.branches.other;
        out += render(branch, params, count);
      }
    }
  }
  return out;
}

/** `text` (a message in the format above) filled with `params` in the current language. */
export function format(text, params = {}) {
  let parts = parsed.get(text);
  if (parts === undefined) {
    parts = parseMessage(text);
    parsed.set(text, parts);
  }
  return render(parts, params, undefined);
}

/** Whether `key` is a known message (for names the server may add later). */
export function has(key) {
  return key in MESSAGES[lang] || key in MESSAGES.de;
}

/** The message `key` in the current language, filled with `params`. */
export function t(key, params = {}) {
  const text = MESSAGES[lang][key] ?? MESSAGES.de[key];
  if (text === undefined) throw new Error(`no message ${key}`);
  return format(text, params);
}

/** The message keys of each language (a browser test checks that both languages have the same). */
export const MESSAGE_KEYS = { de: Object.keys(MESSAGES.de), en: Object.keys(MESSAGES.en) };
