/**
 * The readable API reference (GET /api/docs/): the OpenAPI document rendered by the server as one
 * plain HTML page, with inline styles only — no scripts, nothing from elsewhere.
 */
import { ACCESS_TEXT, type OpenApiDocument } from './document';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];

const LOCATION_TEXT: Record<string, string> = { query: '查询参数', path: '路径参数', header: '请求头', cookie: 'Cookie' };

export function escapeHtml(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function anchor(method: string, path: string): string {
  return `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function pre(value: unknown): string {
  return `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
}

function typeOf(schema: any): string {
  if (!schema || typeof schema !== 'object') return '';
  if (schema.enum) return `${schema.type ?? ''} 之一：${schema.enum.map((v: unknown) => JSON.stringify(v)).join('、')}`.trim();
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return schema.type ?? (schema.const !== undefined ? JSON.stringify(schema.const) : '');
}

/** `#/components/schemas/X` → the schema, for display. */
function resolve(doc: OpenApiDocument, schema: any): any {
  const ref = schema?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) return schema;
  return doc.components?.schemas?.[ref.slice('#/components/schemas/'.length)] ?? schema;
}

/** The `data` of a success response when the operation says what it is (settings paths). */
function successData(doc: OpenApiDocument, op: any): any {
  const schema = op.responses?.['200']?.content?.['application/json']?.schema;
  const data = schema?.properties?.data ?? schema?.allOf?.find((s: any) => s?.properties?.data)?.properties?.data;
  return data ? resolve(doc, data) : undefined;
}

/** The fields a success answer carries beside result, error_code and data (pager, summary …). */
function successExtras(op: any): Record<string, unknown> | undefined {
  const props = op.responses?.['200']?.content?.['application/json']?.schema?.properties;
  if (!props) return undefined;
  const extras = Object.fromEntries(Object.entries(props).filter(([k]) => !['result', 'error_code', 'data'].includes(k)));
  return Object.keys(extras).length ? extras : undefined;
}

function parametersTable(params: any[]): string {
  const rows = params
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(LOCATION_TEXT[p.in] ?? p.in)}</td><td>${p.required ? '是' : '否'}</td><td>${escapeHtml(typeOf(p.schema))}</td><td>${escapeHtml(p.description ?? '')}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>名称</th><th>位置</th><th>必填</th><th>类型</th><th>说明</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function operationHtml(doc: OpenApiDocument, path: string, method: string, op: any): string {
  const access = op['x-access'] ?? 'public';
  const parts = [
    `<div class="op" id="${anchor(method, path)}">`,
    `<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code>${op.summary ? ` <span class="summary">${escapeHtml(op.summary)}</span>` : ''}</h3>`,
    op.description ? `<p>${escapeHtml(op.description)}</p>` : '',
    `<p class="access">权限：<strong>${escapeHtml(ACCESS_TEXT[access] ?? access)}</strong>（x-access: ${escapeHtml(access)}）${op.security?.length ? '，需携带会话 Cookie <code>sid</code>' : ''}</p>`,
  ];
  if (op.parameters?.length) parts.push('<h4>参数</h4>', parametersTable(op.parameters));
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body) parts.push('<h4>请求体（application/json）</h4>', pre(body));
  const data = successData(doc, op);
  if (data) parts.push('<h4>返回的 data</h4>', pre(data));
  const extras = successExtras(op);
  if (extras) parts.push('<h4>响应中的其他字段</h4>', pre(extras));
  const responses = Object.entries(op.responses ?? {}) as [string, any][];
  if (responses.length) {
    parts.push('<h4>响应</h4><ul class="responses">', ...responses.map(([status, r]) => `<li><code>${escapeHtml(status)}</code> ${escapeHtml(r.description ?? '')}</li>`), '</ul>');
  }
  parts.push('</div>');
  return parts.join('\n');
}

