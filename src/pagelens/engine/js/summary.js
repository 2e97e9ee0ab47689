// Page summaries (000 §3): `compact` rides along with every navigation, `full` answers
// analyze(what="page_summary"). One code path, two sizes.

const SUMMARY_LIMITS = {
  compact: { headings: 3, levels: ['h1'], actions: 5, forms: 3, fields: 5, preview: 300 },
  full: { headings: 30, levels: ['h1', 'h2', 'h3'], actions: 0, forms: 10, fields: 25, preview: 500, navLinks: 25 },
};

const CTA_RANK = { submit: 0, button: 1, roleButton: 2, link: 3 };

function ctaRank(control) {
  const el = control.el;
  const type = (el.getAttribute('type') || '').toLowerCase();
  if (type === 'submit' && (el.localName === 'button' || el.localName === 'input')) return CTA_RANK.submit;
  if (el.localName === 'button' || (el.localName === 'input' && ['button', 'image', 'reset'].includes(type))) {
    return CTA_RANK.button;
  }
  if (control.role === 'button') return CTA_RANK.roleButton;
  if (control.role === 'link' && el.hasAttribute('href')) return CTA_RANK.link;
  return null;
}

function visibleHeadings(levels, max) {
  const out = [];
  for (const h of document.querySelectorAll(levels.join(','))) {
    if (out.length >= max) break;
    if (!isRendered(h)) continue;
    const text = truncate(accessibleName(h) || normalizeSpace(h.textContent), 100);
    if (text) out.push(`${h.localName}: ${text}`);
  }
  return out;
}

// 000 §3.5: visible buttons, submits, role=button and links in the main content (body
// as fallback), above the fold first, then by kind, then in document order; deduplicated
// by label.
function primaryActions(scan, mainNode, builder, max) {
  const viewportHeight = window.innerHeight;
  const ranked = (scope) => scan.controls
    .map((control, order) => ({ control, order, rank: ctaRank(control) }))
    .filter(({ control, rank }) => rank !== null && control.visible && control.name &&
      (!scope || isComposedDescendant(control.el, scope)))
    .sort((a, b) => (a.control.rect.top < viewportHeight ? 0 : 1) - (b.control.rect.top < viewportHeight ? 0 : 1) ||
      a.rank - b.rank || a.order - b.order);
  let candidates = ranked(mainNode === document.body ? null : mainNode);
  if (!candidates.length) candidates = ranked(null);
  const nameCounts = new Map();
  for (const c of scan.controls) {
    const key = c.visible ? c.name.toLowerCase() : '';
    if (key) nameCounts.set(key, (nameCounts.get(key) || 0) + 1);
  }
  const seen = new Set();
  const actions = [];
  for (const { control } of candidates) {
    if (actions.length >= max) break;
    const key = control.name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    actions.push({
      label: truncate(control.name, 40),
      selector: actionSelector(control, builder, nameCounts.get(key) === 1),
      tag: control.tag,
    });
  }
  return actions;
}

// Attribute selectors first; a `text=` selector (resolved by the action layer against
// accessible names) when the label is unique and short; then the CSS path.
function actionSelector(control, builder, uniqueLabel) {
  const selector = builder.build(control.el);
  const isPath = !selector || /[> ]/.test(selector.replace(/\[[^\]]*\]/g, ''));
  if (isPath && uniqueLabel && control.name.length <= 40) return `text=${control.name}`;
  return selector || `[${ID_ATTR}="${control.id}"]`;
}

const FIELD_TAGS = new Set(['input', 'select', 'textarea']);
const NON_FIELD_TYPES = new Set(['submit', 'button', 'reset', 'image', 'hidden']);

function fieldLabel(control) {
  const el = control.el;
  return truncate(control.name || el.getAttribute('name') || el.getAttribute('placeholder') ||
    el.getAttribute('type') || el.localName, 30);
}

function visibleForms(scan, maxForms, maxFields, full) {
  const groups = new Map();
  for (const control of scan.controls) {
    const el = control.el;
    const isField = (FIELD_TAGS.has(el.localName) && !NON_FIELD_TYPES.has((el.getAttribute('type') || '').toLowerCase())) ||
      (control.role === 'textbox' && el.isContentEditable);
    if (!isField || !control.visible) continue;
    const form = el.form || el.closest('form') || null;
    if (!groups.has(form)) groups.set(form, []);
    groups.get(form).push(control);
  }
  const forms = [];
  for (const [form, fields] of groups) {
    if (forms.length >= maxForms) break;
    const entry = { fields: fields.slice(0, maxFields).map(fieldLabel) };
    if (full) {
      entry.action = form && form.getAttribute('action') !== null ? form.action : null;
      entry.method = form ? (form.getAttribute('method') || 'get').toLowerCase() : null;
    }
    forms.push(entry);
  }
  return forms;
}

function navLinks(scan, max) {
  const out = [];
  const seen = new Set();
  for (const control of scan.controls) {
    if (out.length >= max) break;
    if (control.role !== 'link' || !control.visible || !control.name) continue;
    const region = regionOf(control.el) || '';
    if (!region.startsWith('navigation') && !region.startsWith('banner')) continue;
    const href = control.el.href || control.el.getAttribute('href') || '';
    if (seen.has(href + control.name)) continue;
    seen.add(href + control.name);
    out.push({ text: truncate(control.name, 60), href });
  }
  return out;
}

function summaryView(scan, mode) {
  const limits = SUMMARY_LIMITS[mode];
  const mainNode = findMainNode();
  const bodyText = document.body ? normalizeSpace(document.body.innerText || '') : '';
  const wordCount = countWords(bodyText);
  const type = classifyPage(pageSignals(scan, mainNode, wordCount));
  const title = truncate(normalizeSpace(document.title), 120);
  const headings = visibleHeadings(limits.levels, limits.headings);
  const preview = truncate(maskPersonalData(readableText(mainNode, limits.preview * 2)), limits.preview);
  const forms = visibleForms(scan, limits.forms, limits.fields, mode === 'full');
  const interactive = scan.controls.filter((c) => c.visible).length;
  if (mode === 'compact') {
    const builder = new SelectorBuilder(scan.shadowRoots);
    return {
      type, title, headings,
      primary_actions: primaryActions(scan, mainNode, builder, limits.actions),
      forms, content_preview: preview, interactive_count: interactive, word_count: wordCount,
    };
  }
  return {
    url: location.href, title, type, headings,
    nav_links: navLinks(scan, limits.navLinks),
    forms, main_content_preview: preview, interactive_element_count: interactive, word_count: wordCount,
  };
}
