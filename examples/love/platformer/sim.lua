-- examples/love/platformer/sim.lua - the platformer's simulation, shared by the LÖVE game (main.lua
-- beside this file) and the headless runner (examples/lua/platformer.lua). Plain Lua 5.1 to 5.4 and
-- LuaJIT; no LÖVE calls.
--
-- What each collide2d feature shows here (the whole level is ONE static set, built once):
--   collide2d.concave     the ground: one concave polygon with walls, steps, two pillars, two pits, a
--                         plateau and a valley, and a hole (the arched window under the level). It is
--                         split into convex parts whose shared edges are seams: the player walks over
--                         them as over one floor, and can see into the window but never get in.
--   collide2d.chain       the hills: one polyline of 40 segments on top of the ground. Its joints are
--                         never surface, so the box runs over all of them without catching.
--   set:setOneWay         three ledges (i, 0, -1): landed on from above, jumped up through from below.
--   set:setVelocity /     two moving platforms (one across the deep pit, one lifting the player up the
--   set:setTransform      last cliff). Each frame the platform's motion is handed to the set before the
--                         player moves, so the move sweeps it (a platform never passes through the
--                         player), and after the move setTransform puts it where it got to.
--   set:moveCharacter     the player's box, every frame: one call walks it along the ground (up and
--                         down the hills without leaving them, no creep standing on a slope), steps it
--                         down onto the ground, carries it on the platforms, lands it on the ledges,
--                         and says what it stands on and whether a wall or a ceiling stopped it (upY =
--                         -1: the y axis points down). Its contacts and the step down give the path the
--                         checks follow.
--   set:stepBall          three balls bouncing under gravity inside the window, for ever.
--   set:pushOut, shape:distance, shape:overlaps, collide2d.hull
--                         the checks: is the player inside anything solid, did its path go through
--                         anything, did it pick up a coin.
--
-- Units: one frame is the unit of time (the game runs a fixed 60 frames per second), so speeds are
-- pixels per frame and gravity pixels per frame per frame. That is also collide2d's unit for a move:
-- a set:move lasts one unit, so set:setVelocity gets the platform's motion over one frame.
--
-- The only arithmetic here is game logic: the level's coordinates, the player's speed and gravity, the
-- platforms' schedule, the autoplay's decisions, and in the checks the player's path between the
-- contacts of a move (the contact records say where it was at each: moverX, moverY).

local Sim = {}
Sim.__index = Sim

Sim.WIDTH, Sim.HEIGHT = 800, 600        -- the window
Sim.LEVEL_W, Sim.LEVEL_H = 3440, 600    -- the level

local PLAYER_W, PLAYER_H = 24, 32
local RUN = 4                -- px per frame
local GRAVITY = 0.5          -- px per frame per frame
local JUMP = 11              -- take-off speed: about 120 px high, 170 px far at a run
local JUMP_CUT = 4           -- letting go of jump early caps the rising speed: short hops
local MAX_FALL = 12
local SNAP = 8               -- how far down the player looks for the ground after walking down a slope
local MAX_SLOPE = 0.79539883018414355   -- acos(0.7): ground up to 45.6 degrees is walkable
local TOL = 1e-9             -- how far the player may overlap a solid shape in the checks
local SHRINK = 1e-6          -- the swept-path check shrinks the box by this much: it slides touching
local GOAL_X = 3320          -- the flag: reaching it is a lap; the player starts again at SPAWN
local SPAWN_X, SPAWN_Y = 100, 500 - PLAYER_H / 2
local BALL_R = 7
local RIDE_FRAMES = 30       -- frames on board a moving platform that make a ride

