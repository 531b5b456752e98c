// The leaderboard of one variant, `#/leaderboard/VARIANT`: the players with enough rated games between people,
// best first, this browser's player's row marked, and the player's own rating above the list.
//
//   import { LeaderboardPage } from "./leaderboard.js";
//   new LeaderboardPage(el, "schnapsen", { ctx, player: storedPlayer() });   // player: profile.js's, or null
//
// Every number is the server's (GET /api/leaderboard/VARIANT, docs/web.md): the page orders and counts nothing.
// The rows carry names, never player ids: the server marks the asking player's own row (`me`), for which the
// page sends this browser's player key. Names are text nodes (h()), never HTML.

import { ApiError, api } from "./api.js";
import { formatNumber, t } from "./i18n.js";
import { h, variantList, variantTitle } from "./render.js";

/** Rows per page (the server allows up to 100). */
export const PAGE = 50;

/** A rating as shown: whole points, never grouped (a rating reads "1623", as a chess rating does, not "1 623"). */
export function ratingText(rating) {
  return formatNumber(rating, { maximumFractionDigits: 0, useGrouping: false });
}

/** The address of a variant's leaderboard. */
export function leaderboardHref(variant) {
  return `#/leaderboard/${encodeURIComponent(variant)}`;
}

/**
 * Where a page of `count` rows at `offset` stands among `total`: the places it shows (1-based, `from` > `to`
 * when it shows none) and whether there are pages before and after it.
 */
export function pageSpan(offset, count, total) {
  return {
    from: offset + 1,
    to: offset + count,
    previous: offset > 0,
    next: offset + count < total,
  };
}

/**
 * What the page says about the asking player's own rating: a message key and its parameters. `me` is the
 * answer's `me` (null: no rated game in this variant yet), `minGames` the games a player needs to be listed.
 */
export function mineMessage(me, minGames) {
  if (!me) return { key: "lb_mine_none", params: {} };
  const rating = ratingText(me.rating);
  if (me.rank === null || me.rank === undefined)
    return { key: "lb_mine_provisional", params: { rating, games: me.games, min: minGames } };
  return { key: "lb_mine", params: { rating, rank: me.rank, games: me.games } };
}

export class LeaderboardPage {
  constructor(el, variant, { ctx, player = null }) {
    this.el = el;
    this.ctx = ctx;
    this.player = player;
    this.variant = variant || "schnapsen";
    this.variants = [];
    this.board = null;
    this.offset = 0;
    this.error = null;
    this.unknown = false;
    this.load();
    this.render();
  }

  /** The route left this page: an answer that comes later must not draw over the next page. */
  destroy() {
    this.gone = true;
  }

  async load() {
    this.error = null;
    this.unknown = false;
    const headers = this.player ? { Authorization: `Bearer ${this.player.key}` } : {};
    try {
      this.variants = await variantList();
      const path = `/api/leaderboard/${encodeURIComponent(this.variant)}?offset=${this.offset}&limit=${PAGE}`;
      const { data } = await api("GET", path, undefined, headers);
      this.board = data;
      this.variant = data.variant; // an alias in the address names its variant
    } catch (err) {
      this.board = null;
      // An address with a variant the server does not know (a typo, an old link): said in the page's language.
      this.unknown = err instanceof ApiError && err.code === "unknown_variant";
      this.error = this.unknown ? null : err.message;
    }
    this.render();
  }

  turn(delta) {
    this.offset = Math.max(0, this.offset + delta * PAGE);
    this.load();
  }

  chooser() {
    const select = h(
      "select",
      { id: "lb-variant", onchange: (e) => (location.hash = leaderboardHref(e.target.value)) },
      this.variants.map((v) => h("option", { value: v.name }, variantTitle(v.name, this.variants))),
    );
    select.value = this.variant;
    return h("p", { class: "lb-choose" }, h("label", { for: "lb-variant" }, t("lb_variant")), " ", select);
  }

  mine() {
    const b = this.board;
    const { key, params } = mineMessage(b.me, b.min_games);
    return h("p", { class: "panel lb-mine", id: "lb-mine" }, t(key, params));
  }

  table() {
    const b = this.board;
    if (!b.players.length) {
      return h("p", { class: "panel lb-empty", id: "lb-empty" }, t("lb_empty", { n: b.min_games }));
    }
    const head = h(
      "tr",
      {},
      h("th", { scope: "col", class: "num" }, t("lb_col_rank")),
      h("th", { scope: "col" }, t("lb_col_name")),
      h("th", { scope: "col", class: "num" }, t("lb_col_rating")),
      h("th", { scope: "col", class: "num" }, t("lb_col_games")),
    );
    const rows = b.players.map((p) =>
      h(
        "tr",
        { class: p.me ? "me" : null, "aria-current": p.me ? "true" : null },
        h("td", { class: "num rank" }, String(p.rank)),
        h(
          "td",
          { class: "name" },
          h("span", { class: "who" }, p.name || t("pf_no_name")),
          p.me ? h("strong", { class: "you" }, ` (${t("lb_you")})`) : null,
        ),
        h("td", { class: "num rating" }, ratingText(p.rating)),
        h("td", { class: "num games" }, String(p.games)),
      ),
    );
    return h(
      "table",
      { class: "lb-table", id: "lb-table" },
      h("caption", {}, t("lb_caption", { variant: variantTitle(b.variant, this.variants, b.title) })),
      h("thead", {}, head),
      h("tbody", {}, rows),
    );
  }

  pager() {
    const b = this.board;
    const span = pageSpan(b.offset, b.players.length, b.total);
    if (!span.previous && !span.next) return null;
    return h(
      "nav",
      { class: "lb-pages", "aria-label": t("lb_pages") },
      h(
        "button",
        { type: "button", id: "lb-prev", disabled: !span.previous, onclick: () => this.turn(-1) },
        t("lb_prev"),
      ),
      h("span", { class: "muted" }, t("lb_span", { from: span.from, to: span.to, total: b.total })),
      h("button", { type: "button", id: "lb-next", disabled: !span.next, onclick: () => this.turn(1) }, t("lb_next")),
    );
  }

  render() {
    if (this.gone) return;
    const page = h("section", { class: "leaderboard", id: "leaderboard" }, h("h1", {}, t("lb_heading")));
    page.append(this.chooser());
    if (this.unknown) page.append(h("p", { class: "notice error", role: "alert" }, t("lb_unknown_variant")));
    else if (this.error)
      page.append(h("p", { class: "notice error", role: "alert" }, t("error", { message: this.error })));
    else if (!this.board) page.append(h("p", {}, t("connecting")));
    else page.append(this.mine(), this.table(), this.pager() || "");
    page.append(h("p", { class: "muted small lb-note" }, t("lb_note")));
    // A page turned by the keyboard keeps its focus on the button that turned it, or on the other one where the
    // first page or the last is reached.
    const focused = document.activeElement && document.activeElement.id;
    this.el.replaceChildren(page);
    const other = { "lb-next": "lb-prev", "lb-prev": "lb-next" }[focused];
    const again = [focused, other].map((id) => id && document.getElementById(id)).find((b) => b && !b.disabled);
    if (again) again.focus();
  }
}
