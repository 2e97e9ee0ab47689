// What the Python side asks of a document besides views and actions: the viewport,
// where a frame's document starts, an element's box once scrolled to, a static copy's
// base URL. One place for each, shared by the views, the actions and the screenshots.

import { styleOf } from './visibility.js';

// Where a frame element's document starts in this frame's viewport: inside its border
// and padding (its content box). `rect` when the caller already measured the element.
export function frameContentOrigin(el, rect = el.getBoundingClientRect()) {
  const style = styleOf(el);
  return [rect.left + el.clientLeft + parseFloat(style.paddingLeft || '0'),
    rect.top + el.clientTop + parseFloat(style.paddingTop || '0')];
}

// The layout viewport without scrollbars.
export function viewportSize() {
  const root = document.scrollingElement;
  return [(root && root.clientWidth) || innerWidth, (root && root.clientHeight) || innerHeight];
}

// Window size and document size, for a screenshot's geometry and a point's bounds (where
// the viewport lies in the content is CDP's to say: browser-side, right-to-left pages too).
export function viewportMetrics() {
  const root = document.documentElement, body = document.body;
  const widths = [innerWidth, root ? root.scrollWidth : 0, body ? body.scrollWidth : 0];
  const heights = [innerHeight, root ? root.scrollHeight : 0, body ? body.scrollHeight : 0];
  return [innerWidth, innerHeight, Math.max(...widths), Math.max(...heights)];
}

// The element's border box after scrolling it into view ("instant": a page whose CSS
// asks for smooth scrolling would still be moving when measured).
export function measureIntoView(el) {
  el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
  const r = el.getBoundingClientRect();
  return [r.left, r.top, r.width, r.height];
}

// Images, SVGs, canvases and videos of at least 32 px showing in the viewport (an <svg>
// inside another is part of that graphic; a <picture> shows through its <img>).
export function countGraphics() {
  let count = 0;
  for (const el of document.querySelectorAll('img, svg, canvas, video')) {
    if (el.localName === 'svg' && el.parentElement && el.parentElement.closest('svg')) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 32 || r.height < 32) continue;
    if (r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth) count++;
  }
  return count;
}

// Custom elements without an open shadow root, in the document and every open shadow
// root (closed roots inside open ones count too), at most `limit` of them: the hosts
// that may hold a closed root, which only CDP can see.
export function closedRootCandidates(limit) {
  const found = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (found.length >= limit) return;
      if (el.shadowRoot) visit(el.shadowRoot);
      else if (el.localName.includes('-')) found.push(el);
    }
  };
  visit(document);
  return found;
}

// The first element matching CSS `selector` in this document.
export function querySelector(selector) {
  return document.querySelector(selector);
}

// A static copy's address: the document's own <base href> is kept (made absolute against
// `url`); otherwise one pointing at `url` goes first in <head>.
export function setBaseUrl(url) {
  const own = document.querySelector('base[href]');
  if (own) {
    own.setAttribute('href', new URL(own.getAttribute('href'), url).href);
    return;
  }
  const base = document.createElement('base');
  base.href = url;
  const parent = document.head || document.documentElement;
  if (parent) parent.prepend(base);
}
