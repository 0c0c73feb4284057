-- examples/love/pinball/sim.lua - the pinball table's simulation, shared by the LÖVE game (main.lua
-- beside this file) and the headless runner (examples/lua/pinball.lua). Plain Lua 5.1 to 5.4 and
-- LuaJIT; no LÖVE calls.
--
-- The whole table is ONE static set, built once; what each collide2d feature does here:
--   collide2d.chain       the curved top: 32 segments on an arc, whose joints are never surface, so a
--                         ball launched up the lane follows the curve into the playfield.
--   set:setMotion         the two flippers (110 x 18 rectangles, each turning about a hinge at one end:
--                         pivot (-55, 0) or (55, 0) in its own frame) and the spinner (a thin bar
--                         turning about its centre). Each frame the flippers' angular velocities are
--                         set BEFORE the balls step, so every ball step sweeps the turn: a flipper
--                         swinging at 36 rad/s (0.6 rad a frame) strikes a ball where they meet and
--                         throws it at the speed of its face there, v + w x r, never past it.
--   set:setTransform      after the balls stepped: each turning member re-placed at its new angle
--                         (angle + w dt, turned about its hinge), the plunger at its new height.
--   set:setVelocity       the plunger: a paddle in the launch lane, pulled down slowly, then fired up.
--   set:setOneWay         the gate at the top of the lane: launched balls pass it from below, balls in
--                         the playfield bounce off its top and never fall back into the lane.
--   set:stepBall          every ball, every frame: all its contacts of the frame in order, however
--                         fast; restitution 0.9. The contact records say which member was hit: the
--                         bumpers kick (collide2d allows restitution up to 1 only, so a bumper adds
--                         speed along the contact normal after the step), the spinner and flippers
--                         count hits.
--   set:pushOut, shape:distance, shape:overlaps, collide2d.capsule
--                         the checks (Sim:checkPath, Sim:check).
--
-- Units: pixels and seconds; the simulation runs a fixed DT = 1/60 s a frame, and every velocity is
-- per second (set:stepBall's dt is DT, so set:setMotion's w is in rad/s).
--
-- The only arithmetic here is game logic: the table's coordinates, gravity, where each flipper's hinge
-- takes it (its centre at hinge - R(angle) * pivot), the plunger's schedule, the autopilot's decisions,
-- and, in the checks, an independent model of the turning bars (Sim:barGap) sampled along each ball's
-- path. No randomness, no pairs(), no clocks: Lua 5.4, LuaJIT and LÖVE play the same game to the bit.

local Sim = {}
Sim.__index = Sim

Sim.WIDTH, Sim.HEIGHT = 800, 600      -- the window
local DT = 1 / 60
local R = 8                           -- ball radius
local BALLS = 12
local RESTITUTION = 0.9
local GRAVITY = 1000                  -- px/s^2, down the table (y points down)
local MAX_SPEED = 6000                -- px/s: the game caps a ball's speed after each step (see Sim:step)
local TOL = 1e-6                      -- how far a ball may end inside anything, or enter a turning bar
local STATIC_TOL = 1e-9               -- how far a ball's path may enter a member that stands still

-- The table: walls at x = 200 and x = 600, the launch lane x = 560..600 on the right behind a lane
-- wall (x = 552..560), an arc on top (centre (400, 210), radius 200), open at the bottom between the
-- flippers: a ball below DRAIN_Y is drained.
local LEFT, RIGHT = 200, 600
local LANE_WALL = 552                 -- the lane wall's left face; the lane is LANE_WALL + 8 .. RIGHT
local LANE_X = 580                    -- the lane's middle
local LANE_TOP = 250                  -- the lane wall's top
local ARC_X, ARC_Y, ARC_R, ARC_N = 400, 210, 200, 32
local DRAIN_Y = 640

-- Flippers: hinges on a post each (a circle bigger than the flipper's end, so nothing gets between),
-- at rest 0.5 rad below the horizontal, up 0.5 rad above it. Angles are collide2d's (counter-
-- clockwise in a y-up frame, so clockwise on the screen): the left flipper points along
-- (cos a, sin a) from its hinge, the right one along -(cos a, sin a).
local FLIP_LEN, FLIP_THICK = 110, 18
local HINGE_Y, HINGE_LX, HINGE_RX = 530, 258, 494
local POST_R = 10
local W_UP, W_DOWN = 36, 30           -- rad/s
local HOLD = 10                       -- frames the autopilot holds a flipper up
local COOLDOWN = 6                    -- frames it waits at rest before flipping again

