-- examples/lua/platformer.lua - the platformer without a window: the same simulation as the LÖVE game
-- (examples/love/platformer/sim.lua) in plain Lua 5.1 to 5.4 or LuaJIT, in autoplay, checked every
-- frame.
--
--   LUA_CPATH="build/lua54/?.so;;" lua5.4 examples/lua/platformer.lua [frames [laps]]
--   LUA_CPATH="build/lua51/?.so;;" luajit examples/lua/platformer.lua [frames [laps]]
--
-- Frames default to 4000 (COLLIDE2D_AUTOPLAY also sets them), laps (the number of times the player
-- must reach the flag) to 2. Prints one summary line ("... snags=0 inside=0 fallthrough=0 escapes=0"
-- when every check held) and exits with status 0, or 1 when a check failed: the player inside a solid
-- shape at the end of a frame, its path through the ground, the hills, a platform or the top of a
-- ledge, a snag on flat or sloped ground, the player or a ball out of bounds, or a milestone not
-- reached (landing on each ledge, jumping up through one, riding each platform, the laps).

-- sim.lua lives with the LÖVE game; find it from this script's own path.
local here = (arg and arg[0] or ''):match('^(.*)[/\\]') or '.'
package.path = here .. '/../love/platformer/?.lua;' .. package.path

local collide2d = require 'collide2d'
local Sim = require 'sim'

local frames = tonumber(arg and arg[1] or '') or tonumber(os.getenv('COLLIDE2D_AUTOPLAY') or '') or 4000
local laps = tonumber(arg and arg[2] or '') or tonumber(os.getenv('COLLIDE2D_LAPS') or '') or 2
local sim = Sim.new(collide2d, { autoplay = true, check = true })

local clock = os.clock()
for _ = 1, frames do sim:step() end
local seconds = os.clock() - clock

print(sim:summary())
print(string.format('%s, collide2d %s: %d frames in %.3f s (%.3f ms per frame)',
  jit and jit.version or _VERSION, collide2d._VERSION, frames, seconds, 1000 * seconds / frames))
for _, v in ipairs(sim.stats.violations) do print('violation: ' .. v) end
local missing = sim:missing(laps)
for _, m in ipairs(missing) do print('missing: ' .. m) end
os.exit((sim:failures() == 0 and #missing == 0) and 0 or 1)
