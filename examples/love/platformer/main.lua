-- examples/love/platformer/main.lua - a small platformer with collide2d, in LÖVE 11.
--
-- One level, one static set: the ground is a single concave polygon (pits, steps, pillars and a
-- window you can see into but not enter), the hills a chain of 40 segments, three one-way ledges and
-- two moving platforms. The simulation (sim.lua, shared with examples/lua/platformer.lua) asks
-- collide2d for everything; its header says which feature does what. This file only draws and reads
-- the keys.
--
-- Needs the Lua 5.1 build of the module (build/lua51/collide2d.so) copied next to this file as
-- collide2d.so; `make demo-platformer` does that and runs the game (see README.md, "Demo").
--
--   left, right        run                     space, up, Z   jump (hold it to jump higher)
--   F1 or D            debug view              R              back to the start
--   Escape             quit
--
-- Autoplay (what spec/suites/37-platformer.sh runs): `love . --autoplay N` or COLLIDE2D_AUTOPLAY=N runs
-- N frames with the computer playing: it runs the level, jumps up through the ledges, rides the
-- platforms and starts again at the flag. Every frame it checks that the player is inside nothing
-- solid, never went through the ground, a platform or the top of a ledge, never snagged on the hills
-- and never left the level; at the end it prints a summary line and quits with status 0, or 1 on any
-- violation or when a milestone was missed (COLLIDE2D_LAPS laps, default 1, landings on each ledge,
-- a jump up through one, rides on both platforms). COLLIDE2D_SCREENSHOT=file.png saves a picture of
-- frame COLLIDE2D_SCREENSHOT_FRAME (default: the middle of the run); COLLIDE2D_DEBUG=1 turns the debug
-- view on for it.

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
local laps
local shotFrame, shotPath, shotDone
local shotWait = 0
local verts = {}               -- reused by shape:vertices and shape:part
local accumulator = 0
local font
local camX = 0

local function start()
  sim = Sim.new(collide2d, { autoplay = autoplay ~= nil, check = autoplay ~= nil })
end

