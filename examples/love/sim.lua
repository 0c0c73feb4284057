-- examples/love/sim.lua - the BricksBeater simulation, shared by the LÖVE game (examples/love/main.lua)
-- and the headless runner (examples/lua/bricks.lua). Plain Lua 5.1 to 5.4 and LuaJIT; no LÖVE calls.
--
-- Every collision answer comes from collide2d: the walls, the bricks (rectangles, rotated rectangles,
-- convex polygons) and the paddle are one static set, and all the balls go through it together with
-- set:stepBalls, which finds every contact of the frame in order, with the level and between balls
-- (however fast they are), bounces them off faces, corners and each other, and ignores the seams
-- between touching bricks (a ball that lands where two bricks meet bounces off the flat top, never off
-- the hidden corners between them).
-- A brick that is hit loses a hit point; at zero it is disabled with set:setEnabled(i, false), which
-- also exposes the faces of its neighbours. The paddle is a member of the same set that moves: each
-- frame it gets the velocity that takes it where the player wants it (set:setVelocity), every ball
-- step sweeps that motion against the ball (a paddle swung into a ball hits it at the moment they
-- meet, never passes through it, and hands it its own speed), and after the frame set:setTransform
-- puts it where it got to. The set is built once.
--
-- The only arithmetic here is game logic: the paddle's position and speed limit, ball start
-- velocities and speeds, and the relative path a ball takes past the moving paddle (for the checks).
-- Where a ball was at each contact comes from the contact records (moverX, moverY).

local Sim = {}
Sim.__index = Sim

Sim.WIDTH, Sim.HEIGHT = 800, 600
local WALL = 40                   -- wall thickness, outside the field
local PADDLE_W, PADDLE_H = 110, 18
local PADDLE_Y = Sim.HEIGHT - 48  -- top of the paddle
local MAX_CONTACTS = 64           -- contacts kept per ball per frame for the debug view and the checks
local PADDLE_STEP = 60            -- the farthest the paddle moves in one frame (3600 px per second)
local TOL = 1e-9                  -- how far a ball may overlap a shape in the checks

-- A small deterministic generator (Park-Miller), so Lua 5.4, LuaJIT and LÖVE play the same game.
local function generator(seed)
  local s = math.floor(seed) % 2147483647
  if s <= 0 then s = s + 2147483646 end
  return function(a, b)
    s = (16807 * s) % 2147483647
    local u = (s - 1) / 2147483646
    if a then return a + (b - a) * u end
    return u
  end
end

