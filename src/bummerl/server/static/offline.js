// The page the service worker (sw.js) shows in place of any page when the server cannot be reached: it says so in
// the player's language and tries again by itself when the browser is back online (or at the button).
// It must work from the cache alone: it loads only shell files (this, i18n.js and its JSON, api.js for the
// remembered language), never the API.

import { prefs } from "./api.js";
import { setLang, t } from "./i18n.js";

setLang(prefs.lang);
document.title = `Bummerl – ${t("offline_title")}`;
document.getElementById("offline-title").textContent = t("offline_title");
document.getElementById("offline-text").textContent = t("offline_text");
const retry = document.getElementById("offline-retry");
retry.textContent = t("offline_retry");
retry.addEventListener("click", () => location.reload());
window.addEventListener("online", () => location.reload());
