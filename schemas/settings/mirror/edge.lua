-- 源站资源迁移 on the edge (docs/edge.md "File services, mirror migration and images"); the data from
-- edge.ts: { bucket, patterns?, dynamic, store, key_suffix, min_seconds, max_bytes, files, source }.
--
--   access:  a GET/HEAD whose path matches asks the storage first: req.fetch.mirror makes the fetch server
--            ask <control>/edge/v1/files/<bucket>/<path> (node key) and answer 599 mirror-miss for anything
--            but a stored object, which edge_core.page() sends on to the origin; req.mirror_key keeps the
--            storage's answer apart in the cache (an object cached from the origin before migration began
--            must not pass for a stored one)
--   header:  with 开启, only a 200 of the origin (or of the edge's cache of it), not encoded, cached by the
--            edge for more than min_seconds, is kept
--   body:    collects it (up to max_bytes) as the origin sent it: this module's body filter runs before
--            页面优化's (order) and Lua's before gzip and brotli (src/edge/compile/main.ts)
--   log:     a timer PUTs it to <control>/edge/v1/files/<bucket>/<path> (node key, X-Edge-Mirror-Source),
--            which files it in the storage service's file list
local core = require "edge_core"
local escape_path = require("edge_fetch").escape_path

local M = { order = 40 }

local ngx = ngx
local re_find = ngx.re.find
local match, lower, find, sub, concat = string.match, string.lower, string.find, string.sub, table.concat
local tonumber, type = tonumber, type

function M.prepare(d)
  if type(d.bucket) ~= "string" or d.bucket == "" then error("未选择迁移的目标存储", 0) end
  if d.patterns then
    for _, re in ipairs(d.patterns) do
      local ok, err = pcall(re_find, "", re, "jo")
      if not ok or err then error("迁移路径无效：" .. tostring(err or ok), 0) end
    end
  end
  local dynamic = {}
  for _, e in ipairs(d.dynamic or {}) do dynamic[e] = true end
  return {
    bucket = d.bucket,
    patterns = d.patterns,
    dynamic = dynamic,
    store = d.store == true,
    key_suffix = d.key_suffix or "#mirror",
    min_seconds = tonumber(d.min_seconds) or 0,
    max_bytes = tonumber(d.max_bytes) or 0,
    base = (d.files or "/edge/v1/files") .. "/" .. ngx.escape_uri(d.bucket),
    source = tostring(d.source or ""),
  }
end

local function matches(p, uri)
  if p.patterns then
    for _, re in ipairs(p.patterns) do
      if re_find(uri, re, "jo") then return true end
    end
    return false
  end
  -- no paths: every static resource (a last segment with an extension that is not a program's)
  local ext = match(uri, "/[^/]*%.(%w+)$")
  return ext ~= nil and not p.dynamic[lower(ext)]
end

function M.access(p, req)
  local method = req.method
  if method ~= "GET" and method ~= "HEAD" then return end
  local uri = ngx.var.uri
  -- a path rewritten on the edge (a 缩略图版本 such as /a.jpg!small, an edge rule) is not the stored object's
  if req.img or ngx.unescape_uri(match(ngx.var.request_uri, "^[^?]*")) ~= uri then return end
  if not matches(p, uri) then return end
  req.fetch.mirror = p.bucket
  req.mirror_key = p.key_suffix
  req.mirror_store = p.store and method == "GET"
end

-- How long the edge caches this answer, in seconds, as nginx decides it: a cache rule's time when one
-- matched the path (it ignores the origin's headers), else the origin's X-Accel-Expires, Cache-Control
-- (no-store, no-cache, private: not cached; s-maxage, then max-age) or Expires; nothing of these: not
-- cached. An answer from the edge's cache carries the origin's headers as they were stored.
local function cache_seconds(req)
  local var = ngx.var
  local rule = tonumber(req.fetch.ttl or "")
  if rule then return rule end
  local xae = tonumber(var.upstream_http_x_accel_expires or "")
  if xae then return xae end
  local cc = var.upstream_http_cache_control or req:header_value("Cache-Control")
  if cc then
    cc = lower(cc)
    if find(cc, "no-store", 1, true) or find(cc, "no-cache", 1, true) or find(cc, "private", 1, true) then return 0 end
    local age = match(cc, "s%-maxage%s*=%s*(%d+)") or match(cc, "max%-age%s*=%s*(%d+)")
    if age then return tonumber(age) end
  end
  local expires = var.upstream_http_expires or ngx.header["Expires"]
  if type(expires) == "table" then expires = expires[1] end
  if expires then
    local at = ngx.parse_http_time(expires)
    if at then return at - ngx.time() end
  end
  return 0
end

function M.header(p, req)
  -- only what the origin answered after the storage missed (edge_core.page sets mirror_missed)
  if not (req.mirror_store and req.mirror_missed) or req.mirror_parts then return end
  if ngx.status ~= 200 or ngx.header["Content-Encoding"] or req.page_status or cache_seconds(req) <= p.min_seconds then
    req.mirror_store = nil
    return
  end
  local ct = req:header_value("Content-Type")
  req.mirror_type = ct or "application/octet-stream"
  req.mirror_parts, req.mirror_size = {}, 0
end

function M.body(p, req)
  local parts = req.mirror_parts
  if not parts or not req.mirror_store then return end
  local chunk = ngx.arg[1]
  if chunk and #chunk > 0 then
    local size = req.mirror_size + #chunk
    if size > p.max_bytes then
      req.mirror_store, req.mirror_parts = nil, nil
      return
    end
    req.mirror_size = size
    parts[#parts + 1] = chunk
  end
  if ngx.arg[2] then req.mirror_body = concat(parts) end
end

local control
local function control_peer()
  if control then return control end
  local o = core.options()
  local url = o.control or "http://127.0.0.1:8080"
  local scheme, host, port = match(url, "^(https?)://([^:/]+):?(%d*)")
  control = {
    tls = scheme == "https",
    ip = o.control_ip or host,
    port = tonumber(port) or (scheme == "https" and 443 or 80),
    host = match(url, "^https?://([^/]+)") or host,
    name = host,
  }
  return control
end

local function put(premature, c, url, auth, source, ctype, body)
  if premature then return end
  local sock = ngx.socket.tcp()
  sock:settimeout(30000)
  local ok, err = sock:connect(c.ip, c.port)
  if ok and c.tls then ok, err = sock:sslhandshake(nil, c.name, false) end
  if not ok then
    ngx.log(ngx.WARN, "mirror: cannot reach the control plane: ", err)
    return
  end
  local head = "PUT " .. url .. " HTTP/1.1\r\nHost: " .. c.host
    .. "\r\nAuthorization: " .. auth
    .. "\r\nX-Edge-Mirror-Source: " .. source
    .. "\r\nContent-Type: " .. ctype
    .. "\r\nContent-Length: " .. #body
    .. "\r\nConnection: close\r\n\r\n"
  ok, err = sock:send({ head, body })
  local line = ok and sock:receive("*l")
  sock:close()
  if not line or not find(line, "^HTTP/1%.%d 200") then ngx.log(ngx.WARN, "mirror: not stored: ", url, " ", line or err) end
end

function M.log(p, req)
  local body = req.mirror_store and req.mirror_body
  if not body then return end
  local path = escape_path(ngx.var.uri)
  if path == "/" or sub(path, -1) == "/" then return end
  local ok, err = ngx.timer.at(0, put, control_peer(), p.base .. path, ngx.var.edge_node_auth, p.source, req.mirror_type, body)
  if not ok then ngx.log(ngx.WARN, "mirror: no timer: ", err) end
end

return M
