// Accessible name computation per W3C accname 1.2 with HTML-AAM host language rules,
// matching Chromium's behaviour where the spec leaves room.

const NAME_FROM_CONTENT_ROLES = new Set(['button', 'cell', 'checkbox', 'columnheader', 'gridcell',
  'heading', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row',
  'rowheader', 'switch', 'tab', 'tooltip', 'treeitem', 'caption', 'code', 'deletion', 'emphasis',
  'insertion', 'mark', 'strong', 'subscript', 'superscript', 'term', 'time', 'comment', 'suggestion',
  'definition', 'label', 'legend']);

// Roles whose current value, not their label, stands in when embedded in another label.
const EMBEDDED_VALUE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'slider',
  'spinbutton', 'scrollbar', 'progressbar', 'meter']);

const nameCache = new WeakMap();

function accessibleName(el) {
  let name = nameCache.get(el);
  if (name === undefined) {
    name = normalizeSpace(textAlternative(el, {
      visited: new Set(), root: el, includeHidden: false, inLabelledBy: false, recursing: false,
    }));
    nameCache.set(el, name);
  }
  return name;
}

function isHiddenForName(el) {
  return !isRendered(el);
}

function textAlternative(node, ctx) {
  if (node.nodeType === 3) return node.data;
  if (node.nodeType !== 1 || ctx.visited.has(node)) return '';
  const el = node;
  ctx.visited.add(el);

  // 2A: hidden and not reached through a reference to a hidden node.
  if (!ctx.includeHidden && isHiddenForName(el)) return '';
  const role = getRole(el);

  // 2B: aria-labelledby, unless we are already following one.
  if (!ctx.inLabelledBy) {
    const refs = idRefs(el, 'aria-labelledby');
    if (refs.length) {
      const parts = refs.map((ref) => textAlternative(ref, {
        visited: new Set(), root: ctx.root, includeHidden: ctx.includeHidden || isHiddenForName(ref),
        inLabelledBy: true, recursing: false,
      }));
      const joined = parts.map((p) => p.trim()).filter(Boolean).join(' ');
      if (joined) return joined;
    }
  }

  // 2C: a control embedded in the label of another widget contributes its value.
  const embedded = el !== ctx.root && (ctx.recursing || ctx.inLabelledBy);
  if (embedded && EMBEDDED_VALUE_ROLES.has(role)) return embeddedValue(el, role);

  // 2D: aria-label (whitespace-only does not count).
  const ariaLabel = el.getAttribute('aria-label');
  if (ariaLabel && ariaLabel.trim() && role !== 'presentation' && role !== 'none') return ariaLabel;

  // 2E: host language label.
  const native = hostLanguageName(el, ctx);
  if (native !== null && native.trim()) return native;

  // 2F: name from content.
  if (NAME_FROM_CONTENT_ROLES.has(role) || ctx.recursing || ctx.inLabelledBy || el.localName === 'label' ||
      (el === ctx.root && el.localName === 'summary')) {
    const text = contentText(el, ctx);
    if (text.trim()) return text;
  }

  // 2I: tooltip.
  const title = el.getAttribute('title');
  if (title && title.trim()) return title;
  return fallbackName(el);
}

function embeddedValue(el, role) {
  if (role === 'textbox' || role === 'searchbox') {
    return el.localName === 'input' || el.localName === 'textarea' ? el.value : el.textContent;
  }
  if (role === 'combobox' || role === 'listbox') {
    if (el.localName === 'select') {
      return Array.from(el.selectedOptions).map((o) => o.label || o.text).join(' ');
    }
    if (el.localName === 'input') return el.value;
    const selected = el.querySelector('[role="option"][aria-selected="true"]');
    return selected ? normalizeSpace(selected.textContent) : '';
  }
  return el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow') ||
    (el.localName === 'input' ? el.value : '');
}

function labelsText(el, ctx) {
  const labels = el.labels ? Array.from(el.labels) : [];
  if (!labels.length) return '';
  return labels.map((label) => textAlternative(label, {
    visited: new Set([el]), root: ctx.root, includeHidden: ctx.includeHidden,
    inLabelledBy: ctx.inLabelledBy, recursing: true,
  }).trim()).filter(Boolean).join(' ');
}

