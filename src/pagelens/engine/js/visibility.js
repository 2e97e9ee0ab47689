// Visibility primitives.
//  - isHiddenByStyle: display:none (on it or an ancestor) or visibility:hidden; what
//    hides an element from accessible names.
//  - isRendered: takes part in layout and the accessibility tree: not hidden by style,
//    aria-hidden, inert, nor skipped by content-visibility (a closed <details>).
//  - isVisible: rendered and actually seen: a box, not fully transparent, not clipped
//    away on itself or a close ancestor (the "visually hidden" pattern).
//  - boxOf: the element's box, or the box of its contents when its own is empty.
//  - viewRect: the part of the box in view (viewport and scrolling containers);
//    occlusion by hit testing at its centre.

import { closestComposed, composedParent, isComposedDescendant } from './dom.js';
import { isComma, ruleQuestion, splitSelector, surveyedElements } from './stylerules.js';
import { runScopedMap } from './core.js';

const styleCache = new WeakMap();

export function styleOf(el) {
  let style = styleCache.get(el);
  if (!style) {
    style = getComputedStyle(el);
    styleCache.set(el, style);
  }
  return style;
}

// The open shadow roots this run's scan has found so far (scanPage notes its list, which
// grows as it walks; a slotted element always comes after its host). While there are
// none, the composed tree is the light tree, and native queries answer for it.
const scannedShadowRoots = runScopedMap();

export function noteScannedShadowRoots(roots) {
  scannedShadowRoots.set(document, roots);
}

export function composedTreeIsLightTree() {
  const roots = scannedShadowRoots.get(document);
  return roots !== undefined && roots.length === 0;
}

const ARIA_HIDDEN_OR_INERT = '[aria-hidden="true"], [inert]';
const ariaHiddenCache = runScopedMap();

// Memoised along the composed tree: controls share their ancestors.
function isAriaHiddenOrInert(el) {
  if (composedTreeIsLightTree()) return el.closest(ARIA_HIDDEN_OR_INERT) !== null;
  const chain = [];
  let hidden = false;
  for (let cur = el; cur; cur = composedParent(cur)) {
    const known = ariaHiddenCache.get(cur);
    if (known !== undefined) {
      hidden = known;
      break;
    }
    chain.push(cur);
    if (cur.matches(ARIA_HIDDEN_OR_INERT)) {
      hidden = true;
      break;
    }
  }
  for (const cur of chain) ariaHiddenCache.set(cur, hidden);
  return hidden;
}

export function isRendered(el) {
  if (!el.isConnected || isHiddenByStyle(el) || isAriaHiddenOrInert(el)) return false;
  // Content skipped by content-visibility (a closed <details>) has no box either.
  return isShownByStyle(el) || el.checkVisibility() || styleOf(el).display === 'contents';
}

const shownCache = runScopedMap();
// Asked of tens of thousands of elements on a huge page: one options object, not one a call.
const ALL_CHECKS = { checkOpacity: true, checkVisibilityCSS: true };
const VISIBILITY_CHECK = { checkVisibilityCSS: true };
const OPACITY_CHECK = { checkOpacity: true };

// checkVisibility with every check (opacity, visibility), asked once per element and
// run: it passes for nearly every element, and then answers each narrower check too.
function isShownByStyle(el) {
  let shown = shownCache.get(el);
  if (shown === undefined) {
    shown = el.checkVisibility(ALL_CHECKS);
    shownCache.set(el, shown);
  }
  return shown;
}

// Shown by display and visibility, whatever its opacity (text faded out is still the
// page's text): the run's full check answers where it was asked and passed.
export function isShownIgnoringOpacity(el) {
  return shownCache.get(el) === true || el.checkVisibility(VISIBILITY_CHECK);
}

// display:none on the element or an ancestor, or visibility:hidden/collapse. Elements
// without a box of their own (display:contents, <area>, <option>) and content skipped by
// content-visibility are not hidden unless an ancestor is display:none.
export function isHiddenByStyle(el) {
  if (isShownByStyle(el)) return false; // the common case, answered without reading the style
  const style = styleOf(el);
  if (style.display === 'none' || style.visibility !== 'visible') return true;
  if (el.checkVisibility(VISIBILITY_CHECK)) return false;
  return !!closestComposed(composedParent(el), (a) => styleOf(a).display === 'none');
}

// The element's box; an element with an empty box of its own (an inline <a> wrapping a
// block, display:contents, a link whose only content is positioned elsewhere) takes
// the bounding box of everything it contains.
export function boxOf(el) {
  const rect = el.getBoundingClientRect();
  if (rect.width > 0 && rect.height > 0) return rect;
  const range = document.createRange();
  range.selectNodeContents(el);
  const contents = range.getBoundingClientRect();
  return contents.width > 0 && contents.height > 0 ? contents : rect;
}

