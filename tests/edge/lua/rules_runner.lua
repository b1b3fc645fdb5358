-- Test-only content handler (tests/edge/rules-lua.test.ts): the request body is a Lua chunk answering
-- { factory = function(R) … end (src/edge/rules/lua.ts), reqs = { raw request, … } }; the answer is the
-- JSON of what the runtime (src/edge/lua/edgerules.lua) decides for each request.
local er = require "edgerules"
local fn = require "edgerules.fn"

local function json(v)
  local t = type(v)
  if t == "nil" then return "null" end
  if t == "boolean" then return v and "true" or "false" end
  if t == "number" then return string.format("%.17g", v) end
  if t == "string" then
    return '"' .. v:gsub('[%c"\\]', function(c) return string.format("\\u%04x", c:byte()) end) .. '"'
  end
  if t == "table" then
    if v.bin then return json(fn.str(v)) end
    if #v > 0 or next(v) == nil then
      local out = {}
      for i = 1, #v do out[i] = json(v[i]) end
      return "[" .. table.concat(out, ",") .. "]"
    end
    local out = {}
    for k, x in pairs(v) do
      if type(x) ~= "function" then out[#out + 1] = json(tostring(k)) .. ":" .. json(x) end
    end
    return "{" .. table.concat(out, ",") .. "}"
  end
  return "null"
end

ngx.req.read_body()
local chunk, err = loadstring(ngx.req.get_body_data() or "")
if not chunk then
  ngx.status = 500
  ngx.say(json({ error = err }))
  return
end
local spec = chunk()
if spec.patterns then
  -- which patterns PCRE (ngx.re) compiles
  local out = {}
  for i, p in ipairs(spec.patterns) do out[i] = fn.re_ok(p) end
  ngx.header["Content-Type"] = "application/json"
  ngx.say(json(out))
  return
end
local set = spec.factory(fn)
local out = {}
for i, raw in ipairs(spec.reqs) do
  local ok, st = pcall(er.run, set, er.build(raw))
  out[i] = ok and st or { error = tostring(st) }
end
ngx.header["Content-Type"] = "application/json"
ngx.say(json(out))
