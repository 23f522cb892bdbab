-- wrk script for row (g), the cache flood (issue 28.2): at full speed, a
-- random path the route table does not know, a random letter case of a
-- route, random values of the parameters pages keep (newsletter, reason,
-- outcome, React Router's _routes, the manifest's paths). None of them may
-- be a render or a cache entry of its own; done() prints the statuses.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

counter = 0
local routes = { "/", "/features", "/old-pricing", "/contact-us", "/blog", "/help", "/omnibus-university" }
math.randomseed(os.time())

local function word()
  local t = {}
  for i = 1, math.random(4, 16) do
    local n = math.random(1, 36)
    t[i] = string.sub("abcdefghijklmnopqrstuvwxyz0123456789", n, n)
  end
  return table.concat(t)
end

local function casing(p)
  return (p:gsub("%a", function(c) if math.random(2) == 1 then return c:upper() end return c end))
end

function request()
  counter = counter + 1
  local route = routes[math.random(#routes)]
  local kind = counter % 6
  local path
  if kind == 0 then
    path = "/" .. word() .. "/" .. word()
  elseif kind == 1 then
    path = casing(route) .. "x"
  elseif kind == 2 then
    path = casing(route)
  elseif kind == 3 then
    path = route .. "?newsletter=" .. word() .. "&reason=" .. word()
  elseif kind == 4 then
    path = "/contact-us?outcome=" .. word()
  else
    path = "/__manifest?version=" .. word() .. "&paths=%2F" .. word()
  end
  return wrk.format("GET", path)
end
