-- 跨域访问（CORS） on the edge: data from edge.ts ({ any, exact, wild, credentials, methods, headers,
-- expose, max_age }, the values ready to send). The edge decides the Access-Control-* headers of every
-- answer: those of an allowed Origin, none for a refused one (the origin's are removed). Unless every
-- origin is allowed, every answer carries Vary: Origin — the allowed, the refused and the one without
-- Origin alike, since each depends on it (a cache downstream must not hand one Origin's answer to
-- another: issue 34 item 15). A preflight (OPTIONS with Origin and Access-Control-Request-Method) is
-- answered here and never reaches the origin: 204 for an allowed Origin, 403 (the edge's refusal, which
-- an error page may answer) for a refused one.
local M = { order = 20 }

local type, ipairs = type, ipairs
local lower, sub, find, gmatch, concat = string.lower, string.sub, string.find, string.gmatch, table.concat

-- the response headers the edge decides (the origin's are replaced)
local HEADERS = {
  "Access-Control-Allow-Origin",
  "Access-Control-Allow-Credentials",
  "Access-Control-Allow-Methods",
  "Access-Control-Allow-Headers",
  "Access-Control-Expose-Headers",
  "Access-Control-Max-Age",
}

local function text(v, what)
  if v == nil then return nil end
  if type(v) ~= "string" then error("跨域访问的" .. what .. "不是文本", 0) end
  return v
end

function M.prepare(d)
  if type(d) ~= "table" then error("跨域访问的数据不正确", 0) end
  local p = {
    any = d.any == true,
    exact = {},
    wild = {},
    credentials = d.credentials == true,
    methods = text(d.methods, "请求方法") or "",
    headers = text(d.headers, "请求头"),
    expose = text(d.expose, "响应头"),
    max_age = text(d.max_age, "缓存时间") or "0",
  }
  for _, o in ipairs(type(d.exact) == "table" and d.exact or {}) do
    p.exact[lower(text(o, "来源"))] = true
  end
  for _, w in ipairs(type(d.wild) == "table" and d.wild or {}) do
    if type(w) ~= "table" or type(w[1]) ~= "string" or type(w[2]) ~= "string" or #w[2] == 0 then
      error("跨域访问的通配来源不正确", 0)
    end
    p.wild[#p.wild + 1] = { pre = lower(w[1]), suf = lower(w[2]), np = #w[1], ns = #w[2] }
  end
  return p
end

-- the value of Access-Control-Allow-Origin for a request's Origin, or nil: `*` for every request when
-- every origin is allowed; else the Origin itself when it is listed (scheme, host in any case, port) or
-- is a subdomain (one or more labels) of a `scheme://*.domain[:port]` entry
local function allowed(p, origin)
  if p.any then return "*" end
  if type(origin) ~= "string" then return nil end
  local o = lower(origin)
  if p.exact[o] then return origin end
  local n = #o
  for i = 1, #p.wild do
    local w = p.wild[i]
    if n > w.np + w.ns and sub(o, 1, w.np) == w.pre and sub(o, -w.ns) == w.suf
        and find(sub(o, w.np + 1, -w.ns - 1), "^[%w%-][%w%.%-]*$") then
      return origin
    end
  end
  return nil
end
M.allowed = allowed

function M.access(p, req)
  if req.method ~= "OPTIONS" then return end
  local var = ngx.var
  local origin = var.http_origin
  if not origin or not var.http_access_control_request_method then return end
  if allowed(p, origin) then
    req.cors_preflight = true
    return ngx.exit(204)
  end
  return req:refuse(403)
end

-- Vary: Origin added to the answer's own Vary, once
local function vary_origin(h)
  local vary = h["Vary"]
  if type(vary) == "table" then vary = concat(vary, ", ") end
  if vary then
    for t in gmatch(lower(vary), "[^,%s]+") do
      if t == "origin" or t == "*" then return end
    end
    h["Vary"] = vary .. ", Origin"
  else
    h["Vary"] = "Origin"
  end
end

function M.header(p, req)
  local h = ngx.header
  for i = 1, #HEADERS do h[HEADERS[i]] = nil end
  if not p.any then vary_origin(h) end
  local a = allowed(p, ngx.var.http_origin)
  if not a then return end
  h["Access-Control-Allow-Origin"] = a
  if p.credentials then h["Access-Control-Allow-Credentials"] = "true" end
  if req.cors_preflight then
    h["Access-Control-Allow-Methods"] = p.methods
    if p.headers then h["Access-Control-Allow-Headers"] = p.headers end
    h["Access-Control-Max-Age"] = p.max_age
  elseif p.expose then
    h["Access-Control-Expose-Headers"] = p.expose
  end
end

-- nginx's own answers before any location (a 405 for TRACE) carry the same headers
M.early_header = M.header

return M