-- The ground's outline, left to right along the surface, then down the right wall and back along the
-- bottom. y grows downwards; the ground level is y = 500.
local GROUND = {
  0, 600, 0, 0, 40, 0, 40, 500,                      -- the left wall
  260, 500, 260, 430, 300, 430, 300, 500,            -- pillar 1
  420, 500, 420, 460, 520, 460, 520, 420,            -- two steps up
  620, 420, 620, 500,                                -- and down again
  700, 500, 700, 550, 800, 550, 800, 500,            -- a shallow pit: fall in, jump out
  1000, 500, 1000, 440, 1030, 440, 1030, 500,        -- pillar 2, above the window
  1720, 500, 1720, 590, 2120, 590, 2120, 500,        -- the deep pit, crossed on the moving platform
  2560, 500, 2560, 250, 2800, 250, 2800, 500,        -- the plateau, reached by the one-way ledges
  3100, 500, 3100, 260,                              -- the last cliff, reached on the lift
  3400, 260, 3400, 0, 3440, 0, 3440, 600,            -- the goal ledge and the right wall
}
-- The window: a hole in the ground polygon, an arch the player sees into but cannot enter.
local WINDOW = { 860, 588, 1100, 588, 1100, 540, 1080, 522, 1040, 512, 920, 512, 880, 522, 860, 540 }
local WINDOW_BOX = { 860, 512, 1100, 588 }

