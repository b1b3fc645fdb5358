-- The edge's runtime (docs/edge.md "Services as data"): nginx.conf is fixed; each service is data that
-- the agent loads into shared dictionaries through the node's admin socket (edge_core.load), and every
-- request looks its service up by Host, runs the settings' Lua modules (schemas/settings/<id>/edge.lua)
-- on the service's data, and goes on to the cache and the fetch server (edge_fetch.lua).
--
--   edge_services  "d<id>" → the service's data (JSON), "v<id>" → its version
--   edge_hosts     host (or "*.suffix") → service id
--   edge_certs     "c<id>" → a certificate and its key (JSON)
--
-- Each worker keeps the prepared form of a service (decoded, its modules' prepare() run, its rules built)
-- in an LRU cache by id, checked against the version on every request: a change is seen at once, and a
-- service is prepared again only when its version moved.
local cjson = require "cjson.safe"
local lrucache = require "resty.lrucache"

local ngx = ngx
local var = ngx.var
local shared = ngx.shared
local pairs, ipairs, type, tonumber, tostring, pcall = pairs, ipairs, type, tonumber, tostring, pcall
local sort, concat = table.sort, table.concat
local find, sub, lower, match = string.find, string.sub, string.lower, string.match

local M = {}

local opts = {}
local prepared          -- per worker: id → prepared service
local modules = {}      -- setting id → its Lua module (false: none)
local stash, stash_n = {}, 0
M.phases = { "access", "header", "body", "log" }

function M.init(o)
  opts = o
  prepared = lrucache.new(o.lru or 20000)
end

function M.options() return opts end

-- a setting's module: schemas/settings/<id>/edge.lua (lua_package_path has "<schemas>/?/edge.lua")
local function module_of(id)
  local m = modules[id]
  if m == nil then
    local ok, mod = pcall(require, "settings." .. id)
    if not ok then error("设置“" .. id .. "”的边缘模块无法加载：" .. tostring(mod), 0) end
    m = mod
    modules[id] = m
  end
  return m
end

-- the prepared form of one service's data
local function prepare(json)
  local d, err = cjson.decode(json)
  if type(d) ~= "table" then return nil, "数据无法解析：" .. tostring(err) end
  local svc = { id = d.id, v = d.v, d = d, mods = {}, hooks = {} }
  for _, ph in ipairs(M.phases) do svc.hooks[ph] = {} end
  svc.hooks.refusal, svc.hooks.origin_error, svc.hooks.fetch = {}, {}, {}
  svc.hooks.early_header = {}
  for id, data in pairs(d.settings or {}) do
    local m = module_of(id)
    local p = data
    if m.prepare then
      local ok, r = pcall(m.prepare, data, d)
      if not ok then return nil, "设置“" .. id .. "”：" .. tostring(r) end
      p = r
    end
    svc.mods[#svc.mods + 1] = { id = id, m = m, p = p, order = m.order or 50 }
  end
  if d.rules then
    local rules = require "edge_rules_glue"
    local ok, e = pcall(rules.prepare, d)
    if not ok then return nil, "边缘规则：" .. tostring(e) end
    if e then svc.mods[#svc.mods + 1] = e end
  end
  sort(svc.mods, function(a, b)
    if a.order ~= b.order then return a.order < b.order end
    return a.id < b.id
  end)
  for _, e in ipairs(svc.mods) do
    for name, list in pairs(svc.hooks) do
      if e.m[name] then list[#list + 1] = e end
    end
  end
  svc.force = {}
  for _, h in ipairs(d.force or {}) do svc.force[h] = true end
  return svc
end
M.prepare = prepare

-- a service by id, prepared (nil when the node has none)
local function by_id(id)
  local dict = shared.edge_services
  local v = dict:get("v" .. id)
  if not v then return nil end
  local svc = prepared:get(id)
  if svc and svc.v == v then return svc end
  local json = dict:get("d" .. id)
  if not json then return nil end
  local s, err = prepare(json)
  if not s then
    ngx.log(ngx.ERR, "service ", id, " v", v, ": ", err)
    return nil
  end
  prepared:set(id, s)
  return s
end
M.by_id = by_id

-- the service id of a host: the name itself, then its wildcard parents (*.example.com, as nginx's server_name)
local function host_id(host)
  local hosts = shared.edge_hosts
  local id = hosts:get(host)
  if id then return id end
  local i = find(host, ".", 1, true)
  while i do
    id = hosts:get("*" .. sub(host, i))
    if id then return id end
    i = find(host, ".", i + 1, true)
  end
  return nil
end

function M.lookup(host)
  if not host or host == "" then return nil end
  local id = host_id(lower(host))
  if not id then return nil end
  return by_id(id)
end

-- "id:version" as the client side hands it to the fetch server (X-Edge-Svc)
function M.by_key(key)
  local id = tonumber(match(key or "", "^(%d+):"))
  if not id then return nil end
  return by_id(id)
end

-- ---------------------------------------------------------------------------------------------------
-- a request's state across nginx's internal redirects (ngx.exec to a variant clears ngx.ctx)

local function keep(req)
  ngx.ctx.edge = req
  if not req.stash then
    stash_n = stash_n + 1
    req.stash = stash_n
    stash[stash_n] = req
    var.edge_stash = stash_n
  end
end

local function current()
  local req = ngx.ctx.edge
  if req then return req end
  local n = tonumber(var.edge_stash)
  if not n then return nil end
  req = stash[n]
  if req then ngx.ctx.edge = req end
  return req
end
M.current = current

-- ---------------------------------------------------------------------------------------------------
-- what the settings' modules may call on a request

local Req = {}
Req.__index = Req

-- the edge's own refusal (EDGE_REFUSALS): its status is the code's first three digits; a module may
-- give a page for it (自定义错误页面), else nginx's plain page with the status
function Req:refuse(code, status)
  status = status or (code >= 1000 and math.floor(code / 100000) or code)
  var.edge_refusal = code >= 1000 and code or ""
  for _, e in ipairs(self.svc.hooks.refusal) do
    local url = e.m.refusal(e.p, self, code, status)
    if url then return self:serve_page(url, status) end
  end
  return ngx.exit(status)
end

-- answers `status` with the body of `url` (a path of the same service, fetched and cached like any other)
function Req:serve_page(url, status)
  local path, query = match(url, "^([^?]*)%??(.*)$")
  self.page_status = status
  self.key_args = query
  self.fetch.page = true
  self.fetch.ttl = nil
  self.fetch.mirror = nil
  -- always a jump (never back into the access chain that refused): @edge_plain when no variant applies
  self.variant = self.page_variant or self.variant or "edge_plain"
  self.img = nil
  ngx.req.set_uri_args(query)
  ngx.req.set_uri(ngx.unescape_uri(path))
  return M.go(self)
end

function Req:header_value(name)
  local v = ngx.header[name]
  if type(v) == "table" then v = concat(v, ", ") end
  return v
end

-- ---------------------------------------------------------------------------------------------------
-- the client side: location / (rewrite), the variants' filters, @edge_page

local function fetch_flags(f)
  local out, n = {}, 0
  for k, v in pairs(f) do
    if v ~= nil and v ~= false then
      n = n + 1
      out[n] = k .. "=" .. (v == true and "1" or tostring(v))
    end
  end
  return concat(out, ";")
end

-- the cache key: the service first, so that a domain moved to another service never meets the first one's objects;
-- purges compute it in TypeScript with edgeCacheKey (schemas/edge-cache-key.ts): keep the two in step
function M.cache_key(svc, host, uri, args)
  return "s" .. svc.id .. "/" .. host .. uri .. "?" .. (args or "")
end

-- on to the cache and the fetch server, through the request's variant (compression, image) when it has one
function M.go(req)
  var.edge_cache_key = M.cache_key(req.svc, req.host, var.uri, req.key_args or var.args)
  if req.mirror_key then var.edge_cache_key = var.edge_cache_key .. req.mirror_key end
  var.edge_fetch = fetch_flags(req.fetch)
  keep(req)
  local variant = req.img and ("img_" .. req.img.op) or req.variant
  if req.img then
    var.edge_img_w, var.edge_img_h, var.edge_img_q = req.img.w, req.img.h, req.img.q
  end
  if variant then return ngx.exec("@" .. variant) end
end

function M.rewrite()
  local host = var.host
  local svc = M.lookup(host)
  if not svc then
    ngx.status = 404
    ngx.header["Content-Type"] = "text/plain; charset=utf-8"
    ngx.print(opts.texts.unknown_domain)
    return ngx.exit(404)
  end
  host = lower(host)
  var.edge_service = svc.id
  var.edge_svc = svc.id .. ":" .. svc.v
  if svc.force[host] and var.https ~= "on" then
    local port = opts.https_port == 443 and "" or (":" .. opts.https_port)
    return ngx.redirect("https://" .. host .. port .. var.request_uri, 301)
  end
  local req = setmetatable({ svc = svc, d = svc.d, host = host, fetch = {}, method = ngx.req.get_method() }, Req)
  keep(req)
  if svc.d.paused then return M.closed(req) end
  for _, e in ipairs(svc.hooks.access) do
    e.m.access(e.p, req)
  end
  return M.go(req)
end

-- a service paused by its bandwidth cap: 403 with the provider's page (or the customer's page for 40310006)
function M.closed(req)
  var.edge_refusal = 40310006
  for _, e in ipairs(req.svc.hooks.refusal) do
    local url = e.m.refusal(e.p, req, 40310006, 403)
    if url then return req:serve_page(url, 403) end
  end
  req.page_status = 403
  return ngx.exec("@edge_closed")
end

-- @edge_page: the fetch server answered 599 — an error page applies (X-Edge-Page: status and url), or the storage missed (mirror)
function M.page()
  local req = current()
  if not req then return ngx.exit(502) end
  local kind = var.upstream_http_x_edge_page or ""
  -- @edge_page has no proxy of its own: what follows must jump to a location that has one
  if not req.variant then req.variant = "edge_plain" end
  if kind == "mirror-miss" then
    req.fetch.mirror = nil
    req.mirror_key = nil
    req.mirror_missed = true
    return M.go(req)
  end
  local status, url = match(kind, "^(%d+) (.*)$")
  if not status then return ngx.exit(502) end
  return req:serve_page(url, tonumber(status))
end

-- moves the origin's caching headers back that the fetch server set aside for a cache rule (edge_fetch.lua)
local function restore_origin_headers()
  local h = ngx.header
  local cc, ex = h["X-Edge-Origin-CC"], h["X-Edge-Origin-Expires"]
  if cc or ex or h["X-Edge-Origin-None"] then
    h["Cache-Control"] = cc
    h["Expires"] = ex
    h["X-Edge-Origin-CC"], h["X-Edge-Origin-Expires"], h["X-Edge-Origin-None"] = nil, nil, nil
  end
end

-- the client side as an RFC 9111 cache (docs/edge.md "The edge as an HTTP cache"), on every answer before the
-- settings' header hooks: Age on hits, no-transform, a compressed body's validator
local CACHED = { HIT = true, STALE = true, UPDATING = true }
function M.http_cache(req)
  local h = ngx.header
  -- a hit's Age: now less when the answer was born (the fetch server's X-Edge-Born: its arrival less the origin's Age)
  if CACHED[var.upstream_cache_status] then
    local born = tonumber(var.upstream_http_x_edge_born)
    if born then
      local age = ngx.time() - born
      h["Age"] = age > 0 and age or 0
    end
  end
  local cc = h["Cache-Control"]
  if type(cc) == "table" then cc = concat(cc, ", ") end
  if cc and find(lower(cc), "no-transform", 1, true) then
    -- no compression, minification or image transform (§5.2.2.6): gzip and brotli (their header filters
    -- run after this one) read the request's Accept-Encoding; the settings' modules read req.no_transform
    req.no_transform = true
    if req.variant then ngx.req.clear_header("Accept-Encoding") end
    return
  end
  local v = req.variant
  if v and (sub(v, 1, 2) == "gz" or sub(v, 1, 2) == "br") and var.http_accept_encoding then
    -- gzip drops an ETag that is not a quoted entity-tag where it weakens a strong one (RFC 9110 §8.8.3):
    -- an unquoted one is kept, as a weak tag of its value
    local et = h["ETag"]
    if type(et) == "string" and sub(et, 1, 1) ~= '"' and sub(et, 1, 2) ~= "W/" then h["ETag"] = 'W/"' .. et .. '"' end
  end
end

-- the methods whose successful answer invalidates the stored answers of their URL (RFC 9111 §4.4)
local UNSAFE = { POST = true, PUT = true, DELETE = true, PATCH = true }

function M.header()
  local req = current()
  if not req then return end
  if req.page_status then
    ngx.status = req.page_status
    ngx.header["X-Edge-Page"] = nil
  end
  restore_origin_headers()
  M.http_cache(req)
  for _, e in ipairs(req.svc.hooks.header) do
    e.m.header(e.p, req)
  end
  -- before the answer leaves (in the log phase a client's next request could still meet the stored copy)
  if UNSAFE[req.method] and not req.invalidated then
    req.invalidated = true
    M.invalidate(req)
  end
end

-- the client servers' own header filter: nginx's answers before any location (a 405 for TRACE, a 400)
-- have no request state; the modules' early_header(p, req) get one with the service of the Host only
function M.early_header()
  if current() then return M.header() end
  local host = var.host
  local svc = M.lookup(host)
  if not svc or #svc.hooks.early_header == 0 then return end
  local req = setmetatable({ svc = svc, d = svc.d, host = lower(host), fetch = {}, method = ngx.req.get_method() }, Req)
  for _, e in ipairs(svc.hooks.early_header) do
    e.m.early_header(e.p, req)
  end
end

function M.body()
  local req = current()
  if not req then return end
  for _, e in ipairs(req.svc.hooks.body) do
    e.m.body(e.p, req)
  end
end

-- RFC 9111 §4.4: a successful unsafe request removes the stored answer of its URL and of its Location and
-- Content-Location on the same host (the cache file of their key, as a URL purge does: src/edge/purge/cache.ts;
-- the key's query part is the URL's own, i.e. as 保留所有参数 keeps it)

local function drop_cached(key)
  local dir = opts.cache_dir
  if not dir or not key or key == "" then return end
  local m = ngx.md5(key)
  os.remove(dir .. "/" .. sub(m, -1) .. "/" .. sub(m, -3, -2) .. "/" .. m)
end

local function drop_location(req, loc)
  if not loc or loc == "" then return end
  local host, rest = match(loc, "^[hH][tT][tT][pP][sS]?://([^/?#]+)(.*)$")
  if host then
    host = lower(match(host, "^([^:]+)") or host)
    if host ~= req.host then return end
  else
    rest = loc
  end
  local path, query = match(rest, "^(/[^?#]*)%??([^#]*)")
  if not path then return end
  drop_cached(M.cache_key(req.svc, req.host, ngx.unescape_uri(path), query))
end

function M.invalidate(req)
  local status = ngx.status
  if status < 200 or status >= 400 then return end
  drop_cached(var.edge_cache_key)
  drop_location(req, var.sent_http_location)
  drop_location(req, var.sent_http_content_location)
end

function M.log()
  local req = current()
  if not req then return end
  for _, e in ipairs(req.svc.hooks.log) do
    e.m.log(e.p, req)
  end
  if req.stash then stash[req.stash] = nil end
end

-- ---------------------------------------------------------------------------------------------------
-- the admin socket: the agent loads services, hosts and certificates (POST /load, JSON)

local function check_host(h)
  return type(h) == "string" and #h <= 253 and find(h, "^[%w%*][%w%.%-]*$") ~= nil
end

-- every certificate a service names must be one OpenSSL can use (PEM certificate and key)
local function check_certs(svc, certs)
  local tls = svc.d.tls
  if type(tls) ~= "table" then return nil end
  local ssl = require "ngx.ssl"
  local seen = {}
  for name, id in pairs(tls.hosts or {}) do
    if not seen[id] then
      seen[id] = true
      local pem = cjson.decode(certs:get("c" .. id) or "")
      if type(pem) ~= "table" then return "域名 " .. name .. " 的证书不在节点上" end
      local c, e1 = ssl.parse_pem_cert(pem.crt or "")
      local k, e2 = ssl.parse_pem_priv_key(pem.key or "")
      if not c then return "域名 " .. name .. " 的证书无法加载（" .. tostring(e1) .. "）" end
      if not k then return "域名 " .. name .. " 的私钥无法加载（" .. tostring(e2) .. "）" end
    end
  end
  return nil
end

function M.load()
  ngx.req.read_body()
  local body = ngx.req.get_body_data()
  if not body then
    local file = ngx.req.get_body_file()
    if file then
      local f = io.open(file, "rb")
      body = f and f:read("*a")
      if f then f:close() end
    end
  end
  local msg = cjson.decode(body or "")
  if type(msg) ~= "table" then
    ngx.status = 400
    return ngx.say(cjson.encode({ error = "bad body" }))
  end
  local dict, hosts, certs = shared.edge_services, shared.edge_hosts, shared.edge_certs
  local results = {}
  for _, c in ipairs(msg.certs or {}) do
    local ok, err = certs:safe_set("c" .. c.id, c.json)
    if not ok then results[#results + 1] = { cert = c.id, error = "证书无法保存：" .. tostring(err) } end
  end
  for _, id in ipairs(msg.drop or {}) do
    dict:delete("v" .. id)
    dict:delete("d" .. id)
  end
  for _, h in ipairs(msg.unhost or {}) do hosts:delete(h) end
  for _, s in ipairs(msg.services or {}) do
    -- a service the node cannot use is refused alone: its previous version (if any) stays
    local okp, svc, err = pcall(prepare, s.json)
    if not okp then svc, err = nil, svc end
    if svc then
      for _, h in ipairs(s.hosts or {}) do
        if not check_host(h) then svc, err = nil, "域名不合法：" .. tostring(h) break end
      end
    end
    if svc then err = check_certs(svc, certs) if err then svc = nil end end
    if svc then
      -- safe_set: a full dictionary refuses this service instead of evicting another one's data
      local ok, e = dict:safe_set("d" .. s.id, s.json)
      if ok then ok, e = dict:safe_set("v" .. s.id, s.v) end
      if not ok then
        svc, err = nil, "节点内存不足，无法保存该服务的配置（" .. tostring(e) .. "）"
        dict:delete("d" .. s.id)
        dict:delete("v" .. s.id)
      end
    end
    if svc then
      for _, h in ipairs(s.hosts or {}) do
        local ok, e = hosts:safe_set(h, s.id)
        if not ok then ngx.log(ngx.ERR, "edge_hosts full: ", e) end
      end
      results[#results + 1] = { id = s.id, v = s.v }
    else
      results[#results + 1] = { id = s.id, v = s.v, error = err }
    end
  end
  for k, v in pairs(msg.state or {}) do shared.edge_state:set(k, v) end
  ngx.header["Content-Type"] = "application/json"
  ngx.say(cjson.encode({ results = results }))
end

-- POST /sweep {ids, hosts, refused}: after a full load by an agent that adopted a running nginx (the previous
-- agent's services may have gone meanwhile), everything else is removed
function M.sweep()
  ngx.req.read_body()
  local msg = cjson.decode(ngx.req.get_body_data() or "")
  if type(msg) ~= "table" then ngx.status = 400 return ngx.say("{}") end
  local ids, hosts, keep = {}, {}, {}
  for _, id in ipairs(msg.ids or {}) do ids["v" .. id], ids["d" .. id] = true, true end
  for _, id in ipairs(msg.refused or {}) do ids["v" .. id], ids["d" .. id], keep[id] = true, true, true end
  for _, h in ipairs(msg.hosts or {}) do hosts[h] = true end
  local removed = 0
  local dict = shared.edge_services
  for _, k in ipairs(dict:get_keys(0)) do
    if not ids[k] then dict:delete(k) removed = removed + 1 end
  end
  local hd = shared.edge_hosts
  for _, k in ipairs(hd:get_keys(0)) do
    -- (a host of a service this agent kept but could not load, refused say, stays with its previous version)
    if not hosts[k] and not keep[hd:get(k)] then hd:delete(k) removed = removed + 1 end
  end
  ngx.header["Content-Type"] = "application/json"
  ngx.say(cjson.encode({ removed = removed }))
end

-- GET /state: what this nginx holds (the agent checks it after an nginx restart; tests read it);
-- GET /state?held=1 also lists the services' ids and the hosts with their service (an agent that adopts a
-- running nginx learns what an earlier agent loaded, so that it can drop what is gone since)
function M.state()
  local st = shared.edge_state
  local out = {
    version = st:get("version") or 0,
    generation = st:get("generation") or 0,
    services = #shared.edge_services:get_keys(0) / 2,
    pid = ngx.worker.pid(),
  }
  if var.arg_held == "1" then
    local ids, hosts = {}, {}
    for _, k in ipairs(shared.edge_services:get_keys(0)) do
      local id = match(k, "^v(%d+)$")
      if id then ids[#ids + 1] = tonumber(id) end
    end
    local dict = shared.edge_hosts
    for _, h in ipairs(dict:get_keys(0)) do hosts[h] = dict:get(h) end
    out.held = { ids = ids, hosts = hosts }
  end
  ngx.header["Content-Type"] = "application/json"
  ngx.say(cjson.encode(out))
end

return M
