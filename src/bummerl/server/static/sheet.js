// The Bummerl sheet: the score of a table's matches as players keep it on paper, beside the table.
//
//   import { sheetPanel, withSheet, sheetText } from "./sheet.js";
//   side.append(sheetPanel(state.sheet, { name: (seat) => "Anna", tableId }));   // a two-player table's side
//   el.replaceChildren(withSheet(box, sheetPanel(sheet, o)));                    // a table game: the sheet beside
//   const text = sheetText(sheet, o);                                            // the download, in the page's words
//
// Everything comes from the server's sheet (the `sheet` of a `state` message, or GET /api/tables/{id}/sheet):
// each game's dealer, result, how it ended and the standing after it, computed by the engine. The page only puts
// it in words: it counts nothing itself.

import { has, t } from "./i18n.js";
import { h, pointsText, seatNames } from "./render.js";

/** The words of one side: a seat's name, or a team's two names ("Anna & Carl"). */
function sideName(sheet, side, o) {
  const seats = (sheet.sides || [])[side] || [side];
  return seats.map((s) => o.name(s)).join(" & ");
}

/** A seat as a column of the sheet calls it: its name (the page names every seat apart, render.js seatNames). */
function seatLabel(sheet, seat, o) {
  return o.name(seat);
}

/** A side's short label for a column head: the seat, or "Team 1" for a team (its names in the legend). */
function sideLabel(sheet, side, o) {
  const seats = (sheet.sides || [])[side] || [side];
  return seats.length > 1 ? t("sc_team", { n: side + 1 }) : seatLabel(sheet, seats[0], o);
}

/** Who the short labels stand for, where one is not the name itself: "Team 1: Anna & Carl · Platz 2: Computer". */
function legend(sheet, o) {
  const parts = [];
  (sheet.sides || []).forEach((seats, side) => {
    const label = sideLabel(sheet, side, o);
    const full = sideName(sheet, side, o);
    if (label !== full) parts.push(`${label}: ${full}`);
  });
  return parts.length ? h("p", { class: "sheet-legend" }, parts.join(" · ")) : null;
}

/** How a two-player game (or a Schnorps round's game) ended, in words: "ausgemeldet mit 68", "zugedreht, verfehlt". */
export function endingText(line, sheet, o) {
  const traits = sheet.traits || {};
  const schnorps = traits.terms === "schnorps";
  const augen = line.augen || [];
  switch (line.reason) {
    case "declared":
      return t("sc_declared", {
        augen: line.winner !== null && line.players ? augen[line.players.indexOf(line.winner)] : augen[line.winner],
      });
    case "closer_won":
      return t(schnorps ? "sc_covered_won" : "sc_closed_won");
    case "closer_failed":
      return t(schnorps ? "sc_covered_failed" : "sc_closed_failed", {
        name: o.name(line.closed_by ?? line.loser ?? 1 - line.winner),
      });
    case "wrong_declaration":
      return t("sc_wrong", { name: o.name(line.loser ?? 1 - line.winner) });
    case "last_trick":
      return t(traits.undeclared_end === "last_trick" ? "sc_last_trick" : "sc_last_card");
    case "stand":
      return t("sc_stand");
    default:
      return line.reason || "";
  }
}

/** One game of the sheet in words: "Anna 2 – ausgemeldet mit 68 · Schneider", a table game's winners and contract. */
export function lineText(line, sheet, o) {
  if (Array.isArray(line.winners)) {
    if (line.reason === "redeal") return t("sc_redeal");
    const who = (line.sides || []).map((side) => sideLabel(sheet, side, o)).join(" & ");
    const contract = has(`tg_contract_${line.contract}`) ? t(`tg_contract_${line.contract}`) : line.contract || "";
    const kontra = line.multiplier > 1 ? ` ×${line.multiplier}` : "";
    return `${who}: ${line.points} – ${contract}${kontra}`;
  }
  if (line.winner === null || line.winner === undefined) return endingText(line, sheet, o);
  const paid = pointsText(line.credited ?? line.points, line.unit);
  const parts = [`${o.name(line.winner)}: ${paid}`, endingText(line, sheet, o)];
  let text = parts.join(" – ");
  if (line.class) text += ` · ${classText(line, sheet, o)}`;
  if (line.multiplier > 1) text += ` · ${t("sc_doubled", { m: line.multiplier })}`;
  return text;
}

/**
 * The class a game was paid by, in words. After a successful Zudrehen the rule counts the opponent's tricks and
 * Augen when the talon was closed (docs/rules.md, Scoring: "at closing"), so a "Schwarz" can end 13:93: where the Augen at the end
 * do not show the class, the words say when it was counted.
 */
