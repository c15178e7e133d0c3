-- wrk script of bench/serve.sh: POSTs the bodies of $KERAS_SERVE_REQUESTS (one TF Serving
-- predict body per line) round robin, each request formatted once at start; with
-- $KERAS_SERVE_DELAY_MS each connection waits that long before each request (the soak's
-- fixed load).
local requests = {}
for line in io.lines(os.getenv("KERAS_SERVE_REQUESTS")) do
  requests[#requests + 1] = wrk.format("POST", nil, {["Content-Type"] = "application/json"}, line)
end
local i = 0

request = function()
  i = i % #requests + 1
  return requests[i]
end

local pause = tonumber(os.getenv("KERAS_SERVE_DELAY_MS") or "0")
if pause > 0 then
  delay = function()
    return pause
  end
end
