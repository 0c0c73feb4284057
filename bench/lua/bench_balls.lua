-- bench/lua/bench_balls.lua - many balls at once from Lua: the scene of bench/bench_balls.c (1000 balls
-- of radius 4 at 60 to 300 px/s in an 800 x 600 box of 20 px tiles with 40 bricks), stepped frame by
-- frame at 1/60 s with set:stepBalls on one flat array updated in place (no opts, no contacts: the
-- game's own loop). Prints the median and 90th percentile of the milliseconds per frame, the Lua
-- garbage per frame, and whether the frame meets the target (2 ms under LuaJIT). BENCH_SECONDS (default
-- 0.25) does not apply: FRAMES frames are timed (fewer when BENCH_SECONDS is below 0.1, as bench-quick).
local collide2d = require 'collide2d'

local QUICK = (tonumber(os.getenv('BENCH_SECONDS')) or 0.25) < 0.1
local FRAMES = QUICK and 30 or 600
local N = 1000

local tiles = {}
for x = -20, 800, 20 do
  tiles[#tiles + 1] = collide2d.box(x + 10, -10, 20, 20)
  tiles[#tiles + 1] = collide2d.box(x + 10, 610, 20, 20)
end
for y = 0, 580, 20 do
  tiles[#tiles + 1] = collide2d.box(-10, y + 10, 20, 20)
  tiles[#tiles + 1] = collide2d.box(810, y + 10, 20, 20)
end
for row = 0, 3 do
  for col = 0, 9 do tiles[#tiles + 1] = collide2d.box(110 + 70 * col, 90 + 30 * row, 60, 20) end
end
local set = collide2d.staticset(tiles)

-- Park and Miller's generator: the same balls in every interpreter.
local seed = 12345
local function uniform(lo, hi)
  seed = (seed * 16807) % 2147483647
  return lo + (hi - lo) * seed / 2147483647
end

local balls, n = {}, 0
while n < N do
  local x, y = uniform(10, 790), uniform(200, 590)
  local a, s = uniform(0, 2 * math.pi), uniform(60, 300)
  local clear = true
  for k = 0, n - 1 do
    local dx, dy = balls[5 * k + 1] - x, balls[5 * k + 2] - y
    if dx * dx + dy * dy <= 81 then clear = false break end
  end
  if clear then
    balls[5 * n + 1], balls[5 * n + 2], balls[5 * n + 3], balls[5 * n + 4], balls[5 * n + 5] =
      x, y, s * math.cos(a), s * math.sin(a), 4
    n = n + 1
  end
end

local dt = 1 / 60
for _ = 1, QUICK and 10 or 60 do set:stepBalls(balls, dt) end -- spread out first

local times, truncated = {}, 0
for f = 1, FRAMES do times[f] = 0 end -- grown before the collector is watched
collectgarbage('collect')
collectgarbage('stop')
local kb0 = collectgarbage('count')
for f = 1, FRAMES do
  local t0 = os.clock()
  local _, cut = set:stepBalls(balls, dt)
  times[f] = (os.clock() - t0) * 1000
  if cut then truncated = truncated + 1 end
end
local garbage = (collectgarbage('count') - kb0) * 1024 / FRAMES
collectgarbage('restart')
table.sort(times)
local median, p90 = times[math.floor(FRAMES / 2) + 1], times[math.floor(FRAMES * 0.9) + 1]
local target = jit and 2 or nil
print(string.format('set:stepBalls, %d balls, one 1/60 s frame (%s): %.3f ms median, %.3f ms 90th percentile, '
  .. '%.0f bytes of garbage per frame, %d truncated frames', N, jit and jit.version or _VERSION, median, p90,
  garbage, truncated))
if target then
  print(string.format('  target: a frame under %g ms from LuaJIT: %s', target, median < target and 'MET' or 'NOT MET'))
end
