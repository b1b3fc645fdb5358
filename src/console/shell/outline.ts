/**
 * The headings' outline (issue 24). The design draws a page's title with Blueprint's H3 (H4 in the
 * billing centre, whose header comes first), its sections with H5 and their parts with H6, and
 * Blueprint's own components add theirs (a callout's title is an H5, a dialog's an H2, a drawer's an
 * H4). A screen reader's list of headings would then start at level 3 and jump from 3 to 5. Rather than
 * change the look of every page, the console gives each heading the level of its place in the outline
 * (`aria-level`, which browsers expose instead of the tag's): in the page (`main`) the first heading of
 * the highest size is the one level 1, the page's title, and the other sizes follow by rank from level
 * 2, never more than one below the heading before, so levels never skip; in a dialog or drawer its title
 * is level 2 and what is inside it follows.
 */

const HEADINGS = 'h1, h2, h3, h4, h5, h6';
/** Roots of an outline of their own, drawn over the page (portals outside `main`). */
const OVERLAYS = '[role="dialog"], [role="alertdialog"], .bp6-drawer';

/**
 * The levels of one root's headings, given their tags' levels in document order: the first of the
 * highest size gets `top`, every other heading `top` plus the rank of its size, at least `top + 1`
 * and at most one below the heading before it (an H5 before the page's first H4 is not a level 3).
 */
export function outlineLevels(tags: number[], top: number): number[] {
  if (!tags.length) return [];
  const sizes = [...new Set(tags)].sort((a, b) => a - b);
  const title = tags.indexOf(sizes[0]);
  let before = top;
  return tags.map((tag, i) => {
    before = i === title ? top : Math.min(Math.max(top + 1, top + sizes.indexOf(tag)), before + 1);
    return before;
  });
}

/** Headings whose level this module set, so that a level it no longer needs is taken away again. */
const touched = new WeakSet<Element>();

function levelRoot(root: Element, top: number): void {
  // a dialog inside the root (none today) keeps its own outline
  const headings = [...root.querySelectorAll(HEADINGS)].filter((h) => h.closest(OVERLAYS) === (root.matches(OVERLAYS) ? root : null));
  const levels = outlineLevels(
    headings.map((h) => Number(h.tagName[1])),
    top,
  );
  headings.forEach((h, i) => {
    const level = levels[i];
    if (level !== Number(h.tagName[1])) {
      if (h.getAttribute('aria-level') !== String(level)) h.setAttribute('aria-level', String(level));
      touched.add(h);
    } else if (touched.has(h)) {
      h.removeAttribute('aria-level');
      touched.delete(h);
    }
  });
}

/**
 * Keeps the outline of the page's `main` (the shell's, or a sign-in page's) and of every open dialog
 * while the DOM changes, once for the whole console (src/console/index.tsx); returns the stop.
 */
export function keepOutline(): () => void {
  const pass = () => {
    const main = document.querySelector('main');
    if (main) levelRoot(main, 1);
    document.querySelectorAll(OVERLAYS).forEach((overlay) => levelRoot(overlay, 2));
  };
  pass();
  // only added and removed nodes and texts: the levels set here are attributes and start no new pass
  const observer = new MutationObserver(pass);
  observer.observe(document.body, { subtree: true, childList: true });
  return () => observer.disconnect();
}
