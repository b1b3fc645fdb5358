-- The fetch server (docs/edge.md "Services as data"): the client side's cache misses come here over the
-- node's own Unix socket with X-Edge-Svc (the service and its version) and X-Edge-Fetch (what this
-- request needs: a cache rule's time, an error page, the storage first). It asks the service's origin —
-- servers, weights, backups and failover chosen per request by balancer() — or its storage behind the
-- control plane, and tells the client side's cache how long to keep the answer.
local core = require "edge_core"
local balancer = require "ngx.balancer"

local ngx = ngx
local var = ngx.var
local shared = ngx.shared
local ipairs, tonumber, tostring = ipairs, tonumber, tostring
local match, gmatch, gsub, byte, format = string.match, string.gmatch, string.gsub, string.byte, string.format
local find, lower, sub = string.find, string.lower, string.sub
local concat, max, type = table.concat, math.max, type
local re_find, re_match, re_gsub = ngx.re.find, ngx.re.match, ngx.re.gsub

local M = {}

-- the answers a cache rule's time applies to (others are not cached under a rule); schemas/settings/cache_rules
local RULE_STATUSES = { [200] = true, [206] = true, [301] = true, [302] = true }

local function flags()
  local f = ngx.ctx.fetch_flags
  if f then return f end
  f = {}
  for k, v in gmatch(var.http_x_edge_fetch or "", "([%w_]+)=([^;]*)") do f[k] = v end
  ngx.ctx.fetch_flags = f
  return f
end

-- a path percent-encoded again segment by segment ($uri is decoded)
local function escape_path(path)
  return (gsub(path, "[^%w%-%._~/!$&'()*+,;=:@]", function(c) return format("%%%02X", byte(c)) end))
end
M.escape_path = escape_path

local control
local function control_peer()
  if control then return control end
  local url = core.options().control or "http://127.0.0.1:8080"
  local scheme, host, port = match(url, "^(https?)://([^:/]+):?(%d*)")
  control = { scheme = scheme, host = host, port = tonumber(port) or (scheme == "https" and 443 or 80), authority = match(url, "^https?://([^/]+)") }
  return control
end

function M.rewrite()
  local svc = core.by_key(var.http_x_edge_svc)
  if not svc then return ngx.exit(502) end
  local f = flags()
  local fetch = svc.d.fetch or {}
  local storage = f.mirror or fetch.storage
  if storage then
    local c = control_peer()
    var.edge_up_target = "control"
    var.edge_up_scheme = c.scheme
    var.edge_up_pool = c.scheme == "https" and "edge_origin_tls" or "edge_origin"
    var.edge_up_host = c.authority
    local args = var.args
    var.edge_up_uri = "/edge/v1/files/" .. ngx.escape_uri(storage) .. escape_path(var.uri) .. ((args and args ~= "") and ("?" .. args) or "")
    if not f.mirror and fetch.origin then return ngx.exec("@storage_or_origin") end
    return ngx.exec("@storage")
  end
  return M.to_origin(svc, fetch)
end

function M.to_origin(svc, fetch)
  local o = fetch.origin
  if not o then return ngx.exit(502) end
  var.edge_up_target = "origin"
  local scheme = o.protocol
  if scheme == "follow" then scheme = var.http_x_edge_scheme == "https" and "https" or "http" end
  var.edge_up_scheme = scheme
  var.edge_up_pool = scheme == "https" and "edge_origin_tls" or "edge_origin"
  var.edge_up_host = (o.host and o.host ~= "") and o.host or var.host
  if fetch.strip_accept_encoding then ngx.req.clear_header("Accept-Encoding") end
end

-- @storage_miss: the storage does not hold it; a file service with an origin asks the origin
function M.storage_miss()
  local svc = core.by_key(var.http_x_edge_svc)
  if not svc then return ngx.exit(404) end
  local fetch = svc.d.fetch or {}
  ngx.req.clear_header("Authorization")
  return M.to_origin(svc, { origin = fetch.origin, strip_accept_encoding = fetch.strip_accept_encoding })
end

