-- POST /v1/score load from wrk (a C load generator: it takes far less CPU per request than load_api.py's
-- Python client, which matters when client and server share two cores). Bodies: one JSON request per line,
-- written by `benchmarks/load_api.py --write-bodies FILE` (the same seeded corpus load_api.py sends).
--
--   wrk -t1 -c200 -d30s --latency -s benchmarks/wrk_score.lua http://127.0.0.1:8000/v1/score -- work/score-bodies.jsonl
local bodies = {}
local next_body = 0

function init(args)
  for line in io.lines(args[1] or "work/score-bodies.jsonl") do
    bodies[#bodies + 1] = line
  end
  next_body = math.random(#bodies)
end

function request()
  next_body = next_body % #bodies + 1
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, bodies[next_body])
end
