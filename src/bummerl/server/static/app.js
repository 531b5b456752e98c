// The page: header with language and card faces, and the routes
//   #/               a new table of any variant (variant, who sits at the other seats, options), your tables,
//                    the tables in play
//   #/join/CODE      accept a friend's invitation (the code stays in the fragment: no server ever sees it;
//                    an old link /?join=CODE is read once and rewritten to this)
//   #/table/ID       play at a table of any variant (with the seat token stored for it) — or watch without one;
//                    one page for all six variants (table.js), its parts chosen by the variant's traits
//   #/watch/ID       watch a table (never uses a seat token)
//   #/tgame/ID, #/tgame-watch/ID   old addresses of three- and four-player tables: rewritten to the two above
//   #/history        finished games of every variant
//   #/me             this browser's player: statistics, a code for another device (profile.js)
//   #/leaderboard/VARIANT   the variant's leaderboard of rated games between people (leaderboard.js)
//   #/rules/VARIANT  the rules of a variant, with a table's house rules as `?option=value&table=ID` (rules.js)
//   #/replay/ID      replay one game step by step
//   #/tournaments/…  tournaments: make one, join one by its link, follow one (tournament.js)
//
// Plain ES modules, no build step: the server serves this folder as it is.

import { api, pageRequest, prefs, seats } from "./api.js";
import { has, locale, setLang, t } from "./i18n.js";
import { InvitationPage } from "./invitation.js";
import { LeaderboardPage } from "./leaderboard.js";
import { ProfilePage, storedPlayer } from "./profile.js";
import { motionControls } from "./motion.js";
import { botName, cardFace, h, variantTitle } from "./render.js";
import { ReplayPage } from "./replay.js";
import { RulesPage, rulesHref, rulesLink } from "./rules.js";
import { QuickMatchPanel } from "./quickmatch.js";
import { participantsField, seatCount } from "./round.js";
import { TablePage } from "./table.js";
import { TournamentRoute } from "./tournament.js";

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
    h("a", { href: "#/tournaments", "data-i18n": "nav_tournaments" }, t("nav_tournaments")),
    h("a", { href: "#/history", "data-i18n": "nav_history" }, t("nav_history")),
    h("a", { href: "#/leaderboard", "data-i18n": "nav_leaderboard" }, t("nav_leaderboard")),
    h("a", { href: "#/me", "data-i18n": "nav_me" }, t("nav_me")),
    h("a", { href: "#/rules", "data-i18n": "nav_rules" }, t("nav_rules")),
  );
  const prefsBox = document.getElementById("prefs");
  const langSelect = h(
    "select",
    // Named also where the header hides its labels (a phone): aria-label, the label's words.
    { id: "lang-select", "aria-label": t("language"), onchange: (e) => setPref("lang", e.target.value) },
    h("option", { value: "de" }, "Deutsch"),
    h("option", { value: "en" }, "English"),
  );
  langSelect.value = ctx.lang;
  const facesSelect = h(
    "select",
    { id: "faces-select", "aria-label": t("faces"), onchange: (e) => setPref("faces", e.target.value) },
    h("option", { value: "german" }, t("faces_german")),
    h("option", { value: "french" }, t("faces_french")),
  );
  facesSelect.value = ctx.faces;
  prefsBox.replaceChildren(
    h("label", { for: "lang-select" }, t("language"), " "),
    langSelect,
    h("label", { for: "faces-select" }, t("faces"), " "),
    facesSelect,
    themeToggle(),
    // Animations and sounds (motion.js): switched here, remembered in the browser.
    ...motionControls(() => {
      renderHeader();
      if (page) page.render();
    }),
  );
}

// The colour theme: theme.js (loaded in the <head>) holds the choice and applies it; the header's button shows the
// choice and asks for the next one: as the system, light, dark, and round again.
const THEMES = ["system", "light", "dark"];
const THEME_ICONS = {
  system:
    '<svg class="pref-icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="8" fill="none" stroke="currentColor" stroke-width="2"/><path d="M12 4a8 8 0 0 1 0 16z" fill="currentColor"/></svg>',
  light:
    '<svg class="pref-icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="4.5" fill="currentColor"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>',
  dark: '<svg class="pref-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M20 14.5A8.5 8.5 0 1 1 9.5 4a7 7 0 0 0 10.5 10.5z" fill="currentColor"/></svg>',
};

