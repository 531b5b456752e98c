// The player of this browser (a device key, no password) and the page `#/me`: statistics and devices.
//
//   import { claimSeat, ProfilePage } from "./profile.js";
//   claimSeat(tableId);                  // record this browser's seat at a table for its player (once per table)
//   new ProfilePage(el, { ctx });        // #/me
//
// The key is made by the server (POST /api/players) and kept in localStorage (`bummerl.player`); the server keeps
// only its hash. A code from another device (POST /api/players/transfer) gives this browser a key of that player.
// Every number on the page is the server's (GET /api/players/me/stats): the page counts nothing. Beside the
// ratings against each bot it shows the rating against people in each variant (`people`), with its leaderboard.

import { ApiError, api, prefs, seats } from "./api.js";
import { formatNumber, locale, t } from "./i18n.js";
import { leaderboardHref, ratingText } from "./leaderboard.js";
import { botName, h, variantList, variantTitle } from "./render.js";

const KEY = "bummerl.player";

/** This browser's player: `{ id, key }` or null. */
export function storedPlayer() {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) || "null");
    return value && typeof value.key === "string" && typeof value.id === "string" ? value : null;
  } catch {
    return null;
  }
}

function keepPlayer(player) {
  try {
    if (player) localStorage.setItem(KEY, JSON.stringify(player));
    else localStorage.removeItem(KEY);
  } catch {
    // A private window may refuse storage: the player lasts for this visit.
  }
}

const auth = (player) => ({ Authorization: `Bearer ${player.key}` });

/** The player of this browser, made on the server first if there is none yet (`name`: the lobby's name). */
export async function ensurePlayer() {
  const found = storedPlayer();
  if (found) return found;
  const body = prefs.name ? { name: prefs.name } : {};
  const { data } = await api("POST", "/api/players", body);
  const player = { id: data.player_id, key: data.key };
  keepPlayer(player);
  return player;
}

/**
 * Record the seat this browser holds at `tableId` (its stored token) for this browser's player, once: the seat's
 * entry in `bummerl.seats` remembers that it was. A key the server no longer knows is made anew. A seat that
 * another device recorded first (the seat's link opened on a second device), or a second seat of this player at
 * the table, is recorded for nobody new: the server answers `claimed: false` with its `reason` (no error).
 */
export async function claimSeat(tableId) {
  const saved = seats.get(tableId);
  if (!saved || !saved.token || saved.player) return;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const player = await ensurePlayer();
      const { data } = await api(
        "POST",
        "/api/players/me/seats",
        { table_id: tableId, token: saved.token },
        auth(player),
      );
      const held = data.claimed || data.reason === "already";
      // "-": held by another player, or this player sits elsewhere at the table: nothing to try again.
      seats.save(tableId, { ...seats.get(tableId), player: held ? player.id : "-" });
      return;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        keepPlayer(null); // the server forgot this key (another server, a new database): start again
        continue;
      }
      if (err instanceof ApiError && err.status === 403) {
        // The token holds no seat: nothing to record, and nothing to try again.
        seats.save(tableId, { ...seats.get(tableId), player: "-" });
      }
      return;
    }
  }
}

/** A seconds count as "9:41". */
function clock(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A form of one text field: `form`'s attributes, the field's label, the input's attributes (its `id` names
 *  it to the label) and the submit button. */
function oneFieldForm(form, label, input, button) {
  return h("form", form, h("label", { for: input.id }, label), " ", h("input", input), " ", button);
}

export class ProfilePage {
  constructor(el, { ctx }) {
    this.el = el;
    this.ctx = ctx;
    this.me = null;
    this.stats = null;
    this.variants = [];
    this.error = null;
    this.notice = null;
    this.transfer = null; // { code, until }
    this.timer = null;
    this.codeInput = "";
    this.nameInput = null;
    this.load();
    this.render();
  }

  destroy() {
    clearInterval(this.timer);
  }

  async load() {
    this.error = null;
    const player = storedPlayer();
    try {
      this.variants = await variantList();
      if (player) {
        const { data } = await api("GET", "/api/players/me/stats", undefined, auth(player));
        this.stats = data;
        this.me = data;
      } else {
        this.stats = null;
        this.me = null;
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        keepPlayer(null);
        this.me = null;
        this.stats = null;
      } else {
        this.error = err.message;
      }
    }
    this.loaded = true;
    this.render();
  }

  opponentName(row) {
    if (row.opponent === "friend") return t("pf_friend");
    if (row.opponent === "mixed") return t("pf_mixed");
    const v = this.variants.find((x) => x.name === row.variant);
    return botName({ bot: row.opponent, titles: v && v.bot_titles ? v.bot_titles[row.opponent] : null });
  }

