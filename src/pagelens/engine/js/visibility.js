// Visibility primitives.
//  - isRendered: takes part in layout and the accessibility tree (not display:none,
//    visibility:hidden, hidden, aria-hidden, inert, content-visibility hidden).
//  - isVisible: rendered and actually seen: non-zero size, not fully transparent, not
//    clipped away (the "visually hidden" pattern).
//  - inViewport / occlusion by hit testing at the centre point.

const styleCache = new WeakMap();

function styleOf(el) {
  let style = styleCache.get(el);
  if (!style) {
    style = getComputedStyle(el);
    styleCache.set(el, style);
  }
  return style;
}

function isAriaHiddenOrInert(el) {
  return !!closestComposed(
    el,
    (cur) => cur.getAttribute('aria-hidden') === 'true' || cur.hasAttribute('inert'),
  );
}

function isRendered(el) {
  if (!el.isConnected) return false;
  if (!el.checkVisibility({ checkVisibilityCSS: true, contentVisibilityAuto: false })) {
    // display:contents elements have no box but their children render.
    if (styleOf(el).display !== 'contents') return false;
    if (styleOf(el).visibility === 'hidden') return false;
  }
  return !isAriaHiddenOrInert(el);
}

// The element's box; elements with an empty box of their own (an inline <a> wrapping a
// block, display:contents) fall back to the union of their children's boxes.
function boxOf(el) {
  const rect = el.getBoundingClientRect();
  if (rect.width > 0 && rect.height > 0) return rect;
  let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
  let seen = 0;
  for (let child = el.firstElementChild; child && seen < 8; child = child.nextElementSibling) {
    seen++;
    const r = child.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) continue;
    left = Math.min(left, r.left);
    top = Math.min(top, r.top);
    right = Math.max(right, r.right);
    bottom = Math.max(bottom, r.bottom);
  }
  if (left === Infinity) return rect;
  return new DOMRect(left, top, right - left, bottom - top);
}

function isClippedAway(el, rect) {
  if (rect.width <= 1 && rect.height <= 1) return true;
  const style = styleOf(el);
  if (style.clipPath && style.clipPath.startsWith('inset(50%')) return true;
  if (style.clip && /rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)/.test(style.clip)) return true;
  return false;
}

function isVisible(el, rect) {
  rect = rect || boxOf(el);
  if (rect.width <= 0 || rect.height <= 0) return false;
  if (!el.checkVisibility({ checkOpacity: true })) return false;
  return !isClippedAway(el, rect);
}

function viewportSize() {
  return { width: window.innerWidth, height: window.innerHeight };
}

function intersectsViewport(rect) {
  const vp = viewportSize();
  return rect.bottom > 0 && rect.right > 0 && rect.top < vp.height && rect.left < vp.width;
}

// The point an agent would click: the centre of the part of the box inside the viewport.
function clickPoint(rect) {
  const vp = viewportSize();
  const left = Math.max(rect.left, 0), right = Math.min(rect.right, vp.width);
  const top = Math.max(rect.top, 0), bottom = Math.min(rect.bottom, vp.height);
  if (right <= left || bottom <= top) return [rect.left + rect.width / 2, rect.top + rect.height / 2];
  return [(left + right) / 2, (top + bottom) / 2];
}

// True when hit testing at the click point lands on something that is neither the
// element nor inside it (a modal, a cookie banner, or the element has
// pointer-events:none). Undefined when the point is outside the viewport.
function isOccluded(el, rect) {
  if (!intersectsViewport(rect)) return undefined;
  const [x, y] = clickPoint(rect);
  const root = el.getRootNode();
  const hit = (root.elementFromPoint ? root : document).elementFromPoint(x, y);
  if (!hit) return undefined;
  if (hit === el) return false;
  return !isComposedDescendant(hit, el);
}
