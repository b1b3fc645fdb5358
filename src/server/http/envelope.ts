/** The success envelope of spec 000 §7: result, error_code, data. */
export function ok<T>(data?: T, extra: Record<string, unknown> = {}) {
  return { result: true as const, error_code: 0, ...(data === undefined ? {} : { data }), ...extra };
}