-- the answer on its way to the client side's cache
function M.header()
  local f = flags()
  local status = ngx.status
  local h = ngx.header
  if f.mirror then
    -- the storage first: anything but a stored object goes back to the origin (edge_core.page)
    if status ~= 200 and status ~= 206 and status ~= 304 then
      ngx.status = 599
      h["X-Edge-Page"] = "mirror-miss"
      h["X-Accel-Expires"] = "0"
      return
    end
  end
  if status >= 500 and var.http_x_edge_cache == "EXPIRED"
    and ((f.stale and find("," .. f.stale .. ",", "," .. status .. ",", 1, true)) or M.stale_if_error()) then
    -- the client side's cache holds an expired copy and the request's settings take it over this
    -- status (req.fetch.stale = "502,503,504"), or the stored answer's stale-if-error still covers it (RFC 5861;
    -- nginx since 1.19.2 applies it to network errors only): no answer at all, so proxy_cache_use_stale error serves it
    return ngx.exit(ngx.ERROR)
  end
  if status >= 400 and not f.page then
    local svc = core.by_key(var.http_x_edge_svc)
    if svc then
      for _, e in ipairs(svc.hooks.origin_error) do
        local url = e.m.origin_error(e.p, status)
        if url then
          ngx.status = 599
          h["X-Edge-Page"] = status .. " " .. url
          h["X-Accel-Expires"] = "0"
          return
        end
      end
    end
  end
  -- headers the origin named in Connection are hop-by-hop: neither stored nor passed on (RFC 9111 §3.1)
  local conn = var.upstream_http_connection
  if conn then
    for name in gmatch(conn, "[^,%s]+") do
      local l = lower(name)
      if l ~= "close" and l ~= "keep-alive" and l ~= "upgrade" then h[name] = nil end
    end
  end
  local cc = h["Cache-Control"]
  if type(cc) == "table" then cc = concat(cc, ", ") end
  -- RFC 9111 for the client side's cache (docs/edge.md "The edge as an HTTP cache"): when the answer was
  -- born, for the Age of hits (edge_core.header; the client side hides the header)
  local age = tonumber(h["Age"]) or 0
  h["X-Edge-Born"] = tostring(ngx.time() - age)
  -- a credentialed request's answer is never stored unless the answer allows it (§3.5), whatever the rules
  if var.http_authorization and var.edge_up_target == "origin"
    and not (cc and re_find(cc, [[(?:^|[,\s])(?:public|s-maxage|must-revalidate)\b]], "joi")) then
    h["X-Accel-Expires"] = "0"
    return
  end
  -- Vary with * among other names is never reused (§4.1; nginx refuses only a Vary of * alone)
  local vary = h["Vary"]
  if type(vary) == "table" then vary = concat(vary, ",") end
  if vary and find(vary, "*", 1, true) then
    h["X-Accel-Expires"] = "0"
    return
  end
  local ttl = tonumber(f.ttl)
  if not ttl then return M.origin_policy(h, cc, age, status) end
  -- a cache rule's time replaces the origin's caching headers for the cache (the client still gets them)
  if RULE_STATUSES[status] then
    local origin_cc = h["Cache-Control"]
    M.set_aside(h, origin_cc)
    h["X-Accel-Expires"] = tostring(ttl)
    if origin_cc then M.remember_stale_if_error(origin_cc, ttl) end
  else
    h["X-Accel-Expires"] = "0"
  end
end

