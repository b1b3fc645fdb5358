/**
 * DeclarationForm's `engineFormData`: when the caller passes back exactly the object the engine reported
 * (a controlled form storing its onChange) and no other prop of the engine changed, the engine keeps the
 * prop it had — RJSF would otherwise derive its whole state again from the echo, inside the keystroke
 * (tests/bench/forms.ts). Everything else reaches the engine at once; a value the engine would take for its
 * old prop is preceded by the reported one, so the engine always sees a change the caller made.
 */
import { engineFormData as decide, NOT_REPORTED, type EngineData } from '../../renderers/engineData';

/** One render, committed: what the engine is handed, and the state recorded after it (as the component does). */
function engineFormData(state: EngineData, formData: unknown, others: readonly unknown[]) {
  const first = decide(state, formData, others);
  // the decision only reads the state: asked twice (React's development mode renders twice), the same answer
  expect(decide(state, formData, others)).toEqual(first);
  Object.assign(state, first.next);
  return { formData: first.formData, again: first.again };
}

const schema = { type: 'object' };
const others = [schema, 'ui'];
const fresh = (given: unknown): EngineData => ({ given, reported: NOT_REPORTED, behind: false, others });

/** A form opened with `initial` (rendered once), then one keystroke the engine reported as `typed`. */
function typedOver(initial: object, typed: object) {
  const s = fresh(initial);
  engineFormData(s, initial, others);
  s.reported = typed;
  return s;
}

it('hands the first value and every value the engine did not report at once', () => {
  const a = { host: 'a' };
  const s = fresh(a);
  expect(engineFormData(s, a, others)).toEqual({ formData: a, again: false });
  const b = { host: 'b' };
  expect(engineFormData(s, b, others)).toEqual({ formData: b, again: false });
  // the engine reported c, the caller reshaped it into d: d at once
  s.reported = { host: 'c' };
  const d = { host: 'c', extra: 1 };
  expect(engineFormData(s, d, others)).toEqual({ formData: d, again: false });
  expect(s.given).toBe(d);
  expect(s.behind).toBe(false);
});

it("keeps the engine's prop when the caller passes back the engine's own report", () => {
  const a = { host: 'a' };
  const typed = { host: 'ab' };
  const s = typedOver(a, typed);
  expect(engineFormData(s, typed, others)).toEqual({ formData: a, again: false });
  expect(s.behind).toBe(true);
  // a render for another reason: still the same prop
  expect(engineFormData(s, typed, others)).toEqual({ formData: a, again: false });
  // the next keystroke, echoed: the same prop again
  const typed2 = { host: 'abc' };
  s.reported = typed2;
  expect(engineFormData(s, typed2, others)).toEqual({ formData: a, again: false });
});

it('hands the echo over when another prop changes in the same render (RJSF would derive its state from the old prop)', () => {
  const typed = { host: 'ab' };
  const s = typedOver({ host: 'a' }, typed);
  engineFormData(s, typed, others);
  const withErrors = [schema, 'ui', { host: { __errors: ['请填写源站地址'] } }];
  expect(engineFormData(s, typed, withErrors)).toEqual({ formData: typed, again: false });
  expect(s.behind).toBe(false);
  // the same props on the next render: nothing is held back any more, the engine has the report
  expect(engineFormData(s, typed, withErrors)).toEqual({ formData: typed, again: false });
  // an equal but new list of props counts as changed (identity), and hands the value over: safe either way
  expect(engineFormData(s, typed, [...withErrors])).toEqual({ formData: typed, again: false });
});

it('a reset to the value the engine still has as its prop goes through the report first', () => {
  const initial = { host: 'a' };
  const typed = { host: 'ab' };
  const s = typedOver(initial, typed);
  expect(engineFormData(s, typed, others).formData).toBe(initial);
  // the caller resets to the initial object: RJSF compares props deeply and would see no change, so the
  // engine first gets its report …
  expect(engineFormData(s, initial, others)).toEqual({ formData: typed, again: true });
  // … and then, in the render that follows before the frame, the reset, which it sees as a change
  expect(engineFormData(s, initial, others)).toEqual({ formData: initial, again: false });
  // an equal copy of the initial value is the same case
  const s2 = typedOver(initial, typed);
  engineFormData(s2, typed, others);
  expect(engineFormData(s2, { host: 'a' }, others)).toEqual({ formData: typed, again: true });
});

it('a caller that never stores the report keeps handing its own value, as before', () => {
  const fixed = { host: 'a' };
  const s = typedOver(fixed, { host: 'ab' });
  // not an echo, not behind: the engine gets the same prop (and keeps what was typed, as RJSF always did)
  expect(engineFormData(s, fixed, others)).toEqual({ formData: fixed, again: false });
});

it('an engine without a value of its own (uncontrolled) is handed every echo, as before', () => {
  const s = fresh(undefined);
  engineFormData(s, undefined, others);
  const typed = { host: 'a' };
  s.reported = typed;
  expect(engineFormData(s, typed, others)).toEqual({ formData: typed, again: false });
});
