// Observable Plot, bundled once into a file of its own (js/plot.<SHA-256>.js) that the site's script
// (site.js) and /sql/'s (sql.js) import, so a reader's browser fetches and caches it once for every
// page that draws. site/layouts/_partials/bundle.html builds the other scripts with these packages left
// out and points their imports here. What the scripts import from them, and only that (esbuild keeps
// the code these names need and drops the rest of Plot): tests/test_scripts.py checks the list against
// the scripts' imports. d3-array's functions are here because Plot holds them anyway.
export {areaX, axisX, barX, dot, line, plot, pointer, rect, rectX, ruleX, ruleY, text, tip} from "@observablehq/plot";
export {extent, greatest, least, max, min} from "d3-array";
