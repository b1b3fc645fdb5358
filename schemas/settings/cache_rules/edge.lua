-- 缓存规则 on the edge: data from edge.ts, a list of { re, caseless, ttl, ignore_query } in the rules'
-- order; the first rule whose expression matches the path ($uri) gives the request's cache time (the
-- fetch server applies it, src/edge/lua/edge_fetch.lua) and may empty the query part of its cache key.
local M = { order = 51 }

local re_find = ngx.re.find

function M.prepare(rules)
  for _, r in ipairs(rules) do
    r.opts = r.caseless and "joi" or "jo"
    -- a bad expression refuses the service now, not at its first request
    local ok, from, _, err = pcall(re_find, "", r.re, r.opts)
    if not ok or (not from and err) then error("缓存规则的表达式无效：" .. tostring(err or from), 0) end
  end
  return rules
end

-- the first rule that matches a path (the purge and the mirror ask it too)
function M.match(rules, uri)
  for _, r in ipairs(rules) do
    if re_find(uri, r.re, r.opts) then return r end
  end
end

function M.access(rules, req)
  local r = M.match(rules, ngx.var.uri)
  if not r then return end
  req.fetch.ttl = r.ttl
  if r.ignore_query then req.key_args = "" end
end

return M
