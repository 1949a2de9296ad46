// benchdb chart embeds that fit their content. On a page that shows benchdb iframes, include
//   <script src="https://<the benchdb site>/embed/resize.js" defer></script>
// and each of them takes the height its embed page reports (js/embed-height.js in the site's source).
// Only messages from the site this script was loaded from are heeded, and only for the iframe that
// sent them; a height is a number of CSS pixels between 100 and 5000. The iframe snippets themselves
// stay plain iframes: this file is the only script an embedding page takes from the site.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script) return;
  var origin = new URL(script.src).origin;
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (event.origin !== origin || !data || data.benchdb !== "embed-height") return;
    if (typeof data.height !== "number" || !isFinite(data.height)) return;
    var height = Math.max(100, Math.min(5000, Math.ceil(data.height)));
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) frames[i].height = String(height);
    }
  });
})();
