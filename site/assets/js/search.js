// The search page: asks the Pagefind index (written at build time, public/pagefind/) for the words in
// ?q= and lists the pages found, each with its kind, an excerpt with the words marked, and the sections
// of the page that hold them. The excerpts are rebuilt as text and <mark> elements only: no markup of
// the index is ever assigned.

const form = document.getElementById("search");
const input = document.getElementById("search-q");
const status = document.getElementById("search-status");
const list = document.getElementById("search-results");
const SHOWN = 20;       // pages listed
const SECTIONS = 3;     // sections listed under a page

// The index is in parts (ingest/build/search_index.py): the main one beside pagefind.js, and those that
// parts.json lists there, merged into it.
let pagefind = null;
async function engine() {
  if (!pagefind) {
    const folder = new URL(".", new URL(form.dataset.bundle, location.href));
    const loaded = await import(form.dataset.bundle);
    await loaded.options({baseUrl: form.dataset.base});
    const parts = await (await fetch(new URL("parts.json", folder))).json();
    await Promise.all(parts.map((part) => loaded.mergeIndex(new URL(part, folder).pathname)));
    loaded.init();
    pagefind = loaded;
  }
  return pagefind;
}

// An excerpt as nodes: its text, and its <mark>ed words as <mark> elements (Pagefind marks the words
// found; anything else that looks like markup is kept as the text it holds).
function excerpt(html) {
  const doc = new DOMParser().parseFromString(`<p>${html}</p>`, "text/html");
  const out = document.createElement("p");
  out.className = "search-excerpt";
  for (const node of doc.body.firstChild.childNodes) {
    if (node.nodeName === "MARK") {
      const mark = document.createElement("mark");
      mark.textContent = node.textContent;
      out.append(mark);
    } else {
      out.append(node.textContent);
    }
  }
  return out;
}

function link(url, text) {
  const a = document.createElement("a");
  a.href = url;
  a.textContent = text;
  return a;
}

function item(data) {
  const li = document.createElement("li");
  const head = document.createElement("p");
  head.className = "search-title";
  head.append(link(data.url, data.meta.title || data.url));
  if (data.meta.kind) {
    const kind = document.createElement("span");
    kind.className = "search-kind";
    kind.textContent = data.meta.kind;
    head.append(" ", kind);
  }
  li.append(head, excerpt(data.excerpt));
  const sections = (data.sub_results || []).filter((s) => s.url !== data.url).slice(0, SECTIONS);
  if (sections.length) {
    const ul = document.createElement("ul");
    for (const s of sections) {
      const sub = document.createElement("li");
      sub.append(link(s.url, s.title), excerpt(s.excerpt));
      ul.append(sub);
    }
    li.append(ul);
  }
  return li;
}

let asked = 0;
async function find(query) {
  const mine = ++asked;
  list.replaceChildren();
  if (!query.trim()) {
    status.textContent = "Type words to find in the studies, systems, claims and notes.";
    return;
  }
  status.textContent = "Searching…";
  const found = await (await engine()).search(query);
  const shown = await Promise.all(found.results.slice(0, SHOWN).map((r) => r.data()));
  if (mine !== asked) return;  // a later search has started
  list.replaceChildren(...shown.map(item));
  const n = found.results.length;
  status.textContent = n === 0 ? `No page holds “${query}”.`
    : `${n} page${n === 1 ? "" : "s"} hold${n === 1 ? "s" : ""} “${query}”${n > SHOWN ? `; the first ${SHOWN} are listed` : ""}.`;
}

const query = new URLSearchParams(location.search).get("q") ?? "";
input.value = query;
for (const box of document.querySelectorAll('input[name="q"]')) box.value = query;
form.addEventListener("submit", (event) => {
  event.preventDefault();
  history.pushState(null, "", `?q=${encodeURIComponent(input.value)}`);
  find(input.value);
});
window.addEventListener("popstate", () => {
  input.value = new URLSearchParams(location.search).get("q") ?? "";
  find(input.value);
});
find(query).catch((error) => {
  status.textContent = `The search index could not be loaded (${error.message}).`;
});
