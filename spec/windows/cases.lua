-- spec/windows/cases.lua - the shared cases of the cross-platform comparison (spec/suites/40-windows.sh):
-- the seeds' worked examples, every query for every pair of kinds over a fixed scene, a ball trajectory
-- through a static set of bricks and a world's queries and moves, printed one result per line with
-- every number as the 16 hex digits of its IEEE-754 bits. The suite runs it under Linux PUC Lua 5.1
-- and LuaJIT (build/lua51/collide2d.so) and under the Windows lua.exe in Wine (the module DLL), and
-- compares the outputs line by line.
--
-- Each line starts with its section:
--   exact   every shape has angle 0;
--   turned  shapes with other angles, which the library turns with its own sine and cosine (src/trig.c);
-- both must agree bit for bit (they are counted apart to show where a difference would come from).
-- Numbers are formatted here, by exact arithmetic, not by the C library's printf, so the comparison
-- sees the bits themselves. The script itself uses only + - * / and sqrt (correctly rounded on every
-- platform), never math.sin or math.cos: its inputs are the same bits everywhere.
-- Usage: lua cases.lua > out.txt
local collide2d = require 'collide2d'

local C, R, P = collide2d.circle, collide2d.rectangle, collide2d.polygon
local Cap, Seg = collide2d.capsule, collide2d.segment
local floor = math.floor

-- The bits of a double as 16 hex digits, by scaling by powers of two (exact) instead of printf.
local HEX = '0123456789abcdef'
local function bits(x)
  if x ~= x then return 'nan' end
  local sign = (x < 0 or (x == 0 and 1 / x < 0)) and 2048 or 0
  x = math.abs(x)
  local e, m
  if x == math.huge then
    e, m = 2047, 0
  elseif x == 0 then
    e, m = 0, 0
  else
    e = 1023
    while x >= 2 do x = x / 2; e = e + 1 end
    while x < 1 and e > 1 do x = x * 2; e = e - 1 end
    if x < 1 then e, m = 0, x * 2 ^ 52 else m = (x - 1) * 2 ^ 52 end
  end
  local digits = {}
  for i = 13, 1, -1 do
    local d = m % 16
    digits[i] = HEX:sub(d + 1, d + 1)
    m = (m - d) / 16
  end
  local se = sign + e
  return HEX:sub(floor(se / 256) + 1, floor(se / 256) + 1) .. HEX:sub(floor(se / 16) % 16 + 1, floor(se / 16) % 16 + 1)
    .. HEX:sub(se % 16 + 1, se % 16 + 1) .. table.concat(digits)
end

local names = setmetatable({}, { __mode = 'k' })

local function token(v)
  local t = type(v)
  if t == 'number' then return bits(v) end
  if t == 'nil' or t == 'boolean' then return tostring(v) end
  if t == 'string' then return 's:' .. v end
  if names[v] then return 'shape:' .. names[v] end
  return '?' .. t
end

