-- wrk script for row (f), the second client: requests for the landing page
-- that used to bypass or flood the page cache. In turn: a junk query that
-- differs per request, a made-up session cookie, a well-formed session token
-- that names no session (one database lookup each), and both at once. Every
-- answer should still come from the cache; done() prints how many did not.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

counter = 0
misses = 0

local token = string.rep("A", 43)

-- wrk.format sends only the headers it is given: a request with a cookie
-- carries the command line's (-H Accept-Encoding: br) too, so every answer
-- is the same brotli page as the clean half's, not the 5x larger plain one.
local function with(extra)
  local h = {}
  for name, value in pairs(wrk.headers) do h[name] = value end
  for name, value in pairs(extra) do h[name] = value end
  return h
end

function request()
  counter = counter + 1
  local junk = "/?q=" .. tid .. "-" .. counter .. "&page=" .. counter
  local kind = counter % 4
  if kind == 0 then
    return wrk.format("GET", junk)
  elseif kind == 1 then
    return wrk.format("GET", "/", with({ ["Cookie"] = "omnibus_session=made-up-" .. counter }))
  elseif kind == 2 then
    return wrk.format("GET", "/", with({ ["Cookie"] = "omnibus_session=" .. token }))
  end
  return wrk.format("GET", junk, with({ ["Cookie"] = "theme=dark; omnibus_session=x" }))
end

function response(status, headers, body)
  if headers["X-Cache"] ~= "HIT" and headers["x-cache"] ~= "HIT" then
    misses = misses + 1
  end
end

function done(summary, latency, requests)
  local m = 0
  for _, t in ipairs(threads) do
    m = m + t:get("misses")
  end
  io.write(string.format("hostile-not-hit %d of %d\n", m, summary.requests))
end
