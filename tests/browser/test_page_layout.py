"""The page in Chromium as a reader meets it: on a phone, while results change, in the filter
lists, on the cards (copy buttons, folds, links, math, contrast) and in what it downloads."""

from __future__ import annotations

import pytest

from tests.browser.conftest import CHROMIUM, TIMEOUT

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)"),
]


def _in_view(page, selector: str) -> bool:  # type: ignore[no-untyped-def]
    """Whether the element's box lies within the viewport and nothing covers its centre."""
    return page.eval_on_selector(selector, """(element) => {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) return false;
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + Math.min(box.height / 2, 20));
      return element.contains(hit);
    }""")


def test_on_a_phone_the_sidebar_starts_closed_and_the_query_and_first_result_are_in_view(browser, server) -> None:  # type: ignore[no-untyped-def]
    base, _ = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(base + "?q=tensor+product+right+exact")
    page.wait_for_selector("#card-1")
    page.wait_for_timeout(500)  # the load script has run
    assert "open" not in (page.get_attribute(".sidebar", "class") or "")
    assert _in_view(page, "#query textarea, #query input")
    assert _in_view(page, "#card-1 .ts-name")
    page.click(".sidebar .toggle-button")  # the filters are one tap away
    page.wait_for_selector(".sidebar.open")
    page.wait_for_function("document.querySelector('.sidebar').getBoundingClientRect().left >= 0")
    page.wait_for_timeout(300)  # the slide has ended
    assert _in_view(page, "#filter-source")
    context.close()


def test_on_a_wide_screen_the_sidebar_opens(page, server) -> None:  # type: ignore[no-untyped-def]
    base, _ = server
    page.goto(base)
    page.wait_for_selector(".sidebar.open")
    page.wait_for_function("document.querySelector('.sidebar').getBoundingClientRect().left >= 0")
    page.wait_for_timeout(300)  # the slide has ended
    assert _in_view(page, "#filter-source") and _in_view(page, "#query textarea, #query input")


def test_old_cards_are_never_shown_as_the_answer_to_a_new_query(page, server) -> None:  # type: ignore[no-untyped-def]
    """Frame by frame while a search is answered: whenever the heading names the new query
    and the first card is still an old one, the results are dimmed as loading."""
    base, _ = server
    page.goto(base + "?q=multiplication+is+commutative")
    page.wait_for_selector("#card-1")
    assert page.inner_text("#card-1 .ts-name") == "mul_comm"
    page.evaluate("""() => {
      window.__frames = [];
      const look = () => {
        const heading = document.querySelector("#results-heading")?.innerText || "";
        const first = document.querySelector("#card-1 .ts-name")?.innerText || "";
        window.__frames.push([heading, first, document.body.classList.contains("ts-searching")]);
        requestAnimationFrame(look);
      };
      look();
    }""")
    box = page.locator("#query").get_by_role("textbox")
    box.fill("tensor product right exact")
    box.press("Enter")
    page.wait_for_function("document.querySelector('#card-1 .ts-name')?.innerText.startsWith('Lemma')")
    page.wait_for_function("!document.body.classList.contains('ts-searching')")
    frames = page.evaluate("window.__frames")
    assert any(loading for *_, loading in frames)  # the loading state showed
    assert [f for f in frames if "tensor product" in f[0] and f[1] == "mul_comm" and not f[2]] == []
    assert page.eval_on_selector("#card-1", "e => getComputedStyle(e).opacity") == "1"


def test_a_search_without_results_to_draw_ends_its_loading_state(page, server) -> None:  # type: ignore[no-untyped-def]
    base, _ = server
    page.goto(base)
    page.wait_for_selector("#status")
    page.locator("#query").get_by_role("textbox").press("Enter")  # an empty query: a hint, no cards
    page.wait_for_function("document.querySelector('#status').innerText.includes('Type a query')")
    page.wait_for_function("!document.body.classList.contains('ts-searching')", timeout=5000)
    assert "Searching" not in page.inner_text("#status")


def test_a_filter_list_closes_after_a_pick_and_loads_its_choices_when_opened(page, server) -> None:  # type: ignore[no-untyped-def]
    base, _ = server
    page.goto(base + "?q=ring")
    page.wait_for_selector("#card-1")
    page.click("#filter-source input[role=combobox]")
    page.click("[role=option][aria-label='stacks']")
    page.wait_for_function("document.querySelectorAll('[role=option]').length === 0")  # closed, no Escape
    page.click("#filter-kind input[role=combobox]")  # nothing covers the next list
    page.wait_for_selector("#filter-kind [role=option], [role=option]")
    kinds = page.eval_on_selector_all("[role=option]", "options => options.map(o => o.getAttribute('aria-label'))")
    assert kinds and set(kinds) <= {"lemma", "theorem", "definition", "remark", "proposition"}, kinds
    assert "def" not in kinds  # narrowed to what Stacks has, loaded when opened
    page.click(f"[role=option][aria-label='{kinds[0]}']")
    page.wait_for_function(f"document.querySelector('#share textarea, #share input').value.includes('kind={kinds[0]}')")


