// A three- or four-player table: Bauernschnapsen (4 seats, seats 0+2 and 1+3 are teams) or Dreierschnapsen (3 seats).
//
//   new TableGamePage(el, tableId, { spectator, ctx, socket })   // #/table/ID (with the seat token) or #/watch/ID
//
// Everything shown comes from the server's `state` messages (docs/web.md, "Table games"): the own hand, the
// others' card counts, the bidding, the contract, the trick and the score. The buttons are exactly the non-card
// tokens of the server's `legal` list and a card is clickable exactly when its token (the card, `marry:<card>`
// or `discard:<card>`) is in it: the page computes no rule.

import { TableSocket, absoluteUrl, api, seats } from "./api.js";
import { cardName, suitName } from "./cards.js";
import { TableHelp } from "./hints.js";
import { has, t } from "./i18n.js";
import {
  botName,
  cardBack,
  cardButton,
  cardFace,
  h,
  marriageWord,
  sortHand,
  tableBanners,
  trumpBadge,
  variantLine,
  variantList,
} from "./render.js";
import { motionPlay, motionSnapshot } from "./motion.js";
import { contractGuide, rulesLink } from "./rules.js";
import { sheetPanel, withSheet } from "./sheet.js";

const LOG_LINES = 14;
const KONTRA = ["kontra", "rekontra", "subkontra"];

// The drawing below is shared with the replay of a finished table game (replay.js): each function takes the
// table's `view` (the server's view JSON, or a replay step's board, which has the same fields) and `o`, the
// page's `{ faces, lang, name }` (`name(seat)`: how the page calls a seat).

/** Where each other seat sits, seen from `me`: left, top, right (four seats) or left, right (three). */
export function positions(me, n) {
  const places = n === 4 ? ["left", "top", "right"] : ["left", "right"];
  const out = {};
  places.forEach((place, i) => (out[(me + 1 + i) % n] = place));
  out[me] = "bottom";
  return out;
}

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
  if (kind === "marry") return t("act_marriage", { value: marriageWord((marriages || {})[arg.slice(-1)]), card: cardName(arg, faces, lang) });
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
export function trickArea(v, where, o) {
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
  const trick = h("div", { class: `tg-trick ${caption ? "done" : ""} ${before ? "before-play" : ""}`.replace(/\s+/g, " ").trim(), id: "tg-trick" });
  for (const { seat, card } of cards) {
    trick.append(h("div", { class: `played from-${where[seat]}`, dataset: { seat } }, cardFace(card, { faces: o.faces, lang: o.lang })));
  }
  if (caption) trick.append(h("div", { class: "trick-caption" }, caption));
  if (v.talon_size) trick.append(h("div", { class: "tg-talon" }, cardBack({ cls: "mini", label: t("tg_talon", { n: v.talon_size }) })));
  return trick;
}

export class TableGamePage {
  /** `socket`: the table's open TableSocket (the route that learnt the table's kind from it), else a new one. */
  constructor(el, tableId, { spectator, ctx, socket = null }) {
    this.el = el;
    this.tableId = tableId;
    this.ctx = ctx;
    this.saved = spectator ? null : seats.get(tableId);
    this.state = null;
    this.error = null;
    this.status = "connecting";
    this.log = [];
    // Issue 13 (area D): the variant's title for the header, the reconnect countdown, the record box as the player
    // left it, and the result of a game another player dealt on from (kept until this player closes it).
    this.retrySeconds = 0;
    this.variants = [];
    variantList().then((list) => {
      this.variants = list;
      this.render();
    });
    this.recordOpen = false;
    this.kept = null;
    this.nextSent = false;
    // Hints, the learning mode and the question before going out (hints.js); it sends through the table's socket.
    this.help = new TableHelp({ socket: null, render: () => this.render() });
    const handlers = { onMessage: (m) => this.onMessage(m), onStatus: (kind, info) => this.onStatus(kind, info) };
    if (socket) socket.attach(handlers);
    this.socket = socket || new TableSocket(tableId, this.saved ? this.saved.token : null, handlers);
    this.help.socket = this.socket;
    this.render();
  }

  onStatus(kind, info = {}) {
    if (kind === "gone") seats.forget(this.tableId);
    // While retrying, a new attempt is still "reconnecting" for the player, until the server answers.
    if (kind === "connecting" && this.status === "retry") return;
    this.status = kind;
    this.retrySeconds = info.seconds || 0;
    this.render();
  }

  destroy() {
    this.socket.close();
    this.help.destroy();
  }

  get faces() {
    return this.ctx.faces;
  }

  get lang() {
    return this.ctx.lang;
  }

