-- wrk script: every request is GET <path>?lat=<lat>&lng=<lng> at a uniformly random point of
-- Poland's bounding box (lat 49.0-54.8, lng 14.1-24.1), 4 decimals as the site's location script
-- sends them. Each thread gets its own seed (WRK_SEED, default 1, plus 7919 x thread number), so
-- threads draw different points and a run is repeatable.
--   WRK_PATH  path to request (default /pets); the query string is appended.
--   WRK_SEED  base seed (default 1).
-- Usage: wrk -t2 -c64 -d10s --latency -s scripts/bench/random-location.lua http://127.0.0.1:8080

local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("thread_number", counter)
end

local path = os.getenv("WRK_PATH") or "/pets"
if path == "" then path = "/pets" end
local separator = string.find(path, "?", 1, true) and "&" or "?"

function init(args)
  local base = tonumber(os.getenv("WRK_SEED") or "1") or 1
  math.randomseed(base + 7919 * (thread_number or 0))
  -- LuaJIT's first draws after seeding are poorly mixed: discard a few.
  for _ = 1, 10 do math.random() end
end

function request()
  local lat = 49.0 + math.random() * (54.8 - 49.0)
  local lng = 14.1 + math.random() * (24.1 - 14.1)
  return wrk.format("GET", string.format("%s%slat=%.4f&lng=%.4f", path, separator, lat, lng))
end
