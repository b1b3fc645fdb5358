-- Edge rules on the edge (docs/edge-rules.md "On the edge"): the rule-set semantics of
-- src/shared/edgerules/evaluate.ts run on a real request inside nginx.
--
--   access (order 30 of the runtime's chain, edge_core.lua through edge_rules_glue.lua):
--                    er.access(set, r) — the service's compiled rules (src/edge/rules/lua.ts, built once
--                    per worker and version) run in priority order; a redirect, exit or error page
--                    answers at once; otherwise request headers, method, body, query and the rewritten
--                    path are applied (ngx.req.set_uri(path, false): no location jump, the request goes
--                    on through the chain to the cache or the origin), rate-limited when asked.
--   header filter:   er.header(set, r) — the response header changes, on every answer of the request.
--
-- A rule that fails at run time stops there (as in the tester), never the request.

local fn = require "edgerules.fn"

local _M = {}

local ngx = ngx
local ngx_var = ngx.var
local ngx_req = ngx.req
local re_match = ngx.re.match
local type = type
local pairs = pairs
local ipairs = ipairs
local tostring = tostring
local error = error
local pcall = pcall
local concat = table.concat
local lower = string.lower
local find = string.find
local sub = string.sub
local gsub = string.gsub
local str = fn.str
local pairs_of = fn.pairs_of
local decode = fn.decode

math.randomseed(ngx.now() * 1000 + (ngx.worker and ngx.worker.pid() or 0))

local BODY_MAX = 16 * 1024

local function read_body(limit)
  ngx_req.read_body()
  local data = ngx_req.get_body_data()
  if data then return limit and sub(data, 1, limit) or data end
  local file = ngx_req.get_body_file()
  if not file then return "" end
  local f = io.open(file, "rb")
  if not f then return "" end
  data = f:read(limit or "*a") or ""
  f:close()
  return data
end