const CLIP_ANCESTORS = 4;

// The visually-hidden pattern, on the element or a close ancestor: clipped to nothing, or
// squeezed into a box of at most 1px that hides its overflow. Where the page's sheets can
// say, only what may be clipped is measured; not across shadow trees, whose own sheets
// the survey does not read (without them, the light tree is the composed tree).
function isClippedAway(el, rect) {
  if (rect.width <= 1 && rect.height <= 1) return true;
  const clippable = surveyedElements(CLIPPING_RULES, CLIPPED_BY_DEFAULT);
  const measureAll = clippable === null || !composedTreeIsLightTree();
  let cur = el;
  for (let depth = 0; cur && depth < CLIP_ANCESTORS; depth++) {
    if ((measureAll || CLIPPED_TAGS.has(cur.localName) || clippable.has(cur)) && clipsToNothing(cur)) return true;
    cur = measureAll ? composedParent(cur) : cur.parentElement;
  }
  return false;
}

// What Chromium's own style sheets clip: replaced elements, most inputs, <hr>, inner SVG
// viewports (asked of each element by its tag), popovers; and what an inline style may.
const CLIPPED_TAGS = new Set(['canvas', 'embed', 'fencedframe', 'hr', 'iframe', 'img', 'input', 'marquee',
  'object', 'select', 'textarea', 'video', 'svg', 'symbol', 'image', 'marker', 'pattern', 'foreignObject']);
const CLIPPED_BY_DEFAULT = ['[popover]', '[style]'];

// Rules that can clip an element: an overflow other than visible, clip, clip-path, or an
// animation (it may animate them). The shorthand is read too: `overflow: var(--x)` leaves
// its longhands empty. The elements they match are queried at once: worth it for a
// page's few clipping rules, not for a style framework's hundreds (then each element's
// style is read).
const CLIPPING_PROPERTIES = [['overflow', 'visible'], ['overflow-x', 'visible'], ['overflow-y', 'visible'],
  ['overflow-block', 'visible'], ['overflow-inline', 'visible'], ['clip', 'auto'], ['clip-path', 'none'],
  ['all', ''], ['animation', ''], ['animation-name', 'none']];
const CLIPPING_RULES = ruleQuestion({
  longhands: ['overflow-x', 'overflow-y', 'overflow-block', 'overflow-inline', 'clip', 'clip-path', 'animation-name'],
  bears: (rule) => CLIPPING_PROPERTIES.some(([property, initial]) => {
    const value = rule.style.getPropertyValue(property).trim();
    return value !== '' && value !== initial;
  }),
  selectors: (selectorText) => splitSelector(selectorText, isComma),
  maxSelectors: 24,
});

const clipCache = runScopedMap();

// Ancestors are shared by many controls, so each one is measured once per capture.
function clipsToNothing(el) {
  let clipped = clipCache.get(el);
  if (clipped === undefined) {
    clipped = measureClip(el);
    clipCache.set(el, clipped);
  }
  return clipped;
}

// The visually-hidden patterns take the element out of the flow (position absolute or
// fixed) and clip it to nothing, or squeeze it into a box of at most 1px that hides its
// overflow. Most elements do neither: two style reads settle it, and only an element
// that hides its overflow has its box measured.
function measureClip(el) {
  const style = styleOf(el);
  const position = style.position;
  if (position === 'absolute' || position === 'fixed') {
    if (style.clipPath.startsWith('inset(50%')) return true;
    if (/rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)/.test(style.clip)) return true;
  }
  const overflow = style.overflow; // "visible", or the x and y values when they differ
  if (overflow === 'visible' || style.display === 'contents') return false;
  const hidesX = style.overflowX !== 'visible', hidesY = style.overflowY !== 'visible';
  const box = el.getBoundingClientRect();
  return (hidesX && box.width <= 1) || (hidesY && box.height <= 1);
}

export function isVisible(el, rect) {
  rect = rect || boxOf(el);
  if (isSeenItself(el, rect)) return true;
  // A custom checkbox, radio button or file picker: the input faded out, clipped or sized
  // to nothing beside a styled label, which the person sees and clicks, and which shows
  // the input's state. Rendered still (not display:none): the input is there to act on.
  return LABEL_DRAWN.has(inputType(el)) && isShownIgnoringOpacity(el) &&
    Array.from(el.labels || []).some((label) => isSeenItself(label, boxOf(label)));
}

function isSeenItself(el, rect) {
  if (rect.width <= 0 || rect.height <= 0) return false;
  if (!isShownByStyle(el) && !el.checkVisibility(OPACITY_CHECK)) return false;
  return !isClippedAway(el, rect);
}

const LABEL_DRAWN = new Set(['checkbox', 'radio', 'file']);

function inputType(el) {
  return el.localName === 'input' ? (el.getAttribute('type') || '').toLowerCase() : '';
}

