import type { EdgeCompiler } from '../../edge';
import schema from './schema.json';

interface ServerPush {
  server_push_enable: boolean;
  server_push_options: { url_patterns: string[]; assets: string[]; preload: boolean };
}

/**
 * The most assets one service pushes: the schema's cap. The node's fixed nginx.conf has as many
 * `http2_push $edge_pushN` slots (PUSH_SLOTS in src/edge/compile/main.ts is this number).
 */
export const PUSH_MAX_ASSETS: number = schema.properties.server_push_options.properties.assets.maxItems;

/** What a preload link says the asset is, by its suffix (browsers ignore a preload without `as`). */
const AS: [RegExp, string][] = [
  [/\.css$/i, 'style'],
  [/\.m?js$/i, 'script'],
  [/\.(png|jpe?g|gif|webp|avif|svg|ico)$/i, 'image'],
  [/\.(woff2?|ttf|otf|eot)$/i, 'font'],
];

/** What edge.lua receives. */
export interface ServerPushData {
  /** The match paths (request paths, compared exactly with $uri). */
  paths: string[];
  /** The assets pushed on them (at most PUSH_MAX_ASSETS), each into its slot $edge_push1… */
  assets: string[];
  /** With 预加载: one `Link` value per asset. */
  links?: string[];
}

/**
 * HTTP/2 Server Push on the edge (edge.lua acts on this data). A match path (url_patterns) is a request
 * path, matched exactly (without the query string; the schema forbids *). An HTTP/2 request for one of
 * them gets each asset pushed with its answer (the node's `http2_push $edge_pushN` slots, which edge.lua
 * fills on a match path only); with preload, every answer on a match path, HTTP/1.1 as well, carries
 * `Link: <asset>; rel=preload; as=…`. nginx's `http2_push_preload` stays off, so that an asset is never
 * pushed twice.
 */
const edge: EdgeCompiler = (v: ServerPush) => {
  if (!v.server_push_enable) return null;
  const paths = [...new Set(v.server_push_options.url_patterns)];
  const assets = [...new Set(v.server_push_options.assets)];
  if (!paths.length || !assets.length) return null;
  if (assets.length > PUSH_MAX_ASSETS) throw new Error(`推送资源最多 ${PUSH_MAX_ASSETS} 个`);
  const data: ServerPushData = { paths, assets };
  if (v.server_push_options.preload) {
    data.links = assets.map((a) => {
      const as = AS.find(([re]) => re.test(a))?.[1];
      return `<${encodeURI(a)}>; rel=preload${as ? `; as=${as}` : ''}`;
    });
  }
  return { data };
};

export default edge;
