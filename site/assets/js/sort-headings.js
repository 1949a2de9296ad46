// A table's sortable column headings (Explore's table, /sql/'s result, the catalogue of studies): each becomes a
// button; a click marks its heading aria-sort, ascending first and then the other way round (the other
// headings unmarked), and calls onSort(heading, ascending).
export function sortableHeadings(headings, onSort) {
  for (const th of headings) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    button.textContent = th.textContent;
    button.addEventListener("click", () => {
      const ascending = th.getAttribute("aria-sort") !== "ascending";
      for (const other of th.parentNode.cells) other.removeAttribute("aria-sort");
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      onSort(th, ascending);
    });
    th.replaceChildren(button);
  }
}
