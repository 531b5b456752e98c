// The page: header with language and card faces, and the routes
//   #/               new game (variant, options, opponent), your tables, tables to watch
//   #/join/CODE      accept a friend's invitation (the code stays in the fragment: no server ever sees it;
//                    an old link /?join=CODE is read once and rewritten to this)
//   #/table/ID       play at a table (with the seat token stored for it) — or watch without one
//   #/watch/ID       watch a table (never uses a seat token)
//   #/tgame/ID       play at a three- or four-player table (Bauernschnapsen, Dreierschnapsen)
//   #/tgame-watch/ID watch such a table
//   #/history        finished games
//   #/replay/ID      replay one game step by step
//
// Plain ES modules, no build step: the server serves this folder as it is.

import { api, prefs, seats } from "./api.js";
import { has, setLang, t } from "./i18n.js";
import { cardFace, h } from "./render.js";
import { ReplayPage } from "./replay.js";
import { TablePage } from "./table.js";
import { TableGamePage } from "./tablegame.js";

const ctx = {
  lang: prefs.lang,
  faces: prefs.faces,
};

// Front-end defaults that differ from the engine's: RULES.md, Going out — auto_declare is "default on in the web
// UI for beginners, off for bots and tournaments".
const UI_DEFAULTS = { auto_declare: true };

let page = null; // the current page object: { render(), destroy()?, onKey?(event) }
const root = () => document.getElementById("app");

// ------------------------------------------------------------------ header
function renderHeader() {
  document.title = t("title");
  const nav = document.getElementById("nav");
  nav.replaceChildren(
    h("a", { href: "#/", "data-i18n": "nav_new" }, t("nav_new")),
    h("a", { href: "#/history", "data-i18n": "nav_history" }, t("nav_history")),
  );
  const prefsBox = document.getElementById("prefs");
  const langSelect = h(
    "select",
    { id: "lang-select", onchange: (e) => setPref("lang", e.target.value) },
    h("option", { value: "de" }, "Deutsch"),
    h("option", { value: "en" }, "English"),
  );
  langSelect.value = ctx.lang;
  const facesSelect = h(
    "select",
    { id: "faces-select", onchange: (e) => setPref("faces", e.target.value) },
    h("option", { value: "german" }, t("faces_german")),
    h("option", { value: "french" }, t("faces_french")),
  );
  facesSelect.value = ctx.faces;
  prefsBox.replaceChildren(
    h("label", { for: "lang-select" }, t("language"), " "),
    langSelect,
    h("label", { for: "faces-select" }, t("faces"), " "),
    facesSelect,
  );
}

function setPref(name, value) {
  ctx[name] = value;
  prefs[name] = value;
  if (name === "lang") setLang(value);
  renderHeader();
  if (page) page.render();
}

// ------------------------------------------------------------------ lobby
/** An option's label: our own words where the page knows the option, else its name and the server's help. */
function optionLabel(opt) {
  if (has(`opt_${opt.name}`)) return t(`opt_${opt.name}`);
  return h("span", {}, opt.name.replaceAll("_", " "), opt.help ? h("small", { class: "help" }, ` – ${opt.help}`) : null);
}

/**
 * The fieldset of a variant's options (as the server describes them: bool or choice), or null if it has none.
 * `store` keeps the choices per "variant.option"; ids are `${prefix}-${option}`.
 */
function optionsFieldset(v, store, prefix) {
  if (!v.options || !v.options.length) return null;
  const box = h("fieldset", { class: "options" }, h("legend", {}, t("options")));
  for (const opt of v.options) {
    const k = `${v.name}.${opt.name}`;
    const current = store[k] ?? UI_DEFAULTS[opt.name] ?? opt.default;
    const id = `${prefix}-${opt.name}`;
    if (opt.type === "bool") {
      box.append(
        h(
          "label",
          { class: "choice", for: id, title: opt.help || "" },
          h("input", { type: "checkbox", id, name: opt.name, checked: Boolean(current), onchange: (e) => (store[k] = e.target.checked) }),
          " ",
          optionLabel(opt),
        ),
      );
    } else {
      const select = h("select", { id, name: opt.name, onchange: (e) => (store[k] = e.target.value) });
      for (const choice of opt.choices || []) {
        const key = `opt_${opt.name}.${choice}`;
        select.append(h("option", { value: choice }, has(key) ? t(key) : String(choice)));
      }
      select.value = current;
      box.append(h("label", { class: "choice", for: id, title: opt.help || "" }, optionLabel(opt), " ", select));
    }
  }
  return box;
}

