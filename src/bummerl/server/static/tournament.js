// Tournaments (docs/web-tournaments.md), a route of the page (app.js):
//   #/tournaments                   a new tournament of any variant; the tournaments this browser takes part in;
//                                   the server's tournaments (GET /api/tournaments)
//   #/tournaments/join/CODE         take part (the code stays in the fragment: no server ever sees it)
//   #/tournaments/ID                one tournament: the invitation (its organiser), the participants, your table,
//                                   the rounds with their tables and results, the standings; asked for again
//                                   every 2.5 s until it is finished or cancelled; its organiser may cancel it
//
// The page decides nothing: who plays whom, who won and the standings are the server's
// (GET /api/tournaments/ID). A participant's token is also their seat token at each of their tables: "open table"
// keeps it for that table as the lobby keeps any seat token (api.js `seats`) and opens the table page.

import { absoluteUrl, api, pageRequest, prefs, seats } from "./api.js";
import { formatNumber, t } from "./i18n.js";
import { InvitationPage } from "./invitation.js";
import { botName, h, variantTitle } from "./render.js";

const POLL_MS = 2500;
const FORMATS = ["swiss", "round-robin", "knock-out"];
const UNITS = ["game", "bummerl"];
// The move clocks a new tournament offers (seconds, or "none": no clock, and so no forfeit); the server holds them
// to its own bounds (--tournament-max-move-seconds).
const CLOCKS = ["30", "60", "120", "300", "none"];
/** A tournament that changes no more. */
const ended = (status) => status === "finished" || status === "cancelled";

/** What this browser holds of each tournament: the organiser's token, the participant's token and number. */
const mine = {
  all() {
    try {
      const value = JSON.parse(localStorage.getItem("bummerl.tournaments") || "{}");
      return value && typeof value === "object" ? value : {};
    } catch {
      return {};
    }
  },
  get(id) {
    return this.all()[id] || null;
  },
  save(id, data) {
    const all = this.all();
    all[id] = { ...(all[id] || {}), ...data, saved: Date.now() };
    try {
      localStorage.setItem("bummerl.tournaments", JSON.stringify(all));
    } catch {
      // A private window may refuse storage: the page still works for this visit.
    }
  },
};

const bearer = (token) => (token ? { Authorization: `Bearer ${token}` } : {});
/** A refusal as this page says it. */
const errorText = (err) => t("error", { message: err.message });

function field(id, label, input) {
  return h("div", { class: "field" }, h("label", { for: id }, label), input);
}

function notice(text) {
  return text ? h("p", { class: "notice error", role: "alert" }, text) : null;
}

/** Append the children that are there (a part of the page that has nothing to show is null). */
function add(parent, ...children) {
  for (const child of children) if (child !== null && child !== undefined) parent.append(child);
  return parent;
}

// ------------------------------------------------------------------ a new tournament
class NewPage {
  constructor(el) {
    this.el = el;
    this.variants = null;
    this.error = null;
    this.busy = false;
    this.form = { name: "", variant: "schnapsen", format: "swiss", unit: "game", rounds: "", max: "16", clock: "60" };
    this.listed = null; // GET /api/tournaments
    this.load();
    this.render();
  }

  async load() {
    try {
      this.variants = (await api("GET", "/api/variants")).data;
    } catch (err) {
      this.error = t("error", { message: err.message });
    }
    try {
      this.listed = (await api("GET", "/api/tournaments?limit=20")).data;
    } catch {
      this.listed = null; // the list is a courtesy: a new tournament is made without it
    }
    this.render();
  }