const STYLE = `
body { margin: 0; font-family: -apple-system, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif; color: #1c2127; background: #f6f7f9; line-height: 1.6; }
.page { display: flex; align-items: flex-start; }
nav { position: sticky; top: 0; width: 300px; flex: none; height: 100vh; overflow-y: auto; background: #fff; border-right: 1px solid #e5e8eb; padding: 16px; box-sizing: border-box; font-size: 13px; }
nav h2 { font-size: 16px; margin: 0 0 8px; }
nav h3 { font-size: 13px; margin: 14px 0 4px; color: #5f6b7c; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav a { color: #215db0; text-decoration: none; word-break: break-all; }
main { flex: 1; min-width: 0; padding: 24px 32px; }
header h1 { margin: 0 0 8px; }
section { background: #fff; border: 1px solid #e5e8eb; border-radius: 4px; padding: 8px 20px 16px; margin: 16px 0; }
section > h2 { font-size: 18px; word-break: break-all; }
.tag-title { margin-top: 32px; border-bottom: 2px solid #2d72d2; padding-bottom: 4px; }
.op { border-top: 1px solid #e5e8eb; padding-top: 8px; margin-top: 8px; }
.op h3 { font-size: 15px; }
.method { display: inline-block; min-width: 56px; text-align: center; border-radius: 3px; color: #fff; font-size: 12px; padding: 1px 6px; background: #5f6b7c; }
.method.get { background: #238551; } .method.post { background: #2d72d2; } .method.put { background: #c87619; } .method.delete { background: #cd4246; }
.summary { font-weight: normal; color: #404854; }
.access { color: #404854; }
pre { background: #f6f7f9; border: 1px solid #e5e8eb; border-radius: 3px; padding: 10px; overflow-x: auto; font-size: 12px; line-height: 1.45; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { border: 1px solid #e5e8eb; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f7f9; }
code { font-family: "SFMono-Regular", Menlo, Consolas, monospace; }
`;

/** The whole page. */
export function renderDocsHtml(doc: OpenApiDocument): string {
  const byTag = new Map<string, [string, Record<string, any>][]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    const first = METHODS.map((m) => ops[m]).find(Boolean);
    const tag = first?.tags?.[0] ?? '其他';
    if (!byTag.has(tag)) byTag.set(tag, []);
    byTag.get(tag)!.push([path, ops]);
  }
  const tagOrder = [...(doc.tags ?? []).map((t: any) => t.name), ...byTag.keys()].filter((t, i, all) => byTag.has(t) && all.indexOf(t) === i);
  const tagDescription = new Map((doc.tags ?? []).map((t: any) => [t.name, t.description]));

  const toc = tagOrder
    .map(
      (tag) =>
        `<h3>${escapeHtml(tag)}</h3><ul>${byTag
          .get(tag)!
          .map(([path, ops]) => `<li><a href="#${anchor('path', path)}">${escapeHtml(path)}</a> <small>${METHODS.filter((m) => ops[m]).map((m) => m.toUpperCase()).join(' ')}</small></li>`)
          .join('')}</ul>`,
    )
    .join('\n');

  const sections = tagOrder
    .map((tag) => {
      const paths = byTag.get(tag)!;
      const desc = tagDescription.get(tag);
      return [
        `<h2 class="tag-title">${escapeHtml(tag)}</h2>`,
        desc ? `<p>${escapeHtml(desc)}</p>` : '',
        ...paths.map(
          ([path, ops]) =>
            `<section id="${anchor('path', path)}"><h2><code>${escapeHtml(path)}</code></h2>\n${METHODS.filter((m) => ops[m])
              .map((m) => operationHtml(doc, path, m, ops[m]))
              .join('\n')}</section>`,
        ),
      ].join('\n');
    })
    .join('\n');

  const schemas = doc.components?.schemas ?? {};
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info?.title ?? 'API')} 参考</title>
<style>${STYLE}</style>
</head>
<body>
<div class="page">
<nav aria-label="目录"><h2>目录</h2>
${toc}
<h3>通用结构</h3><ul><li><a href="#envelope">响应信封与错误</a></li><li><a href="#security">认证</a></li></ul>
</nav>
<main>
<header>
<h1>${escapeHtml(doc.info?.title ?? 'API')} 参考</h1>
<p>${escapeHtml(doc.info?.description ?? '')}</p>
<p>版本 ${escapeHtml(doc.info?.version ?? '')} · OpenAPI ${escapeHtml(doc.openapi)} · 机器可读的文档：<a href="/api/openapi.json">/api/openapi.json</a> · 共 ${Object.keys(doc.paths).length} 条路径</p>
</header>
${sections}
<h2 class="tag-title">通用结构</h2>
<section id="envelope"><h2>响应信封与错误</h2>
<h4>成功（Success）</h4>${pre(schemas.Success)}
<h4>失败（Failure）</h4>${pre(schemas.Failure)}
<h4>字段错误（FieldError）</h4>${pre(schemas.FieldError)}
</section>
<section id="security"><h2>认证</h2>
<p>需要登录的接口（x-access 为 user 或 parent）通过会话 Cookie 认证：</p>${pre(doc.components?.securitySchemes)}
</section>
</main>
</div>
</body>
</html>
`;
}