/** The options chosen in `store` that differ from the variant's defaults (the request's `options`). */
function chosenOptions(v, store) {
  const options = {};
  for (const opt of (v && v.options) || []) {
    const value = store[`${v.name}.${opt.name}`] ?? UI_DEFAULTS[opt.name];
    if (value !== undefined && String(value) !== String(opt.default)) options[opt.name] = value;
  }
  return options;
}

class LobbyPage {
  constructor(el) {
    this.el = el;
    this.variants = null;
    this.bots = null;
    this.live = [];
    this.error = null;
    this.busy = false;
    this.form = { variant: "schnapsen", options: {}, opponent: null, name: prefs.name, seed: "", target: "" };
    // The table-game form: variant and, per other seat, a bot name or "friend".
    this.tableGames = null;
    this.tg = { variant: "bauernschnapsen", seats: {}, options: {} };
    this.liveTableGames = [];
    this.load();
    this.render();
  }

  async load() {
    try {
      const [variants, bots] = await Promise.all([api("GET", "/api/variants"), api("GET", "/api/bots")]);
      this.variants = variants.data;
      this.bots = bots.data;
      if (!this.form.opponent) this.form.opponent = this.bots.default;
    } catch (err) {
      this.error = err.message;
    }
    try {
      this.live = (await api("GET", "/api/tables")).data || [];
    } catch {
      this.live = [];
    }
    try {
      this.tableGames = (await api("GET", "/api/table-variants")).data;
      this.liveTableGames = (await api("GET", "/api/table-games")).data || [];
    } catch {
      this.tableGames = null;
    }
    this.render();
  }

  async startTableGame(event) {
    event.preventDefault();
    if (this.busy || !this.tableGames) return;
    const v = this.tableGames.variants.find((x) => x.name === this.tg.variant);
    const others = [];
    for (let seat = 1; seat < v.players; seat++) others.push(this.tg.seats[`${v.name}.${seat}`] || this.tableGames.default_bot);
    const body = { variant: v.name, options: chosenOptions(v, this.tg.options), seats: others, name: this.form.name || t("default_name") };
    if (this.form.seed !== "") body.seed = Number(this.form.seed);
    prefs.name = this.form.name;
    this.busy = true;
    this.error = null;
    this.render();
    try {
      const { data } = await api("POST", "/api/table-games", body);
      seats.save(data.table_id, { token: data.token, seat: 0, kind: "table_game", variant: v.name, invite_urls: data.invite_urls });
      location.hash = `#/tgame/${data.table_id}`;
    } catch (err) {
      this.busy = false;
      this.error = err.message;
      this.render();
    }
  }