-- The spinner: a 64 x 6 bar turning for ever about its centre. Its disc (radius 32.1) keeps over two
-- ball diameters from everything else: a ball can never be squeezed between it and a wall.
local SPIN_X, SPIN_Y, SPIN_LEN, SPIN_THICK, SPIN_W = 376, 360, 64, 6, 15

-- Bumpers: circles that kick a ball away by KICK px/s along the contact normal.
local BUMPERS = { { 320, 170 }, { 440, 170 }, { 380, 250 } }
local BUMPER_R, KICK = 20, 350

-- The plunger: a 36 x 12 paddle whose top rests at PLUNGER_TOP; it is pulled down PULL px at
-- PULL_SPEED px/s and fired back up at FIRE_SPEED px/s. Its velocity is handed to the set before the
-- balls step (set:setVelocity), so the fired plunger sweeps into the ball resting on it.
local PLUNGER_TOP, PLUNGER_W, PLUNGER_H = 560, 36, 12
local PULL, PULL_SPEED, FIRE_SPEED = 24, 90, 1200
local SETTLE = 20                     -- frames a ball rests on the plunger before the autopilot pulls

Sim.DT, Sim.R, Sim.BALLS = DT, R, BALLS
Sim.LEFT, Sim.RIGHT, Sim.DRAIN_Y, Sim.LANE_WALL = LEFT, RIGHT, DRAIN_Y, LANE_WALL

local function quarter(v) return math.floor(v * 4 + 0.5) / 4 end

