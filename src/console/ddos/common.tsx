/**
 * What the DDoS pages share: the list call that reads 24018 as an empty list (spec 002 §4), the failure
 * callout with the server's field messages, and the status tags.
 */
import { Callout, Tag, type Intent } from '@blueprintjs/core';
import { api, ApiFailure, failureText } from '../api/client';
import type { FieldError } from '../../shared/errors';

/** The DDoS list calls treat error_code 24018 as an empty list. */
export async function ddosList<T>(url: string, query?: Record<string, unknown>): Promise<{ data: T[]; pager?: { since: number | null; max: number | null; total?: number } }> {
  try {
    return await api.get<{ data: T[]; pager?: { since: number | null; max: number | null; total?: number } }>(url, query);
  } catch (e) {
    if (e instanceof ApiFailure && e.code === 24018) return { data: [] };
    throw e;
  }
}

export interface Failure {
  message: string;
  errors: FieldError[];
  data?: unknown;
  code?: number | null;
}

export function toFailure(e: unknown): Failure {
  return { message: failureText(e), errors: e instanceof ApiFailure ? e.errors : [], data: e instanceof ApiFailure ? e.data : undefined, code: e instanceof ApiFailure ? e.code : null };
}

export function FailureCallout({ failure }: { failure: Failure | null }) {
  if (!failure) return null;
  return (
    <Callout intent="danger" className="setting-failure" role="alert">
      {failure.message}
      {failure.errors.filter((e) => e.message !== failure.message).map((e) => (
        <div key={e.path + e.message}>{e.message}</div>
      ))}
    </Callout>
  );
}

export function StatusTag({ text, intent }: { text: string; intent: Intent }) {
  return (
    <Tag minimal intent={intent}>
      {text}
    </Tag>
  );
}