  /** The table-game form: Bauernschnapsen or Dreierschnapsen, and who sits at the other seats. */
  renderTableGames() {
    const box = h("form", { class: "panel new-table-game", id: "table-game-form", onsubmit: (e) => this.startTableGame(e) }, h("h2", {}, t("tg_heading")));
    const data = this.tableGames;
    const variants = h("fieldset", { class: "variants" }, h("legend", {}, t("variant")));
    for (const v of data.variants) {
      const id = `tg-variant-${v.name}`;
      variants.append(
        h(
          "label",
          { class: "choice", for: id },
          h("input", { type: "radio", name: "tg-variant", id, value: v.name, checked: this.tg.variant === v.name, onchange: () => ((this.tg.variant = v.name), this.render()) }),
          " ",
          has(`tg_title_${v.name}`) ? t(`tg_title_${v.name}`) : v.title,
        ),
      );
    }
    box.append(variants);
    const v = data.variants.find((x) => x.name === this.tg.variant) || data.variants[0];
    const seatsBox = h("fieldset", { class: "options" }, h("legend", {}, t("tg_seats_heading")));
    for (let seat = 1; seat < v.players; seat++) {
      const k = `${v.name}.${seat}`;
      const select = h("select", { id: `tg-seat-${seat}`, onchange: (e) => (this.tg.seats[k] = e.target.value) });
      for (const b of data.bots) select.append(h("option", { value: b }, t("bot_option", { name: has(`bot_${b}`) ? t(`bot_${b}`) : b })));
      select.append(h("option", { value: "friend" }, t("tg_friend")));
      select.value = this.tg.seats[k] || data.default_bot;
      const partner = v.teams && seat === 2 ? ` ${t("tg_partner_note")}` : "";
      seatsBox.append(h("label", { class: "choice", for: `tg-seat-${seat}` }, `${t("tg_seat_label", { n: seat + 1 })}${partner} `, select));
    }
    box.append(seatsBox);
    // Many house rules: folded away (and kept open across re-renders once opened); the defaults apply unless changed.
    const optionsBox = optionsFieldset(v, this.tg.options, "tg-opt");
    if (optionsBox) box.append(h("details", { class: "house-rules", id: "tg-options", open: this.tg.rulesOpen, ontoggle: (e) => (this.tg.rulesOpen = e.target.open) }, h("summary", {}, t("tg_house_rules")), optionsBox));
    box.append(h("button", { type: "submit", class: "primary big", id: "tg-start", disabled: this.busy }, this.busy ? t("starting") : t("tg_start")));
    return box;
  }

  variant() {
    return (this.variants || []).find((v) => v.name === this.form.variant) || null;
  }

  title(name) {
    const v = (this.variants || []).find((x) => x.name === name);
    return v ? v.title : name || "";
  }

  async start(event) {
    event.preventDefault();
    if (this.busy) return;
    const v = this.variant();
    const options = chosenOptions(v, this.form.options);
    const body = {
      variant: this.form.variant,
      options,
      opponent: this.form.opponent,
      name: this.form.name || t("default_name"),
    };
    if (this.form.seed !== "") body.seed = Number(this.form.seed);
    if (this.form.target !== "" && v && v.match_kind === "marken") body.target = Number(this.form.target);
    prefs.name = this.form.name;
    this.busy = true;
    this.error = null;
    this.render();
    try {
      const { data } = await api("POST", "/api/tables", body);
      seats.save(data.table_id, {
        token: data.token,
        seat: data.seat,
        invite_url: data.invite_url || null,
        variant: this.form.variant,
        opponent: this.form.opponent,
      });
      location.hash = `#/table/${data.table_id}`;
    } catch (err) {
      this.busy = false;
      this.error = err.message;
      this.render();
    }
  }