  async create(event) {
    event.preventDefault();
    if (this.busy) return;
    const f = this.form;
    const body = { name: f.name.trim() || t("tn_default_name"), variant: f.variant, format: f.format, unit: f.unit };
    if (f.max !== "") body.max_players = Number(f.max);
    if (f.format === "swiss" && f.rounds !== "") body.rounds = Number(f.rounds);
    body.move_seconds = f.clock === "none" ? null : Number(f.clock);
    const data = await pageRequest(this, "POST", "/api/tournaments", body, { describe: errorText });
    if (!data) return;
    mine.save(data.id, {
      organiser_token: data.organiser_token,
      code: data.code,
      invite_url: data.invite_url,
      name: body.name,
    });
    location.hash = `#/tournaments/${data.id}`;
  }

  render() {
    const f = this.form;
    const form = h(
      "form",
      { class: "panel", id: "new-tournament-form", onsubmit: (e) => this.create(e) },
      h("h1", {}, t("tn_heading_new")),
    );
    add(form, h("p", { class: "muted" }, t("tn_intro")), notice(this.error));
    if (!this.variants) {
      form.append(h("p", {}, t("connecting")));
    } else {
      const variant = h("select", { id: "tournament-variant", onchange: (e) => (f.variant = e.target.value) });
      for (const v of this.variants)
        variant.append(h("option", { value: v.name }, variantTitle(v.name, this.variants)));
      variant.value = f.variant;
      const format = h("select", {
        id: "tournament-format",
        onchange: (e) => {
          f.format = e.target.value;
          this.render();
        },
      });
      for (const name of FORMATS) format.append(h("option", { value: name }, t(`tn_format_${name}`)));
      format.value = f.format;
      const unit = h("select", { id: "tournament-unit", onchange: (e) => (f.unit = e.target.value) });
      for (const name of UNITS) unit.append(h("option", { value: name }, t(`tn_unit_${name}`)));
      unit.value = f.unit;
      form.append(
        field(
          "tournament-name",
          t("tn_name"),
          h("input", {
            id: "tournament-name",
            maxlength: "40",
            value: f.name,
            placeholder: t("tn_default_name"),
            oninput: (e) => (f.name = e.target.value),
          }),
        ),
        field("tournament-variant", t("variant"), variant),
        field("tournament-format", t("tn_format"), format),
        field("tournament-unit", t("tn_unit"), unit),
      );
      if (f.format === "swiss") {
        form.append(
          field(
            "tournament-rounds",
            t("tn_rounds"),
            h("input", {
              id: "tournament-rounds",
              type: "number",
              min: "1",
              max: "20",
              value: f.rounds,
              oninput: (e) => (f.rounds = e.target.value),
            }),
          ),
        );
      }
      const clock = h("select", { id: "tournament-clock", onchange: (e) => (f.clock = e.target.value) });
      for (const c of CLOCKS) {
        clock.append(h("option", { value: c }, c === "none" ? t("tn_clock_none") : clockText(Number(c))));
      }
      clock.value = f.clock;
      form.append(
        field("tournament-clock", t("tn_clock"), clock),
        field(
          "tournament-max",
          t("tn_max_players"),
          h("input", {
            id: "tournament-max",
            type: "number",
            min: "2",
            max: "64",
            value: f.max,
            oninput: (e) => (f.max = e.target.value),
          }),
        ),
        h(
          "button",
          { type: "submit", class: "primary big", id: "create-tournament", disabled: this.busy },
          this.busy ? t("tn_creating") : t("tn_create"),
        ),
      );
    }
    const section = h("section", { class: "tournament" }, form);
    const known = Object.entries(mine.all()).sort((a, b) => (b[1].saved || 0) - (a[1].saved || 0));
    if (known.length) {
      const list = h("ul", { class: "table-list", id: "my-tournaments" });
      for (const [id, s] of known.slice(0, 10))
        list.append(h("li", {}, h("a", { href: `#/tournaments/${id}` }, s.name || id)));
      section.append(h("section", { class: "panel" }, h("h2", {}, t("tn_yours")), list));
    }
    section.append(this.renderList());
    this.el.replaceChildren(section);
  }

