/**
 * The headings' outline the shell keeps (src/console/shell/outline.ts, issue 24): one level 1, the
 * first heading of the highest size; the other sizes by rank, never skipping a level.
 */
import { outlineLevels } from '../../src/console/shell/outline';

test('a page: its H3 title is level 1, H5 sections level 2, H6 parts level 3', () => {
  expect(outlineLevels([3, 5, 6, 5, 6], 1)).toEqual([1, 2, 3, 2, 3]);
});

test('the billing centre: an H4 title and H5 sections', () => {
  expect(outlineLevels([4, 5, 5], 1)).toEqual([1, 2, 2]);
});

test('a callout title before the page title does not take level 1; a second title-sized heading is a section', () => {
  expect(outlineLevels([5, 3, 5, 3], 1)).toEqual([2, 1, 2, 2]);
});

test('a dialog: its H2 title is level 2, the form inside follows from 3', () => {
  expect(outlineLevels([2, 6, 6], 2)).toEqual([2, 3, 3]);
  expect(outlineLevels([2, 5, 6], 2)).toEqual([2, 3, 4]);
});

test('a smaller size first drawn before a larger one is not deeper than one below the heading before it', () => {
  // the media tab: an H5 section before the page's first H4
  expect(outlineLevels([3, 5, 4, 5], 1)).toEqual([1, 2, 2, 3]);
});

test('nothing to level', () => {
  expect(outlineLevels([], 1)).toEqual([]);
});