-- The level: where the bricks are, their kinds and hit points. Returns a list of
-- { shape = <collide2d shape>, hp = n, kind = "rect"|"rotated"|"polygon" }.
local function make_bricks(c2d)
  local bricks = {}
  local function add(shape, hp, kind) bricks[#bricks + 1] = { shape = shape, hp0 = hp, kind = kind } end
  -- Three rows of 14 touching bricks: one solid wall whose inner edges are seams.
  local bw, bh, x0, y0 = 50, 20, 50, 70
  for row = 0, 2 do
    for col = 0, 13 do
      add(c2d.rectangle(x0 + col * bw, y0 + row * bh, bw, bh), 3 - row, 'rect')
    end
  end
  -- A row of rotated rectangles, turned alternately both ways about their centres.
  for col = 0, 10 do
    local angle = (col % 2 == 0) and 0.35 or -0.35
    add(c2d.rectangle(78 + col * 62, 170, 44, 16, angle), 1, 'rotated')
  end
  -- A row of convex polygons: hexagons, triangles and pentagons.
  for col = 0, 9 do
    local cx, cy = 105 + col * 66, 225
    local n = ({ 6, 3, 5 })[col % 3 + 1]
    local pts = {}
    for k = 0, n - 1 do
      local a = -math.pi / 2 + 2 * math.pi * k / n + (col % 2) * 0.3
      pts[#pts + 1] = cx + 20 * math.cos(a)
      pts[#pts + 1] = cy + 20 * math.sin(a)
    end
    add(c2d.polygon(pts), 2, 'polygon')
  end
  -- Two blocks of touching rectangles and a diamond of four squares turned by 45 degrees, touching
  -- along their edges (seams again, now slanted).
  for block = 0, 1 do
    for k = 0, 3 do
      add(c2d.rectangle(120 + block * 460 + (k % 2) * 50, 275 + math.floor(k / 2) * 20, 50, 20), 1, 'rect')
    end
  end
  local s, h = 24, 24 / math.sqrt(2)
  for k = 0, 3 do
    local cx = 400 + ((k == 1) and h or (k == 2) and -h or 0)
    local cy = 295 + ((k == 0) and -h or (k == 3) and h or 0)
    add(c2d.rectangle(cx - s / 2, cy - s / 2, s, s, math.pi / 4), 2, 'rotated')
  end
  return bricks
end

-- opts: balls (number), speed (px per second) or minSpeed/maxSpeed, radius, seed, dt,
-- autoplay (paddle follows the lowest ball; the floor bounces), check (check every frame).
function Sim.new(c2d, opts)
  opts = opts or {}
  local self = setmetatable({}, Sim)
  self.c2d = c2d
  self.W, self.H = Sim.WIDTH, Sim.HEIGHT
  self.r = opts.radius or 6
  self.dt = opts.dt or 1 / 60
  self.autoplay = opts.autoplay and true or false
  self.checking = opts.check and true or false
  self.rand = generator(opts.seed or 4)
  self.minSpeed = opts.minSpeed or opts.speed or 420
  self.maxSpeed = opts.maxSpeed or opts.speed or 420
  self.nballs = opts.balls or 3

  local W, H = self.W, self.H
  self.walls = {
    c2d.rectangle(-WALL, -WALL, WALL, H + 2 * WALL),   -- left
    c2d.rectangle(W, -WALL, WALL, H + 2 * WALL),       -- right
    c2d.rectangle(-WALL, -WALL, W + 2 * WALL, WALL),   -- top
    c2d.rectangle(-WALL, H, W + 2 * WALL, WALL),       -- floor: a miss (a lost ball in the game)
  }
  self.FLOOR = 4
  self.bricks = make_bricks(c2d)
  self.firstBrick = #self.walls + 1
  self.paddleIndex = #self.walls + #self.bricks + 1
  -- The paddle: a convex polygon with a shallow arch on top, so where a ball lands changes its
  -- bounce (the set reflects about the face it meets). Built around (0, 0), then placed.
  local pts = {}
  local arch = { 0, 0.55, 0.85, 1, 0.85, 0.55, 0 }
  for k = 1, #arch do
    pts[#pts + 1] = -PADDLE_W / 2 + PADDLE_W * (k - 1) / (#arch - 1)
    pts[#pts + 1] = PADDLE_H - 8 - 8 * arch[k]
  end
  pts[#pts + 1] = PADDLE_W / 2 - 6; pts[#pts + 1] = PADDLE_H
  pts[#pts + 1] = -PADDLE_W / 2 + 6; pts[#pts + 1] = PADDLE_H
  self.paddle = c2d.polygon(pts)
  local _, pcy = self.paddle:position()          -- its centroid, relative to the top line
  self.paddleDy = pcy
  self.paddleX = W / 2
  self.paddle:setPosition(self.paddleX, PADDLE_Y + self.paddleDy)

  self.shapes = {}
  for i = 1, #self.walls do self.shapes[i] = self.walls[i] end
  for i = 1, #self.bricks do self.shapes[self.firstBrick + i - 1] = self.bricks[i].shape end
  self.shapes[self.paddleIndex] = self.paddle
  self.set = c2d.staticset(self.shapes)
  self.paddleVx = 0                              -- the paddle's velocity during the current frame
  self.boxes = {}                                -- bounding boxes for the per-frame checks
  for i = 1, #self.shapes - 1 do
    local x1, y1, x2, y2 = self.shapes[i]:bbox()
    self.boxes[i] = { x1, y1, x2, y2 }
  end

  self.options = { response = 'bounce', restitution = 1, friction = 0 }
  self.contacts = {}                             -- reused by every stepBalls call
  self.flat, self.order = {}, {}                 -- the flying balls as set:stepBalls takes them
  self.balls = {}
  self.stats = { frames = 0, broken = 0, waves = 1, contacts = 0, misses = 0, lost = 0,
                 escapes = 0, inside = 0, crossed = 0, maxStep = 0, pushedOut = 0, violations = {} }
  self:resetWave()
  for _ = 1, self.nballs do self:addBall() end
  return self
end

function Sim:resetWave()
  for i, b in ipairs(self.bricks) do
    b.hp, b.alive, b.hitFrame = b.hp0, true, nil
    self.set:setEnabled(self.firstBrick + i - 1, true)
  end
  self.alive = #self.bricks
end

-- A new ball: in autoplay it starts in the open lower part of the field, flying in a random
-- direction; in the game it rests on the paddle until launched.
function Sim:addBall()
  local b = { r = self.r, path = {}, times = {}, npath = 0, hits = {}, nhits = 0 }
  local speed = self.minSpeed + (self.maxSpeed - self.minSpeed) * self.rand()
  b.speed = speed
  if self.autoplay then
    -- Clear of the other balls: they bounce off each other, and never start inside one another.
    for _ = 1, 100 do
      b.x = self.rand(40, self.W - 40)
      b.y = self.rand(340, PADDLE_Y - 40)
      local clear = true
      for _, o in ipairs(self.balls) do
        if (o.x - b.x) ^ 2 + (o.y - b.y) ^ 2 <= (o.r + b.r) ^ 2 then clear = false end
      end
      if clear then break end
    end
    local a = self.rand(-math.pi * 0.9, -math.pi * 0.1)   -- upwards (y points down)
    b.vx, b.vy = speed * math.cos(a), speed * math.sin(a)
  else
    b.stuck = true
    b.offset = self.rand(-PADDLE_W / 3, PADDLE_W / 3)
    b.vx, b.vy = 0, 0
    self:placeStuck(b)
  end
  self.balls[#self.balls + 1] = b
  return b
end

function Sim:placeStuck(b)
  b.x, b.y = self.paddleX + b.offset, PADDLE_Y - b.r - 1   -- just above the arch (its top is at +2)
end

-- Launches every ball resting on the paddle, up and a little sideways.
function Sim:launch()
  for _, b in ipairs(self.balls) do
    if b.stuck then
      b.stuck = false
      local a = -math.pi / 2 + b.offset / PADDLE_W * 1.2 + self.rand(-0.1, 0.1)
      b.vx, b.vy = b.speed * math.cos(a), b.speed * math.sin(a)
    end
  end
end

-- Sets the paddle moving towards x (within the field, at most PADDLE_STEP this frame): the ball steps
-- of the frame sweep that motion.
function Sim:aimPaddle(x)
  local half = PADDLE_W / 2
  if x < half then x = half elseif x > self.W - half then x = self.W - half end
  local move = x - self.paddleX
  if move > PADDLE_STEP then move = PADDLE_STEP elseif move < -PADDLE_STEP then move = -PADDLE_STEP end
  self.paddleVx = move / self.dt
  self.set:setVelocity(self.paddleIndex, self.paddleVx, 0)
end

-- After the frame: the paddle where its motion took it, at rest until aimed again.
function Sim:movePaddle()
  if self.paddleVx ~= 0 then
    self.paddleX = self.paddleX + self.paddleVx * self.dt
    self.paddleVx = 0
    self.set:setVelocity(self.paddleIndex, 0, 0)
    self.set:setTransform(self.paddleIndex, self.paddleX, PADDLE_Y + self.paddleDy)
    self.paddle:setPosition(self.paddleX, PADDLE_Y + self.paddleDy)
  end
end

function Sim:brickOf(index)
  local i = index - self.firstBrick + 1
  if i >= 1 and i <= #self.bricks then return self.bricks[i] end
end

-- One frame of fixed length dt. paddleX: where the player wants the paddle (nil: leave it, or follow
-- the lowest ball in autoplay).
function Sim:step(paddleX)
  local dt = self.dt
  local stats = self.stats
  stats.frames = stats.frames + 1
  if self.autoplay then
    local lowest
    for _, b in ipairs(self.balls) do
      if not lowest or b.y > lowest.y then lowest = b end
    end
    if lowest then paddleX = lowest.x end
  end
  if paddleX then self:aimPaddle(paddleX) end
  local set, contacts, options = self.set, self.contacts, self.options

  -- Every flying ball in one flat array {x, y, vx, vy, r, ...}: set:stepBalls steps them together,
  -- against the level and each other, every contact in time order.
  local flat, order, m = self.flat, self.order, 0
  for _, b in ipairs(self.balls) do
    b.nhits, b.npath, b.ncontacts, b.paddled = 0, 0, 0, false -- paddled: met the paddle or a ball
    if not b.stuck then
      m = m + 1
      order[m] = b
      local o = 5 * (m - 1)
      flat[o + 1], flat[o + 2], flat[o + 3], flat[o + 4], flat[o + 5] = b.x, b.y, b.vx, b.vy, b.r
      b.path[1], b.path[2], b.times[1] = b.x, b.y, 0
      b.npath = 2
      local step = math.sqrt(b.vx * b.vx + b.vy * b.vy) * dt / b.r
      if step > stats.maxStep then stats.maxStep = step end
    end
  end
  local i = 5 * m + 1
  while flat[i] ~= nil do flat[i] = nil; i = i + 1 end
  for j = m + 1, #order do order[j] = nil end
  local n = 0
  if m > 0 then n = set:stepBalls(flat, dt, options, contacts) end
  stats.contacts = stats.contacts + n
  for j = 1, n do
    local c = contacts[j]
    local b = order[c.ball]
    local kept = b.ncontacts + 1
    b.ncontacts = kept
    if c.index == self.paddleIndex or c.other then b.paddled = true end
    if kept <= MAX_CONTACTS then
      -- The centre at the contact, and when: for the debug view's swept path and the checks.
      local path, np = b.path, b.npath
      path[np + 1], path[np + 2], b.times[np / 2 + 1] = c.moverX, c.moverY, c.t
      b.npath = np + 2
      local h = b.hits[kept] or {}
      b.hits[kept] = h
      h.x, h.y, h.nx, h.ny, h.index, h.other, h.pushedOut = c.x, c.y, c.nx, c.ny, c.index, c.other, c.pushedOut
      b.nhits = kept
    end
  end
  for j = 1, m do
    local b, o = order[j], 5 * (j - 1)
    local x, y, vx, vy = flat[o + 1], flat[o + 2], flat[o + 3], flat[o + 4]
    local path, np = b.path, b.npath
    path[np + 1], path[np + 2], b.times[np / 2 + 1] = x, y, 1
    b.npath = np + 2
    if b.paddled and vx * vx + vy * vy > 0 then
      -- A swung paddle hands the ball its own speed too, and balls that meet trade speeds; the game
      -- keeps each ball at its own speed.
      local k = b.speed / math.sqrt(vx * vx + vy * vy)
      vx, vy = vx * k, vy * k
    end
    b.x, b.y, b.vx, b.vy = x, y, vx, vy
    -- Checked before any brick breaks: they were there all along the frame.
    if self.checking then self:checkPath(b, b.ncontacts) end
  end
  local lost = false
  for j = 1, n do
    local c = contacts[j]
    if c.pushedOut then stats.pushedOut = stats.pushedOut + 1 end
    local brick = c.index and self:brickOf(c.index)
    if brick and brick.alive then
      brick.hp = brick.hp - 1
      brick.hitFrame = stats.frames
      if brick.hp <= 0 then
        brick.alive = false
        set:setEnabled(c.index, false)
        self.alive = self.alive - 1
        stats.broken = stats.broken + 1
      end
    elseif c.index == self.FLOOR then
      stats.misses = stats.misses + 1
      if not self.autoplay then order[c.ball].lost, lost = true, true end
    end
  end
  if lost then
    local k = 1
    while k <= #self.balls do
      if self.balls[k].lost then
        table.remove(self.balls, k)
        stats.lost = stats.lost + 1
      else
        k = k + 1
      end
    end
  end

  self:movePaddle()
  for _, b in ipairs(self.balls) do
    if b.stuck then self:placeStuck(b) end
  end
  if self.checking then self:check() end
  if self.alive == 0 then
    stats.waves = stats.waves + 1
    self:resetWave()
  end
  if not self.autoplay and #self.balls == 0 then
    for _ = 1, self.nballs do self:addBall() end
  end
end

-- The invariants, checked after every frame in autoplay: every ball is inside the field, and no ball
-- overlaps a wall, a brick that is still there or the paddle by more than 1e-9 (its centre is at
-- least r - 1e-9 from each of them; shape:closest gives the signed distance to the boundary).
function Sim:check()
  local stats = self.stats
  for n, b in ipairs(self.balls) do
    local x, y, r = b.x, b.y, b.r
    for k = n + 1, #self.balls do
      local o = self.balls[k]
      if not b.stuck and not o.stuck and math.sqrt((o.x - x) ^ 2 + (o.y - y) ^ 2) < r + o.r - TOL then
        stats.inside = stats.inside + 1
        self:violation(string.format('frame %d: balls %d and %d overlap', stats.frames, n, k))
      end
    end
    if not (x >= 0 and x <= self.W and y >= 0 and y <= self.H) then
      stats.escapes = stats.escapes + 1
      self:violation(string.format('frame %d: ball %d left the field at (%.17g, %.17g)', stats.frames, n, x, y))
    end
    for i = 1, #self.shapes do
      local brick = self:brickOf(i)
      if not brick or brick.alive then
        local shape = self.shapes[i]
        local near
        if i == self.paddleIndex then
          near = true
        else
          local box = self.boxes[i]
          near = x > box[1] - r and x < box[3] + r and y > box[2] - r and y < box[4] + r
        end
        if near then
          local _, _, d = shape:closest(x, y)
          if d < r - TOL then
            stats.inside = stats.inside + 1
            self:violation(string.format('frame %d: ball %d at (%.17g, %.17g) is %.3g inside shape %d',
              stats.frames, n, x, y, r - d, i))
          end
        end
      end
    end
  end
end

-- The path of one ball's step, checked segment by segment: between two contacts a ball flies straight
-- and touches nothing, so the capsule its centre sweeps (radius r - 1e-9) must overlap no wall, live
-- brick or paddle. This catches a ball that went through a brick and came out the other side within
-- one step, which the end-of-frame check cannot see. The paddle moves during the step: against it,
-- the path is taken relative to it (each point less the paddle's own motion by then), and the paddle
-- shape stands where the step began. The segment into a contact that pushed the ball out (it started
-- inside) is a jump, not a motion.
function Sim:checkPath(b, n)
  local path, times, hits, r, stats = b.path, b.times, b.hits, b.r, self.stats
  local shift = self.paddleVx * self.dt         -- the paddle's motion over the whole step
  local c2d = self.c2d
  local last = b.npath / 2 - 1                        -- segments: point s to point s + 1
  if n > b.nhits then last = b.nhits end              -- contacts beyond those kept: stop at the last kept
  for seg = 1, last do
    local hit = hits[seg]                             -- the contact ending this segment, if any
    if not (seg <= b.nhits and hit.pushedOut) then
      local ax, ay, bx, by = path[2 * seg - 1], path[2 * seg], path[2 * seg + 1], path[2 * seg + 2]
      local function capsule(x1, y1, x2, y2)
        if (x2 - x1) ^ 2 + (y2 - y1) ^ 2 > 1e-18 then return c2d.capsule(x1, y1, x2, y2, r - TOL) end
        return c2d.circle(x1, y1, r - TOL)
      end
      local swept = capsule(ax, ay, bx, by)
      local x1, x2 = math.min(ax, bx) - r, math.max(ax, bx) + r
      local y1, y2 = math.min(ay, by) - r, math.max(ay, by) + r
      for i = 1, #self.shapes do
        local brick = self:brickOf(i)
        if not brick or brick.alive then
          local box, through = self.boxes[i], false
          if i == self.paddleIndex then
            local rel = capsule(ax - shift * times[seg], ay, bx - shift * times[seg + 1], by)
            through = rel:overlaps(self.shapes[i])
            rel:destroy()
          elseif x2 > box[1] and x1 < box[3] and y2 > box[2] and y1 < box[4] then
            through = swept:overlaps(self.shapes[i])
          end
          if through then
            stats.crossed = stats.crossed + 1
            self:violation(string.format('frame %d: a ball went through shape %d between (%.17g, %.17g) and (%.17g, %.17g)',
              stats.frames, i, ax, ay, bx, by))
          end
        end
      end
      swept:destroy()
    end
  end
end

function Sim:violation(msg)
  local v = self.stats.violations
  if #v < 20 then v[#v + 1] = msg end
end

-- Every violation of the checks: 0 when no ball ever tunnelled.
function Sim:tunnels()
  local s = self.stats
  return s.escapes + s.inside + s.crossed
end

function Sim:summary()
  local s = self.stats
  return string.format('bricks: frames=%d balls=%d broken=%d waves=%d contacts=%d misses=%d ' ..
    'pushedOut=%d maxstep=%.1fr escapes=%d inside=%d crossed=%d tunnels=%d',
    s.frames, #self.balls, s.broken, s.waves, s.contacts, s.misses, s.pushedOut, s.maxStep,
    s.escapes, s.inside, s.crossed, self:tunnels())
end

-- Reads the autoplay settings shared by both front ends from environment variables.
function Sim.envOptions(getenv)
  getenv = getenv or os.getenv
  local function num(name, default)
    local v = tonumber(getenv(name) or '')
    if v == nil then return default end
    return v
  end
  return {
    balls = num('COLLIDE2D_BALLS', 40),
    seed = num('COLLIDE2D_SEED', 4),
    -- ball speeds are given in radii per 1/60 s step; the fastest cross 50 radii in one step
    minSpeed = num('COLLIDE2D_MIN_STEP', 5) * 6 * 60,
    maxSpeed = num('COLLIDE2D_MAX_STEP', 50) * 6 * 60,
  }
end

return Sim
