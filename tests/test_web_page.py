"""The page of `crossprolog serve` in a real browser: Debian's headless Chromium, driven
through its chromedriver by Selenium (both installed by scripts/provision-chromium;
nothing is downloaded at run time).  A puzzle of each family pasted is drawn and
solved, hints lead to the end, a typo shows where it is, check draws what it finds,
and generate fills the text.  A screenshot of each family's page is kept in
build/web-screenshots/."""

from __future__ import annotations

import os
import shutil

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

import crossprolog
from conftest import EXAMPLES
from web_server import ROOT, served

PASTED = {"crossproduct": "crossproduct/riddler-1.txt", "crosscells": "crosscells/puzzle-25.txt",
          "sudoku": "sudoku/tarek-052.txt", "kenken": "kenken/issue-4x4-drawn.txt",
          "killer_sudoku": "killer_sudoku/shidoku-4x4-drawn.txt", "kakuro": "kakuro/tiny.txt"}
SCREENSHOTS = ROOT / "build" / "web-screenshots"
WAIT = 120  # seconds to wait for the page: a busy machine is slow, never a failure


@pytest.fixture(scope="module")
def server():
    with served("--workers", "2") as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not (chromium and driver):
        pytest.fail("Chromium and its chromedriver are missing: run scripts/provision-chromium "
                    "(Debian's packages chromium and chromium-driver)")
    os.environ["SE_OFFLINE"] = "true"  # Selenium's manager must never fetch a browser or driver
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    browser = webdriver.Chrome(options=options, service=Service(executable_path=driver))
    try:
        yield browser
    finally:
        browser.quit()


@pytest.fixture
def page(server, browser):
    """The page, loaded afresh and ready."""
    browser.get(server.url + "/")
    WebDriverWait(browser, WAIT).until(lambda b: b.find_element(By.TAG_NAME, "body")
                                       .get_attribute("data-ready") == "true")
    return browser


def paste(page, text: str) -> None:
    """Put `text` in the puzzle's box as a paste does: all at once, one input event."""
    box = page.find_element(By.ID, "text")
    page.execute_script("arguments[0].value = arguments[1];"
                        "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));", box, text)


def text_of(element) -> str:
    return element.get_attribute("textContent")


def drawings(page, container: str) -> list[str]:
    """The text drawings of the pictures shown in `container` (each an SVG, checked)."""
    figures = page.find_elements(By.CSS_SELECTOR, f"#{container} figure.drawing")
    assert all(figure.find_elements(By.TAG_NAME, "svg") for figure in figures)
    return [figure.get_attribute("data-text") for figure in figures]


def answered(page, statuses: tuple[str, ...]) -> str:
    """The status of the answer shown, once it is one of `statuses`."""
    WebDriverWait(page, WAIT).until(
        lambda p: p.find_element(By.ID, "result").get_attribute("data-status") in statuses)
    return page.find_element(By.ID, "result").get_attribute("data-status")


def wait_for(page, condition) -> None:
    WebDriverWait(page, WAIT).until(lambda p: condition())


@pytest.mark.parametrize("family", list(PASTED))
def test_a_pasted_puzzle_is_drawn_then_solved(page, cli, family):
    path = EXAMPLES / PASTED[family]
    paste(page, path.read_text())
    wait_for(page, lambda: drawings(page, "drawing"))
    assert drawings(page, "drawing") == [crossprolog.parse(path.read_text()).render()]
    page.find_element(By.ID, "solve").click()
    assert answered(page, ("solved", "unique", "error")) in ("solved", "unique")
    assert drawings(page, "result-drawings") == [cli("solve", path).out.rstrip("\n")]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    assert page.save_screenshot(str(SCREENSHOTS / f"{family}.png"))


