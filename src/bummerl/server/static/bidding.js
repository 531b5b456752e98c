// The table games' part of the table page (table.js): Bauernschnapsen (4 seats, seats 0+2 and 1+3 are teams) and
// Dreierschnapsen (3 seats) — the seats around the table with their tags, the bidding, the contract with its Kontra,
// the talon laid away, the score to 24.
//
//   const part = new BiddingTable(page);   // page: the TablePage, whose state, names and sending it uses
//   root.replaceChildren(part.build(state));
//
// Everything shown comes from the server's `state` messages (docs/web.md, "Table games"). The buttons are exactly
// the non-card tokens of the server's `legal` list and a card is clickable exactly when its token (the card,
// `marry:<card>` or `discard:<card>`) is in it: this part computes no rule.

import { cardName, suitName } from "./cards.js";
import { has, t } from "./i18n.js";
import {
  cardBack,
  cardButton,
  cardFace,
  h,
  marriageWord,
  sortHand,
  traits,
  trumpBadge,
  variantLine,
} from "./render.js";
import { contractGuide, rulesLink } from "./rules.js";
import { sheetPanel, withSheet } from "./sheet.js";
import { positions, trickBox } from "./trick.js";

const LOG_LINES = 14;
const KONTRA = ["kontra", "rekontra", "subkontra"];

// The drawing below is shared with the replay of a finished table game (replay.js): each function takes the
// table's `view` (the server's view JSON, or a replay step's board, which has the same fields) and `o`, the
// page's `{ faces, lang, name }` (`name(seat)`: how the page calls a seat).

/** A contract's name in the page's language (the server's name where the page has none). */
export function contractName(name) {
  return has(`tg_contract_${name}`) ? t(`tg_contract_${name}`) : name;
}

/**
 * An action token in words: a button's text, or a card's name for a card, `discard:` or `marry:` token.
 * `marriages`: the state's `marriage_values` (suit letter -> value) that name a marriage "Zwanziger"/"Vierziger".
 */
export function tokenText(token, { faces, lang, marriages = {} }) {
  const [kind, arg] = token.split(":");
  const suit = (letter) => suitName(letter, faces, lang);
  if (/^[AKQJT987][hdcs]$/.test(token)) return cardName(token, faces, lang);
  if (kind === "discard") return t("tg_act_discard", { card: cardName(arg, faces, lang) });
  if (kind === "bid") return t("tg_bid", { contract: contractName(arg) });
  if (kind === "trump") return t("tg_act_trump", { suit: suit(arg) });
  if (kind === "declare" && arg) {
    // "Vierziger in Herz + Genug!" where the server says what the marriage is worth (as at two players).
    const value = (marriages || {})[arg];
    if (value) return t("act_declare_marriage", { value: marriageWord(value), suit: suit(arg) });
    return t("tg_act_declare_suit", { suit: suit(arg) });
  }
  if (kind === "marry")
    return t("act_marriage", {
      value: marriageWord((marriages || {})[arg.slice(-1)]),
      card: cardName(arg, faces, lang),
    });
  const key = `tg_act_${kind.replace("-", "_")}`;
  return has(key) ? t(key) : token;
}

/** One event of the table's log in words (`null`: the trick shows it). */
export function eventText(e, o) {
  const who = e.seat !== undefined && e.seat !== null ? o.name(e.seat) : "";
  const suit = (letter) => suitName(letter, o.faces, o.lang);
  switch (e.type) {
    case "bid":
      return t("tg_ev_bid", { who, contract: contractName(e.contract) });
    case "trump":
      return t("tg_ev_trump", { who, suit: suit(e.suit) });
    case "double":
      return t("tg_ev_double", { who, name: t(`tg_act_${e.name}`) });
    case "contract":
      return t("tg_ev_contract", { who: o.name(e.declarer), contract: contractName(e.contract) });
    case "marriage":
      return t("tg_ev_marriage", { who, suit: suit(e.suit), value: e.value });
    case "trick":
      return t("tg_ev_trick", { who: o.name(e.winner), augen: e.augen });
    case "game_end":
      return resultText(e.result, o);
    case "game_start":
      return t("tg_ev_game_start", { n: e.game_no });
    case "joined":
      return t("tg_ev_joined", { who: e.name });
    case "play":
      return null; // the trick shows the cards
    default:
      return has(`tg_ev_${e.type}`) ? t(`tg_ev_${e.type}`, { who }) : null;
  }
}

