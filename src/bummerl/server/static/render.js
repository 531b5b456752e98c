// Small DOM helpers shared by the pages: building elements, drawing cards, naming actions.
//
//   import { h, cardButton, cardFace } from "./render.js";
//   hand.append(cardButton("Qh", { faces: "german", lang: "de", onClick: play }));
//
// Cards are real <button>s (when they can be played) or role="img" elements, named in the page's language and
// faces. A card to look at carries its name as aria-label; a card button is named by its content: its picture, an
// <svg role="img"> with the card's name, and the key that plays it (hidden text). A button with an aria-label whose
// printed letters ("U", "10") are not in that label fails WCAG 2.5.3, Label in Name (axe-core, serious).

import { api } from "./api.js";
import { backSvg, cardName, cardSvg, suitName, suitSvg } from "./cards.js";
import { getLang, has, t } from "./i18n.js";

/** Create an element: h("button", { class: "x", onclick: f, "aria-label": "..." }, child, "text", ...). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else if (name === "html") {
      node.innerHTML = value;
    } else if (name === "dataset") {
      Object.assign(node.dataset, value);
    } else {
      node.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A card to look at (not to press). */
export function cardFace(code, { faces, lang, cls = "" } = {}) {
  return h("div", {
    class: `card ${cls}`.trim(),
    role: "img",
    "aria-label": cardName(code, faces, lang),
    dataset: { card: code },
    html: cardSvg(code, faces, lang),
  });
}

/** A face-down card; `label` names what it stands for (e.g. the talon). */
export function cardBack({ cls = "", label = null } = {}) {
  const attrs = { class: `card back ${cls}`.trim(), html: backSvg() };
  if (label) {
    attrs.role = "img";
    attrs["aria-label"] = label;
  } else {
    attrs["aria-hidden"] = "true";
  }
  return h("div", attrs);
}

/** A card in the player's hand: a button, disabled when the server does not list it as legal. */
export function cardButton(code, { faces, lang, enabled, onClick, key = null, cls = "" }) {
  const name = cardName(code, faces, lang);
  const button = h("button", {
    type: "button",
    class: `card in-hand ${enabled ? "playable" : "unplayable"} ${cls}`.trim(),
    "aria-disabled": enabled ? null : "true",
    dataset: { card: code, fkey: `card-${code}` },
    onclick: () => {
      if (enabled) onClick(code);
    },
    html: cardSvg(code, faces, lang),
  });
  const picture = button.querySelector("svg");
  picture.removeAttribute("aria-hidden");
  picture.setAttribute("role", "img");
  picture.setAttribute("aria-label", name);
  if (key) {
    button.append(
      h("span", { class: "key", "aria-hidden": "true" }, key),
      h("span", { class: "visually-hidden" }, ` (${t("key_hint", { key })})`),
    );
  }
  return button;
}

/** The trump suit as a symbol and a word. */
export function trumpBadge(letter, { faces, lang }) {
  return h(
    "span",
    { class: "trump-badge" },
    h("span", { html: suitSvg(letter, faces) }),
    ` ${t("trump")}: ${suitName(letter, faces, lang)}`,
  );
}

