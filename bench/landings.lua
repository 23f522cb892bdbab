-- wrk script for rows (l) and (l0): what counting visits costs a
-- cache hit. Every request asks for / (a cache hit: the edge reads the utm_*
-- tags, then drops them before its cache); every other one is a flood's: a
-- landing under a utm_campaign and utm_source never seen before, from a
-- Referer host never seen before. That is the counter's costliest case: a
-- campaign and a referring host to admit under its one lock, folded into
-- "other" once the day holds 200 of each. The rest are the hit row's own
-- request. Row (l) sends them to the edge, row (l0) to the same edge built
-- without counting (-tags analytics_nocount): l/l0 is what counting costs.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

counter = 0

-- The command line's headers (Accept-Encoding: br, the browser's
-- User-Agent) with the flood's Referer added.
local function with(extra)
  local h = {}
  for name, value in pairs(wrk.headers) do h[name] = value end
  for name, value in pairs(extra) do h[name] = value end
  return h
end

function request()
  counter = counter + 1
  if counter % 2 == 0 then
    return wrk.format("GET", "/")
  end
  local id = tid .. "x" .. counter
  return wrk.format("GET", "/?utm_source=s" .. id .. "&utm_medium=email&utm_campaign=c" .. id,
    with({ Referer = "https://h" .. id .. ".example.net/" }))
end
