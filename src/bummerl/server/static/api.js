// Talking to the server (docs/web.md) and remembering things in the browser (localStorage).
//
//   import { api, seats, prefs, TableSocket } from "./api.js";
//   const table = await api("POST", "/api/tables", { variant: "schnapsen", opponent: "random" });
//   seats.save(table.table_id, { token: table.token, seat: table.seat });
//   const sock = new TableSocket(table.table_id, table.token, { onMessage, onStatus });   // any variant
//
// The page keeps no game logic: what may be played always comes from the server's `legal` list.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * An address from the server, made absolute against this page's own: an invitation link is only a path
 * (`/#/join/CODE`) when the server is given no public address (docs/security.md).
 */
export function absoluteUrl(url) {
  return new URL(url, location.href).href;
}

/** A JSON request; throws ApiError with the server's message on a non-2xx answer. */
export async function api(method, path, body = undefined, headers = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { detail: { code: "bad_answer", message: text.slice(0, 200) } };
    }
  }
  if (!response.ok) {
    const detail = data && data.detail;
    let message = `HTTP ${response.status}`;
    let code = null;
    if (detail && typeof detail === "object" && !Array.isArray(detail)) {
      message = detail.message || message;
      code = detail.code || null;
    } else if (Array.isArray(detail)) {
      message = detail.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
      code = "invalid";
    } else if (typeof detail === "string") {
      message = detail;
    }
    throw new ApiError(response.status, code, message);
  }
  return { status: response.status, data };
}

/**
 * A request from a page that shows that it waits: `page.busy` while it runs (`page.error` cleared), and on a
 * refusal `page.error` says why (the text `describe(err)` makes); `page.render()` shows each change.
 * Resolves to the answer's data, or null when refused.
 */
export async function pageRequest(page, method, path, body, { headers = {}, describe = (err) => err.message } = {}) {
  page.busy = true;
  page.error = null;
  page.render();
  try {
    const { data } = await api(method, path, body, headers);
    page.busy = false;
    return data;
  } catch (err) {
    page.busy = false;
    page.error = describe(err);
    page.render();
    return null;
  }
}

// ------------------------------------------------------------------ localStorage
function load(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private windows may refuse storage; the page still works for this visit.
  }
}

/** Language and card faces, remembered across visits. */
export const prefs = {
  get lang() {
    const value = load("bummerl.lang", null);
    if (value === "de" || value === "en") return value;
    return (navigator.language || "de").toLowerCase().startsWith("de") ? "de" : "en";
  },
  set lang(value) {
    store("bummerl.lang", value);
  },
  get faces() {
    const value = load("bummerl.faces", "german");
    return value === "french" ? "french" : "german";
  },
  set faces(value) {
    store("bummerl.faces", value);
  },
  get name() {
    return load("bummerl.name", "");
  },
  set name(value) {
    store("bummerl.name", value);
  },
};

/** Seat tokens by table id: the secret that lets this browser take its seat again after a reload. */
export const seats = {
  all() {
    const value = load("bummerl.seats", {});
    return value && typeof value === "object" ? value : {};
  },
  get(tableId) {
    return this.all()[tableId] || null;
  },
  save(tableId, seat) {
    const all = this.all();
    all[tableId] = { ...seat, saved: Date.now() };
    store("bummerl.seats", all);
  },
  forget(tableId) {
    const all = this.all();
    delete all[tableId];
    store("bummerl.seats", all);
  },
};

// ------------------------------------------------------------------ the table's WebSocket
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];
// The server closes a socket that sends nothing for its idle timeout (120 s by default, docs/security.md); a ping
// every 25 s stays well under it, also when a background tab's timers are slowed to one run a minute.
const PING_MS = 25000;

/**
 * One table's WebSocket that reconnects by itself: after a lost connection it waits 0.5 s, 1 s, 2 s, ...
 * (at most 15 s) and sends `hello` with the same seat token, so the server answers with the table as it
 * stands. `onStatus(kind, info)` reports "connecting", "open", "retry" ({seconds}) and "gone" (unknown table).
 * One path for every variant (`/ws/tables/ID`); the `kind` of `welcome` and `state` says which view follows,
 * and `attach()` hands the socket to the page that draws that kind.
 */
export class TableSocket {
  constructor(tableId, token, { onMessage, onStatus }) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.timer = null;
    this.pingTimer = null;
    this._wake = () => {
      if (!this.closed && (!this.ws || this.ws.readyState === WebSocket.CLOSED)) this.reconnectNow();
    };
    window.addEventListener("online", this._wake);
    document.addEventListener("visibilitychange", this._wake);
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  /** Send what arrives from now on to other handlers (the page that draws the table's kind). */
  attach({ onMessage, onStatus }) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
  }

  connect() {
    if (this.closed) return;
    this.onStatus("connecting", {});
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token || null }));
    };
    ws.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "welcome") {
        this.attempt = 0;
        this.onStatus("open", {});
      }
      if (message.type === "pong") return;
      this.onMessage(message);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      if (this.closed) return;
      if (event.code === 4404) {
        this.onStatus("gone", {});
        return;
      }
      const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      this.onStatus("retry", { seconds: Math.round(delay / 100) / 10 });
      this.timer = setTimeout(() => this.connect(), delay);
    };
    // A ping now and then keeps the server (and proxies) from closing an idle socket while a player thinks.
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
  }

  reconnectNow() {
    clearTimeout(this.timer);
    const state = this.ws ? this.ws.readyState : WebSocket.CLOSED;
    if (state === WebSocket.OPEN || state === WebSocket.CONNECTING) return;
    this.attempt = 0;
    this.connect();
  }

  /** Send a message if connected; returns whether it went out. */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    window.removeEventListener("online", this._wake);
    document.removeEventListener("visibilitychange", this._wake);
    if (this.ws) this.ws.close();
  }
}