  ratingText(r) {
    if (!r) return "–";
    const sign = (x) => formatNumber(x, { maximumFractionDigits: 0, signDisplay: "exceptZero" });
    return `${sign(r.elo)} (${sign(r.low)} … ${sign(r.high)})`;
  }

  async makeCode() {
    const player = storedPlayer();
    if (!player) return;
    try {
      const { data } = await api("POST", "/api/players/me/transfer", undefined, auth(player));
      this.transfer = { code: data.code, until: Date.now() + data.expires_in * 1000 };
      clearInterval(this.timer);
      this.timer = setInterval(() => {
        if (this.transfer && Date.now() >= this.transfer.until) {
          this.transfer = null;
          clearInterval(this.timer);
          this.render();
          return;
        }
        // Only the time left changes: the rest of the page (and a field being typed in) stays as it is.
        const left = this.el.querySelector("#transfer-code .left");
        if (left && this.transfer)
          left.textContent = t("pf_transfer_left", { time: clock((this.transfer.until - Date.now()) / 1000) });
      }, 1000);
    } catch (err) {
      this.error = err.message;
    }
    this.render();
  }

  async useCode(event) {
    event.preventDefault();
    try {
      const { data } = await api("POST", "/api/players/transfer", { code: this.codeInput });
      keepPlayer({ id: data.player_id, key: data.key });
      this.codeInput = "";
      this.notice = t("pf_transfer_done", { name: data.name || t("pf_no_name") });
      await this.load();
    } catch (err) {
      this.error = err.message;
      this.render();
    }
  }

  async saveName(event) {
    event.preventDefault();
    const player = storedPlayer();
    if (!player || this.nameInput === null) return;
    try {
      await api("PATCH", "/api/players/me", { name: this.nameInput || null }, auth(player));
      this.nameInput = null;
      await this.load();
    } catch (err) {
      this.error = err.message;
      this.render();
    }
  }

  async forget() {
    const player = storedPlayer();
    if (!player) return;
    try {
      await api("DELETE", "/api/players/me/key", undefined, auth(player));
    } catch {
      // Forgotten here either way.
    }
    keepPlayer(null);
    this.notice = t("pf_forgotten");
    await this.load();
  }

  statsBlock() {
    const s = this.stats;
    const box = h("section", { class: "panel profile-stats", id: "profile-stats" }, h("h2", {}, t("pf_stats")));
    if (!s.games) {
      box.append(h("p", { class: "muted" }, t("pf_empty_stats")));
      return box;
    }
    box.append(
      h(
        "p",
        { class: "profile-summary", id: "profile-summary" },
        t("pf_summary", { games: s.games, won: s.won, lost: s.lost }),
        s.drawn ? ` ${t("pf_drawn_n", { n: s.drawn })}` : "",
      ),
      h(
        "p",
        { class: "profile-bummerl", id: "profile-bummerl" },
        t("pf_bummerl", { won: s.bummerl_won, lost: s.bummerl_lost }),
      ),
      h(
        "p",
        { class: "profile-runs", id: "profile-runs" },
        t("pf_runs", { longest: s.longest_run, current: s.current_run }),
      ),
    );
    const head = h(
      "tr",
      {},
      [
        "pf_col_variant",
        "pf_col_opponent",
        "pf_col_games",
        "pf_col_won",
        "pf_col_lost",
        "pf_col_bummerl",
        "pf_col_rating",
      ].map((k) => h("th", { scope: "col" }, t(k))),
    );
    // Each cell names its column (`data-label`): on a phone a row is a block of labelled lines (sheet.css).
    const cell = (cls, key, text) => h("td", { class: cls, dataset: { label: t(key) } }, text);
    const rows = s.rows.map((r) =>
      h(
        "tr",
        { dataset: { variant: r.variant, opponent: r.opponent } },
        cell("variant", "pf_col_variant", variantTitle(r.variant, this.variants)),
        cell("opponent", "pf_col_opponent", this.opponentName(r)),
        cell("num games", "pf_col_games", String(r.games)),
        cell("num won", "pf_col_won", String(r.won)),
        cell("num lost", "pf_col_lost", String(r.lost)),
        cell("num bummerl", "pf_col_bummerl", `${r.bummerl_won} / ${r.bummerl_lost}`),
        cell("num rating", "pf_col_rating", this.ratingText(r.rating)),
      ),
    );
    box.append(
      h(
        "div",
        { class: "scroll" },
        h("table", { class: "games profile-table" }, h("thead", {}, head), h("tbody", {}, rows)),
      ),
    );
    box.append(h("p", { class: "muted small" }, t("pf_rating_note")));
    if (s.more) box.append(h("p", { class: "muted small" }, t("pf_more", { n: s.games })));
    if (s.recent && s.recent.length) {
      const list = h("ol", { class: "profile-recent" });
      for (const g of s.recent) {
        const when = g.finished_at ? new Date(g.finished_at).toLocaleString(locale()) : "";
        list.append(
          h(
            "li",
            { class: `outcome-${g.outcome}` },
            `${when} · ${variantTitle(g.variant, this.variants)} · ${this.opponentName({ variant: g.variant, opponent: g.opponent })} · ${t(`pf_${g.outcome}`)} `,
            h("a", { href: `#/replay/${g.game_id}` }, t("replay")),
          ),
        );
      }
      box.append(h("h3", {}, t("pf_recent")), list);
    }
    return box;
  }

