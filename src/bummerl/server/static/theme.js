// The colour theme (issue 24): "system" (the page follows `prefers-color-scheme`), "light" or "dark", remembered in
// `localStorage` `bummerl.theme`.
//
// A classic script, loaded in the <head> before the style sheets and before any module: it runs while the page is
// parsed, so a page in the dark theme is dark from its first paint, never a flash of the light one (a module runs
// only after parsing). It sets <html data-theme="system|light|dark"> (style.css turns light and dark into
// `color-scheme`, whose light-dark() colours follow) and the color-scheme <meta> (the browser's own parts: the
// canvas before the CSS, scroll bars, form controls).
//
// The header's switch (app.js) reads the choice from `document.documentElement.dataset.theme` and changes it with
//   document.dispatchEvent(new CustomEvent("bummerl:theme", { detail: "dark" }));
// which this script applies and remembers. The choice lives here alone.
(() => {
  const KEY = "bummerl.theme";
  const CHOICES = ["system", "light", "dark"];
  const root = document.documentElement;

  function apply(choice) {
    const theme = CHOICES.includes(choice) ? choice : "system";
    root.dataset.theme = theme;
    const meta = document.querySelector('meta[name="color-scheme"]');
    if (meta) meta.content = theme === "system" ? "light dark" : theme;
    return theme;
  }

  let stored = null;
  try {
    stored = localStorage.getItem(KEY);
  } catch {
    // No storage (a locked-down browser): the system's theme.
  }
  apply(stored);

  document.addEventListener("bummerl:theme", (event) => {
    const theme = apply(event.detail);
    try {
      localStorage.setItem(KEY, theme);
    } catch {
      // No storage: the choice holds for this visit only.
    }
  });
})();