-- the request as the rules read it, from its raw parts: method, scheme, host, uri, query, headers (names
-- in lower case, or a function answering them), body (or a function), ip, country (or a function), time —
-- what the evaluator's parseRequest() makes of a sample. The costly parts (headers, query parameters,
-- host labels, cookies, form fields) are made when a rule first reads them.
local LAZY = {
  headers = function(req)
    local h = req._raw.headers
    if type(h) == "function" then h = h() end
    return h or {}
  end,
  args = function(req) return pairs_of(req.query, "&", true) end,
  labels = function(req)
    local labels = {}
    for l in string.gmatch(gsub(req.host, ":%d+$", ""), "[^.]+") do labels[#labels + 1] = l end
    return labels
  end,
  full_body = function(req)
    local b = req._raw.body
    if type(b) == "function" then b = b() end
    return b or ""
  end,
  body = function(req) return sub(req.full_body, 1, BODY_MAX) end,
  country = function(req)
    local v = req._raw.country
    if type(v) == "function" then v = v() end
    return string.upper(v or "")
  end,
}
local REQ_MT = {
  __index = function(req, k)
    local make = LAZY[k]
    if not make then return nil end
    local v = make(req)
    rawset(req, k, v)
    return v
  end,
}
local function req_cookies(req)
  local v = rawget(req, "_cookies")
  if not v then
    v = pairs_of(req.headers["cookie"] or "", ";", false)
    rawset(req, "_cookies", v)
  end
  return v
end
local function req_post(req)
  local v = rawget(req, "_post")
  if not v then
    if find(req.headers["content-type"] or "", "application/x-www-form-urlencoded", 1, true) then
      v = pairs_of(req.full_body, "&", true)
    else
      v = {}
    end
    rawset(req, "_post", v)
  end
  return v
end

function _M.build(raw)
  local req = {
    _raw = raw,
    method = string.upper(raw.method or "GET"),
    scheme = lower(raw.scheme or "http"),
    host = raw.host or "",
    uri = raw.uri or "/",
    query = raw.query or "",
    ip = raw.ip or "",
    time = raw.time or ngx.time(),
    cookies = req_cookies,
    post = req_post,
  }
  return setmetatable(req, REQ_MT)
end

-- the request nginx is serving (as it arrived)
local function nginx_headers()
  local headers = {}
  for k, v in pairs(ngx_req.get_headers(0)) do
    if type(v) == "table" then v = concat(v, ", ") end
    headers[lower(k)] = v
  end
  return headers
end
local function nginx_body() return read_body(nil) end
local function nginx_country() return ngx_var.geoip_country_code end

local function request(needs_body)
  return _M.build({
    method = ngx_req.get_method(),
    scheme = ngx_var.scheme,
    host = ngx_var.http_host or ngx_var.host,
    uri = ngx_var.uri,
    query = ngx_var.args,
    headers = nginx_headers,
    body = needs_body and nginx_body or "",
    ip = ngx_var.remote_addr,
    country = nginx_country,
    time = ngx.time(),
  })
end

-- one rule's pieces: the text it leaves (its rewrite target); stops where the rule halts
local function run_rule(r, c)
  local buf = {}
  local code = r.code
  for i = 1, #code do
    local v = code[i](c)
    if c.halt ~= 0 then break end
    local t = type(v)
    if t == "string" then buf[#buf + 1] = v
    elseif t == "table" then buf[#buf + 1] = str(v) end
  end
  return concat(buf)
end

-- runs the rules on a request: the evaluator's run() (state, rewrite, trace of outcomes)
function _M.run(set, req)
  local st = {
    status = nil, location = nil, body = nil, error_page = nil,
    method = req.method, request_body = nil, deleted_args = {},
    req_headers = {}, rsp_headers = {}, after = nil, rate = nil,
  }
  local c = { req = req, st = st, groups = nil, caps = {}, halt = 0, ended = nil, missing = nil, priority = 0 }
  local stopped, ended_early = false, false
  local rewrite = nil
  local trace = {}
  for i, r in ipairs(set.rules) do
    local outcome
    if stopped then
      outcome = "not_reached"
    elseif r.st == "OFF" then
      outcome = "off"
    elseif r.st == "DEBUG" and lower(r.ip) ~= lower(req.ip) then
      outcome = "debug_ip"
    elseif r.invalid then
      outcome = "invalid"
    else
      local go = true
      c.groups = nil
      if r.pat then
        local m = re_match(req.uri, r.pat, "jo")
        if not m then
          outcome = "no_match"
          go = false
        else
          c.groups = m
        end
      end
      if go then
        c.caps = {}
        c.halt = 0
        c.ended = nil
        c.missing = nil
        c.priority = r.p
        local ok, text = pcall(run_rule, r, c)
        if not ok then
          if type(text) ~= "table" or not text.edge then error(text, 0) end
          outcome = "error"
        elseif c.halt == 1 then
          outcome = "condition_false"
        elseif c.halt == 2 then
          outcome = c.ended
          stopped = true
          ended_early = true
        else
          outcome = "matched"
          if text ~= "" and not c.missing then
            rewrite = { text = text, q = r.q }
          end
          if r.brk then
            outcome = "break"
            stopped = true
          end
        end
      end
    end
    trace[i] = outcome
  end
  st.trace = trace

  -- the query after $DEL_ARG, then the rewrite (only when the set did not end early)
  local query = req.query
  if #st.deleted_args > 0 and query ~= "" then
    local del = {}
    for _, n in ipairs(st.deleted_args) do del[n] = true end
    local keep = {}
    for part in string.gmatch(query .. "&", "([^&]*)&") do
      local eq = find(part, "=", 1, true)
      if not del[decode(eq and sub(part, 1, eq - 1) or part, true)] then keep[#keep + 1] = part end
    end
    query = concat(keep, "&")
  end
  local path = req.uri
  st.rewritten = false
  if rewrite and not ended_early then
    st.rewritten = true
    local text = rewrite.text
    local q = find(text, "?", 1, true)
    path = q and sub(text, 1, q - 1) or text
    local own = q and sub(text, q + 1) or ""
    if sub(path, 1, 1) ~= "/" and not find(path, "^https?://") then path = "/" .. path end
    if rewrite.q == "none" then
      query = ""
    elseif rewrite.q == "drop" then
      query = own
    elseif own ~= "" and query ~= "" then
      query = own .. "&" .. query
    elseif own ~= "" then
      query = own
    end
  end
  st.path = path
  st.query = query
  return st
end

local METHOD_IDS = {
  GET = ngx.HTTP_GET, HEAD = ngx.HTTP_HEAD, PUT = ngx.HTTP_PUT, POST = ngx.HTTP_POST,
  DELETE = ngx.HTTP_DELETE, OPTIONS = ngx.HTTP_OPTIONS, PATCH = ngx.HTTP_PATCH,
}

-- what the trace header shows (only to a caller holding the node's key)
local function trace_header(set, st)
  local rules = {}
  for i, r in ipairs(set.rules) do rules[i] = r.id .. ":" .. st.trace[i] end
  return "rate=" .. tostring(st.rate or "") .. ";after=" .. tostring(st.after or "") .. ";rules=" .. concat(rules, ",")
end

-- the access phase of the runtime (edge_core.lua, through edge_rules_glue.lua): run the rules and act
-- on the outcome; `r` is the request's state in the runtime (its refusal and error pages)
function _M.access(set, r)
  if ngx_req.is_internal() then return end
  -- the trace header is the node's: neither the rules nor the origin see it
  local auth = ngx_var.http_x_edge_trace
  if auth then ngx_req.clear_header("X-Edge-Trace") end
  local req = request(set.body)
  local st = _M.run(set, req)
  r.rules = st
  if auth and auth == ngx_var.edge_node_auth then r.rules_trace = trace_header(set, st) end

  if st.status then
    if st.location then
      return ngx.redirect(st.location, st.status)
    end
    if st.error_page then
      local page = st.error_page
      local body = ""
      if sub(page, 1, 1) == "/" then
        local res = ngx.location.capture(page, { method = ngx.HTTP_GET })
        if res and res.status == 200 then body = res.body or "" end
      end
      ngx.status = st.status
      ngx.header["Content-Type"] = "text/html; charset=utf-8"
      ngx.print(body)
      return ngx.exit(ngx.HTTP_OK)
    end
    if st.body == "" and st.status >= 300 then
      -- a refusal without a body of its own: the page 自定义错误页面 gives 边缘规则拦截, if any
      if st.status >= 400 then return r:refuse(40310005, st.status) end
      return ngx.exit(st.status)
    end
    ngx.status = st.status
    ngx.header["Content-Type"] = "text/plain; charset=utf-8"
    ngx.print(st.body)
    return ngx.exit(ngx.HTTP_OK)
  end

  -- request headers, in the order asked; some the edge sets for the origin are variables
  for _, h in ipairs(st.req_headers) do
    if h.applied then -- (an added header with an empty value is not applied: nginx would drop it)
      local name = h.name
      local lname = lower(name)
      local var = lname == "x-forwarded-for" and "edge_xff" or lname == "x-real-ip" and "edge_real_ip"
        or lname == "x-forwarded-proto" and "edge_fwd_proto" or nil
      if var then
        if h.action == "delete" then
          ngx_var[var] = ""
        elseif h.cover or ngx_var[var] == "" then
          ngx_var[var] = h.value
        else
          ngx_var[var] = ngx_var[var] .. ", " .. h.value
        end
      elseif h.action == "delete" then
        ngx_req.clear_header(name)
      elseif h.cover then
        ngx_req.set_header(name, h.value)
      else
        local old = ngx_req.get_headers(0)[name]
        if old == nil then
          ngx_req.set_header(name, h.value)
        else
          if type(old) ~= "table" then old = { old } end
          old[#old + 1] = h.value
          ngx_req.set_header(name, old)
        end
      end
    end
  end

  if st.method ~= req.method then ngx_req.set_method(METHOD_IDS[st.method]) end
  if st.request_body then
    ngx_req.read_body()
    ngx_req.set_body_data(st.request_body)
  end
  if st.rate then ngx_var.limit_rate = st.rate end
  if st.after then ngx_var.edge_rate_after = st.after end

  if st.query ~= req.query then ngx_req.set_uri_args(st.query) end
  if st.rewritten and st.path ~= req.uri then ngx_req.set_uri(st.path, false) end
end

-- the header filter: response header changes, on whatever answer the request gets
function _M.header(set, r)
  if r.rules_trace then ngx.header["X-Edge-Trace"] = r.rules_trace end
  local st = r.rules
  if not st then return end
  local header = ngx.header
  for _, h in ipairs(st.rsp_headers) do
    if h.applied then
      if h.action == "delete" then
        header[h.name] = nil
      elseif h.cover then
        header[h.name] = h.value
      else
        local old = header[h.name]
        if old == nil then
          header[h.name] = h.value
        else
          if type(old) ~= "table" then old = { old } end
          old[#old + 1] = h.value
          header[h.name] = old
        end
      end
    end
  end
end

return _M
