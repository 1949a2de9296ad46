// Keep the links of a view that lives in the query string on the current query: "link to this
// view" links (also the embed page's link back) and the "Cite / embed this view" box.
// The iframe snippet is HTML text: a value put into it is escaped for HTML (as the template's
// embed-snippet.html does), so that a query can never close the attribute.
const ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;"};
const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

export function citeView(query, {csv} = {}) {
  for (const link of document.querySelectorAll("a[data-view-link]")) {
    const target = new URL(link.getAttribute("href"), location.href);  // absolute, as the build wrote it
    target.search = query;
    link.href = target.href;
  }
  const box = document.getElementById("view-cite");
  if (!box) return;
  const embedUrl = box.dataset.embedUrl + query;
  box.querySelector("a[data-view-embed]").href = embedUrl;
  const iframe = box.querySelector("input[data-view-iframe]");
  iframe.value = iframe.value.replace(/src="[^"]*"/, () => `src="${escapeHtml(embedUrl)}"`);
  const link = box.querySelector("a[data-view-csv]");
  if (link && csv) {
    link.onclick = () => {
      if (link.dataset.url) URL.revokeObjectURL(link.dataset.url);
      link.dataset.url = URL.createObjectURL(new Blob([csv()], {type: "text/csv"}));
      link.href = link.dataset.url;
      link.download = "view.csv";
    };
  }
}