-- The arc's points, left to right over the top, rounded to a quarter pixel.
local function arc()
  local pts = {}
  for k = 0, ARC_N do
    local a = math.pi + math.pi * k / ARC_N
    pts[#pts + 1] = quarter(ARC_X + ARC_R * math.cos(a))
    pts[#pts + 1] = quarter(ARC_Y + ARC_R * math.sin(a))
  end
  return pts
end

-- Where a bar's centre is when its hinge is at (hx, hy) and it stands at angle a: its pivot (px, 0),
-- in its own frame, turned by a, lies on the hinge.
local function barCentre(bar, a)
  return bar.hx - bar.px * math.cos(a), bar.hy - bar.px * math.sin(a)
end

-- opts: autoplay (the computer plays), check (check every frame), teleport (the flippers are not
-- given their motion, only re-placed after each frame, as a game written without set:setMotion would
-- do: the checks must then find balls inside them; spec/suites/39-pinball.sh makes sure they do).
function Sim.new(c2d, opts)
  opts = opts or {}
  local self = setmetatable({}, Sim)
  self.c2d = c2d
  self.autoplay = opts.autoplay and true or false
  self.checking = opts.check and true or false
  self.teleport = opts.teleport and true or false

  local shapes, names = {}, {}
  local function add(shape, name)
    shapes[#shapes + 1] = shape
    names[#shapes] = name:lower():gsub('_', ' ')
    self[name] = #shapes
    return #shapes
  end
  add(c2d.rectangle(LEFT - 30, -40, 30, DRAIN_Y + 80), 'LEFT_WALL')
  add(c2d.rectangle(RIGHT, -40, 30, DRAIN_Y + 80), 'RIGHT_WALL')
  self.arc = c2d.chain(arc())
  add(self.arc, 'ARC')
  add(c2d.rectangle(LANE_WALL, LANE_TOP, 8, DRAIN_Y + 40 - LANE_TOP), 'LANE_WALL')
  -- The gate: a slanted bar over the lane's top, high on the right, so that a ball landing on it rolls
  -- off to the left, into the playfield.
  add(c2d.polygon(LANE_WALL, LANE_TOP, RIGHT, LANE_TOP - 16, RIGHT, LANE_TOP - 10, LANE_WALL, LANE_TOP + 6), 'GATE')
  add(c2d.rectangle(LANE_WALL, PLUNGER_TOP + PULL + PLUNGER_H, RIGHT - LANE_WALL, 40), 'LANE_FLOOR')
  -- The guides from the side walls down to the flippers' posts.
  add(c2d.polygon(LEFT, 440, HINGE_LX, HINGE_Y - POST_R, HINGE_LX, HINGE_Y + 6, LEFT, 456), 'LEFT_GUIDE')
  add(c2d.polygon(LANE_WALL, 440, LANE_WALL, 456, HINGE_RX, HINGE_Y + 6, HINGE_RX, HINGE_Y - POST_R), 'RIGHT_GUIDE')
  add(c2d.circle(HINGE_LX, HINGE_Y, POST_R), 'LEFT_POST')
  add(c2d.circle(HINGE_RX, HINGE_Y, POST_R), 'RIGHT_POST')
  self.bumpers = {}
  for k, b in ipairs(BUMPERS) do
    local shape = c2d.circle(b[1], b[2], BUMPER_R)
    self.bumpers[k] = { shape = shape, index = add(shape, 'BUMPER' .. k), x = b[1], y = b[2], lit = 0, hits = 0 }
  end

  -- The turning bars: two flippers and the spinner. px: the pivot's x in the bar's own frame (the
  -- hinge); x0..x1: the bar's extent along its length from the hinge; h: half its thickness.
  local function bar(name, hx, hy, len, thick, px, angle, w)
    local b = { name = name, hx = hx, hy = hy, px = px, angle = angle, w = w or 0,
                x0 = -px - len / 2, x1 = -px + len / 2, h = thick / 2 }
    b.reach = math.sqrt(math.max(b.x0 * b.x0, b.x1 * b.x1) + b.h * b.h)
    local cx, cy = barCentre(b, angle)
    b.shape = c2d.rectangle(cx - len / 2, cy - thick / 2, len, thick, angle)
    b.index = add(b.shape, name)
    return b
  end
  -- Left flipper: pointing right from its hinge, rest angle 0.5 (down), up -0.5. Right flipper:
  -- pointing left, rest -0.5, up 0.5.
  self.flippers = {
    bar('LEFT_FLIPPER', HINGE_LX, HINGE_Y, FLIP_LEN, FLIP_THICK, -FLIP_LEN / 2, 0.5),
    bar('RIGHT_FLIPPER', HINGE_RX, HINGE_Y, FLIP_LEN, FLIP_THICK, FLIP_LEN / 2, -0.5),
  }
  self.flippers[1].rest, self.flippers[1].up, self.flippers[1].key = 0.5, -0.5, 'left'
  self.flippers[2].rest, self.flippers[2].up, self.flippers[2].key = -0.5, 0.5, 'right'
  for _, f in ipairs(self.flippers) do f.hold, f.cool, f.hits, f.flips = 0, 0, 0, 0 end
  self.spinner = bar('SPINNER', SPIN_X, SPIN_Y, SPIN_LEN, SPIN_THICK, 0, 0, SPIN_W)
  self.spinner.hits = 0
  self.bars = { self.flippers[1], self.flippers[2], self.spinner }

  self.plunger = { top = PLUNGER_TOP, v = 0, state = 'rest', settle = 0,
                   shape = c2d.rectangle(LANE_X - PLUNGER_W / 2, PLUNGER_TOP, PLUNGER_W, PLUNGER_H) }
  self.plunger.index = add(self.plunger.shape, 'PLUNGER')

  self.shapes, self.names = shapes, names
  self.set = c2d.staticset(shapes)
  self.set:setOneWay(self.GATE, 0, -1)
  self.set:setMotion(self.spinner.index, 0, 0, SPIN_W)          -- turning for ever about its centre
  self.static = {}                                              -- members that never move
  for i = 1, #shapes do
    if i ~= self.GATE and i ~= self.PLUNGER and i ~= self.LEFT_FLIPPER and i ~= self.RIGHT_FLIPPER
       and i ~= self.SPINNER then
      local x1, y1, x2, y2 = shapes[i]:bbox()
      self.static[#self.static + 1] = { index = i, shape = shapes[i], x1 = x1, y1 = y1, x2 = x2, y2 = y2 }
    end
  end

  -- The balls: all twelve start on the table, in a row under the arc, drifting apart. A drained ball
  -- waits in the trough (first drained, first back) until the lane is free, then rests on the plunger.
  self.balls = {}
  for k = 1, BALLS do
    self.balls[k] = { x = 250 + 22 * (k - 1), y = 100 + 12 * (k % 2), vx = 20 * (k - 6.5), vy = 0,
                      state = 'play', path = {}, npath = 0, hits = {}, nhits = 0 }
  end
  self.trough = {}
  self.ballOpts = { response = 'bounce', restitution = RESTITUTION }
  self.contacts = {}
  self.probe = c2d.circle(0, 0, R)
  self.input = { left = false, right = false, plunger = false }

  self.frame = 0
  self.stats = { frames = 0, contacts = 0, flips = 0, flipperHits = 0, bumperHits = 0, spinnerHits = 0,
                 plungerHits = 0, launches = 0, drained = 0, respawned = 0, ballFrames = 0, maxSpeed = 0,
                 rides = 0, pushedOut = 0, inside = 0, crossed = 0, escapes = 0, deepest = 0,
                 violations = {} }
  return self
end

-- One frame of DT. input: { left =, right =, plunger = } (keys held), ignored in autoplay.
function Sim:step(input)
  local stats, set = self.stats, self.set
  self.frame = self.frame + 1
  stats.frames = stats.frames + 1
  if self.autoplay then input = self:autopilot() end
  input = input or self.input

  -- The flippers' swing this frame: towards the up angle while the key is held, else back to rest,
  -- at W_UP or W_DOWN; the frame that reaches the stop turns just as far as the stop, and the next
  -- one stands still. Handed to the set before any ball steps.
  for _, f in ipairs(self.flippers) do
    local target = input[f.key] and f.up or f.rest
    local diff, w = target - f.angle, 0
    f.stopping = false
    if diff ~= 0 then
      local speed = (target == f.up) and W_UP or W_DOWN
      if diff > speed * DT then w = speed
      elseif diff < -speed * DT then w = -speed
      else w, f.stopping = diff / DT, true end
      if target == f.up and f.angle == f.rest then f.flips = f.flips + 1; stats.flips = stats.flips + 1 end
    end
    f.target = target
    if w ~= f.w then
      if not self.teleport then set:setMotion(f.index, 0, 0, w, f.px, 0) end
      f.w = w
    end
  end
  self:drivePlunger(input.plunger)

  -- The balls.
  local contacts, opts = self.contacts, self.ballOpts
  local inPlay = 0
  for k, b in ipairs(self.balls) do
    if b.state == 'play' then
      inPlay = inPlay + 1
      b.vy = b.vy + GRAVITY * DT
      local x0, y0, vx0, vy0 = b.x, b.y, b.vx, b.vy
      local x, y, vx, vy, n = set:stepBall(x0, y0, vx0, vy0, R, DT, opts, contacts)
      stats.contacts = stats.contacts + n
      if self.checking then self:checkPath(k, x0, y0, vx0, vy0, x, y, n) end
      self:recordPath(b, x0, y0, x, y, n)
      -- What was hit: bumpers kick (each once a frame), the rest is counted.
      local stamp = BALLS * stats.frames + k
      for j = 1, n do
        local c = contacts[j]
        local i = c.index
        if c.pushedOut then
          stats.pushedOut = stats.pushedOut + 1
          self:violation(string.format('frame %d: ball %d started inside the %s (shape %d)', stats.frames, k,
            self.names[i], i))
        end
        if i == self.LEFT_FLIPPER or i == self.RIGHT_FLIPPER then
          stats.flipperHits = stats.flipperHits + 1
          local f = (i == self.LEFT_FLIPPER) and self.flippers[1] or self.flippers[2]
          f.hits = f.hits + 1
        elseif i == self.SPINNER then
          stats.spinnerHits = stats.spinnerHits + 1
          self.spinner.hits = self.spinner.hits + 1
        elseif i == self.PLUNGER then
          stats.plungerHits = stats.plungerHits + 1
        elseif i == self.BUMPER1 or i == self.BUMPER2 or i == self.BUMPER3 then
          local bumper = self.bumpers[i - self.BUMPER1 + 1]
          if bumper.kicked ~= stamp then
            bumper.kicked = stamp
            vx, vy = vx + KICK * c.nx, vy + KICK * c.ny
            bumper.hits, bumper.lit = bumper.hits + 1, 8
            stats.bumperHits = stats.bumperHits + 1
          end
        end
      end
      -- A flipper swung into a falling ball throws it at the speed of its face plus 0.9 times their
      -- closing speed, and the walls take back little of it: left alone, balls would keep speeding up
      -- (past 16000 px/s, 270 px a frame). Like most pinball games this one caps the speed, after the
      -- step: collide2d still meets every ball at whatever speed a flipper or a bumper gave it.
      local speed = math.sqrt(vx * vx + vy * vy)
      if speed > stats.maxSpeed then stats.maxSpeed = speed end
      if speed > MAX_SPEED then vx, vy = vx * (MAX_SPEED / speed), vy * (MAX_SPEED / speed) end
      b.x, b.y, b.vx, b.vy = x, y, vx, vy
      if y > DRAIN_Y then
        b.state = 'trough'
        self.trough[#self.trough + 1] = k
        stats.drained = stats.drained + 1
      end
    end
  end
  stats.ballFrames = stats.ballFrames + inPlay

  -- After the balls: every member where its motion took it.
  for _, f in ipairs(self.flippers) do
    if f.w ~= 0 then self:placeBar(f, f.stopping and f.target or f.angle + f.w * DT) end
  end
  self:placeBar(self.spinner, self.spinner.angle + SPIN_W * DT)
  self:placePlunger()
  for _, bumper in ipairs(self.bumpers) do
    if bumper.lit > 0 then bumper.lit = bumper.lit - 1 end
  end
  self:feed()
  if self.checking then self:check() end
end

function Sim:placeBar(bar, a)
  bar.angle = a
  local cx, cy = barCentre(bar, a)
  self.set:setTransform(bar.index, cx, cy, a)
  bar.shape:setTransform(cx, cy, a)
end

-- The plunger: at rest, pulled (down at PULL_SPEED while `pull` is held, up to PULL px), or fired (up
-- at FIRE_SPEED back to rest) when let go. Its velocity for this frame goes to the set before the
-- balls step; the frame that reaches a stop moves only as far as the stop.
function Sim:drivePlunger(pull)
  local p = self.plunger
  local v = 0
  p.stopping = false
  if p.state == 'rest' and pull then p.state = 'pull' end
  if p.state == 'pull' then
    if pull then
      local left = PLUNGER_TOP + PULL - p.top
      if left > PULL_SPEED * DT then v = PULL_SPEED else v, p.stopping = left / DT, true end
    elseif p.top > PLUNGER_TOP then
      p.state = 'fire'
      self.stats.launches = self.stats.launches + 1
    else
      p.state = 'rest'
    end
  end
  if p.state == 'fire' then
    local left = p.top - PLUNGER_TOP
    if left > FIRE_SPEED * DT then v = -FIRE_SPEED else v, p.stopping = -left / DT, true end
  end
  if v ~= p.v then
    self.set:setVelocity(p.index, 0, v)
    p.v = v
  end
end

function Sim:placePlunger()
  local p = self.plunger
  if p.state == 'fire' and p.stopping then p.state = 'rest' end
  if p.v ~= 0 then
    if p.stopping then
      p.top = (p.state == 'pull') and PLUNGER_TOP + PULL or PLUNGER_TOP
    else
      p.top = p.top + p.v * DT
    end
    self.set:setTransform(p.index, LANE_X, p.top + PLUNGER_H / 2)
    p.shape:setPosition(LANE_X, p.top + PLUNGER_H / 2)
  end
end

-- A ball in the launch lane, above the plunger (or on it).
local function inLane(b)
  return b.state == 'play' and b.x > LANE_WALL + 4 and b.y > LANE_TOP
end

-- The first ball of the trough goes onto the plunger when the lane is empty and the plunger at rest.
function Sim:feed()
  if #self.trough == 0 or self.plunger.state ~= 'rest' then return end
  for _, b in ipairs(self.balls) do
    if inLane(b) then return end
  end
  local k = table.remove(self.trough, 1)
  local b = self.balls[k]
  b.state, b.x, b.y, b.vx, b.vy = 'play', LANE_X, PLUNGER_TOP - R - 0.5, 0, 0
  b.npath, b.nhits = 0, 0
  self.stats.respawned = self.stats.respawned + 1
end

-- The computer player: flips a flipper when a ball is over it, coming down or slow, within its
-- reach; holds it up HOLD frames, lets it fall back and rests COOLDOWN frames. Pulls the plunger
-- when a ball has rested on it SETTLE frames, fully, then lets go. Balls are looked at in their
-- order: every run plays the same game.
function Sim:autopilot()
  local keys = self.input
  for _, f in ipairs(self.flippers) do
    if f.hold > 0 then
      f.hold = f.hold - 1
      if f.hold == 0 then f.cool = COOLDOWN end
    elseif f.angle == f.rest and f.cool > 0 then
      f.cool = f.cool - 1
    elseif f.angle == f.rest then
      local c, s = math.cos(f.angle), math.sin(f.angle)
      local dir = (f.px < 0) and 1 or -1               -- along the bar from the hinge
      for _, b in ipairs(self.balls) do
        if b.state == 'play' then
          local qx, qy = b.x - f.hx, b.y - f.hy
          local along = dir * (qx * c + qy * s)
          local above = qx * s - qy * c                  -- above its middle line (y points down)
          if along > 10 and along < FLIP_LEN + 4 and above > 0 and above < 60 and b.vy > -200 then
            f.hold = HOLD
            break
          end
        end
      end
    end
    keys[f.key] = f.hold > 0
  end
  local p, resting = self.plunger, false
  for _, b in ipairs(self.balls) do
    if inLane(b) and b.y > PLUNGER_TOP - 40 then resting = true end
  end
  if p.state == 'rest' then
    p.settle = resting and p.settle + 1 or 0
    keys.plunger = p.settle >= SETTLE
  elseif p.state == 'pull' then
    keys.plunger = p.top < PLUNGER_TOP + PULL                -- let go once fully pulled
    p.settle = 0
  else
    keys.plunger = false
  end
  return keys
end

-- The path of this frame for the debug view: the start, each contact, the end; and each contact's
-- point and normal (x, y, nx, ny).
function Sim:recordPath(b, x0, y0, x, y, n)
  local path, hits, contacts = b.path, b.hits, self.contacts
  path[1], path[2] = x0, y0
  local np = 2
  for j = 1, n do
    local c = contacts[j]
    path[np + 1], path[np + 2] = c.moverX, c.moverY
    hits[4 * j - 3], hits[4 * j - 2], hits[4 * j - 1], hits[4 * j] = c.x, c.y, c.nx, c.ny
    np = np + 2
  end
  path[np + 1], path[np + 2] = x, y
  b.npath, b.nhits = np + 2, n
end

-- ---- The checks -------------------------------------------------------------------------------------

-- How far a ball centred at (cx, cy) is from a bar standing at angle a (negative: inside): computed
-- here from the bar's hinge, length and thickness, independently of collide2d.
function Sim.barGap(bar, a, cx, cy)
  local qx, qy = cx - bar.hx, cy - bar.hy
  local c, s = math.cos(a), math.sin(a)
  local along, side = qx * c + qy * s, -qx * s + qy * c
  local ca = along < bar.x0 and bar.x0 or (along > bar.x1 and bar.x1 or along)
  local cs = side < -bar.h and -bar.h or (side > bar.h and bar.h or side)
  local dx, dy = along - ca, side - cs
  if dx == 0 and dy == 0 then
    return -math.min(along - bar.x0, bar.x1 - along, side + bar.h, bar.h - side) - R
  end
  return math.sqrt(dx * dx + dy * dy) - R
end

-- Distance from (px, py) to the segment (ax, ay)-(bx, by).
local function segmentDistance(px, py, ax, ay, bx, by)
  local ex, ey = bx - ax, by - ay
  local len2 = ex * ex + ey * ey
  local u = 0
  if len2 > 0 then
    u = ((px - ax) * ex + (py - ay) * ey) / len2
    if u < 0 then u = 0 elseif u > 1 then u = 1 end
  end
  local dx, dy = ax + u * ex - px, ay + u * ey - py
  return math.sqrt(dx * dx + dy * dy)
end

-- One ball's path through this frame, leg by leg: between two contacts it flies straight and must
-- enter nothing. Against the members standing still: the capsule its centre swept (radius r - 1e-9)
-- overlaps none of them. Against the plunger moving up or down: the same, relative to the plunger.
-- Against a turning bar: the ball's centre at 2 + 600 (tb - ta) instants of the leg (a ball and a
-- flipper's tip move well under a pixel between two) is never nearer the bar, as it stands at that
-- instant, than r - 1e-6 (Sim.barGap). A last leg that is not straight is a ball riding a turning
-- face (collide2d carries a ball the face keeps pushing); it is counted, and checked only where it
-- ends (Sim:check). Through the one-way gate: never downwards. A leg into a push-out is a jump, not a
-- path.
function Sim:checkPath(k, x0, y0, vx0, vy0, x, y, n)
  local c2d, stats, contacts, p = self.c2d, self.stats, self.contacts, self.plunger
  local ax, ay, ta, vx, vy = x0, y0, 0, vx0, vy0
  for leg = 1, n + 1 do
    local bx, by, tb, straight = x, y, 1, true
    local c = contacts[leg]
    if leg <= n then
      bx, by, tb = c.moverX, c.moverY, c.t
    else
      local ex, ey = ax + vx * (1 - ta) * DT, ay + vy * (1 - ta) * DT
      local err = math.sqrt((ex - x) ^ 2 + (ey - y) ^ 2)
      if err > 1e-9 * (1 + math.sqrt(ex * ex + ey * ey)) then
        straight = false
        stats.rides = stats.rides + 1
      end
    end
    if straight and not (leg <= n and c.pushedOut) then
      local capsule = nil
      local function swept(x1, y1, x2, y2)
        if (x2 - x1) ^ 2 + (y2 - y1) ^ 2 > 1e-18 then return c2d.capsule(x1, y1, x2, y2, R - STATIC_TOL) end
        return c2d.circle(x1, y1, R - STATIC_TOL)
      end
      local lx1, lx2 = math.min(ax, bx) - R, math.max(ax, bx) + R
      local ly1, ly2 = math.min(ay, by) - R, math.max(ay, by) + R
      for _, s in ipairs(self.static) do
        if lx2 > s.x1 and lx1 < s.x2 and ly2 > s.y1 and ly1 < s.y2 then
          capsule = capsule or swept(ax, ay, bx, by)
          if capsule:overlaps(s.shape) then
            self:crossed(k, s.index, ax, ay, bx, by)
          end
        end
      end
      -- The plunger, from where it stood at the start of the frame: the path relative to it.
      local rel = swept(ax, ay - p.v * ta * DT, bx, by - p.v * tb * DT)
      if rel:overlaps(p.shape) then self:crossed(k, self.PLUNGER, ax, ay, bx, by) end
      rel:destroy()
      for _, bar in ipairs(self.bars) do
        if segmentDistance(bar.hx, bar.hy, ax, ay, bx, by) < bar.reach + R + 1 then
          if bar.w == 0 then
            capsule = capsule or swept(ax, ay, bx, by)
            if capsule:overlaps(bar.shape) then self:crossed(k, bar.index, ax, ay, bx, by) end
          else
            local samples = 2 + math.floor(600 * (tb - ta))
            local worst = math.huge
            for j = 0, samples do
              local u = j / samples
              local t = ta + (tb - ta) * u
              local gap = Sim.barGap(bar, bar.angle + bar.w * t * DT, ax + (bx - ax) * u, ay + (by - ay) * u)
              if gap < worst then worst = gap end
            end
            if -worst > stats.deepest then stats.deepest = -worst end
            if worst < -TOL then self:crossed(k, bar.index, ax, ay, bx, by, -worst) end
          end
        end
      end
      if capsule then capsule:destroy() end
      -- The gate only lets balls up: a path that starts at least r above its top face (less 1e-9)
      -- never ends nearer than that over the gate.
      local gx1, gy1, gx2, gy2 = LANE_WALL, LANE_TOP, RIGHT, LANE_TOP - 16
      local nx, ny = gy2 - gy1, gx1 - gx2                     -- the top face's normal, pointing up
      local len = math.sqrt(nx * nx + ny * ny)
      nx, ny = nx / len, ny / len
      local sa = (ax - gx1) * nx + (ay - gy1) * ny
      local sb = (bx - gx1) * nx + (by - gy1) * ny
      if sa >= R - STATIC_TOL and sb < R - STATIC_TOL then
        local u = (sa - R) / (sa - sb)                        -- where it would meet the face
        local mx = ax + (bx - ax) * u
        if mx > gx1 and mx < gx2 then self:crossed(k, self.GATE, ax, ay, bx, by) end
      end
    end
    if leg <= n then
      ax, ay, ta, vx, vy = bx, by, tb, c.vx, c.vy
    end
  end
end

function Sim:crossed(k, index, ax, ay, bx, by, depth)
  self.stats.crossed = self.stats.crossed + 1
  self:violation(string.format('frame %d: ball %d went %s the %s (shape %d) between (%.17g, %.17g) and (%.17g, %.17g)',
    self.stats.frames, k, depth and string.format('%.3g into', depth) or 'through', self.names[index], index,
    ax, ay, bx, by))
end

-- The end-of-frame invariants, with every member where it now stands: no ball overlaps the table by
-- more than 1e-6 (the set's push-out of a ball-sized circle is at most that: one-way gates aside),
-- none is nearer a flipper or the spinner than r - 1e-6 (asked of collide2d, shape:distance, and of
-- Sim.barGap), and every ball in play is on the table.
function Sim:check()
  local stats, set, probe = self.stats, self.set, self.probe
  for k, b in ipairs(self.balls) do
    if b.state == 'play' then
      probe:setPosition(b.x, b.y)
      local px, py = set:pushOut(probe)
      local push = math.sqrt(px * px + py * py)
      if push > stats.deepest then stats.deepest = push end
      if push > TOL then
        stats.inside = stats.inside + 1
        self:violation(string.format('frame %d: ball %d at (%.17g, %.17g) is inside the table: pushed out by (%.3g, %.3g)',
          stats.frames, k, b.x, b.y, px, py))
      end
      for _, bar in ipairs(self.bars) do
        local d = probe:distance(bar.shape)
        local g = Sim.barGap(bar, bar.angle, b.x, b.y)
        local worst = math.min(d, g)
        if -worst > stats.deepest then stats.deepest = -worst end
        if worst < -TOL then
          stats.inside = stats.inside + 1
          self:violation(string.format('frame %d: ball %d at (%.17g, %.17g) is %.3g inside the %s (collide2d: %.3g)',
            stats.frames, k, b.x, b.y, -g, self.names[bar.index], -d))
        end
      end
      if b.x < LEFT or b.x > RIGHT or b.y < 0 then
        stats.escapes = stats.escapes + 1
        self:violation(string.format('frame %d: ball %d left the table at (%.17g, %.17g)', stats.frames, k, b.x, b.y))
      end
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
  return s.inside + s.crossed + s.escapes + s.pushedOut
end

-- A checksum of where every ball is and how it moves (and where it waits): the same in every Lua
-- when the game was the same.
function Sim:checksum()
  local h = 0
  for k, b in ipairs(self.balls) do
    local s = string.format('%d %s %.17g %.17g %.17g %.17g;', k, b.state, b.x, b.y, b.vx, b.vy)
    for i = 1, #s do h = (h * 31 + s:byte(i)) % 4294967296 end
  end
  return string.format('%08x', h)
end

function Sim:summary()
  local s = self.stats
  return string.format('pinball: frames=%d balls=%d inplay=%.2f contacts=%d flips=%d flipper_hits=%d ' ..
    'bumper_hits=%d spinner_hits=%d plunger_hits=%d launches=%d drained=%d respawned=%d rides=%d maxspeed=%.1f ' ..
    'deepest=%.3g inside=%d crossed=%d escapes=%d pushedout=%d checksum=%s',
    s.frames, #self.balls, s.ballFrames / math.max(1, s.frames), s.contacts, s.flips, s.flipperHits,
    s.bumperHits, s.spinnerHits, s.plungerHits, s.launches, s.drained, s.respawned, s.rides, s.maxSpeed,
    s.deepest, s.inside, s.crossed, s.escapes, s.pushedOut, self:checksum())
end

return Sim
