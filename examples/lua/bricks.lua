-- examples/lua/bricks.lua - the BricksBeater demo without a window: the same simulation as the LÖVE
-- game (examples/love/sim.lua) in plain Lua 5.4 or LuaJIT, in autoplay, checked every frame.
--
--   LUA_CPATH="build/lua54/?.so;;" lua5.4 examples/lua/bricks.lua [frames]
--   LUA_CPATH="build/lua51/?.so;;" luajit examples/lua/bricks.lua [frames]
--
-- Frames default to 600 (COLLIDE2D_AUTOPLAY also sets them); COLLIDE2D_BALLS, COLLIDE2D_SEED,
-- COLLIDE2D_MIN_STEP and COLLIDE2D_MAX_STEP (ball speeds in radii per step) as for the game.
-- Prints one summary line ("... escapes=0 inside=0 crossed=0 tunnels=0" when every check held) and
-- exits with status 0, or 1 on any violation: a ball outside the field, a ball overlapping a wall, a
-- brick that is still there, the paddle or another ball by more than 1e-9 at the end of a frame, or a
-- ball whose path during a frame went through one of the shapes. The balls bounce off each other
-- (set:stepBalls steps them all at once).

-- sim.lua lives with the LÖVE game; find it from this script's own path.
local here = (arg and arg[0] or ''):match('^(.*)[/\\]') or '.'
package.path = here .. '/../love/?.lua;' .. package.path

local collide2d = require 'collide2d'
local Sim = require 'sim'

local frames = tonumber(arg and arg[1] or '') or tonumber(os.getenv('COLLIDE2D_AUTOPLAY') or '') or 600
local opts = Sim.envOptions()
opts.autoplay, opts.check = true, true
local sim = Sim.new(collide2d, opts)

local clock = os.clock()
for _ = 1, frames do sim:step() end
local seconds = os.clock() - clock

print(sim:summary())
print(string.format('%s, collide2d %s: %d frames in %.3f s (%.3f ms per frame)',
  jit and jit.version or _VERSION, collide2d._VERSION, frames, seconds, 1000 * seconds / frames))
for _, v in ipairs(sim.stats.violations) do print('violation: ' .. v) end
os.exit(sim:tunnels() == 0 and 0 or 1)