  /** The rating against people in each variant played at rated tables, each with its leaderboard's link. */
  peopleBlock() {
    const people = (this.stats && this.stats.people) || [];
    const box = h("section", { class: "panel profile-people", id: "profile-people" }, h("h2", {}, t("pf_people")));
    if (!people.length) {
      box.append(h("p", { class: "muted" }, t("pf_people_none")));
      return box;
    }
    const list = h("ul", {});
    for (const r of people) {
      const place =
        r.rank === null || r.rank === undefined
          ? t("pf_people_provisional", { games: r.games, min: r.min_games })
          : t("pf_people_rank", { rank: r.rank });
      list.append(
        h(
          "li",
          { dataset: { variant: r.variant } },
          h("span", { class: "variant" }, variantTitle(r.variant, this.variants)),
          h("span", { class: "people-rating" }, ratingText(r.rating)),
          h("span", { class: "muted" }, `${t("pf_people_games", { games: r.games, won: r.won })} · ${place}`),
          h("a", { href: leaderboardHref(r.variant) }, t("nav_leaderboard")),
        ),
      );
    }
    box.append(list, h("p", { class: "muted small" }, t("pf_people_note")));
    return box;
  }

  devicesBlock() {
    const box = h("section", { class: "panel profile-devices", id: "profile-devices" }, h("h2", {}, t("pf_devices")));
    const player = storedPlayer();
    if (player && this.me) {
      box.append(h("p", {}, t("pf_devices_n", { n: this.me.devices })));
      if (this.transfer) {
        const left = (this.transfer.until - Date.now()) / 1000;
        box.append(
          h(
            "p",
            { class: "transfer-code", id: "transfer-code" },
            t("pf_transfer_show"),
            " ",
            h("strong", { class: "code" }, this.transfer.code),
            " ",
            h("span", { class: "muted left" }, t("pf_transfer_left", { time: clock(left) })),
          ),
        );
      } else {
        box.append(
          h("button", { type: "button", id: "make-code", onclick: () => this.makeCode() }, t("pf_transfer_make")),
        );
      }
    }
    const form = oneFieldForm(
      { class: "transfer-form", onsubmit: (e) => this.useCode(e) },
      t("pf_transfer_enter"),
      {
        id: "transfer-input",
        maxlength: "20",
        autocomplete: "off",
        autocapitalize: "characters",
        spellcheck: "false",
        placeholder: "XXXXX-XXXXX",
        value: this.codeInput,
        oninput: (e) => (this.codeInput = e.target.value),
      },
      h("button", { type: "submit", id: "use-code" }, t("pf_transfer_go")),
    );
    box.append(form);
    if (player) {
      box.append(h("p", { class: "muted small" }, t("pf_transfer_note")));
      box.append(
        h(
          "button",
          { type: "button", class: "link", id: "forget-device", onclick: () => this.forget() },
          t("pf_forget"),
        ),
      );
    }
    return box;
  }

  render() {
    const page = h("section", { class: "profile", id: "profile" });
    const title = this.me && this.me.name ? t("pf_heading_named", { name: this.me.name }) : t("pf_heading");
    page.append(h("h1", {}, title));
    if (this.error) page.append(h("p", { class: "notice error", role: "alert" }, t("error", { message: this.error })));
    if (this.notice) page.append(h("p", { class: "notice", role: "status" }, this.notice));
    if (!this.loaded) page.append(h("p", {}, t("connecting")));
    else if (!this.me) page.append(h("p", { class: "panel", id: "profile-none" }, t("pf_none")));
    else {
      const name = this.nameInput ?? this.me.name ?? "";
      page.append(
        oneFieldForm(
          { class: "panel profile-name", onsubmit: (e) => this.saveName(e) },
          t("your_name"),
          { id: "profile-name-input", maxlength: "40", value: name, oninput: (e) => (this.nameInput = e.target.value) },
          h("button", { type: "submit" }, t("pf_save")),
        ),
      );
      page.append(this.statsBlock(), this.peopleBlock());
    }
    if (this.loaded) page.append(this.devicesBlock());
    const focused = document.activeElement && document.activeElement.id;
    this.el.replaceChildren(page);
    if (focused) {
      const again = document.getElementById(focused);
      if (again) again.focus();
    }
  }
}