  render() {
    const f = this.form;
    const section = h("section", { class: "lobby" });
    const form = h(
      "form",
      { class: "panel new-game", onsubmit: (e) => this.start(e) },
      h(
        "div",
        { class: "lobby-head" },
        h("h1", {}, t("lobby_heading")),
        // The four Aces in the chosen faces: what the cards will look like.
        h("div", { class: "faces-preview" }, ["Ah", "Ad", "Ac", "As"].map((c) => cardFace(c, { ...ctx, cls: "mini" }))),
      ),
    );
    if (this.error) form.append(h("p", { class: "notice error", role: "alert" }, t("error", { message: this.error })));
    if (!this.variants) {
      form.append(h("p", {}, t("connecting")));
      section.append(form);
      this.el.replaceChildren(section);
      return;
    }
    // Variant.
    const variantBox = h("fieldset", { class: "variants" }, h("legend", {}, t("variant")));
    for (const v of this.variants) {
      const id = `variant-${v.name}`;
      variantBox.append(
        h(
          "label",
          { class: "choice", for: id },
          h("input", {
            type: "radio",
            name: "variant",
            id,
            value: v.name,
            checked: f.variant === v.name,
            onchange: () => {
              f.variant = v.name;
              this.render();
            },
          }),
          " ",
          v.title,
        ),
      );
    }
    form.append(variantBox);
    // Options of the chosen variant, as the server describes them.
    const v = this.variant();
    const optionsBox = v ? optionsFieldset(v, f.options, "opt") : null;
    if (optionsBox) form.append(optionsBox);
    // Opponent.
    const opp = h("select", { id: "opponent", name: "opponent", onchange: (e) => (f.opponent = e.target.value) });
    for (const b of (this.bots && this.bots.bots) || []) {
      const label = has(`bot_${b.name}`) ? t(`bot_${b.name}`) : `${b.name} – ${b.description || ""}`;
      opp.append(h("option", { value: b.name, title: b.description || "" }, t("bot_option", { name: label })));
    }
    opp.append(h("option", { value: "friend" }, t("opponent_friend")));
    opp.value = f.opponent;
    form.append(h("div", { class: "field" }, h("label", { for: "opponent" }, t("opponent")), opp));
    form.append(
      h(
        "div",
        { class: "field" },
        h("label", { for: "player-name" }, t("your_name")),
        h("input", {
          id: "player-name",
          name: "name",
          maxlength: "40",
          value: f.name,
          placeholder: t("default_name"),
          oninput: (e) => (f.name = e.target.value),
        }),
      ),
    );
    if (v && v.match_kind === "marken") {
      form.append(
        h(
          "div",
          { class: "field" },
          h("label", { for: "target" }, t("target")),
          h("input", { id: "target", type: "number", min: "1", max: "99", value: f.target, placeholder: "7", oninput: (e) => (f.target = e.target.value) }),
        ),
      );
    }
    form.append(
      h(
        "details",
        { class: "field seed-field" },
        h("summary", {}, t("seed")),
        h("input", { id: "seed", type: "number", min: "0", value: f.seed, "aria-label": t("seed"), oninput: (e) => (f.seed = e.target.value) }),
      ),
    );
    form.append(h("button", { type: "submit", class: "primary big", id: "start", disabled: this.busy }, this.busy ? t("starting") : t("start")));
    section.append(form);
    if (this.tableGames) section.append(this.renderTableGames());

    // Tables this browser holds a seat at.
    const mine = Object.entries(seats.all()).sort((a, b) => (b[1].saved || 0) - (a[1].saved || 0));
    if (mine.length) {
      const list = h("ul", { class: "table-list" });
      for (const [id, s] of mine.slice(0, 10)) {
        list.append(
          h(
            "li",
            {},
            h("a", { href: s.kind === "table_game" ? `#/tgame/${id}` : `#/table/${id}` }, `${t("resume")}: ${this.title(s.variant)} ${s.opponent ? "· " + s.opponent : ""} (${id})`),
            " ",
            h(
              "button",
              {
                type: "button",
                class: "link",
                onclick: () => {
                  seats.forget(id);
                  this.render();
                },
              },
              t("forget"),
            ),
          ),
        );
      }
      section.append(h("section", { class: "panel" }, h("h2", {}, t("your_tables")), list));
    }
    // Tables to watch.
    const live = h("section", { class: "panel" }, h("h2", {}, t("live_tables")));
    if (!this.live.length) live.append(h("p", { class: "muted" }, t("no_live_tables")));
    else {
      const list = h("ul", { class: "table-list" });
      for (const table of this.live.slice(0, 20)) {
        const players = (table.players || []).map((p) => (typeof p === "string" ? p : p.name)).join(" – ");
        const variant = typeof table.variant === "string" ? table.variant : table.variant && (table.variant.title || table.variant.name);
        list.append(h("li", {}, h("a", { href: `#/watch/${table.table_id}` }, `${t("watch")}: ${this.title(variant)} · ${players}`)));
      }
      live.append(list);
    }
    if (this.liveTableGames.length) {
      const list = h("ul", { class: "table-list" });
      for (const table of this.liveTableGames.slice(0, 20)) {
        const players = (table.players || []).map((p) => p.name).join(" – ");
        list.append(h("li", {}, h("a", { href: `#/tgame-watch/${table.table_id}` }, `${t("watch")}: ${table.title} · ${players}`)));
      }
      live.append(list);
    }
    section.append(live);
    this.el.replaceChildren(section);
  }
}