  onMessage(message) {
    if (this.help.onMessage(message)) return;
    if (message.type === "welcome" && Array.isArray(message.log)) {
      // What happened so far in this game, from the server's stored events: the log survives a reload.
      this.log = message.log.slice(-60);
    } else if (message.type === "state") {
      if (this.state && message.view && this.state.view.phase === "over" && message.view.phase !== "over") this.log = [];
      if (message.sheet) this.sheet = message.sheet; // sent when it changed (a deal, a game's end)
      this.keepResult(message);
      this.state = message;
      this.help.onState(message);
      this.error = null;
      for (const e of message.events || []) this.log.push(e);
      this.log = this.log.slice(-60);
      // A friend took a seat: the invitations still open are asked for again.
      if ((message.events || []).some((e) => e.type === "joined")) this.invitesFetched = false;
    } else if (message.type === "error") {
      this.error = message.message;
      if (message.code === "bad_token") {
        // The stored token holds no seat here (any more): forget it and watch instead.
        seats.forget(this.tableId);
        this.saved = null;
        this.socket.token = null;
        this.socket.send({ type: "hello", token: null });
      }
    }
    this.render();
  }

  /**
   * A new deal replaced a game's result that this player did not deal on from (another player pressed "next
   * game"): the result stays on the page until this player closes it or deals on.
   */
  keepResult(message) {
    const before = this.state;
    if (message.game_over) {
      this.kept = null; // the game after it is over too: its result is the one to read now
      return;
    }
    if (before && before.game_over && before.seat !== null && !this.nextSent) this.kept = before;
    this.nextSent = false;
  }

  nextGame() {
    if (this.socket.send({ type: "next_game" })) {
      this.nextSent = true;
      this.kept = null;
      this.render();
    }
  }

  /** The invitations still open, from the server (any seat may ask: GET /api/tables/{id}/invite). */
  fetchInvites() {
    if (this.invitesFetched || !this.saved || !this.saved.token) return;
    this.invitesFetched = true;
    api("GET", `/api/tables/${encodeURIComponent(this.tableId)}/invite`, undefined, { Authorization: `Bearer ${this.saved.token}` })
      .then(({ data }) => {
        this.invites = data.invite_urls;
        this.render();
      })
      .catch(() => {});
  }

  send(token, confirmed = false) {
    // A "Genug" the server says loses is asked about first.
    if (!confirmed && this.state && this.help.asks(this.state, token, () => this.send(token, true), { table: true })) return;
    this.help.acted(this.state, token);
    this.socket.send({ type: "action", action: token });
  }

  name(seat) {
    const s = this.state;
    if (s && s.seat === seat) return t("tg_you");
    const p = s && s.players ? s.players[seat] : null;
    if (!p) return t("tg_seat", { n: seat + 1 });
    if (p.kind === "bot") return botName(p);
    return p.name || t("tg_seat", { n: seat + 1 });
  }

  /** The page's `{ faces, lang, name }` for the shared drawing functions above. */
  get o() {
    const marriages = (this.state && this.state.marriage_values) || {};
    return { faces: this.faces, lang: this.lang, marriages, name: (seat) => this.name(seat) };
  }

  /** The button text of a non-card token. */
  tokenLabel(token) {
    return tokenText(token, this.o);
  }

  eventText(e) {
    return eventText(e, this.o);
  }

  resultText(r) {
    return resultText(r, this.o);
  }

  // ------------------------------------------------------------------ drawing
  render() {
    const s = this.state;
    const box = h("section", { class: "tgame", id: "tgame" });
    if (this.status === "gone") {
      box.append(h("p", { class: "notice error" }, t("tg_gone")));
      this.el.replaceChildren(box);
      return;
    }
    if (!s) {
      box.append(h("p", {}, t("connecting")));
      this.el.replaceChildren(box);
      return;
    }
    const v = s.view;
    const me = s.seat === null ? 0 : s.seat;
    const where = positions(me, v.players);
    const legal = s.legal || [];
    box.dataset.phase = v.phase;
    box.dataset.seq = String(s.seq);
    box.dataset.status = s.status;
    box.append(...this.banners(s));
    box.append(this.renderInfo(s));
    if (this.error) box.append(h("p", { class: "notice error", role: "alert", id: "tg-error" }, t("error", { message: this.error })));
    // The result of a game stands above the table: seen at once, also on a phone.
    if (this.kept) box.append(this.renderGameOver(this.kept, true));
    else if (s.game_over) box.append(this.renderGameOver(s));
    if (s.status === "waiting") box.append(this.renderInvites(s));

    const table = h("div", { class: `tg-table tg-${v.players}` });
    for (let seat = 0; seat < v.players; seat++) {
      if (seat === me && s.seat !== null) continue;
      table.append(this.renderOther(seat, where[seat], s));
    }
    table.append(h("div", { class: "tg-center" }, this.renderTrick(v, where)));
    box.append(table);
    box.append(this.renderActions(s, legal));
    box.append(this.help.element(s, { lang: this.lang, say: (token) => this.tokenLabel(token) }));
    if (s.seat !== null) box.append(this.renderHand(s, legal));
    else box.append(h("p", { class: "muted" }, t("tg_spectator")));
    box.append(this.renderLog());
    const before = motionSnapshot(this.el);
    // The Bummerl sheet beside the table (below it on a phone): sheet.js.
    this.el.replaceChildren(withSheet(box, sheetPanel(this.sheet || null, { name: (seat) => this.name(seat), tableId: this.tableId })));
    motionPlay(this.el, before, this.motionHints(s));
    this.help.decorate(this.el);
  }