// HTML-AAM rules; returns null when the element has no host-language label.
function hostLanguageName(el, ctx) {
  switch (el.localName) {
    case 'input': {
      const type = (el.getAttribute('type') || 'text').toLowerCase();
      if (type === 'hidden') return '';
      if (type === 'button' || type === 'submit' || type === 'reset') {
        const value = el.getAttribute('value');
        if (value !== null && value.trim()) return value;
        const labels = labelsText(el, ctx);
        if (labels) return labels;
        if (type === 'submit') return 'Submit';
        if (type === 'reset') return 'Reset';
        return null;
      }
      if (type === 'image') {
        const alt = el.getAttribute('alt');
        if (alt !== null && alt.trim()) return alt;
        const value = el.getAttribute('value');
        if (value && value.trim()) return value;
        const title = el.getAttribute('title');
        if (title && title.trim()) return title;
        return 'Submit';
      }
      const labels = labelsText(el, ctx);
      if (labels) return labels;
      if (el === ctx.root || !ctx.recursing) {
        const title = el.getAttribute('title');
        if (title && title.trim()) return title;
        const placeholder = el.getAttribute('placeholder');
        if (placeholder && placeholder.trim()) return placeholder;
      }
      return null;
    }
    case 'textarea': case 'select': case 'meter': case 'progress': case 'output': {
      const labels = labelsText(el, ctx);
      if (labels) return labels;
      if (el.localName === 'textarea') {
        const title = el.getAttribute('title');
        if (title && title.trim()) return title;
        return el.getAttribute('placeholder');
      }
      return null;
    }
    case 'button': return labelsText(el, ctx) || null;
    case 'img': case 'area': {
      const alt = el.getAttribute('alt');
      return alt !== null && alt.trim() ? alt : null;
    }
    case 'fieldset': return childContent(el, 'legend', ctx);
    case 'figure': return childContent(el, 'figcaption', ctx);
    case 'table': return childContent(el, 'caption', ctx);
    case 'svg': {
      const title = Array.from(el.children).find((c) => c.localName === 'title');
      return title ? title.textContent : null;
    }
    case 'optgroup': return el.getAttribute('label');
    case 'option': return el.getAttribute('label') || null;
    case 'iframe': case 'frame': return el.getAttribute('title');
    default: return null;
  }
}

function childContent(el, tag, ctx) {
  const child = Array.from(el.children).find((c) => c.localName === tag);
  if (!child) return null;
  return textAlternative(child, { ...ctx, visited: new Set([el]), recursing: true });
}

// Chromium names an otherwise unnamed text field from aria-placeholder.
function fallbackName(el) {
  return el.getAttribute('aria-placeholder') || '';
}

function pseudoText(el, pseudo) {
  const content = getComputedStyle(el, pseudo).content;
  if (!content || content === 'none' || content === 'normal') return '';
  // Alternative text after a slash wins (content: "x" / "alt").
  const slash = content.lastIndexOf('" / "');
  const source = slash >= 0 ? content.slice(slash + 4) : content;
  let out = '';
  const re = /"((?:[^"\\]|\\.)*)"/g;
  let m;
  while ((m = re.exec(source))) out += m[1].replace(/\\(.)/g, '$1');
  return out;
}

function isInlineDisplay(el) {
  const display = styleOf(el).display;
  return display.startsWith('inline') || display === 'contents' || display === 'none';
}

function contentText(el, ctx) {
  const child = { ...ctx, recursing: true };
  let text = pseudoText(el, '::before');
  for (const node of accessibleChildren(el)) {
    if (node.nodeType === 3) {
      text += node.data;
    } else if (node.nodeType === 1) {
      if (node.localName === 'br') { text += ' '; continue; }
      const part = textAlternative(node, child);
      text += isInlineDisplay(node) ? part : ` ${part} `;
    }
  }
  text += pseudoText(el, '::after');
  return text;
}
