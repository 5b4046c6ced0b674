-- wrk script for scripts/soak.sh: a mix of the site's requests, counted by kind and status.
-- Kinds: page (/pets, /), located (/pets at a random place), details (/pets/{id}), api (the JSON
-- list, located), photo (/images/pet-N.jpg?w=320), notfound (an unknown path), badparam (a bad
-- lat), static (the stylesheet). IDS (comma-separated announcement ids) comes from the environment.
-- Each request carries its kind in its X-Request-Id, which the server echoes, so an answer is
-- counted under the kind of its own request whatever order the connections answer in.
local ids = {}
for id in string.gmatch(os.getenv("IDS") or "", "[^,]+") do ids[#ids + 1] = id end
local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  threads[#threads + 1] = thread
end

function init(args)
  counts = {}
  n = 0
  math.randomseed(os.time() + wrk.thread:get("id"))
end

local function place()
  return string.format("lat=%.4f&lng=%.4f", 49.0 + math.random() * 5.8, 14.1 + math.random() * 10.0)
end

local makers = {
  {"page", function() return (math.random() < 0.5) and "/pets" or "/" end},
  {"located", function() return "/pets?" .. place() end},
  {"details", function() return "/pets/" .. ids[math.random(#ids)] end},
  {"api", function() return "/api/v1/announcements?" .. place() end},
  {"photo", function() return "/images/pet-" .. math.random(1, 20) .. ".jpg?w=320" end},
  {"notfound", function() return "/no/such/page/" .. math.random(1, 1000) end},
  {"badparam", function() return "/pets?lat=north&lng=21" end},
  {"static", function() return "/static/css/site.css" end},
}

function request()
  n = n + 1
  local maker = makers[(n % #makers) + 1]
  return wrk.format("GET", maker[2](), {["X-Request-Id"] = maker[1] .. "-" .. n})
end

function response(status, headers, body)
  local id = headers["X-Request-Id"] or headers["x-request-id"] or "?"
  local kind = string.match(id, "^(%a+)%-") or "unlabelled"
  local key = kind .. " " .. status
  counts[key] = (counts[key] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    local c = thread:get("counts")
    for key, value in pairs(c) do total[key] = (total[key] or 0) + value end
  end
  local keys = {}
  for key in pairs(total) do keys[#keys + 1] = key end
  table.sort(keys)
  for _, key in ipairs(keys) do io.write(string.format("status %s %d\n", key, total[key])) end
  io.write(string.format("errors connect %d read %d write %d timeout %d status %d\n",
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout, summary.errors.status))
  io.write(string.format("requests %d in %.0f s\n", summary.requests, summary.duration / 1e6))
end