  /** The server's tournaments, newest first: what a stranger may look at (no code, no participant's name). */
  renderList() {
    const box = h("section", { class: "panel", id: "tournament-list" }, h("h2", {}, t("tn_list_heading")));
    const found = (this.listed && this.listed.tournaments) || [];
    if (!found.length) {
      box.append(h("p", { class: "muted" }, this.listed ? t("tn_list_none") : t("connecting")));
      return box;
    }
    const list = h("ul", { class: "table-list tn-list" });
    for (const x of found) {
      const facts = [
        variantTitle(x.variant, this.variants, x.title),
        listStatus(x),
        t("tn_list_players", { n: x.players, max: x.max_players }),
      ];
      if (x.move_seconds) facts.push(t("table_clock", { seconds: x.move_seconds }));
      list.append(
        h(
          "li",
          { dataset: { status: x.status } },
          h("a", { href: `#/tournaments/${encodeURIComponent(x.id)}` }, x.name),
          h("small", { class: "muted" }, ` ${facts.join(" · ")}`),
        ),
      );
    }
    box.append(list);
    return box;
  }
}

/** A move clock in words: "30 s", "2 min". */
function clockText(seconds) {
  return seconds % 60 === 0 ? t("tn_clock_minutes", { n: seconds / 60 }) : t("table_clock", { seconds });
}

/** A listed tournament's state: open, its round, finished with its winner, cancelled. */
function listStatus(x) {
  if (x.status === "running") return t("tn_status_running", { round: x.round, total: x.planned_rounds });
  if (x.status === "finished" && x.winner) return t("tn_list_won", { name: x.winner });
  return t(`tn_status_${x.status}`);
}

// ------------------------------------------------------------------ taking part by the invitation
function joinPage(el, code) {
  return new InvitationPage(el, {
    prefix: "tournament-join",
    section: "tournament",
    form: "panel",
    key: "tn_join",
    submit: async (name) => {
      const { data } = await api("POST", "/api/tournaments/join", { code, name });
      mine.save(data.id, { player_token: data.player_token, player: data.player });
      // Leave the invitation's address: a reload (or Back) shows the tournament, not the used invitation.
      location.replace(`#/tournaments/${encodeURIComponent(data.id)}`);
    },
  });
}

// ------------------------------------------------------------------ one tournament
class TournamentPage {
  constructor(el, id) {
    this.el = el;
    this.id = id;
    this.data = null;
    this.variants = null;
    this.error = null;
    this.busy = false;
    this.timer = null;
    this.gone = false;
    this.closed = false;
    this.bot = null;
    this.load();
    this.render();
  }

  get stored() {
    return mine.get(this.id) || {};
  }

  /** The state, with the token that shows the most: a participant's (their table), else the organiser's. */
  async load() {
    clearTimeout(this.timer);
    const s = this.stored;
    try {
      if (!this.variants) this.variants = (await api("GET", "/api/variants")).data;
      this.data = (
        await api(
          "GET",
          `/api/tournaments/${encodeURIComponent(this.id)}`,
          undefined,
          bearer(s.player_token || s.organiser_token),
        )
      ).data;
      this.error = null;
    } catch (err) {
      if (err.status === 404) this.gone = true;
      else this.error = t("error", { message: err.message });
    }
    if (this.closed) return; // the page was left meanwhile
    if (this.gone) {
      this.render();
      return;
    }
    if (!this.data || !ended(this.data.status)) this.timer = setTimeout(() => this.load(), POLL_MS);
    this.render();
  }

  async act(method, path, body, token) {
    if (this.busy) return null;
    return pageRequest(this, method, path, body, { headers: bearer(token), describe: errorText });
  }

  async start() {
    const started = await this.act(
      "POST",
      `/api/tournaments/${encodeURIComponent(this.id)}/start`,
      {},
      this.stored.organiser_token,
    );
    if (started) this.load();
  }

