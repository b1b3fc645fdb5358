-- Mirror migration (源站资源迁移) on the edge: schemas/settings/mirror/edge.ts compiles the setting into
-- calls of this module; docs/edge.md "File services, mirror migration and images".
--
--   access:  a GET/HEAD whose path matches goes to the chosen storage first (an internal redirect to the
--            service's /__edge/mirror/ location, which proxies to the control plane's storage with the
--            node key and the edge's cache); a miss there comes back here (X-Edge-Mirror-Miss, internal)
--            and goes to the origin as usual; when migrating (开启), its answer is kept for storing
--   header:  only a 200 is stored
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

function M.header()
  local ctx = ngx.ctx
  if not ctx.edge_mirror then return end
  if ngx.status ~= 200 or ngx.header["Content-Encoding"] then
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
