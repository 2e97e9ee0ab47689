// The landmark a control sits in: the nearest landmark ancestor (composed tree), as
// "role" or "role: Name" (banner, navigation, main, complementary, contentinfo, search,
// form, named regions, dialogs). Which header/footer/section/aside is a landmark is the
// role module's call (a header inside an article is generic, not a banner).

import { LANDMARK_ROLES, getRole } from './role.js';
import { accessibleName } from './accname.js';
import { composedParent } from './dom.js';
import { composedTreeIsLightTree } from './visibility.js';
import { runScopedMap, truncate } from './core.js';

const MAX_REGION_NAME = 40;

// Without a role attribute only these elements can be landmarks or dialogs (implicit
// roles, role.js); the scan notes them, and the elements with a role attribute, as
// candidates for the interaction view's regions.
export const LANDMARK_TAGS = new Set(['header', 'footer', 'nav', 'main', 'aside', 'form', 'section', 'search', 'dialog']);

export function landmarkOf(el) {
  const role = getRole(el);
  if (!LANDMARK_ROLES.has(role) && role !== 'dialog' && role !== 'alertdialog') return null;
  // Landmarks are named by their author (aria-label, aria-labelledby, title), never by
  // their content.
  const name = accessibleName(el);
  // An unnamed region is not a landmark (ARIA); an unnamed form still is one.
  if (role === 'region' && !name) return null;
  return name ? `${role}: ${truncate(name, MAX_REGION_NAME)}` : role;
}

const LANDMARK_CANDIDATES = [...LANDMARK_TAGS, '[role]'].join(', ');

// The nearest ancestor of `el` in its tree that may be a landmark, found natively.
function candidateAbove(el) {
  return el.parentElement && el.parentElement.closest(LANDMARK_CANDIDATES);
}

// Along the composed tree, ancestors' regions are shared by the controls of one capture
// (a run cache: the page may move or rename things between captures).
const regionCache = runScopedMap();

export function regionOf(el) {
  if (composedTreeIsLightTree()) {
    for (let cur = candidateAbove(el); cur; cur = candidateAbove(cur)) {
      const landmark = landmarkOf(cur);
      if (landmark) return landmark;
    }
    return null;
  }
  const chain = [];
  let region = null;
  for (let cur = composedParent(el); cur; cur = composedParent(cur)) {
    if (regionCache.has(cur)) { region = regionCache.get(cur); break; }
    chain.push(cur);
    const landmark = landmarkOf(cur);
    if (landmark) { region = landmark; break; }
  }
  for (const cur of chain) regionCache.set(cur, region);
  return region;
}

// Every landmark around `el`, nearest first (composed tree): where a control is when
// its nearest landmark does not tell it from another (lookalikes.js).
export function landmarksAround(el) {
  const out = [];
  for (let cur = composedParent(el); cur; cur = composedParent(cur)) {
    if (!LANDMARK_TAGS.has(cur.localName) && !cur.hasAttribute('role')) continue;
    const landmark = landmarkOf(cur);
    if (landmark) out.push(landmark);
  }
  return out;
}