  /** The organiser ends the tournament without a winner, after a question (it cannot be undone). */
  async cancel() {
    if (!window.confirm(t("tn_cancel_confirm"))) return;
    const done = await this.act(
      "POST",
      `/api/tournaments/${encodeURIComponent(this.id)}/cancel`,
      {},
      this.stored.organiser_token,
    );
    if (done) this.load();
  }

  async addBot() {
    const bot = this.bot || this.variant().default_bot;
    const added = await this.act(
      "POST",
      `/api/tournaments/${encodeURIComponent(this.id)}/bots`,
      { bot },
      this.stored.organiser_token,
    );
    if (added) this.load();
  }

  async joinToo(event) {
    event.preventDefault();
    const name = this.el.querySelector("#organiser-join-name").value.trim() || t("default_name");
    prefs.name = name;
    const data = await this.act("POST", "/api/tournaments/join", { code: this.stored.code, name });
    if (data) {
      mine.save(this.id, { player_token: data.player_token, player: data.player });
      this.load();
    }
  }

  openTable(table) {
    const d = this.data;
    seats.save(table.table_id, {
      token: table.seat_token,
      seat: table.seat,
      kind: d.kind,
      variant: d.variant,
      opponent: null,
    });
    location.hash = `#/table/${encodeURIComponent(table.table_id)}`;
  }

  variant() {
    return (
      (this.variants || []).find((v) => v.name === (this.data && this.data.variant)) || { bots: [], default_bot: "" }
    );
  }

  /** A seat's or a participant's name: a computer as such (a filled seat by its bot), "(you)" after one's own. */
  who(name, kind, bot, player) {
    const shown = kind === "bot" ? this.botShown(name, bot) : name;
    return player !== null && player !== undefined && player === this.data.you.player
      ? `${shown} ${t("tn_you")}`
      : shown;
  }

  /** A bot by its one display name ("Computer (Stark)"); a second one of a kind keeps its number ("… 2"). */
  botShown(name, bot) {
    const titles = bot ? (this.variant().bot_titles || {})[bot] : null;
    if (!titles) return t("computer_named", { bot: name || bot });
    const suffix = name && name.startsWith(bot) ? name.slice(bot.length) : "";
    return `${botName({ bot, titles })}${suffix}`;
  }

  statusText(d) {
    if (d.status === "open") return t("tn_status_open");
    if (d.status === "finished") return t("tn_status_finished");
    if (d.status === "cancelled") return t("tn_status_cancelled");
    return t("tn_status_running", { round: d.round, total: d.planned_rounds });
  }

  renderOrganiser(d) {
    const s = this.stored;
    const box = h("section", { class: "panel", id: "organiser" }, h("h2", {}, t("tn_organiser")));
    const url = absoluteUrl(d.invite_url || s.invite_url || "");
    const input = h("input", { id: "tournament-invite", readonly: true, value: url, "aria-label": t("tn_invite") });
    box.append(
      h(
        "div",
        { class: "invite" },
        h("span", {}, t("tn_invite")),
        input,
        h(
          "button",
          {
            type: "button",
            onclick: async () => {
              try {
                await navigator.clipboard.writeText(url);
              } catch {
                input.select();
              }
            },
          },
          t("copy"),
        ),
      ),
      h("p", { class: "muted", id: "tournament-code" }, t("tn_code", { code: d.join_code || s.code || "" })),
    );
    const v = this.variant();
    const bots = h("select", {
      id: "tournament-bot",
      "aria-label": t("tn_add_bot"),
      onchange: (e) => (this.bot = e.target.value),
    });
    for (const b of v.bots)
      bots.append(h("option", { value: b }, botName({ bot: b, titles: (v.bot_titles || {})[b] })));
    bots.value = this.bot || v.default_bot;
    box.append(
      h(
        "div",
        { class: "row" },
        bots,
        h(
          "button",
          { type: "button", id: "add-bot", disabled: this.busy, onclick: () => this.addBot() },
          t("tn_add_bot"),
        ),
      ),
      h(
        "div",
        { class: "row" },
        h(
          "button",
          {
            type: "button",
            class: "primary big",
            id: "start-tournament",
            disabled: this.busy,
            onclick: () => this.start(),
          },
          this.busy ? t("tn_starting") : t("tn_start"),
        ),
      ),
    );
    if (!s.player_token) {
      box.append(
        h(
          "form",
          { class: "row", onsubmit: (e) => this.joinToo(e) },
          h("input", {
            id: "organiser-join-name",
            maxlength: "40",
            value: prefs.name,
            placeholder: t("your_name"),
            "aria-label": t("your_name"),
          }),
          h("button", { type: "submit", id: "organiser-join", disabled: this.busy }, t("tn_play_too")),
        ),
      );
    }
    return box;
  }

