-- 页面优化 (minify) on the edge: data from edge.ts, { html, css, max } (what to minify, MINIFY_MAX_BYTES);
-- docs/edge.md "File services, mirror migration and images".
--
-- HTML: comments removed (conditional comments <!--[if …]> and <!--! …--> kept), runs of whitespace made
-- one space, except inside <pre>, <textarea>, <script> and <style> (a <style>'s CSS is minified when CSS is on).
-- CSS: comments removed (/*! … */ kept), runs of whitespace made one space, none around { } ; , and no
-- ; before }; quoted strings untouched.
-- The body is collected (up to the limit; a bigger one is sent as it came) and minified at its end; the
-- cache keeps the origin's bytes. Lua's body filters run before gzip and brotli (src/edge/compile/main.ts),
-- and this one after mirror migration's (order), which stores the origin's bytes.
local M = { order = 80 }

local find, gsub = ngx.re.find, ngx.re.gsub

local CSS_TOKENS = [["(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|/\*.*?\*/]]
local HTML_TOKENS = [[<(pre|textarea|script|style)\b[^>]*>.*?</\1\s*>|<!--.*?-->]]

local function css_plain(p)
  p = gsub(p, [[\s+]], " ", "jo")
  p = gsub(p, [[\s*([{};,])\s*]], "$1", "jo")
  return p
end

local function css(s)
  local out, ctx = {}, { pos = 1 }
  while true do
    local start = ctx.pos
    local from, to = find(s, CSS_TOKENS, "jos", ctx)
    if not from then
      out[#out + 1] = css_plain(s:sub(start))
      break
    end
    out[#out + 1] = css_plain(s:sub(start, from - 1))
    local tok = s:sub(from, to)
    if tok:sub(1, 2) ~= "/*" or tok:sub(3, 3) == "!" then out[#out + 1] = tok end
  end
  local r = gsub(table.concat(out), [[;}]], "}", "jo")
  return (r:gsub("^%s+", ""):gsub("%s+$", ""))
end
M.css = css

local function html(s, with_css)
  local out, ctx = {}, { pos = 1 }
  -- text between the kept parts, whitespace made one space (none twice where a comment was taken out)
  local function plain(text)
    text = gsub(text, [[\s+]], " ", "jo")
    local last = out[#out]
    if last and last:sub(-1) == " " and text:sub(1, 1) == " " then text = text:sub(2) end
    if text ~= "" then out[#out + 1] = text end
  end
  while true do
    local start = ctx.pos
    local from, to, err = find(s, HTML_TOKENS, "josi", ctx)
    if not from then
      plain(s:sub(start))
      break
    end
    plain(s:sub(start, from - 1))
    local tok = s:sub(from, to)
    if tok:sub(1, 4) == "<!--" then
      if tok:sub(5, 7) == "[if" or tok:sub(5, 5) == "!" then out[#out + 1] = tok end
    elseif with_css and tok:sub(1, 6):lower() == "<style" then
      local open_end = tok:find(">", 1, true)
      local close = tok:match(".*()</")
      out[#out + 1] = tok:sub(1, open_end) .. css(tok:sub(open_end + 1, close - 1)) .. tok:sub(close)
    else
      out[#out + 1] = tok
    end
  end
  return (table.concat(out):gsub("^%s+", ""):gsub("%s+$", ""))
end
M.html = html

function M.prepare(d)
  return { html = d.html == true, css = d.css == true, max = tonumber(d.max) or 0 }
end

function M.header(p, req)
  req.minify = nil
  if ngx.status ~= 200 or req.no_transform or req.method == "HEAD" or ngx.header["Content-Encoding"] then return end
  local ct = req:header_value("Content-Type")
  if not ct then return end
  ct = ct:lower()
  local kind = (p.html and ct:find("^text/html") and "html") or (p.css and ct:find("^text/css") and "css") or nil
  if not kind then return end
  req.minify = { kind = kind, parts = {}, size = 0 }
  ngx.header["Content-Length"] = nil
end

function M.body(p, req)
  local m = req.minify
  if not m then return end
  local chunk, eof = ngx.arg[1], ngx.arg[2]
  if chunk and #chunk > 0 then
    m.size = m.size + #chunk
    m.parts[#m.parts + 1] = chunk
  end
  if m.size > p.max then
    -- too big: what was held back goes out as it came, and the rest passes through
    ngx.arg[1] = table.concat(m.parts)
    req.minify = nil
    return
  end
  if not eof then
    ngx.arg[1] = nil
    return
  end
  local body = table.concat(m.parts)
  req.minify = nil
  ngx.arg[1] = m.kind == "html" and html(body, p.css) or css(body)
end

return M