def test_vote_buttons_say_what_they_do(page, server) -> None:  # type: ignore[no-untyped-def]
    base, _ = server
    page.goto(base + "?q=ring")
    page.wait_for_selector("#card-1")
    assert page.inner_text("#card-1 .ts-up").strip().endswith("Relevant")
    assert page.inner_text("#card-1 .ts-down").strip().endswith("Not relevant")


def test_copy_buttons_put_the_lean_name_check_and_import_on_the_clipboard(browser, server) -> None:  # type: ignore[no-untyped-def]
    base, _ = server
    context = browser.new_context(viewport={"width": 1300, "height": 900}, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(base + "?id=mathlib%3Amul_comm")
    page.wait_for_selector("#card-0 .ts-copy")
    copied = []
    for label in ("name", "#check", "import"):
        page.click(f"#card-0 .ts-copy:text-is('{label}')")
        page.wait_for_selector(f"#card-0 .ts-copy.ts-copied:text-is('{label}')")
        copied.append(page.evaluate("navigator.clipboard.readText()"))
    assert copied == ["mul_comm", "#check mul_comm", "import Mathlib.Algebra.Group.Basic"]
    context.close()


def test_long_statements_fold_and_show_all_unfolds(page, server) -> None:  # type: ignore[no-untyped-def]
    base, _ = server
    page.goto(base + "?id=books%3Athm%3Auses-lemma")
    page.wait_for_selector("#card-0 .ts-fold")
    folded = page.eval_on_selector("#card-0 .ts-fold", "e => [e.clientHeight, e.scrollHeight]")
    assert folded[0] < folded[1]  # part of the statement is hidden
    page.click("#card-0 .ts-more summary")
    page.wait_for_function("(() => { const e = document.querySelector('#card-0 .ts-fold'); "
                           "return e.clientHeight >= e.scrollHeight; })()")
    assert page.inner_text("#card-0 .ts-more summary").strip() == "show less"


def _contrast(page, selector: str) -> float:  # type: ignore[no-untyped-def]
    """WCAG contrast ratio of an element's text colour with the first opaque background behind it."""
    return page.eval_on_selector(selector, """(element) => {
      const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
      const luminance = ([r, g, b]) => [r, g, b].map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; })
        .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
      let back = element;
      while (back && (rgb(getComputedStyle(back).backgroundColor)[3] ?? 1) === 0) back = back.parentElement;
      const [a, b] = [luminance(rgb(getComputedStyle(element).color)), luminance(rgb(getComputedStyle(back || document.body).backgroundColor))];
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    }""")


def test_the_place_and_score_line_meets_wcag_aa_contrast(page, server) -> None:  # type: ignore[no-untyped-def]
    base, _ = server
    page.goto(base + "?q=multiplication+is+commutative")
    page.wait_for_selector("#card-1 .ts-where")
    for selector in ("#card-1 .ts-where", "#card-1 .ts-score", "#card-1 .ts-signals"):
        assert _contrast(page, selector) >= 4.5, selector


def test_book_math_renders_without_errors_and_refs_and_docstring_links_are_links(page, server) -> None:  # type: ignore[no-untyped-def]
    base, _ = server
    page.goto(base + "?id=books%3Alem%3Aright-exact")
    page.wait_for_selector("#card-0 .katex")
    page.wait_for_timeout(300)
    assert page.locator("#card-0 .katex").count() >= 4
    assert page.locator("#card-0 .katex-error, #card-0 [mathcolor='#cc0000']").count() == 0  # no red
    assert page.locator("#card-0 .ts-name").inner_text() == "Lemma (Right exactness)"
    page.goto(base + "?id=books%3Athm%3Auses-lemma")
    page.wait_for_selector("#card-0 .ts-latex a")
    link = page.locator("#card-0 .ts-latex a", has_text="Lemma (Right exactness)")
    assert link.get_attribute("href") == "?id=books%3Alem%3Aright-exact"
    page.goto(base + "?id=links%3ASubmodule.eq_bot_of_le_smul_of_le_jacobson_bot")
    page.wait_for_selector("#card-0 .ts-doc")
    stacks = page.locator("#card-0 .ts-doc a", has_text="Stacks 00DV")
    assert stacks.get_attribute("href") == "https://stacks.math.columbia.edu/tag/00DV"
    assert "[this](javascript:window.__xss=30)" in page.inner_text("#card-0 .ts-doc")
    assert page.locator("a[href^='javascript']").count() == 0
