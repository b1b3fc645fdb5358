-- 浏览器缓存 on the edge: data from edge.ts, { statuses, rules = { { re, caseless, ttl, follow } } } in
-- the rules' order. On an answer of one of the statuses, the first rule whose expression matches the
-- path ($uri) writes Cache-Control (max-age=<ttl>, or no-cache for 0) and Expires, unless it follows the
-- origin and the origin sent either. The edge's own cache is not affected.
local M = { order = 52 }

local type, ipairs, tostring = type, ipairs, tostring
local re_find = ngx.re.find

function M.prepare(d)
  if type(d) ~= "table" or type(d.rules) ~= "table" or type(d.statuses) ~= "table" then
    error("浏览器缓存的数据不正确", 0)
  end
  local p = { statuses = {}, rules = {} }
  for _, s in ipairs(d.statuses) do p.statuses[s] = true end
  for i, r in ipairs(d.rules) do
    if type(r) ~= "table" or type(r.re) ~= "string" or type(r.ttl) ~= "number" or r.ttl < 0 then
      error("浏览器缓存的第 " .. i .. " 条规则不正确", 0)
    end
    local opts = r.caseless and "joi" or "jo"
    -- a bad expression refuses the service now, not at its first request
    -- (ngx.re.find answers from, to, err: err is the third value, not the second)
    local ok, from, _, err = pcall(re_find, "", r.re, opts)
    if not ok or (not from and err) then error("浏览器缓存规则的表达式无效：" .. tostring(err or from), 0) end
    p.rules[i] = { re = r.re, opts = opts, ttl = r.ttl, follow = r.follow == true,
      cc = r.ttl > 0 and ("max-age=" .. r.ttl) or "no-cache" }
  end
  return p
end

function M.header(p, req)
  if not p.statuses[ngx.status] then return end
  local uri = ngx.var.uri
  for i = 1, #p.rules do
    local r = p.rules[i]
    if re_find(uri, r.re, r.opts) then
      local h = ngx.header
      if r.follow and (h["Cache-Control"] or h["Expires"]) then return end
      h["Cache-Control"] = r.cc
      h["Expires"] = ngx.http_time(ngx.time() + r.ttl)
      return
    end
  end
end

return M
