-- TLS from the services' data (docs/edge.md "Certificates and TLS profiles"): in the ClientHello the
-- name's service sets the protocols it allows (最低 TLS 版本, TLS 1.3); a name the node has no
-- certificate for is refused there; the certificate is the service's for that name, parsed once per
-- worker and certificate version.
local core = require "edge_core"
local ssl = require "ngx.ssl"
local clienthello = require "ngx.ssl.clienthello"
local cjson = require "cjson.safe"
local lrucache = require "resty.lrucache"

local ngx = ngx
local lower, find, sub = string.lower, string.find, string.sub

local M = {}
local parsed = lrucache.new(20000)

local ORDER = { "TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3" }
local protocols_of = {}
local function protocols(min, tls13)
  local key = min .. (tls13 and "+" or "-")
  local p = protocols_of[key]
  if p then return p end
  p = {}
  local on = false
  for _, v in ipairs(ORDER) do
    if v == min then on = true end
    if on and (v ~= "TLSv1.3" or tls13) then p[#p + 1] = v end
  end
  protocols_of[key] = p
  return p
end

-- the certificate id of a name in the service's data: the name, else its wildcard parents
local function cert_of(tls, name)
  local hosts = tls and tls.hosts
  if not hosts then return nil end
  local id = hosts[name]
  if id then return id end
  local i = find(name, ".", 1, true)
  while i do
    id = hosts["*" .. sub(name, i)]
    if id then return id end
    i = find(name, ".", i + 1, true)
  end
  return nil
end

local function service_of(name)
  if not name then return nil end
  name = lower(name)
  local svc = core.lookup(name)
  if not svc then return nil end
  local id = cert_of(svc.d.tls, name)
  if not id then return nil end
  return svc, id, name
end

function M.client_hello()
  local name = clienthello.get_client_hello_server_name()
  local svc = service_of(name)
  if not svc then return ngx.exit(ngx.ERROR) end
  local tls = svc.d.tls
  local ok, err = clienthello.set_protocols(protocols(tls.min or "TLSv1", tls.tls13 or tls.min == "TLSv1.3"))
  if not ok then
    ngx.log(ngx.ERR, "set_protocols: ", err)
    return ngx.exit(ngx.ERROR)
  end
end

function M.certificate()
  local svc, id = service_of(ssl.server_name())
  if not svc then return ngx.exit(ngx.ERROR) end
  local json = ngx.shared.edge_certs:get("c" .. id)
  if not json then return ngx.exit(ngx.ERROR) end
  local c = parsed:get(id)
  if not c or c.json ~= json then
    local pem = cjson.decode(json)
    if type(pem) ~= "table" then return ngx.exit(ngx.ERROR) end
    local cert, err = ssl.parse_pem_cert(pem.crt)
    local key, err2 = ssl.parse_pem_priv_key(pem.key)
    if not cert or not key then
      ngx.log(ngx.ERR, "certificate ", id, ": ", err or err2)
      return ngx.exit(ngx.ERROR)
    end
    c = { json = json, cert = cert, key = key }
    parsed:set(id, c)
  end
  ssl.clear_certs()
  local ok, err = ssl.set_cert(c.cert)
  if ok then ok, err = ssl.set_priv_key(c.key) end
  if not ok then
    ngx.log(ngx.ERR, "certificate ", id, ": ", err)
    return ngx.exit(ngx.ERROR)
  end
end

return M
