"""Draw the app's PNG icons (the web manifest's, issue 24) from ``static/favicon.svg``; run it after changing that.

    python tools/make_icons.py

Chromium wants PNG icons of 192 and 512 px to install a web app, one of them "maskable": drawn to the edges, with
what matters inside the middle 80 % (the launcher cuts the icon to its own shape, a circle or a rounded square).
The PNGs are committed, so serving needs neither this script nor a browser; the script renders the SVG with
Debian's Chromium through Playwright (the browser tests' setup), so the PNGs look as the browser draws the SVG.

- ``icon-192.png``, ``icon-512.png``: the favicon as it is, on a transparent ground ("any");
- ``icon-maskable-192.png``, ``icon-maskable-512.png``: the favicon at 62 % on the header's green, edge to edge.
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "src" / "bummerl" / "server" / "static"
CHROMIUM = "/usr/bin/chromium"
#: The header's green (style.css --topbar), also the manifest's theme and background colour.
GROUND = "#10361d"
SIZES = (192, 512)
#: The part of a maskable icon the favicon takes: well inside the 80 % circle that every mask keeps.
MASKABLE_SCALE = 0.62


def page_html(svg: str, size: int, maskable: bool) -> str:
    data = base64.b64encode(svg.encode()).decode()
    inner = round(size * MASKABLE_SCALE) if maskable else size
    ground = GROUND if maskable else "transparent"
    return (
        f"<html><body style='margin:0;background:{ground};width:{size}px;height:{size}px;display:grid;"
        f"place-items:center'><img src='data:image/svg+xml;base64,{data}' width='{inner}' height='{inner}'>"
        "</body></html>"
    )


def main() -> None:
    svg = (STATIC / "favicon.svg").read_text()
    out = STATIC / "icons"
    out.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        for size in SIZES:
            for maskable in (False, True):
                page = browser.new_page(viewport={"width": size, "height": size})
                page.set_content(page_html(svg, size, maskable))
                name = f"icon-maskable-{size}.png" if maskable else f"icon-{size}.png"
                page.screenshot(path=str(out / name), omit_background=not maskable)
                page.close()
                print(out / name)
        browser.close()


if __name__ == "__main__":
    main()
