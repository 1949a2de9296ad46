// The picker's text filter: with thousands of series, a reader finds the ones to compare by typing part
// of a study's or a system's name. Studies and series that do not match are hidden; when few studies
// match, they are opened.
const OPEN_AT_MOST = 12;

export function findSeries(form) {
  const input = form.querySelector("#compare-find");
  const found = form.querySelector("#compare-found");
  const studies = [...form.querySelectorAll("details[data-study]")].map((details) => ({
    details, text: details.querySelector("summary").textContent.toLowerCase(),
    series: [...details.querySelectorAll("label")].map((label) => ({label, text: label.textContent.toLowerCase()})),
  }));
  input.closest("p").hidden = false;
  input.addEventListener("input", () => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shownStudies = 0;
    let shownSeries = 0;
    for (const study of studies) {
      let any = false;
      for (const s of study.series) {
        // every word in the study's name or the system's
        s.label.hidden = !words.every((w) => study.text.includes(w) || s.text.includes(w));
        any ||= !s.label.hidden;
        shownSeries += s.label.hidden ? 0 : 1;
      }
      study.details.hidden = !any;
      shownStudies += any ? 1 : 0;
    }
    for (const study of studies) {
      if (words.length && !study.details.hidden && shownStudies <= OPEN_AT_MOST) study.details.open = true;
    }
    found.textContent = words.length ? `${shownSeries} series in ${shownStudies} studies match.` : "";
  });
}