function themeToggle() {
  const current = THEMES.includes(document.documentElement.dataset.theme)
    ? document.documentElement.dataset.theme
    : "system";
  const next = THEMES[(THEMES.indexOf(current) + 1) % THEMES.length];
  const label = t("theme_now", { theme: t(`theme_${current}`) });
  return h(
    "button",
    {
      type: "button",
      id: "theme-toggle",
      class: "pref-toggle",
      "aria-label": label,
      title: t("theme_next", { theme: t(`theme_${next}`) }),
      "data-choice": current,
      onclick: () => {
        document.dispatchEvent(new CustomEvent("bummerl:theme", { detail: next }));
        renderHeader();
        document.getElementById("theme-toggle").focus();
      },
    },
    h("span", { html: THEME_ICONS[current] }),
    h("span", { class: "pref-label", "aria-hidden": "true" }, label),
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
  return h(
    "span",
    {},
    opt.name.replaceAll("_", " "),
    opt.help ? h("small", { class: "help" }, ` – ${opt.help}`) : null,
  );
}

/**
 * The fieldset of a variant's options (as the server describes them: bool or choice), or null if it has none.
 * `store` keeps the choices per "variant.option"; ids are `${prefix}-${option}`.
 */
function optionsFieldset(v, store, prefix) {
  if (!v.options || !v.options.length) return null;
  const box = h("fieldset", { class: "options", "aria-label": t("options") });
  for (const opt of v.options) {
    const k = `${v.name}.${opt.name}`;
    const current = store[k] ?? UI_DEFAULTS[opt.name] ?? opt.default;
    const id = `${prefix}-${opt.name}`;
    if (opt.type === "bool") {
      box.append(
        h(
          "label",
          { class: "choice", for: id, title: opt.help || "" },
          h("input", {
            type: "checkbox",
            id,
            name: opt.name,
            checked: Boolean(current),
            onchange: (e) => (store[k] = e.target.checked),
          }),
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

/** The lobby's choices of a new table's time per move, in seconds (0: no clock, the default). */
const MOVE_SECONDS = [0, 15, 30, 60, 120];

/** A listed table's state in words: "läuft · 30 s pro Zug · eigene Regeln". */
function tableFacts(table) {
  const facts = [t(`table_status_${table.status}`)];
  if (table.move_seconds) facts.push(t("table_clock", { seconds: table.move_seconds }));
  if (table.options && Object.keys(table.options).length) facts.push(t("table_house_rules"));
  if (table.practice) facts.push(t("table_practice"));
  return ` ${facts.join(" · ")}`;
}

class LobbyPage {
  constructor(el) {
    this.el = el;
    this.variants = null; // every variant, two to four players (GET /api/variants)
    this.bots = null; // descriptions of the bots (GET /api/bots)
    this.live = [];
    this.error = null;
    this.busy = false;
    // One form for every variant: the seats (per "variant.seat": a bot's name or "friend") and the options
    // (per "variant.option") are kept per variant, so switching back and forth loses no choice.
    this.form = {
      variant: "schnapsen",
      options: {},
      seats: {},
      name: prefs.name,
      seed: "",
      target: "",
      moveSeconds: "",
      rulesOpen: {},
    };
    // Quick match (quickmatch.js): people who want the same game now; it draws into its own element.
    this.quick = new QuickMatchPanel({ title: (name) => this.title(name) });
    this.load();
    this.render();
  }

  async load() {
    try {
      const [variants, bots] = await Promise.all([api("GET", "/api/variants"), api("GET", "/api/bots")]);
      this.variants = variants.data;
      this.bots = bots.data;
      this.quick.refresh(); // the variants' titles
    } catch (err) {
      this.error = err.message;
    }
    try {
      this.live = (await api("GET", "/api/tables")).data || [];
    } catch {
      this.live = [];
    }
    this.render();
  }

  variant() {
    const all = this.variants || [];
    return all.find((v) => v.name === this.form.variant) || all[0] || null;
  }

  title(name) {
    return variantTitle(name, this.variants);
  }

  /** Who sits at seat `seat` (1 ..) of variant `v`: the form's choice, else the variant's default bot. */
  seatChoice(v, seat) {
    return this.form.seats[`${v.name}.${seat}`] || v.default_bot;
  }

  /** A bot of variant `v` as the server names it: "Computer (Stark)", the same as at the table and in the history. */
  botLabel(v, name) {
    return botName({ bot: name, titles: (v.bot_titles || {})[name] });
  }

  /** What the server says a bot does (its English description), for the option's tooltip. */
  botHelp(name) {
    const b = ((this.bots && this.bots.bots) || []).find((x) => x.name === name);
    return b ? b.description : null;
  }

  async start(event) {
    event.preventDefault();
    if (this.busy) return;
    const v = this.variant();
    if (!v) return;
    const others = [];
    for (let seat = 1; seat < seatCount(v, this.form); seat++) others.push(this.seatChoice(v, seat));
    const body = {
      variant: v.name,
      options: chosenOptions(v, this.form.options),
      seats: others,
      name: this.form.name || t("default_name"),
    };
    if (this.form.seed !== "") body.seed = Number(this.form.seed);
    if (this.form.target !== "" && v.match_kind === "marken") body.target = Number(this.form.target);
    if (this.form.moveSeconds !== "") body.move_seconds = Number(this.form.moveSeconds);
    prefs.name = this.form.name;
    const data = await pageRequest(this, "POST", "/api/tables", body);
    if (!data) return;
    seats.save(data.table_id, {
      token: data.token,
      seat: data.seat,
      kind: data.kind,
      variant: v.name,
      invite_url: data.invite_url || null,
      invite_urls: data.invite_urls || {},
      opponent: others.length === 1 ? others[0] : null,
    });
    location.hash = `#/table/${data.table_id}`;
  }

  /** The variant radios: all six, the player count in the title where the server's title has none. */
  renderVariants() {
    const box = h("fieldset", { class: "variants" }, h("legend", {}, t("variant")));
    for (const v of this.variants) {
      const id = `variant-${v.name}`;
      box.append(
        h(
          "label",
          { class: "choice", for: id },
          h("input", {
            type: "radio",
            name: "variant",
            id,
            value: v.name,
            checked: this.variant() === v,
            onchange: () => {
              this.form.variant = v.name;
              this.render();
            },
          }),
          " ",
          this.title(v.name),
        ),
      );
    }
    return box;
  }

  /** Who sits at the other seats: one choice per seat (a bot of this variant or an invited friend). */
  renderSeats(v) {
    const two = seatCount(v, this.form) === 2;
    const box = h("fieldset", { class: "options seats" }, h("legend", {}, two ? t("opponent") : t("seats_heading")));
    for (let seat = 1; seat < seatCount(v, this.form); seat++) {
      const id = `seat-${seat}`;
      const select = h("select", {
        id,
        name: id,
        onchange: (e) => (this.form.seats[`${v.name}.${seat}`] = e.target.value),
      });
      for (const b of v.bots) select.append(h("option", { value: b, title: this.botHelp(b) }, this.botLabel(v, b)));
      select.append(h("option", { value: "friend" }, t("opponent_friend")));
      select.value = this.seatChoice(v, seat);
      const partner = v.teams && seat === 2 ? ` ${t("seat_partner_note")}` : "";
      // The one opponent of a two-player game is asked for as such, not as "Platz 2".
      const label = two ? t("opponent_seat") : `${t("seat_label", { n: seat + 1 })}${partner}`;
      box.append(h("label", { class: "choice", for: id }, `${label} `, select));
    }
    return box;
  }

  /** The variant's options as the server describes them; many house rules are folded away until opened. */
  renderOptions(v) {
    const fields = optionsFieldset(v, this.form.options, "opt");
    if (!fields) return null;
    const many = v.options.length > 4;
    const open = this.form.rulesOpen[v.name] ?? !many;
    return h(
      "details",
      { class: "house-rules", id: "options", open, ontoggle: (e) => (this.form.rulesOpen[v.name] = e.target.open) },
      h("summary", {}, many ? t("house_rules") : t("options")),
      fields,
    );
  }

  /** Left for another page: an answer still on its way must not draw the lobby over that page. */
  destroy() {
    this.gone = true;
    this.quick.destroy();
  }

  render() {
    if (this.gone) return;
    const f = this.form;
    const section = h("section", { class: "lobby" }, this.quick.render());
    const form = h(
      "form",
      { class: "panel new-game", id: "new-table-form", onsubmit: (e) => this.start(e) },
      h(
        "div",
        { class: "lobby-head" },
        h("h1", {}, t("lobby_heading")),
        // The four Aces in the chosen faces: what the cards will look like.
        h(
          "div",
          { class: "faces-preview" },
          ["Ah", "Ad", "Ac", "As"].map((c) => cardFace(c, { ...ctx, cls: "mini" })),
        ),
      ),
    );
    if (this.error) form.append(h("p", { class: "notice error", role: "alert" }, t("error", { message: this.error })));
    const v = this.variant();
    if (!v) {
      form.append(h("p", {}, t("connecting")));
      section.append(form);
      this.el.replaceChildren(section);
      return;
    }
    form.append(this.renderVariants());
    // The rules of the chosen variant with the options chosen when the link is followed (rules.js).
    const rules = rulesLink(v.name, { id: "lobby-rules", text: t("rules_of", { variant: this.title(v.name) }) });
    rules.addEventListener(
      "click",
      () => (rules.href = rulesHref(v.name, { options: chosenOptions(v, this.form.options) })),
    );
    form.append(h("p", { class: "lobby-rules" }, rules));
    // Schnorps for three or four (round.js): how many take part, then their seats.
    const participants = participantsField(v, this.form, () => this.render());
    if (participants) form.append(participants);
    form.append(this.renderSeats(v));
    const options = this.renderOptions(v);
    if (options) form.append(options);
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
    // The table's clock (docs/web.md, "Clocks"): the server moves for a seat whose time per move runs out.
    const clock = h("select", {
      id: "move-seconds",
      name: "move_seconds",
      onchange: (e) => (f.moveSeconds = e.target.value),
    });
    for (const seconds of MOVE_SECONDS) {
      const label = seconds ? t("table_clock", { seconds }) : t("move_seconds_none");
      clock.append(h("option", { value: seconds ? String(seconds) : "" }, label));
    }
    clock.value = f.moveSeconds;
    form.append(h("div", { class: "field" }, h("label", { for: "move-seconds" }, t("move_seconds")), clock));
    if (v.match_kind === "marken") {
      form.append(
        h(
          "div",
          { class: "field" },
          h("label", { for: "target" }, t("target")),
          h("input", {
            id: "target",
            type: "number",
            min: "1",
            max: "99",
            value: f.target,
            placeholder: String(v.target),
            oninput: (e) => (f.target = e.target.value),
          }),
        ),
      );
    }
    form.append(
      h(
        "details",
        { class: "field seed-field" },
        h("summary", {}, t("seed")),
        h("input", {
          id: "seed",
          type: "number",
          min: "0",
          value: f.seed,
          "aria-label": t("seed"),
          oninput: (e) => (f.seed = e.target.value),
        }),
      ),
    );
    form.append(
      h(
        "button",
        { type: "submit", class: "primary big", id: "start", disabled: this.busy },
        this.busy ? t("starting") : t("start"),
      ),
    );
    section.append(form);

    // Tables this browser holds a seat at.
    const mine = Object.entries(seats.all()).sort((a, b) => (b[1].saved || 0) - (a[1].saved || 0));
    if (mine.length) {
      const list = h("ul", { class: "table-list" });
      for (const [id, s] of mine.slice(0, 10)) {
        list.append(
          h(
            "li",
            {},
            h(
              "a",
              { href: `#/table/${id}` },
              `${t("resume")}: ${this.title(s.variant)} ${s.opponent ? "· " + s.opponent : ""} (${id})`,
            ),
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
    // Tables to watch: every variant in one list.
    const live = h("section", { class: "panel", id: "live-tables" }, h("h2", {}, t("live_tables")));
    if (!this.live.length) live.append(h("p", { class: "muted" }, t("no_live_tables")));
    else {
      const list = h("ul", { class: "table-list" });
      for (const table of this.live.slice(0, 20)) {
        // A bot by its one name ("Computer (Stark)"), as at the table: the server gives its titles per seat.
        const titles = table.titles || [];
        const players = (table.players || [])
          .map((p, i) =>
            titles[i] ? botName({ bot: p, titles: titles[i] }) : (typeof p === "string" ? p : p.name) || "…",
          )
          .join(" – ");
        list.append(
          h(
            "li",
            {},
            h(
              "a",
              { href: `#/watch/${table.table_id}`, dataset: { kind: table.kind } },
              `${t("watch")}: ${this.title(table.variant)} · ${players}`,
            ),
            // What a stranger asks before watching: is it still on, with a clock, with house rules?
            h("small", { class: "muted table-facts" }, tableFacts(table)),
          ),
        );
      }
      live.append(list);
    }
    section.append(live);
    this.el.replaceChildren(section);
  }
}

// ------------------------------------------------------------------ join a friend's table
function joinPage(el, code) {
  return new InvitationPage(el, {
    prefix: "join",
    section: "lobby",
    form: "panel join",
    key: "join",
    submit: async (name) => {
      const { data } = await api("POST", "/api/join", { code, name });
      seats.save(data.table_id, {
        token: data.token,
        seat: data.seat,
        variant: "",
        opponent: "friend",
        kind: data.kind,
      });
      // Leave the invitation's address so a reload goes to the table, not to the used invitation.
      history.replaceState(null, "", `${location.pathname}#/table/${data.table_id}`);
      route();
    },
  });
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
        const variants = (await api("GET", "/api/variants")).data || [];
        for (const v of variants) this.titles[v.name] = variantTitle(v.name, variants);
      }
      const { data } = await api("GET", `/api/games?finished=true&limit=50&offset=${offset}`);
      this.games = (offset ? this.games || [] : []).concat(data.games || []);
      this.total = data.total || this.games.length;
    } catch (err) {
      this.error = err.message;
    }
    this.render();
  }

  /** Who sat at `seat` of game `g`: a bot by its level, a player by name. */
  name(g, seat) {
    const s = (g.seats || [])[seat];
    if (s && s.kind === "bot") return botName(s);
    const p = (g.players || [])[seat];
    const name = typeof p === "string" ? p : p && p.name;
    return name || t("seat_n", { n: seat + 1 });
  }

  contract(name) {
    return has(`tg_contract_${name}`) ? t(`tg_contract_${name}`) : name;
  }

  /** A finished game's result: the winner and points; a table game's winners, points and contract. */
  resultText(g) {
    const r = g.result;
    if (!r) return "";
    if (Array.isArray(r.winners)) {
      if (r.reason === "redeal") return t("tg_reason_redeal");
      const who = r.winners.map((s) => this.name(g, s)).join(" & ");
      return t("tg_result", { who, points: r.points, contract: this.contract(r.contract) });
    }
    if (r.winner === null || r.winner === undefined) return t("reason_stand");
    return `${this.name(g, r.winner)} +${r.points} (${(r.augen || []).join(":")})`;
  }

  /** Left for another page: an answer still on its way must not draw the history over that page. */
  destroy() {
    this.gone = true;
  }

  render() {
    if (this.gone) return;
    const box = h("section", { class: "panel history" }, h("h1", {}, t("history_heading")));
    if (this.error) box.append(h("p", { class: "notice error" }, t("error", { message: this.error })));
    if (!this.games) box.append(h("p", {}, t("connecting")));
    else if (!this.games.length) box.append(h("p", { class: "muted" }, t("history_empty")));
    else {
      const rows = this.games.map((g) => {
        const players = (g.players || []).map((_, seat) => this.name(g, seat)).join(" – ");
        const links = [
          h("a", { href: `/api/games/${g.game_id}/record`, class: "record-link", download: "" }, t("record")),
        ];
        // The table's Bummerl sheet (JSON), kept with the records (sheet.js shows it at the table).
        links.push(
          " · ",
          h(
            "a",
            {
              href: `/api/tables/${encodeURIComponent(g.table_id)}/sheet`,
              class: "sheet-link",
              download: `bummerl-sheet-${g.table_id}.json`,
            },
            t("sc_heading"),
          ),
        );
        // Replays and analyses are there for the games the server says so (two-player games, for now).
        if (g.replay)
          links.unshift(h("a", { href: `#/replay/${g.game_id}`, class: "replay-link" }, t("replay")), " · ");
        const when = g.finished_at || g.started_at;
        const name = typeof g.variant === "string" ? g.variant : g.variant && (g.variant.title || g.variant.name);
        const variant = this.titles[name] || name;
        // Each cell names its column (`data-label`): on a phone a row is a card of labelled lines (style.css).
        const cell = (key, attrs, ...content) => h("td", { ...attrs, "data-label": t(key) }, ...content);
        return h(
          "tr",
          { dataset: { kind: g.kind || "" } },
          cell("col_when", { class: "when" }, when ? new Date(when).toLocaleString(locale()) : ""),
          cell("col_variant", { class: "variant" }, variant || ""),
          cell("col_game", { class: "game-no" }, g.match_no ? `${g.match_no}.${g.game_no}` : String(g.game_no ?? "")),
          cell("col_players", { class: "players" }, players),
          cell("col_result", { class: "result" }, this.resultText(g)),
          h("td", { class: "links" }, links),
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
                ["col_when", "col_variant", "col_game", "col_players", "col_result"].map((k) =>
                  h("th", { scope: "col" }, t(k)),
                ),
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
  // Each page draws into an element of its own: an answer that reaches a page after the address changed (a
  // rules page's, whose variant was left before its rules came) draws into the detached one, never over the
  // next page. `display: contents` (style.css) keeps the layout as if the page drew into main.
  const el = h("div", { class: "route" });
  root().replaceChildren(el);
  const oldJoin = new URLSearchParams(location.search).get("join");
  if (oldJoin) {
    // An invitation from before the code moved into the fragment: keep it out of the address bar, the history
    // and any later request's Referer.
    history.replaceState(null, "", `${location.pathname}#/join/${encodeURIComponent(oldJoin)}`);
  }
  const hash = location.hash.replace(/^#\/?/, "");
  const [first, id] = hash.split("/");
  let what = first;
  const older = { tgame: "table", "tgame-watch": "watch" }[what];
  if (older && id) {
    // A bookmark of a three- or four-player table from before one address served every variant.
    history.replaceState(null, "", `${location.pathname}#/${older}/${id}`);
    what = older;
  }
  if (what === "join" && id) page = joinPage(el, decodeURIComponent(id));
  else if (what === "table" && id) page = new TablePage(el, decodeURIComponent(id), { spectator: false, ctx });
  else if (what === "watch" && id) page = new TablePage(el, decodeURIComponent(id), { spectator: true, ctx });
  else if (what === "history") page = new HistoryPage(el);
  else if (what === "me") page = new ProfilePage(el, { ctx });
  else if (what === "leaderboard")
    page = new LeaderboardPage(el, decodeURIComponent(id || ""), { ctx, player: storedPlayer() });
  else if (what === "rules") page = new RulesPage(el, hash.slice("rules/".length), { ctx });
  else if (what === "replay" && id) page = new ReplayPage(el, decodeURIComponent(id), { ctx });
  else if (what === "tournaments") page = new TournamentRoute(el, hash.split("/").slice(1));
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

// The installable app (sw.js, served by the server with its shell's version): the page's files from a cache, and a
// page that says so when the server cannot be reached. Browsers allow a worker on https and on localhost only.
// After a deploy the page is first loaded from the old cache while the new worker installs; when it takes over in
// the page's first seconds (before anyone acts), the page is loaded again, once, so that it runs the new files.
const FRESH_MS = 10000;
if ("serviceWorker" in navigator) {
  const controlled = Boolean(navigator.serviceWorker.controller); // not the very first visit
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (controlled && performance.now() < FRESH_MS) location.reload();
  });
  navigator.serviceWorker.register("/sw.js").catch((error) => console.warn("no service worker:", error));
}
