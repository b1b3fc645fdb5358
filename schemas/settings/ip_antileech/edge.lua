-- IP 黑白名单 on the edge (edge.ts gives { mode = "blacklist"|"whitelist", ips = { "1.2.3.4", "10.0.0.0/8" } }).
-- prepare() parses the list once per worker into one set per prefix length (the network's number, i.e.
-- the address divided by 2^(32 - length)); a request's address is then one lookup per distinct length.
-- The address is $remote_addr: the connection's, or over HTTPS the PROXY protocol's (realip). An
-- IPv4-mapped IPv6 address (::ffff:a.b.c.d) is its IPv4 address, as in nginx's geo; any other address
-- that is not IPv4 is never listed (the list holds IPv4 only).
local M = { order = 10 }

local REFUSAL = 40310001 -- IP/地区限制 (EDGE_REFUSALS.ip in src/shared/edge.ts)

local match, sub, floor, tonumber = string.match, string.sub, math.floor, tonumber

-- an IPv4 address as a number, or nil
local function v4(s)
  local a, b, c, d = match(s, "^(%d+)%.(%d+)%.(%d+)%.(%d+)$")
  if not a then return nil end
  a, b, c, d = tonumber(a), tonumber(b), tonumber(c), tonumber(d)
  if a > 255 or b > 255 or c > 255 or d > 255 then return nil end
  return ((a * 256 + b) * 256 + c) * 256 + d
end

function M.prepare(d)
  local nets, lens = {}, {}
  for _, s in ipairs(d.ips or {}) do
    local addr, len = match(s, "^([%d%.]+)/(%d+)$")
    if not addr then addr, len = s, "32" end
    local n = v4(addr)
    len = tonumber(len)
    if not n or len > 32 then error("IP 列表中的地址无效：" .. tostring(s), 0) end
    local set = nets[len]
    if not set then
      set = {}
      nets[len] = set
      lens[#lens + 1] = { len = len, div = 2 ^ (32 - len), set = set }
    end
    -- the low bits of 1.2.3.4/24 are meaningless, as in nginx's geo
    set[floor(n / 2 ^ (32 - len))] = true
  end
  table.sort(lens, function(x, y) return x.len > y.len end)
  return { black = d.mode == "blacklist", lens = lens }
end

local function listed(p, addr)
  if not addr then return false end
  local n = v4(addr)
  if not n and sub(addr, 1, 7) == "::ffff:" then n = v4(sub(addr, 8)) end
  if not n then return false end
  for _, l in ipairs(p.lens) do
    if l.set[floor(n / l.div)] then return true end
  end
  return false
end
M.listed = listed

function M.access(p, req)
  if listed(p, ngx.var.remote_addr) == p.black then return req:refuse(REFUSAL) end
end

return M
