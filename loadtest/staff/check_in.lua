-- Check-in at the door under load: every request checks in the next booking code, each code once.
-- Codes come from the file SLOTS_STAFF_CODES (one per line); the two threads take alternate codes and
-- stop when theirs run out, so the latency figures are first check-ins only, not repeats.
local threads = {}
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  codes = {}
  local i = 0
  for line in io.lines(os.getenv("SLOTS_STAFF_CODES")) do
    if i % 2 == id then
      table.insert(codes, line)
    end
    i = i + 1
  end
  position = 0
  ok = 0
  other = 0
  failure = ""
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. os.getenv("SLOTS_STAFF_TOKEN")
end

function request()
  position = position + 1
  local code = codes[((position - 1) % #codes) + 1]
  return wrk.format(nil, nil, nil, '{"code":"' .. code .. '"}')
end

function response(status, headers, body)
  if status == 200 and string.find(body, '"alreadyCheckedIn":false', 1, true) then
    ok = ok + 1
  else
    other = other + 1
    if status ~= 200 and failure == "" then
      failure = status .. " " .. string.sub(body, 1, 160)
    end
  end
  if ok + other >= #codes then
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local first, rest = 0, 0
  for _, thread in ipairs(threads) do
    first = first + thread:get("ok")
    rest = rest + thread:get("other")
  end
  io.write(string.format("check-ins: %d first check-ins, %d other answers\n", first, rest))
  for _, thread in ipairs(threads) do
    if thread:get("failure") ~= "" then
      io.write("check-ins: first refusal: " .. thread:get("failure") .. "\n")
    end
  end
end
