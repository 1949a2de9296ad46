// "On this page" follows the reader: the link of the section in view is marked (aria-current).
// Without this script the list is the same, unmarked.
const links = new Map([...document.querySelectorAll(".study-toc a")].map((a) => [a.hash.slice(1), a]));
const visible = new Set();
const mark = () => {
  const first = [...links.keys()].find((id) => visible.has(id));
  for (const [id, link] of links) {
    if (id === first) link.setAttribute("aria-current", "location");
    else link.removeAttribute("aria-current");
  }
};
const observer = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    const id = entry.target.getAttribute("aria-labelledby");
    if (entry.isIntersecting) visible.add(id);
    else visible.delete(id);
  }
  mark();
});
for (const id of links.keys()) {
  const section = document.querySelector(`section[aria-labelledby="${CSS.escape(id)}"]`);
  if (section) observer.observe(section);
}