/** A game's result in words: its winners, their points and the contract. */
export function resultText(r, o) {
  if (!r) return "";
  if (r.reason === "redeal") return t("tg_reason_redeal");
  const winners = r.winners.map((s) => o.name(s)).join(" & ");
  return t("tg_result", { who: winners, points: r.points, contract: contractName(r.contract) });
}

/** The table's status line: trump, the turned card, the phase, the contract with its Kontra, the Augen. */
export function statusParts(v, o) {
  const parts = [];
  if (v.play_trump) parts.push(trumpBadge(v.play_trump, o));
  if (v.turned_card) parts.push(cardFace(v.turned_card, { faces: o.faces, lang: o.lang, cls: "mini" }));
  parts.push(h("span", { class: "tg-phase", id: "tg-phase" }, t(`tg_phase_${v.phase}`)));
  if (v.contract) {
    let text = t("tg_contract_line", { contract: contractName(v.contract), who: o.name(v.declarer) });
    if (v.doubling) text += ` · ${t(`tg_act_${KONTRA[v.doubling - 1]}`)}`;
    parts.push(h("span", { class: "tg-contract", id: "tg-contract" }, text));
    parts.push(h("span", { class: "tg-augen" }, t("tg_augen", { a: v.augen[0], b: v.augen[1] })));
  }
  return parts;
}

/** A seat's tags: dealer, Vorhand, declarer, sitting out. */
export function seatTags(v, seat) {
  const tags = [];
  if (v.dealer === seat) tags.push(h("span", { class: "tg-tag" }, t("tg_dealer")));
  if (v.vorhand === seat) tags.push(h("span", { class: "tg-tag" }, t("tg_vorhand")));
  if (v.declarer === seat) tags.push(h("span", { class: "tg-tag declarer" }, t("tg_declarer")));
  if (v.contract && !v.active.includes(seat)) tags.push(h("span", { class: "tg-tag" }, t("tg_sits_out")));
  return tags;
}

/** The seat's last bid while the table bids (else `null`). */
export function lastBid(v, seat, o) {
  const bid = [...v.bids].reverse().find((b) => b.seat === seat);
  if (!bid || v.phase !== "bidding") return null;
  return h("div", { class: "tg-bid" }, tokenText(bid.action.startsWith("bid:") ? bid.action : "pass", o));
}

/** The middle of the table: the trick being played (else the last trick, with who took it) and the talon. */
export function tableTrick(v, where, o) {
  let cards = v.trick;
  let caption = null;
  if (!cards.length && v.tricks.length) {
    const last = v.tricks[v.tricks.length - 1];
    cards = last.cards;
    caption = t("tg_last_trick", { who: o.name(last.winner) });
  }
  // Before the play (cut, trump, bidding, talon, Kontra) the empty trick takes little room: on a phone the bidding
  // buttons and the hand then stand on the first screen.
  const before = !cards.length && !["play", "over"].includes(v.phase);
  return trickBox(cards, where, o, { seats: v.players, caption, before, talon: v.talon_size, id: "tg-trick" });
}

export class BiddingTable {
  /** `page`: the table page (its state, names, sending, the kept result, the sheet). */
  constructor(page) {
    this.page = page;
  }

  get o() {
    return this.page.o;
  }

  eventText(e) {
    return this.page.sharedEventText(e) ?? eventText(e, this.o); // the clock's moves, phrases: table.js
  }

