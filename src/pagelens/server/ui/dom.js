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
