-- examples/love/shooter/main.lua - a top-down shooter with collide2d, in LÖVE 11.
--
-- A turret at the bottom of an arena fires four bullets a frame, some 300 in flight; they bounce off
-- the walls (a static set: blocks, crates, a pillar, a capsule, a chain) and go through the 25
-- enemies that wander the arena (a world, which holds the walls as its level), hurting each one they
-- cross. The simulation (sim.lua, shared with examples/lua/shooter.lua and bench/lua/shooter.lua)
-- asks collide2d for everything, one world:stepBall per bullet per frame; its header says which
-- feature does what. This file only draws and reads the mouse.
--
-- Needs the Lua 5.1 build of the module (build/lua51/collide2d.so) copied next to this file as
-- collide2d.so; `make demo-shooter` does that and runs the game (see README.md, "Demo").
--
--   mouse              aim                      F1 or D          debug view (bullet paths)
--   R                  start again              Escape           quit
--
-- Autoplay (what spec/suites/44-shooter.sh runs): `love . --autoplay N` or COLLIDE2D_AUTOPLAY=N runs N
-- frames with the turret sweeping by itself, and checks every bullet every frame (no path through a
-- wall, no enemy crossed unreported, no bullet inside a wall); at the end it prints a summary line
-- (the same as examples/lua/shooter.lua's) and quits with status 0, or 1 on any violation.
-- COLLIDE2D_SCREENSHOT=file.png saves a picture of frame COLLIDE2D_SCREENSHOT_FRAME (default: the
-- middle of the run).

-- A Lua error would otherwise open LÖVE's error screen and wait for a key forever.
function love.errorhandler(msg)
  print('error: ' .. tostring(msg) .. '\n' .. debug.traceback())
  io.stdout:flush()
  os.exit(1)
end

local collide2d = require 'collide2d'
local Sim = require 'sim'

local sim
local debugView = false
local autoplay
local shotFrame, shotPath, shotDone
local shotWait = 0
local verts = {}
local accumulator = 0
local font, bigFont
local stepTime, stepFrames = 0, 0

local function start()
  sim = Sim.new(collide2d, { check = autoplay ~= nil })
end

function love.load(args)
  for i, a in ipairs(args or {}) do
    if a == '--autoplay' then autoplay = tonumber(args[i + 1]) or 1200 end
  end
  autoplay = autoplay or tonumber(os.getenv('COLLIDE2D_AUTOPLAY') or '')
  if autoplay then
    shotPath = os.getenv('COLLIDE2D_SCREENSHOT')
    shotFrame = tonumber(os.getenv('COLLIDE2D_SCREENSHOT_FRAME') or '') or math.max(1, math.floor(autoplay / 2))
    if shotFrame > autoplay then shotFrame = autoplay end
    debugView = os.getenv('COLLIDE2D_DEBUG') == '1'
  end
  font = love.graphics.newFont(13)
  bigFont = love.graphics.newFont(22)
  start()
end

local function saveScreenshot(imageData)
  local data = imageData:encode('png'):getString()
  local f, err = io.open(shotPath, 'wb')
  if not f then error('cannot write the screenshot: ' .. tostring(err)) end
  f:write(data)
  f:close()
  print(string.format('screenshot: %s (frame %d, %dx%d)', shotPath, shotFrame,
    imageData:getWidth(), imageData:getHeight()))
  shotDone = true
end

local function finish()
  print(sim:summary())
  local major, minor = love.getVersion()
  print(string.format('shooter timing: LÖVE %d.%d, %s: %.4f ms per frame with its checks',
    major, minor, jit and jit.version or _VERSION, 1000 * stepTime / math.max(1, stepFrames)))
  for _, v in ipairs(sim.stats.violations) do print('violation: ' .. v) end
  io.stdout:flush()
  love.event.quit(sim:failures() == 0 and 0 or 1)
end

local function mouseAim()
  local mx, my = love.mouse.getPosition()
  return math.atan2(my - Sim.TURRET_Y, mx - Sim.TURRET_X)
end

function love.update(dt)
  if autoplay then
    if sim.stats.frames < autoplay then
      local t0 = love.timer.getTime()
      sim:step()
      stepTime, stepFrames = stepTime + love.timer.getTime() - t0, stepFrames + 1
      if shotPath and sim.stats.frames == shotFrame then
        love.graphics.captureScreenshot(saveScreenshot)
      end
    elseif not shotPath or shotDone then
      finish()
    else
      shotWait = shotWait + 1
      if shotWait > 60 then error('the screenshot of frame ' .. shotFrame .. ' never came') end
    end
    return
  end
  accumulator = math.min(accumulator + dt, 0.25)
  while accumulator >= Sim.DT do                       -- the simulation runs at a fixed 60 frames/s
    sim:step(mouseAim())
    accumulator = accumulator - Sim.DT
  end
end

function love.keypressed(key)
  if key == 'escape' then love.event.quit(0)
  elseif key == 'f1' or key == 'd' then debugView = not debugView
  elseif autoplay then return
  elseif key == 'r' then start()
  end
end

-- Drawing: everything from collide2d's own copies (the set's shapes, the world's shapes) -------------

local function drawShape(mode, kind, x, y, r, vertices)
  local g = love.graphics
  if kind == 'circle' then
    g.circle(mode, x, y, r)
  elseif kind == 'capsule' then
    g.setLineWidth(2 * r)
    g.line(vertices)
    g.setLineWidth(1)
    g.circle(mode, vertices[1], vertices[2], r)
    g.circle(mode, vertices[3], vertices[4], r)
  elseif kind == 'chain' then
    g.setLineWidth(3)
    g.line(vertices)
    g.setLineWidth(1)
  else
    g.polygon(mode, vertices)
  end
end

local function drawWalls()
  local g = love.graphics
  g.setColor(0.35, 0.38, 0.50)
  for i = 1, sim.walls:count() do
    local kind, x, y, _, r = sim.walls:shape(i)
    drawShape('fill', kind, x, y, r, sim.walls:vertices(i, verts))
  end
end

local function drawEnemies()
  local g = love.graphics
  for _, e in ipairs(sim.enemies) do
    local hurt = 1 - e.hp / Sim.ENEMY_HP
    if e.flash > 0 then g.setColor(1, 1, 1) else g.setColor(0.85, 0.35 + 0.4 * hurt, 0.25) end
    local kind = collide2d.type(e.shape)
    local x, y = e.shape:position()
    drawShape('fill', kind, x, y, e.shape:radius(), e.shape:vertices(verts))
  end
end

local function drawBullets()
  local g = love.graphics
  g.setColor(1, 0.9, 0.4)
  for _, b in ipairs(sim.bullets) do g.circle('fill', b.x, b.y, Sim.R) end
  if debugView then
    g.setColor(1, 0.9, 0.4, 0.35)
    for _, b in ipairs(sim.bullets) do
      if b.npath >= 4 then
        for k = 1, b.npath - 3, 2 do g.line(b.path[k], b.path[k + 1], b.path[k + 2], b.path[k + 3]) end
      end
    end
  end
  g.setColor(0.6, 0.8, 0.95)
  g.circle('fill', Sim.TURRET_X, Sim.TURRET_Y, 14)
  g.setLineWidth(6)
  g.line(Sim.TURRET_X, Sim.TURRET_Y, Sim.TURRET_X + 24 * math.cos(sim.aim), Sim.TURRET_Y + 24 * math.sin(sim.aim))
  g.setLineWidth(1)
end

local function drawPanel()
  local g = love.graphics
  local s = sim.stats
  local x = 652
  g.setColor(0.95, 0.85, 0.5)
  g.setFont(bigFont)
  g.print('SHOOTER', x, 16)
  g.setFont(font)
  g.setColor(0.9, 0.9, 0.95)
  local lines = {
    string.format('bullets   %d', #sim.bullets),
    string.format('fired     %d', s.fired),
    string.format('bounces   %d', s.bounces),
    string.format('hits      %d', s.hits),
    string.format('kills     %d', s.kills),
  }
  for i, l in ipairs(lines) do g.print(l, x, 40 + 18 * i) end
  local y = 40 + 18 * (#lines + 2)
  if autoplay then
    g.print(string.format('autoplay %d/%d', s.frames, autoplay), x, y)
    g.print(string.format('violations %d', sim:failures()), x, y + 18)
  else
    g.print('[mouse] aim', x, y)
    g.print('[R] again  [F1] paths', x, y + 18)
  end
  g.printf('one world:stepBall per bullet: off the walls (the level), through the enemies (the world)',
    x, 420, 140)
end

function love.draw()
  local g = love.graphics
  g.clear(0.07, 0.07, 0.10)
  g.setFont(font)
  drawWalls()
  drawEnemies()
  drawBullets()
  drawPanel()
end
