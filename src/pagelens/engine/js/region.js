// The landmark a control sits in: the nearest landmark ancestor (composed tree).

function landmarkOf(el) {
  const role = getRole(el);
  if (!LANDMARK_ROLES.has(role) && role !== 'dialog' && role !== 'alertdialog') return null;
  if (role === 'form' && !el.hasAttribute('aria-label') && !el.hasAttribute('aria-labelledby') &&
      !el.hasAttribute('name') && !el.id) {
    return 'form';
  }
  const label = el.getAttribute('aria-label') || (el.hasAttribute('aria-labelledby') ? accessibleName(el) : '');
  const name = normalizeSpace(label);
  return name ? `${role}: ${truncate(name, 40)}` : role;
}

const regionCache = new WeakMap();

function regionOf(el) {
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