-- the cache's view of the origin's headers without a cache rule: CDN-Cache-Control (RFC 9213) first, then
-- Cache-Control, each lifetime less the origin's Age (§4.2.3); the client keeps the origin's headers (set
-- aside as a rule's time does, restored by edge_core.header)
local CC_STOP = [[(?:^|[,\s])(?:no-store|private|no-cache)\b]]
local CC_NO_STORE = [[(?:^|[,\s])(?:no-store|private)\b]]
local CC_NO_CACHE = [[(?:^|[,\s])no-cache\b]]

-- an HTTP-date (RFC 9110 §5.6.7: IMF-fixdate, RFC 850 or asctime) as a time; anything else (a zone other than
-- GMT, a number) is nil, i.e. already expired (§5.3)
local function http_date(v)
  if type(v) ~= "string" then return nil end
  if sub(v, -4) ~= " GMT" and not find(v, "^%a%a%a %a%a%a [ %d]%d %d%d:%d%d:%d%d %d%d%d%d$") then return nil end
  return ngx.parse_http_time(v)
end
local CC_LIFETIME = [[(?<![-\w])(s-maxage|max-age)\s*=\s*"?(\d+)"?]]

local function less_age(cc, age)
  return (re_gsub(cc, CC_LIFETIME, function(m) return m[1] .. "=" .. max(tonumber(m[2]) - age, 0) end, "joi"))
end

function M.set_aside(h, cc)
  local ex = h["Expires"]
  if cc or ex then
    h["X-Edge-Origin-CC"], h["X-Edge-Origin-Expires"] = cc, ex
  else
    h["X-Edge-Origin-None"] = "1"
  end
  h["Cache-Control"], h["Expires"] = nil, nil
end

-- stale-if-error (RFC 5861) for an origin's 5xx: the fetch server remembers, per URL, until when a stored
-- answer's window lasts (its lifetime plus stale-if-error, a shared dictionary's expiry), and answers nothing
-- to the client side for a 5xx while it lasts (above)
local SIE = [[(?<![-\w])stale-if-error\s*=\s*"?(\d+)]]

local function sie_key()
  return (match(var.http_x_edge_svc or "", "^(%d+)") or "") .. " " .. var.host .. var.request_uri
end

function M.remember_stale_if_error(cc, lifetime)
  local m = re_match(cc, SIE, "joi")
  local n = m and tonumber(m[1])
  if not n or n <= 0 or not lifetime or lifetime <= 0 then return end
  shared.edge_stale:set(sie_key(), true, lifetime + n)
end

function M.stale_if_error()
  return shared.edge_stale:get(sie_key()) == true
end

function M.origin_policy(h, cc, age, status)
  -- the origin's (or the storage's) own word for this cache
  if h["X-Accel-Expires"] then return end
  if cc and status < 300 and not re_find(cc, CC_STOP, "joi") then
    local m = re_match(cc, CC_LIFETIME, "joi")
    if m then M.remember_stale_if_error(cc, tonumber(m[2]) - age) end
  end
  local cdn = h["CDN-Cache-Control"]
  if type(cdn) == "table" then cdn = concat(cdn, ", ") end
  if cdn then
    if re_find(cdn, CC_STOP, "joi") then
      h["X-Accel-Expires"] = "0"
      return
    end
    if re_find(cdn, CC_LIFETIME, "joi") then
      M.set_aside(h, cc)
      h["Cache-Control"] = less_age(cdn, age)
      local m = re_match(cdn, CC_LIFETIME, "joi")
      M.remember_stale_if_error(cdn, tonumber(m[2]) - age)
      return
    end
  end
  -- no-cache (not no-store, not private) with a validator: stored, and revalidated on every request (§5.2.2.4):
  -- a time in the past for the cache (X-Accel-Expires @1) keeps the object stale
  if cc and (status == 200 or status == 304) and re_find(cc, CC_NO_CACHE, "joi") and not re_find(cc, CC_NO_STORE, "joi")
    and (h["ETag"] or h["Last-Modified"]) then
    M.set_aside(h, cc)
    h["X-Accel-Expires"] = "@1"
    return
  end
  local lifetime = cc and re_find(cc, CC_LIFETIME, "joi")
  if age > 0 and lifetime and not re_find(cc, CC_STOP, "joi") then
    M.set_aside(h, cc)
    h["Cache-Control"] = less_age(cc, age)
    return
  end
  -- Expires without a max-age: its distance from the answer's Date, less its Age (§4.2.1), as a max-age for the cache
  local ex = h["Expires"]
  if ex and not lifetime and not (cc and re_find(cc, CC_STOP, "joi")) then
    local exp, date = http_date(ex), http_date(var.upstream_http_date)
    local left = exp and (exp - (date or ngx.time()) - age) or 0
    if left <= 0 then
      h["X-Accel-Expires"] = "0"
      return
    end
    M.set_aside(h, cc)
    h["Cache-Control"] = (cc and (cc .. ", ") or "") .. "max-age=" .. left
    if cc then M.remember_stale_if_error(cc, left) end
  end
end

-- ---------------------------------------------------------------------------------------------------
-- the origin's servers per request: weights (smooth weighted round robin per worker), backups only
-- while every primary rests, a server that failed max_fails times within timeout seconds rests that long

local rr = {}

local function resting(key, max_fails)
  if max_fails <= 0 then return false end
  return (shared.edge_state:get(key) or 0) >= max_fails
end

local function pick(list, svc_id, group, tried, o)
  local state = rr[svc_id .. group]
  if not state or state.n ~= #list then
    state = { n = #list, cw = {} }
    rr[svc_id .. group] = state
  end
  local best, total = nil, 0
  for i, s in ipairs(list) do
    local key = "f" .. svc_id .. ":" .. s.i
    if not tried[s.i] and not resting(key, o.failover and o.max_fails or 0) then
      state.cw[i] = (state.cw[i] or 0) + s.w
      total = total + s.w
      if not best or state.cw[i] > state.cw[best] then best = i end
    end
  end
  if not best then return nil end
  state.cw[best] = state.cw[best] - total
  return list[best]
end

function M.balancer()
  if var.edge_up_target == "control" then
    local c = control_peer()
    local ok, err = balancer.set_current_peer(core.options().control_ip or c.host, c.port)
    if not ok then ngx.log(ngx.ERR, "control peer: ", err) return ngx.exit(502) end
    return
  end
  local svc = core.by_key(var.http_x_edge_svc)
  local o = svc and svc.d.fetch and svc.d.fetch.origin
  if not o then return ngx.exit(502) end
  local ctx = ngx.ctx
  local tried = ctx.tried
  if not tried then
    tried = {}
    ctx.tried = tried
    if o.failover then balancer.set_more_tries(#o.primary + #o.backup - 1) end
    local t = o.timeout or 60
    balancer.set_timeouts(t, 300, 300)
  else
    -- the previous attempt failed: it counts against its server
    local last = ctx.last
    local state = balancer.get_last_failure()
    if last and (state == "failed" or state == "next") and o.failover then
      shared.edge_state:incr("f" .. svc.id .. ":" .. last.i, 1, 0, o.timeout or 10)
    end
  end
  local s = pick(o.primary, svc.id, "p", tried, o) or pick(o.backup, svc.id, "b", tried, o)
  if not s then
    -- every server rests: as nginx does, try the first primary anyway
    s = o.primary[1] or o.backup[1]
    if not s or tried[s.i] then return ngx.exit(502) end
  end
  tried[s.i] = true
  ctx.last = s
  local port = s.p
  if var.edge_up_scheme == "https" and o.protocol == "follow" and port == 80 then port = 443 end
  local ok, err = balancer.set_current_peer(s.a, port)
  if not ok then
    ngx.log(ngx.ERR, "origin peer ", s.a, ":", port, ": ", err)
    return ngx.exit(502)
  end
end

return M
