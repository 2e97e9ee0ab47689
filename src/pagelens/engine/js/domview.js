// The sanitised DOM (docs/views.md#dom): the document as HTML for a model that needs more
// than the controls, without what is not the page's content or is the user's. Scripts,
// styles, comments and event-handler attributes go; field values go (button captions
// stay) and what text areas and editable regions hold, as everywhere; contact details
// are masked in texts and attributes unless asked for; the ids the engine stamped stay
// (`data-llm-id`). Cut at an element boundary at `maxDomChars` characters,
// with `truncated`.

import { NON_FIELD_TYPES } from './summary.js';
import { isEditingHost } from './role.js';
import { pageUrl } from './dom.js';
import { maskAttribute } from './contact.js';
import { truncate } from './core.js';

const DROPPED_TAGS = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta', 'base']);
const VOID_TAGS = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'source', 'track', 'wbr']);
const MAX_ATTRIBUTE = 200;
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function escape(text) {
  return text.replace(/[&<>"]/g, (c) => ESCAPES[c]);
}

// What an element's value attribute may show: a button's caption, never what was typed.
function keepsValue(el) {
  return el.localName === 'input' && NON_FIELD_TYPES.has((el.getAttribute('type') || '').toLowerCase()) &&
    (el.getAttribute('type') || '').toLowerCase() !== 'hidden';
}

function openTag(el, mask) {
  let out = `<${el.localName}`;
  for (const attr of el.attributes) {
    const name = attr.name;
    if (name.startsWith('on') || name === 'style') continue;
    if (name === 'value' && !keepsValue(el)) continue;
    const value = maskAttribute(name, attr.value, mask);
    out += value === '' ? ` ${name}` : ` ${name}="${escape(truncate(value, MAX_ATTRIBUTE))}"`;
  }
  return out + '>';
}

export function domView(scan, options) {
  const limit = options.maxDomChars || 50000;
  const parts = [];
  let length = 0;
  let closing = 0; // characters the open elements' end tags will take
  let truncated = false;

  // Writes `node` whole, or as much of it as fits; false once the limit is reached.
  const write = (node) => {
    if (node.nodeType === 3) {
      const text = escape(scan.mask(node.data));
      if (length + text.length + closing > limit) return false;
      parts.push(text);
      length += text.length;
      return true;
    }
    if (node.nodeType !== 1 || DROPPED_TAGS.has(node.localName)) return true;
    const open = openTag(node, scan.mask);
    const end = VOID_TAGS.has(node.localName) ? '' : `</${node.localName}>`;
    if (length + open.length + end.length + closing > limit) return false;
    parts.push(open);
    length += open.length;
    closing += end.length;
    let complete = true;
    // What a text area or an editable region holds is the user's input, not the page's.
    const userInput = node.localName === 'textarea' || isEditingHost(node);
    for (let child = userInput ? null : node.firstChild; child; child = child.nextSibling) {
      if (!write(child)) {
        complete = false;
        break;
      }
    }
    closing -= end.length;
    parts.push(end);
    length += end.length;
    return complete;
  };

  if (document.documentElement) truncated = !write(document.documentElement);
  return { url: pageUrl(), title: document.title || '', html: parts.join(''), truncated };
}
