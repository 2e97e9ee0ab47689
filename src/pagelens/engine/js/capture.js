// A capture: one scan of the page, then the requested view.

import { Deadline } from './core.js';
import { frameContentOrigin } from './document.js';
import { interactionView } from './interaction.js';
import { resolveId } from './ids.js';
import { scanPage } from './collect.js';
import { semanticView } from './semantic.js';
import { skeletonView } from './skeleton.js';
import { summaryView } from './summary.js';

const VIEWS = ['compact', 'full', 'interaction', 'semantic', 'skeleton'];

function frameOwners(scan) {
  return scan.frames.map((f) => {
    const [x, y] = frameContentOrigin(f.el, f.rect);
    return { id: f.id, x, y, visible: f.visible };
  });
}

export function capture(mode, options) {
  if (!VIEWS.includes(mode)) throw new Error(`unknown view: ${mode}`);
  const started = performance.now();
  const deadline = new Deadline(options.timeoutMs || 30000);
  options.deadline = deadline;
  const scan = scanPage(deadline);
  let view;
  switch (mode) {
    case 'compact': case 'full': view = summaryView(scan, mode, deadline); break;
    case 'interaction': view = interactionView(scan, options); break;
    case 'semantic': view = semanticView(scan, options); break;
    case 'skeleton': view = skeletonView(scan); break;
  }
  return {
    view,
    frames: mode === 'interaction' || mode === 'semantic' ? frameOwners(scan) : [],
    stats: {
      nodes: scan.nodeCount,
      controls: scan.controls.length,
      shadowRoots: scan.shadowRoots.length,
      customElementsWithoutOpenRoot: scan.closedShadowHosts,
      partial: deadline.hit,
      ms: Math.round(performance.now() - started),
    },
  };
}

// Only the element the id was given to: a copied attribute never answers.
export function elementById(id) {
  return resolveId(id);
}
