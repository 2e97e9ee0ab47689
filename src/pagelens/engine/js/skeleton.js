// The skeleton DOM: only the elements an agent acts on, flat, with the
// attributes that identify them; containers, styles, scripts and hidden elements dropped.

import { ID_ATTR, normalizeSpace, truncate } from './core.js';
import { NON_FIELD_TYPES } from './summary.js';
import { baseUrl, linkUrl, pageUrl } from './dom.js';
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
  for (const url of [pageUrl(), baseUrl()]) {
    try {
      const origin = new URL(url).origin;
      if (origin !== 'null') return origin;
    } catch (e) {
      // not a URL: try the next
    }
  }
  return '';
}

const ASCII_RE = /^[\x00-\x7f]*$/;

// The length of `text` in UTF-8 bytes, what the skeleton's size limit counts.
function utf8Length(text) {
  if (ASCII_RE.test(text)) return text.length; // nearly every line
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // 2 bytes below U+0800, 3 above; a surrogate pair (two units) makes 4.
    if (unit >= 0x80) bytes += unit >= 0x800 && (unit < 0xd800 || unit >= 0xe000) ? 2 : 1;
  }
  return bytes;
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

function skeletonLine(control, origin) {
  const tag = control.el.localName;
  const attrs = skeletonAttributes(control, origin);
  if (VOID_TAGS.has(tag)) return `<${tag}${attrs}>`;
  if (tag === 'select') {
    const options = Array.from(control.el.options).slice(0, 20)
      .map((o) => `<option>${escapeHtml(truncate(normalizeSpace(o.label || o.text), 60))}</option>`).join('');
    return `<select${attrs}>${options}</select>`;
  }
  const text = tag === 'textarea' ? '' : escapeHtml(truncate(control.name, 80));
  return `<${tag}${attrs}>${text}</${tag}>`;
}

// One element a line, in document order, up to `maxSkeletonBytes` of UTF-8: the first
// element that would pass it ends the html (`truncated`).
export function skeletonView(scan, options) {
  const limit = options.maxSkeletonBytes || 100 * 1024;
  const lines = [];
  const origin = pageOrigin();
  let bytes = -1; // the first line has no newline before it
  let truncated = false;
  for (const control of scan.controls) {
    if (!control.visible) continue;
    const line = skeletonLine(control, origin);
    bytes += 1 + utf8Length(line);
    if (bytes > limit) {
      truncated = true;
      break;
    }
    lines.push(line);
  }
  return { url: pageUrl(), title: normalizeSpace(document.title), html: lines.join('\n'), truncated };
}
