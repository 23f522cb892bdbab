-- wrk script for row (g), the cache flood: at full speed, a
-- random path the route table does not know, a random letter case of a
-- route, random values of the parameters pages keep (newsletter, reason,
-- outcome, React Router's _routes, the manifest's paths). None of them may
-- be a render or a cache entry of its own; done() prints the statuses.
--
-- FLOOD_DELAY_MS (environment): each connection waits that long between its
-- requests, so the flood runs at a fixed rate (connections x 1000 / delay per
-- second) instead of as fast as the machine lets it. At full speed on a
-- 2-CPU machine the flooding wrk and the edge's answers to it take the CPU
-- the clean client would use, and the clean client's share (g/g0) read
-- 0.54-1.00 from run to run: it measured how the scheduler split two cores,
-- not whether the flood hurt the cache. make bench floods at a fixed rate.
local delay_ms = tonumber(os.getenv("FLOOD_DELAY_MS") or "")
if delay_ms then
  function delay()
    return delay_ms
  end
end
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
