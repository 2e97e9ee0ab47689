// A capture: one scan of the page, then the requested view. Options: the views' own,
// and maskContactDetails (default true: docs/privacy.md#contact-details); warmUp for a
// capture the engine makes for itself, which is no view an agent has seen.

import { noteView, watchShadowRoots } from './changes.js';
import { Deadline } from './core.js';
import { contactMask } from './contact.js';
import { domView } from './domview.js';
import { frameContentOrigin } from './document.js';
import { readPageAs } from './dom.js';
import { interactionView } from './interaction.js';
import { resolveId } from './ids.js';
import { scanPage } from './collect.js';
import { semanticView } from './semantic.js';
import { skeletonView } from './skeleton.js';
import { summaryView } from './summary.js';

// The views, by the name Python asks for (engine/models.py declares them there too).
const VIEWS = {
  compact: (scan, options) => summaryView(scan, 'compact', options),
  full: (scan, options) => summaryView(scan, 'full', options),
  interaction: interactionView,
  semantic: semanticView,
  skeleton: skeletonView,
  dom: domView,
};

function frameOwners(scan) {
  return scan.frames.map((f) => {
    const [x, y] = frameContentOrigin(f.el, f.rect);
    return { id: f.id, x, y, visible: f.visible };
  });
}

export function capture(mode, options) {
  return captureWithScan(mode, options).result;
}

// A capture and the scan it was made from, for a caller that keeps the view and watches
// what it covered (arrival.js).
export function captureWithScan(mode, options) {
  const build = VIEWS[mode];
  if (!build) throw new Error(`unknown view: ${mode}`);
  const started = performance.now();
  const deadline = new Deadline(options.timeoutMs || 30000);
  options.deadline = deadline;
  const scan = scanPage(deadline, contactMask(options.maskContactDetails !== false));
  watchShadowRoots(scan.shadowRoots);
  readPageAs(options.baseUrl);
  let view;
  try {
    view = build(scan, options);
  } finally {
    readPageAs(null);
  }
  if (!options.warmUp) noteView(mode);
  const result = {
    view,
    frames: options.frames ? frameOwners(scan) : [], // only for views stitched across frames
    stats: {
      nodes: scan.nodeCount,
      controls: scan.controls.length,
      shadowRoots: scan.shadowRoots.length,
      customElementsWithoutOpenRoot: scan.closedShadowHosts,
      partial: deadline.hit || deadline.late,
      ms: Math.round(performance.now() - started),
    },
  };
  return { result, scan };
}

// Only the element the id was given to: a copied attribute never answers.
export function elementById(id) {
  return resolveId(id);
}
