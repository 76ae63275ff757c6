-- wrk script: POST /api/phone-optin with a new valid number and a new client address each time.
local counter = 0
local thread_id = 0
local threads = {}

function setup(thread)
  thread:set("thread_id", #threads)
  table.insert(threads, thread)
end

-- An optional first argument (wrk ... -- 200000) starts the numbers there, so that runs one after
-- another opt in new people instead of repeating the first run's (a repeat is a cheaper path).
local offset = 0

function init(args)
  thread_id = tonumber(thread_id) or 0
  offset = tonumber(args[1]) or 0
end

local exchanges = {}
for e = 200, 999 do
  if e ~= 555 and not (e % 100 == 11) then table.insert(exchanges, e) end
end

function request()
  counter = counter + 1
  local n = offset + counter * 4 + thread_id
  local exchange = exchanges[(math.floor(n / 10000) % #exchanges) + 1]
  local phone = string.format("312%03d%04d", exchange, n % 10000)
  local body = string.format('{"firstName":"Bench","lastName":"Mark","phone":"%s","clickId":"bench","smsConsent":true,"termsConsent":true}', phone)
  local headers = {
    ["Content-Type"] = "application/json",
    ["X-Forwarded-For"] = string.format("10.%d.%d.%d", thread_id, math.floor(n / 250) % 250, n % 250 + 1),
  }
  return wrk.format("POST", "/api/phone-optin", headers, body)
end