  /** The whole table of state `s`, with the sheet beside it (below it on a phone). */
  build(s) {
    const page = this.page;
    const box = h("section", { class: "tgame", id: "tgame" });
    const v = s.view;
    const me = s.seat === null ? 0 : s.seat;
    const where = positions(me, v.players);
    const legal = s.legal || [];
    box.dataset.phase = v.phase;
    box.dataset.seq = String(s.seq);
    box.dataset.status = s.status;
    box.append(...page.banners());
    box.append(this.info(s));
    // The result of a game stands above the table: seen at once, also on a phone.
    if (page.kept) box.append(this.gameOver(page.kept.state, true));
    else if (s.game_over) box.append(this.gameOver(s));
    if (s.status === "waiting") box.append(this.invites());

    const table = h("div", { class: `tg-table tg-${v.players}` });
    for (let seat = 0; seat < v.players; seat++) {
      if (seat === me && s.seat !== null) continue;
      table.append(this.other(seat, where[seat], s));
    }
    table.append(h("div", { class: "tg-center" }, tableTrick(v, where, this.o)));
    box.append(table);
    box.append(this.actions(s, legal));
    if (s.seat !== null) box.append(this.hand(s, legal));
    else box.append(h("p", { class: "muted" }, t("tg_spectator")));
    // Below the hand, as at two players (talon.js): the bid buttons and the hand come first on a phone.
    box.append(page.help.element(s, { lang: page.lang, say: (token) => tokenText(token, this.o) }));
    box.append(this.logPanel());
    return withSheet(box, sheetPanel(page.sheet || null, page.sheetNames));
  }

  /** Above the table: the variant, trump, phase, contract and Augen; the score to 24 per team or seat. */
  info(s) {
    const v = s.view;
    const m = s.match;
    const name = (seat) => this.page.nameOf(seat);
    // The score per team (the variant's `teams`: seats 0+2 and 1+3) or per seat.
    const teams = traits(v).teams || null;
    const sides = m.scores.map((score, i) => {
      const label = teams ? t("tg_team", { names: teams[i].map(name).join(" & ") }) : name(i);
      return h(
        "li",
        { dataset: { side: i } },
        `${label}: ${score}`,
        m.bummerl[i] ? ` · ${t("tg_bummerl")} ${m.bummerl[i]}` : "",
      );
    });
    const score = h(
      "div",
      { class: "panel tg-score", id: "tg-score" },
      h("strong", {}, t("tg_score", { target: m.target, n: m.game_no })),
      h("ul", {}, sides),
      m.over ? h("p", { class: "tg-match-over" }, m.schneider ? t("tg_schneider") : t("tg_match_over")) : null,
    );
    // The rules of this table's variant with its house rules (rules.js), one tap away.
    const rules = rulesLink(v.variant, { table: this.page.tableId });
    const status = h(
      "div",
      { class: "panel tg-status" },
      variantLine(v.variant, this.page.variants, this.page.facts),
      statusParts(v, this.o),
      rules,
    );
    if (this.page.error)
      status.append(
        h("p", { class: "notice error", role: "alert", id: "tg-error" }, t("error", { message: this.page.error })),
      );
    return h("div", { class: "tg-info" }, status, score);
  }

  /** While invited friends are missing: an invitation link per open seat. */
  invites() {
    const urls = this.page.inviteUrls();
    const list = Object.entries(urls).map(([seat, url]) =>
      h("li", {}, t("tg_invite", { n: Number(seat) + 1 }), " ", this.page.copyField(url, `invite-${seat}`)),
    );
    return h("div", { class: "panel tg-waiting" }, h("p", {}, t("tg_waiting")), list.length ? h("ul", {}, list) : null);
  }

  /** Another seat: its name and tags, its cards face down, the cards everybody has seen, its last bid. */
  other(seat, place, s) {
    const v = s.view;
    const p = s.players[seat] || {};
    const tags = seatTags(v, seat);
    if (v.partner === seat) tags.unshift(h("span", { class: "tg-tag partner" }, t("tg_partner")));
    if (p.kind === "human" && !p.connected && s.seat !== null)
      tags.push(h("span", { class: "tg-tag" }, t("tg_offline")));
    const count = v.hand_sizes[seat];
    const name = this.page.nameOf(seat);
    const backs = h("div", { class: "hand tg-backs", role: "group", "aria-label": t("hand_of", { name }) });
    for (let i = 0; i < count; i++) backs.append(cardBack({ cls: "small" }));
    const known = (v.known[seat] || []).map((c) =>
      cardFace(c, { faces: this.o.faces, lang: this.o.lang, cls: "mini" }),
    );
    return h(
      "div",
      { class: `seat tg-seat tg-${place}`, dataset: { seat } },
      h(
        "div",
        { class: `seat-name ${v.to_move === seat ? "to-move" : ""}`.trim() },
        name,
        v.partner === seat ? " ★" : "",
      ),
      h("div", { class: "tg-tags" }, tags),
      backs,
      h("div", { class: "tg-count" }, t("tg_cards", { n: count }), known.length ? [" ", ...known] : null),
      lastBid(v, seat, this.o),
    );
  }

