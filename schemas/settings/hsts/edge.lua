-- HSTS on the edge: every answer over HTTPS (whatever its status, the edge's own included) carries the
-- header edge.ts computed, replacing the origin's; answers over plain HTTP never do (RFC 6797 §8.1).
local M = { order = 10 }

function M.header(value)
  if ngx.var.https == "on" then ngx.header["Strict-Transport-Security"] = value end
end

-- nginx's own answers before any location (a 405 for TRACE) carry it too
M.early_header = M.header

return M
