/** What the schema gallery (GET /api/schemas/gallery/) sends: each declaration with its fixtures. */
import type { FieldError } from '../src/shared/errors';
import type { JsonSchema, SettingMeta, UiSchema } from './types';

export const GALLERY_PATH = '/api/schemas/gallery/';

export interface GalleryFixture {
  /** File name without .json, e.g. "relative-url". */
  name: string;
  /** File name, e.g. "relative-url.json" (fixtures/valid/ or fixtures/invalid/). */
  file: string;
  description?: string;
  payload: unknown;
  /** Invalid fixtures: the errors the payload must produce. */
  errors?: FieldError[];
}

export interface GalleryEntry {
  id: string;
  meta: SettingMeta;
  schema: JsonSchema;
  ui: UiSchema;
  fixtures: { valid: GalleryFixture[]; invalid: GalleryFixture[] };
}

