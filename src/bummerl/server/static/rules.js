// The rules page of a variant, one tap from the lobby and from every table:
//
//   #/rules/<variant>[?<option>=<value>&…][&table=<id>]
//
//   new RulesPage(el, "dreierschnapsen?max_doubling=1&table=abc", { ctx })   // app.js's route
//   rulesLink(view.variant, { table: tableId })     // a "Rules" link for a table (its variant and options)
//   await contractGuide(view.variant, ctx)          // name -> { points_text, summary } for the bidding buttons
//
// Everything the page says comes from the server (GET /api/rules/{variant}, built from the engine's own values:
// bummerl.rules_pages); this module only draws it, with the app's own card faces. Options in the address are the
// house rules of a table; they are sent to the server as they are and shown as they apply.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { cardFace, h, variantTitle } from "./render.js";

/** The address of the rules page of `variant` (a name, or a view's `{ name, options }`) with its options. */
export function rulesHref(variant, { options = null, table = null } = {}) {
  const name = typeof variant === "string" ? variant : variant.name;
  const opts = options || (typeof variant === "object" && variant.options) || {};
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(opts)) query.set(key, String(value));
  if (table) query.set("table", table);
  const text = query.toString();
  return `#/rules/${encodeURIComponent(name)}${text ? `?${text}` : ""}`;
}

/** A link to the rules page: `variant` as for rulesHref; `table` adds the way back to that table. */
export function rulesLink(variant, { options = null, table = null, id = "rules-link", text = null } = {}) {
  return h("a", { class: "rules-link", id, href: rulesHref(variant, { options, table }) }, text || t("rules_link"));
}

/** The part of an address after `#/rules/`: the variant, its options and the table it came from. */
export function parseRulesAddress(rest) {
  const [path, query = ""] = String(rest || "").split("?");
  const params = new URLSearchParams(query);
  const table = params.get("table");
  params.delete("table");
  const options = {};
  for (const [key, value] of params) options[key] = value;
  return { variant: decodeURIComponent(path || "") || "schnapsen", options, table };
}

/** The request path of a rules page. */
function rulesPath(variant, options, { lang, faces }) {
  const query = new URLSearchParams({ lang, faces });
  if (Object.keys(options || {}).length) query.set("options", JSON.stringify(options));
  return `/api/rules/${encodeURIComponent(variant)}?${query}`;
}

const guides = new Map();

/**
 * What each contract of a table game means and scores, from the server's rules page of the table's variant with
 * its options (`variant`: the view's `{ name, options }`); cached per variant, options and language.
 */
export async function contractGuide(variant, { lang, faces }) {
  const path = rulesPath(variant.name, variant.options, { lang, faces });
  if (!guides.has(path)) {
    guides.set(
      path,
      api("GET", path).then(({ data }) => Object.fromEntries((data.contracts || []).map((c) => [c.name, c]))),
    );
  }
  try {
    return await guides.get(path);
  } catch (err) {
    guides.delete(path); // asked again next time
    throw err;
  }
}

export class RulesPage {
  /** `rest`: the address after `#/rules/` (see parseRulesAddress); `ctx`: the page's `{ lang, faces }`. */
  constructor(el, rest, { ctx }) {
    this.el = el;
    this.ctx = ctx;
    Object.assign(this, parseRulesAddress(rest));
    this.data = null;
    this.loaded = null; // "lang/faces" of this.data
    this.error = null;
    this.variants = null;
    this.load();
    api("GET", "/api/variants")
      .then(({ data }) => {
        this.variants = data;
        this.render();
      })
      .catch(() => {});
  }

  key() {
    return `${this.ctx.lang}/${this.ctx.faces}`;
  }

  async load() {
    const key = this.key();
    this.loading = key;
    try {
      const { data } = await api("GET", rulesPath(this.variant, this.options, this.ctx));
      if (this.loading !== key) return; // the language changed meanwhile: a newer answer comes
      this.data = data;
      this.loaded = key;
      this.error = null;
    } catch (err) {
      this.error = err.message;
    }
    this.render();
  }

  title(name, fallback) {
    return variantTitle(name, [], fallback);
  }

