-- wrk script for the search rows of make bench (bench/search.sh): at a
-- fixed rate (FLOOD_DELAY_MS between a connection's requests), /search with
-- a new random query each time, so every one is a search the result cache
-- has not seen (or a refusal of the per-client limit). done() prints the
-- statuses.
local delay_ms = tonumber(os.getenv("FLOOD_DELAY_MS") or "")
if delay_ms then
  function delay()
    return delay_ms
  end
end
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

math.randomseed(os.time())
local letters = "abcdefghijklmnopqrstuvwxyz"

local function word()
  local n = math.random(3, 10)
  local t = {}
  for i = 1, n do
    local k = math.random(1, #letters)
    t[i] = letters:sub(k, k)
  end
  return table.concat(t)
end

function request()
  local q = word()
  for _ = 2, math.random(1, 3) do
    q = q .. "+" .. word()
  end
  return wrk.format("GET", "/search?q=" .. q)
end

statuses = {}
function response(status)
  statuses[status] = (statuses[status] or 0) + 1
end

function done()
  for _, t in ipairs(threads) do
    local s = t:get("statuses") or {}
    for k, v in pairs(s) do
      io.write(string.format("search-flood-status %d %d\n", k, v))
    end
  end
end
