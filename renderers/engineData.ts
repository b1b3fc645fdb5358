/**
 * The engine's `formData` prop when its caller hands back what it reported (a controlled form): see
 * `engineFormData`. Used by DeclarationForm for a whole form and by SectionedForm for each section.
 */
import { useCallback, useLayoutEffect, useReducer, useRef } from 'react';
import { deepEquals } from '@rjsf/utils';

/** What the engine was handed and what it reported last: see `engineFormData`. */
export interface EngineData {
  /** The `formData` prop the engine was last rendered with. */
  given: unknown;
  /** The `formData` of the engine's last change event; `NOT_REPORTED` before the first. */
  reported: unknown;
  /** Whether the engine holds `reported` while its prop is still `given` (the caller's echo held back). */
  behind: boolean;
  /** The engine's other props on its last render, compared by identity. */
  others: readonly unknown[];
}

export const NOT_REPORTED: unique symbol = Symbol('not reported');

/**
 * The `formData` to hand the engine on this render, and whether to render once more before the frame.
 *
 * Every caller stores what the engine reports and passes it back (a controlled form). RJSF takes the new
 * prop as a change and derives its whole state from it again — the defaults of every field of the
 * declaration, the schema resolved for each if/then — only to arrive at the state it already holds: on the
 * 200-field form of tests/bench/forms.ts a quarter of each keystroke. So when the caller passes back exactly
 * the object the engine reported and nothing else of the engine's props changed, the engine keeps the prop
 * it had. Its state is the reported value; the prop only matters to RJSF when it changes or when another
 * prop does (RJSF then derives its state from the prop), and in both cases the engine is handed the
 * caller's value at once:
 * - any other value (a reset, data the caller reshaped, a change made elsewhere) goes through as before;
 * - the echo goes through when another prop changed in the same render (new errors, a touched field);
 * - a value equal to the prop the engine still has (a reset to the value the form opened with) would look
 *   like no change to RJSF, which compares props deeply: the engine is first handed its report, then, in a
 *   second render before the frame (`again`), the value.
 */
export function engineFormData(
  state: Readonly<EngineData>,
  formData: unknown,
  others: readonly unknown[],
): { formData: unknown; again: boolean; next: Omit<EngineData, 'reported'> } {
  const othersSame = others.length === state.others.length && others.every((o, i) => o === state.others[i]);
  if (formData === state.reported && othersSame && state.given !== undefined) {
    return { formData: state.given, again: false, next: { given: state.given, behind: state.given !== formData, others } };
  }
  if (state.behind && formData !== state.reported && deepEquals(formData, state.given) && !deepEquals(formData, state.reported)) {
    return { formData: state.reported, again: true, next: { given: state.reported, behind: false, others } };
  }
  return { formData, again: false, next: { given: formData, behind: false, others } };
}

/**
 * `engineFormData` in a component. The render only reads; what the engine was handed is recorded once the
 * render is committed (a render React discards, or calls twice in development, changes nothing).
 * `onReport` is told each value the engine reports.
 */
export function useEngineData(formData: unknown, others: readonly unknown[]) {
  const state = useRef<EngineData | null>(null);
  state.current ??= { given: formData, reported: NOT_REPORTED, behind: false, others };
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const { formData: toEngine, again, next } = engineFormData(state.current, formData, others);
  useLayoutEffect(() => {
    Object.assign(state.current!, next);
    if (again) rerender();
  });
  const onReport = useCallback((reported: unknown) => {
    state.current!.reported = reported;
  }, []);
  return { formData: toEngine, onReport };
}

