-- wrk script for the page benchmark: each request asks for a page of one kind
-- (JUNQI_BENCH_PAGE) about a random seeded player or with random filters, so the
-- database answers something different every time.
local kind = os.getenv("JUNQI_BENCH_PAGE") or "games"
local prefix = os.getenv("JUNQI_BENCH_PREFIX") or "s1"
local players = tonumber(os.getenv("JUNQI_BENCH_PLAYERS") or "100000")
local reasons = { "", "flag", "resign", "timeouts", "no_moves", "agreed", "no_capture_limit", "step_limit", "time_limit" }

local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end

function init(args)
  math.randomseed(id * 7919 + os.time())
end

local function player()
  return string.format("%s_%06d", prefix, math.random(0, players - 1))
end

function request()
  local path
  if kind == "games" then
    local r = reasons[math.random(#reasons)]
    if r == "" then path = "/games" else path = "/games?reason=" .. r end
  elseif kind == "ladder" then
    path = "/ladder?page=" .. math.random(1, 100)
  elseif kind == "profile" then
    path = "/@/" .. player()
  elseif kind == "player_games" then
    path = "/@/" .. player() .. "/games"
  else
    error("unknown JUNQI_BENCH_PAGE " .. kind)
  end
  return wrk.format("GET", path)
end
