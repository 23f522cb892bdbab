-- wrk script for row (d), the edge on a forced miss: every request asks for
-- the landing page under a query the cache has never seen (/?reason=T-N),
-- so each one is a cache miss that the renderer renders in full, the cache
-- compresses and stores. The edge drops query parameters a page does not
-- read, so this uses one the landing page reads (the footer's newsletter
-- box: ?newsletter=error&reason=…); without ?newsletter it does not change
-- the page.
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

counter = 0

function request()
  counter = counter + 1
  return wrk.format("GET", "/?reason=bench-" .. tid .. "-" .. counter)
end
