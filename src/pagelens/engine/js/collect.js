// One traversal finds every control (and frame owner) on the page; all views read it.

const SKIP_TAGS = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title']);

class Control {
  constructor(el, role, rect, visible) {
    this.el = el;
    this.role = role;
    this.rect = rect;
    this.visible = visible;
    this.inViewport = intersectsViewport(rect);
    this._name = undefined;
    this.id = null;
  }
  get name() {
    if (this._name === undefined) this._name = accessibleName(this.el);
    return this._name;
  }
  get tag() {
    return this.el.localName;
  }
}

class PageScan {
  constructor() {
    this.controls = [];
    this.frames = [];
    this.shadowRoots = [];
    this.nodeCount = 0;
    this.closedShadowHosts = 0;
  }
}

function scanPage(deadline) {
  resetCaptureCaches();
  const scan = new PageScan();
  const root = document.documentElement;
  if (!root) return scan;
  walkElements(root, (el) => {
    scan.nodeCount++;
    const tag = el.localName; // read once: every DOM getter crosses into the browser
    if (SKIP_TAGS.has(tag)) return false;
    if (deadline.hit || ((scan.nodeCount & 1023) === 0 && deadline.expired())) return false;
    if (tag === 'iframe' || tag === 'frame') {
      if (isRendered(el)) {
        const rect = el.getBoundingClientRect();
        if (rect.width > 0 && rect.height > 0) scan.frames.push(new Control(el, 'iframe', rect, true));
      }
      return false;
    }
    // Custom elements without an open root may hide a closed one; the browser layer
    // confirms through CDP.
    if (tag.includes('-') && !el.shadowRoot) scan.closedShadowHosts++;
    const role = interactiveRole(el);
    if (!role) return true;
    if (!isRendered(el)) return true;
    const rect = boxOf(el);
    if (rect.width <= 0 || rect.height <= 0) return true;
    scan.controls.push(new Control(el, role, rect, isVisible(el, rect)));
    return true;
  }, scan.shadowRoots);
  return scan;
}

// Control signatures for id inheritance: role, name and target, kept only when unique.
function controlSignature(control) {
  const el = control.el;
  return [control.role, control.name, el.getAttribute('href') || '', el.getAttribute('name') || '',
    el.id || ''].join('|');
}

function stampIds(scan) {
  adoptExistingIds(scan.shadowRoots);
  const all = scan.controls.concat(scan.frames);
  const signatures = all.map((c) => (c.role === 'iframe' || !c.name ? null : controlSignature(c)));
  const counts = new Map();
  for (const s of signatures) if (s) counts.set(s, (counts.get(s) || 0) + 1);
  const remembered = [];
  all.forEach((control, i) => {
    const sig = signatures[i] && counts.get(signatures[i]) === 1 ? signatures[i] : null;
    control.id = stableId(control.el, sig);
    if (sig) remembered.push([sig, control.id]);
  });
  rememberSignatures(remembered);
}
