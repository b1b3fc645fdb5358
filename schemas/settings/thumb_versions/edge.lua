-- 缩略图版本 on the edge: data from edge.ts, { sep, versions = { { name, op, w, h, q }, … } }. A path that
-- ends in <sep><name> of a version (`/photo.jpg!small`; the first version in the list when several end
-- it) is set to the picture's own path (`/photo.jpg`: the origin or the storage is asked for it, the cache
-- holds it once under its own key) and goes through the node's image variant (req.img: @img_resize or
-- @img_crop, image_filter with $edge_img_w, $edge_img_h, $edge_img_q; src/edge/compile/main.ts).
-- Order 35: after the edge rules (a rule may rewrite to a version), before mirror migration, which leaves
-- a rewritten path alone, and before the cache settings, which then see the picture's path.
local M = { order = 35 }

local find, sub = string.find, string.sub

function M.prepare(d)
  local sep = d.sep
  if sep ~= "!" and sep ~= "-" and sep ~= "_" then error("缩略图版本的分隔符无效", 0) end
  local by_name, longest = {}, 0
  for i, v in ipairs(d.versions or {}) do
    if type(v.name) ~= "string" or not v.name:find("^[%w_%-]+$") then error("缩略图版本名称无效", 0) end
    if v.op ~= "resize" and v.op ~= "crop" then error("缩略图版本 " .. v.name .. " 的缩放方式无效", 0) end
    local w, h, q = tostring(v.w), tostring(v.h), tonumber(v.q)
    if not (w == "-" or w:find("^%d+$")) or not (h == "-" or h:find("^%d+$")) or not q then
      error("缩略图版本 " .. v.name .. " 的尺寸或质量无效", 0)
    end
    if not by_name[v.name] then
      by_name[v.name] = { i = i, img = { op = v.op, w = w, h = h, q = tostring(math.floor(q)) } }
      if #v.name > longest then longest = #v.name end
    end
  end
  return { sep = sep, by_name = by_name, longest = longest }
end

function M.access(p, req)
  local uri = ngx.var.uri
  -- a separator within the last name's length of the end, with at least one character before it
  local from = #uri - p.longest
  if from < 2 then from = 2 end
  local best, cut
  local i = find(uri, p.sep, from, true)
  while i do
    local v = p.by_name[sub(uri, i + 1)]
    if v and (not best or v.i < best.i) then best, cut = v, i end
    i = find(uri, p.sep, i + 1, true)
  end
  if not best then return end
  req.img = best.img
  ngx.req.set_uri(sub(uri, 1, cut - 1))
end

return M
