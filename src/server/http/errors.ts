import { errorBody, type FieldError } from '../../shared/errors';

/** Thrown by handlers; the error handler turns it into the envelope with the catalogue's text. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly status = 400,
    readonly errors?: FieldError[],
    /** Extra data a refusal carries (e.g. the status of a certificate upload). */
    readonly data?: unknown,
    /** Keys of the envelope besides data (e.g. `user` for the central rules of spec 000 §4). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(`error ${code}`);
  }
  body() {
    return { ...errorBody(this.code, this.errors), ...(this.data === undefined ? {} : { data: this.data }), ...this.extra };
  }
}

export const VALIDATION_ERROR = 20001;
