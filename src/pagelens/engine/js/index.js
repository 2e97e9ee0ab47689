// The engine's one entry object. The bundle evaluates to it in a world and Python keeps
// the handle: every call goes through it by method name, and nothing is left on the
// page's globals (docs/architecture.md, "The engine").
import { accessibleName } from './accname.js';
import { actions } from './actions.js';
import { arrive } from './arrival.js';
import { capture, elementById } from './capture.js';
import { headingsOf } from './context.js';
import * as documentFacts from './document.js';
import { getRole, interactiveRole } from './role.js';
import './pointer.js';
import { isRendered, isVisible } from './visibility.js';
import { watchChangesFromLoad } from './changes.js';
import { selectorFor } from './selector.js';

export const engine = {
  version: 2,
  capture,
  elementById,
  ...actions,
  ...documentFacts,
  // Started when the engine is loaded into an isolated world (browser/world.py): the
  // semantic view's recent events.
  watchChangesFromLoad,
  // A navigation's one call on arrival.
  arrive,
  // The name, role and visibility primitives for any element (the views only cover
  // controls): for tests and the name benchmark.
  accessibleName,
  getRole,
  interactiveRole,
  isRendered,
  isVisible,
  // An element's selector as the views build it: for the element picker.
  selectorFor,
  // The heading each control sits under, for ranking a view against a query.
  headingsOf,
};
