// Entry point: one scan of the page, then the requested view.

const VIEWS = ['compact', 'full', 'interaction', 'semantic', 'skeleton'];

function frameOwners(scan) {
  return scan.frames.map((f) => {
    const style = styleOf(f.el);
    const r = f.rect;
    return {
      id: f.id,
      // The content box: where the child document's (0, 0) sits in this viewport.
      x: r.left + f.el.clientLeft + parseFloat(style.paddingLeft || '0'),
      y: r.top + f.el.clientTop + parseFloat(style.paddingTop || '0'),
      visible: f.visible,
    };
  });
}

function capture(mode, options) {
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
function elementById(id) {
  return resolveId(id);
}

globalThis.__pagelens = { capture, elementById, version: 1 };
