-- examples/love/main.lua - BricksBeater with collide2d, in LÖVE 11.
--
-- Several fast balls, a wall of touching bricks, rotated bricks, polygon bricks and a paddle. The
-- simulation (sim.lua, shared with examples/lua/bricks.lua) asks collide2d for everything: the balls
-- cross their frame together with set:stepBalls, bouncing off the level and each other, bricks break
-- with set:setEnabled. This file only draws and reads the mouse and keys.
--
-- Needs the Lua 5.1 build of the module (build/lua51/collide2d.so) copied next to this file as
-- collide2d.so; `make demo` does that and runs the game (see README.md, "Demo").
--
--   mouse, left/right  move the paddle        space   launch the balls on the paddle
--   F1 or D            debug view             B       one more ball
--   R                  restart                Escape  quit
--
-- Autoplay (what `make demo` and spec/suites/36-demo.sh run): `love . --autoplay N` or
-- COLLIDE2D_AUTOPLAY=N runs N frames of fixed length with many fast balls (COLLIDE2D_BALLS, default
-- 40, at COLLIDE2D_MIN_STEP to COLLIDE2D_MAX_STEP radii per step, default 5 to 50), the paddle
-- following the lowest ball. Every frame it checks that no ball left the field, none is inside a wall,
-- a brick or the paddle, and no ball's path went through one; at the end it prints a summary line and
-- quits with status 0, or 1 on any violation. COLLIDE2D_SCREENSHOT=file.png saves a
-- picture of frame COLLIDE2D_SCREENSHOT_FRAME (default: the middle of the run); COLLIDE2D_DEBUG=0
-- turns the debug view off for it.

-- A Lua error would otherwise open LÖVE's error screen and wait for a key forever.
function love.errorhandler(msg)
  print('error: ' .. tostring(msg) .. '\n' .. debug.traceback())
  io.stdout:flush()
  os.exit(1)
end

local collide2d = require 'collide2d'
local unpack = unpack or table.unpack
local Sim = require 'sim'

local sim
local debugView = false
local autoplay                 -- number of frames to run, or nil when playing
local shotFrame, shotPath, shotDone
local shotWait = 0
local verts = {}               -- reused by shape:vertices
local accumulator = 0
local paddleTarget = Sim.WIDTH / 2
local font

local function start()
  if autoplay then
    local o = Sim.envOptions()
    o.autoplay, o.check = true, true
    sim = Sim.new(collide2d, o)
  else
    sim = Sim.new(collide2d, { balls = 3, speed = 520, seed = os.time() })
  end
end

function love.load(args)
  for i, a in ipairs(args or {}) do
    if a == '--autoplay' then autoplay = tonumber(args[i + 1]) or 600 end
  end
  autoplay = autoplay or tonumber(os.getenv('COLLIDE2D_AUTOPLAY') or '')
  if autoplay then
    shotPath = os.getenv('COLLIDE2D_SCREENSHOT')
    shotFrame = tonumber(os.getenv('COLLIDE2D_SCREENSHOT_FRAME') or '') or math.max(1, math.floor(autoplay / 2))
    if shotFrame > autoplay then shotFrame = autoplay end
    debugView = os.getenv('COLLIDE2D_DEBUG') ~= '0'
  end
  font = love.graphics.newFont(13)
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
  for _, v in ipairs(sim.stats.violations) do print('violation: ' .. v) end
  io.stdout:flush()
  love.event.quit(sim:tunnels() == 0 and 0 or 1)
end

function love.update(dt)
  if autoplay then
    if sim.stats.frames < autoplay then
      sim:step()
      if shotPath and sim.stats.frames == shotFrame then
        love.graphics.captureScreenshot(saveScreenshot)   -- taken when this frame is shown
      end
    elseif not shotPath or shotDone then
      finish()
    else
      shotWait = shotWait + 1                          -- the capture comes with the next frames shown
      if shotWait > 60 then error('the screenshot of frame ' .. shotFrame .. ' never came') end
    end
    return
  end
  local speed = 900
  if love.keyboard.isDown('left') then paddleTarget = paddleTarget - speed * dt end
  if love.keyboard.isDown('right') then paddleTarget = paddleTarget + speed * dt end
  paddleTarget = math.max(0, math.min(Sim.WIDTH, paddleTarget))
  accumulator = math.min(accumulator + dt, 0.25)
  while accumulator >= sim.dt do
    sim:step(paddleTarget)
    accumulator = accumulator - sim.dt
  end
end

