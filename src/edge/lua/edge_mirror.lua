-- Mirror migration (源站资源迁移) on the edge: schemas/settings/mirror/edge.ts compiles the setting into
-- calls of this module; docs/edge.md "File services, mirror migration and images".
--
--   access:  a GET/HEAD whose path matches goes to the chosen storage first (an internal redirect to the
--            service's /__edge/mirror/ location, which proxies to the control plane's storage with the
--            node key and the edge's cache); a miss there comes back here (X-Edge-Mirror-Miss, internal)
--            and goes to the origin as usual; when migrating (开启), its answer is kept for storing
--   header:  only a 200 the edge caches for more than 24 hours is stored
--   body:    collects the answer (up to the limit) as the origin sent it (Lua's body filters run before
--            gzip and brotli, src/edge/compile/main.ts)
--   log:     a timer PUTs it to <control>/edge/v1/files/<storage>/<path> (node key), which files it in the
--            storage service's file list
local M = {}

local PREFIX = "/__edge/mirror"
local MISS = "X-Edge-Mirror-Miss"

local function matches(uri, patterns, dynamic)
  if patterns then
    for _, p in ipairs(patterns) do
      if ngx.re.find(uri, p, "jo") then return true end
    end
    return false
  end
  -- no paths: every static resource (a last segment with an extension that is not a program's)
  local ext = uri:match("/[^/]*%.([%w]+)$")
  return ext ~= nil and not dynamic[ext:lower()]
end

function M.access(patterns, dynamic, store)
  local uri = ngx.var.uri
  if uri:sub(1, #PREFIX + 1) == PREFIX .. "/" then return end
  if ngx.req.is_internal() then
    if ngx.var.http_x_edge_mirror_miss then
      ngx.req.clear_header(MISS)
      if store and ngx.req.get_method() == "GET" then ngx.ctx.edge_mirror = true end
    end
    return
  end
  local method = ngx.req.get_method()
  if method ~= "GET" and method ~= "HEAD" then return end
  -- a path rewritten on the edge (a 缩略图版本 such as /a.jpg!small, an edge rule) is not the stored object's
  if ngx.unescape_uri(ngx.var.request_uri:match("^[^?]*")) ~= uri then return end
  if not matches(uri, patterns, dynamic) then return end
  ngx.req.clear_header(MISS)
  return ngx.exec(PREFIX .. uri, ngx.var.args)
end

-- the storage missed (or failed): back to the original path, which goes to the origin
function M.miss()
  ngx.req.set_header(MISS, "1")
  return ngx.exec(ngx.var.uri:sub(#PREFIX + 1), ngx.var.args)
end

-- How long the edge caches this answer, in seconds, as nginx decides it: a cache rule's time when one
-- matched the path (it ignores the origin's headers; $edge_cache_ttl, schemas/settings/cache_rules/edge.ts),
-- else the origin's X-Accel-Expires, Cache-Control (no-store, no-cache, private: not cached; s-maxage,
-- then max-age) or Expires; nothing of these: not cached. An answer from the edge's cache carries the
-- origin's headers as they were stored.
local function cache_seconds()
  local var = ngx.var
  local rule = tonumber(var.edge_cache_ttl or "")
  if rule then return rule end
  local xae = tonumber(var.upstream_http_x_accel_expires or "")
  if xae then return xae end
  local cc = var.upstream_http_cache_control or ngx.header["Cache-Control"]
  if type(cc) == "table" then cc = table.concat(cc, ", ") end
  if cc then
    cc = cc:lower()
    if cc:find("no-store", 1, true) or cc:find("no-cache", 1, true) or cc:find("private", 1, true) then return 0 end
    local age = cc:match("s%-maxage%s*=%s*(%d+)") or cc:match("max%-age%s*=%s*(%d+)")
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

-- only a 200 as the origin sent it (not encoded), cached by the edge for longer than min_seconds
-- (MIRROR_MIN_CACHE_SECONDS: 仅缓存时间超过 24 小时的文件会被迁移)
function M.header(min_seconds)
  local ctx = ngx.ctx
  if not ctx.edge_mirror then return end
  if ngx.status ~= 200 or ngx.header["Content-Encoding"] or cache_seconds() <= (min_seconds or 0) then
    ctx.edge_mirror = nil
    return
  end
  ctx.edge_mirror_type = ngx.header["Content-Type"]
  ctx.edge_mirror_parts = {}
  ctx.edge_mirror_size = 0
end

function M.body(max)
  local ctx = ngx.ctx
  if not ctx.edge_mirror then return end
  local chunk = ngx.arg[1]
  if chunk and #chunk > 0 then
    ctx.edge_mirror_size = ctx.edge_mirror_size + #chunk
    if ctx.edge_mirror_size > max then
      ctx.edge_mirror = nil
      ctx.edge_mirror_parts = nil
      return
    end
    ctx.edge_mirror_parts[#ctx.edge_mirror_parts + 1] = chunk
  end
  if ngx.arg[2] then ctx.edge_mirror_body = table.concat(ctx.edge_mirror_parts) end
end

local escape_path = require("edge_files").escape_path

local function put(premature, host, port, url, auth, source, ctype, body)
  if premature then return end
  local sock = ngx.socket.tcp()
  sock:settimeout(30000)
  local ok, err = sock:connect(host, port)
  if not ok then
    ngx.log(ngx.WARN, "mirror: cannot reach the control plane: ", err)
    return
  end
  local head = "PUT " .. url .. " HTTP/1.1\r\nHost: " .. host .. ":" .. port
    .. "\r\nAuthorization: " .. auth
    .. "\r\nX-Edge-Mirror-Source: " .. source
    .. "\r\nContent-Type: " .. ctype
    .. "\r\nContent-Length: " .. #body
    .. "\r\nConnection: close\r\n\r\n"
  ok, err = sock:send({ head, body })
  local line = ok and sock:receive("*l")
  sock:close()
  if not line or not line:find("^HTTP/1%.%d 200") then ngx.log(ngx.WARN, "mirror: not stored: ", url, " ", line or err) end
end

function M.log(host, port, base, bucket, source)
  local ctx = ngx.ctx
  local body = ctx.edge_mirror and ctx.edge_mirror_body
  if not body then return end
  local path = escape_path(ngx.var.uri)
  if path == "/" then return end
  local url = base .. "/" .. ngx.escape_uri(bucket) .. path
  local ok, err = ngx.timer.at(0, put, host, port, url, ngx.var.edge_node_auth, source, ctx.edge_mirror_type or "application/octet-stream", body)
  if not ok then ngx.log(ngx.WARN, "mirror: no timer: ", err) end
end

return M
