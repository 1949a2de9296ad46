// One part of the site's search index (ingest/search_index.py): Pagefind reads the pages named in a
// list and writes their index into a folder. Run as
//   node search-part.mjs <list.json>   where list.json is {"site": <folder>, "files": [<path in it>], "output": <folder>}
// A page's address is its path in the site, as Pagefind's own command gives it ("studies/x/index.html"
// is found at /studies/x/). A list rather than a glob: a part of a large site names thousands of pages.

import {mkdir, readFile, writeFile} from "node:fs/promises";
import path from "node:path";
import * as pagefind from "pagefind";

const list = JSON.parse(await readFile(process.argv[2], "utf8"));
process.chdir(list.site);  // Pagefind makes each address from the page's path below the working folder
const {errors, index} = await pagefind.createIndex({});
if (errors.length) throw new Error(errors.join("\n"));
for (const file of list.files) {
  const added = await index.addHTMLFile({sourcePath: file, content: await readFile(path.join(list.site, file), "utf8")});
  if (added.errors.length) throw new Error(`${file}: ${added.errors.join("; ")}`);
}
// The files come back in memory and are written here, each awaited: with Pagefind's own writeFiles
// followed by close(), an index now and then lacked a file (a different one each time, in three runs
// of tests/test_export_cache.py out of three), as if the backend were stopped before it had written all.
const built = await index.getFiles();
if (built.errors.length) throw new Error(built.errors.join("\n"));
await pagefind.close();
for (const file of built.files) {
  const target = path.join(list.output, file.path);
  await mkdir(path.dirname(target), {recursive: true});
  await writeFile(target, file.content);
}
