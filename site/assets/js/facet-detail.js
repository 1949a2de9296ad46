// A facet page's folded study whose comparisons are on a page of their own (facet.html: its
// data-detail, the page's path): opened the first time, the fold fetches that page (same origin) and
// puts its comparisons in place of the link to it, then draws their charts. Without scripts the link
// stays.
import {drawFigures} from "./charts.js";

async function fill(fold) {
  const body = fold.querySelector(".facet-study-body");
  try {
    const response = await fetch(fold.dataset.detail);
    if (!response.ok) throw new Error(`${fold.dataset.detail}: HTTP ${response.status}`);
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const found = page.querySelector(`.facet-study-body[data-study="${body.dataset.study}"]`);
    if (!found) throw new Error(`${fold.dataset.detail}: no comparisons of ${body.dataset.study}`);
    body.replaceWith(document.adoptNode(found));
    fold.dataset.filled = "";
    drawFigures(fold);
  } catch (error) {
    const note = document.createElement("p");
    note.className = "callout";
    note.textContent = `These comparisons could not be fetched (${error.message}): follow the link.`;
    body.append(note);
    delete fold.dataset.fetching;
  }
}

for (const fold of document.querySelectorAll("details[data-detail]")) {
  fold.addEventListener("toggle", () => {
    if (!fold.open || "fetching" in fold.dataset) return;
    fold.dataset.fetching = "";
    fill(fold);
  });
}
