// Runs a browserjs() function in the target page's main world, with navigation refused
// while it runs: the page's Navigation API sees every navigation this document starts
// (location, form submission, pushState) before it happens; window.open and the history
// methods are replaced, since a traversal to another document cannot be cancelled there.
async (fn, args) => {
  const refused = [];
  const refuse = (what) => {
    refused.push(what);
    throw new Error("navigation_refused: use navigate({url}) instead");
  };
  const onNavigate = (event) => {
    refused.push(event.destination.url);
    if (event.cancelable) event.preventDefault();
  };
  const hasNavigation = typeof navigation !== "undefined";
  if (hasNavigation) navigation.addEventListener("navigate", onNavigate);
  const replaced = [
    [window, "open"],
    ...["pushState", "replaceState", "back", "forward", "go"].map((name) => [history, name]),
  ].map(([owner, name]) => {
    const own = Object.getOwnPropertyDescriptor(owner, name);
    owner[name] = () => refuse(`${owner === window ? "window" : "history"}.${name}`);
    return [owner, name, own];
  });
  try {
    const value = await fn(...args);
    return { ok: true, value: value === undefined ? null : value, refused };
  } catch (error) {
    return { ok: false, error: String((error && error.message) || error), refused };
  } finally {
    // What the function set off for a moment later (a form's submit() navigates from a
    // task of its own, a short timer) still comes while refused. The page's timers fire
    // in order, so this holds however long a busy machine delays them.
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (hasNavigation) navigation.removeEventListener("navigate", onNavigate);
    for (const [owner, name, own] of replaced) {
      if (own) Object.defineProperty(owner, name, own);
      else delete owner[name];
    }
  }
}
