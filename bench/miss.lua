-- wrk script for rows (c) and (d), a true miss: every request asks for the
-- same page under an order number never seen before
-- (/petpawlor-order-complete?order=<uuid>). Row (d) sends it to the edge, for
-- which each one is a cache miss that the renderer renders in full and the
-- cache compresses and stores; row (c) sends the same requests to the
-- renderer alone. Since the edge refused random parameter values, it keeps a parameter only with a
-- value the route table declares, so /?reason=<anything> (this row until
-- 2026-11-25) became a cache hit; ?order= is the one cached parameter whose
-- values are a pattern (a UUID), so every value is its own page.
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

counter = 0

function request()
  counter = counter + 1
  local order = string.format("%08x-0000-4000-8000-%012x", tid, counter)
  return wrk.format("GET", "/petpawlor-order-complete?order=" .. order)
end