def test_hint_by_hint_to_the_end_solves_the_puzzle(page, cli):
    path = EXAMPLES / "crossproduct" / "riddler-1.txt"
    paste(page, path.read_text())
    page.find_element(By.ID, "hint").click()
    assert answered(page, ("hint", "error")) == "hint"
    assert text_of(page.find_element(By.ID, "result-status")).startswith("fillings rule out digits in row 1 (135)")
    page.find_element(By.ID, "apply").click()  # one click puts the hint in the text
    wait_for(page, lambda: "# hint - " in page.find_element(By.ID, "text").get_property("value"))
    page.find_element(By.ID, "steps").click()
    wait_for(page, lambda: page.find_element(By.ID, "result").get_attribute("data-status") != "hint"
             and text_of(page.find_element(By.ID, "busy")) and not page.find_element(By.ID, "solve")
             .get_property("disabled"))
    assert answered(page, ("solved", "error", "stuck")) == "solved"
    assert text_of(page.find_element(By.ID, "result-status")) == "nothing is left open"
    text = page.find_element(By.ID, "text").get_property("value")
    assert text.endswith(cli("solve", path).out.rstrip("\n"))


def test_a_typo_shows_its_located_error_at_its_line(page):
    box = page.find_element(By.ID, "text")
    box.send_keys("3000 3969 640\n   ?    ?   ? 135\n   ?    x   ?  45\n")
    error = page.find_element(By.ID, "error")
    wait_for(page, lambda: error.is_displayed() and text_of(error))
    assert text_of(error).startswith("<text>:3:9: error: expected a digit, '?' or a product, found 'x'")
    assert text_of(page.find_element(By.CSS_SELECTOR, "#gutter .bad")) == "3"
    box.send_keys(Keys.BACKSPACE * 10 + "?   ?  45\n")  # the typo mended: the error goes, the drawing comes
    wait_for(page, lambda: not error.is_displayed())
    assert not page.find_elements(By.CSS_SELECTOR, "#gutter .bad")
    wait_for(page, lambda: drawings(page, "drawing") and "45" in drawings(page, "drawing")[0])


# Answers to /api/hint held back in the page until the test releases them: a slow hint,
# however fast the machine (the server answers at once; the page sees it later).
HOLD_HINTS = """
window.heldAnswers = [];
const fetchAnswer = window.fetch;
window.fetch = (path, init) => {
  const answered = fetchAnswer(path, init);
  if (!String(path).startsWith("/api/hint")) return answered;
  return answered.then((response) => new Promise((release) => window.heldAnswers.push(() => release(response))));
};
"""


def test_a_hint_that_comes_after_the_text_changed_never_replaces_it(page):
    kenken = (EXAMPLES / "kenken" / "issue-4x4.txt").read_text()
    paste(page, (EXAMPLES / "crossproduct" / "riddler-1.txt").read_text())
    page.execute_script(HOLD_HINTS)
    page.find_element(By.ID, "steps").click()
    wait_for(page, lambda: page.execute_script("return window.heldAnswers.length") == 1)
    paste(page, kenken)  # while the hint is worked out
    wait_for(page, lambda: drawings(page, "drawing") == [crossprolog.parse(kenken).render()])
    page.execute_script("window.heldAnswers.forEach((release) => release())")
    assert answered(page, ("outdated", "hint", "error")) == "outdated"
    wait_for(page, lambda: not page.find_element(By.ID, "stop").is_displayed())  # hint by hint stopped
    assert page.find_element(By.ID, "text").get_property("value") == kenken
    assert page.find_element(By.ID, "apply").get_property("disabled")
    assert text_of(page.find_element(By.ID, "result-status")) == \
        "the text changed while this was worked out: ask again"


def test_once_the_text_changes_the_answer_is_dimmed_and_a_typo_dims_the_drawing(page):
    riddler = (EXAMPLES / "crossproduct" / "riddler-1.txt").read_text()
    paste(page, riddler)
    page.find_element(By.ID, "solve").click()
    assert answered(page, ("solved", "unique", "error")) in ("solved", "unique")
    result, drawing = page.find_element(By.ID, "result"), page.find_element(By.ID, "drawing")
    assert result.get_attribute("data-outdated") is None
    paste(page, riddler.replace("?  45", "x  45"))
    wait_for(page, lambda: page.find_element(By.ID, "error").is_displayed())
    assert result.get_attribute("data-outdated") == "true" and drawing.get_attribute("data-outdated") == "true"
    assert text_of(page.find_element(By.ID, "detected")) == ""
    paste(page, riddler)
    wait_for(page, lambda: drawing.get_attribute("data-outdated") is None)
    assert result.get_attribute("data-outdated") == "true"  # no answer to this text yet