  /** The banners above the table: the own connection lost, another player who is not connected. */
  banners(s) {
    return tableBanners({
      connection: this.status,
      seconds: this.retrySeconds,
      onReconnect: () => this.socket.reconnectNow(),
      players: s.status !== "waiting" ? s.players : [],
      mySeat: s.seat,
      name: (seat) => this.name(seat),
    });
  }

  /** What the motion of the next drawing needs: who took the last trick, whose turn, whether the game is over. */
  motionHints(s) {
    const tricks = s.view.tricks || [];
    const last = tricks.length ? tricks[tricks.length - 1] : null;
    return { winner: last ? last.winner : null, yourTurn: Boolean(s.your_turn), gameOver: Boolean(s.game_over) };
  }

  renderInfo(s) {
    const v = s.view;
    const m = s.match;
    const parts = statusParts(v, this.o);
    // The score: teams (seats 0+2, 1+3) or seats.
    const sides = m.scores.map((score, i) => {
      const label = m.kind === "teams" ? t("tg_team", { names: `${this.name(i)} & ${this.name(i + 2)}` }) : this.name(i);
      return h("li", { dataset: { side: i } }, `${label}: ${score}`, m.bummerl[i] ? ` · ${t("tg_bummerl")} ${m.bummerl[i]}` : "");
    });
    const score = h(
      "div",
      { class: "panel tg-score", id: "tg-score" },
      h("strong", {}, t("tg_score", { target: m.target, n: m.game_no })),
      h("ul", {}, sides),
      m.over ? h("p", { class: "tg-match-over" }, m.schneider ? t("tg_schneider") : t("tg_match_over")) : null,
    );
    // The rules of this table's variant with its house rules (rules.js), one tap away.
    const rules = rulesLink(v.variant, { table: this.tableId });
    return h("div", { class: "tg-info" }, h("div", { class: "panel tg-status" }, variantLine(v.variant, this.variants), parts, rules), score);
  }

  renderInvites(s) {
    this.fetchInvites();
    const urls = this.invites || (this.saved && this.saved.invite_urls) || {};
    const list = Object.entries(urls).map(([seat, url]) =>
      h("li", {}, t("tg_invite", { n: Number(seat) + 1 }), " ", h("input", { readonly: true, value: absoluteUrl(url), class: "invite-url", size: 50 })),
    );
    return h("div", { class: "panel tg-waiting" }, h("p", {}, t("tg_waiting")), list.length ? h("ul", {}, list) : null);
  }

  renderOther(seat, place, s) {
    const v = s.view;
    const p = s.players[seat] || {};
    const tags = seatTags(v, seat);
    if (v.partner === seat) tags.unshift(h("span", { class: "tg-tag partner" }, t("tg_partner")));
    if (p.kind === "human" && !p.connected && s.seat !== null) tags.push(h("span", { class: "tg-tag" }, t("tg_offline")));
    const count = v.hand_sizes[seat];
    const backs = h("div", { class: "hand tg-backs" });
    for (let i = 0; i < count; i++) backs.append(cardBack({ cls: "small" }));
    const known = (v.known[seat] || []).map((c) => cardFace(c, { faces: this.faces, lang: this.lang, cls: "mini" }));
    return h(
      "div",
      { class: `seat tg-seat tg-${place}`, dataset: { seat } },
      h(
        "div",
        { class: `seat-name ${v.to_move === seat ? "to-move" : ""}`.trim() },
        this.name(seat),
        v.partner === seat ? " ★" : "",
      ),
      h("div", { class: "tg-tags" }, tags),
      backs,
      h("div", { class: "tg-count" }, t("tg_cards", { n: count }), known.length ? [" ", ...known] : null),
      lastBid(v, seat, this.o),
    );
  }

  renderTrick(v, where) {
    return trickArea(v, where, this.o);
  }