// ------------------------------------------------------------------ join a friend's table
class JoinPage {
  constructor(el, code) {
    this.el = el;
    this.code = code;
    this.error = null;
    this.busy = false;
    this.render();
  }

  async join(event) {
    event.preventDefault();
    const name = this.el.querySelector("#join-name").value.trim() || t("default_name");
    prefs.name = name;
    this.busy = true;
    this.render();
    try {
      const { data } = await api("POST", "/api/join", { code: this.code, name });
      const tableGame = data.kind === "table_game";
      seats.save(data.table_id, { token: data.token, seat: data.seat, variant: "", opponent: "friend", kind: data.kind || "table" });
      // Leave the invitation's address so a reload goes to the table, not to the used invitation.
      history.replaceState(null, "", `${location.pathname}#/${tableGame ? "tgame" : "table"}/${data.table_id}`);
      route();
    } catch (err) {
      this.busy = false;
      this.error = t("join_failed", { message: err.message });
      this.render();
    }
  }

  render() {
    const form = h(
      "form",
      { class: "panel join", onsubmit: (e) => this.join(e) },
      h("h1", {}, t("join_heading")),
      h("p", {}, t("join_text")),
      this.error ? h("p", { class: "notice error", role: "alert" }, this.error) : null,
      h(
        "div",
        { class: "field" },
        h("label", { for: "join-name" }, t("your_name")),
        h("input", { id: "join-name", maxlength: "40", value: prefs.name, placeholder: t("default_name") }),
      ),
      h("button", { type: "submit", class: "primary big", id: "join-button", disabled: this.busy }, t("join")),
    );
    this.el.replaceChildren(h("section", { class: "lobby" }, form));
  }
}

// ------------------------------------------------------------------ history
class HistoryPage {
  constructor(el) {
    this.el = el;
    this.games = null;
    this.total = 0;
    this.error = null;
    this.titles = {};
    this.load(0);
    this.render();
  }

  async load(offset) {
    try {
      if (!offset) {
        // Variant titles ("Schnapsen (weich)") for the names the history stores.
        for (const v of (await api("GET", "/api/variants")).data || []) this.titles[v.name] = v.title;
      }
      const { data } = await api("GET", `/api/games?finished=true&limit=50&offset=${offset}`);
      this.games = (offset ? this.games || [] : []).concat(data.games || []);
      this.total = data.total || this.games.length;
    } catch (err) {
      this.error = err.message;
    }
    this.render();
  }

  name(players, seat, opponent = null) {
    const p = (players || [])[seat];
    if (!p) return t("seat_n", { n: seat + 1 });
    // The bot sits at seat 1; the history names it by its level.
    if (seat === 1 && opponent && opponent !== "friend") return t("computer_named", { bot: opponent });
    if (typeof p === "string") return p;
    if (p.kind === "bot") return t("computer_named", { bot: p.bot || p.name });
    return p.name || t("seat_n", { n: seat + 1 });
  }