function classText(line, sheet, o) {
  const loser = line.loser ?? 1 - line.winner;
  const augen = (line.augen || [])[line.players ? line.players.indexOf(loser) : loser];
  const atClose =
    line.reason === "closer_won" &&
    typeof augen === "number" &&
    ((line.class === "schwarz" && augen > 0) || (line.class === "schneider" && augen >= 33));
  if (!atClose) return t(`sc_${line.class}`);
  const covered = (sheet.traits || {}).terms === "schnorps";
  return t(`sc_${line.class}_closed`, { name: o.name(loser), covered });
}

/** A match's end in words: who won it, Schneider, the Bummerl the loser gets. */
export function matchEndText(match, sheet, o) {
  if (!match.over) return null;
  const labels = (match.winners || []).map((side) => sideLabel(sheet, side, o));
  // "Du" wins in the second person: "Du gewinnst das Bummerl", never "Du gewinnt".
  const words = { who: labels.join(" & "), count: labels.length, you: labels.length === 1 && labels[0] === t("You") };
  if (match.scoring === "marken") return t("sc_match_won_marken", words);
  let text = t("sc_match_won", words);
  if (match.schneider) text += ` · ${t("sc_schneider_bummerl")}`;
  return text;
}

/** The column header of the standing: Bummerl count down, Marken count up, table games to 24. */
export function standingNote(match) {
  if (match.scoring === "bummerl") return t("sc_note_bummerl", { target: match.target });
  if (match.scoring === "marken") return t(match.round ? "sc_note_round" : "sc_note_marken", { target: match.target });
  return t("sc_note_points", { target: match.target });
}

/** One match as a table: a row per game (number, dealer, the standing of each side after it, what happened). */
function matchTable(match, sheet, o) {
  const sides = (match.sides || sheet.sides || []).length || (match.standing || []).length;
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, "#"),
    h("th", { scope: "col" }, t("sc_dealer")),
    Array.from({ length: sides }, (_, side) =>
      h("th", { scope: "col", class: "num", title: sideName(sheet, side, o) }, sideLabel(sheet, side, o)),
    ),
  );
  // Each game is two rows, as on a narrow paper sheet: the numbers, then what happened across the whole width.
  const span = String(sides + 2);
  const rows = [
    h(
      "tr",
      { class: "start" },
      h("td", {}, ""),
      h("td", { class: "muted" }, t("sc_start")),
      (match.start || []).map((n) => h("td", { class: "num" }, String(n))),
    ),
  ];
  for (const line of match.games || []) {
    rows.push(
      h(
        "tr",
        { class: "game", dataset: { game: String(line.game_no) } },
        h("td", {}, String(line.game_no)),
        h("td", {}, seatLabel(sheet, line.dealer, o)),
        (line.standing || []).map((n) => h("td", { class: "num" }, String(n))),
      ),
      h("tr", { class: "what-row" }, h("td", { class: "what", colspan: span }, lineText(line, sheet, o))),
    );
  }
  if (match.current) {
    const running = match.next_multiplier > 1 ? t("sc_running_doubled", { m: match.next_multiplier }) : t("sc_running");
    rows.push(
      h(
        "tr",
        { class: "current" },
        h("td", {}, String(match.current.game_no)),
        h("td", {}, seatLabel(sheet, match.current.dealer, o)),
        h("td", { class: "muted", colspan: String(sides) }, running),
      ),
    );
  }
  return h(
    "table",
    { class: "sheet-table", dataset: { match: String(match.match_no) } },
    h(
      "caption",
      {},
      `${t(match.scoring === "points" ? "sc_match_table" : "sc_match", { n: match.match_no })} · ${standingNote(match)}`,
    ),
    h("thead", {}, head),
    h("tbody", {}, rows),
  );
}

/**
 * The sheet panel: the running match in full, the earlier ones folded away, the totals and the downloads.
 * `o`: `{ name(seat), tableId }` (how the page calls a seat). `null` sheet: nothing yet (a table being dealt).
 */
