// DOM traversal that pierces open shadow roots. Closed roots cannot be reached from
// script; they are counted by the browser layer through CDP.

import { runScopedMap } from './core.js';

// Light-tree parent, crossing shadow boundaries (but not into slots): used for
// landmarks and hiding ancestors, which follow the composed tree in Chromium. Every
// ancestor walk goes through here, so the common case is answered first: only a child
// of a host with an open shadow root can be assigned to a slot (assignedSlot is null
// for slots in closed roots).
export function composedParent(el) {
  const parent = el.parentNode;
  if (!parent) return null;
  if (parent.nodeType === 1) return (parent.shadowRoot && el.assignedSlot) || parent;
  if (parent.nodeType === 11 && parent.host) return parent.host; // a shadow root
  return null;
}

export function closestComposed(el, predicate) {
  for (let cur = el; cur; cur = composedParent(cur)) {
    if (predicate(cur)) return cur;
  }
  return null;
}

export function isComposedDescendant(el, ancestor) {
  for (let cur = el; cur; cur = composedParent(cur)) {
    if (cur === ancestor) return true;
  }
  return false;
}

// What `visit` returns to end a walk at once: a capture out of time reads no further,
// not even the siblings of the elements it entered.
export const STOP = Symbol('stop');

// Visit every element in document order, descending into open shadow roots right
// after their host. `visit` returning false skips the element's subtree (and its shadow
// tree), STOP ends the walk (and walkElements returns STOP). The browser's own
// TreeWalker steps through the tree: a third of the cost of keeping a stack of children
// in script.
export function walkElements(root, visit, shadowRoots) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  let node = root.nodeType === 1 ? root : walker.nextNode();
  while (node) {
    const visited = visit(node);
    if (visited === STOP) return STOP;
    const enter = visited !== false;
    if (enter && node.shadowRoot) {
      if (shadowRoots) shadowRoots.push(node.shadowRoot);
      if (walkElements(node.shadowRoot, visit, shadowRoots) === STOP) return STOP;
    }
    node = enter ? walker.nextNode() : nextOutside(walker, root);
  }
  return undefined;
}

// The node after `walker`'s current node and its subtree, staying inside `root`.
export function nextOutside(walker, root) {
  for (;;) {
    if (walker.currentNode === root) return null;
    const sibling = walker.nextSibling();
    if (sibling) return sibling;
    if (!walker.parentNode()) return null;
  }
}

// Like walkElements, but passing over what a closed <details> does not render: the
// browser skips that content (content-visibility: hidden), and reading its style or
// layout forces the work, one subtree at a time (quadratic on a page of many). Its first
// <summary>, which is rendered, is visited.
export function walkRenderedElements(root, visit, shadowRoots) {
  const step = (el) => {
    const visited = visit(el);
    if (visited === false || visited === STOP) return visited;
    if (el.localName !== 'details' || el.open) return true;
    const summary = detailsSummary(el);
    return summary && walkElements(summary, step, shadowRoots) === STOP ? STOP : false;
  };
  return walkElements(root, step, shadowRoots);
}

// ---- the address a capture reads the page from
// A capture may read the page as if it had been loaded from another address (a
// CaptureRequest's baseUrl): relative links then resolve against it, and the views report
// it as their url. It holds for one capture (capture.js sets and clears it).

let readAddress = null;

export function readPageAs(url) {
  readAddress = url || null;
}

// The page's address, as the views report it.
export function pageUrl() {
  return readAddress || location.href;
}

// What relative URLs resolve against: the document's base, or with a read address, that
// address (a <base href> of the page's own taken relative to it, as a browser would).
export function baseUrl() {
  if (!readAddress) return document.baseURI;
  const own = document.querySelector('base[href]');
  if (own) {
    try {
      return new URL(own.getAttribute('href'), readAddress).href;
    } catch (e) {
      // an unusable <base href> is ignored, as browsers ignore it
    }
  }
  return readAddress;
}