  /** The buttons: every token that is not a card, marriage or discard, in the server's order; then marriages. */
  actions(s, legal) {
    const send = (tok) => this.page.act(tok);
    // Asked for as soon as the table is drawn, long before the bidding: the buttons are complete when they come.
    const guide = this.contractGuide(s.view);
    const buttons = legal
      .filter((tok) => !/^[AKQJT987][hdcs]$/.test(tok) && !tok.startsWith("marry:") && !tok.startsWith("discard:"))
      .map((tok) => {
        const info = tok.startsWith("bid:") ? bidInfo(guide, tok.slice(4), s.view) : null;
        return h(
          "button",
          {
            type: "button",
            class: `tg-action ${tok.startsWith("bid:") ? "bid" : ""}`.trim(),
            dataset: { token: tok },
            onclick: () => send(tok),
            // The contract's whole description: a tooltip for the mouse, a description for a screen reader.
            title: info ? info.title : null,
            "aria-describedby": info ? info.node.id : null,
          },
          tok.startsWith("bid:") ? bidLabel(tok.slice(4)) : tokenText(tok, this.o),
          info ? info.node : null,
        );
      });
    for (const tok of legal.filter((x) => x.startsWith("marry:"))) {
      buttons.push(
        h(
          "button",
          { type: "button", class: "tg-action marry", dataset: { token: tok }, onclick: () => send(tok) },
          tokenText(tok, this.o),
        ),
      );
    }
    const hint = legal.some((x) => x.startsWith("discard:"))
      ? h("p", { class: "tg-hint" }, t("tg_discard_hint"))
      : null;
    const turn = s.your_turn ? h("p", { class: "tg-turn", id: "tg-turn" }, t("tg_turn")) : null;
    return h("div", { class: "tg-actions", id: "tg-actions" }, turn, hint, buttons);
  }

  /**
   * What each contract means and scores, from the server's rules of this table's variant and options (rules.js):
   * `null` until it has come (the page draws again then).
   */
  contractGuide(v) {
    const key = `${JSON.stringify(v.variant)}/${this.o.lang}/${this.o.faces}`;
    if (this.guideKey !== key) {
      this.guideKey = key;
      this.guide = null;
      contractGuide(v.variant, { lang: this.o.lang, faces: this.o.faces })
        .then((guide) => {
          if (this.guideKey !== key) return;
          this.guide = guide;
          this.page.render();
        })
        .catch(() => {});
    }
    return this.guide;
  }

  /** The own seat: the hand (an accessible group, as at every table), its tags, the cards laid away. */
  hand(s, legal) {
    const v = s.view;
    const set = new Set(legal);
    const hand = h("div", { class: "hand tg-hand", id: "tg-hand", role: "group", "aria-label": t("your_hand") });
    for (const code of sortHand(v.hand, v.trump)) {
      const token = set.has(code) ? code : set.has(`discard:${code}`) ? `discard:${code}` : null;
      hand.append(
        cardButton(code, {
          faces: this.o.faces,
          lang: this.o.lang,
          enabled: token !== null,
          onClick: () => this.page.act(token),
        }),
      );
    }
    const tags = seatTags(v, v.seat);
    const mini = (c) => cardFace(c, { faces: this.o.faces, lang: this.o.lang, cls: "mini" });
    const discarded = v.discarded.length
      ? h("div", { class: "tg-discarded" }, t("tg_discarded"), " ", v.discarded.map(mini))
      : null;
    return h(
      "div",
      { class: "seat seat-bottom tg-me", dataset: { seat: v.seat } },
      h("div", { class: `seat-name ${v.to_move === v.seat ? "to-move" : ""}`.trim() }, t("tg_you"), " ", tags),
      hand,
      discarded,
    );
  }

