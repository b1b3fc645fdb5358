-- A service's edge rules in the runtime (edge_core.lua): its data carries the rules compiled to Lua
-- (src/edge/rules/lua.ts), built once per worker and version, run in the access chain after the access
-- checks (IP, Referer, CORS preflight) and before the cache settings, and their response headers in the
-- header filter (src/edge/lua/edgerules.lua).
local M = {}

local er
local glue = { order = 30 }

function glue.access(set, req) return er.access(set, req) end
function glue.header(set, req) return er.header(set, req) end

function M.prepare(d)
  er = er or require "edgerules"
  local chunk, err = loadstring("return " .. d.rules, "=rules " .. (d.rules_key or ("s" .. tostring(d.id))))
  if not chunk then error(err, 0) end
  -- built here and held by the prepared service (its LRU entry): a new version builds anew, the old one goes with its entry
  local set = chunk()(require "edgerules.fn")
  return { id = "~rules", m = glue, p = set, order = glue.order }
end

return M
