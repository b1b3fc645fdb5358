/**
 * The schema gallery's data (console page /gallery/): every declaration of the server's registry
 * with its meta, schema, ui and fixtures, so the console bundle never carries fixtures.
 *
 *   GET /api/schemas/gallery/  → data: GalleryEntry[]
 *
 * Main accounts only (access 'parent'). The gallery is for product owners and testers: it is on
 * unless SCHEMA_GALLERY=0 (production), and answers 404 with 21202 when off.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';
import type { SettingRegistry } from '../../../schemas/registry';
import type { Declaration, Fixture } from '../../../schemas/types';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';

import { GALLERY_PATH, type GalleryEntry, type GalleryFixture } from '../../../schemas/gallery';

function fixtureOf(f: Fixture, invalid: boolean): GalleryFixture {
  const file = path.basename(f.file);
  return {
    name: file.replace(/\.json$/, ''),
    file,
    ...(f.description ? { description: f.description } : {}),
    payload: f.payload,
    ...(invalid ? { errors: f.errors ?? [] } : {}),
  };
}

export function galleryEntry(d: Declaration): GalleryEntry {
  return {
    id: d.meta.id,
    meta: d.meta,
    schema: d.schema,
    ui: d.ui,
    fixtures: {
      valid: (d.fixtures?.valid ?? []).map((f) => fixtureOf(f, false)),
      invalid: (d.fixtures?.invalid ?? []).map((f) => fixtureOf(f, true)),
    },
  };
}

export function schemaRoutes(app: FastifyInstance, config: ServerConfig, registry: SettingRegistry): void {
  app.get(
    GALLERY_PATH,
    {
      config: {
        access: 'parent',
        openapi: {
          summary: '设置样例库：所有设置声明及其样例',
          description: '返回每个设置的 setting.json、schema.json、ui.json 与 fixtures 中的有效、无效样例。仅主账号可用；生产环境（SCHEMA_GALLERY=0）关闭。',
          errors: { 404: '样例库未开启（SCHEMA_GALLERY=0）：21202' },
        },
      },
    },
    async () => {
      if (!config.schemaGallery) throw new ApiError(21202, 404);
      return ok(registry.list().map(galleryEntry));
    },
  );
}