  renderYourTable(d) {
    const mineNow = d.your_table;
    if (!mineNow || d.status !== "running") return null;
    const box = h("section", { class: "panel your-table", id: "your-table" });
    if (mineNow.bye) {
      box.append(h("p", {}, t("tn_your_bye")));
      return box;
    }
    box.append(
      h("h2", {}, t("tn_your_table", { n: mineNow.round })),
      h(
        "button",
        { type: "button", class: "primary big", id: "open-table", onclick: () => this.openTable(mineNow) },
        t("tn_open_table"),
      ),
    );
    if (mineNow.status === "done") box.append(h("p", { class: "muted" }, t("tn_your_done")));
    return box;
  }

  renderRounds(d) {
    const box = h("section", { class: "panel", id: "rounds" }, h("h2", {}, t("tn_rounds_heading")));
    const list = h("div", { class: "rounds" });
    for (const rnd of [...d.rounds].reverse()) {
      const tables = h("div", { class: "tables" });
      for (const table of rnd.tables) {
        const card = h("div", { class: "tn-table", dataset: { table: table.table_id || "", status: table.status } });
        if (table.bye) {
          const s = table.seats[0];
          card.append(h("p", {}, t("tn_bye", { who: this.who(s.name, s.kind, s.bot, s.player) })));
        } else {
          card.append(
            h(
              "div",
              { class: "head" },
              h("span", {}, t("tn_table", { n: table.table })),
              h("span", {}, t(`tn_table_${table.status}`)),
            ),
            h(
              "ul",
              {},
              table.seats.map((s) =>
                h(
                  "li",
                  {
                    class:
                      [s.winner ? "won" : "", s.player !== null && s.player === d.you.player ? "me" : ""]
                        .join(" ")
                        .trim() || null,
                  },
                  this.who(s.name, s.kind, s.bot, s.player),
                  s.winner ? ` · ${t("tn_won")}` : "",
                  s.forfeited ? ` · ${t("tn_forfeited")}` : "",
                  s.score !== null && s.score !== undefined ? ` (${formatNumber(s.score)})` : "",
                ),
              ),
            ),
          );
          if (table.table_id)
            card.append(
              h("a", { href: `#/watch/${encodeURIComponent(table.table_id)}`, class: "watch" }, t("tn_watch")),
            );
        }
        tables.append(card);
      }
      list.append(h("div", { class: "round" }, h("h3", {}, t("tn_round", { n: rnd.round })), tables));
    }
    box.append(list);
    return box;
  }

