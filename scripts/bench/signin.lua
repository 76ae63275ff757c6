-- wrk script: POST /api/auth/sign-in/email as one verified account, each request from a new client
-- address, since better-auth allows 3 sign-ins per 10 s per address.
-- Arguments after "--": email password origin [first-thread]. Give each wrk instance running at
-- the same time on the same database its own first-thread, so no two of them share an address.
local threads = {}

function setup(thread)
  thread:set("thread_id", #threads)
  table.insert(threads, thread)
end

local counter = 0
local slot = 0
local origin = ""
local body = ""

function init(args)
  slot = (tonumber(thread_id) or 0) + (tonumber(args[4]) or 0)
  origin = args[3] or ""
  body = string.format('{"email":"%s","password":"%s"}', args[1] or "", args[2] or "")
end

function request()
  counter = counter + 1
  local headers = {
    ["Content-Type"] = "application/json",
    ["Origin"] = origin,
    ["X-Forwarded-For"] = string.format("10.%d.%d.%d", 100 + slot, math.floor(counter / 250) % 250, counter % 250 + 1),
  }
  return wrk.format("POST", "/api/auth/sign-in/email", headers, body)
end
