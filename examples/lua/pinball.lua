-- examples/lua/pinball.lua - the pinball table without a window: the same simulation as the LÖVE game
-- (examples/love/pinball/sim.lua) in plain Lua 5.1 to 5.4 or LuaJIT, in autoplay, checked every frame.
--
--   LUA_CPATH="build/lua54/?.so;;" lua5.4 examples/lua/pinball.lua [frames]
--   LUA_CPATH="build/lua51/?.so;;" luajit examples/lua/pinball.lua [frames]
--
-- Frames default to 6000 (COLLIDE2D_AUTOPLAY also sets them). Prints the summary line ("...
-- inside=0 crossed=0 escapes=0 pushedout=0 checksum=..." when every check held), the same line the
-- LÖVE game prints, then how long a frame takes: the same game played again without the checks,
-- timed as a whole (the autopilot, the flippers, the plunger and every ball step), which must end
-- with the same checksum. Exits with status 0, or 1 when a check failed: a ball whose path went
-- through or into a flipper, the spinner, the plunger or a wall, a ball inside anything at the end of
-- a frame, a ball off the table, or the timed run ending elsewhere.
--
-- COLLIDE2D_TELEPORT=1 plays without handing the flippers' motion to the set (they are only re-placed
-- after each frame, as before set:setMotion): balls then end up inside the flippers and the run fails,
-- which shows what the checks are for.

-- sim.lua lives with the LÖVE game; find it from this script's own path.
local here = (arg and arg[0] or ''):match('^(.*)[/\\]') or '.'
package.path = here .. '/../love/pinball/?.lua;' .. package.path

local collide2d = require 'collide2d'
local Sim = require 'sim'

local frames = tonumber(arg and arg[1] or '') or tonumber(os.getenv('COLLIDE2D_AUTOPLAY') or '') or 6000

local teleport = os.getenv('COLLIDE2D_TELEPORT') == '1'
local sim = Sim.new(collide2d, { autoplay = true, check = true, teleport = teleport })
for _ = 1, frames do sim:step() end
print(sim:summary())
for _, v in ipairs(sim.stats.violations) do print('violation: ' .. v) end

-- The frame time: the same game unchecked. The collector is run first so the checked run's garbage
-- (its capsules) is not collected during the timing.
collectgarbage()
collectgarbage()
local timed = Sim.new(collide2d, { autoplay = true, check = false, teleport = teleport })
local clock = os.clock()
for _ = 1, frames do timed:step() end
local seconds = os.clock() - clock
local s = timed.stats
print(string.format('pinball timing: %s, collide2d %s: %d frames in %.3f s, %.4f ms per frame ' ..
  '(%.2f balls in play on average, %.2f us per ball step)',
  jit and jit.version or _VERSION, collide2d._VERSION, frames, seconds, 1000 * seconds / frames,
  s.ballFrames / frames, 1e6 * seconds / math.max(1, s.ballFrames)))
local same = timed:checksum() == sim:checksum()
if not same then
  print(string.format('violation: the unchecked run ended with checksum %s, the checked one %s',
    timed:checksum(), sim:checksum()))
end
os.exit((sim:failures() == 0 and same) and 0 or 1)
