"""Issue #59's walk: a storage engineer with a question starts on the home page, at 1280 and 375 px,
follows the question's link (one click), and finds it answered in one sentence of at most 30 words,
with its certainty and its studies, whole in the first screen of the page it lands on. Over the whole
catalogue: the persona's three questions (does SupremeRAID beat MD RAID, optimal and rebuilding? what
does turning doublewrite off buy? which protocol is fastest?), RAID 5 against RAID 10, and ext4 or XFS."""

from __future__ import annotations

import re

import pytest

# (the question as the home page links it, the page it lands on, how its answer's sentence begins)
QUESTIONS = [
    ("Which storage product gives more, at the same RAID level, and by how much?", "/storage-product/",
     "SupremeRAID SR-1010 against Linux MD RAID: "),
    ("What does turning InnoDB doublewrite off change?", "/doublewrite/", "Doublewrite off against on: "),
    ("Which storage protocol gives more, on the same storage?", "/protocol/", "Fibre Channel gave the most "),
    ("What does one RAID level give against another on the same product?", "/raid-level/", "RAID level 5 against 10: "),
    ("What does one filesystem give against another on the same device?", "/filesystem/", "XFS against ext4: "),
]


@pytest.mark.parametrize("width,height", [(1280, 800), (375, 812)])
@pytest.mark.parametrize("question,path,begins", QUESTIONS, ids=[q[1].strip("/") for q in QUESTIONS])
def test_each_question_is_answered_in_one_sentence_in_the_first_screen(browser, catalogue_url, question, path,
                                                                       begins, width, height):
    page = browser.new_page(viewport={"width": width, "height": height})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(catalogue_url + "/")
    page.get_by_role("link", name=question).click()
    page.wait_for_url(catalogue_url + path)
    answers = page.locator(".evidence-answer, .evidence-answers-more li")
    texts = [" ".join(t.split()) for t in answers.all_inner_texts()]
    found = [i for i, t in enumerate(texts) if t.startswith(begins)]
    assert found, f"{path}: no answer begins {begins!r}: {texts}"
    sentence = texts[found[0]]
    assert len(sentence.split()) <= 30, sentence
    assert re.search(r"Certainty: (high|moderate|low|very low) \(", sentence), sentence
    assert re.search(r"\(\d+ studies|\(\w[^;)]* (19|20)\d\d[a-z]?[;,)]", sentence), f"no study named: {sentence}"
    box = answers.nth(found[0]).bounding_box()
    assert box is not None and box["y"] + box["height"] <= height, f"{path} at {width} px: {box} (screen {height})"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert errors == []
    page.close()
