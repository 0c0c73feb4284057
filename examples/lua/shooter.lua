-- examples/lua/shooter.lua - the top-down shooter without a window: the same simulation as the LÖVE
-- game (examples/love/shooter/sim.lua) in plain Lua 5.1 to 5.4 or LuaJIT, in autoplay, checked every
-- frame.
--
--   LUA_CPATH="build/lua54/?.so;;" lua5.4 examples/lua/shooter.lua [frames [mode]]
--   LUA_CPATH="build/lua51/?.so;;" luajit examples/lua/shooter.lua [frames [mode]]
--
-- Frames default to 1200 (COLLIDE2D_AUTOPLAY also sets them), mode to "level" ("rebuild" plays the
-- old way). Prints the summary line ("... crossed=0 missed=0 inside=0 checksum=..." when every check
-- held), the same line the LÖVE game prints, then how long a frame takes: the same game played again
-- without the checks, which must end with the same checksum. Exits with status 0, or 1 when a check
-- failed: a bullet whose path entered a wall, an enemy a bullet went through unreported (or one
-- reported off its path), a bullet inside a wall at the end of a frame, or the timed run ending
-- elsewhere.

-- sim.lua lives with the LÖVE game; find it from this script's own path.
local here = (arg and arg[0] or ''):match('^(.*)[/\\]') or '.'
package.path = here .. '/../love/shooter/?.lua;' .. package.path

local collide2d = require 'collide2d'
local Sim = require 'sim'

local frames = tonumber(arg and arg[1] or '') or tonumber(os.getenv('COLLIDE2D_AUTOPLAY') or '') or 1200
local mode = arg and arg[2] or 'level'

local sim = Sim.new(collide2d, { check = true, mode = mode })
for _ = 1, frames do sim:step() end
print(sim:summary())
for i, v in ipairs(sim.stats.violations) do
  if i > 20 then print('violation: ... and ' .. (#sim.stats.violations - 20) .. ' more') break end
  print('violation: ' .. v)
end

collectgarbage()
collectgarbage()
local timed = Sim.new(collide2d, { check = false, mode = mode })
local clock = os.clock()
for _ = 1, frames do timed:step() end
local seconds = os.clock() - clock
print(string.format('shooter timing: %s, collide2d %s, mode %s: %d frames in %.3f s, %.4f ms per frame ' ..
  '(%.1f bullets and %d enemies on average)', jit and jit.version or _VERSION, collide2d._VERSION, mode, frames,
  seconds, 1000 * seconds / frames, timed.stats.aliveFrames / frames, Sim.ENEMIES))
local same = timed:checksum() == sim:checksum()
if not same then
  print(string.format('violation: the unchecked run ended with checksum %s, the checked one %s',
    timed:checksum(), sim:checksum()))
end
os.exit((sim:failures() == 0 and same) and 0 or 1)
