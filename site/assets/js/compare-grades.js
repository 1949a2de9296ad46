// Compare warns when the runs behind the picked series differ in grade (schema/run-quality.yaml):
// each series' grades are those of its values' rows (data-grade; a value not from a graded run is
// "not graded"), and two series whose sets of grades differ are not equally sound measurements.
export function warnGrades(ids, values, note, labelOf) {
  const grades = new Map(ids.map((id) => [id, new Set()]));
  for (const row of values.tBodies[0].rows) grades.get(row.dataset.series)?.add(row.dataset.grade || "not graded");
  const texts = ids.map((id) => [...grades.get(id)].sort().join(", ") || "no values");
  const differ = ids.length > 1 && new Set(texts).size > 1;
  note.hidden = !differ;
  note.dataset.differs = differ ? "true" : "false";
  note.querySelector("span").textContent = differ
    ? `The runs behind these series differ in grade: ${ids.map((id, i) => `${labelOf(id)}: ${texts[i]}`).join("; ")}.`
    : "";
}
