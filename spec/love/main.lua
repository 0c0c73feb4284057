-- spec/love/main.lua - the LÖVE check (spec/suites/35-love.sh): a tiny game that requires the
-- collide2d.so copied next to it (the 5.1 build, loaded by LÖVE's LuaJIT through its own C require
-- path), checks a few collisions, rolls a ball into a rotated wall for a few frames, draws the shapes
-- with shape:vertices(), saves a screenshot in its save directory and quits with status 42 when every
-- check passed (1 otherwise), so that a game that never ran cannot pass for one that did.
-- Each check prints "ok - ..." or "not ok - ..."; the suite counts them.

-- A Lua error would otherwise open LÖVE's error screen and wait for a key forever.
function love.errorhandler(msg)
  print('not ok - Lua error: ' .. tostring(msg) .. '\n' .. debug.traceback())
  io.stdout:flush()
  os.exit(1)
end

local failures = 0

local function check(ok, what)
  if not ok then failures = failures + 1 end
  print((ok and 'ok - ' or 'not ok - ') .. what)
end

local function near(a, b)
  return type(a) == 'number' and math.abs(a - b) <= 1e-12
end

local collide2d = require 'collide2d'

local FRAMES = 30          -- frames to run before quitting
local SCREENSHOT_AT = 20   -- frame whose picture is saved (captured when that frame is shown)
local frame = 0
local ball, wall, box, tri
local verts = {}           -- reused by shape:vertices(t) every frame: no garbage while drawing
local deepest = 0          -- the deepest the ball ever got into the wall, after pushing it out

function love.load()
  check(love.filesystem.getCRequirePath() == '??', 'the C require path is the default "??"')
  check(love.filesystem.getRealDirectory('collide2d.so') == love.filesystem.getSource(),
    'collide2d.so is found in the game directory')
  check(jit ~= nil and collide2d._VERSION == '1.0.0',
    'collide2d ' .. tostring(collide2d._VERSION) .. ' runs under ' .. tostring(jit and jit.version))
  check(debug.getinfo(collide2d.collide, 'S').what == 'Lua' and debug.getinfo(collide2d.sweep, 'S').what == 'C',
    'the copied .so alone gives LuaJIT\'s FFI fast path: collide is its Lua wrapper, sweep a C function')

  local nx, ny, depth, x, y = collide2d.circle(0, 0, 1):collide(collide2d.circle(1.5, 0, 1))
  check(near(nx, 1) and near(ny, 0) and near(depth, 0.5) and near(x, 0.75) and near(y, 0),
    'circle against circle: normal (1, 0), depth 0.5, contact (0.75, 0)')
  local r = collide2d.rectangle(0, 0, 10, 10)
  check(r:overlaps(collide2d.circle(10.7, 10.7, 1)) and not r:overlaps(collide2d.circle(10.8, 10.8, 1)),
    'circle against the corner of a rectangle (seed 003)')
  local t, hx, hy = r:raycast(5, -5, 0, 1)
  check(near(t, 5) and near(hx, 5) and near(hy, 0), 'a ray hits the rectangle\'s top at t = 5')
  local ok, err = pcall(collide2d.circle, 0, 0, -1)
  check(not ok and err:find('size or radius must be positive', 1, true) ~= nil, 'a bad radius raises')

  -- The scene: a ball rolling right into a wall turned by 0.1 rad, and two shapes to draw.
  ball = collide2d.circle(40, 120, 16)
  wall = collide2d.rectangle(220, 40, 30, 160, 0.1)
  box = collide2d.rectangle(60, 30, 60, 40, -0.2)
  tri = collide2d.polygon(150, 200, 200, 230, 120, 230)
end

function love.update()
  frame = frame + 1
  -- Fixed steps, not dt: the check must not depend on how fast Xvfb draws.
  ball:move(12, 0)
  local nx, ny, depth = wall:collide(ball)
  if nx then
    ball:move(nx * depth, ny * depth)
    local _, _, after = wall:collide(ball)
    deepest = math.max(deepest, after or 0)
  end
  if frame == SCREENSHOT_AT then
    love.graphics.captureScreenshot('check.png')
  elseif frame == FRAMES then
    check(math.abs(wall:distance(ball)) <= 1e-9, 'after ' .. FRAMES .. ' frames the ball rests against the wall')
    check(deepest <= 1e-9, 'pushing out by normal * depth leaves the ball touching, never inside')
    local bx = ball:position()
    check(bx < 220, 'the ball never went through the wall (x = ' .. bx .. ')')
    print(string.format('checks done: %d failed', failures))
    io.stdout:flush()
    love.event.quit(failures == 0 and 42 or 1)
  end
end

function love.draw()
  love.graphics.clear(0.1, 0.1, 0.15)
  love.graphics.setColor(0.3, 0.6, 0.9)
  love.graphics.polygon('fill', wall:vertices(verts))
  love.graphics.polygon('line', box:vertices(verts))
  love.graphics.polygon('fill', tri:vertices(verts))
  love.graphics.setColor(1, 0.8, 0.2)
  local x, y = ball:position()
  love.graphics.circle('fill', x, y, ball:radius())
end