function love.mousemoved(x)
  if not autoplay then paddleTarget = x end
end

function love.mousepressed()
  if not autoplay then sim:launch() end
end

function love.keypressed(key)
  if key == 'escape' then love.event.quit(0)
  elseif key == 'f1' or key == 'd' then debugView = not debugView
  elseif autoplay then return
  elseif key == 'space' then sim:launch()
  elseif key == 'b' then sim:addBall()
  elseif key == 'r' then start()
  end
end

-- Colours by kind and remaining hit points.
local COLOURS = {
  rect = { { 0.85, 0.35, 0.30 }, { 0.90, 0.55, 0.25 }, { 0.95, 0.78, 0.30 } },
  rotated = { { 0.35, 0.70, 0.45 }, { 0.30, 0.80, 0.65 } },
  polygon = { { 0.35, 0.55, 0.90 }, { 0.55, 0.45, 0.90 } },
}

local function drawEdges(set, index, shape)
  local v = shape:vertices(verts)
  local n = #v / 2
  for e = 1, n do
    local a, b = e, e % n + 1
    if set and set:isSeam(index, e) then
      love.graphics.setColor(0.05, 0.05, 0.1, 0.55)   -- a seam: inside the union of the set, never hit
      love.graphics.setLineWidth(1)
    else
      love.graphics.setColor(1, 1, 1, 0.95)
      love.graphics.setLineWidth(1.5)
    end
    love.graphics.line(v[2 * a - 1], v[2 * a], v[2 * b - 1], v[2 * b])
  end
end

function love.draw()
  local g = love.graphics
  g.clear(0.07, 0.08, 0.11)
  g.setFont(font)
  g.setLineWidth(1)
  local set = sim.set

  for i, b in ipairs(sim.bricks) do
    if b.alive then
      local shades = COLOURS[b.kind]
      local c = shades[math.min(b.hp, #shades)]
      local flash = (b.hitFrame and sim.stats.frames - b.hitFrame < 4) and 0.25 or 0
      g.setColor(c[1] + flash, c[2] + flash, c[3] + flash, debugView and 0.55 or 1)
      g.polygon('fill', b.shape:vertices(verts))
      if debugView then
        drawEdges(set, sim.firstBrick + i - 1, b.shape)
      else
        g.setColor(0, 0, 0, 0.35)
        g.polygon('line', b.shape:vertices(verts))
      end
    end
  end

  g.setColor(0.85, 0.88, 0.95, debugView and 0.6 or 1)
  g.polygon('fill', sim.paddle:vertices(verts))
  if debugView then drawEdges(set, sim.paddleIndex, sim.paddle) end
  g.setLineWidth(1)

  for _, b in ipairs(sim.balls) do
    if debugView and b.npath >= 4 then
      -- The swept path of this frame: start, the centre at each contact, end.
      g.setColor(1, 0.85, 0.2, 0.55)
      g.line(unpack(b.path, 1, b.npath))
      g.setColor(1, 0.85, 0.2, 0.35)
      g.circle('line', b.path[1], b.path[2], b.r)
    end
    g.setColor(1, 0.95, 0.75)
    g.circle('fill', b.x, b.y, b.r)
  end

  if debugView then
    for _, b in ipairs(sim.balls) do
      for j = 1, b.nhits do
        local h = b.hits[j]
        g.setColor(1, 0.3, 0.3)
        g.circle('fill', h.x, h.y, 2.5)
        g.setColor(0.3, 1, 0.5)
        g.line(h.x, h.y, h.x + 16 * h.nx, h.y + 16 * h.ny)
      end
    end
    g.setColor(0.4, 0.9, 1, 0.7)
    g.rectangle('line', 0.5, 0.5, Sim.WIDTH - 1, Sim.HEIGHT - 1)  -- the walls' inner faces
  end

  local s = sim.stats
  g.setColor(1, 1, 1, 0.85)
  local line = string.format('collide2d BricksBeater   balls %d   bricks %d/%d   broken %d   contacts %d',
    #sim.balls, sim.alive, #sim.bricks, s.broken, s.contacts)
  if autoplay then
    line = line .. string.format('   autoplay frame %d/%d   tunnels %d', s.frames, autoplay, sim:tunnels())
  else
    line = line .. '   [space] launch  [F1/D] debug  [B] ball  [R] restart'
  end
  g.print(line, 8, 6)
  if debugView then
    g.print('debug: white edges = surface, dark = seams; yellow = swept path this frame; ' ..
      'red = contacts, green = normals', 8, 24)
  end
end
