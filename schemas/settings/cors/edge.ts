import type { EdgeCompiler } from '../../edge';

interface Cors {
  enable: boolean;
  allow_origins: string[];
  allow_methods: string[];
  allow_headers: string[];
  expose_headers: string[];
  max_age: number;
  allow_credentials: boolean;
}

/** A Lua string literal (the schema keeps every value ASCII without quotes or spaces). */
const lua = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** The response headers the edge decides when CORS is on (the origin's ones are replaced). */
const CORS_HEADERS = [
  'Access-Control-Allow-Origin',
  'Access-Control-Allow-Credentials',
  'Access-Control-Allow-Methods',
  'Access-Control-Allow-Headers',
  'Access-Control-Expose-Headers',
  'Access-Control-Max-Age',
];

/**
 * Lua that sets `allowed` to the value of Access-Control-Allow-Origin for the request's Origin, or nil.
 * `*` allows every request (with or without Origin) and answers `*`; `scheme://host[:port]` allows that
 * origin exactly (case-insensitive); `scheme://*.domain[:port]` allows any subdomain of domain (one or
 * more labels) with that scheme and port. A matched origin is answered with itself (and Vary: Origin).
 */
function matcher(origins: string[]): string[] {
  if (origins.includes('*')) return ['local allowed = "*"'];
  const exact = origins.filter((o) => !o.includes('*')).map((o) => o.toLowerCase());
  const wild = origins
    .filter((o) => o.includes('*'))
    .map((o) => {
      const [pre, suf] = o.toLowerCase().split('*');
      return `{ ${lua(pre)}, ${lua(suf)} }`;
    });
  return [
    'local allowed',
    'local origin = ngx.var.http_origin',
    'if origin then',
    '  local o = string.lower(origin)',
    `  local exact = { ${exact.map((e) => `[${lua(e)}] = true`).join(', ')} }`,
    '  if exact[o] then allowed = origin end',
    ...(wild.length
      ? [
          `  local wild = { ${wild.join(', ')} }`,
          '  for i = 1, #wild do',
          '    local pre, suf = wild[i][1], wild[i][2]',
          '    if not allowed and #o > #pre + #suf and string.sub(o, 1, #pre) == pre and string.sub(o, -#suf) == suf',
          '        and string.find(string.sub(o, #pre + 1, -#suf - 1), "^[%w%-][%w%.%-]*$") then',
          '      allowed = origin',
          '    end',
          '  end',
        ]
      : []),
    'end',
  ];
}

/**
 * 跨域访问（CORS） on the edge.
 * - An answer to a request whose Origin is allowed carries Access-Control-Allow-Origin (the origin
 *   itself, with Vary: Origin; `*` when every origin is allowed), Access-Control-Expose-Headers when
 *   configured and Access-Control-Allow-Credentials: true when configured. The origin site's own
 *   Access-Control-* headers are replaced, and removed when the Origin is refused: the edge decides.
 * - A preflight (OPTIONS with Origin and Access-Control-Request-Method) is answered by the edge and never
 *   reaches the origin: 204 with Allow-Origin, Allow-Methods, Allow-Headers (when configured), Max-Age
 *   and Allow-Credentials for an allowed Origin; 403 without any of them for a refused one.
 */
const edge: EdgeCompiler = (v: Cors, ctx) => {
  if (!v.enable) return null;
  const flag = `${ctx.prefix}_cors_preflight`;
  const match = matcher(v.allow_origins);
  const access = [
    'do',
    '  if ngx.req.get_method() == "OPTIONS" and ngx.var.http_origin and ngx.var.http_access_control_request_method then',
    ...match.map((l) => '    ' + l),
    '    if allowed then',
    `      ngx.ctx.${flag} = true`,
    '      return ngx.exit(204)',
    '    end',
    '    return ngx.exit(403)',
    '  end',
    'end',
  ];
  const set = (pad: string, name: string, value: string) => `${pad}ngx.header[${lua(name)}] = ${lua(value)}`;
  const header = [
    'do',
    ...CORS_HEADERS.map((h) => `  ngx.header[${lua(h)}] = nil`),
    ...match.map((l) => '  ' + l),
    '  if allowed then',
    '    ngx.header["Access-Control-Allow-Origin"] = allowed',
    '    if allowed ~= "*" then',
    '      local vary = ngx.header["Vary"]',
    '      if type(vary) == "table" then vary = table.concat(vary, ", ") end',
    '      local has = false',
    '      for t in string.gmatch(string.lower(vary or ""), "[^,%s]+") do if t == "origin" or t == "*" then has = true end end',
    '      if not has then ngx.header["Vary"] = vary and (vary .. ", Origin") or "Origin" end',
    '    end',
    ...(v.allow_credentials ? [set('    ', 'Access-Control-Allow-Credentials', 'true')] : []),
    `    if ngx.ctx.${flag} then`,
    set('      ', 'Access-Control-Allow-Methods', v.allow_methods.join(', ')),
    ...(v.allow_headers.length ? [set('      ', 'Access-Control-Allow-Headers', v.allow_headers.join(', '))] : []),
    set('      ', 'Access-Control-Max-Age', String(v.max_age)),
    ...(v.expose_headers.length ? ['    else', set('      ', 'Access-Control-Expose-Headers', v.expose_headers.join(', '))] : []),
    '    end',
    '  end',
    'end',
  ];
  return { access_lua: access, header_lua: header };
};

export default edge;