  /** The result of a game (`s`: the state on the table, or a `kept` one whose next game already runs). */
  gameOver(s, kept = false) {
    const page = this.page;
    const over = s.game_over;
    const box = h(
      "div",
      { class: `panel tg-over${kept ? " kept" : ""}`, id: kept ? "tg-over-kept" : "tg-over", role: "status" },
      h("h2", {}, t("tg_phase_over")),
      h("p", { id: kept ? "tg-result-kept" : "tg-result", class: "tg-result" }, resultText(over.result, this.o)),
    );
    if (over.result.reason !== "redeal")
      box.append(h("p", {}, t("tg_augen", { a: over.result.augen[0], b: over.result.augen[1] })));
    if (kept) {
      const close = () => {
        page.closeKept();
        page.render();
      };
      box.append(
        h("p", { class: "kept-note" }, t("d_result_kept")),
        h("button", { type: "button", class: "result-close", id: "tg-kept-close", onclick: close }, t("d_close")),
      );
    } else if (s.seat !== null) {
      const label = over.match_over ? t("tg_new_match") : t("tg_next");
      box.append(
        h("button", { type: "button", class: "primary", id: "tg-next", onclick: () => page.nextGame() }, label),
      );
    }
    box.append(
      h(
        "details",
        { class: "record", open: page.recordOpen, ontoggle: (e) => (page.recordOpen = e.target.open) },
        h("summary", {}, t("tg_record")),
        h("pre", { class: "record record-text" }, over.record),
      ),
    );
    // The expert's analysis of a table game is on its replay page, where each flagged decision opens its moment.
    if (over.game_id) {
      const link = h(
        "a",
        { href: `#/replay/${over.game_id}`, class: "analysis-link", id: "tg-analysis" },
        t("tg_analysis_link"),
      );
      box.append(h("p", {}, link));
    }
    return box;
  }

  logPanel() {
    const lines = this.page.log
      .map((e) => this.eventText(e))
      .filter(Boolean)
      .slice(-LOG_LINES);
    return h(
      "div",
      { class: "panel tg-log", id: "tg-log" },
      h("h2", {}, t("tg_log")),
      h(
        "ol",
        {},
        lines.map((x) => h("li", {}, x)),
      ),
    );
  }
}

/**
 * A bid button's words: "Ansagen: Bettler", the verb in a span of its own that a phone hides (style.css; a
 * screen reader still reads it), so the contract's name and goal take fewer lines there. The verb comes from
 * the one template `tg_bid`.
 */
function bidLabel(name) {
  const [before, after] = t("tg_bid", { contract: "\u0000" }).split("\u0000");
  return h("span", { class: "tg-bid-name" }, h("span", { class: "tg-bid-verb" }, before), contractName(name), after);
}

/**
 * The line under a bid button, `{ node, title }`: the contract's points and goal, and its whole description as
 * the tooltip. From the rules of the table (`guide`), or, until they have come, from the view's own contract (its
 * points): the button never shows its name alone.
 */
function bidInfo(guide, name, view) {
  const c = guide && guide[name];
  const id = `bid-info-${name}`;
  if (c) {
    const node = h(
      "span",
      { class: "tg-bid-info", id },
      h("span", { class: "tg-bid-points" }, c.points_text),
      ` · ${c.goal}`,
    );
    return { node, title: `${contractName(name)}: ${c.points_text} · ${c.summary || c.goal}` };
  }
  const own = ((view.variant && view.variant.contracts) || []).find((x) => x && x.name === name);
  if (!own) return null;
  const points = t("tg_bid_points", { n: own.points });
  const node = h("span", { class: "tg-bid-info", id }, h("span", { class: "tg-bid-points" }, points));
  return { node, title: `${contractName(name)}: ${points}` };
}
