-- bench/lua/shooter.lua - the shooter's frame (issue 25): 300 bullets and 25 enemies, the whole frame
-- of examples/love/shooter/sim.lua timed two ways in the same run:
--   - level:   the world holds the walls as its level, one world:stepBall per bullet (bounce off the
--              walls, cross the enemies), the enemies walk with world:move{place = true};
--   - rebuild: the way it had to be written before: each bullet bounces off the walls with
--              walls:stepBall, the game rebuilds its bent path from the contacts' moverX, moverY and
--              probes every leg with world:move{response = "cross"} (a filter leaving out the walls,
--              copied into the world so that the enemies walk against them).
-- Both play the same game bullet for bullet: a warm-up of WARMUP frames must end with the same
-- checksum in both (exit 1 if not, so a bug cannot pass as speed). Then each mode plays FRAMES frames
-- from its warmed-up state in turns, REPS times, and the median milliseconds per frame are compared.
-- Target: the level mode at least 2x faster than the rebuild mode from LuaJIT. Printed, never
-- enforced (machines here are shared); BENCH_SECONDS scales the run (`make bench-quick` sets 0.02).
package.path = 'examples/love/shooter/?.lua;' .. package.path
local collide2d = require 'collide2d'
local Sim = require 'sim'

local SECONDS = tonumber(os.getenv('BENCH_SECONDS')) or 0.25
local QUICK = SECONDS < 0.1
local REPS = QUICK and 3 or 9
local WARMUP = QUICK and 120 or 300
local FRAMES = QUICK and 60 or 240

local sims = {}
for _, mode in ipairs({ 'level', 'rebuild' }) do
  local s = Sim.new(collide2d, { mode = mode })
  for _ = 1, WARMUP do s:step() end
  sims[mode] = s
end
if sims.level:checksum() ~= sims.rebuild:checksum() then
  print(string.format('shooter bench: the two modes disagree after %d frames: level %s, rebuild %s', WARMUP,
    sims.level:checksum(), sims.rebuild:checksum()))
  os.exit(1)
end

local times = { level = {}, rebuild = {} }
for _ = 1, REPS do
  for _, mode in ipairs({ 'level', 'rebuild' }) do
    local s = sims[mode]
    collectgarbage()
    local t0 = os.clock()
    for _ = 1, FRAMES do s:step() end
    times[mode][#times[mode] + 1] = 1000 * (os.clock() - t0) / FRAMES
  end
end
local function median(t)
  table.sort(t)
  return t[math.floor((#t + 1) / 2)]
end
local level, rebuild = median(times.level), median(times.rebuild)
local same = sims.level:checksum() == sims.rebuild:checksum()
local bullets = #sims.level.bullets
local engine = jit and jit.version or _VERSION
print(string.format('shooter frame (%s, %d bullets, %d enemies, median of %d x %d frames): level %.4f ms, ' ..
  'rebuild %.4f ms, rebuild / level %.2fx', engine, bullets, Sim.ENEMIES, REPS, FRAMES, level, rebuild, rebuild / level))
if jit then
  print(string.format('target: from LuaJIT the level mode at least 2x faster than rebuilding paths: %.2fx %s',
    rebuild / level, rebuild / level >= 2 and 'MET' or 'NOT MET'))
end
if not same then
  print('shooter bench: the two modes ended in different states')
  os.exit(1)
end
