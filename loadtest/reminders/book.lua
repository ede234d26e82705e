-- Bookings under load while reminders go out: every request books a new person (a national id and
-- phone of its own) into the next slot of the place and day in SLOTS_BOOK_PLACE / SLOTS_BOOK_DAY,
-- with an Idempotency-Key of its own. Non-201 answers are counted and the first one printed.
local threads = {}
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  n = 0
  ok = 0
  other = 0
  failure = ""
  base = tonumber(os.getenv("SLOTS_BOOK_OFFSET") or "0")
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  n = n + 1
  local i = base + id * 1000000 + n
  local minute = 480 + (i % 120) * 5
  local time = string.format("%02d:%02d", math.floor(minute / 60), minute % 60)
  wrk.headers["Idempotency-Key"] = string.format("rem-bench-%d", i)
  local body = string.format(
    '{"placeId":%s,"day":"%s","time":"%s","name":"Osoba %d","phone":"+42190%07d","nationalId":"RB%08d"}',
    os.getenv("SLOTS_BOOK_PLACE"), os.getenv("SLOTS_BOOK_DAY"), time, i, i % 10000000, i)
  return wrk.format(nil, nil, nil, body)
end

function response(status, headers, body)
  if status == 201 then
    ok = ok + 1
  else
    other = other + 1
    if failure == "" then failure = status .. " " .. body end
  end
end

function done(summary, latency, requests)
  local booked, refused, first = 0, 0, ""
  for _, t in ipairs(threads) do
    booked = booked + t:get("ok")
    refused = refused + t:get("other")
    if first == "" then first = t:get("failure") end
  end
  io.write(string.format("bookings: %d booked, %d other answers %s\n", booked, refused, first))
end