  renderStandings(d) {
    const cols = ["tn_col_rank", "tn_col_name", "tn_col_points", "tn_col_wins", "tn_col_played", "tn_col_score"];
    const rows = d.standings.map((s) => {
      const p = d.players.find((x) => x.player === s.player) || {};
      return h(
        "tr",
        { dataset: { player: s.player } },
        h("td", {}, String(s.rank)),
        h("td", { class: "name" }, this.who(s.name, p.kind, p.bot, s.player)),
        // Half points (a stand) and scores in the page's digits: "1,5" in German.
        h("td", {}, formatNumber(s.points)),
        h("td", {}, String(s.wins)),
        h("td", {}, String(s.played)),
        h("td", {}, s.score === null || s.score === undefined ? "" : formatNumber(s.score)),
      );
    });
    return h(
      "section",
      { class: "panel", id: "standings" },
      h("h2", {}, t("tn_standings")),
      h(
        "table",
        { class: "standings" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            cols.map((k, i) => h("th", { scope: "col", class: i === 1 ? "name" : null }, t(k))),
          ),
        ),
        h("tbody", {}, rows),
      ),
    );
  }

  render() {
    const section = h("section", { class: "tournament", id: "tournament" });
    if (this.gone) {
      section.append(h("p", { class: "notice error" }, t("tn_unknown")));
      this.el.replaceChildren(section);
      return;
    }
    const d = this.data;
    if (!d) {
      add(section, notice(this.error), h("p", {}, t("connecting")));
      this.el.replaceChildren(section);
      return;
    }
    const facts = [
      variantTitle(d.variant, this.variants),
      t(`tn_format_${d.format}`),
      t(`tn_unit_${d.unit}`),
      d.move_seconds ? t("table_clock", { seconds: d.move_seconds }) : t("tn_clock_none"),
      this.statusText(d),
    ];
    add(
      section,
      h("h1", {}, d.name),
      h(
        "p",
        { class: "tn-status", id: "tournament-status", dataset: { status: d.status, round: d.round } },
        facts.join(" · "),
      ),
      notice(this.error),
    );
    if (d.status === "finished" && d.winner !== null) {
      const w = d.players.find((p) => p.player === d.winner);
      section.append(
        h("p", { class: "panel winner", id: "tournament-winner" }, t("tn_winner", { name: w ? w.name : "" })),
      );
    }
    if (d.status === "cancelled") {
      section.append(h("p", { class: "notice", id: "tournament-cancelled" }, t("tn_cancelled_notice")));
    }
    add(section, this.renderYourTable(d));
    if (d.status === "open") {
      if (this.stored.organiser_token) section.append(this.renderOrganiser(d));
      else section.append(h("p", { class: "notice" }, t("tn_waiting_start")));
    }
    const players = h("ul", { class: "players", id: "tournament-players" });
    for (const p of d.players)
      players.append(h("li", { dataset: { player: p.player } }, this.who(p.name, p.kind, p.bot, p.player)));
    section.append(
      h(
        "section",
        { class: "panel" },
        h("h2", {}, t("tn_players", { n: d.players.length })),
        d.players.length ? players : h("p", { class: "muted" }, t("tn_no_players")),
      ),
    );
    if (d.rounds.length) section.append(this.renderRounds(d));
    if (d.status !== "open") section.append(this.renderStandings(d));
    if (this.stored.organiser_token && !ended(d.status)) {
      // Last on the page, away from "start": a cancel cannot be undone.
      section.append(
        h(
          "section",
          { class: "panel tn-cancel" },
          h("p", { class: "muted" }, t("tn_cancel_help")),
          h(
            "button",
            { type: "button", id: "cancel-tournament", disabled: this.busy, onclick: () => this.cancel() },
            t("tn_cancel"),
          ),
        ),
      );
    }
    this.el.replaceChildren(section);
  }

  destroy() {
    this.closed = true;
    clearTimeout(this.timer);
  }
}

// ------------------------------------------------------------------ the route
/** `#/tournaments/...` for app.js: `rest` is the address after `#/tournaments/`, split at "/". */
export class TournamentRoute {
  constructor(el, rest) {
    const [first, second] = rest;
    if (first === "join" && second) this.page = joinPage(el, decodeURIComponent(second));
    else if (first) this.page = new TournamentPage(el, decodeURIComponent(first));
    else this.page = new NewPage(el);
  }

  render() {
    this.page.render();
  }

  destroy() {
    if (this.page.destroy) this.page.destroy();
  }
}
