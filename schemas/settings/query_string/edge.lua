-- URL 参数缓存 on the edge: the query part of the cache key (keyArgs in edge.ts is the same rule):
-- keep_all the query as sent; ignore_all empty; keep_some / ignore_some the `name[=value]` parts whose
-- name, percent-decoded, is (or is not) listed, as sent and in their order, joined by &.
local M = { order = 50 }

local gmatch, match, concat = string.gmatch, string.match, table.concat

function M.prepare(d)
  local listed = {}
  for _, p in ipairs(d.params or {}) do listed[p] = true end
  return { mode = d.mode, listed = listed, keep = d.mode == "keep_some", none = #(d.params or {}) == 0 }
end

function M.key_args(p, args)
  if p.mode == "ignore_all" or (p.keep and p.none) then return "" end
  if p.none or not args or args == "" then return args or "" end
  local out, n = {}, 0
  for part in gmatch(args, "[^&]+") do
    local name = ngx.unescape_uri(match(part, "^[^=]*"))
    if (p.listed[name] == true) == p.keep then
      n = n + 1
      out[n] = part
    end
  end
  return concat(out, "&", 1, n)
end

function M.access(p, req)
  req.key_args = M.key_args(p, ngx.var.args)
end

return M
