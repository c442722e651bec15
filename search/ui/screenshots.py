"""Screenshots of the running app for the README and docs/: `python -m search.ui.screenshots [--url URL]`.

Start the app first (`python app.py --index index`); each shot opens a shareable search URL
in Debian's Chromium (Playwright), waits for the result cards and the typeset math, and
saves a PNG under `figures/`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from search import config

CHROMIUM = "/usr/bin/chromium"
#: File name -> the search it shows (a query string of the app) and whether to open
#: the "Used by" lists of the cards.
SHOTS = {
    "app_results.png": ("?q=fundamental+theorem+of+calculus&k=6", False),
    "app_filters.png": ("?q=Nakayama+lemma&source=stacks&source=cring&kind=lemma&k=6", False),
    "app_record.png": ("?id=mathlib%3AintervalIntegral.integral_eq_sub_of_hasDeriv_right_of_le", True),
    "app_linked.png": ("?q=Artinian+ring+is+Noetherian&k=4", False),
}


def take(url: str, out: Path, width: int = 1440, height: int = 1250) -> list[Path]:
    """Save every shot of SHOTS from the app at `url` into `out`."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    saved = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        page = browser.new_page(viewport={"width": width, "height": height})
        page.set_default_timeout(120_000)
        for name, (query, expand) in SHOTS.items():
            page.goto(url.rstrip("/") + "/" + query)
            page.wait_for_selector(".ts-card")
            page.wait_for_selector("#results-heading")
            if expand:
                for summary in page.locator(".ts-card summary").all():
                    summary.click()
            page.wait_for_timeout(1000)  # KaTeX typesets after the cards appear
            path = out / name
            page.screenshot(path=str(path))
            saved.append(path)
        browser.close()
    return saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=f"http://127.0.0.1:{config.APP_PORT}")
    parser.add_argument("--out", type=Path, default=config.REPO_DIR / "figures")
    args = parser.parse_args(argv)
    for path in take(args.url, args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