-- The hills: a chain from (1150, 500) to (1650, 500) over two smooth bumps, a point every 12.5 px.
-- Each bump is h * 16 u^2 (1 - u)^2 for u from 0 to 1: flat at both ends, at most 36 degrees steep.
-- Points are rounded to a quarter pixel so that every Lua computes the same level.
local function hills()
  local pts = {}
  for k = 0, 40 do
    local x = 1150 + 12.5 * k
    local bump, u = 40, k / 20
    if k > 20 then bump, u = 60, (k - 20) / 20 end
    local h = bump * 16 * u * u * (1 - u) * (1 - u)
    pts[#pts + 1] = x
    pts[#pts + 1] = 500 - math.floor(h * 4 + 0.5) / 4
  end
  return pts
end

-- The last ledge and the lift's top stop 2 px above the plateau and the cliff they lead to, on
-- purpose. Walking off one shape onto another whose top is exactly level with it across a gap, the
-- box's bottom corner meets the other shape's top corner on its own bottom line, and collide2d 1.0.0
-- answers that corner-to-corner touch with the side face's normal (-1, 0), which stops the slide dead
-- although the box only moves along the top face's line (set:move(rect(4, -4, 4, 4), 6, 0) against
-- rect(10, 0, 20, 10) stops at x = 8): a library bug, reported. A 2 px step down never meets that
-- corner, and the ground snap takes the player down the step.

-- One-way ledges (top-left x, y, width, height): a staircase up to the plateau.
local LEDGES = {
  { 2200, 430, 120, 10 },
  { 2300, 340, 120, 10 },
  { 2400, 248, 155, 10 },       -- 2 px above the plateau (see above)
}

-- Moving platforms: a rectangle at rest at (x, y) (top-left), travelling (dx, dy) and back at `speed`
-- px per frame, waiting `pause` frames at each end. The horizontal one crosses the deep pit, its top
-- level with the ground (30 px from each wall at its ends: a hop on, a hop off); the vertical one lifts
-- from 38 px above the valley floor (room for the player underneath: it is never squashed) to 2 px
-- above the top of the last cliff (see above). Each is 20 or 30 px from any wall: wider than the gap
-- is nothing the player could be squeezed into.
local MOVERS = {
  { name = 'ferry', x = 1750, y = 500, w = 100, h = 12, dx = 240, dy = 0, speed = 2, pause = 45 },
  { name = 'lift', x = 2980, y = 450, w = 100, h = 12, dx = 0, dy = -192, speed = 1, pause = 40 },
}

local COINS = { { 280, 400 }, { 570, 380 }, { 750, 525 }, { 1015, 410 }, { 1280, 440 }, { 1540, 410 },
                { 1920, 470 }, { 2340, 300 }, { 2680, 220 }, { 3030, 230 }, { 3250, 230 } }

-- How far a platform has travelled at a frame (0 to its travel): out, wait, back, wait. Multiples of
-- its speed, so its positions are exact.
local function trip(m, frame)
  local travel = math.abs(m.dx) + math.abs(m.dy)
  local moving = travel / m.speed                       -- frames each way
  local f = frame % (2 * (moving + m.pause))
  if f < moving then return f * m.speed end
  f = f - moving
  if f < m.pause then return travel end
  f = f - m.pause
  if f < moving then return travel - f * m.speed end
  return 0
end

-- opts: autoplay (the computer plays), check (check every frame).
function Sim.new(c2d, opts)
  opts = opts or {}
  local self = setmetatable({}, Sim)
  self.c2d = c2d
  self.autoplay = opts.autoplay and true or false
  self.checking = opts.check and true or false

  -- The level's shapes, in the order of the set: their indices are the set's.
  self.ground = c2d.concave(GROUND, { WINDOW })
  self.hills = c2d.chain(hills())
  local shapes = { self.ground, self.hills }
  self.GROUND, self.HILLS = 1, 2
  self.ledges = {}
  for i, l in ipairs(LEDGES) do
    local shape = c2d.rectangle(l[1], l[2], l[3], l[4])
    shapes[#shapes + 1] = shape
    self.ledges[i] = { shape = shape, index = #shapes, left = l[1], top = l[2], right = l[1] + l[3],
                       landings = 0 }
  end
  self.movers = {}
  for i, m in ipairs(MOVERS) do
    local shape = c2d.rectangle(m.x, m.y, m.w, m.h)
    shapes[#shapes + 1] = shape
    local cx, cy = shape:position()
    local travel = math.abs(m.dx) + math.abs(m.dy)     -- along one axis
    self.movers[i] = { def = m, name = m.name, shape = shape, index = #shapes, cx = cx, cy = cy,
                       x0 = cx, y0 = cy, ux = m.dx / travel, uy = m.dy / travel, travel = travel,
                       vx = 0, vy = 0, riding = 0, rideWay = nil }
  end
  self.shapes = shapes
  self.set = c2d.staticset(shapes)
  for _, l in ipairs(self.ledges) do self.set:setOneWay(l.index, 0, -1) end
  -- Rides: on board a platform moving one way for at least RIDE_FRAMES frames up to the stop where it
  -- waits (pauses neither count nor end a ride). The ferry is ridden across, the lift up and down.
  self.rides = { across = 0, up = 0, down = 0 }
  self.moverOf = {}
  for _, m in ipairs(self.movers) do self.moverOf[m.index] = m end
  self.ledgeOf = {}
  for _, l in ipairs(self.ledges) do self.ledgeOf[l.index] = l end

  -- The player: a box, its centre at (x, y).
  self.player = {
    shape = c2d.rectangle(SPAWN_X - PLAYER_W / 2, SPAWN_Y - PLAYER_H / 2, PLAYER_W, PLAYER_H),
    w = PLAYER_W, h = PLAYER_H, x = SPAWN_X, y = SPAWN_Y, vy = 0,
    onGround = false, groundIndex = nil, jumpHeld = false, facing = 1,
    state = {},                                 -- what set:moveCharacter says it stands on
    ncontacts = 0,                              -- contacts of the last move, in sim.contacts
  }
  -- Up is (0, -1): y grows downwards. Ground whose normal is within acos(0.7) of up is walkable.
  self.moveOpts = { upY = -1, maxSlope = MAX_SLOPE, snap = SNAP }
  self.contacts = {}
  self.path = {}                                -- x, y, t of the player's path this frame

  self.coins = {}
  for i, c in ipairs(COINS) do self.coins[i] = { shape = c2d.circle(c[1], c[2], 8), taken = false } end

  -- Balls in the window: stepped with the set, bouncing off the hole's edges for ever.
  self.balls = {
    { x = 900, y = 540, vx = 3, vy = -4 },
    { x = 980, y = 560, vx = -2.5, vy = -3 },
    { x = 1060, y = 535, vx = 1.5, vy = -4.5 },
  }
  self.ballR = BALL_R
  self.ballOpts = { response = 'bounce', restitution = 1 }
  self.ballContacts = {}

  self.frame = 0
  self.ai = { jumpFrames = 0, lastWall = false, aim = nil, keys = {} }
  self.stats = { frames = 0, laps = 0, coins = 0, jumps = 0, contacts = 0, onewayUp = 0, bounces = 0,
                 snags = 0, inside = 0, fallthrough = 0, escapes = 0, violations = {} }
  self.passing = {}                             -- ledge index -> true while jumping up through it
  return self
end

-- The platforms' velocities for this frame, given to the set before anything moves: from where
-- their schedule had them after the last frame to where it has them after this one.
function Sim:driveMovers()
  for _, m in ipairs(self.movers) do
    local d = m.def
    local a, b = trip(d, self.frame - 1), trip(d, self.frame)
    m.vx, m.vy = (b - a) * m.ux, (b - a) * m.uy
    m.atStart, m.atEnd = (a == 0 and b == 0), (a == m.travel and b == m.travel)
    m.arrives = a ~= b and (b == 0 or b == m.travel)             -- reaches a stop this frame
    m.nextX, m.nextY = m.x0 + b * m.ux, m.y0 + b * m.uy
    self.set:setVelocity(m.index, m.vx, m.vy)
  end
end

-- After the frame's moves: each platform where its motion took it.
function Sim:placeMovers()
  for _, m in ipairs(self.movers) do
    m.cx, m.cy = m.nextX, m.nextY
    self.set:setTransform(m.index, m.cx, m.cy)
    m.shape:setPosition(m.cx, m.cy)
  end
end

-- One frame. input: { left =, right =, jump = } (keys held), ignored in autoplay.
function Sim:step(input)
  local stats, p, set = self.stats, self.player, self.set
  self.frame = self.frame + 1
  stats.frames = stats.frames + 1
  if self.autoplay then input = self:autopilot() end
  input = input or {}
  local dir = (input.right and 1 or 0) - (input.left and 1 or 0)
  if dir ~= 0 then p.facing = dir end

  self:driveMovers()

  -- Vertical speed: gravity, the jump (on a press, from the ground), a short hop when let go early.
  local wasOnGround, groundIndex = p.onGround, p.groundIndex
  local jumped = false
  if input.jump and not p.jumpHeld and wasOnGround then
    p.vy = -JUMP
    jumped = true
    stats.jumps = stats.jumps + 1
  end
  p.jumpHeld = input.jump and true or false
  p.vy = math.min(p.vy + GRAVITY, MAX_FALL)
  if p.vy < -JUMP_CUT and not p.jumpHeld then p.vy = -JUMP_CUT end

  -- One call moves the player as a platformer moves it: set:moveCharacter walks the run along the
  -- ground (uphill or down, gravity dropped while it stands on walkable ground), steps down onto the
  -- ground after walking down a slope or over a hill (SNAP px), rides the platform it stands on (the
  -- set sweeps it and the mover adds its motion, so the player keeps its place on the ferry and the
  -- lift, up or down), lands on the one-way ledges, and says what it stands on and whether a wall or
  -- a ceiling stopped it. The game keeps only its vertical speed.
  local dx, dy = dir * RUN, p.vy
  local carrier = wasOnGround and self.moverOf[groundIndex]

  local x0, y0 = p.x, p.y
  local path = self.path
  path[1], path[2], path[3] = x0, y0, 0
  local np = 3
  local contacts, state = self.contacts, p.state
  local x, y, onGround, _, _, ground, ceiling = set:moveCharacter(p.shape, dx, dy, self.moveOpts, state, contacts)
  local n = state.count
  stats.contacts = stats.contacts + n
  for j = 1, n do
    local c = contacts[j]
    if c.pushedOut then
      self:violation(string.format('frame %d: the player started inside shape %d', stats.frames, c.index))
      stats.inside = stats.inside + 1
    end
    path[np + 1], path[np + 2], path[np + 3] = c.moverX, c.moverY, c.t
    np = np + 3
  end
  -- The walk's end, then the step down onto the ground (straight down: y grows downwards).
  if state.snap > 0 then
    path[np + 1], path[np + 2], path[np + 3] = x, y - state.snap, 1
    np = np + 3
  end
  path[np + 1], path[np + 2], path[np + 3] = x, y, 1
  np = np + 3
  self.npath = np
  p.x, p.y = x, y
  p.shape:setPosition(x, y)
  -- `blocked`: something other than the ground stopped the player (a wall, a ceiling).
  local wall = state.wall
  local blocked = wall or ceiling

  -- Walking over the hills never leaves them (with set:move, gravity and slide, the box flew off every
  -- bump's far side): counted as a snag.
  if self.checking and wasOnGround and groundIndex == self.HILLS and not jumped and not onGround then
    stats.snags = stats.snags + 1
    self:violation(string.format('frame %d: the player left the hills at (%.17g, %.17g) without jumping',
      stats.frames, x, y))
  end

  if onGround and p.vy > 0 then p.vy = 0 end
  if ceiling and p.vy < 0 then p.vy = 0 end
  self.ai.lastWall = wall

  -- Milestones: landing on a ledge from the air, riding a platform.
  local ledge = onGround and self.ledgeOf[ground]
  if ledge and not wasOnGround then ledge.landings = ledge.landings + 1 end
  for _, m in ipairs(self.movers) do
    if not (onGround and ground == m.index) then
      m.riding, m.rideWay = 0, nil
    elseif m.vx ~= 0 or m.vy ~= 0 then
      local way = (m.vy < 0 and 'up') or (m.vy > 0 and 'down') or 'across'
      if way ~= m.rideWay then m.riding, m.rideWay = 0, way end
      m.riding = m.riding + 1
      if m.arrives and m.riding >= RIDE_FRAMES then self.rides[way] = self.rides[way] + 1 end
    end
  end
  p.onGround, p.groundIndex = onGround, ground
  p.ncontacts = n

  -- Checked before the platforms move on: the path is relative to where they were at its start.
  if self.checking then
    self:checkPath(dir, dir * RUN, carrier and carrier.vx or 0, x0, wasOnGround, blocked)
  end
  self:placeMovers()
  self:trackLedges()
  self:stepBalls()
  self:takeCoins()
  if self.checking then self:check() end

  if p.x >= GOAL_X then
    stats.laps = stats.laps + 1
    self:respawn()
  end
end

-- Back to the start (a lap, or R in the game): the coins come back too.
function Sim:respawn()
  local p = self.player
  p.x, p.y, p.vy = SPAWN_X, SPAWN_Y, 0
  p.onGround, p.groundIndex = false, nil
  p.state.grounded = false
  p.shape:setPosition(p.x, p.y)
  for _, c in ipairs(self.coins) do c.taken = false end
  self.passing = {}
end

-- Jumping up through a ledge: the player overlaps it while rising, then stands clear above it.
function Sim:trackLedges()
  local p = self.player
  local bottom = p.y + p.h / 2
  for _, l in ipairs(self.ledges) do
    if p.shape:overlaps(l.shape) and bottom > l.top then
      if p.vy < 0 then self.passing[l.index] = true end
    elseif self.passing[l.index] then
      self.passing[l.index] = nil
      if bottom <= l.top then self.stats.onewayUp = self.stats.onewayUp + 1 end
    end
  end
end

-- The balls fall with a quarter of the player's gravity and bounce without loss. Gravity added once a
-- frame slowly pumps energy into a bouncing ball, so each keeps the energy it started with: after the
-- step its speed is set back to what its height allows.
local BALL_G = GRAVITY / 2

local function ballEnergy(b)
  return 0.5 * (b.vx * b.vx + b.vy * b.vy) - BALL_G * b.y      -- y points down
end

function Sim:stepBalls()
  local set, r, opts, contacts = self.set, self.ballR, self.ballOpts, self.ballContacts
  for _, b in ipairs(self.balls) do
    b.energy = b.energy or ballEnergy(b)
    b.vy = b.vy + BALL_G
    local n
    b.x, b.y, b.vx, b.vy, n = set:stepBall(b.x, b.y, b.vx, b.vy, r, 1, opts, contacts)
    self.stats.bounces = self.stats.bounces + n
    local kinetic = 0.5 * (b.vx * b.vx + b.vy * b.vy)
    local wanted = b.energy + BALL_G * b.y
    if kinetic > 0 and wanted > 0 then
      local k = math.sqrt(wanted / kinetic)
      b.vx, b.vy = b.vx * k, b.vy * k
    end
  end
end

function Sim:takeCoins()
  local p = self.player
  for _, c in ipairs(self.coins) do
    if not c.taken and p.shape:overlaps(c.shape) then
      c.taken = true
      self.stats.coins = self.stats.coins + 1
    end
  end
end

-- The computer player: runs right, jumps when a wall stops it, and follows a plan at the deep pit, the
-- ledges and the lift. It decides from where the player is, what it stands on and where the platforms
-- are: no randomness, so every run plays the same game. In the air it steers for the spot it jumped
-- for (ai.aim: an x, or a platform to follow).
function Sim:autopilot()
  local p, ai = self.player, self.ai
  local ferry, lift = self.movers[1], self.movers[2]
  local x = p.x
  local onLevel = p.y + p.h / 2 > 499            -- standing at the ground level, y = 500
  local right, left = false, false

  local function go(target, slack)
    slack = slack or 2
    if x < target - slack then right = true elseif x > target + slack then left = true end
    return not right and not left               -- there
  end
  local function jump(frames, aim)               -- press jump, hold it `frames` frames, aim for `aim`
    if ai.jumpFrames == 0 then ai.jumpFrames, ai.aim = frames, aim end
  end

  local on = p.onGround and p.groundIndex
  local ledge = self.ledgeOf[on]
  if not p.onGround then
    local aim = ai.aim
    if aim == 'ferry' then go(ferry.cx, 4)
    elseif aim == 'lift' then go(lift.cx, 4)
    elseif aim then go(aim)
    else right = true end
  elseif on == ferry.index then
    -- Ride it without a key held (the platform carries the player), hop off at the far end.
    if ferry.atEnd then right = true; jump(12, 2170) end
  elseif on == lift.index then
    if lift.atEnd then right = true end                      -- at the top: step off onto the cliff
  elseif ledge then
    -- Stand under the next ledge's left end and jump straight up through it, then land on it.
    local nextLedge = self.ledges[ledge.index - self.ledges[1].index + 2]
    if not nextLedge then right = true
    elseif go(nextLedge.left + 10) then jump(30, nextLedge.left + 40) end
  elseif onLevel and x > 1600 and x < 1720 then
    -- The deep pit's near edge: wait there until the ferry is at this end, then hop on.
    if go(1700) and ferry.atStart then right = true; jump(12, 'ferry') end
  elseif onLevel and x > 2120 and x < 2560 then
    -- Under the ledges: up through the first.
    local first = self.ledges[1]
    if go(first.left + 30) then jump(30, first.left + 30) end
  elseif onLevel and x > 2800 and x < 3100 then
    -- The valley: wait beside the lift, jump on as it comes down, ride it down and up again.
    local top = lift.cy - lift.def.h / 2
    if go(2930) and lift.vy > 0 and top >= 380 and top < 400 then right = true; jump(30, 'lift') end
  else
    right = true
    if ai.lastWall then jump(30, nil) end       -- a pillar, a step, a pit's far wall: jump it
  end

  local held = ai.jumpFrames > 0
  if held then ai.jumpFrames = ai.jumpFrames - 1 end
  local keys = ai.keys
  keys.left, keys.right, keys.jump = left, right, held
  return keys
end

-- The player's path this frame, segment by segment: between two contacts of a move it goes straight
-- and touches nothing, so the box swept along a segment (the hull of the box at both ends, shrunk by
-- 1e-6: it slides touching) must not overlap the ground, the hills or a platform (relative to the
-- platform: each point less the platform's own motion by then), and must not enter a one-way ledge
-- through its top. Also the snag count: a run from the ground that barely moves although nothing
-- but the ground under the player and the hills touched it.
function Sim:checkPath(dir, runDx, carryX, x0, startGrounded, blocked)
  local c2d, path, stats, p = self.c2d, self.path, self.stats, self.player
  local hw, hh = p.w / 2 - SHRINK, p.h / 2 - SHRINK
  local pts = {}
  local function swept(ax, ay, bx, by)
    pts[1], pts[2], pts[3], pts[4] = ax - hw, ay - hh, ax + hw, ay - hh
    pts[5], pts[6], pts[7], pts[8] = ax + hw, ay + hh, ax - hw, ay + hh
    pts[9], pts[10], pts[11], pts[12] = bx - hw, by - hh, bx + hw, by - hh
    pts[13], pts[14], pts[15], pts[16] = bx + hw, by + hh, bx - hw, by + hh
    return c2d.hull(pts)
  end
  for s = 1, self.npath / 3 - 1 do
    local ax, ay, at = path[3 * s - 2], path[3 * s - 1], path[3 * s]
    local bx, by, bt = path[3 * s + 1], path[3 * s + 2], path[3 * s + 3]
    local hull = swept(ax, ay, bx, by)
    for _, i in ipairs({ self.GROUND, self.HILLS }) do
      if hull:overlaps(self.shapes[i]) then
        stats.fallthrough = stats.fallthrough + 1
        self:violation(string.format('frame %d: the player went through shape %d between (%.17g, %.17g) and (%.17g, %.17g)',
          stats.frames, i, ax, ay, bx, by))
      end
    end
    hull:destroy()
    for _, m in ipairs(self.movers) do
      local rel = swept(ax - m.vx * at, ay - m.vy * at, bx - m.vx * bt, by - m.vy * bt)
      if rel:overlaps(m.shape) then
        stats.fallthrough = stats.fallthrough + 1
        self:violation(string.format('frame %d: the player went through the %s between (%.17g, %.17g) and (%.17g, %.17g)',
          stats.frames, m.name, ax, ay, bx, by))
      end
      rel:destroy()
    end
    -- A ledge is entered through its top when the box's bottom goes from above the top to below it
    -- while the box is over the ledge at that moment.
    local b0, b1 = ay + p.h / 2, by + p.h / 2
    for _, l in ipairs(self.ledges) do
      if b0 <= l.top + TOL and b1 > l.top + TOL then
        local xm = ax + (bx - ax) * (l.top - b0) / (b1 - b0)
        if xm + hw > l.left and xm - hw < l.right then
          stats.fallthrough = stats.fallthrough + 1
          self:violation(string.format('frame %d: the player fell through ledge %d between (%.17g, %.17g) and (%.17g, %.17g)',
            stats.frames, l.index, ax, ay, bx, by))
        end
      end
    end
  end
  -- A snag: running from the ground, touched by nothing but the floor and the hills, moved under 10%
  -- of the run (the carrying platform's motion aside).
  if dir ~= 0 and startGrounded and not blocked then
    local moved = (p.x - x0 - carryX) * dir
    if moved < 0.1 * math.abs(runDx) then
      stats.snags = stats.snags + 1
      self:violation(string.format('frame %d: the player snagged at (%.17g, %.17g): moved %.3g of %.3g',
        stats.frames, p.x, p.y, moved, math.abs(runDx)))
    end
  end
end

-- The end-of-frame invariants: the player overlaps no solid shape of the set (the ground, the hills,
-- the platforms where they now are) by more than 1e-9, asked two ways (the set's push-out, which
-- ignores the one-way ledges, and the distance to each solid shape); it is inside the level; each
-- ball is inside the window and overlaps no part of the ground.
function Sim:check()
  local stats, p = self.stats, self.player
  local px, py = self.set:pushOut(p.shape)
  if math.abs(px) + math.abs(py) > TOL then
    stats.inside = stats.inside + 1
    self:violation(string.format('frame %d: the player at (%.17g, %.17g) is inside the level: pushed out by (%.3g, %.3g)',
      stats.frames, p.x, p.y, px, py))
  end
  for i = 1, #self.shapes do
    if not self.ledgeOf[i] then
      local d = p.shape:distance(self.shapes[i])
      if d < -TOL then
        stats.inside = stats.inside + 1
        self:violation(string.format('frame %d: the player at (%.17g, %.17g) is %.3g inside shape %d',
          stats.frames, p.x, p.y, -d, i))
      end
    end
  end
  local x1, y1, x2, y2 = p.shape:bbox()
  if x1 < 0 or y1 < 0 or x2 > Sim.LEVEL_W or y2 > Sim.LEVEL_H then
    stats.escapes = stats.escapes + 1
    self:violation(string.format('frame %d: the player left the level at (%.17g, %.17g)', stats.frames, p.x, p.y))
  end
  for k, b in ipairs(self.balls) do
    local _, _, d = self.ground:closest(b.x, b.y)
    if d < self.ballR - TOL then
      stats.inside = stats.inside + 1
      self:violation(string.format('frame %d: ball %d at (%.17g, %.17g) is %.3g inside the ground',
        stats.frames, k, b.x, b.y, self.ballR - d))
    end
    if b.x < WINDOW_BOX[1] or b.x > WINDOW_BOX[3] or b.y < WINDOW_BOX[2] or b.y > WINDOW_BOX[4] then
      stats.escapes = stats.escapes + 1
      self:violation(string.format('frame %d: ball %d left the window at (%.17g, %.17g)', stats.frames, k, b.x, b.y))
    end
  end
end

function Sim:violation(msg)
  local v = self.stats.violations
  if #v < 20 then v[#v + 1] = msg end
end

-- Every violation of the checks: 0 when every frame was sound.
function Sim:failures()
  local s = self.stats
  return s.snags + s.inside + s.fallthrough + s.escapes
end

-- The milestones an autoplay run must reach: a list of what is missing (empty when all were).
function Sim:missing(laps)
  local miss = {}
  for i, l in ipairs(self.ledges) do
    if l.landings == 0 then miss[#miss + 1] = 'never landed on ledge ' .. i end
  end
  if self.stats.onewayUp == 0 then miss[#miss + 1] = 'never jumped up through a ledge' end
  if self.rides.across == 0 then miss[#miss + 1] = 'never rode the ferry' end
  if self.rides.up == 0 then miss[#miss + 1] = 'never rode the lift up' end
  if self.rides.down == 0 then miss[#miss + 1] = 'never rode the lift down' end
  if self.stats.laps < (laps or 1) then
    miss[#miss + 1] = string.format('%d laps, not %d', self.stats.laps, laps or 1)
  end
  return miss
end

function Sim:summary()
  local s = self.stats
  local landings = {}
  for i, l in ipairs(self.ledges) do landings[i] = l.landings end
  local rides = { self.rides.across, self.rides.up, self.rides.down }   -- ferry / lift up / lift down
  return string.format('platformer: frames=%d laps=%d landings=%s oneway_up=%d rides=%s jumps=%d coins=%d ' ..
    'contacts=%d bounces=%d snags=%d inside=%d fallthrough=%d escapes=%d',
    s.frames, s.laps, table.concat(landings, '/'), s.onewayUp, table.concat(rides, '/'), s.jumps, s.coins,
    s.contacts, s.bounces, s.snags, s.inside, s.fallthrough, s.escapes)
end

Sim.GOAL_X = GOAL_X
Sim.WINDOW = WINDOW
return Sim
