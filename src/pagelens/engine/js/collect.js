// One traversal finds every control (and frame owner) on the page; all views read it.

import { LANDMARK_TAGS } from './region.js';
import { controlName } from './accname.js';
import { beginStamping, shownId, stableId } from './ids.js';
import { boxOf, isRendered, isVisible, noteScannedShadowRoots, viewRect } from './visibility.js';
import { interactiveRole } from './role.js';
import { resetRunCaches } from './core.js';
import { unmasked } from './contact.js';
import { STOP, walkRenderedElements } from './dom.js';

export const SKIP_TAGS = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title']);

class Control {
  constructor(el, role, rect, scan) {
    this.el = el;
    this.role = role;
    this.rect = rect;
    this.mask = scan.mask; // what a view shows of a text: contact details masked, or not (contact.js)
    this.deadline = scan.deadline;
    this.nameIsMasked = false;
    this._viewRect = undefined;
    this._visible = undefined;
    this._name = undefined;
    this.stampedId = null; // set by stampIds
    this._shown = false;
  }
  // The part of its box in view (viewport and scrolling containers), or null: asked
  // by the views that show or place controls, once.
  get viewRect() {
    if (this._viewRect === undefined) this._viewRect = viewRect(this.el, this.rect);
    return this._viewRect;
  }
  get inViewport() {
    return this.viewRect !== null;
  }
  // Asked only by the views that show or count visible controls, and by the semantic
  // view only for the controls in its range (on a huge page it is a third of the scan).
  // Not asked once the capture is overdue: the control then counts as not shown.
  get visible() {
    if (this._visible === undefined) this._visible = !this.deadline.overdue() && isVisible(this.el, this.rect);
    return this._visible;
  }
  // The accessible name as views show it.
  get name() {
    if (this._name === undefined) {
      const name = controlName(this.el, this.role);
      this._name = this.mask(name);
      this.nameIsMasked = this._name !== name;
    }
    return this._name;
  }
  // The id a view shows. Its identity keys are remembered only then: naming every
  // control of a huge page for that would cost more than the view itself.
  get id() {
    if (!this._shown) {
      this._shown = true;
      this.stampedId = shownId(this.el);
    }
    return this.stampedId;
  }
  get tag() {
    return this.el.localName;
  }
}

class PageScan {
  constructor(mask, deadline) {
    this.mask = mask;
    // The capture's budget: what is read from the page after the scan stops with it too.
    this.deadline = deadline;
    this.controls = [];
    // Elements that may be landmarks or dialogs (LANDMARK_TAGS or a role attribute),
    // noted on the way for the interaction view's regions.
    this.landmarkCandidates = [];
    this.frames = [];
    this.shadowRoots = [];
    this.nodeCount = 0;
    this.closedShadowHosts = 0;
  }
}

// `mask` is applied to the texts views take from the page (names, headings): contact.js.
export function scanPage(deadline, mask = unmasked) {
  resetRunCaches();
  const scan = new PageScan(mask, deadline);
  const root = document.documentElement;
  if (!root) return scan;
  noteScannedShadowRoots(scan.shadowRoots);
  walkRenderedElements(root, (el) => {
    // Out of time, the walk ends: nodeCount says how much of the page was read.
    if (deadline.passed(scan.nodeCount + 1)) return STOP;
    scan.nodeCount++;
    const tag = el.localName; // read once: every DOM getter crosses into the browser
    if (SKIP_TAGS.has(tag)) return false;
    if (tag === 'iframe' || tag === 'frame') {
      if (isRendered(el)) {
        const rect = el.getBoundingClientRect();
        if (rect.width > 0 && rect.height > 0) scan.frames.push(new Control(el, 'iframe', rect, scan));
      }
      return false;
    }
    // Custom elements without an open root may hide a closed one; the browser layer
    // confirms through CDP.
    if (tag.includes('-') && !el.shadowRoot) scan.closedShadowHosts++;
    const role = interactiveRole(el);
    if (!role) {
      if (LANDMARK_TAGS.has(tag) || (el.hasAttributes() && el.hasAttribute('role'))) scan.landmarkCandidates.push(el);
      return true;
    }
    if (!isRendered(el)) return true;
    const rect = boxOf(el);
    if (rect.width <= 0 || rect.height <= 0) return true;
    scan.controls.push(new Control(el, role, rect, scan));
    return true;
  }, scan.shadowRoots);
  stampIds(scan);
  return scan;
}

// A control left unstamped when the capture is overdue is left out, as if not read.
function stampIds(scan) {
  beginStamping(scan.shadowRoots);
  const controls = scan.controls;
  for (let i = 0; i < controls.length; i++) {
    if (scan.deadline.overdue()) {
      controls.length = i;
      break;
    }
    controls[i].stampedId = stableId(controls[i].el);
  }
  for (const frame of scan.frames) frame.stampedId = stableId(frame.el);
}
