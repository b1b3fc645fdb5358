-- The functions of the edge-rule language (docs/edge-rules.md "On the edge"), as builders of closures.
--
-- The agent compiles a service's rules (parsed by src/shared/edgerules, never here) into Lua that calls
-- these builders once per worker; a request then runs the closures. Each closure takes the request's
-- state `c` and answers a value: a string, a boolean, or a table {bin = bytes} ($MD5_BIN). Semantics
-- follow src/shared/edgerules/evaluate.ts, the tester's evaluator, case by case:
--   c.halt: 0 running, 1 this rule stops ($WHEN false), 2 the rule set ends ($REDIRECT, $EXIT, $ERROR_PAGE)
--   a runtime error is error({edge = message}); the rule stops, $PCALL turns it into ''.
-- Only ngx.re (with "jo"), ngx.md5, ngx.md5_bin, ngx.encode_base64, ngx.decode_base64 and ngx.time are
-- used here, so the module also runs in a content_by_lua test.

local _M = {}

local ngx = ngx
local re_find = ngx.re.find
local re_match = ngx.re.match
local re_gsub = ngx.re.gsub
local type = type
local tostring = tostring
local tonumber = tonumber
local error = error
local pcall = pcall
local ipairs = ipairs
local concat = table.concat
local insert = table.insert
local sbyte = string.byte
local schar = string.char
local sfmt = string.format
local sub = string.sub
local gsub = string.gsub
local find = string.find
local lower = string.lower
local upper = string.upper
local floor = math.floor
local ceil = math.ceil
local fmod = math.fmod
local random = math.random

-- the texts of src/shared/errors.ts EDGE_RUNTIME_TEXTS, passed in by the generated code
_M.T = {}

local function fail(key, values)
  local text = _M.T[key] or key
  if values then
    text = gsub(text, "{(%w+)}", function(k)
      local v = values[k]
      if v == nil then return "{" .. k .. "}" end
      return tostring(v)
    end)
  end
  error({ edge = text }, 0)
end
_M.fail = fail

---------------------------------------------------------------------------------------------------
-- values

