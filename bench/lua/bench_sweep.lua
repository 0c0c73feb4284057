-- bench/lua/bench_sweep.lua - swept motion from Lua (issue 4): microseconds per move of collide2d's
-- static set against a careful pure-Lua equivalent (sweep_ref.lua), on the scenes of
-- bench/bench_sweep.c:
--   - one ball step among 400 bricks: 20 x 20 bricks of 30 x 12 (gaps of 2) inside the walls of an
--     800 x 600 window, a ball of radius 5 moving about 16 px a step. collide2d: set:stepBall.
--   - one bump.lua-style slide move among 400 tiles: a 50 x 30 map (border and platforms of 4 to 8
--     tiles; the same kind of map as the C benchmark's, from this file's generator), a 0.8 x 0.8 box
--     moving up to half a tile per axis. collide2d: player:setPosition then set:move (slide).
-- Both collide2d calls are the garbage-free forms (no opts table, one reused contacts table); the
-- pure-Lua side fills a reused contacts table as well. The pure-Lua side is timed with its uniform
-- grid (bump.lua's approach) and, for comparison, as brute force over every box.
--
-- The inputs are recorded first (states before consecutive steps of several ball trajectories, and
-- positions and moves of the box), by collide2d, with a deterministic generator, so both interpreters
-- see the same scenes. Before anything is timed, every implementation replays every recorded state
-- and must agree with collide2d: the same end position (and ball velocity) within 1e-6 and the same
-- number of contacts; ball trajectories are also run freely side by side for a while. A disagreement
-- exits 1, so a bug cannot pass as speed. Then median microseconds per move over repetitions in which
-- the implementations take turns, and the Lua garbage per move (collectgarbage "count", collector
-- stopped, over many moves).
-- Run from the top directory with LUA_CPATH pointing at a build (`make bench-lua` does it for Lua
-- 5.4 and LuaJIT). BENCH_SECONDS (default 0.25) scales the run; `make bench-quick` sets 0.02.
package.path = 'bench/lua/?.lua;' .. package.path
local collide2d = require 'collide2d'
local ref = require 'sweep_ref'

local SECONDS = tonumber(os.getenv('BENCH_SECONDS')) or 0.25
local QUICK = SECONDS < 0.1
local REPS = QUICK and 3 or 7
local REP_SECONDS = SECONDS / 4 -- per repetition of one implementation
local STATES = QUICK and 200 or 1000
local GARBAGE_MOVES = QUICK and 2000 or 20000
local TOL = 1e-6

-- Park and Miller's generator, as bench.lua: the same under every interpreter.
local seed = 20240
local function uniform(lo, hi)
  seed = (seed * 16807) % 2147483647
  return lo + (hi - lo) * seed / 2147483647
end

-- Shapes for collide2d and flat box arrays for the reference, from the same (l, t, r, b) boxes.
local function scene(boxes, cell, x0, y0, x1, y1)
  local shapes, L, T, R, B = {}, {}, {}, {}, {}
  for i, bx in ipairs(boxes) do
    L[i], T[i], R[i], B[i] = bx[1], bx[2], bx[3], bx[4]
    shapes[i] = collide2d.rectangle(bx[1], bx[2], bx[3] - bx[1], bx[4] - bx[2])
  end
  return collide2d.staticset(shapes), ref.grid(L, T, R, B, #boxes, cell, x0, y0, x1, y1)
end

-- ---- ball among bricks -----------------------------------------------------------------------------

local RADIUS, SPEED = 5, math.sqrt(9.1 * 9.1 + 13.7 * 13.7)
local ball_boxes = { { -10, -10, 810, 0 }, { -10, 600, 810, 610 }, { -10, 0, 0, 600 }, { 800, 0, 810, 600 } }
for row = 0, 19 do
  for col = 0, 19 do
    local l, t = 80 + 32 * col, 60 + 14 * row
    ball_boxes[#ball_boxes + 1] = { l, t, l + 30, t + 12 }
  end
end
-- Cells of 64 px (bump.lua's default cell size): 13 x 10 cells, about 4 bricks in each.
local ball_set, ball_grid = scene(ball_boxes, 64, -10, -10, 810, 610)

-- Recorded states: 4 trajectories, the first the C benchmark's (from (400, 500) at (9.1, -13.7)).
local contacts = {}
local BX, BY, BVX, BVY = {}, {}, {}, {}
local TRAJ = 4
local starts = {}
for k = 1, TRAJ do
  local x, y, vx, vy = 400, 500, 9.1, -13.7
  if k > 1 then
    local a = uniform(0, 2 * math.pi)
    x, y, vx, vy = uniform(20, 780), uniform(420, 580), SPEED * math.cos(a), SPEED * math.sin(a)
  end
  starts[k] = { x, y, vx, vy }
  for _ = 1, STATES / TRAJ do
    BX[#BX + 1], BY[#BY + 1], BVX[#BVX + 1], BVY[#BVY + 1] = x, y, vx, vy
    x, y, vx, vy = ball_set:stepBall(x, y, vx, vy, RADIUS, 1, nil, contacts)
  end
end

-- ---- box among tiles ------------------------------------------------------------------------------

local TILES, HALF = 400, 0.4
local map = {}
for y = 0, 29 do
  map[y] = {}
  for x = 0, 49 do map[y][x] = (x == 0 or x == 49 or y == 0 or y == 29) end
end
local solid = 2 * 50 + 2 * 28
while solid < TILES do
  local y, x = 2 + math.floor(uniform(0, 26)), 2 + math.floor(uniform(0, 40))
  local len = 4 + math.floor(uniform(0, 5))
  for k = 0, len - 1 do
    if solid < TILES and not map[y][x + k] then
      map[y][x + k] = true
      solid = solid + 1
    end
  end
end
local tile_boxes = {}
for y = 0, 29 do
  for x = 0, 49 do
    if map[y][x] then tile_boxes[#tile_boxes + 1] = { x, y, x + 1, y + 1 } end
  end
end
assert(#tile_boxes == TILES)
-- Cells of 4 tiles (bump.lua's 64 px for 16 px tiles): 13 x 8 cells.
local tile_set, tile_grid = scene(tile_boxes, 4, 0, 0, 50, 30)
local player = collide2d.rectangle(1.5 - HALF, 1.5 - HALF, 2 * HALF, 2 * HALF)

local PX, PY, MX, MY = {}, {}, {}, {}
do
  local x, y = 1.5, 1.5
  for k = 1, STATES do
    local dx, dy = uniform(-0.5, 0.5), uniform(-0.5, 0.5)
    PX[k], PY[k], MX[k], MY[k] = x, y, dx, dy
    player:setPosition(x, y)
    x, y = tile_set:move(player, dx, dy, nil, contacts)
  end
end

-- ---- the implementations, one move each ------------------------------------------------------------

local step_c2d = function(k)
  return ball_set:stepBall(BX[k], BY[k], BVX[k], BVY[k], RADIUS, 1, nil, contacts)
end
local step_grid = function(k)
  return ref.stepBall(ball_grid, BX[k], BY[k], BVX[k], BVY[k], RADIUS, 1, contacts)
end
local step_brute = function(k)
  return ref.stepBallBrute(ball_grid, BX[k], BY[k], BVX[k], BVY[k], RADIUS, 1, contacts)
end
local slide_c2d = function(k)
  player:setPosition(PX[k], PY[k])
  local x, y, n = tile_set:move(player, MX[k], MY[k], nil, contacts)
  return x, y, 0, 0, n
end
local slide_grid = function(k)
  local x, y, n = ref.move(tile_grid, PX[k], PY[k], HALF, HALF, MX[k], MY[k], contacts)
  return x, y, 0, 0, n
end
local slide_brute = function(k)
  local x, y, n = ref.moveBrute(tile_grid, PX[k], PY[k], HALF, HALF, MX[k], MY[k], contacts)
  return x, y, 0, 0, n
end

-- Timed passes: every recorded state once, the same calls written out (no closure call per move), the
-- contact counts summed so that nothing can be optimised away.
local passes = {
  step_c2d = function()
    local hits, stepBall, set, c = 0, ball_set.stepBall, ball_set, contacts
    for k = 1, STATES do
      local _, _, _, _, n = stepBall(set, BX[k], BY[k], BVX[k], BVY[k], RADIUS, 1, nil, c)
      hits = hits + n
    end
    return hits
  end,
  step_grid = function()
    local hits, stepBall, g, c = 0, ref.stepBall, ball_grid, contacts
    for k = 1, STATES do
      local _, _, _, _, n = stepBall(g, BX[k], BY[k], BVX[k], BVY[k], RADIUS, 1, c)
      hits = hits + n
    end
    return hits
  end,
  step_brute = function()
    local hits, stepBall, g, c = 0, ref.stepBallBrute, ball_grid, contacts
    for k = 1, STATES do
      local _, _, _, _, n = stepBall(g, BX[k], BY[k], BVX[k], BVY[k], RADIUS, 1, c)
      hits = hits + n
    end
    return hits
  end,
  slide_c2d = function()
    local hits, move, setPosition, set, p, c = 0, tile_set.move, player.setPosition, tile_set, player, contacts
    for k = 1, STATES do
      setPosition(p, PX[k], PY[k])
      local _, _, n = move(set, p, MX[k], MY[k], nil, c)
      hits = hits + n
    end
    return hits
  end,
  slide_grid = function()
    local hits, move, g, c = 0, ref.move, tile_grid, contacts
    for k = 1, STATES do
      local _, _, n = move(g, PX[k], PY[k], HALF, HALF, MX[k], MY[k], c)
      hits = hits + n
    end
    return hits
  end,
  slide_brute = function()
    local hits, move, g, c = 0, ref.moveBrute, tile_grid, contacts
    for k = 1, STATES do
      local _, _, n = move(g, PX[k], PY[k], HALF, HALF, MX[k], MY[k], c)
      hits = hits + n
    end
    return hits
  end,
}

-- ---- cross-checks ---------------------------------------------------------------------------------

local failures = 0
local function fail(fmt, ...)
  failures = failures + 1
  if failures <= 10 then print('DISAGREE: ' .. string.format(fmt, ...)) end
end

local function close(a, b) return math.abs(a - b) <= TOL * (1 + math.abs(a)) end

-- Every recorded state, each reference against collide2d: end position, velocity, contact count.
local function check_states(what, c2d, others)
  for k = 1, STATES do
    local x, y, vx, vy, n = c2d(k)
    for name, fn in pairs(others) do
      local x2, y2, vx2, vy2, n2 = fn(k)
      if not (close(x, x2) and close(y, y2) and close(vx, vx2) and close(vy, vy2)) or n ~= n2 then
        fail('%s %d (%s): collide2d ends at (%.17g, %.17g) v (%.17g, %.17g) with %d contacts, pure Lua at ' ..
             '(%.17g, %.17g) v (%.17g, %.17g) with %d', what, k, name, x, y, vx, vy, n, x2, y2, vx2, vy2, n2)
      end
    end
  end
end
check_states('ball step', step_c2d, { grid = step_grid, brute = step_brute })
check_states('slide move', slide_c2d, { grid = slide_grid, brute = slide_brute })

-- Free-running ball trajectories: each side steps its own ball from the same start. Errors of 1e-13
-- grow at every corner bounce, so these run for a limited number of steps.
local FREE_STEPS = 150
local free_hits = 0
for k = 1, TRAJ do
  local s = starts[k]
  local x, y, vx, vy = s[1], s[2], s[3], s[4]
  local x2, y2, vx2, vy2 = x, y, vx, vy
  for step = 1, FREE_STEPS do
    local n, n2
    x, y, vx, vy, n = ball_set:stepBall(x, y, vx, vy, RADIUS, 1, nil, contacts)
    x2, y2, vx2, vy2, n2 = ref.stepBall(ball_grid, x2, y2, vx2, vy2, RADIUS, 1, contacts)
    free_hits = free_hits + n
    if not (close(x, x2) and close(y, y2)) or n ~= n2 then
      fail('free ball trajectory %d, step %d: collide2d at (%.17g, %.17g) with %d contacts, pure Lua at ' ..
           '(%.17g, %.17g) with %d', k, step, x, y, n, x2, y2, n2)
      break
    end
  end
end
-- The slide run freely: the box follows the recorded moves from the same start on each side.
do
  local x, y, x2, y2 = PX[1], PY[1], PX[1], PY[1]
  for k = 1, STATES do
    local n, n2
    player:setPosition(x, y)
    x, y, n = tile_set:move(player, MX[k], MY[k], nil, contacts)
    x2, y2, n2 = ref.move(tile_grid, x2, y2, HALF, HALF, MX[k], MY[k], contacts)
    if not (close(x, x2) and close(y, y2)) or n ~= n2 then
      fail('free slide, move %d: collide2d at (%.17g, %.17g) with %d contacts, pure Lua at (%.17g, %.17g) ' ..
           'with %d', k, x, y, n, x2, y2, n2)
      break
    end
  end
end

if failures > 0 then
  print(string.format('pure Lua and collide2d disagreed %d times: not timing', failures))
  os.exit(1)
end

-- ---- timing ---------------------------------------------------------------------------------------

local clock = os.clock

-- Passes per repetition so that one takes about REP_SECONDS.
local function calibrate(pass)
  local rounds = 1
  while true do
    local start = clock()
    for _ = 1, rounds do pass() end
    local elapsed = clock() - start
    if elapsed >= REP_SECONDS / 4 then
      return math.max(1, math.floor(rounds * REP_SECONDS / elapsed + 0.5))
    end
    rounds = rounds * 2
  end
end

local function median(t)
  table.sort(t)
  local n = #t
  if n % 2 == 1 then return t[(n + 1) / 2] end
  return (t[n / 2] + t[n / 2 + 1]) / 2
end

-- Under LuaJIT, trace aborts while timing (counted by a trace event handler): LuaJIT 2.1.0-beta3 gives
-- up on many side traces of the branchy exact tests ("NYI: register coalescing too complex") and keeps
-- trying again, which makes the pure-Lua times swing between runs.
local aborts, abort_reasons = 0, {}
if jit and jit.attach then
  jit.attach(function(what, _, _, _, otr, oex)
    if what == 'abort' then
      aborts = aborts + 1
      local reason = type(otr) == 'number' and require('jit.vmdef').traceerr[otr] or tostring(otr)
      if type(reason) == 'string' and oex then reason = reason:format(oex) end
      abort_reasons[reason] = (abort_reasons[reason] or 0) + 1
    end
  end, 'trace')
end

-- Median microseconds per move of each named pass, the passes taking turns in every repetition.
local function measure(names)
  local rounds, times = {}, {}
  for i, name in ipairs(names) do
    rounds[i], times[i] = calibrate(passes[name]), {}
  end
  for r = 1, REPS do
    for i, name in ipairs(names) do
      local pass = passes[name]
      local start = clock()
      for _ = 1, rounds[i] do pass() end
      times[i][r] = (clock() - start) / (rounds[i] * STATES) * 1e6
    end
  end
  local us = {}
  for i = 1, #names do us[i] = median(times[i]) end
  return us
end

-- Bytes of Lua garbage per move, the collector stopped, after a warm-up pass (which creates the contact
-- records). Under LuaJIT the compiler is switched off while counting: its traces are objects of the
-- collected heap too, recorded at unpredictable moments (a new side trace now and then, on either
-- side), and would count as garbage of whichever call was running.
local function garbage(name)
  local pass = passes[name]
  pass()
  local jit_was_on = jit and jit.status()
  if jit then jit.off(); jit.flush() end -- 2.1.0-beta3 still records side traces of existing traces after jit.off()
  collectgarbage('collect')
  collectgarbage('collect')
  collectgarbage('stop')
  local rounds = math.max(1, math.ceil(GARBAGE_MOVES / STATES))
  local before = collectgarbage('count')
  for _ = 1, rounds do pass() end
  local after = collectgarbage('count')
  collectgarbage('restart')
  if jit_was_on then jit.on() end
  return (after - before) * 1024 / (rounds * STATES)
end

print(string.format('%s, collide2d %s: microseconds per move (lower is better), median of %d repetitions ' ..
  'over %d recorded states%s', jit and jit.version or _VERSION, collide2d._VERSION, REPS, STATES,
  QUICK and ' -- QUICK smoke run, numbers not meaningful' or ''))
print(string.format('  %-32s %9s %9s %7s %9s %7s %6s %s', 'workload', 'collide2d', 'Lua grid', 'ratio',
  'Lua brute', 'ratio', 'hits', 'garbage B/move c2d, Lua grid'))
local worst_ratio, worst_brute, worst_garbage = math.huge, math.huge, 0
local c2d_us = {}
for _, w in ipairs({ { 'ball step among 400 bricks', 'step' }, { 'box slide move among 400 tiles', 'slide' } }) do
  local p = w[2]
  local us = measure({ p .. '_c2d', p .. '_grid', p .. '_brute' })
  local g_c2d, g_lua = garbage(p .. '_c2d'), garbage(p .. '_grid')
  local hits = passes[p .. '_c2d']() / STATES
  print(string.format('  %-32s %9.2f %9.2f %6.1fx %9.2f %6.1fx %6.2f %7.3g, %.3g', w[1], us[1], us[2],
    us[2] / us[1], us[3], us[3] / us[1], hits, g_c2d, g_lua))
  c2d_us[p] = us[1]
  worst_ratio = math.min(worst_ratio, us[2] / us[1])
  worst_brute = math.min(worst_brute, us[3] / us[1])
  worst_garbage = math.max(worst_garbage, g_c2d)
end
print('  collide2d: set:stepBall / player:setPosition + set:move, one reused contacts table. Lua grid: sweep_ref.lua')
print('  with its uniform grid; Lua brute: the same over every box. ratio: pure Lua time / collide2d time. hits:')
print(string.format('  contacts per move. garbage: bytes per move over %d moves, collector stopped%s.', GARBAGE_MOVES,
  jit and ', JIT compiler off' or ''))
print(string.format('  agreement: all %d ball steps and %d slide moves (grid and brute force) within %g, same ' ..
  'contact counts;\n  %d free ball steps (%d contacts) and %d free slide moves side by side', STATES, STATES, TOL,
  TRAJ * FREE_STEPS, free_hits, STATES))
if jit then
  -- The pure-Lua grid once more in LuaJIT's interpreter alone: the figure the pathology above hides.
  local was_on = jit.status()
  jit.off()
  jit.flush()
  local ball_us, slide_us = measure({ 'step_grid' })[1], measure({ 'slide_grid' })[1]
  if was_on then jit.on() end
  print(string.format('  Lua grid with the JIT compiler off: ball %.2f us (%.1fx collide2d), slide %.2f us (%.1fx)',
    ball_us, ball_us / c2d_us.step, slide_us, slide_us / c2d_us.slide))
  local top, count = nil, 0
  for reason, c in pairs(abort_reasons) do if c > count then top, count = reason, c end end
  print(string.format('  LuaJIT trace aborts during the run: %d%s; when there are many, the pure-Lua times vary ' ..
    'a lot between runs.', aborts, top and string.format(' (%d of them "%s")', count, top) or ''))
end
print(string.format('  targets: collide2d >= 5x faster than pure Lua: against its grid %s (worst %.1fx), against brute ' ..
  'force %s (worst %.1fx);\n  no garbage per move from collide2d: %s', worst_ratio >= 5 and 'met' or 'MISSED',
  worst_ratio, worst_brute >= 5 and 'met' or 'MISSED', worst_brute, worst_garbage == 0 and 'met' or 'MISSED'))