  renderActions(s, legal) {
    // Every token that is not a card, marriage or discard is a button, in the server's order.
    const guide = legal.some((x) => x.startsWith("bid:")) ? this.contractGuide(s.view) : null;
    const buttons = legal
      .filter((tok) => !/^[AKQJT987][hdcs]$/.test(tok) && !tok.startsWith("marry:") && !tok.startsWith("discard:"))
      .map((tok) =>
        h(
          "button",
          { type: "button", class: `tg-action ${tok.startsWith("bid:") ? "bid" : ""}`.trim(), dataset: { token: tok }, onclick: () => this.send(tok) },
          this.tokenLabel(tok),
          tok.startsWith("bid:") ? this.bidInfo(guide, tok.slice(4)) : null,
        ),
      );
    for (const tok of legal.filter((x) => x.startsWith("marry:"))) {
      buttons.push(h("button", { type: "button", class: "tg-action marry", dataset: { token: tok }, onclick: () => this.send(tok) }, this.tokenLabel(tok)));
    }
    const hint = legal.some((x) => x.startsWith("discard:")) ? h("p", { class: "tg-hint" }, t("tg_discard_hint")) : null;
    const turn = s.your_turn ? h("p", { class: "tg-turn", id: "tg-turn" }, t("tg_turn")) : null;
    return h("div", { class: "tg-actions", id: "tg-actions" }, turn, hint, buttons);
  }

  /**
   * What each contract means and scores, from the server's rules of this table's variant and options (rules.js):
   * `null` until it has come (the page draws again then).
   */
  contractGuide(v) {
    const key = `${JSON.stringify(v.variant)}/${this.lang}/${this.faces}`;
    if (this.guideKey !== key) {
      this.guideKey = key;
      this.guide = null;
      contractGuide(v.variant, { lang: this.lang, faces: this.faces })
        .then((guide) => {
          if (this.guideKey !== key) return;
          this.guide = guide;
          this.render();
        })
        .catch(() => {});
    }
    return this.guide;
  }

  /** The line under a bid button: the contract's points and goal (its whole description as the tooltip). */
  bidInfo(guide, name) {
    const c = guide && guide[name];
    if (!c) return null;
    return h("span", { class: "tg-bid-info", title: c.summary }, h("span", { class: "tg-bid-points" }, c.points_text), ` · ${c.goal}`);
  }

  renderHand(s, legal) {
    const v = s.view;
    const set = new Set(legal);
    const hand = h("div", { class: "hand tg-hand", id: "tg-hand" });
    for (const code of sortHand(v.hand, v.trump)) {
      const token = set.has(code) ? code : set.has(`discard:${code}`) ? `discard:${code}` : null;
      hand.append(
        cardButton(code, { faces: this.faces, lang: this.lang, enabled: token !== null, onClick: () => this.send(token) }),
      );
    }
    const tags = seatTags(v, v.seat);
    const discarded = v.discarded.length
      ? h("div", { class: "tg-discarded" }, t("tg_discarded"), " ", v.discarded.map((c) => cardFace(c, { faces: this.faces, lang: this.lang, cls: "mini" })))
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
  renderGameOver(s, kept = false) {
    const over = s.game_over;
    const box = h(
      "div",
      { class: `panel tg-over${kept ? " kept" : ""}`, id: kept ? "tg-over-kept" : "tg-over", role: "status" },
      h("h2", {}, t("tg_phase_over")),
      h("p", { id: kept ? "tg-result-kept" : "tg-result", class: "tg-result" }, this.resultText(over.result)),
    );
    if (over.result.reason !== "redeal") box.append(h("p", {}, t("tg_augen", { a: over.result.augen[0], b: over.result.augen[1] })));
    if (kept) {
      const close = () => {
        this.kept = null;
        this.render();
      };
      box.append(h("p", { class: "kept-note" }, t("d_result_kept")), h("button", { type: "button", class: "result-close", id: "tg-kept-close", onclick: close }, t("d_close")));
    } else if (s.seat !== null) {
      box.append(h("button", { type: "button", class: "primary", id: "tg-next", onclick: () => this.nextGame() }, over.match_over ? t("tg_new_match") : t("tg_next")));
    }
    box.append(
      h(
        "details",
        { class: "record", open: this.recordOpen, ontoggle: (e) => (this.recordOpen = e.target.open) },
        h("summary", {}, t("tg_record")),
        h("pre", { class: "record record-text" }, over.record),
      ),
    );
    // The expert's analysis of a table game is on its replay page, where each flagged decision opens its moment.
    if (over.game_id) box.append(h("p", {}, h("a", { href: `#/replay/${over.game_id}`, class: "analysis-link", id: "tg-analysis" }, t("tg_analysis_link"))));
    return box;
  }

  renderLog() {
    const lines = this.log.map((e) => this.eventText(e)).filter(Boolean).slice(-LOG_LINES);
    return h("div", { class: "panel tg-log", id: "tg-log" }, h("h2", {}, t("tg_log")), h("ol", {}, lines.map((x) => h("li", {}, x))));
  }
}
