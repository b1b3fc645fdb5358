import type { ErrorSchema } from '@rjsf/utils';
import type { FieldError } from '../src/shared/errors';

/** Server field errors ({path: '/options/0/url'}) as RJSF extraErrors, shown under their fields. */
export function toErrorSchema(errors: FieldError[]): ErrorSchema {
  const root: Record<string, any> = {};
  for (const e of errors) {
    const parts = e.path.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let node = root;
    for (const p of parts) node = node[p] ??= {};
    (node.__errors ??= []).push(e.message);
  }
  return root as ErrorSchema;
}
