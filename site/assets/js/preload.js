// A bundle named on a script's tag (data-<name> and data-<name>-integrity: scripts.html), imported once
// there is something to do: it and the bundles it imports (names, Plot's among them) are preloaded with
// their integrity first, so each is fetched at once and checked (an import() carries no integrity).
export function importNamed(script, {entry, names}) {
  for (const name of names) {
    const link = Object.assign(document.createElement("link"), {rel: "modulepreload", href: script.dataset[name]});
    link.integrity = script.dataset[`${name}Integrity`];
    document.head.append(link);
  }
  return import(script.dataset[entry]);
}
