// Runs a browserjs() function in the target page's main world, with navigation refused
// while it runs: the page's Navigation API sees every navigation this document starts
// (location, history, form submission) before it happens, and window.open is replaced.
async (fn, args) => {
  const refused = [];
  const onNavigate = (event) => {
    refused.push(event.destination.url);
    if (event.cancelable) event.preventDefault();
  };
  const open = window.open;
  const hasNavigation = typeof navigation !== "undefined";
  if (hasNavigation) navigation.addEventListener("navigate", onNavigate);
  window.open = (url) => {
    refused.push(`window.open(${url})`);
    throw new Error("navigation_refused: use navigate({url}) instead");
  };
  try {
    const value = await fn(...args);
    return { ok: true, value: value === undefined ? null : value, refused };
  } catch (error) {
    return { ok: false, error: String((error && error.message) || error), refused };
  } finally {
    // A form's submit() navigates from a task of its own: let it run while refused.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (hasNavigation) navigation.removeEventListener("navigate", onNavigate);
    window.open = open;
  }
}
