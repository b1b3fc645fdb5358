import type { EdgeCompiler } from '../../edge';

interface ServerPush {
  server_push_enable: boolean;
  server_push_options: { url_patterns: string[]; assets: string[]; preload: boolean };
}

/** What a preload link says the asset is, by its suffix (browsers ignore a preload without `as`). */
const AS: [RegExp, string][] = [
  [/\.css$/i, 'style'],
  [/\.m?js$/i, 'script'],
  [/\.(png|jpe?g|gif|webp|avif|svg|ico)$/i, 'image'],
  [/\.(woff2?|ttf|otf|eot)$/i, 'font'],
];

/** A map key: literal text in double quotes (map keys take no variables). */
const key = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** A Lua string literal (the values are ASCII paths: the schema forbids spaces and *). */
const lua = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/**
 * HTTP/2 Server Push on the edge. A match path (url_patterns) is a request path, matched exactly
 * (without the query string; the schema forbids *). An HTTP/2 request for one of them gets each asset
 * pushed with its answer (`http2_push` on a map of `$uri`, so an unmatched path pushes nothing); with
 * preload, every answer on a match path, HTTP/1.1 as well, carries `Link: <asset>; rel=preload; as=…`.
 * nginx's `http2_push_preload` stays off, so that an asset is never pushed twice.
 */
const edge: EdgeCompiler = (v: ServerPush, ctx) => {
  if (!v.server_push_enable) return null;
  const paths = [...new Set(v.server_push_options.url_patterns)];
  const assets = [...new Set(v.server_push_options.assets)];
  if (!paths.length || !assets.length) return null;
  const http: string[] = [];
  const server: string[] = [];
  assets.forEach((a, i) => {
    const name = `$${ctx.prefix}_push${i}`;
    http.push(`map $uri ${name} {`, ...paths.map((p) => `  ${key(p)} ${ctx.q(a)};`), '  default "";', '}');
    server.push(`http2_push ${name};`);
  });
  const out: ReturnType<EdgeCompiler> = { http, server };
  if (v.server_push_options.preload) {
    const links = assets.map((a) => {
      const as = AS.find(([re]) => re.test(a))?.[1];
      return `<${encodeURI(a)}>; rel=preload${as ? `; as=${as}` : ''}`;
    });
    out.header_lua = [
      'do',
      `  local paths = { ${paths.map((p) => `[${lua(p)}] = true`).join(', ')} }`,
      '  if paths[ngx.var.uri] then',
      '    local link = ngx.header["Link"]',
      '    if type(link) == "string" then link = { link } elseif link == nil then link = {} end',
      ...links.map((l) => `    link[#link + 1] = ${lua(l)}`),
      '    ngx.header["Link"] = link',
      '  end',
      'end',
    ];
  }
  return out;
};

export default edge;
