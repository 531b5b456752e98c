// The service worker (static/sw.js) and the theme script (static/theme.js), run in a sandbox of Node's vm with the
// few browser objects they touch: what the worker caches and answers, what it leaves alone, and how the theme is
// chosen, applied and remembered.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import vm from "node:vm";

const STATIC = new URL("../../src/bummerl/server/static/", import.meta.url);
const ORIGIN = "https://bummerl.example";
const SHELL = ["/app.js", "/style.css", "/i18n/de.json", "/offline.html"];

/** Caches of the sandbox: name -> Map(url -> body). */
function fakeCaches(stored = {}) {
  const all = new Map(Object.entries(stored).map(([name, files]) => [name, new Map(Object.entries(files))]));
  const open = async (name) => {
    if (!all.has(name)) all.set(name, new Map());
    const cache = all.get(name);
    return {
      addAll: async (requests) => {
        for (const r of requests) cache.set(new URL(r.url, ORIGIN).pathname, `fresh ${r.url} ${r.cache}`);
      },
      put: async () => assert.fail("the worker never puts a response into a cache"),
    };
  };
  const match = async (request, options = {}) => {
    const path = new URL(typeof request === "string" ? request : request.url, ORIGIN).pathname;
    for (const [name, cache] of all) {
      if (options.cacheName && options.cacheName !== name) continue;
      if (cache.has(path)) return { body: cache.get(path) };
    }
    return undefined;
  };
  return { all, api: { open, match, keys: async () => [...all.keys()], delete: async (n) => all.delete(n) } };
}

/** sw.js as the server sends it (its first lines), run in a sandbox; `network` answers its fetches. */
function worker({ network, stored } = {}) {
  const listeners = {};
  const caches = fakeCaches(stored);
  const fetched = [];
  const sandbox = {
    self: {
      location: { origin: ORIGIN },
      addEventListener: (type, f) => (listeners[type] = f),
      skipWaiting: async () => {},
      clients: { claim: async () => {} },
    },
    caches: caches.api,
    fetch: async (request) => {
      fetched.push(request.url || request);
      return network(request);
    },
    Request: class {
      constructor(url, init = {}) {
        this.url = url;
        this.cache = init.cache;
      }
    },
    Response: { error: () => ({ error: true }) },
    URL,
    Set,
  };
  const head = `const SHELL_VERSION = "v2";\nconst SHELL_FILES = ${JSON.stringify(SHELL)};\n`;
  vm.runInNewContext(head + readFileSync(new URL("sw.js", STATIC), "utf8"), sandbox);
  const run = async (type, event) => {
    const waits = [];
    let answer = null;
    listeners[type]({ ...event, waitUntil: (p) => waits.push(p), respondWith: (p) => (answer = p) });
    await Promise.all(waits);
    return answer === null ? null : await answer;
  };
  const get = (path, mode = "cors", method = "GET") => ({ request: { url: ORIGIN + path, mode, method } });
  return { run, get, caches: caches.all, fetched };
}

describe("sw.js", () => {
  test("install fills the version's cache with the shell from the server, activate deletes the older ones", async () => {
    const w = worker({ stored: { "bummerl-shell-v1": { "/app.js": "old" }, "other-app": { "/x": "x" } } });
    await w.run("install", {});
    assert.deepEqual([...w.caches.get("bummerl-shell-v2").keys()], SHELL);
    assert.equal(w.caches.get("bummerl-shell-v2").get("/app.js"), "fresh /app.js reload"); // not the HTTP cache's
    await w.run("activate", {});
    assert.deepEqual([...w.caches.keys()].sort(), ["bummerl-shell-v2", "other-app"]); // another app's cache stays
  });

  test("a shell file comes from the cache; the API, a query, a POST and another origin are not answered", async () => {
    const w = worker({ network: async () => ({ status: 200, body: "net" }) });
    await w.run("install", {});
    assert.equal((await w.run("fetch", w.get("/style.css"))).body, "fresh /style.css reload");
    assert.equal(w.fetched.length, 0);
    for (const event of [
      w.get("/api/tables/x"),
      w.get("/api/players/me"),
      w.get("/style.css?v=2"),
      w.get("/unknown.js"),
      w.get("/app.js", "cors", "POST"),
      { request: { url: "https://elsewhere.example/app.js", mode: "cors", method: "GET" } },
    ]) {
      assert.equal(await w.run("fetch", event), null, event.request.url); // the browser goes to the network itself
    }
  });

  test("a page comes from the network; without one, or behind a proxy whose server is down, the offline page", async () => {
    let answer = { status: 200, body: "the page" };
    const w = worker({
      network: async () => {
        if (answer === "down") throw new TypeError("Failed to fetch");
        return answer;
      },
    });
    await w.run("install", {});
    const page = w.get("/", "navigate");
    assert.equal((await w.run("fetch", page)).body, "the page");
    answer = { status: 404, body: "not found" };
    assert.equal((await w.run("fetch", page)).body, "not found"); // the server's own answer stands
    for (const down of ["down", { status: 502 }, { status: 504 }]) {
      answer = down;
      assert.equal((await w.run("fetch", page)).body, "fresh /offline.html reload");
    }
  });
});

/** theme.js run in a sandbox with a stored choice and the system's scheme left to CSS. */
function themePage(stored) {
  const listeners = {};
  const storage = new Map(stored === undefined ? [] : [["bummerl.theme", stored]]);
  const meta = { content: "light dark" };
  const document = {
    documentElement: { dataset: {} },
    querySelector: (selector) => (selector === 'meta[name="color-scheme"]' ? meta : null),
    addEventListener: (type, f) => (listeners[type] = f),
  };
  const localStorage = { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => storage.set(k, v) };
  vm.runInNewContext(readFileSync(new URL("theme.js", STATIC), "utf8"), { document, localStorage });
  const choose = (detail) => listeners["bummerl:theme"]({ detail });
  return { root: document.documentElement, meta, storage, choose };
}

describe("theme.js", () => {
  test("without a choice the page follows the system", () => {
    const page = themePage(undefined);
    assert.equal(page.root.dataset.theme, "system");
    assert.equal(page.meta.content, "light dark");
  });

  test("a stored choice is applied at once; an unknown one is the system's", () => {
    assert.equal(themePage("dark").root.dataset.theme, "dark");
    assert.equal(themePage("dark").meta.content, "dark");
    assert.equal(themePage("light").meta.content, "light");
    assert.equal(themePage("purple").root.dataset.theme, "system");
  });

  test("the switch's event applies and remembers the choice", () => {
    const page = themePage("light");
    page.choose("dark");
    assert.equal(page.root.dataset.theme, "dark");
    assert.equal(page.storage.get("bummerl.theme"), "dark");
    page.choose("system");
    assert.equal(page.meta.content, "light dark");
    assert.equal(page.storage.get("bummerl.theme"), "system");
  });

  test("without storage (a locked-down browser) it still applies the choice", () => {
    const document = {
      documentElement: { dataset: {} },
      querySelector: () => null,
      addEventListener: (type, f) => (document.listener = f),
    };
    const localStorage = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    vm.runInNewContext(readFileSync(new URL("theme.js", STATIC), "utf8"), { document, localStorage });
    assert.equal(document.documentElement.dataset.theme, "system");
    document.listener({ detail: "dark" });
    assert.equal(document.documentElement.dataset.theme, "dark");
  });
});