function love.load(args)
  for i, a in ipairs(args or {}) do
    if a == '--autoplay' then autoplay = tonumber(args[i + 1]) or 4000 end
  end
  autoplay = autoplay or tonumber(os.getenv('COLLIDE2D_AUTOPLAY') or '')
  if autoplay then
    laps = tonumber(os.getenv('COLLIDE2D_LAPS') or '') or 1
    shotPath = os.getenv('COLLIDE2D_SCREENSHOT')
    shotFrame = tonumber(os.getenv('COLLIDE2D_SCREENSHOT_FRAME') or '') or math.max(1, math.floor(autoplay / 2))
    if shotFrame > autoplay then shotFrame = autoplay end
    debugView = os.getenv('COLLIDE2D_DEBUG') == '1'
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
  local missing = sim:missing(laps)
  for _, m in ipairs(missing) do print('missing: ' .. m) end
  io.stdout:flush()
  love.event.quit((sim:failures() == 0 and #missing == 0) and 0 or 1)
end

local input = {}
local function keys()
  local down = love.keyboard.isDown
  input.left, input.right, input.jump = down('left'), down('right'), down('space', 'up', 'z')
  return input
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
  accumulator = math.min(accumulator + dt, 0.25)
  while accumulator >= 1 / 60 do                       -- the simulation runs at a fixed 60 frames/s
    sim:step(keys())
    accumulator = accumulator - 1 / 60
  end
end

function love.keypressed(key)
  if key == 'escape' then love.event.quit(0)
  elseif key == 'f1' or key == 'd' then debugView = not debugView
  elseif autoplay then return
  elseif key == 'r' then sim:respawn()
  end
end

-- Drawing -------------------------------------------------------------------------------------------

local function drawOutline(shape, set, index)
  local v = shape:vertices(verts)
  local n = #v / 2
  for e = 1, n do
    local a, b = e, e % n + 1
    if set:isSeam(index, e) then love.graphics.setColor(0.05, 0.05, 0.1, 0.55)
    else love.graphics.setColor(1, 1, 1, 0.9) end
    love.graphics.line(v[2 * a - 1], v[2 * a], v[2 * b - 1], v[2 * b])
  end
end

local function drawLevel()
  local g = love.graphics
  local set = sim.set

  -- The window: a hole in the ground polygon, dark behind its bouncing balls.
  g.setColor(0.10, 0.09, 0.16)
  g.polygon('fill', Sim.WINDOW)
  for _, b in ipairs(sim.balls) do
    g.setColor(0.95, 0.55, 0.35)
    g.circle('fill', b.x, b.y, sim.ballR)
  end

  -- The ground, convex part by convex part (the hole is left out by the parts themselves).
  g.setColor(0.36, 0.30, 0.24)
  for k = 1, sim.ground:parts() do g.polygon('fill', sim.ground:part(k, verts)) end
  g.setColor(0.30, 0.62, 0.30)
  g.setLineWidth(4)
  g.polygon('line', sim.ground:vertices(verts))
  g.setLineWidth(1)

  -- The hills: earth under the chain, grass along it.
  local hv = sim.hills:vertices(verts)
  g.setColor(0.40, 0.33, 0.26)
  for k = 1, #hv / 2 - 1 do
    local x1, y1, x2, y2 = hv[2 * k - 1], hv[2 * k], hv[2 * k + 1], hv[2 * k + 2]
    g.polygon('fill', x1, y1, x2, y2, x2, 500, x1, 500)
  end
  g.setColor(0.30, 0.62, 0.30)
  g.setLineWidth(4)
  g.line(hv)
  g.setLineWidth(1)

  -- One-way ledges: planks with arrows pointing up.
  for _, l in ipairs(sim.ledges) do
    local x1, y1, x2, y2 = l.shape:bbox()
    g.setColor(0.78, 0.62, 0.38)
    g.rectangle('fill', x1, y1, x2 - x1, y2 - y1)
    g.setColor(0.50, 0.36, 0.20)
    for x = x1 + 12, x2 - 12, 24 do g.polygon('fill', x - 4, y2 - 2, x + 4, y2 - 2, x, y1 + 2) end
  end

  -- Moving platforms.
  for _, m in ipairs(sim.movers) do
    g.setColor(0.55, 0.70, 0.85)
    g.polygon('fill', m.shape:vertices(verts))
    g.setColor(0.25, 0.35, 0.50)
    g.polygon('line', m.shape:vertices(verts))
  end

  -- Coins and the flag.
  for _, c in ipairs(sim.coins) do
    if not c.taken then
      local x, y = c.shape:position()
      g.setColor(1, 0.85, 0.2)
      g.circle('fill', x, y, c.shape:radius())
      g.setColor(0.75, 0.55, 0.1)
      g.circle('line', x, y, c.shape:radius())
    end
  end
  g.setColor(0.9, 0.9, 0.9)
  g.rectangle('fill', Sim.GOAL_X, 260 - 90, 4, 90)
  g.setColor(0.9, 0.25, 0.3)
  g.polygon('fill', Sim.GOAL_X + 4, 170, Sim.GOAL_X + 44, 182, Sim.GOAL_X + 4, 194)

  if debugView then
    -- White: surface; dark: seams (none here: no two shapes of this level share an edge); thin
    -- dark lines: the edges between the ground's convex parts, which are never surface.
    g.setColor(0, 0, 0, 0.35)
    for k = 1, sim.ground:parts() do g.polygon('line', sim.ground:part(k, verts)) end
    drawOutline(sim.ground, set, sim.GROUND)
    g.setColor(1, 1, 1, 0.9)
    g.polygon('line', Sim.WINDOW)
    g.line(sim.hills:vertices(verts))
    g.setColor(0.4, 0.9, 1)
    local hv2 = sim.hills:vertices(verts)
    for k = 1, #hv2, 2 do g.circle('fill', hv2[k], hv2[k + 1], 2.5) end   -- the chain's joints
  end
end

local function drawPlayer()
  local g = love.graphics
  local p = sim.player
  g.setColor(0.95, 0.95, 1)
  g.polygon('fill', p.shape:vertices(verts))
  g.setColor(0.15, 0.15, 0.25)
  g.rectangle('fill', p.x + p.facing * 5 - 2, p.y - 9, 4, 5)            -- an eye, looking ahead
  if debugView then
    -- The path of this frame's move (start, the position at each contact, end), the contacts and
    -- their normals.
    local path = sim.path
    g.setColor(1, 0.85, 0.2)
    for k = 1, sim.npath / 3 - 1 do
      g.line(path[3 * k - 2], path[3 * k - 1], path[3 * k + 1], path[3 * k + 2])
    end
    for k = 1, p.ncontacts do
      local c = sim.contacts[k]
      g.setColor(1, 0.3, 0.3)
      g.circle('fill', c.x, c.y, 3)
      g.setColor(0.3, 1, 0.5)
      g.line(c.x, c.y, c.x + 20 * c.nx, c.y + 20 * c.ny)
    end
  end
end

function love.draw()
  local g = love.graphics
  g.clear(0.45, 0.68, 0.88)
  g.setFont(font)
  g.setLineWidth(1)
  local target = sim.player.x - Sim.WIDTH * 0.4
  camX = math.max(0, math.min(Sim.LEVEL_W - Sim.WIDTH, target))

  g.push()
  g.translate(-math.floor(camX), 0)
  drawLevel()
  drawPlayer()
  g.pop()

  local s = sim.stats
  g.setColor(0, 0, 0, 0.75)
  local line = string.format('collide2d platformer   laps %d   coins %d   jumps %d', s.laps, s.coins, s.jumps)
  if autoplay then
    line = line .. string.format('   autoplay frame %d/%d   violations %d', s.frames, autoplay, sim:failures())
  else
    line = line .. '   [arrows] run  [space] jump  [R] restart  [F1/D] debug'
  end
  g.print(line, 8, 6)
  if debugView then
    g.print('debug: yellow = this frame\'s move, red/green = contacts/normals, ' ..
      'blue = chain joints, thin = convex parts', 8, 24)
  end
end
