-- 自定义错误页面 on the edge (edge.ts gives { pages = { ["404"] = "/errors/404.html", ["40310002"] = … } }):
-- the runtime's hooks ask it for a page — `origin_error` on the fetch server for an origin's status,
-- `refusal` on the client side for the edge's own refusals (req:refuse, a paused service) — and serve it
-- with the original status (edge_core.lua Req:serve_page).
local M = { order = 50 }

local CLOSED = 40310006 -- 服务已关闭 (EDGE_REFUSALS.closed in src/shared/edge.ts)

function M.prepare(d)
  local pages = {}
  for code, url in pairs(d.pages or {}) do
    local c = tonumber(code)
    if not c or type(url) ~= "string" or url:sub(1, 1) ~= "/" then
      error("错误页面规则无效：" .. tostring(code) .. " " .. tostring(url), 0)
    end
    pages[c] = url
  end
  return pages
end

-- the edge refuses a request: the page of its code, else of its plain status (never for a paused service)
function M.refusal(pages, _, code, status)
  if code == CLOSED then return pages[CLOSED] end
  return pages[code] or pages[status]
end

-- the origin answered `status`: its page, if a rule lists it
function M.origin_error(pages, status)
  return pages[status]
end

return M
