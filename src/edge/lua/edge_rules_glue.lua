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
  local chunk, err = loadstring("return " .. d.rules, "=rules s" .. d.id)
  if not chunk then error(err, 0) end
  -- built here, held by the prepared service (edgerules' own cache by key would keep every version)
  local set = chunk()(require "edgerules.fn")
  return { id = "~rules", m = glue, p = set, order = glue.order }
end

return M
