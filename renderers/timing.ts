/**
 * The form engine's own timings, for `npm run bench` (tests/bench/forms.ts). Everything here is inert
 * unless the page set `window.__formTimings` (the bench does, before the console loads): then each
 * timing is kept there, and the last validation is kept in `window.__formLastValidation` so the bench
 * can repeat it many times (Chromium's clock is coarsened to 0.1 ms; one validation takes microseconds)
 * beside a plain compiled ajv validate of the same schema and data.
 * A module of its own, without the engine's imports, so a page that validates without RJSF (the
 * edge-rule editor) records its timings without pulling the engine in.
 */
export interface FormTiming {
  kind: 'validate' | 'open';
  ms: number;
  what: string;
}

/** The last validation, for the bench to repeat: the engine's whole validation, and plain ajv on the same schema and data. */
export interface LastValidation {
  what: string;
  run(): unknown;
  plain?: () => unknown;
}

interface BenchGlobals {
  __formTimings?: FormTiming[];
  __formLastValidation?: LastValidation;
}

const globals = globalThis as BenchGlobals;

/** Whether the page asked for the engine's timings. */
export const benchTimings = (): boolean => Boolean(globals.__formTimings);

/** Keeps one timing when the page asked for them; nothing otherwise. */
export function formTiming(kind: FormTiming['kind'], ms: number, what = ''): void {
  const sink = globals.__formTimings;
  if (sink && sink.length < 10_000) sink.push({ kind, ms, what });
}

/**
 * Runs a form's validation; when the page asked for the timings, records its time and keeps it (with
 * `plain`, the compiled ajv validate of the same schema on the same data) for the bench to repeat.
 */
export function timedValidation<T>(run: () => T, plain?: () => unknown, what = ''): T {
  if (!globals.__formTimings) return run();
  const t0 = performance.now();
  const result = run();
  formTiming('validate', performance.now() - t0, what);
  globals.__formLastValidation = { what, run, plain };
  return result;
}