// `raw` (an attribute's URL) made absolute; as written when it is not a URL, as the
// browser gives it for HTML links.
export function absoluteUrl(raw) {
  try {
    return new URL(raw, baseUrl()).href;
  } catch (e) {
    return raw;
  }
}

// The absolute URL an element's href points to ('' without one). An SVG link's `href` is
// an SVGAnimatedString, not a string: its attribute is resolved like any other.
export function linkUrl(el) {
  const href = el.href;
  if (typeof href === 'string' && !readAddress) return href; // the browser resolved it already
  const raw = el.getAttribute('href') || el.getAttributeNS(XLINK_NS, 'href');
  return raw ? absoluteUrl(raw) : '';
}

const XLINK_NS = 'http://www.w3.org/1999/xlink';

// A <details> element's first <summary> child: its disclosure button, and all a closed
// <details> renders. Null when it has none.
export function detailsSummary(details) {
  for (let child = details.firstElementChild; child; child = child.nextElementSibling) {
    if (child.localName === 'summary') return child;
  }
  return null;
}

// Child nodes as the accessibility tree sees them: a shadow host's shadow tree,
// a slot's assigned nodes (or its fallback content), else the ordinary children.
export function accessibleChildren(el) {
  if (el.shadowRoot) return Array.from(el.shadowRoot.childNodes);
  if (el.localName === 'slot') {
    const assigned = el.assignedNodes();
    if (assigned.length) return assigned;
  }
  return Array.from(el.childNodes);
}

export function getElementByIdInScope(el, id) {
  const root = el.getRootNode();
  return root.getElementById ? root.getElementById(id) : document.getElementById(id);
}

export function idRefs(el, attr) {
  const value = el.getAttribute(attr);
  if (!value) return [];
  const out = [];
  for (const id of value.split(/\s+/)) {
    if (!id) continue;
    const ref = getElementByIdInScope(el, id);
    if (ref) out.push(ref);
  }
  return out;
}

// `el.labels`, without its cost: Chromium answers it by walking the element's whole
// tree (per element, so a page of inputs took quadratic time). The label[for] elements
// are indexed once per run, and wrapping labels found among the ancestors; each
// candidate is confirmed by `label.control`, which is cheap. Same result, same order.
const WRAPPING_LABEL = 'label:not([for])';
// Headings, native and ARIA: what titles a section, an item or the page.
export const HEADING_SELECTOR = 'h1, h2, h3, h4, h5, h6, [role="heading" i]';

export const LABELABLE_TAGS = new Set(['button', 'input', 'meter', 'output', 'progress', 'select', 'textarea']);

export function labelsOf(el) {
  if (!LABELABLE_TAGS.has(el.localName)) return el.labels ? Array.from(el.labels) : [];
  if (el.localName === 'input' && el.type === 'hidden') return [];
  const index = labelIndex(el.getRootNode());
  const found = [];
  if (el.id) for (const label of index.byFor.get(el.id) || []) if (label.control === el) found.push(label);
  if (index.wrapping) {
    for (let cur = el.closest(WRAPPING_LABEL); cur; cur = cur.parentElement && cur.parentElement.closest(WRAPPING_LABEL)) {
      if (cur.control === el) found.push(cur);
    }
  }
  if (found.length < 2) return found;
  // A for= label can also wrap its control: keep each once, in tree order.
  return Array.from(new Set(found)).sort((a, b) =>
    (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
}

const labelIndexes = runScopedMap();

function labelIndex(root) {
  let index = labelIndexes.get(root);
  if (!index) {
    const byFor = new Map();
    for (const label of root.querySelectorAll('label[for]')) {
      const id = label.getAttribute('for');
      if (!byFor.has(id)) byFor.set(id, []);
      byFor.get(id).push(label);
    }
    index = { byFor, wrapping: !!root.querySelector(WRAPPING_LABEL) };
    labelIndexes.set(root, index);
  }
  return index;
}