  render() {
    const box = h("section", { class: "panel history" }, h("h1", {}, t("history_heading")));
    if (this.error) box.append(h("p", { class: "notice error" }, t("error", { message: this.error })));
    if (!this.games) box.append(h("p", {}, t("connecting")));
    else if (!this.games.length) box.append(h("p", { class: "muted" }, t("history_empty")));
    else {
      const rows = this.games.map((g) => {
        const r = g.result;
        let result = "";
        // A three- or four-player game (docs/web.md, "Table games") names its winners and its contract.
        const tableGame = Boolean(r && Array.isArray(r.winners));
        if (tableGame) {
          const who = r.winners.map((s) => (s === 0 ? g.players[0] : t("tg_seat", { n: s + 1 }))).join(" & ");
          result = r.reason === "redeal" ? t("tg_reason_redeal") : t("tg_result", { who, points: r.points, contract: r.contract });
        } else if (r) {
          result =
            r.winner === null || r.winner === undefined
              ? t("reason_stand")
              : `${this.name(g.players, r.winner, g.opponent)} +${r.points} (${(r.augen || []).join(":")})`;
        }
        const when = g.finished_at || g.started_at;
        const name = typeof g.variant === "string" ? g.variant : g.variant && (g.variant.title || g.variant.name);
        const variant = this.titles[name] || name;
        return h(
          "tr",
          {},
          h("td", {}, when ? new Date(when).toLocaleString(ctx.lang === "de" ? "de-AT" : "en-GB") : ""),
          h("td", {}, variant || ""),
          h("td", {}, g.match_no ? `${g.match_no}.${g.game_no}` : String(g.game_no ?? "")),
          h("td", {}, tableGame ? g.players[0] : `${this.name(g.players, 0, g.opponent)} – ${this.name(g.players, 1, g.opponent)}`),
          h("td", {}, result),
          h(
            "td",
            {},
            tableGame
              ? h("a", { href: `/api/games/${g.game_id}/record`, class: "record-link" }, t("tg_record"))
              : h("a", { href: `#/replay/${g.game_id}`, class: "replay-link" }, t("replay")),
          ),
        );
      });
      box.append(
        h(
          "div",
          { class: "scroll" },
          h(
            "table",
            { class: "games" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ["col_when", "col_variant", "col_game", "col_players", "col_result"].map((k) => h("th", { scope: "col" }, t(k))),
                h("th", {}),
              ),
            ),
            h("tbody", {}, rows),
          ),
        ),
      );
      if (this.games.length < this.total) {
        box.append(h("button", { type: "button", onclick: () => this.load(this.games.length) }, t("load_more")));
      }
    }
    this.el.replaceChildren(box);
  }
}

// ------------------------------------------------------------------ routing
function route() {
  if (page && page.destroy) page.destroy();
  page = null;
  const el = root();
  const oldJoin = new URLSearchParams(location.search).get("join");
  if (oldJoin) {
    // An invitation from before the code moved into the fragment: keep it out of the address bar, the history
    // and any later request's Referer.
    history.replaceState(null, "", `${location.pathname}#/join/${encodeURIComponent(oldJoin)}`);
  }
  const hash = location.hash.replace(/^#\/?/, "");
  const [what, id] = hash.split("/");
  if (what === "join" && id) page = new JoinPage(el, decodeURIComponent(id));
  else if (what === "table" && id) page = new TablePage(el, decodeURIComponent(id), { spectator: false, ctx });
  else if (what === "watch" && id) page = new TablePage(el, decodeURIComponent(id), { spectator: true, ctx });
  else if (what === "tgame" && id) page = new TableGamePage(el, decodeURIComponent(id), { spectator: false, ctx });
  else if (what === "tgame-watch" && id) page = new TableGamePage(el, decodeURIComponent(id), { spectator: true, ctx });
  else if (what === "history") page = new HistoryPage(el);
  else if (what === "replay" && id) page = new ReplayPage(el, decodeURIComponent(id), { ctx });
  else page = new LobbyPage(el);
  for (const a of document.querySelectorAll("#nav a")) {
    a.toggleAttribute("aria-current", a.getAttribute("href") === `#/${what || ""}`);
  }
}

document.addEventListener("keydown", (event) => {
  const target = event.target;
  const tag = target && target.tagName;
  // Typing in a form field is typing, not playing.
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (page && page.onKey && page.onKey(event)) event.preventDefault();
});

window.addEventListener("hashchange", route);
setLang(ctx.lang);
renderHeader();
route();