-- each byte of a binary value as the character of that code (what JavaScript's latin1() does)
local function latin1(b)
  return (gsub(b, "[\128-\255]", function(ch)
    local n = sbyte(ch)
    return schar(0xC0 + floor(n / 64), 0x80 + n % 64)
  end))
end

local function str(v)
  local t = type(v)
  if t == "string" then return v end
  if t == "boolean" then return v and "true" or "false" end
  if t == "table" then return latin1(v.bin) end
  if v == nil then return "" end
  return tostring(v)
end
_M.str = str

local function truthy(v)
  if type(v) == "boolean" then return v end
  if type(v) == "table" then return #v.bin > 0 end
  return v ~= nil and v ~= ""
end
_M.truthy = truthy

local function bytes(v)
  if type(v) == "table" then return v.bin end
  return str(v)
end

local function trim(s)
  return (gsub(gsub(s, "^%s+", ""), "%s+$", ""))
end
_M.trim = trim

local function num(v, fn)
  local s = trim(str(v))
  if not (find(s, "^[+-]?%d+%.?%d*$") or find(s, "^[+-]?%.%d+$")) then
    fail("notNumber", { fn = "$" .. fn, value = s })
  end
  return tonumber(s)
end

local function fmt(n)
  if n ~= n then return "NaN" end
  if n == floor(n) and n > -1e21 and n < 1e21 then return sfmt("%.0f", n) end
  local s = sfmt("%.15g", n)
  return s
end
_M.fmt = fmt

-- UTF-8 characters of a string (as JavaScript's Array.from counts code points)
local UTF8_CHAR = "[%z\1-\127\192-\255][\128-\191]*"

local function chars(s)
  local out = {}
  for ch in string.gmatch(s, UTF8_CHAR) do out[#out + 1] = ch end
  return out
end
_M.chars = chars

local function valid_utf8(s)
  local i, n = 1, #s
  while i <= n do
    local c = sbyte(s, i)
    local len
    if c < 0x80 then len = 1
    elseif c >= 0xC2 and c <= 0xDF then len = 2
    elseif c >= 0xE0 and c <= 0xEF then len = 3
    elseif c >= 0xF0 and c <= 0xF4 then len = 4
    else return false end
    for k = 1, len - 1 do
      local cc = sbyte(s, i + k)
      if not cc or cc < 0x80 or cc > 0xBF then return false end
    end
    if len == 3 then
      local c2 = sbyte(s, i + 1)
      if (c == 0xE0 and c2 < 0xA0) or (c == 0xED and c2 > 0x9F) then return false end
    elseif len == 4 then
      local c2 = sbyte(s, i + 1)
      if (c == 0xF0 and c2 < 0x90) or (c == 0xF4 and c2 > 0x8F) then return false end
    end
    i = i + len
  end
  return true
end
_M.valid_utf8 = valid_utf8

-- decodeURIComponent; nil when the text is not valid
local function uri_decode(s)
  if find(s, "%%[^%x]") or find(s, "%%%x[^%x]") or find(s, "%%%x?$") then return nil end
  local out = gsub(s, "%%(%x%x)", function(h) return schar(tonumber(h, 16)) end)
  if not valid_utf8(out) then return nil end
  return out
end
_M.uri_decode = uri_decode

-- a query or cookie part decoded as the evaluator does: '+' as space when asked, the raw text when invalid
local function decode(s, plus)
  local t = plus and gsub(s, "%+", " ") or s
  return uri_decode(t) or t
end
_M.decode = decode

-- "a=1&b=2" → {a = "1", b = "2"}: first occurrence wins, names trimmed; cookies (sep ";") drop the
-- spaces after each separator
function _M.pairs_of(s, sep, plus)
  local out = {}
  if not s or s == "" then return out end
  for part in string.gmatch(s .. sep, "([^" .. sep .. "]*)" .. sep) do
    if sep == ";" then part = gsub(part, "^%s+", "") end
    if part ~= "" then
      local eq = find(part, "=", 1, true)
      local k = trim(decode(eq and sub(part, 1, eq - 1) or part, plus))
      local v = eq and decode(sub(part, eq + 1), plus) or ""
      if k ~= "" and out[k] == nil then out[k] = v end
    end
  end
  return out
end

---------------------------------------------------------------------------------------------------
-- regular expressions: PCRE through ngx.re; a pattern PCRE refuses is a runtime error

local function re_ok(pattern)
  local ok, _, _, err = pcall(re_find, "", pattern, "jo")
  return ok and err == nil
end
_M.re_ok = re_ok

local function re_test(subject, pattern, flags)
  local from, _, err = re_find(subject, pattern, flags)
  if err then fail("badRegex", { value = pattern }) end
  return from ~= nil
end

local function re_capture(subject, pattern, flags)
  local m, err = re_match(subject, pattern, flags)
  if err then fail("badRegex", { value = pattern }) end
  return m
end
_M.re_capture = re_capture

---------------------------------------------------------------------------------------------------
-- pieces

local function EMPTY() return "" end

function _M.S(v) return function() return v end end
function _M.B(v) return function() return v end end

-- a group of the rule's pattern ($0…$9); a non-participating group is empty
function _M.G(n)
  return function(c)
    local g = c.groups and c.groups[n]
    return g or ""
  end
end

-- group m of the n-th $CAPTURE ($n.m)
function _M.K(n, m)
  return function(c)
    local cap = c.caps[n]
    local g = cap and cap[m]
    return g or ""
  end
end

-- an argument: its pieces concatenated; stops (empty) when a piece halts the rule
function _M.E(parts)
  local n = #parts
  if n == 0 then return EMPTY end
  if n == 1 then return parts[1] end
  return function(c)
    local buf = {}
    for i = 1, n do
      local v = parts[i](c)
      if c.halt ~= 0 then return "" end
      buf[i] = str(v)
    end
    return concat(buf)
  end
end

local ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
local function random_text(n)
  local out = {}
  for i = 1, n do
    local k = random(1, 62)
    out[i] = sub(ALNUM, k, k)
  end
  return concat(out)
end

-- a variable: nil when the request does not have it
local function getter(name)
  if name == "IP" then return function(c) return c.req.ip end end
  if name == "HOST" then return function(c) local h = c.req.host; if h == "" then return nil end return h end end
  if name == "URI" then return function(c) return c.req.uri end end
  if name == "QUERY" then return function(c) return c.req.query end end
  if name == "METHOD" then return function(c) return c.req.method end end
  if name == "SCHEME" then return function(c) return c.req.scheme end end
  if name == "TIME" then return function(c) return tostring(c.req.time) end end
  if name == "BODY" then return function(c) return c.req.body end end
  if name == "RANDOM" then return function() return random_text(8) end end
  if name == "GEOIP_COUNTRY_CODE" then return function(c) local v = c.req.country; if v == "" then return nil end return v end end
  local n = name:match("^HOST_(%d+)$")
  if n then
    n = tonumber(n)
    return function(c) return c.req.labels[n] end
  end
  n = name:match("^RANDOM_(%d+)$")
  if n then
    n = tonumber(n)
    return function() return random_text(n) end
  end
  local k = name:match("^GET_(.+)$")
  if k then return function(c) return c.req.args[k] end end
  k = name:match("^POST_(.+)$")
  if k then return function(c) return c.req.post(c.req)[k] end end
  k = name:match("^HEADER_(.+)$")
  if k then
    k = lower(k)
    return function(c) return c.req.headers[k] end
  end
  k = name:match("^COOKIE_(.+)$")
  if k then return function(c) return c.req.cookies(c.req)[k] end end
  return function() return nil end
end

-- top: a piece of the rewrite target, where a missing variable makes the rewrite fail
function _M.V(name, top)
  local get = getter(name)
  if not top then
    return function(c) return get(c) or "" end
  end
  local label = "$_" .. name
  return function(c)
    local v = get(c)
    if v == nil then
      if not c.missing then c.missing = label end
      return ""
    end
    return v
  end
end

---------------------------------------------------------------------------------------------------
-- the functions

local B = {}

local function arith(fn, op, zero)
  return function(a)
    local x, y = a[1], a[2]
    return function(c)
      local p = num(x(c), fn)
      local q = num(y(c), fn)
      if zero and q == 0 then fail("divideByZero", { fn = "$" .. fn }) end
      return fmt(op(p, q))
    end
  end
end

local function unary(op)
  return function(a)
    local x = a[1]
    return function(c) return op(x(c), c) end
  end
end

local function status_code(v, fn, lo, hi, only)
  local s = trim(str(v))
  local n = tonumber(s)
  local ok = find(s, "^%d%d%d$") ~= nil
  if ok then
    if only then ok = only[n] == true else ok = n >= lo and n <= hi end
  end
  if not ok then fail("badCode", { fn = "$" .. fn, value = s }) end
  return n
end

local function amount(v, unit, fn)
  local s = trim(str(v))
  if not find(s, "^%d+$") or tonumber(s) < 1 then fail("badAmount", { fn = "$" .. fn, value = s }) end
  local u = lower(trim(str(unit)))
  if u ~= "k" and u ~= "m" and u ~= "kb" and u ~= "mb" then fail("badUnit", { fn = "$" .. fn, value = str(unit) }) end
  return tonumber(s) * (sub(u, 1, 1) == "m" and 1048576 or 1024)
end

local function cover(v)
  return v ~= nil and truthy(v) and trim(str(v)) ~= "0"
end

local PROTECTED = {}
local FORBIDDEN = {}
function _M.protect(protected, forbidden)
  for _, h in ipairs(protected) do PROTECTED[lower(h)] = true end
  for _, h in ipairs(forbidden) do FORBIDDEN[lower(h)] = true end
end

local function header_change(c, list, change, refused)
  change.priority = c.priority
  change.applied = not refused
  list[#list + 1] = change
end

B.WHEN = function(a)
  local n = #a
  return function(c)
    for i = 1, n do
      local v = a[i](c)
      if c.halt ~= 0 then return "" end
      if not truthy(v) then
        c.halt = 1
        return ""
      end
    end
    return ""
  end
end
B.NOT = unary(function(v) return not truthy(v) end)
B.ALL = function(a)
  return function(c)
    if #a == 0 then return false end
    for i = 1, #a do if not truthy(a[i](c)) then return false end end
    return true
  end
end
B.ANY = function(a)
  return function(c)
    for i = 1, #a do if truthy(a[i](c)) then return true end end
    return false
  end
end
B.OR = function(a)
  return function(c)
    for i = 1, #a do
      local v = a[i](c)
      if truthy(v) then return v end
    end
    return false
  end
end
B.SELECT = function(a)
  return function(c)
    if truthy(a[1](c)) then return a[2](c) end
    return a[3](c)
  end
end
B.PCALL = function(a)
  local x = a[1]
  return function(c)
    local ok, v = pcall(x, c)
    if ok then return v end
    if type(v) == "table" and v.edge then return "" end
    error(v, 0)
  end
end
B.MATCH = function(a)
  return function(c)
    local pattern = str(a[2](c))
    return re_test(str(a[1](c)), pattern, "jo")
  end
end
B.CAPTURE = function(a, index)
  local slot = index or 1
  return function(c)
    local subject = str(a[1](c))
    local pattern = str(a[2](c))
    local icase = a[3] and truthy(a[3](c)) or false
    if pattern == "" then
      c.caps[slot] = { [0] = subject }
    else
      c.caps[slot] = re_capture(subject, pattern, icase and "joi" or "jo") or false
    end
    return ""
  end
end

local function header_fn(side, op)
  return function(a)
    return function(c)
      local name = trim(str(a[1](c)))
      local value, cov
      if op == "add" then
        value = str(a[2](c))
        cov = a[3] and cover(a[3](c)) or false
      end
      if c.halt ~= 0 then return "" end
      -- nginx sends no header with an empty value: such an add is refused on both sides (the tester says so)
      local refused = op == "add" and value == ""
      if side == "req" then
        if FORBIDDEN[lower(name)] then refused = true end
        header_change(c, c.st.req_headers, { action = op, name = name, value = value, cover = cov }, refused)
      else
        if op == "delete" and PROTECTED[lower(name)] then refused = true end
        header_change(c, c.st.rsp_headers, { action = op, name = name, value = value, cover = cov }, refused)
      end
      return ""
    end
  end
end
B.ADD_REQ_HEADER = header_fn("req", "add")
B.DEL_REQ_HEADER = header_fn("req", "delete")
B.ADD_RSP_HEADER = header_fn("rsp", "add")
B.DEL_RSP_HEADER = header_fn("rsp", "delete")

B.DEL_ARG = function(a)
  return function(c)
    local name = str(a[1](c))
    if c.halt ~= 0 then return "" end
    local list = c.st.deleted_args
    for _, n in ipairs(list) do if n == name then return "" end end
    list[#list + 1] = name
    return ""
  end
end

local METHODS = { GET = true, HEAD = true, PUT = true, POST = true, DELETE = true, OPTIONS = true, PATCH = true }
B.SET_METHOD = function(a)
  return function(c)
    local m = upper(trim(str(a[1](c))))
    if c.halt ~= 0 then return "" end
    if not METHODS[m] then fail("badMethod", { value = m }) end
    if c.req.body ~= "" and m ~= "PUT" and m ~= "POST" then fail("methodWithBody") end
    c.st.method = m
    return ""
  end
end
B.SET_BODY = function(a)
  return function(c)
    local body = str(a[1](c))
    if c.halt ~= 0 then return "" end
    if c.st.method ~= "PUT" and c.st.method ~= "POST" then fail("bodyMethod") end
    c.st.request_body = body
    return ""
  end
end

local REDIRECT_CODES = { [301] = true, [302] = true }
B.REDIRECT = function(a)
  return function(c)
    local url = str(a[1](c))
    local code = status_code(a[2](c), "REDIRECT", 0, 0, REDIRECT_CODES)
    if c.halt ~= 0 then return "" end
    c.st.status = code
    c.st.location = url
    c.halt = 2
    c.ended = "redirect"
    return ""
  end
end
B.EXIT = function(a)
  return function(c)
    local code = status_code(a[1](c), "EXIT", 100, 599)
    local body = a[2] and str(a[2](c)) or ""
    if c.halt ~= 0 then return "" end
    c.st.status = code
    c.st.body = body
    c.halt = 2
    c.ended = "exit"
    return ""
  end
end
B.ERROR_PAGE = function(a)
  return function(c)
    local code = status_code(a[1](c), "ERROR_PAGE", 400, 599)
    local url = str(a[2](c))
    if c.halt ~= 0 then return "" end
    c.st.status = code
    c.st.error_page = url
    c.halt = 2
    c.ended = "error_page"
    return ""
  end
end
B.LIMIT_RATE_AFTER = function(a)
  return function(c)
    local v = amount(a[1](c), a[2](c), "LIMIT_RATE_AFTER")
    if c.halt == 0 then c.st.after = v end
    return ""
  end
end
B.LIMIT_RATE = function(a)
  return function(c)
    local v = amount(a[1](c), a[2](c), "LIMIT_RATE")
    if c.halt == 0 then c.st.rate = v end
    return ""
  end
end

-- numbers
B.ADD = arith("ADD", function(x, y) return x + y end)
B.MSUB = arith("MSUB", function(x, y) return x - y end)
B.MULTIPLY = arith("MULTIPLY", function(x, y) return x * y end)
B.DIVIDE = arith("DIVIDE", function(x, y) return x / y end, true)
B.MOD = arith("MOD", function(x, y) return fmod(x, y) end, true)
B.FLOOR = unary(function(v) return fmt(floor(num(v, "FLOOR"))) end)
B.CEIL = unary(function(v) return fmt(ceil(num(v, "CEIL"))) end)

-- the UTF-16 code unit of the first character, as JavaScript's charCodeAt(0)
local function code_unit(s)
  local ch = s:match("^" .. UTF8_CHAR)
  if not ch then return nil end
  local b1, b2, b3, b4 = sbyte(ch, 1, 4)
  local cp
  if #ch == 1 then cp = b1
  elseif #ch == 2 then cp = (b1 % 32) * 64 + b2 % 64
  elseif #ch == 3 then cp = (b1 % 16) * 4096 + (b2 % 64) * 64 + b3 % 64
  else cp = (b1 % 8) * 262144 + (b2 % 64) * 4096 + (b3 % 64) * 64 + b4 % 64 end
  if cp > 0xFFFF then cp = floor((cp - 0x10000) / 1024) + 0xD800 end
  return cp
end
B.BYTE = unary(function(v)
  local s = str(v)
  if s == "" then return "" end
  return tostring(code_unit(s) or sbyte(s, 1))
end)
B.GT = function(a) return function(c) return num(a[1](c), "GT") > num(a[2](c), "GT") end end
B.GE = function(a) return function(c) return num(a[1](c), "GE") >= num(a[2](c), "GE") end end

local DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
B.INT = function(a)
  return function(c)
    local s = lower(trim(str(a[1](c))))
    local function base(x)
      local raw = x and trim(str(x(c))) or ""
      if raw == "" then return 10 end
      local n = tonumber(raw)
      if not n or n ~= floor(n) or n < 2 or n > 36 then fail("badBase", { fn = "$INT", value = raw }) end
      return n
    end
    local from = base(a[2])
    local to = base(a[3])
    local neg = sub(s, 1, 1) == "-"
    local body = neg and sub(s, 2) or s
    local allowed = sub(DIGITS, 1, from)
    if body == "" then fail("notNumber", { fn = "$INT", value = s }) end
    local n = 0
    for i = 1, #body do
      local d = find(allowed, sub(body, i, i), 1, true)
      if not d then fail("notNumber", { fn = "$INT", value = s }) end
      n = n * from + (d - 1)
    end
    if n == 0 then return "0" end
    local out = {}
    while n > 0 do
      local d = fmod(n, to)
      insert(out, 1, sub(DIGITS, d + 1, d + 1))
      n = floor(n / to)
    end
    return (neg and "-" or "") .. concat(out)
  end
end
B.RANDI = function(a)
  return function(c)
    local lo = ceil(num(a[1](c), "RANDI"))
    local hi = floor(num(a[2](c), "RANDI"))
    if lo > hi then lo, hi = hi, lo end
    return tostring(random(lo, hi))
  end
end

-- strings
local function char_sub(s, from, to)
  local cs = chars(s)
  local len = #cs
  local i = from < 0 and len + from + 1 or from
  local j = to < 0 and len + to + 1 or to
  if i < 1 then i = 1 end
  if j > len then j = len end
  if i > j then return "" end
  return concat(cs, "", i, j)
end
B.SUB = function(a)
  return function(c)
    local s = str(a[1](c))
    local from = num(a[2](c), "SUB")
    local to = -1
    if a[3] then
      local t = a[3](c)
      if trim(str(t)) ~= "" then to = num(t, "SUB") end
    end
    return char_sub(s, from, to)
  end
end
B.GSUB = function(a)
  return function(c)
    local subject = str(a[1](c))
    local pattern = str(a[2](c))
    local repl = str(a[3](c))
    local raw = a[4] and trim(str(a[4](c))) or ""
    local limit = raw == "" and -1 or num(raw, "GSUB")
    local count = 0
    local out, _, err = re_gsub(subject, pattern, function(m)
      if limit >= 0 and count >= limit then return m[0] end
      count = count + 1
      return (gsub(repl, "%$(%d)", function(d)
        local g = m[tonumber(d)]
        return g or ""
      end))
    end, "jo")
    if err then fail("badRegex", { value = pattern }) end
    return out
  end
end
B.EQ = function(a) return function(c) return str(a[1](c)) == str(a[2](c)) end end
B.UPPER = unary(function(v) return upper(str(v)) end)
B.LOWER = unary(function(v) return lower(str(v)) end)
B.LEN = unary(function(v)
  if type(v) == "table" then return tostring(#v.bin) end
  return tostring(#chars(str(v)))
end)

-- encoding and time
B.ENCODE_BASE64 = unary(function(v) return ngx.encode_base64(bytes(v)) end)
B.DECODE_BASE64 = unary(function(v)
  local clean = gsub(gsub(gsub(gsub(str(v), "%s+", ""), "-", "+"), "_", "/"), "=+$", "")
  if find(clean, "[^A-Za-z0-9+/]") or #clean % 4 == 1 then fail("badBase64") end
  local padded = clean .. string.rep("=", (4 - #clean % 4) % 4)
  local b = ngx.decode_base64(padded)
  if not b then fail("badBase64") end
  if valid_utf8(b) then return b end
  return latin1(b)
end)
B.ESCAPE = unary(function(v)
  return (gsub(str(v), "[^A-Za-z0-9%-_%.!~%*'%(%)]", function(ch) return sfmt("%%%02X", sbyte(ch)) end))
end)
B.UNESCAPE = unary(function(v)
  local out = uri_decode(str(v))
  if not out then fail("badEscape") end
  return out
end)
B.MD5 = unary(function(v) return ngx.md5(bytes(v)) end)
B.MD5_BIN = unary(function(v) return { bin = ngx.md5_bin(bytes(v)) } end)

local BEIJING = 8 * 3600

-- days since 1970-01-01 of a proleptic Gregorian date (month 1..12)
local function days_from_civil(y, m, d)
  if m <= 2 then y = y - 1 end
  local era = floor(y / 400)
  local yoe = y - era * 400
  local mp = (m + 9) % 12
  local doy = floor((153 * mp + 2) / 5) + d - 1
  local doe = yoe * 365 + floor(yoe / 4) - floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
end

local function trunc(n)
  if n < 0 then return ceil(n) end
  return floor(n)
end

B.UNIXT = function(a)
  return function(c)
    local v = {}
    for i = 1, 6 do
      local x = a[i]
      if x then
        local raw = x(c)
        v[i] = trim(str(raw)) == "" and 0 or trunc(num(raw, "UNIXT"))
      else
        v[i] = 0
      end
    end
    local y, mo = v[1], v[2] - 1
    if y >= 0 and y <= 99 then y = 1900 + y end
    y = y + floor(mo / 12)
    mo = mo % 12
    local days = days_from_civil(y, mo + 1, 1) + v[3] - 1
    return fmt(days * 86400 + v[4] * 3600 + v[5] * 60 + v[6] - BEIJING)
  end
end
B.STRF_TIME = function(a)
  return function(c)
    local t = floor(num(a[1](c), "STRF_TIME"))
    local sep = a[2] and str(a[2](c)) or ""
    local d = os.date("!*t", t + BEIJING)
    return concat({ tostring(d.year), sfmt("%02d", d.month), sfmt("%02d", d.day), sfmt("%02d", d.hour), sfmt("%02d", d.min) }, sep)
  end
end

_M.BUILDERS = B

-- a call: its builder given the argument closures (and the ordinal of a $CAPTURE)
function _M.F(name, args, index)
  local build = B[name]
  if not build then return EMPTY end
  return build(args, index)
end

return _M