  /** One link per variant, the shown one marked; a table's page keeps its house rules only for its own. */
  renderVariants() {
    const nav = h("nav", { class: "rules-variants", "aria-label": t("rules_variants") });
    for (const v of this.variants || []) {
      const current = this.data && v.name === this.data.variant;
      nav.append(
        h(
          "a",
          {
            href:
              v.name === this.variant
                ? rulesHref(v.name, { options: this.options, table: this.table })
                : rulesHref(v.name),
            "aria-current": current ? "page" : null,
            dataset: { variant: v.name },
          },
          this.title(v.name, v.title),
        ),
      );
    }
    return nav;
  }

  renderCards(groups) {
    const row = h("div", { class: "rules-cards" });
    for (const group of groups) {
      const cards = group.codes.map((code) =>
        cardFace(code, { faces: this.ctx.faces, lang: this.ctx.lang, cls: "rules-card" }),
      );
      row.append(
        h(
          "figure",
          { class: "rules-figure" },
          h("div", { class: "rules-pair" }, cards),
          h("figcaption", {}, group.caption),
        ),
      );
    }
    return row;
  }

  renderTable(table) {
    const names = new Map((this.data.contracts || []).map((c) => [c.title, c.name]));
    return h(
      "table",
      { class: "rules-table", id: "rules-contracts" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          table.head.map((x) => h("th", { scope: "col" }, x)),
        ),
      ),
      h(
        "tbody",
        {},
        table.rows.map((row) =>
          h(
            "tr",
            { dataset: { contract: names.get(row[0]) || "" } },
            row.map((cell, i) => h(i ? "td" : "th", { scope: i ? null : "row", "data-label": table.head[i] }, cell)),
          ),
        ),
      ),
    );
  }

  /** Every option of the variant in the server's words: its value, and the usual one where it differs. */
  renderHouseRules(d) {
    const list = h("ul", { class: "rules-house", id: "rules-house" });
    for (const o of d.house_rules) {
      const item = h(
        "li",
        { class: o.changed ? "changed" : "", dataset: { option: o.name }, title: d.help[o.name] || null },
        h("span", { class: "opt-name" }, o.label),
        ": ",
        h("strong", {}, o.value_text),
      );
      if (o.changed) item.append(" ", h("span", { class: "muted" }, t("rules_default", { value: o.default_text })));
      list.append(item);
    }
    return list;
  }

  render() {
    if (this.data && this.loaded !== this.key() && this.loading !== this.key()) this.load();
    const box = h("section", { class: "rules-page", id: "rules-page" });
    const head = h("div", { class: "rules-head" });
    if (this.table)
      head.append(
        h(
          "a",
          { class: "rules-back", id: "rules-back", href: `#/table/${encodeURIComponent(this.table)}` },
          t("rules_back"),
        ),
      );
    box.append(head);
    if (this.variants) box.append(this.renderVariants());
    if (this.error) box.append(h("p", { class: "notice error", role: "alert" }, t("error", { message: this.error })));
    const d = this.data;
    if (!d) {
      if (!this.error) box.append(h("p", {}, t("connecting")));
      this.el.replaceChildren(box);
      return;
    }
    box.dataset.variant = d.variant;
    head.prepend(h("h1", {}, t("rules_heading", { variant: this.title(d.variant, d.title) })));
    if (this.table)
      box.append(
        h(
          "p",
          { class: "rules-table-note" },
          t(Object.keys(d.options).length ? "rules_table_house" : "rules_table_plain"),
        ),
      );
    const toc = h("nav", { class: "rules-toc", "aria-label": t("rules_contents") });
    for (const s of d.sections)
      toc.append(
        h("a", { href: `#/rules/${encodeURIComponent(d.variant)}`, onclick: (e) => this.jump(e, s.id) }, s.heading),
      );
    box.append(toc);
    for (const s of d.sections) {
      const section = h(
        "section",
        { class: "panel rules-section", id: `rules-${s.id}`, dataset: { section: s.id } },
        h("h2", {}, s.heading),
      );
      for (const text of s.text) section.append(h("p", {}, text));
      if (s.cards) section.append(this.renderCards(s.cards));
      if (s.table) section.append(this.renderTable(s.table));
      if (s.id === "house_rules") section.append(this.renderHouseRules(d));
      box.append(section);
    }
    box.append(h("p", { class: "muted rules-source" }, t("rules_source", { doc: d.doc })));
    this.el.replaceChildren(box);
  }

  /** The table of contents scrolls to a section without changing the address (the route is the hash). */
  jump(event, id) {
    event.preventDefault();
    const target = document.getElementById(`rules-${id}`);
    if (target) target.scrollIntoView({ behavior: "smooth", block: "start" });
  }
}
