-- Referer 防盗链 on the edge (edge.ts gives { mode = "whitelist"|"blacklist", domains = { "www.a.com",
-- "*.b.org" }, allow_empty = bool }). prepare() splits the list into exact hosts and wildcard suffixes
-- (".b.org": every subdomain, any depth, not b.org itself: nginx's `hostnames`); a request looks its
-- Referer's host up once, then each of its parent suffixes.
local M = { order = 10 }

local REFUSAL = 40310002 -- 防盗链拦截 (EDGE_REFUSALS.referer in src/shared/edge.ts)

local find, sub, lower, byte = string.find, string.sub, string.lower, string.byte
local re_match = ngx.re.match

-- the host of an http(s) URL, after any user@, up to / : ? #
local HOST_RE = [[^https?://(?:[^/?#@]*@)?([^/:?#]+)]]

function M.prepare(d)
  local exact, wild = {}, {}
  for _, h in ipairs(d.domains or {}) do
    if type(h) ~= "string" or h == "" then error("防盗链域名无效：" .. tostring(h), 0) end
    h = lower(h)
    if sub(h, 1, 2) == "*." then wild[sub(h, 2)] = true else exact[h] = true end
  end
  -- the expression is compiled now (and cached by "o"), not at the first request
  local ok, m, err = pcall(re_match, "http://a/", HOST_RE, "joi")
  if not ok or not m then error("防盗链表达式无效：" .. tostring(err or m), 0) end
  return { white = d.mode == "whitelist", allow_empty = d.allow_empty == true, exact = exact, wild = wild, res = {} }
end

local function listed(p, host)
  host = lower(host)
  if byte(host, -1) == 46 then host = sub(host, 1, -2) end -- a final dot, as nginx's hostnames
  if p.exact[host] then return true end
  local wild = p.wild
  local i = find(host, ".", 1, true)
  while i do
    if wild[sub(host, i)] then return true end
    i = find(host, ".", i + 1, true)
  end
  return false
end

-- whether a Referer header's value is refused
function M.refused(p, referer)
  if not referer or referer == "" then return not p.allow_empty end
  local m = re_match(referer, HOST_RE, "joi", nil, p.res)
  local hit = m and listed(p, m[1]) or false
  return hit ~= p.white
end

function M.access(p, req)
  local referer = ngx.var.http_referer
  if M.refused(p, referer) then return req:refuse(REFUSAL) end
end

return M