def test_the_error_is_marked_beside_its_line_in_a_wide_text_scrolled_down(page):
    """A line wider than the box gives the text a horizontal scrollbar, which the line
    numbers beside it must allow for, or they drift from their lines as it scrolls."""
    comments = [f"# comment {n}" + " wide" * 100 * (n == 1) for n in range(1, 56)]
    riddler = (EXAMPLES / "crossproduct" / "riddler-1.txt").read_text().splitlines()[1:]
    paste(page, "\n".join(comments + riddler[:-1] + [riddler[-1].replace("?   ?  70", "?   x  70")]))
    wait_for(page, lambda: page.find_elements(By.CSS_SELECTOR, "#gutter .bad"))
    assert text_of(page.find_element(By.CSS_SELECTOR, "#gutter .bad")) == "61"
    page.execute_script("const box = document.getElementById('text'); box.scrollTop = box.scrollHeight;")
    wait_for(page, lambda: page.execute_script(
        "return document.getElementById('text').scrollTop > 0 && "
        "document.getElementById('gutter').scrollTop > 0"))
    drift = page.execute_script("""
        const box = document.getElementById("text"), style = getComputedStyle(box);
        const lineTop = box.getBoundingClientRect().top + parseFloat(style.paddingTop)
            + 60 * parseFloat(style.lineHeight) - box.scrollTop;
        return document.querySelector("#gutter .bad").getBoundingClientRect().top - lineTop;""")
    assert abs(drift) < 2


def test_check_draws_the_conflict_and_two_solutions_apart(page):
    paste(page, (ROOT / "docs" / "examples" / "typo.txt").read_text())
    page.find_element(By.ID, "check").click()
    assert answered(page, ("unsolvable", "error")) == "unsolvable"
    assert "row 5 (71) is likely mistyped" in text_of(page.find_element(By.ID, "result-status"))
    assert drawings(page, "result-drawings")[0].splitlines()[-1] == "   ?    ?   ? [71]"
    paste(page, "2 2\n? ? 2\n? ? 2\n")
    page.find_element(By.ID, "check").click()
    assert answered(page, ("several", "error")) == "several"
    assert [d.splitlines()[1] for d in drawings(page, "result-drawings")] == ["[1] [2] 2", "[2] [1] 2"]
    assert "give 1 at row 1, column 1" in text_of(page.find_element(By.ID, "result-status"))


def test_check_with_minimal_ticked_names_and_marks_the_clues_to_spare(page):
    escargot = (EXAMPLES / "sudoku" / "ai-escargot.txt").read_text()
    paste(page, escargot.replace("1 . . | . . 7 | . 9 .", "1 6 2 | . . 7 | . 9 ."))
    minimal = page.find_element(By.ID, "minimal")
    minimal.click()
    try:
        page.find_element(By.ID, "check").click()
        assert answered(page, ("unique", "error")) == "unique"
        said = text_of(page.find_element(By.ID, "result-status"))
        assert said.startswith("well-formed, not minimal") and said.endswith("the 3 at row 2, column 2")
        assert "1 [6] [2] | . . 7 | . 9 ." in drawings(page, "result-drawings")[0].splitlines()
    finally:
        minimal.click()  # the page is shared by the tests after this one


def test_generate_puts_a_well_formed_puzzle_in_the_text(page, cli):
    Select(page.find_element(By.ID, "generate-family")).select_by_value("kenken")
    for name, value in (("rows", "4"), ("cols", "4"), ("seed", "3")):
        field = page.find_element(By.ID, name)
        field.clear()
        field.send_keys(value)
    page.find_element(By.ID, "generate").click()
    assert answered(page, ("generated", "error")) == "generated"
    made = cli("generate", "kenken", "--rows", "4", "--cols", "4", "--well-formed", "--seed", "3").out
    assert page.find_element(By.ID, "text").get_property("value") == made.rstrip("\n")
    page.find_element(By.ID, "check").click()
    assert answered(page, ("unique", "several", "unsolvable", "error")) == "unique"