const viewportCache = runScopedMap();

// Asked for every control (whether it is in the viewport): read once per run.
export function viewportSize() {
  let size = viewportCache.get(window);
  if (!size) {
    size = { width: window.innerWidth, height: window.innerHeight };
    viewportCache.set(window, size);
  }
  return size;
}

export function intersectsViewport(rect) {
  const vp = viewportSize();
  return rect.bottom > 0 && rect.right > 0 && rect.top < vp.height && rect.left < vp.width;
}

// The part of an element's box in view: inside the viewport and inside every ancestor
// that clips its overflow (a list that scrolls within the page); null when none of it
// is (below the fold, scrolled out of its list). The interaction model's and the
// semantic view's inViewport, and where actions click.
export function viewRect(el, rect) {
  if (!intersectsViewport(rect)) return null; // the common case on a long page, answered first
  const clip = clipOfBox(el);
  const left = Math.max(rect.left, clip.left), right = Math.min(rect.right, clip.right);
  const top = Math.max(rect.top, clip.top), bottom = Math.min(rect.bottom, clip.bottom);
  if (right <= left || bottom <= top) return null;
  return { left, top, right, bottom, width: right - left, height: bottom - top };
}

// The point an agent would click: the centre of the part in view (of the box when none is).
export function clickPoint(el, rect) {
  return centreOf(viewRect(el, rect) || rect);
}

export function centreOf(rect) {
  return [rect.left + rect.width / 2, rect.top + rect.height / 2];
}

function viewportRect() {
  const vp = viewportSize();
  return { left: 0, top: 0, right: vp.width, bottom: vp.height };
}

// The clip on an element's own box: that of what its clipping parent contains (below).
function clipOfBox(el) {
  return styleOf(el).position === 'fixed' ? viewportRect() : contentClip(clippingParent(el));
}

// Overflow is clipped for what a box contains, not for the box itself. An absolutely
// positioned element escapes the clips between it and its containing block; one fixed in
// place (a modal, a popover) escapes every clip but the viewport's.
function clippingParent(el) {
  let parent = composedParent(el);
  if (styleOf(el).position === 'absolute') {
    while (parent && !containsAbsolute(parent)) parent = composedParent(parent);
  }
  return parent;
}

function containsAbsolute(el) {
  const style = styleOf(el);
  return style.position !== 'static' || style.transform !== 'none';
}

const contentClipCache = runScopedMap();

// The clip on what an element contains, memoised along its clipping parents (controls
// share their ancestors), from the top down without recursion (a page may nest deep).
// The body's and the root's overflow is the viewport's: the page's own scroll.
function contentClip(el) {
  const chain = [];
  let clip = null;
  for (let cur = el; !clip;) {
    if (!cur || cur === document.body || cur === document.documentElement) {
      clip = viewportRect();
    } else if (contentClipCache.has(cur)) {
      clip = contentClipCache.get(cur);
    } else {
      chain.push(cur);
      if (styleOf(cur).position === 'fixed') clip = viewportRect();
      else cur = clippingParent(cur);
    }
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    clip = ownClip(chain[i], clip);
    contentClipCache.set(chain[i], clip);
  }
  return clip;
}

// `outer` narrowed by the element's own overflow clip, at its padding box (inside the
// borders and scroll bars).
function ownClip(el, outer) {
  const style = styleOf(el);
  const clipsX = style.overflowX !== 'visible', clipsY = style.overflowY !== 'visible';
  if ((!clipsX && !clipsY) || style.display === 'inline' || style.display === 'contents') return outer;
  const box = el.getBoundingClientRect();
  const left = box.left + el.clientLeft, top = box.top + el.clientTop;
  return {
    left: clipsX ? Math.max(outer.left, left) : outer.left,
    right: clipsX ? Math.min(outer.right, left + el.clientWidth) : outer.right,
    top: clipsY ? Math.max(outer.top, top) : outer.top,
    bottom: clipsY ? Math.min(outer.bottom, top + el.clientHeight) : outer.bottom,
  };
}

// What hit testing at the centre of the part in view (`part`, from viewRect) lands on when
// that is neither the element nor inside it (a modal, a cookie banner, or the element has
// pointer-events:none); null when it lands on the element. Undefined when no part is in
// view or nothing is hit.
export function coveringElement(el, part) {
  if (!part) return undefined;
  const [x, y] = centreOf(part);
  const root = el.getRootNode();
  const hit = (root.elementFromPoint ? root : document).elementFromPoint(x, y);
  if (!hit) return undefined;
  return hit === el || isComposedDescendant(hit, el) ? null : hit;
}

// True when something else covers the element, see coveringElement.
export function isOccluded(el, part) {
  const cover = coveringElement(el, part);
  return cover === undefined ? undefined : cover !== null;
}
