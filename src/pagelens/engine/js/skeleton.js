// The skeleton DOM: only the elements an agent acts on, flat, with the
// attributes that identify them; containers, styles, scripts and hidden elements dropped.

import { ID_ATTR, normalizeSpace, truncate } from './core.js';
import { NON_FIELD_TYPES } from './summary.js';
import { linkUrl } from './dom.js';
import { maskAttribute } from './contact.js';

const SKELETON_ATTRS = ['id', 'name', 'type', 'href', 'value', 'placeholder', 'role', 'aria-label', 'data-testid'];
const VOID_TAGS = new Set(['input', 'img', 'area']);

const HTML_SPECIAL_RE = /[&<>"]/;

function escapeHtml(text) {
  if (!HTML_SPECIAL_RE.test(text)) return text; // most names and values
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// Links within the page's own origin are written from their path (`/docs/a.html`): the
// view's url says where they lead, and the origin repeated on every link made a fifth of
// a link-heavy page's skeleton. Links elsewhere are written whole.
function shownHref(el, origin) {
  const href = linkUrl(el);
  return origin && href.startsWith(origin) && href[origin.length] === '/' ? href.slice(origin.length) : href;
}

// The origin of the address a view reports: the page's own, or for a document without
// one (about:blank, as a static capture is) its base URL's; '' when that is opaque too.
function pageOrigin() {
  if (location.origin !== 'null') return location.origin;
  try {
    const origin = new URL(document.baseURI).origin;
    return origin === 'null' ? '' : origin;
  } catch (e) {
    return '';
  }
}

function skeletonAttributes(control, origin) {
  const el = control.el;
  let out = ` ${ID_ATTR}="${control.id}"`;
  const present = el.getAttributeNames(); // one call, where asking for each would take nine
  for (const attr of SKELETON_ATTRS) {
    if (!present.includes(attr)) continue;
    let value = el.getAttribute(attr);
    // Typed values are form data: only button captions are kept.
    if (attr === 'value' && !(el.localName === 'input' && NON_FIELD_TYPES.has((el.type || '').toLowerCase()))) continue;
    if (attr === 'href') value = shownHref(el, origin);
    value = maskAttribute(attr, value, control.mask);
    out += ` ${attr}="${escapeHtml(truncate(value, 200))}"`;
  }
  return out;
}

export function skeletonView(scan) {
  const lines = [];
  const origin = pageOrigin();
  for (const control of scan.controls) {
    if (!control.visible) continue;
    const tag = control.el.localName;
    const attrs = skeletonAttributes(control, origin);
    if (VOID_TAGS.has(tag)) {
      lines.push(`<${tag}${attrs}>`);
    } else if (tag === 'select') {
      const options = Array.from(control.el.options).slice(0, 20)
        .map((o) => `<option>${escapeHtml(truncate(normalizeSpace(o.label || o.text), 60))}</option>`).join('');
      lines.push(`<select${attrs}>${options}</select>`);
    } else {
      const text = tag === 'textarea' ? '' : escapeHtml(truncate(control.name, 80));
      lines.push(`<${tag}${attrs}>${text}</${tag}>`);
    }
  }
  return { url: location.href, title: normalizeSpace(document.title), html: lines.join('\n') };
}
