-- HTTP/2 Server Push on the edge: data from edge.ts ({ paths, assets, links }). On a match path (the
-- request's $uri, exactly) the assets go into the node's push slots ($edge_push1…, `http2_push` in every
-- client-side location of the fixed nginx.conf; an empty slot pushes nothing, and HTTP/1.1 ignores them);
-- with preload, every answer on a match path also carries one `Link: <asset>; rel=preload` per asset.
local M = { order = 70 }

local type, ipairs = type, ipairs

function M.prepare(d)
  if type(d) ~= "table" or type(d.paths) ~= "table" or type(d.assets) ~= "table" then
    error("Server Push 的数据不正确", 0)
  end
  local p = { paths = {}, slots = {}, links = nil }
  for _, path in ipairs(d.paths) do
    if type(path) ~= "string" then error("Server Push 的匹配路径不是文本", 0) end
    p.paths[path] = true
  end
  for i, a in ipairs(d.assets) do
    if type(a) ~= "string" then error("Server Push 的推送资源不是文本", 0) end
    p.slots[i] = { "edge_push" .. i, a }
  end
  if type(d.links) == "table" and #d.links > 0 then
    p.links = {}
    for i, l in ipairs(d.links) do
      if type(l) ~= "string" then error("Server Push 的预加载头不是文本", 0) end
      p.links[i] = l
    end
  end
  return p
end

function M.access(p, req)
  if not p.paths[ngx.var.uri] then return end
  local var = ngx.var
  for i = 1, #p.slots do
    local s = p.slots[i]
    var[s[1]] = s[2]
  end
end

function M.header(p, req)
  if not p.links or not p.paths[ngx.var.uri] then return end
  local link = ngx.header["Link"]
  if type(link) == "string" then link = { link } elseif type(link) ~= "table" then link = {} end
  for i = 1, #p.links do link[#link + 1] = p.links[i] end
  ngx.header["Link"] = link
end

return M
