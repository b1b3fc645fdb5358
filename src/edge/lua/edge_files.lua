-- A path as the edge API's storage routes take it: $uri is percent-decoded, and a variable in proxy_pass
-- is sent as it is, so each segment is percent-encoded again (src/edge/compile/service.ts for file
-- services, schemas/settings/thumb_versions/edge.ts, src/edge/lua/edge_mirror.lua).
local M = {}

function M.escape_path(uri)
  local t = {}
  for seg in uri:gmatch("[^/]+") do t[#t + 1] = ngx.escape_uri(seg) end
  return "/" .. table.concat(t, "/")
end

return M