/** Hand order for display: trumps first, then suits in pack order, high ranks first (as the terminal). */
export function sortHand(codes, trumpLetter) {
  const suitOrder = "hdcs";
  const rankOrder = "AT" + "KQJ987";
  const k = (c) => [
    c.slice(-1) === trumpLetter ? 0 : 1,
    suitOrder.indexOf(c.slice(-1)),
    rankOrder.indexOf(c.slice(0, -1).replace("10", "T")),
  ];
  return [...codes].sort((a, b) => {
    const ka = k(a);
    const kb = k(b);
    for (let i = 0; i < 3; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  });
}

export const SPECIAL_ACTIONS = ["exchange", "close", "declare"];

/** Split the server's legal tokens by kind: plays, marriages (card led -> token), exchange, close, declares. */
export function classifyLegal(legal) {
  const out = {
    plays: new Set(),
    marriages: new Map(),
    exchange: false,
    close: false,
    declare: false,
    declareWith: [],
  };
  for (const token of legal || []) {
    if (token === "exchange") out.exchange = true;
    else if (token === "close") out.close = true;
    else if (token === "declare") out.declare = true;
    else if (token.startsWith("declare:")) out.declareWith.push(token.slice(8));
    else if (token.startsWith("marry:")) out.marriages.set(token.slice(6), token);
    else out.plays.add(token);
  }
  return out;
}

/**
 * A marriage's value in words ("Zwanziger", "Vierziger"). The value comes from the server (an event's `value`, the
 * state's `marriage_values`): the page never works out which marriage counts what.
 */
export function marriageWord(value) {
  if (value === undefined || value === null) return t("marriage");
  return has(`marriage_${value}`) ? t(`marriage_${value}`) : String(value);
}

/** An action token in words; `marriages` is the server's `marriage_values` (suit letter -> value). */
export function actionText(token, { faces, lang, marriages = {} }) {
  if (token === "exchange") return t("act_exchange");
  if (token === "close") return t("act_close");
  if (token === "declare") return t("act_declare");
  if (token.startsWith("declare:")) {
    const s = token.slice(8);
    return t("act_declare_marriage", { value: marriageWord(marriages[s]), suit: suitName(s, faces, lang) });
  }
  if (token.startsWith("marry:")) {
    const card = token.slice(6);
    return t("act_marriage", { value: marriageWord(marriages[card.slice(-1)]), card: cardName(card, faces, lang) });
  }
  return cardName(token, faces, lang);
}

/** The points of a result in words: "2 Punkte", "1 game point", "3 Marken". */
export function pointsText(n, unit) {
  return t("points", { n, unit });
}

/**
 * Why a game ended, in words: who declared, closed or took the last trick (`person(seat)` names a seat). `variant`
 * is the view's `variant` (its `traits` say whether the last trick or 66 wins a game nobody declared).
 */
export function reasonText(result, { person, closedBy, variant }) {
  if (!result) return "";
  const w = result.winner;
  switch (result.reason) {
    case "declared":
      return t("reason_declared", person(w));
    case "wrong_declaration": {
      const declarer = 1 - w;
      return t("reason_wrong_declaration", { ...person(declarer), augen: result.augen[declarer] });
    }
    case "closer_won":
      return t("reason_closer_won", person(closedBy ?? w));
    case "closer_failed":
      return t("reason_closer_failed", person(closedBy ?? 1 - w));
    case "last_trick": {
      const lastTrickWins = variant?.traits?.undeclared_end === "last_trick";
      return t(lastTrickWins ? "reason_last_trick" : "reason_last_trick_66", person(w));
    }
    case "stand":
      return t("reason_stand");
    default:
      return result.reason;
  }
}

// ------------------------------------------------------------------ names of bots, variants and house rules
/**
 * A bot's one display name in the page's language, from the server (`titles`: `{"de", "en"}` of a seat, of
 * `GET /api/variants`' `bot_titles` or `GET /api/bots`); the bot's id where the server gives none.
 */
export function botTitle(titles, fallback = "") {
  const lang = getLang();
  return (titles && (titles[lang] || titles.en)) || fallback || "";
}

/** How the page calls a seat a bot holds, everywhere (lobby, table, history): "Computer (Stark)". */
export function botName(player) {
  return t("computer_named", { bot: botTitle(player && player.titles, player && (player.bot || player.name)) });
}

/**
 * Every seat's name at a table (`players` of a state, by seat): a person by name, a bot by its one name, and two
 * bots of one kind numbered in seat order ("Computer 1 (Faustregeln)", "Computer 2 (Faustregeln)"), so that the
 * log and the standing tell them apart. `null` for a seat without a name (an invited friend not there yet).
 */
export function seatNames(players) {
  const title = (p) => botTitle(p.titles, p.bot || p.name);
  const bots = (players || []).filter((p) => p && p.kind === "bot").map(title);
  const seen = {};
  return (players || []).map((p) => {
    if (!p) return null;
    if (p.kind !== "bot") return p.name || null;
    const bot = title(p);
    if (bots.filter((b) => b === bot).length < 2) return botName(p);
    seen[bot] = (seen[bot] || 0) + 1;
    return t("computer_numbered", { n: seen[bot], bot });
  });
}

let variantsAsked = null;

/** Every variant as `GET /api/variants` describes it (asked once per page load; `[]` if the server fails). */
export function variantList() {
  if (!variantsAsked) {
    variantsAsked = api("GET", "/api/variants")
      .then(({ data }) => data || [])
      .catch(() => {
        variantsAsked = null;
        return [];
      });
  }
  return variantsAsked;
}

/**
 * A variant's title in the page's language: the page's own words, else the server's title (from `variants`, as
 * `GET /api/variants` lists them, or `fallback`), else its name. The one place the page looks a title up.
 */
export function variantTitle(name, variants = [], fallback = "") {
  if (has(`variant_title_${name}`)) return t(`variant_title_${name}`);
  const v = (variants || []).find((x) => x.name === name);
  return (v && v.title) || fallback || name || "";
}

/** An option's name in words: the page's label where it has one, else the server's name. */
export function optionText(name) {
  return has(`opt_${name}`) ? t(`opt_${name}`) : name.replaceAll("_", " ");
}

/** The options that differ from the defaults (`view.variant.options`) in words: "Mit Bettler: nein", ... */
export function houseRules(options) {
  return Object.entries(options || {}).map(([name, value]) => {
    if (value === true) return optionText(name);
    if (value === false) return `${optionText(name)}: ${t("opt_false")}`;
    const key = `opt_${name}.${value}`;
    return `${optionText(name)}: ${has(key) ? t(key) : String(value)}`;
  });
}

/** The traits of the view's variant (view_json.variant_traits: `seats`, `teams`, `terms` …), `{}` where the server sent none. */
export function traits(view) {
  return (view && view.variant && view.variant.traits) || {};
}

/**
 * The table's variant and house rules in one line for its header: "Schnapsen (weich) · Hausregeln: ...".
 * `variants`: `GET /api/variants` (for the two-player titles), `variant`: the state's `view.variant`.
 */
export function variantLine(variant, variants, facts = {}) {
  if (!variant) return null;
  const rules = houseRules(variant.options);
  const line = h(
    "div",
    { class: "variant-line", id: "variant-line" },
    h("strong", {}, variantTitle(variant.name, variants)),
    " · ",
    h(
      "span",
      { class: "house-rules-line" },
      rules.length ? t("d_house_rules", { rules: rules.join(" · ") }) : t("d_standard_rules"),
    ),
  );
  // The table's clock, and whether its games move the players' ratings (a quick-match table): the welcome's facts.
  if (facts.moveSeconds) {
    line.append(" · ", h("span", { class: "table-clock-line" }, t("table_clock", { seconds: facts.moveSeconds })));
  }
  if (facts.rated) {
    line.append(" ", h("span", { class: "rated-badge", id: "rated-badge", title: t("rated_title") }, t("rated")));
  }
  return line;
}

// ------------------------------------------------------------------ banners of a table
/**
 * The table's banners: the own connection lost (retrying, with "reconnect now"), an error, and every other human
 * seat that is not connected (`players` of the state): one look tells why the game does not go on.
 */
export function tableBanners({
  connection,
  seconds = 0,
  onReconnect,
  error = null,
  players = [],
  mySeat = null,
  name,
}) {
  const out = [];
  if (connection === "retry") {
    out.push(
      h(
        "div",
        { class: "banner warn", role: "status" },
        t("reconnecting", { s: seconds }),
        " ",
        h("button", { type: "button", onclick: onReconnect }, t("reconnect_now")),
      ),
    );
  }
  if (error) out.push(h("div", { class: "banner error", role: "alert" }, t("error", { message: error })));
  for (const p of players || []) {
    if (p.kind !== "human" || !p.joined || p.connected || p.seat === mySeat) continue;
    out.push(
      h(
        "div",
        { class: "banner warn offline", role: "status", dataset: { offline: String(p.seat) } },
        t("d_offline", { name: name(p.seat) }),
      ),
    );
  }
  if (!out.length) out.push(h("div", { class: "banner hidden", "aria-hidden": "true" }));
  return out;
}