export function sheetPanel(sheet, o) {
  const box = h(
    "section",
    { class: "panel sheet-panel", id: "sheet", "aria-labelledby": "sheet-title" },
    h("h2", { id: "sheet-title" }, t("sc_heading")),
  );
  if (!sheet) {
    box.append(h("p", { class: "muted" }, t("connecting")));
    return box;
  }
  const matches = sheet.matches || [];
  const last = matches[matches.length - 1];
  if (matches.length > 1) {
    const earlier = h(
      "details",
      { class: "sheet-earlier" },
      h("summary", {}, t("sc_earlier", { n: matches.length - 1 })),
    );
    for (const m of matches.slice(0, -1)) {
      earlier.append(matchTable(m, sheet, o));
      const end = matchEndText(m, sheet, o);
      if (end) earlier.append(h("p", { class: "sheet-end" }, end));
    }
    box.append(earlier);
  }
  if (last) {
    // Focusable: a sheet wider than its box scrolls sideways, and the keyboard must reach it (WCAG 2.1.1).
    box.append(h("div", { class: "sheet-scroll", tabindex: "0" }, matchTable(last, sheet, o)));
    // No legend where every label is the name itself (Element.append would write a null as "null").
    const key = legend(sheet, o);
    if (key) box.append(key);
    const end = matchEndText(last, sheet, o);
    if (end) box.append(h("p", { class: "sheet-end", id: "sheet-end" }, end));
  }
  const totals = sheet.totals || {};
  if ((totals.matches_won || []).some((n) => n > 0)) {
    const parts = (totals.matches_won || []).map((n, side) => `${sideLabel(sheet, side, o)} ${n}`);
    box.append(h("p", { class: "sheet-totals" }, t("sc_totals_won", { list: parts.join(" · ") })));
    if ((totals.bummerl || []).some((n) => n > 0)) {
      const got = (totals.bummerl || []).map((n, side) => `${sideLabel(sheet, side, o)} ${n}`);
      box.append(h("p", { class: "sheet-totals" }, t("sc_totals_bummerl", { list: got.join(" · ") })));
    }
  }
  box.append(sheetDownloads(sheet, o));
  return box;
}

/** The sheet as text and as the server's JSON, to keep with the records (the sheet panel, a game's record box). */
export function sheetDownloads(sheet, o) {
  const name = `bummerl-sheet-${sheet.table_id}`;
  const text = h("a", { href: "#", class: "sheet-download", download: `${name}.txt` }, t("sc_download_text"));
  text.addEventListener("click", () => {
    // Made when clicked, so the words are the page's language now.
    const blob = new Blob([sheetText(sheet, o)], { type: "text/plain;charset=utf-8" });
    text.href = URL.createObjectURL(blob);
    setTimeout(() => URL.revokeObjectURL(text.href), 60000);
  });
  const json = h(
    "a",
    { href: `/api/tables/${encodeURIComponent(sheet.table_id)}/sheet`, class: "sheet-json", download: `${name}.json` },
    "JSON",
  );
  return h("p", { class: "sheet-downloads" }, text, " · ", json);
}

/** A seat's name as a sheet on paper writes it: the player's name, a bot's one name ("Computer (Stark)"). */
function paperName(sheet, seat) {
  return seatNames(sheet.players || [])[seat] || t("seat_n", { n: seat + 1 });
}

/** The sheet as plain text in the page's language (every seat by its name): one block per match, one line per game. */
export function sheetText(sheet, page) {
  const o = { ...page, name: (seat) => paperName(sheet, seat) };
  const out = [`${t("sc_heading")} – ${sheet.title} (${sheet.table_id})`];
  const key = legend(sheet, o);
  if (key) out.push(key.textContent);
  out.push("");
  for (const match of sheet.matches || []) {
    const sides = (match.standing || []).length;
    const names = Array.from({ length: sides }, (_, side) => sideLabel(sheet, side, o));
    const width = Math.max(6, ...names.map((n) => n.length));
    const pad = (s, w = width) => String(s).padStart(w);
    out.push(
      `${t(match.scoring === "points" ? "sc_match_table" : "sc_match", { n: match.match_no })} · ${standingNote(match)}`,
    );
    out.push(
      `${pad("#", 3)}  ${t("sc_dealer").padEnd(width)}  ${names.map((n) => pad(n)).join("  ")}  ${t("sc_game")}`,
    );
    out.push(
      `${pad("", 3)}  ${"".padEnd(width)}  ${(match.start || []).map((n) => pad(n)).join("  ")}  ${t("sc_start")}`,
    );
    for (const line of match.games || []) {
      const dealer = seatLabel(sheet, line.dealer, o).padEnd(width);
      out.push(
        `${pad(line.game_no, 3)}  ${dealer}  ${(line.standing || []).map((n) => pad(n)).join("  ")}  ${lineText(line, sheet, o)}`,
      );
    }
    const end = matchEndText(match, sheet, o);
    if (end) out.push(end);
    out.push("");
  }
  return out.join("\n");
}

/** A table game's page with the sheet beside it (below it on a phone): `box` is the page, `panel` the sheet. */
export function withSheet(box, panel) {
  return h("div", { class: "sheet-layout" }, box, h("aside", { class: "sheet-side" }, panel));
}
