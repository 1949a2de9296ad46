"""Issue #53's walk: a storage engineer with three questions starts on the home page, at 1280 and 375 px,
follows the question's link (one click), and finds the answer (its range, its grade, how many studies)
in the first screen of the page it lands on."""

from __future__ import annotations

import re

import pytest

# (the question as the home page links it, the page it lands on, what the answer must say), on the six
# studies the site tests are written against (tests/conftest.py: FIRST_SIX)
QUESTIONS = [
    # does SupremeRAID beat MD RAID, optimal and rebuilding, and by how much? (Graid's per-user tables)
    ("Which storage product gives more, at the same RAID level, and by how much?", "/storage-product/",
     [r"rebuilding \d+\.\d\d× to \d+\.\d\d×", r"optimal \d+\.\d\d× to \d+\.\d\d×", "⊕", r"in \d+ stud"]),
    # what does turning doublewrite off buy? (the measured studies, the failing 5 s runs apart)
    ("What does turning InnoDB doublewrite off change?", "/doublewrite/",
     [r"doublewrite off over on: \d+\.\d\d×", "⊕", r"in \d+ stud", "a run fails a run-quality rule"]),
    # which protocol is fastest? (NetApp TR-3693: FCP, iSCSI, NFS)
    ("Which storage protocol gives more, on the same storage?", "/protocol/",
     [r"\d+\.\d\d×", "⊕", r"in \d+ stud"]),
]


@pytest.mark.parametrize("width,height", [(1280, 800), (375, 812)])
@pytest.mark.parametrize("question,path,says", QUESTIONS, ids=[q[1].strip("/") for q in QUESTIONS])
def test_each_question_is_answered_in_the_first_screen_one_click_from_home(browser, site_url, question, path,
                                                                             says, width, height):
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site_url + "/")
    page.get_by_role("link", name=question).click()
    page.wait_for_url(site_url + path)
    answer = page.locator(".evidence-answer").first
    box = answer.bounding_box()
    assert box is not None and box["y"] < height, f"{path}: the answer starts below the first screen"
    # where on the screen each of its range, grade and studies is printed: the first of each must be in
    # the first screen (a regular expression's first match, measured as the range of its characters)
    tops = page.evaluate("""([el, patterns]) => patterns.map((p) => {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const m = new RegExp(p).exec(n.textContent);
          if (!m) continue;
          const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
          return r.getBoundingClientRect().bottom;
        }
        return null;
    })""", [answer.element_handle(), [r"\d+\.\d\d×", "⊕", r"in \d+ stud"]])
    text = " ".join(answer.inner_text().split())
    for pattern in says:
        assert re.search(pattern, text), f"{path}: {pattern!r} not in the answer: {text}"
    assert all(top is not None and top <= height for top in tops), f"{path} at {width} px: {tops} (screen {height})"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert errors == []
    page.close()