local function out(section, label, ...)
  local parts = { section, label }
  for i = 1, select('#', ...) do parts[#parts + 1] = token((select(i, ...))) end
  io.write(table.concat(parts, ' '), '\n')
end

-- A deterministic stream (Park-Miller): every product stays below 2^53, so it is exact in doubles.
local seed = 20240611
local function uniform(lo, hi)
  seed = (seed * 16807) % 2147483647
  return lo + (hi - lo) * (seed / 2147483647)
end

local PI = 3.141592653589793

-- The kinds with a fixed size around (x, y); angle 0 unless given.
local function make(kind, x, y, s, angle)
  angle = angle or 0
  local shape
  if kind == 1 then shape = C(x, y, s)
  elseif kind == 2 then shape = R(x - s, y - s * 0.75, 2 * s, 1.5 * s, angle)
  elseif kind == 3 then
    shape = P(x - s, y - s * 0.5, x + s * 0.25, y - s, x + s, y + s * 0.125, x + s * 0.125, y + s, x - s * 0.75, y + s * 0.5)
    if angle ~= 0 then shape:setAngle(angle) end
  elseif kind == 4 then
    shape = Cap(x - s, y - s * 0.375, x + s * 0.875, y + s * 0.25, s * 0.375)
    if angle ~= 0 then shape:setAngle(angle) end
  else
    shape = Seg(x - s, y + s * 0.625, x + s * 0.75, y - s * 0.5)
    if angle ~= 0 then shape:setAngle(angle) end
  end
  return shape
end
local KIND = { 'circle', 'rect', 'polygon', 'capsule', 'segment' }

-- Every query for every ordered pair of kinds, at offsets from far apart to deeply overlapping.
local function pairs_section(section, angle_of)
  local offsets = { { 3.5, 0.25 }, { 1.9, 1.3 }, { 0.75, -0.5 }, { 0.125, 0.0625 }, { -2.25, 1.75 } }
  for ka = 1, 5 do
    for kb = 1, 5 do
      for oi, o in ipairs(offsets) do
        local a = make(ka, 0, 0, 1, angle_of(ka, kb, oi, 1))
        local b = make(kb, o[1], o[2], 0.8, angle_of(ka, kb, oi, 2))
        local label = KIND[ka] .. '-' .. KIND[kb] .. '#' .. oi
        out(section, label .. ':overlaps', a:overlaps(b))
        out(section, label .. ':collide', a:collide(b))
        out(section, label .. ':distance', a:distance(b))
        out(section, label .. ':sweep', a:sweep(-o[1] * 1.5, -o[2] * 0.5, b, 0.25, 0.125))
        out(section, label .. ':raycast', b:raycast(-5, 0.3, 1, 0.05, 20))
        out(section, label .. ':closest', b:closest(0.2, -0.3))
        out(section, label .. ':contains', b:contains(o[1] * 0.5, o[2] * 0.5))
        out(section, label .. ':bbox', b:bbox())
        out(section, label .. ':vertices', unpack(b:vertices()))
      end
    end
  end
end

-- The seeds' worked examples (shared/seeds/002 and 003 use unturned shapes).
local function seeds_exact()
  local sqrt2 = math.sqrt(2)
  out('exact', 'seed002:boxes', R(0, 0, 10, 10):collide(R(10, 0, 5, 5)))
  out('exact', 'seed002:circles', C(0, 0, 1):collide(C(2, 0, 1)))
  local r = R(0, 0, 10, 10)
  out('exact', 'seed002:rounded', r:overlaps(C(10.5, 5, 1)), r:overlaps(C(5, -0.9, 1)),
    r:overlaps(C(10.7, 10.7, 1)), r:overlaps(C(10.75, 10.75, 1)))
  local a, b = P(0, 0, 4, 0, 0, 4), P(3, 3, 5, 3, 3, 5)
  out('exact', 'seed002:sat-apart', a:overlaps(b), a:distance(b))
  b:move(-1.5, -1.5)
  out('exact', 'seed002:sat-mtv', a:collide(b))
  out('exact', 'seed003:corner-out', r:overlaps(C(10.8, 10.8, 1)), r:distance(C(10.8, 10.8, 1)), 0.8 * sqrt2 - 1)
  out('exact', 'seed003:corner-in', r:collide(C(10.7, 10.7, 1)))
  out('exact', 'seed003:side', r:collide(C(11, 5, 1)))
  -- seed 004: a ball bouncing off a corner of a tile, and along a row of tiles without a seam snag.
  local tiles = {}
  for i = 1, 8 do tiles[i] = R((i - 1) * 10, 0, 10, 10) end
  local row = collide2d.staticset(tiles)
  out('exact', 'seed004:seams', row:isSeam(1, 1), row:isSeam(1, 2), row:isSeam(4, 4), row:isSeam(8, 2), row:isSeam(8, 4))
  out('exact', 'seed004:corner', row:stepBall(-3, -4, 3, 4.5, 1, 1))
  out('exact', 'seed004:along', row:stepBall(1, -1, 70, 0.5, 1, 1))
  out('exact', 'seed004:fast', row:stepBall(5, -30, 0.3, 900, 0.5, 1))
end

-- A ball among a wall of touching bricks, polygons and capsules, for 400 steps of 1/60 s at up to
-- 40 radii a step: the state after each step, and each contact.
local function ball_section(section, angle)
  local shapes = {}
  local function add(s) shapes[#shapes + 1] = s end
  add(R(0, 0, 800, 10)); add(R(0, 590, 800, 10)); add(R(0, 0, 10, 600)); add(R(790, 0, 10, 600))
  for row = 0, 4 do
    for col = 0, 11 do add(R(100 + col * 50, 80 + row * 20, 50, 20)) end
  end
  add(P(300, 400, 360, 380, 390, 430, 330, 470, 290, 450))
  add(Cap(500, 300, 600, 340, 12))
  add(Seg(150, 500, 250, 440))
  add(R(600, 420, 120, 30, angle))
  add(R(120, 300, 60, 60, angle * 0.5))
  local set = collide2d.staticset(shapes)
  local contacts = {}
  local x, y, vx, vy = 400, 300, 1500, -2100
  for step = 1, 400 do
    local n
    x, y, vx, vy, n = set:stepBall(x, y, vx, vy, 6, 1 / 60, nil, contacts)
    out(section, 'ball:' .. step, x, y, vx, vy, n)
    for i = 1, n do
      local c = contacts[i]
      out(section, 'ball:' .. step .. ':' .. i, c.index, c.t, c.x, c.y, c.nx, c.ny, c.response, c.pushedOut)
    end
    if step % 50 == 0 then set:setEnabled(5 + step / 50, false) end
  end
end

-- A world of 300 shapes of every kind: rectangle, point, shape and ray queries, pairs with contacts,
-- moves and ball steps, then the same after moving a third of the shapes.
local function world_section(section, angle_scale)
  local world = collide2d.world()
  local shapes = {}
  for i = 1, 300 do
    local kind = (i - 1) % 5 + 1
    local angle = angle_scale * uniform(-3, 3)
    local s = make(kind, uniform(0, 400), uniform(0, 300), uniform(2, 12), angle)
    names[s] = i
    shapes[i] = world:add(s, i)
  end
  local function queries(tag)
    local items, n = {}, 0
    for q = 1, 20 do
      local qx, qy = uniform(-20, 380), uniform(-20, 280)
      items, n = world:queryRect(qx, qy, uniform(5, 60), uniform(5, 60), nil, items)
      out(section, tag .. ':rect:' .. q, n, unpack(items, 1, n))
      items, n = world:queryPoint(qx, qy, nil, items)
      out(section, tag .. ':point:' .. q, n, unpack(items, 1, n))
      local probe = make(q % 5 + 1, qx, qy, 15, 0)
      items, n = world:queryShape(probe, nil, items)
      out(section, tag .. ':shape:' .. q, n, unpack(items, 1, n))
      out(section, tag .. ':ray:' .. q, world:raycast(qx, qy, uniform(-1, 1), uniform(-1, 1), 500))
    end
    local list, n = world:pairs({}, true)
    out(section, tag .. ':pairs', n)
    for k = 1, n do
      local p = list[k]
      out(section, tag .. ':pair:' .. k, p.a, p.b, p.nx, p.ny, p.depth)
    end
    local contacts = {}
    local mover = C(200, 150, 5)
    for m = 1, 10 do
      out(section, tag .. ':move:' .. m, world:move(mover, uniform(-80, 80), uniform(-80, 80), nil, nil, contacts))
      out(section, tag .. ':ball:' .. m, world:stepBall(uniform(0, 400), uniform(0, 300), uniform(-900, 900),
        uniform(-900, 900), 4, 1 / 30, nil, nil, contacts))
    end
  end
  queries('world')
  for i = 1, 300, 3 do
    shapes[i]:move(uniform(-30, 30), uniform(-30, 30))
    world:update(shapes[i])
  end
  queries('world-moved')
end

unpack = unpack or table.unpack
out('info', 'version', collide2d._VERSION)
seeds_exact()
pairs_section('exact', function() return 0 end)
ball_section('exact', 0)
world_section('exact', 0)

-- Turned: seeds 000 and 001 (their shapes placed by decimal inputs rather than by math.cos and
-- math.sin), the pairs at assorted angles, the ball with turned blocks, the world with random angles.
local rect = R(8, 19, 4, 2, PI / 6)
out('turned', 'seed000:face', rect:collide(C(12.598076211353316, 21.5, 1.25)))
out('turned', 'seed000:corner', rect:collide(C(11.351666016720000, 22.858845726811990, 1.01)))
local a = R(0.8056873, 2.7835491, 3, 2, 0.6981317007977318)
local b = R(-1.7520762, 4.3451843, 2, 1, 0.8726646259971648)
out('turned', 'seed001', a:overlaps(b), a:collide(b), a:distance(b))
-- Quarter turns: not exact either. The double nearest pi/2 is not pi/2, so cos of it is 6.1e-17, not 0,
-- and glibc and mingw-w64 (whose sincos uses the x87's 66-bit pi) answer it differently in the 14th bit.
for q = 1, 3 do
  local quarter = R(-2, -1, 4, 2, q * (PI / 2))
  out('turned', 'quarter' .. q .. ':vertices', unpack(quarter:vertices()))
  out('turned', 'quarter' .. q .. ':collide', quarter:collide(C(0.25, 2.5, 1)))
  out('turned', 'quarter' .. q .. ':raycast', quarter:raycast(-5, 0.5, 1, 0))
end
pairs_section('turned', function(ka, kb, oi, which) return (ka * 0.7 + kb * 0.3 + oi * 0.11) * (which == 1 and 1 or -1.3) end)
ball_section('turned', 0.35)
world_section('turned', 1)
