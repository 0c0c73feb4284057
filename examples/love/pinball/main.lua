-- examples/love/pinball/main.lua - a pinball table with collide2d, in LÖVE 11.
--
-- Twelve balls on one table: two flippers swinging at 36 rad/s about their hinges, a spinner, three
-- bumpers, a plunger in the launch lane and a one-way gate at its top. The simulation (sim.lua,
-- shared with examples/lua/pinball.lua) asks collide2d for everything; its header says which feature
-- does what. This file only draws and reads the keys.
--
-- Needs the Lua 5.1 build of the module (build/lua51/collide2d.so) copied next to this file as
-- collide2d.so; `make demo-pinball` does that and runs the game (see README.md, "Demo").
--
--   left shift, Z      left flipper            right shift, /   right flipper
--   space, down        pull the plunger (hold), let go to fire
--   F1 or D            debug view              R                start again
--   Escape             quit
--
-- Autoplay (what spec/suites/39-pinball.sh runs): `love . --autoplay N` or COLLIDE2D_AUTOPLAY=N runs
-- N frames with the computer playing: it flips a flipper when a ball comes down over it and fires the
-- plunger when a ball rests on it. Every frame it checks that no ball's path went through or into a
-- flipper, the spinner, the plunger or a wall, and that no ball ended the frame inside anything; at
-- the end it prints a summary line (the same as examples/lua/pinball.lua's) and quits with status 0,
-- or 1 on any violation. COLLIDE2D_SCREENSHOT=file.png saves a picture of frame
-- COLLIDE2D_SCREENSHOT_FRAME (default: the middle of the run); COLLIDE2D_DEBUG=1 turns the debug view
-- on for it.

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
local autoplay                 -- number of frames to run, or nil when playing
local shotFrame, shotPath, shotDone
local shotWait = 0
local verts = {}               -- reused by shape:vertices
local accumulator = 0
local font, bigFont
local stepTime, stepFrames = 0, 0

local function start()
  sim = Sim.new(collide2d, { autoplay = autoplay ~= nil, check = autoplay ~= nil })
end

function love.load(args)
  for i, a in ipairs(args or {}) do
    if a == '--autoplay' then autoplay = tonumber(args[i + 1]) or 6000 end
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
  print(string.format('pinball timing: LÖVE %d.%d, %s: %.4f ms per frame with its checks',
    major, minor, jit and jit.version or _VERSION, 1000 * stepTime / math.max(1, stepFrames)))
  for _, v in ipairs(sim.stats.violations) do print('violation: ' .. v) end
  io.stdout:flush()
  love.event.quit(sim:failures() == 0 and 0 or 1)
end

local input = {}
local function keys()
  local down = love.keyboard.isDown
  input.left, input.right, input.plunger = down('lshift', 'z'), down('rshift', '/'), down('space', 'down')
  return input
end

function love.update(dt)
  if autoplay then
    if sim.stats.frames < autoplay then
      local t0 = love.timer.getTime()
      sim:step()
      stepTime, stepFrames = stepTime + love.timer.getTime() - t0, stepFrames + 1
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
  accumulator = math.min(accumulator + dt, 0.25)
  while accumulator >= Sim.DT do                       -- the simulation runs at a fixed 60 frames/s
    sim:step(keys())
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

-- Drawing -------------------------------------------------------------------------------------------

local function fillShape(shape)
  if collide2d.type(shape) == 'circle' then
    local x, y = shape:position()
    love.graphics.circle('fill', x, y, shape:radius())
  else
    love.graphics.polygon('fill', shape:vertices(verts))
  end
end

local function drawTable()
  local g = love.graphics
  -- The bed, and the dark corners above the arc (a trapezoid under each of its segments).
  g.setColor(0.10, 0.16, 0.30)
  g.rectangle('fill', Sim.LEFT, 0, Sim.RIGHT - Sim.LEFT, Sim.HEIGHT)
  local arc = sim.arc:vertices(verts)
  g.setColor(0.22, 0.20, 0.28)
  for k = 1, #arc / 2 - 1 do
    local x1, y1, x2, y2 = arc[2 * k - 1], arc[2 * k], arc[2 * k + 1], arc[2 * k + 2]
    g.polygon('fill', x1, y1, x2, y2, x2, 0, x1, 0)
  end
  g.setColor(0.85, 0.80, 0.60)
  g.setLineWidth(3)
  g.line(arc)
  g.setLineWidth(1)

  -- Under the guides, where no ball ever gets: drawn as wall, not part of the set.
  g.setColor(0.22, 0.20, 0.28)
  for _, i in ipairs({ sim.LEFT_GUIDE, sim.RIGHT_GUIDE }) do
    local v = sim.shapes[i]:vertices(verts)
    local x1, x2 = math.min(v[1], v[3], v[5], v[7]), math.max(v[1], v[3], v[5], v[7])
    local y1, y2 = -math.huge, -math.huge                   -- the guide's bottom corners
    for k = 1, #v, 2 do
      if v[k] == x1 then y1 = math.max(y1, v[k + 1]) end
      if v[k] == x2 then y2 = math.max(y2, v[k + 1]) end
    end
    g.polygon('fill', x1, y1, x2, y2, x2, Sim.HEIGHT, x1, Sim.HEIGHT)
  end
  -- The walls, guides, posts and lane: every member that stands still.
  for _, s in ipairs(sim.static) do
    if s.index ~= sim.ARC then
      g.setColor(0.36, 0.33, 0.46)
      fillShape(s.shape)
    end
  end
  g.setColor(0.85, 0.80, 0.60)
  for _, i in ipairs({ sim.LEFT_POST, sim.RIGHT_POST }) do fillShape(sim.shapes[i]) end
  g.setColor(0.55, 0.85, 0.95, 0.55)                       -- the one-way gate
  fillShape(sim.shapes[sim.GATE])

  for _, bumper in ipairs(sim.bumpers) do
    local lit = bumper.lit / 8
    g.setColor(0.85 + 0.15 * lit, 0.25 + 0.6 * lit, 0.30 + 0.3 * lit)
    g.circle('fill', bumper.x, bumper.y, bumper.shape:radius())
    g.setColor(1, 0.9, 0.6)
    g.circle('line', bumper.x, bumper.y, bumper.shape:radius() - 4)
  end

  local p = sim.plunger
  g.setColor(0.6, 0.6, 0.65)
  local px1, py1, px2 = p.shape:bbox()
  for y = py1 + 16, Sim.HEIGHT - 4, 5 do g.line(px1 + 8, y, px2 - 8, y + 2) end   -- the spring
  g.setColor(0.85, 0.30, 0.25)
  fillShape(p.shape)

  g.setColor(0.95, 0.75, 0.25)
  fillShape(sim.spinner.shape)
  for _, f in ipairs(sim.flippers) do
    g.setColor(0.95, 0.95, 0.98)
    fillShape(f.shape)
    g.setColor(0.85, 0.30, 0.25)
    g.polygon('line', f.shape:vertices(verts))
    g.setColor(0.3, 0.3, 0.35)
    g.circle('fill', f.hx, f.hy, 4)
  end
end

local function drawBalls()
  local g = love.graphics
  for _, b in ipairs(sim.balls) do
    if b.state == 'play' then
      g.setColor(0.80, 0.82, 0.88)
      g.circle('fill', b.x, b.y, Sim.R)
      g.setColor(1, 1, 1)
      g.circle('fill', b.x - 2.5, b.y - 2.5, 2.5)
    end
  end
  if debugView then
    -- Each ball's path this frame (its centre from the start through each contact to the end), the
    -- contacts and their normals, and the discs the turning bars sweep.
    for _, b in ipairs(sim.balls) do
      if b.state == 'play' and b.npath >= 4 then
        g.setColor(1, 0.85, 0.2)
        g.line(b.path[1], b.path[2], b.path[3], b.path[4])
        for k = 3, b.npath / 2 - 1 do
          g.line(b.path[2 * k - 1], b.path[2 * k], b.path[2 * k + 1], b.path[2 * k + 2])
        end
        for j = 1, b.nhits do
          local x, y, nx, ny = b.hits[4 * j - 3], b.hits[4 * j - 2], b.hits[4 * j - 1], b.hits[4 * j]
          g.setColor(1, 0.3, 0.3)
          g.circle('fill', x, y, 3)
          g.setColor(0.3, 1, 0.5)
          g.line(x, y, x + 20 * nx, y + 20 * ny)
        end
      end
    end
    g.setColor(1, 1, 1, 0.25)
    for _, bar in ipairs(sim.bars) do g.circle('line', bar.hx, bar.hy, bar.reach) end
  end
end

local function drawPanel()
  local g = love.graphics
  local s = sim.stats
  local x = 648
  g.setColor(0.95, 0.85, 0.5)
  g.setFont(bigFont)
  g.print('PINBALL', x, 16)
  g.setFont(font)
  g.setColor(0.9, 0.9, 0.95)
  local inPlay = 0
  for _, b in ipairs(sim.balls) do if b.state == 'play' then inPlay = inPlay + 1 end end
  local lines = {
    string.format('balls in play  %d', inPlay),
    string.format('in the trough  %d', #sim.trough),
    string.format('flips          %d', s.flips),
    string.format('flipper hits   %d', s.flipperHits),
    string.format('bumper hits    %d', s.bumperHits),
    string.format('spinner hits   %d', s.spinnerHits),
    string.format('launches       %d', s.launches),
    string.format('drained        %d', s.drained),
    string.format('contacts       %d', s.contacts),
    string.format('fastest  %5.0f px/s', s.maxSpeed),
  }
  for i, l in ipairs(lines) do g.print(l, x, 40 + 18 * i) end
  local y = 40 + 18 * (#lines + 2)
  if autoplay then
    g.print(string.format('autoplay %d/%d', s.frames, autoplay), x, y)
    g.print(string.format('violations %d', sim:failures()), x, y + 18)
  else
    g.print('[Z / L-shift]  left', x, y)
    g.print('[/ / R-shift]  right', x, y + 18)
    g.print('[space] plunger', x, y + 36)
    g.print('[R] again  [F1] debug', x, y + 54)
  end
  if debugView then
    g.setColor(0.9, 0.9, 0.95)
    g.printf('debug: yellow = each ball\'s path this frame, red/green = contacts/normals, ' ..
      'circles = the discs the flippers and the spinner sweep', x, 420, 145)
  end
end

function love.draw()
  local g = love.graphics
  g.clear(0.06, 0.06, 0.09)
  g.setFont(font)
  g.setLineWidth(1)
  drawTable()
  drawBalls()
  drawPanel()
end
