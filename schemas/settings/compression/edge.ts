import type { EdgeCompiler } from '../../edge';

interface Codec { disable: boolean; level: number }
interface Compression { status?: 'enable' | 'disable'; gzip: Codec; br: Codec }

/**
 * The content the edge compresses (the panel's help: 纯文本、JavaScript、CSS、XML、JSON、XHTML、RSS、Atom、
 * TTF 等字体、SVG、图标). HTML is compressed too: nginx always includes text/html.
 */
export const COMPRESSIBLE_TYPES = [
  'text/plain',
  'text/css',
  'text/xml',
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'application/json',
  'application/xml',
  'application/xhtml+xml',
  'application/rss+xml',
  'application/atom+xml',
  'font/ttf',
  'font/otf',
  'application/x-font-ttf',
  'application/vnd.ms-fontobject',
  'image/svg+xml',
  'image/x-icon',
  'image/vnd.microsoft.icon',
];

/**
 * 智能压缩 on the edge: the edge compresses what it sends, by the client's Accept-Encoding — Brotli when
 * it is on and the client accepts br (Brotli first when both are on, as the help says), else Gzip when
 * it is on and the client accepts gzip, else nothing. Each at its level: the data names the levels, and
 * edge.lua picks the node's location of that codec and level (nginx reads levels per location). status
 * disable (or both off): no compression at all.
 *
 * The origin is always asked for the plain body (no Accept-Encoding), so that the cache holds one
 * uncompressed copy and what the client gets depends on this setting alone, not on the origin.
 */
const edge: EdgeCompiler = (v: Compression) => {
  const on = v.status !== 'disable';
  const gzip = on && !v.gzip.disable;
  const br = on && !v.br.disable;
  return { plainOrigin: true, ...(gzip || br ? { data: { ...(gzip ? { gzip: v.gzip.level } : {}), ...(br ? { br: v.br.level } : {}) } } : {}) };
};

export default edge;
