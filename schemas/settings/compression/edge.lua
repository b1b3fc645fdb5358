-- 智能压缩 on the edge (schemas/settings/compression/edge.ts gives { gzip = level|nil, br = level|nil }).
-- nginx reads compression levels per location, so the node has one location per codec and level
-- (@gz1…@gz9, @br1…@br11, src/edge/compile/main.ts); this picks the request's: Brotli when it is on and
-- the client accepts br (q above 0), else Gzip when it is on (nginx's gzip filter then looks at the
-- client's Accept-Encoding itself and adds Vary), else Brotli's location (its filter does the same).
-- Early in the chain (before the access checks), so that an error page answering a refusal is compressed
-- as any other answer; it only picks the variant, which an image operation still overrides.
local M = { order = 5 }

local find, lower, match = string.find, string.lower, string.match

local function accepts_br(ae)
  if not ae then return false end
  ae = lower(ae)
  for part in string.gmatch(ae, "[^,]+") do
    local name, rest = match(part, "^%s*([%w%-%*]+)%s*(.*)$")
    if name == "br" then
      local qv = match(rest, "q%s*=%s*([%d%.]+)")
      return not qv or tonumber(qv) > 0
    end
  end
  return false
end

function M.access(p, req)
  if p.br and accepts_br(ngx.var.http_accept_encoding) then
    req.variant = "br" .. p.br
  elseif p.gzip then
    req.variant = "gz" .. p.gzip
  elseif p.br then
    req.variant = "br" .. p.br
  end
  req.page_variant = req.variant
end

return M
