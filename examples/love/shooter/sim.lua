-- examples/love/shooter/sim.lua - the top-down shooter's simulation, shared by the LÖVE game (main.lua
-- here), the windowless run (examples/lua/shooter.lua) and the benchmark (bench/lua/shooter.lua). It
-- draws nothing and reads no keys: the game hands it the aim, or lets its autopilot sweep the turret.
--
-- What it asks of collide2d, once per frame:
--   * the arena's walls are a static set (seams between the blocks of a wall, a chain, a capsule, a
--     circle pillar), the world's level (world:setLevel); the enemies are the world's shapes, each
--     with its entity table as its value;
--   * every bullet is one call, world:stepBall(..., { response = crossEnemies }, nil, contacts): it
--     bounces off the walls (the level takes the ball step's default response) and crosses the enemies
--     (the response function answers "cross" for the world's shapes), and the contacts, in the order
--     met, say which enemy it went through (contacts[k].shape, .value) and which wall it bounced off
--     (contacts[k].index); no path is rebuilt and no probe is cast;
--   * every enemy walks with world:move(shape, dx, dy, { place = true }): it slides along the walls
--     and the other enemies (the level again) and is placed, its entry updated, in the same call;
--   * a respawned enemy is put where nothing holds it with world:pushOut.
--
-- mode = "rebuild" plays the same game the way it had to be written before a world could hold a
-- level: each bullet bounces off the walls with walls:stepBall, then the game rebuilds its bent path
-- from the contacts' moverX, moverY and casts a probe along every leg with world:move{response =
-- "cross"} to find the enemies it went through; and the walls are copied into the world as shapes of
-- their own (category 2, which the probes' filter leaves out) so that the enemies walk and respawn
-- against them. Both modes play the same game, bullet for bullet (the benchmark checks that their
-- checksums agree); the level mode is the one to write.
--
-- mode = "nolevel" plays the level mode's calls in a world never given its level: the bullets fly
-- through the walls, which the checks must catch (spec/suites/44-shooter.sh runs it to show that they
-- mean something).
--
-- check = true checks every bullet every frame against an independent model, the capsule its centre
-- sweeps along each leg of its path: no leg enters a wall (collide2d.overlaps with each wall, the
-- capsule's radius 1e-6 short of the bullet's), every enemy a leg enters is reported crossed (but one
-- the bullet was already in, or touching, when the frame began: it was entered before), every enemy
-- reported lies on the path, and no bullet ends a frame inside a wall (walls:pushOut).
local Sim = {}
Sim.__index = Sim

Sim.W, Sim.H = 640, 600          -- the arena; the window adds a panel on the right
Sim.DT = 1 / 60
Sim.R = 2.5                      -- bullet radius
Sim.SPEED = 720                  -- bullet speed, px per second (12 px a frame)
Sim.LIFE = 75                    -- frames a bullet lives
Sim.MAX_BOUNCES = 8
Sim.FIRE = 4                     -- bullets fired per frame: 300 in flight once the first have aged
Sim.ENEMIES = 25
Sim.ENEMY_HP = 6

local TURRET_X, TURRET_Y = 320, 545

-- A deterministic generator that gives the same numbers in Lua 5.1 to 5.4 and LuaJIT: Park and
-- Miller's, whose products stay below 2^53, so doubles and integers compute them alike.
local function rng(seed)
  local s = seed
  return function(lo, hi)
    s = (s * 16807) % 2147483647
    return lo + (hi - lo) * (s / 2147483647)
  end
end

-- The walls, in the order of the set: the four borders, a wall of six blocks (seams between them), two
-- turned crates, a circle pillar, a capsule, an L-shaped chain and a triangle.
local function wallShapes(c)
  local shapes = {
    c.box(320, -10, 680, 20), c.box(320, 610, 680, 20), c.box(-10, 300, 20, 640), c.box(650, 300, 20, 640),
  }
  for i = 0, 5 do shapes[#shapes + 1] = c.box(245 + 30 * i, 250, 30, 30) end
  shapes[#shapes + 1] = c.box(130, 140, 44, 44, 0.35)
  shapes[#shapes + 1] = c.box(500, 130, 70, 30, -0.5)
  shapes[#shapes + 1] = c.circle(120, 420, 28)
  shapes[#shapes + 1] = c.capsule(430, 410, 540, 455, 12)
  shapes[#shapes + 1] = c.chain({ 560, 300, 610, 300, 610, 380 })
  shapes[#shapes + 1] = c.polygon({ 300, 400, 345, 440, 290, 455 })
  return shapes
end

function Sim.new(collide2d, opts)
  opts = opts or {}
  local self = setmetatable({}, Sim)
  self.c = collide2d
  self.mode = opts.mode or 'level'
  self.check = opts.check or false
  self.random = rng(opts.seed or 20261127)
  self.wallList = wallShapes(collide2d)        -- kept for the checks' model only: the game draws the set
  self.walls = collide2d.staticset(self.wallList)
  self.walls:setValue(7, 'the block wall')
  self.world = collide2d.world()
  if self.mode == 'level' then
    self.world:setLevel(self.walls)
  elseif self.mode == 'rebuild' then
    for _, wall in ipairs(wallShapes(collide2d)) do self.world:setBits(self.world:add(wall, 'wall'), 2, 0xFFFFFFFF) end
  end
  self.enemyFilter = { mask = 1 }              -- the enemies, not the walls copied into the world
  self.enemies = {}
  for i = 1, Sim.ENEMIES do self:spawn(i) end
  self.bullets = {}
  self.aim = -math.pi / 2
  self.contacts = {}
  self.legContacts = {}
  self.probe = collide2d.circle(0, 0, Sim.R)  -- rebuild mode: cast along each leg of a path
  self.stats = { frames = 0, fired = 0, bounces = 0, hits = 0, kills = 0, expired = 0, maxAlive = 0,
    aliveFrames = 0, contacts = 0, violations = {}, crossed = 0, missed = 0, inside = 0 }
  -- one table for every bullet step: the ball step's default response (bounce) for the walls, and
  -- "cross" for the world's shapes, the enemies
  self.crossEnemies = function() return 'cross' end
  self.stepOpts = { response = self.crossEnemies }
  self.crossOpts = { response = 'cross' }
  self.walkOpts = { place = true }
  return self
end

-- Puts enemy i (new, or killed) somewhere in the upper two thirds, out of every wall and enemy.
function Sim:spawn(i)
  local c = self.c
  local e = self.enemies[i]
  local y = self.random(40, 360)
  local x = self.random(40, 600)
  if not e then
    local shape = (i % 2 == 1) and c.circle(x, y, 12) or c.box(x, y, 22, 22, self.random(0, 1.5))
    e = { shape = shape, id = i, hp = Sim.ENEMY_HP, flash = 0 }
    self.enemies[i] = e
    self.world:add(shape, e)
  else
    e.shape:setPosition(x, y)
    e.hp = Sim.ENEMY_HP
  end
  local angle = self.random(0, 2 * math.pi)
  local speed = self.random(30, 80)
  e.vx, e.vy = speed * math.cos(angle), speed * math.sin(angle)
  e.turnAt = (self.stats and self.stats.frames or 0) + 90
  -- out of the walls (the level) and the other enemies, in one call
  local dx, dy = self.world:pushOut(e.shape)
  e.shape:move(dx, dy)
  self.world:update(e.shape)
end

function Sim:fire()
  local stats = self.stats
  for k = 1, Sim.FIRE do
    local spread = self.random(-0.12, 0.12)
    local a = self.aim + spread + (k - (Sim.FIRE + 1) / 2) * 0.05
    local b = { x = TURRET_X + 20 * math.cos(a), y = TURRET_Y + 20 * math.sin(a),
      vx = Sim.SPEED * math.cos(a), vy = Sim.SPEED * math.sin(a), age = 0, bounces = 0,
      path = {}, npath = 0 }
    self.bullets[#self.bullets + 1] = b
    stats.fired = stats.fired + 1
  end
end

-- The enemies this bullet went through this frame, by entity (reported[e] = true).
local function clear(t) for k in pairs(t) do t[k] = nil end end

-- One bullet's frame, the one call: world:stepBall through the walls (the level) and the enemies.
function Sim:stepLevel(b, reported)
  local contacts = self.contacts
  local x0, y0 = b.x, b.y
  local x, y, vx, vy, n = self.world:stepBall(b.x, b.y, b.vx, b.vy, Sim.R, Sim.DT, self.stepOpts, nil, contacts)
  local path = b.path
  path[1], path[2] = x0, y0
  local np = 2
  for k = 1, n do
    local c = contacts[k]
    if c.shape then
      self:hit(c.value, reported)
    else
      b.bounces = b.bounces + 1
      self.stats.bounces = self.stats.bounces + 1
    end
    path[np + 1], path[np + 2] = c.moverX, c.moverY
    np = np + 2
  end
  path[np + 1], path[np + 2] = x, y
  b.npath = np + 2
  b.x, b.y, b.vx, b.vy = x, y, vx, vy
  self.stats.contacts = self.stats.contacts + n
end

-- The same frame the old way: bounce off the walls, then rebuild the path and probe each leg.
function Sim:stepRebuild(b, reported)
  local contacts, legs = self.contacts, self.legContacts
  local x0, y0 = b.x, b.y
  local x, y, vx, vy, n = self.walls:stepBall(b.x, b.y, b.vx, b.vy, Sim.R, Sim.DT, nil, contacts)
  local path = b.path
  path[1], path[2] = x0, y0
  local np = 2
  for k = 1, n do
    path[np + 1], path[np + 2] = contacts[k].moverX, contacts[k].moverY
    np = np + 2
  end
  path[np + 1], path[np + 2] = x, y
  b.npath = np + 2
  local probe = self.probe
  for k = 1, np - 1, 2 do
    local ax, ay, bx, by = path[k], path[k + 1], path[k + 2], path[k + 3]
    probe:setPosition(ax, ay)
    local _, _, m = self.world:move(probe, bx - ax, by - ay, self.crossOpts, self.enemyFilter, legs)
    for j = 1, m do self:hit(legs[j].value, reported) end
    self.stats.contacts = self.stats.contacts + m
  end
  b.bounces = b.bounces + n
  self.stats.bounces = self.stats.bounces + n
  self.stats.contacts = self.stats.contacts + n
  b.x, b.y, b.vx, b.vy = x, y, vx, vy
end

function Sim:hit(e, reported)
  e.hp = e.hp - 1
  e.flash = 6
  self.stats.hits = self.stats.hits + 1
  if reported then reported[e] = true end
end

-- The checks of one bullet's frame (see the file's header).
function Sim:checkBullet(b, reported)
  local c, stats = self.c, self.stats
  local path, np = b.path, b.npath
  local short, long = Sim.R * (1 - 1e-6), Sim.R * (1 + 1e-6)
  -- Enemies the bullet already touched or was inside at the start of the frame were entered before
  -- (and reported then, or walked onto it): a crossing is reported when the bullet enters, once.
  local before = {}
  for _, s in ipairs(self.world:queryShape(c.circle(path[1], path[2], Sim.R), self.enemyFilter)) do
    before[self.world:value(s)] = true
  end
  local near = {}
  for k = 1, np - 3, 2 do
    local ax, ay, bx, by = path[k], path[k + 1], path[k + 2], path[k + 3]
    local leg = (ax == bx and ay == by) and c.circle(ax, ay, short) or c.capsule(ax, ay, bx, by, short)
    for i, wall in ipairs(self.wallList) do
      if c.overlaps(leg, wall) then
        stats.crossed = stats.crossed + 1
        stats.violations[#stats.violations + 1] = string.format(
          'frame %d: a bullet\'s path from (%.3f, %.3f) to (%.3f, %.3f) enters wall %d', stats.frames, ax, ay, bx, by, i)
      end
    end
    for _, s in ipairs(self.world:queryShape(leg, self.enemyFilter)) do
      local e = self.world:value(s)
      if not reported[e] and not before[e] then
        stats.missed = stats.missed + 1
        stats.violations[#stats.violations + 1] = string.format(
          'frame %d: a bullet went through enemy %d from (%.3f, %.3f) to (%.3f, %.3f) unreported',
          stats.frames, e.id, ax, ay, bx, by)
      end
    end
    local wide = (ax == bx and ay == by) and c.circle(ax, ay, long) or c.capsule(ax, ay, bx, by, long)
    for _, s in ipairs(self.world:queryShape(wide, self.enemyFilter)) do near[self.world:value(s)] = true end
  end
  for e in pairs(reported) do
    if not near[e] then
      stats.missed = stats.missed + 1
      stats.violations[#stats.violations + 1] = string.format(
        'frame %d: enemy %d reported hit but not on the bullet\'s path', stats.frames, e.id)
    end
  end
  local dx, dy = self.walls:pushOut(c.circle(b.x, b.y, Sim.R))
  if dx ~= 0 or dy ~= 0 then
    stats.inside = stats.inside + 1
    stats.violations[#stats.violations + 1] = string.format(
      'frame %d: a bullet ends inside a wall at (%.3f, %.3f)', stats.frames, b.x, b.y)
  end
end

-- One frame: aim (the player's angle, or the autopilot's sweep), fire, step every bullet with one call,
-- then walk the enemies and bring back the dead.
function Sim:step(aim)
  local stats = self.stats
  stats.frames = stats.frames + 1
  self.aim = aim or (-math.pi / 2 + 1.1 * math.sin(stats.frames * 0.013))
  self:fire()
  local reported = self.check and {} or nil
  local bullets, alive = self.bullets, 0
  for i = 1, #bullets do
    local b = bullets[i]
    if reported then clear(reported) end
    if self.mode == 'rebuild' then self:stepRebuild(b, reported) else self:stepLevel(b, reported) end
    if self.check then self:checkBullet(b, reported) end
    b.age = b.age + 1
    if b.age < Sim.LIFE and b.bounces <= Sim.MAX_BOUNCES then
      alive = alive + 1
      bullets[alive] = b
    else
      stats.expired = stats.expired + 1
    end
  end
  for i = #bullets, alive + 1, -1 do bullets[i] = nil end
  stats.aliveFrames = stats.aliveFrames + alive
  if alive > stats.maxAlive then stats.maxAlive = alive end
  for i, e in ipairs(self.enemies) do
    if e.hp <= 0 then
      stats.kills = stats.kills + 1
      self:spawn(i)
    else
      if stats.frames >= e.turnAt then
        local angle = self.random(0, 2 * math.pi)
        local speed = self.random(30, 80)
        e.vx, e.vy = speed * math.cos(angle), speed * math.sin(angle)
        e.turnAt = stats.frames + 90
      end
      -- slides along the walls and the other enemies, placed and its entry updated in the same call
      self.world:move(e.shape, e.vx * Sim.DT, e.vy * Sim.DT, self.walkOpts)
      if e.flash > 0 then e.flash = e.flash - 1 end
    end
  end
end

function Sim:failures()
  return #self.stats.violations
end

-- Every bullet's and enemy's position and velocity, summed as the runs compare them.
function Sim:checksum()
  local sx, sy, sv = 0, 0, 0
  for _, b in ipairs(self.bullets) do
    sx, sy, sv = sx + b.x, sy + b.y, sv + b.vx * 3 + b.vy * 7
  end
  for _, e in ipairs(self.enemies) do
    local x, y = e.shape:position()
    sx, sy, sv = sx + x, sy + y, sv + e.hp
  end
  return string.format('%.6f/%.6f/%.6f', sx, sy, sv)
end

function Sim:summary()
  local s = self.stats
  return string.format('shooter: mode=%s frames=%d bullets=%d maxbullets=%d fired=%d bounces=%d hits=%d ' ..
    'kills=%d contacts=%d crossed=%d missed=%d inside=%d checksum=%s',
    self.mode, s.frames, #self.bullets, s.maxAlive, s.fired, s.bounces, s.hits, s.kills, s.contacts,
    s.crossed, s.missed, s.inside, self:checksum())
end

Sim.TURRET_X, Sim.TURRET_Y = TURRET_X, TURRET_Y
return Sim
