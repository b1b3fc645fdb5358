/**
 * DeclarationForm's `engineFormData`: when the caller passes back exactly the object the engine reported
 * (a controlled form storing its onChange), the engine keeps its prop until the page is idle — RJSF would
 * otherwise recompute its whole state from the echo inside the keystroke's frame (tests/bench/forms.ts).
 * Everything else reaches the engine at once, and a value the engine would take for its old prop is
 * preceded by the reported one, so the engine always sees a change the caller made.
 */
import { engineFormData, NOT_REPORTED, type EngineData } from '../../renderers/DeclarationForm';

const fresh = (given: unknown): EngineData => ({ given, reported: NOT_REPORTED, behind: false });

it('hands the first value and every value the engine did not report at once', () => {
  const a = { host: 'a' };
  const s = fresh(a);
  expect(engineFormData(s, a, false)).toEqual({ formData: a, again: null });
  const b = { host: 'b' };
  expect(engineFormData(s, b, false)).toEqual({ formData: b, again: null });
  // the engine reported c, the caller reshaped it into d: d at once
  s.reported = { host: 'c' };
  const d = { host: 'c', extra: 1 };
  expect(engineFormData(s, d, false)).toEqual({ formData: d, again: null });
  expect(s.given).toBe(d);
});

it('holds back the echo of the engine\'s own report until settled', () => {
  const a = { host: 'a' };
  const s = fresh(a);
  engineFormData(s, a, false);
  const typed = { host: 'ab' };
  s.reported = typed;
  expect(engineFormData(s, typed, false)).toEqual({ formData: a, again: 'idle' });
  // a render for another reason before the page was idle: still held back
  expect(engineFormData(s, typed, false)).toEqual({ formData: a, again: 'idle' });
  // the page is idle: the engine is handed its report (and compares it with what it has: nothing to do)
  expect(engineFormData(s, typed, true)).toEqual({ formData: typed, again: null });
  expect(s.behind).toBe(false);
  // passed again after that: nothing changes for the engine
  expect(engineFormData(s, typed, false)).toEqual({ formData: typed, again: null });
});

it('a reset to the value the engine still has as its prop goes through the report first', () => {
  const initial = { host: 'a' };
  const s = fresh(initial);
  engineFormData(s, initial, false);
  const typed = { host: 'ab' };
  s.reported = typed;
  expect(engineFormData(s, typed, false).formData).toBe(initial);
  // the caller resets to the initial object while the echo is held back: RJSF compares props deeply and
  // would see no change, so the engine first gets its report (before the frame) …
  expect(engineFormData(s, initial, false)).toEqual({ formData: typed, again: 'now' });
  // … and then the reset, which it sees as a change
  expect(engineFormData(s, initial, false)).toEqual({ formData: initial, again: null });
  // an equal copy of the initial value is the same case
  const s2 = fresh(initial);
  engineFormData(s2, initial, false);
  s2.reported = typed;
  engineFormData(s2, typed, false);
  expect(engineFormData(s2, { host: 'a' }, false)).toEqual({ formData: typed, again: 'now' });
});

it('a caller that never stores the report keeps handing its own value, as before', () => {
  const fixed = { host: 'a' };
  const s = fresh(fixed);
  engineFormData(s, fixed, false);
  s.reported = { host: 'ab' };
  // not an echo, not behind: the engine gets the same prop (and keeps what was typed, as RJSF always did)
  expect(engineFormData(s, fixed, false)).toEqual({ formData: fixed, again: null });
});
