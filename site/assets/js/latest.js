// Explore and Compare build a view from pages fetched on demand: a view superseded while its pages
// load is dropped (only the latest is shown), and the status element says it is busy meanwhile
// (aria-busy) or that the pages could not be loaded.
export function latestOnly(status, what) {
  let version = 0;
  // the loads' results, or null for a view superseded or failed
  return async (loads) => {
    const mine = ++version;
    status.setAttribute("aria-busy", "true");
    try {
      const results = await Promise.all(loads);
      return mine === version ? results : null;
    } catch (error) {
      if (mine === version) {
        status.textContent = `The ${what} could not be loaded: ${error.message}.`;
        status.setAttribute("aria-busy", "false");
      }
      return null;
    }
  };
}
