// A few lines of DOM building, so the views stay declarative without a library.

/**
 * An element: `h("button", {type: "button", onclick}, "Stop")`. Attributes starting with
 * "on" become listeners; `false`, null and undefined attributes are left out.
 * @param {string} tag
 * @param {Record<string, any>} [attributes]
 * @param {...(Node | string | null | undefined | false)} children
 * @returns {HTMLElement}
 */
export const h = (tag, attributes = {}, ...children) => {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "className") element.className = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) element.append(child);
  }
  return element;
};

/** The element with `id` (the page's own markup: it is there). */
export const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Replace what `parent` holds with `children`. */
export const fill = (parent, ...children) => parent.replaceChildren(...children.filter(Boolean));

/** The item of `container` whose `data-key` is `key`. */
export const itemOf = (container, key) =>
  [...container.querySelectorAll("[data-key]")].find((element) => element.getAttribute("data-key") === key) ?? null;

/**
 * Run `render`, which replaces what `container` holds, then give the focus back to the
 * same control of the same item (`data-key`): a refreshed list must not drop a keyboard
 * user's place (the focus would fall to the page's start).
 * @param {HTMLElement} container @param {() => void} render
 */
export const keepingFocus = (container, render) => {
  const focused = document.activeElement;
  const item = focused && container.contains(focused) ? focused.closest("[data-key]") : null;
  const key = item?.getAttribute("data-key");
  const index = item && focused ? [...item.querySelectorAll(focused.tagName)].indexOf(focused) : -1;
  render();
  if (!focused || key == null || index < 0) return;
  const target = itemOf(container, key)?.querySelectorAll(focused.tagName)[index];
  if (target instanceof HTMLElement) target.focus();
};
