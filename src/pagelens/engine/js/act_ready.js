// Action layer: actionability. Before real input lands on an element it must be
// attached, visible, enabled (for controls), editable (for typing), stable (the same box
// on two consecutive frames, so animations have ended) and the one that receives events
// at its click point. The checks repeat every frame until they pass or time runs out; the
// last failure is the typed reason the agent gets.

import { actDescribe, actIsEditable } from './act_find.js';
import { boxOf, centreOf, clickPoint, isRendered, isVisible, viewRect } from './visibility.js';
import { closestComposed, isComposedDescendant } from './dom.js';
import { elementById } from './capture.js';
import { actNoteTarget } from './act_observe.js';
import { isDisabled } from './states.js';

// Next frame, or 50 ms when frames are not being produced (a tab in the background).
function actNextFrame() {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 50);
    requestAnimationFrame(() => { clearTimeout(timer); resolve(); });
  });
}

function actSameBox(a, b) {
  return !!a && !!b && Math.abs(a.left - b.left) < 0.5 && Math.abs(a.top - b.top) < 0.5 &&
    Math.abs(a.width - b.width) < 0.5 && Math.abs(a.height - b.height) < 0.5;
}

function actHitTarget(x, y) {
  let hit = document.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

// Scrolled into view first, as a user would: an element whose middle does not show
// (outside the viewport, or clipped by a list that scrolls within the page), or that runs
// past the viewport's bottom or right edge (where banners are fixed). One clipped by a
// pixel in its list is clicked where it shows: a virtual list renders its rows again
// as it scrolls.
function actNeedsScroll(el) {
  const rect = boxOf(el);
  const part = viewRect(el, rect);
  const [x, y] = centreOf(rect);
  if (!part || x < part.left || x > part.right || y < part.top || y > part.bottom) return true;
  return rect.bottom > window.innerHeight || rect.right > window.innerWidth;
}

// A label forwards its clicks to its control, so a hit on the element's own label counts.
function actReceives(el, hit) {
  if (!hit) return false;
  if (hit === el || isComposedDescendant(hit, el)) return true;
  const label = closestComposed(hit, (cur) => cur.localName === 'label');
  return !!label && label.control === el;
}

function actCheckOnce(el, opts, previous) {
  if (!el.isConnected) return { reason: 'not_found', message: 'the element left the page' };
  const rect = boxOf(el);
  if (!isRendered(el) || !isVisible(el, rect)) {
    return { reason: 'not_visible', message: 'the element is hidden or has no size', rect };
  }
  if (opts.enabled && isDisabled(el)) return { reason: 'disabled', message: 'the element is disabled', rect };
  if (opts.editable && !actIsEditable(el)) {
    return { reason: 'not_editable', message: 'the element does not take typed text', rect };
  }
  if (!actSameBox(rect, previous)) return { reason: 'not_stable', message: 'the element is still moving', rect };
  if (opts.pointer) {
    const part = viewRect(el, rect);
    if (!part) {
      return { reason: 'not_visible', message: 'the element is outside the viewport or scrolled out of its container', rect };
    }
    const [x, y] = centreOf(part);
    const hit = actHitTarget(x, y);
    if (!actReceives(el, hit)) {
      return { reason: 'occluded', message: `${actDescribe(hit)} would receive the click`, covering: actDescribe(hit), rect };
    }
  }
  return { reason: null, rect };
}

// opts: {enabled, editable, pointer, timeoutMs}. Resolves {ok, reason, message, covering,
// point: [x, y] in this frame's viewport}.
export async function actReady(id, opts) {
  const el = elementById(id);
  if (!el) return { ok: false, reason: 'not_found', message: `no element with id ${id}` };
  if (actNeedsScroll(el)) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  const end = performance.now() + (opts.timeoutMs || 0);
  let previous = null;
  for (;;) {
    const check = actCheckOnce(el, opts, previous);
    if (check.reason === null) {
      actNoteTarget(el);
      const [x, y] = clickPoint(el, check.rect);
      return { ok: true, point: [x, y] };
    }
    if (check.reason === 'not_found' || performance.now() > end) {
      return { ok: false, reason: check.reason === 'not_stable' ? 'not_stable' : check.reason,
        message: check.message, covering: check.covering || null };
    }
    previous = check.rect;
    await actNextFrame();
  }
}
