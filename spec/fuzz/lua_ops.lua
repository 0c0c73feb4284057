-- spec/fuzz/lua_ops.lua - a random-operation tester for the Lua binding (issue 22, "What to build" 2).
--
-- Runs a long random sequence of calls over shapes of every kind, static sets and worlds. The world
-- calls get Lua callbacks (filter functions, response functions) that raise, yield, collect garbage,
-- and add, remove, re-value, update and destroy shapes, worlds and sets while the call runs; some
-- calls get bad arguments, some get destroyed objects. A model kept beside the real objects (which
-- shapes are in which world, with which value, bits and order of adding; what was destroyed; which
-- world a running call keeps busy) says what every call must answer or raise, and every answer is
-- checked for validity: finite numbers, t in [0, 1], unit normals, counts equal to the lists, every
-- record's fields present with the right types, results that are live members of the world, a
-- callback's error raised again as the same value, the documented message for destroyed objects and
-- a standard "bad argument #k to 'name'" for a bad argument. A crash is the other way to fail.
--
-- Usage (from the top directory):
--   LUA_CPATH='build/lua54/?.so;;' lua5.4 spec/fuzz/lua_ops.lua [seed [count]]
--   LUA_CPATH='build/lua51/?.so;;' luajit spec/fuzz/lua_ops.lua      (or lua5.1)
-- Environment: C2D_OPS_SEED (default 1) and C2D_OPS_COUNT (default 2000), which the arguments
-- override; C2D_OPS_ONLY=name,name runs only those ops (names of OPS below); C2D_OPS_LOG=file writes
-- every op to the file as it starts (flushed), so that after a crash the file's last line is the op
-- that crashed. The PRNG is this file's own, so a seed gives the same ops in every Lua (the three
-- agree to the bit on this file's arithmetic). A failed check prints the seed, the op index, the
-- check and the last ops, and the run goes on from an empty scene; the last line is always
-- "lua_ops: seed=S ops=N checks=C failures=F ...", and the exit status is 0 only when every check
-- held.
local collide2d = require 'collide2d'

local unpack = table.unpack or rawget(_G, 'unpack')
local compile = rawget(_G, 'loadstring') or load
local newproxy = rawget(_G, 'newproxy')
local jit = rawget(_G, 'jit')
local huge = math.huge
local NAN = 0 / 0
local ALL_BITS = 4294967295

-- Reading a global that does not exist is a mistake of this file, not a nil.
setmetatable(_G, { __index = function(_, name) error('undefined global ' .. tostring(name), 2) end })

-- ---- configuration ---------------------------------------------------------------------------

local args = arg or {}
local SEED = math.floor(tonumber(args[1] or os.getenv('C2D_OPS_SEED') or '') or 1)
local COUNT = math.floor(tonumber(args[2] or os.getenv('C2D_OPS_COUNT') or '') or 2000)
local LOG_PATH = os.getenv('C2D_OPS_LOG')
local ONLY = os.getenv('C2D_OPS_ONLY')   -- "op1,op2": run only these ops (to chase one problem)
local TRACE_LEN = 40        -- ops and callback actions shown with a failure
local MAX_REPORTS = 8       -- failures printed in full; the others are counted by kind
local MAX_DEPTH = 2         -- ops run from inside callbacks, nested at most this deep
local MAX_SHAPES = 300      -- shape records kept; beyond, free shapes are dropped for the collector
local MAX_MEMBERS = 400     -- members of one world; beyond, the world is destroyed

-- ---- deterministic random numbers ------------------------------------------------------------

-- Park and Miller's minimal standard generator: exact in doubles, so the same in every Lua (unlike
-- math.random, which differs between versions).
local rng = {}
do
  local state = SEED % 2147483646 + 1
  function rng.float()
    state = (state * 16807) % 2147483647
    return state / 2147483647
  end
  for _ = 1, 20 do rng.float() end
end

function rng.int(lo, hi) return lo + math.floor(rng.float() * (hi - lo + 1)) end
function rng.range(lo, hi) return lo + (hi - lo) * rng.float() end
function rng.chance(p) return rng.float() < p end
function rng.pick(list) return list[rng.int(1, #list)] end

-- entries = { {weight, value}, ... }: a value drawn in proportion to its weight.
function rng.weighted(entries)
  local total = 0
  for _, e in ipairs(entries) do total = total + e[1] end
  local r = rng.float() * total
  for _, e in ipairs(entries) do
    r = r - e[1]
    if r < 0 then return e[2] end
  end
  return entries[#entries][2]
end

-- ---- trace and failures ----------------------------------------------------------------------

local run = { op = 0, checks = 0, failures = 0, reports = 0, kinds = {}, kind_order = {}, depth = 0 }
local trace, trace_next = {}, 1
local log = LOG_PATH and assert(io.open(LOG_PATH, 'w'))

-- Every number in messages with all its digits; other values as tostring gives them.
local function show(v)
  if type(v) == 'number' then return string.format('%.17g', v) end
  if type(v) == 'string' then return string.format('%q', v) end
  return tostring(v)
end

-- string.format with every argument shown (fmt uses %s only: Lua 5.1's %s takes no tables).
local function format(fmt, ...)
  local n = select('#', ...)
  local shown = { ... }
  for i = 1, n do
    if type(shown[i]) ~= 'string' then shown[i] = show(shown[i]) end
  end
  return string.format(fmt, unpack(shown, 1, n))
end

-- Adds a line to the trace of recent ops (and to the log file).
local function note(fmt, ...)
  local line = string.format('%6d %s%s', run.op, string.rep('  ', run.depth), format(fmt, ...))
  trace[trace_next] = line
  trace_next = trace_next % TRACE_LEN + 1
  if log then
    log:write(line, '\n')
    log:flush()
  end
end

local function print_trace()
  print('  last ops (op index, then what was done; indented: from inside a callback):')
  for k = 0, TRACE_LEN - 1 do
    local line = trace[(trace_next + k - 1) % TRACE_LEN + 1]
    if line then print('    ' .. line) end
  end
end

-- A failed check: raised as this object, so that it passes unchanged through callbacks and the
-- calls that raise a callback's error again.
local Failure = {}
Failure.__tostring = function(f) return 'check failed: ' .. f.message end

local function is_failure(e) return type(e) == 'table' and getmetatable(e) == Failure end

-- Records and reports a failed check, then raises it.
local function fail(fmt, ...)
  local message = format(fmt, ...)
  local kind = message:gsub('0x%x+', '#'):gsub('%-?%d[%d%.e%-+]*', '#'):sub(1, 120)
  run.failures = run.failures + 1
  if not run.kinds[kind] then
    run.kinds[kind] = { count = 0, first = run.op, message = message }
    run.kind_order[#run.kind_order + 1] = kind
  end
  run.kinds[kind].count = run.kinds[kind].count + 1
  if run.kinds[kind].count == 1 and run.reports < MAX_REPORTS then
    run.reports = run.reports + 1
    print(string.format('FAIL seed=%d op=%d: %s', SEED, run.op, message))
    print(string.format('  reproduce: C2D_OPS_SEED=%d C2D_OPS_COUNT=%d <lua> spec/fuzz/lua_ops.lua', SEED, run.op))
    print_trace()
    print('  ' .. debug.traceback('where the check failed:', 2):gsub('\n', '\n  '))
  end
  error(setmetatable({ message = message }, Failure), 0)
end

-- Counts of what the run did, printed at the end: proof that the mix reaches what it should.
local stats = {}
local function count(what) stats[what] = (stats[what] or 0) + 1 end

local function check(cond, fmt, ...)
  run.checks = run.checks + 1
  if not cond then fail(fmt, ...) end
end

-- ---- value checks ----------------------------------------------------------------------------

local function finite(v) return type(v) == 'number' and v == v and v ~= huge and v ~= -huge end
local function integer(v) return finite(v) and v == math.floor(v) end

-- Two Lua values that are the same (NaN is the same as NaN).
local function same(a, b) return rawequal(a, b) or (a ~= a and b ~= b) end

local function check_number(v, what) check(finite(v), '%s is %s, not a finite number', what, v) end

local function check_count(v, what) check(integer(v) and v >= 0, '%s is %s, not a count', what, v) end

local function check_fraction(v, what)
  check_number(v, what)
  check(v >= 0 and v <= 1, '%s is %s, outside [0, 1]', what, v)
end

local function check_unit(x, y, what)
  check_number(x, what .. ' x')
  check_number(y, what .. ' y')
  check(math.abs(x * x + y * y - 1) <= 1e-9, '%s (%s, %s) is not a unit vector', what, x, y)
end

local function check_boolean(v, what) check(type(v) == 'boolean', '%s is %s, not a boolean', what, v) end

-- An error message without the "file:line: " prefix Lua adds to errors raised from Lua code.
local function strip(err)
  if type(err) ~= 'string' then return err end
  return (err:gsub('^[^\n]-:%d+: ', '', 1))
end

-- Bitwise and of two integers below 2^32, without operators or libraries (Lua 5.1).
local function band(a, b)
  local r, bit = 0, 1
  while a > 0 and b > 0 do
    if a % 2 == 1 and b % 2 == 1 then r = r + bit end
    a, b, bit = (a - a % 2) / 2, (b - b % 2) / 2, bit * 2
  end
  return r
end

-- ---- calling the module ----------------------------------------------------------------------

local function pack(...) return { n = select('#', ...), ... } end

-- Callers compiled once per function name, so that each call site names the function as a game's
-- code would (o:queryRect(...), collide2d.circle(...)) and errors read "bad argument #k to
-- 'queryRect'"; the call is not a tail call, which would lose the name.
local callers = {}
local function caller(sep, name)
  local f = callers[sep .. name]
  if f == nil then
    local src = 'local pack = ... return function(o, ...) return pack(o' .. sep .. name .. '(...)) end'
    f = assert(compile(src, '=' .. name))(pack)
    callers[sep .. name] = f
  end
  return f
end

-- method(o, 'name', ...) calls o:name(...); fn('name', ...) calls collide2d.name(...); both return
-- the results packed.
local function method(o, name, ...) return caller(':', name)(o, ...) end
local function fn(name, ...) return caller('.', name)(collide2d, ...) end

-- pcall that lets a failed check through.
local function try(f, ...)
  local ok, r = pcall(f, ...)
  if not ok and is_failure(r) then error(r, 0) end
  return ok, r
end

-- Calls f and returns its packed results; an error is a failure.
local function must(label, f, ...)
  local ok, r = try(f, ...)
  if not ok then fail('%s raised %s', label, r) end
  return r
end

-- Calls f and checks that it raises exactly msg.
local function must_raise(label, msg, f, ...)
  local ok, r = try(f, ...)
  count('documented errors')
  check(not ok, '%s returned instead of raising %s', label, msg)
  check(strip(r) == msg, '%s raised %s, expected %s', label, r, msg)
end

-- Calls f and checks that it raises the standard "bad argument #k to 'name' (...)".
local function must_raise_arg(label, k, name, f, ...)
  local ok, r = try(f, ...)
  local prefix = "bad argument #" .. k .. " to '" .. name .. "' ("
  count('bad arguments refused')
  check(not ok, '%s returned instead of raising %s...)', label, prefix)
  local s = strip(r)
  check(type(s) == 'string' and s:sub(1, #prefix) == prefix and s:sub(-1) == ')',
    '%s raised %s, expected %s...)', label, r, prefix)
end

-- An object that runs f when the collector finalizes it: a table in Lua 5.4, a newproxy userdata in
-- 5.1 and LuaJIT. Dropped at once, it runs at some later allocation, maybe inside a module call.
local function finalizer(f)
  if newproxy then
    local p = newproxy(true)
    getmetatable(p).__gc = f
    return p
  end
  return setmetatable({}, { __gc = f })
end

-- ---- the model -------------------------------------------------------------------------------

local MSG = {
  dead_shape = 'attempt to use a destroyed shape',
  dead_set = 'attempt to use a destroyed static set',
  dead_world = 'attempt to use a destroyed world',
  pinned = 'attempt to destroy a shape that a running world query is using',
  busy = 'attempt to destroy a world from inside one of its callbacks',
  not_member = 'shape is not in this world',
  in_this = 'shape is already in this world',
  in_other = 'shape is already in another world',
}

-- The scene: every object the ops may use, and what the model knows of it.
--   shape record: { s = userdata, kind = type name, dead = bool, world = world record or nil,
--                   pos = index in S.shapes }
--   world record: { w = userdata, dead = bool, members = { [shape] = member }, list = { member },
--                   n = #list, seq = adds so far }
--   member:       { rec = shape record, value = any, seq = order of adding, category =, mask = }
--   set record:   { set = userdata, dead = bool, n = count, enabled = { bool }, edges = { count
--                   for isSeam, rectangles and polygons only }, moving = bool (a shape has a velocity) }
-- The lists keep their lengths in fields (S.nshapes, wrec.n): LuaJIT 2.1's compiler (Debian's
-- 2022 snapshot) sometimes forwards a stale #t after the swap-removes below (luajit -O-fwd cures it).
local S

local function new_scene()
  S = {
    shapes = {}, nshapes = 0, worlds = {}, sets = {},
    rec_of = setmetatable({}, { __mode = 'k' }), -- shape userdata -> its record
    graveyard = {},                              -- destroyed objects: { what =, obj = }
    active = {},                                 -- contexts of running world calls with callbacks
    busy = {},                                   -- world record -> running calls with Lua callbacks
    pinned = setmetatable({}, { __mode = 'k' }), -- shape -> running calls with callbacks reading it
    focus = nil,                                 -- the world the ops of a running callback prefer
    serial = 0,                                  -- makes values unique
  }
end

local function bury(what, obj)
  local g = S.graveyard
  g[#g + 1] = { what = what, obj = obj }
  if #g > 40 then table.remove(g, 1) end
end

local function add_shape_rec(s, kind)
  S.nshapes = S.nshapes + 1
  local rec = { s = s, kind = kind, dead = false, world = nil, pos = S.nshapes }
  S.shapes[rec.pos] = rec
  S.rec_of[s] = rec
  return rec
end

-- Takes a record out of the pool (the shape itself may live on in a world).
local function forget_shape(rec)
  local last = S.shapes[S.nshapes]
  S.shapes[rec.pos] = last
  last.pos = rec.pos
  S.shapes[S.nshapes] = nil
  S.nshapes = S.nshapes - 1
  rec.pos = nil
end

-- Marks a shape removed from a world for the running calls on that world, which must neither report
-- it nor pass it to a later callback.
local function mark_removed(wrec, s)
  for _, ctx in ipairs(S.active) do
    if ctx.world == wrec then ctx.removed[s] = true end
  end
end

local function model_join(wrec, rec, value)
  wrec.seq = wrec.seq + 1
  wrec.n = wrec.n + 1
  local m = { rec = rec, value = value, seq = wrec.seq, category = 1, mask = ALL_BITS, pos = wrec.n }
  wrec.members[rec.s] = m
  wrec.list[m.pos] = m
  rec.world = wrec
  for _, ctx in ipairs(S.active) do
    if ctx.world == wrec then ctx.changed[rec.s] = true end
  end
  return m
end

local function model_leave(rec)
  local wrec = rec.world
  if not wrec then return end
  local m = wrec.members[rec.s]
  local last = wrec.list[wrec.n]
  wrec.list[m.pos] = last
  last.pos = m.pos
  wrec.list[wrec.n] = nil
  wrec.n = wrec.n - 1
  wrec.members[rec.s] = nil
  rec.world = nil
  mark_removed(wrec, rec.s)
end

local function model_shape_dead(rec)
  model_leave(rec)
  rec.dead = true
  bury('shape', rec.s)
end

local function model_world_dead(wrec)
  while wrec.n > 0 do model_leave(wrec.list[wrec.n].rec) end
  wrec.dead = true
  bury('world', wrec.w)
end

local function live_worlds()
  local list = {}
  for _, wrec in ipairs(S.worlds) do
    if not wrec.dead then list[#list + 1] = wrec end
  end
  return list
end

local function live_sets()
  local list = {}
  for _, srec in ipairs(S.sets) do
    if not srec.dead then list[#list + 1] = srec end
  end
  return list
end

-- A new value for a world entry: tables, strings, numbers, booleans, nil, NaN, and tables that refer
-- back to their world (a cycle the collector must handle).
local function new_value(wrec)
  S.serial = S.serial + 1
  return rng.weighted({
    { 5, { id = S.serial } }, { 3, 'v' .. S.serial }, { 2, S.serial }, { 1, false }, { 1, true },
    { 1, nil }, { 0.3, NAN }, { 1, { id = S.serial, world = wrec.w } },
  })
end

-- ---- shapes of every kind --------------------------------------------------------------------

local KINDS = { 'circle', 'rectangle', 'polygon', 'hull', 'capsule', 'segment', 'chain', 'concave' }
local TYPE_OF = { hull = 'polygon' }   -- the type a constructor's shapes report, where it differs
local CONVEX = { circle = true, rectangle = true, polygon = true, capsule = true, segment = true }

-- A place in the arena, now and then far away (where doubles are coarse).
local function random_place()
  if rng.chance(0.03) then return rng.range(-1, 1) * 10 ^ rng.int(6, 12), rng.range(-1, 1) * 10 ^ rng.int(6, 12) end
  return rng.range(-10, 110), rng.range(-10, 110)
end

local function random_size()
  return rng.weighted({ { 90, rng.range(0.5, 12) }, { 5, rng.range(1e-3, 0.5) }, { 5, rng.range(12, 200) } })
end

-- n points in counter-clockwise order on a circle: a convex polygon.
local function convex_points(cx, cy, r, n)
  local pts, a, step = {}, rng.range(0, 2 * math.pi), 2 * math.pi / n
  for i = 1, n do
    local t = a + (i - 1) * step + rng.range(0, 0.5 * step)
    pts[#pts + 1] = cx + r * math.cos(t)
    pts[#pts + 1] = cy + r * math.sin(t)
  end
  return pts
end

-- A star: points alternately on two circles, simple and concave.
local function star_points(cx, cy, r, spikes)
  local pts, a = {}, rng.range(0, 2 * math.pi)
  for i = 1, 2 * spikes do
    local t, ri = a + (i - 1) * math.pi / spikes, (i % 2 == 1) and r or 0.45 * r
    pts[#pts + 1] = cx + ri * math.cos(t)
    pts[#pts + 1] = cy + ri * math.sin(t)
  end
  return pts
end

-- The arguments of a valid constructor call for kind, centred near (cx, cy), about size across.
local function constructor_args(kind, cx, cy, size)
  local h = size / 2
  if kind == 'circle' then return pack(cx, cy, h) end
  if kind == 'rectangle' then
    if rng.chance(0.5) then return pack(cx - h, cy - h / 2, size, size * rng.range(0.1, 1.5)) end
    return pack(cx - h, cy - h / 2, size, size * rng.range(0.1, 1.5), rng.range(-7, 7))
  end
  if kind == 'polygon' then
    local pts = convex_points(cx, cy, h, rng.int(3, 8))
    if rng.chance(0.5) then return pack(pts) end
    return pack(unpack(pts))
  end
  if kind == 'hull' then
    local pts = {}
    for _ = 1, rng.int(3, 10) do
      pts[#pts + 1] = cx + rng.range(-h, h)
      pts[#pts + 1] = cy + rng.range(-h, h)
    end
    return pack(pts)
  end
  if kind == 'capsule' then
    local a = rng.range(0, 2 * math.pi)
    return pack(cx - h * math.cos(a), cy - h * math.sin(a), cx + h * math.cos(a), cy + h * math.sin(a), h * rng.range(0.05, 0.5))
  end
  if kind == 'segment' then
    local a = rng.range(0, 2 * math.pi)
    return pack(cx - h * math.cos(a), cy - h * math.sin(a), cx + h * math.cos(a), cy + h * math.sin(a))
  end
  if kind == 'chain' then
    if rng.chance(0.3) then
      return pack(convex_points(cx, cy, h, rng.int(3, 7)), { closed = true, oneSided = rng.chance(0.5) })
    end
    local pts, x, y = {}, cx - h, cy
    for _ = 1, rng.int(2, 7) do
      pts[#pts + 1], pts[#pts + 2] = x, y
      x, y = x + rng.range(0.2, 1) * h, y + rng.range(-0.5, 0.5) * h
    end
    return pack(pts, rng.chance(0.5) and { oneSided = rng.chance(0.5) } or nil)
  end
  -- concave: a star, sometimes with a square hole at its centre
  local outline = star_points(cx, cy, h, rng.int(3, 7))
  if rng.chance(0.3) then
    local q = 0.12 * h
    return pack(outline, { { cx - q, cy - q, cx + q, cy - q, cx + q, cy + q, cx - q, cy + q } })
  end
  return pack(outline)
end

-- Makes a shape of kind through its constructor, checks its type, and adds it to the pool.
local function make_shape(kind, cx, cy, size)
  if not cx then cx, cy = random_place() end
  -- Far away, a shape must stay far larger than the spacing of doubles there, or it may round flat.
  size = math.max(size or random_size(), 1e-6 * (math.abs(cx) + math.abs(cy)))
  local a = constructor_args(kind, cx, cy, size)
  local r = must('collide2d.' .. kind, fn, kind, unpack(a, 1, a.n))
  local expected = TYPE_OF[kind] or kind
  check(collide2d.type(r[1]) == expected, 'collide2d.%s made a shape of type %s', kind, collide2d.type(r[1]))
  return add_shape_rec(r[1], expected)
end

local function random_kind(convex_only)
  if convex_only then return rng.pick({ 'circle', 'rectangle', 'polygon', 'hull', 'capsule', 'segment' }) end
  return rng.pick(KINDS)
end

-- A live shape of the pool (made when there is none); convex_only for movers.
local function pick_shape(convex_only)
  for _ = 1, 8 do
    local rec = S.shapes[rng.int(1, math.max(1, S.nshapes))]
    if rec and not rec.dead and (not convex_only or CONVEX[rec.kind]) then return rec end
  end
  return make_shape(random_kind(convex_only))
end

-- ---- results ---------------------------------------------------------------------------------

-- Checks shape:vertices() or shape:part() output: a flat list of finite coordinates.
local function check_vertex_list(label, list, t, at_least)
  check(type(list) == 'table', '%s returned %s, not a table', label, list)
  if t then check(rawequal(list, t), '%s did not fill the table it was given', label) end
  local n = #list
  check(n % 2 == 0 and n >= at_least, '%s returned %s coordinates', label, n)
  for i = 1, n do check_number(list[i], label .. '[' .. i .. ']') end
end

-- What a sweep returns: nil, or t, nx, ny, px, py[, index], overlapping[, depth].
local function check_toi(label, r, with_index)
  if r.n == 1 and r[1] == nil then return end
  local k = with_index and 7 or 6
  check(r.n == k or r.n == k + 1, '%s returned %s values', label, r.n)
  check_fraction(r[1], label .. ' t')
  check_unit(r[2], r[3], label .. ' normal')
  check_number(r[4], label .. ' px')
  check_number(r[5], label .. ' py')
  check_boolean(r[k], label .. ' overlapping')
  if r[k] then
    check(r[1] == 0 and r.n == k + 1, '%s overlapping with t = %s and %s values', label, r[1], r.n)
    check_number(r[k + 1], label .. ' depth')
  else
    check(r.n == k, '%s not overlapping returned %s values', label, r.n)
  end
end

-- The member of the world for a shape a call returned, checked to be a live member that no callback
-- removed during the call.
local function check_member(ctx, s, what)
  check(collide2d.type(s) ~= nil, '%s is %s, not a shape', what, s)
  check(not ctx.removed[s], '%s is a shape removed from the world during the call', what)
  local m = ctx.world.members[s]
  check(m ~= nil, '%s is not in the world (%s)', what, collide2d.type(s))
  return m
end

-- Does the member pass the bits of a filter given as a table (or a function alone: every bit)?
local function passes_bits(m, bits)
  return band(bits.category, m.mask) ~= 0 and band(m.category, bits.mask) ~= 0
end

-- Checks that a member a call reported passed the call's filter: its bits, and the answer its filter
-- function gave (callbacks answer the same for a shape during one call).
local function check_filtered(ctx, m, what)
  if not m or ctx.changed[m.rec.s] then return end
  if ctx.bits then check(passes_bits(m, ctx.bits), '%s does not pass the filter bits', what) end
  if ctx.has_filter_fn then
    check(ctx.answers.filter[m.rec.s] ~= nil, '%s was reported without being shown to the filter', what)
    check(ctx.answers.filter[m.rec.s], '%s was reported although the filter refused it', what)
  end
end

-- queryRect, queryPoint and queryShape: items (out when given) holds n live members, each once, that
-- pass the filter, in the order they were added.
local function check_items(ctx, label, r, out)
  local items, n = r[1], r[2]
  check(r.n == 2, '%s returned %s values', label, r.n)
  check(type(items) == 'table', '%s returned %s, not a table', label, items)
  check_count(n, label .. ' n')
  if out then check(rawequal(items, out), '%s did not fill the out table', label) end
  check(#items == n, '%s: #items is %s, n is %s (queries clear out past n)', label, #items, n)
  local seen, last = {}, -1
  for k = 1, n do
    local what = label .. ' item ' .. k
    local m = check_member(ctx, items[k], what)
    check(not seen[items[k]], '%s is listed twice', what)
    seen[items[k]] = true
    if m and not ctx.changed[items[k]] then
      check(m.seq > last, '%s is out of the order of adding', what)
      last = m.seq
    end
    check_filtered(ctx, m, what)
  end
end

-- One ray hit: t in [0, maxt], a point, a unit normal.
local function check_ray_fields(label, t, x, y, nx, ny, maxt)
  check_number(t, label .. ' t')
  check(t >= 0 and t <= maxt, '%s t = %s outside [0, %s]', label, t, maxt)
  check_number(x, label .. ' x')
  check_number(y, label .. ' y')
  check_unit(nx, ny, label .. ' normal')
end

-- world:raycast: nil or shape, t, px, py, nx, ny.
local function check_ray_hit(ctx, label, r, maxt)
  if r.n == 1 and r[1] == nil then return end
  check(r.n == 6, '%s returned %s values', label, r.n)
  check_filtered(ctx, check_member(ctx, r[1], label .. ' shape'), label .. ' shape')
  check_ray_fields(label, r[2], r[3], r[4], r[5], r[6], maxt)
end

-- world:raycastAll: n records {shape, t, x, y, nx, ny} in order of t.
local function check_ray_hits(ctx, label, r, out, maxt)
  local hits, n = r[1], r[2]
  check(r.n == 2 and type(hits) == 'table', '%s returned %s values, first %s', label, r.n, hits)
  check_count(n, label .. ' n')
  if out then
    check(rawequal(hits, out), '%s did not fill the out table', label)
    check(#hits >= n, '%s: #hits %s < n %s', label, #hits, n)
  else
    check(#hits == n, '%s: #hits %s ~= n %s', label, #hits, n)
  end
  local last = 0
  for k = 1, n do
    local h, what = hits[k], label .. ' hit ' .. k
    check(type(h) == 'table', '%s is %s, not a record', what, h)
    check_filtered(ctx, check_member(ctx, h.shape, what .. ' shape'), what)
    check_ray_fields(what, h.t, h.x, h.y, h.nx, h.ny, maxt)
    check(h.t >= last, '%s: t = %s after t = %s', what, h.t, last)
    last = h.t
  end
end

-- world:pairs: n records {a, b[, nx, ny, depth]}, a added before b, ordered by a then b, each once.
local function check_pairs(wrec, label, r, out, with)
  local list, n = r[1], r[2]
  check(r.n == 2 and type(list) == 'table', '%s returned %s values, first %s', label, r.n, list)
  check_count(n, label .. ' n')
  if out then check(rawequal(list, out) and #list >= n, '%s: out not filled or #list < n', label) end
  if not out then check(#list == n, '%s: #list %s ~= n %s', label, #list, n) end
  local ctx = { world = wrec, removed = {}, changed = {} }
  local last_a, last_b = -1, -1
  for k = 1, n do
    local p, what = list[k], label .. ' pair ' .. k
    check(type(p) == 'table', '%s is %s, not a record', what, p)
    local ma, mb = check_member(ctx, p.a, what .. ' a'), check_member(ctx, p.b, what .. ' b')
    if ma and mb then
      check(ma.seq < mb.seq, '%s: a was added after b', what)
      check(ma.seq > last_a or (ma.seq == last_a and mb.seq > last_b), '%s is out of order', what)
      last_a, last_b = ma.seq, mb.seq
      check(band(ma.category, mb.mask) ~= 0 and band(mb.category, ma.mask) ~= 0, '%s: their bits do not pair', what)
    end
    check(must('overlaps', fn, 'overlaps', p.a, p.b)[1], '%s: a and b do not overlap', what)
    if with then
      check_unit(p.nx, p.ny, what .. ' normal')
      check_number(p.depth, what .. ' depth')
      check(p.depth >= 0, '%s depth %s < 0', what, p.depth)
      local c = must('collide', fn, 'collide', p.a, p.b)
      check(c[1] == p.nx and c[2] == p.ny and c[3] == p.depth, '%s: normal (%s, %s) depth %s, a:collide(b) gives (%s, %s) %s',
        what, p.nx, p.ny, p.depth, c[1], c[2], c[3])
    else
      check(p.nx == nil and p.ny == nil and p.depth == nil, '%s has contact fields left over', what)
    end
  end
end

-- A move that met nothing ends at its start plus the displacement.
local function check_free_move(label, shape, dx, dy, r)
  if r[3] ~= 0 then return end
  local p = must('position', method, shape, 'position')
  check(r[1] == p[1] + dx and r[2] == p[2] + dy, '%s met nothing but ends at (%s, %s), not (%s, %s)', label, r[1], r[2],
    p[1] + dx, p[2] + dy)
end

-- A ball's contact records: its centre lies one radius from the contact point along the normal.
local function check_ball_contacts(label, contacts, n, radius)
  if not contacts then return end
  for k = 1, n do
    local c = contacts[k]
    local ex, ey = c.x + radius * c.nx, c.y + radius * c.ny
    local tol = 1e-9 * (1 + radius + math.abs(c.x) + math.abs(c.y))
    check(math.abs(c.moverX - ex) <= tol and math.abs(c.moverY - ey) <= tol,
      '%s contact %s (t %s, pushedOut %s): the ball\'s centre (%s, %s) is not point + radius * normal (%s, %s)',
      label, k, c.t, c.pushedOut, c.moverX, c.moverY, ex, ey)
  end
end

local RESPONSES = { slide = true, touch = true, cross = true, bounce = true }

-- The contact records of a move or ball step: n records with every field, in order of t, each also
-- checked by record_check(record, what) for what its set or world says of it.
local function check_contacts(label, contacts, n, fresh, record_check)
  check_count(n, label .. ' n')
  if not contacts then return end
  if n > 64 then count(label .. ' with more than 64 contacts') end
  if fresh then
    check(#contacts == n, '%s: #contacts %s ~= n %s', label, #contacts, n)
  else
    check(#contacts >= n, '%s: #contacts %s < n %s', label, #contacts, n)
  end
  local last = 0
  for k = 1, n do
    local c, what = contacts[k], label .. ' contact ' .. k
    check(type(c) == 'table', '%s is %s, not a record', what, c)
    count('contact records')
    check_fraction(c.t, what .. ' t')
    check(c.t >= last, '%s: t = %s after t = %s', what, c.t, last)
    last = c.t
    for _, key in ipairs({ 'x', 'y', 'moverX', 'moverY', 'vx', 'vy' }) do check_number(c[key], what .. ' ' .. key) end
    check_unit(c.nx, c.ny, what .. ' normal')
    check(RESPONSES[c.response], '%s response %s', what, c.response)
    check_boolean(c.pushedOut, what .. ' pushedOut')
    record_check(c, what)
  end
end

-- ---- callbacks -------------------------------------------------------------------------------

-- A call context: what one world call with Lua callbacks may see and is expected to do.
--   world, pinned: the world and the shape the call reads (the mover, the probe), or nil
--   callbacks: the call was given a Lua function (the world is busy while it runs)
--   answers: what the callbacks answered, per role and shape (the same answer every time)
--   removed: shapes removed from the world during the call; changed: shapes added again or given
--     new bits during the call (their order and filtering are not checked)
--   failed, expect: set by the first callback that raised or answered nonsense, with what the call
--     must raise ({ value = v }, { yield = true } or { message = m })
--   cross_bias, accept, first_action, action_rate: how often responses answer "cross" and filters
--     accept, what the first callback does, how often any does something besides answering, or
--     answers nonsense (a corridor wants long calm runs)
local function new_ctx(wrec, pinned)
  return {
    world = wrec, pinned = pinned, callbacks = false, answers = { filter = {}, response = {} },
    removed = {}, changed = {}, failed = false, expect = nil, calls = 0, in_co = rng.chance(0.3),
    cross_bias = 0, accept = 0.8, first_action = nil, action_rate = 1,
  }
end

local run_nested_op   -- defined with the ops: runs a random op from inside a callback

-- What a callback does besides answering, now and then: raise, yield, collect garbage, destroy what
-- the call reads, or run any op at all (which adds, removes, re-values, updates, destroys, queries).
local ACTIONS = {}

function ACTIONS.raise(ctx)
  local token = rng.chance(0.5) and ('callback error ' .. run.op) or { callback_error = run.op }
  ctx.failed, ctx.expect = true, { value = token }
  note('callback raises %s', token)
  error(token, 0)
end

function ACTIONS.yield(ctx)
  ctx.failed, ctx.expect = true, { yield = true }
  note('callback yields')
  coroutine.yield('from a callback')
  fail('coroutine.yield inside a callback returned')
end

function ACTIONS.yield_caught(ctx)
  note('callback yields under pcall')
  local ok, err = pcall(coroutine.yield, 'from a callback')
  check(not ok and type(err) == 'string' and err:find('yield'), 'a yield inside a callback gave %s, %s', ok, err)
end

function ACTIONS.collect(ctx)
  note('callback collects garbage')
  if rng.chance(0.5) then collectgarbage('collect') else collectgarbage('step', 100) end
end

-- Adds many shapes where the call is looking (in reach of a move): the call meets more than before.
function ACTIONS.crowd(ctx)
  local wrec, box = ctx.world, ctx.region
  if wrec.dead or not box then return end
  local count = rng.int(10, 40)
  note('callback adds %s shapes in reach', count)
  for _ = 1, count do
    local rec = make_shape(random_kind(), rng.range(box[1], box[3]), rng.range(box[2], box[4]), rng.range(0.3, 3))
    local value = new_value(wrec)
    must('world:add', method, wrec.w, 'add', rec.s, value)
    model_join(wrec, rec, value)
  end
end

function ACTIONS.destroy_pinned(ctx)
  if not ctx.pinned then return end
  note('callback destroys the shape the call reads')
  must_raise('shape:destroy() of the shape a running call reads', MSG.pinned, method, ctx.pinned, 'destroy')
  must('__gc of the shape a running call reads', getmetatable(ctx.pinned).__gc, ctx.pinned)
  check(collide2d.type(ctx.pinned) == S.rec_of[ctx.pinned].kind, 'a direct __gc freed a shape a running call reads')
end

function ACTIONS.destroy_world(ctx)
  local wrec = ctx.world
  if wrec.dead then return end
  note('callback destroys its own world')
  must_raise('world:destroy() from its own callback', MSG.busy, method, wrec.w, 'destroy')
  must('__gc of a busy world', getmetatable(wrec.w).__gc, wrec.w)
  local r = must('world:count() after a refused destroy', method, wrec.w, 'count')
  check(r[1] == wrec.n, 'world:count() is %s, the model has %s', r[1], wrec.n)
end

function ACTIONS.move_pinned(ctx)
  if not ctx.pinned then return end
  note('callback moves the shape the call reads')
  if ctx.world then ctx.world.stale = true end
  must('shape:move of the shape a running call reads', method, ctx.pinned, 'move', rng.range(-1, 1), rng.range(-1, 1))
end

function ACTIONS.op()
  run_nested_op()   -- its world ops prefer the call's world (S.focus)
end

local ACTION_MIX = {
  { 70, false }, { 3, 'raise' }, { 1.5, 'yield' }, { 1, 'yield_caught' }, { 2, 'collect' },
  { 1, 'crowd' }, { 1, 'destroy_pinned' }, { 1, 'destroy_world' }, { 0.5, 'move_pinned' }, { 14, 'op' },
}

-- The answer of a callback for a shape: the same for the same shape during one call.
local function answer(ctx, role, s)
  local memo = ctx.answers[role]
  if memo[s] ~= nil then return memo[s] end
  local a
  if role == 'filter' then
    a = rng.chance(ctx.accept)
  elseif rng.chance(ctx.cross_bias) then
    a = 'cross'
  else
    a = rng.weighted({ { 3, 'cross' }, { 2, 'slide' }, { 1, 'touch' }, { 1, 'bounce' }, { 1, 'ignore' }, { 1, false } })
  end
  memo[s] = a
  return a
end

-- A filter answers true or false as they are, sometimes as other truthy or falsy values; a response
-- answers a string, nil for false, and now and then something invalid, which fails the call.
local function answer_value(ctx, role, a)
  if role == 'filter' then
    if a then return rng.pick({ true, 1, 'yes', ctx }) end
    return rng.chance(0.5) and false or nil
  end
  if a == false then return nil end
  if rng.chance(0.004 * ctx.action_rate) then
    local bad = rng.pick({ 'jump', 5, true })
    ctx.failed = true
    if type(bad) == 'string' then
      ctx.expect = { message = "invalid response '" .. bad .. "' from the response function" }
    else
      ctx.expect = { message = 'invalid response from the response function (string or nil expected, got ' .. type(bad) .. ')' }
    end
    note('response answers %s', bad)
    return bad
  end
  return a
end

-- The body of every callback: checks what it was given, acts, answers.
local function callback_body(ctx, role, s, value)
  check(not ctx.failed, 'a %s callback ran after an earlier callback of the call failed', role)
  ctx.calls = ctx.calls + 1
  count(role .. ' callbacks')
  local m = check_member(ctx, s, role .. ' callback argument')
  if m then
    check(same(value, m.value), '%s callback got value %s, the entry has %s', role, value, m.value)
    if role == 'filter' and not ctx.changed[s] then
      check(passes_bits(m, ctx.bits), 'the filter function saw a shape its bits exclude')
    end
  end
  local action = rng.chance(ctx.action_rate) and rng.weighted(ACTION_MIX)
  if ctx.calls == 1 and ctx.first_action then action = ctx.first_action end
  if action and run.depth < MAX_DEPTH then
    count('callback action ' .. action)
    run.depth = run.depth + 1
    local saved = S.focus
    S.focus = ctx.world
    local ok, err = pcall(ACTIONS[action], ctx)
    S.focus = saved
    run.depth = run.depth - 1
    if not ok then error(err, 0) end
  end
  return answer_value(ctx, role, answer(ctx, role, s))
end

local function callback(ctx, role)
  ctx.callbacks = true
  if role == 'filter' then ctx.has_filter_fn = true end
  return function(s, value) return callback_body(ctx, role, s, value) end
end

-- Lua callbacks only above the nesting limit (deeper calls get strings and bits).
local function callbacks_allowed() return run.depth < MAX_DEPTH end

-- A filter: nil, a function, or a table of bits with or without a function. Records in ctx what it
-- lets through.
local BITS = { 0, 1, 2, 3, 6, 0x80000000, ALL_BITS }
local function make_filter(ctx)
  local r = rng.float()
  if r < 0.3 then return nil end
  ctx.bits = { category = ALL_BITS, mask = ALL_BITS }
  if r < 0.65 and callbacks_allowed() then return callback(ctx, 'filter') end
  local t = {}
  if rng.chance(0.5) then t.category = rng.pick(BITS); ctx.bits.category = t.category end
  if rng.chance(0.5) then t.mask = rng.pick(BITS); ctx.bits.mask = t.mask end
  if rng.chance(0.5) and callbacks_allowed() then t.fn = callback(ctx, 'filter') end
  return t
end

-- Move options for a world call: a response function or string, restitution, friction.
local function make_world_opts(ctx, default)
  ctx.response = default
  if rng.chance(0.2) then return nil end
  local o = {}
  if rng.chance(0.6) and callbacks_allowed() then
    o.response = callback(ctx, 'response')
    ctx.response = nil
  elseif rng.chance(0.5) then
    o.response = rng.pick({ 'slide', 'touch', 'cross', 'bounce' })
    ctx.response = o.response
  end
  if rng.chance(0.3) then o.restitution = rng.range(0, 1) end
  if rng.chance(0.3) then o.friction = rng.range(0, 2) end
  ctx.plain_bounce = (o.restitution or 1) == 1 and (o.friction or 0) == 0
  return o
end

-- The response a world contact record must carry, or false when its shape must not be reported.
local function world_response(ctx, s)
  if ctx.changed[s] then return nil end
  if ctx.has_filter_fn and not ctx.answers.filter[s] then return false end
  if ctx.response then return ctx.response end
  local a = ctx.answers.response[s]
  if a == nil then return false end          -- never asked: it cannot have been met
  if a == false or a == 'ignore' then return false end
  return a
end

-- Runs a coroutine around call, so that a callback's yield has somewhere to go: the call must finish
-- inside, after which the coroutine yields once more and ends, as any coroutine would.
local function in_coroutine(call)
  local co = coroutine.create(function()
    local r = pack(pcall(call))
    coroutine.yield('after the call')
    return r
  end)
  local ok, v = coroutine.resume(co)
  if not ok then fail('a coroutine running a world call died: %s', v) end
  if v ~= 'after the call' then
    while coroutine.status(co) == 'suspended' do coroutine.resume(co) end
    fail('a yield inside a callback left the world call (it gave %s)', v)
  end
  local ok2, r = coroutine.resume(co)
  check(ok2 and coroutine.status(co) == 'dead', 'the coroutine could not go on after the call: %s', r)
  return r[1], r[2]
end

-- Runs call() (a world call given the callbacks of ctx) as the model expects it to run: the world
-- busy and the shape it reads pinned while it runs (when it has Lua callbacks), inside a coroutine
-- when ctx.in_co. Returns the results packed when the call succeeds as expected, or nil when it
-- raised as expected (the error a callback raised, or a yield's, or the bad response's).
local function run_call(ctx, label, call)
  local wrec, p = ctx.world, ctx.pinned
  if ctx.callbacks then
    S.busy[wrec] = (S.busy[wrec] or 0) + 1
    if p then S.pinned[p] = (S.pinned[p] or 0) + 1 end
  end
  S.active[#S.active + 1] = ctx
  local done, ok, r = pcall(ctx.in_co and in_coroutine or pcall, call)
  S.active[#S.active] = nil
  if ctx.callbacks then
    S.busy[wrec] = S.busy[wrec] - 1
    if p then S.pinned[p] = S.pinned[p] - 1 end
  end
  if not done then error(ok, 0) end
  if not ok and is_failure(r) then error(r, 0) end
  local e = ctx.expect
  if not e then
    if not ok then fail('%s raised %s', label, r) end
    return r
  end
  check(not ok, '%s returned although a callback failed', label)
  count(e.value ~= nil and 'callback errors raised again' or e.yield and 'yields refused' or 'bad responses refused')
  if e.value ~= nil then
    check(rawequal(r, e.value), '%s raised %s, not the callback\'s error %s', label, r, e.value)
  elseif e.yield then
    check(type(r) == 'string' and r:find('yield'), '%s raised %s after a yield in a callback', label, r)
  else
    check(strip(r) == e.message, '%s raised %s, expected %s', label, r, e.message)
  end
  return nil
end

-- ---- model helpers that call the module ------------------------------------------------------

-- Checks the world against the model: its count always, every member now and then.
local function check_world(wrec, thorough)
  if wrec.dead then return end
  local r = must('world:count()', method, wrec.w, 'count')
  check(r[1] == wrec.n, 'world:count() is %s, the model has %s', r[1], wrec.n)
  if not thorough then return end
  for _, m in ipairs(wrec.list) do
    local s = m.rec.s
    check(must('world:has()', method, wrec.w, 'has', s)[1] == true, 'world:has() denies a member')
    local v = must('world:value()', method, wrec.w, 'value', s)[1]
    check(same(v, m.value), 'world:value() is %s, the model has %s', v, m.value)
    check(rawequal(must('shape:world()', method, s, 'world')[1], wrec.w), 'shape:world() does not name its world')
    local b = must('world:bits()', method, wrec.w, 'bits', s)
    check(b[1] == m.category and b[2] == m.mask, 'world:bits() is %s, %s; the model has %s, %s', b[1], b[2], m.category, m.mask)
  end
end

-- shape:destroy(), refused for a shape a running call reads.
local function destroy_shape(rec)
  if (S.pinned[rec.s] or 0) > 0 then
    must_raise('shape:destroy() of a pinned shape', MSG.pinned, method, rec.s, 'destroy')
    return
  end
  must('shape:destroy()', method, rec.s, 'destroy')
  model_shape_dead(rec)
  check(collide2d.type(rec.s) == 'destroyed shape', 'a destroyed shape has type %s', collide2d.type(rec.s))
end

-- world:destroy(), refused from inside one of its callbacks.
local function destroy_world(wrec)
  if (S.busy[wrec] or 0) > 0 then
    must_raise('world:destroy() of a busy world', MSG.busy, method, wrec.w, 'destroy')
    return
  end
  local members = {}
  for _, m in ipairs(wrec.list) do members[#members + 1] = m.rec.s end
  must('world:destroy()', method, wrec.w, 'destroy')
  model_world_dead(wrec)
  for _, s in ipairs(members) do
    if collide2d.type(s) ~= 'destroyed shape' then
      check(must('shape:world()', method, s, 'world')[1] == nil, 'a shape of a destroyed world still names it')
    end
  end
end

local function new_world()
  local opts
  if rng.chance(0.3) then opts = { margin = rng.range(0, 2), relativeMargin = rng.range(0, 0.5) } end
  local wrec = { w = must('collide2d.world', fn, 'world', opts)[1], dead = false, members = {}, list = {}, n = 0, seq = 0 }
  S.worlds[#S.worlds + 1] = wrec
  return wrec
end

-- A live world: the focus of a running callback mostly, else any (made when there is none).
local function pick_world()
  if S.focus and not S.focus.dead and rng.chance(0.7) then return S.focus end
  local list = live_worlds()
  if #list == 0 or rng.chance(0.02) then return new_world() end
  return rng.pick(list)
end

-- world:add(shape, value) with the error the model expects.
local function world_add(wrec, rec, value)
  local label = 'world:add'
  if rec.dead then return must_raise(label, MSG.dead_shape, method, wrec.w, 'add', rec.s, value) end
  if rec.world == wrec then return must_raise(label, MSG.in_this, method, wrec.w, 'add', rec.s, value) end
  if rec.world then return must_raise(label, MSG.in_other, method, wrec.w, 'add', rec.s, value) end
  local r = must(label, method, wrec.w, 'add', rec.s, value)
  check(rawequal(r[1], rec.s), 'world:add returned %s, not the shape', r[1])
  model_join(wrec, rec, value)
end

-- world:remove(shape) with the error the model expects.
local function world_remove(wrec, rec)
  if rec.dead then return must_raise('world:remove', MSG.dead_shape, method, wrec.w, 'remove', rec.s) end
  if rec.world ~= wrec then return must_raise('world:remove', MSG.not_member, method, wrec.w, 'remove', rec.s) end
  must('world:remove', method, wrec.w, 'remove', rec.s)
  model_leave(rec)
  check(must('world:has', method, wrec.w, 'has', rec.s)[1] == false, 'world:has() after remove')
end

-- A random member of the world, or nil.
local function pick_member(wrec)
  if wrec.n == 0 then return nil end
  return wrec.list[rng.int(1, wrec.n)]
end

-- ---- ops: shapes -----------------------------------------------------------------------------

local OPS = {}

-- Makes a shape of any kind (and checks what every getter says about it).
function OPS.new_shape()
  local kind = random_kind()
  note('new %s', kind)
  make_shape(kind)
end

-- shape:clone(): a new shape of the same type at the same place.
function OPS.clone()
  local rec = pick_shape()
  note('clone a %s', rec.kind)
  local c = must('shape:clone', method, rec.s, 'clone')[1]
  check(collide2d.type(c) == rec.kind, 'a clone of a %s is a %s', rec.kind, collide2d.type(c))
  local a, b = must('position', method, rec.s, 'position'), must('position', method, c, 'position')
  check(a[1] == b[1] and a[2] == b[2], 'a clone stands at (%s, %s), not (%s, %s)', b[1], b[2], a[1], a[2])
  add_shape_rec(c, rec.kind)
end

-- Every getter of a shape: finite numbers, a radius only for round kinds, a box around the
-- vertices, parts and their vertex lists, its type and name.
function OPS.inspect()
  local rec = pick_shape()
  local s = rec.s
  note('inspect a %s', rec.kind)
  local p = must('position', method, s, 'position')
  check(p.n == 2, 'position returned %s values', p.n)
  check_number(p[1], 'position x')
  check_number(p[2], 'position y')
  check_number(must('angle', method, s, 'angle')[1], 'angle')
  local radius = must('radius', method, s, 'radius')[1]
  check_number(radius, 'radius')
  if rec.kind == 'circle' or rec.kind == 'capsule' then
    check(radius > 0, 'a %s has radius %s', rec.kind, radius)
  else
    check(radius == 0, 'a %s has radius %s', rec.kind, radius)
  end
  local b = must('bbox', method, s, 'bbox')
  for i = 1, 4 do check_number(b[i], 'bbox ' .. i) end
  check(b[1] <= b[3] and b[2] <= b[4], 'bbox (%s, %s, %s, %s) is inside out', b[1], b[2], b[3], b[4])
  local t = rng.chance(0.5) and { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 'x' } or nil
  check_vertex_list('vertices', must('vertices', method, s, 'vertices', t)[1], t, 2)
  local parts = must('parts', method, s, 'parts')[1]
  check(integer(parts) and parts >= 1, 'parts() is %s', parts)
  if CONVEX[rec.kind] then check(parts == 1, 'a %s has %s parts', rec.kind, parts) end
  local k = rng.int(1, parts)
  check_vertex_list('part ' .. k, must('part', method, s, 'part', k, t)[1], t, 2)
  check(fn('type', s)[1] == rec.kind, 'type() is %s, not %s', fn('type', s)[1], rec.kind)
  check(tostring(s):find('^collide2d%.shape %(' .. rec.kind) ~= nil, 'tostring gives %s', tostring(s))
end

-- The transforms return the shape; setPosition and setTransform place it where asked (to rounding).
function OPS.transform()
  local rec = pick_shape()
  local s = rec.s
  local x, y = random_place()
  local which = rng.pick({ 'move', 'rotate', 'setPosition', 'setAngle', 'setTransform' })
  note('%s a %s', which, rec.kind)
  local r
  if which == 'move' then r = must('move', method, s, 'move', rng.range(-5, 5), rng.range(-5, 5))
  elseif which == 'rotate' then r = must('rotate', method, s, 'rotate', rng.range(-4, 4))
  elseif which == 'setPosition' then r = must('setPosition', method, s, 'setPosition', x, y)
  elseif which == 'setAngle' then r = must('setAngle', method, s, 'setAngle', rng.range(-7, 7))
  else r = must('setTransform', method, s, 'setTransform', x, y, rng.range(-7, 7)) end
  check(rawequal(r[1], s), '%s returned %s, not the shape', which, r[1])
  if which == 'setPosition' or which == 'setTransform' then
    local p = must('position', method, s, 'position')
    local tol = 1e-9 * (1 + math.abs(x) + math.abs(y))
    check(math.abs(p[1] - x) <= tol and math.abs(p[2] - y) <= tol, '%s to (%s, %s) gave (%s, %s)', which, x, y, p[1], p[2])
  end
  if rec.world and rng.chance(0.7) then must('world:update', method, rec.world.w, 'update', s)
  elseif rec.world then rec.world.stale = true end
end

-- Pair queries between any two shapes: overlaps is a boolean that agrees with collide; collide gives
-- nil or a unit normal, a depth >= 0 and one or two points; distance a signed distance with closest
-- points and a normal; sweep nil or a time of impact in [0, 1].
function OPS.pair()
  local a, b = pick_shape(), pick_shape()
  note('pair queries %s, %s', a.kind, b.kind)
  local over = must('overlaps', fn, 'overlaps', a.s, b.s)
  check_boolean(over[1], 'overlaps')
  local c = must('collide', fn, 'collide', a.s, b.s)
  if c[1] == nil then
    check(c.n == 1, 'collide returned nil and %s values', c.n)
  else
    check(c.n == 5 or c.n == 7, 'collide returned %s values', c.n)
    check_unit(c[1], c[2], 'collide normal')
    check_number(c[3], 'collide depth')
    check(c[3] >= 0, 'collide depth %s < 0', c[3])
    for i = 4, c.n do check_number(c[i], 'collide point coordinate ' .. (i - 3)) end
  end
  check(over[1] == (c[1] ~= nil), 'overlaps says %s, collide says %s', over[1], c[1] ~= nil)
  local d = must('distance', fn, 'distance', a.s, b.s)
  check(d.n == 7, 'distance returned %s values', d.n)
  for i = 1, 5 do check_number(d[i], 'distance value ' .. i) end
  check_unit(d[6], d[7], 'distance normal')
  if math.abs(d[1]) > 1e-9 * (1 + math.abs(d[2]) + math.abs(d[3])) then
    check((d[1] < 0) == over[1], 'distance %s, but overlaps says %s', d[1], over[1])
  end
  if CONVEX[a.kind] or rng.chance(0.3) then
    local r = must('sweep', fn, 'sweep', a.s, rng.range(-20, 20), rng.range(-20, 20), b.s, rng.range(-5, 5), rng.range(-5, 5))
    check_toi('sweep', r, false)
  end
end

-- Point queries: contains a boolean, closest a point and signed distance, raycast nil or a hit with
-- t within [0, maxt] and a unit normal.
function OPS.point()
  local rec = pick_shape()
  local b = must('bbox', method, rec.s, 'bbox')
  local x, y = rng.range(b[1] - 2, b[3] + 2), rng.range(b[2] - 2, b[4] + 2)
  note('point queries on a %s at (%s, %s)', rec.kind, x, y)
  check_boolean(must('contains', method, rec.s, 'contains', x, y)[1], 'contains')
  local c = must('closest', method, rec.s, 'closest', x, y)
  check(c.n == 3, 'closest returned %s values', c.n)
  for i = 1, 3 do check_number(c[i], 'closest value ' .. i) end
  local maxt = rng.chance(0.5) and rng.range(0, 50) or nil
  local dx, dy = rng.range(-1, 1), rng.range(-1, 1)
  if dx == 0 and dy == 0 then dx = 1 end
  local r = must('raycast', method, rec.s, 'raycast', x, y, dx, dy, maxt)
  if r[1] ~= nil then
    check(r.n == 5, 'raycast returned %s values', r.n)
    check_ray_fields('raycast', r[1], r[2], r[3], r[4], r[5], maxt or huge)
  end
end

-- shape:destroy() of any shape, in a world or not (refused for a shape a running call reads), twice.
function OPS.destroy_shape()
  local rec = pick_shape()
  note('destroy a %s%s', rec.kind, rec.world and ' in a world' or '')
  destroy_shape(rec)
  if rec.dead then must('a second shape:destroy()', method, rec.s, 'destroy') end
end

-- Drops a shape that is in no world for the collector (its __gc frees it at some later point).
function OPS.drop_shape()
  local rec = S.shapes[rng.int(1, math.max(1, S.nshapes))]
  if not rec or rec.world then return end
  note('drop a %s', rec.kind)
  forget_shape(rec)
end

-- ---- ops: static sets ------------------------------------------------------------------------

-- The edges a set's shape has for isSeam: its vertices for polygons; other kinds are not checked.
local function edge_count(rec)
  if rec.kind ~= 'rectangle' and rec.kind ~= 'polygon' then return nil end
  return #must('vertices', method, rec.s, 'vertices')[1] / 2
end

-- A set of shapes from the pool, or a row of tiles (with seams), with random options.
function OPS.new_set()
  local list, recs = {}, {}
  if rng.chance(0.4) then
    local x, y = random_place()
    local w = rng.range(0.5, 5)
    for i = 1, rng.int(2, 80) do
      local s = must('collide2d.rectangle', fn, 'rectangle', x + (i - 1) * w, y, w, w)[1]
      recs[i] = add_shape_rec(s, 'rectangle')
      list[i] = s
    end
  else
    for i = 1, rng.int(0, 12) do
      recs[i] = pick_shape()
      list[i] = recs[i].s
    end
  end
  local opts
  if rng.chance(0.3) then opts = { seamTolerance = rng.range(1e-9, 0.1), autoSeams = rng.chance(0.7) } end
  note('new static set of %s shapes', #list)
  local set = must('collide2d.staticset', fn, 'staticset', list, opts)[1]
  local srec = { set = set, dead = false, n = #list, enabled = {}, edges = {}, moving = false }
  for i, rec in ipairs(recs) do
    srec.enabled[i] = true
    srec.edges[i] = edge_count(rec)
  end
  check(must('set:count', method, set, 'count')[1] == #list, 'set:count() is not the number of shapes')
  S.sets[#S.sets + 1] = srec
end

local function pick_set()
  local list = live_sets()
  if #list == 0 then
    OPS.new_set()
    list = live_sets()
  end
  return rng.pick(list)
end

-- Changes one shape of a set and reads the change back: enabled, transform, velocity, one-way,
-- neighbours.
function OPS.set_edit()
  local srec = pick_set()
  if srec.n == 0 then return end
  local set, i = srec.set, rng.int(1, srec.n)
  local which = rng.pick({ 'setEnabled', 'setTransform', 'setVelocity', 'setOneWay', 'markNeighbours' })
  note('set:%s(%s) of %s', which, i, srec.n)
  if which == 'setEnabled' then
    local on = rng.chance(0.6)
    must('set:setEnabled', method, set, 'setEnabled', i, on)
    srec.enabled[i] = on
    check(must('set:isEnabled', method, set, 'isEnabled', i)[1] == on, 'set:isEnabled() after setEnabled')
  elseif which == 'setTransform' then
    local x, y = random_place()
    local a = rng.chance(0.5) and rng.range(-7, 7) or nil
    must('set:setTransform', method, set, 'setTransform', i, x, y, a)
    local t = must('set:transform', method, set, 'transform', i)
    local tol = 1e-9 * (1 + math.abs(x) + math.abs(y))
    check(math.abs(t[1] - x) <= tol and math.abs(t[2] - y) <= tol, 'set:transform() gives (%s, %s) after (%s, %s)', t[1], t[2], x, y)
    check_number(t[3], 'set:transform() angle')
    if a then check(t[3] == a, 'set:transform() angle %s after %s', t[3], a) end
  elseif which == 'setVelocity' then
    local vx, vy = rng.range(-30, 30), rng.range(-30, 30)
    must('set:setVelocity', method, set, 'setVelocity', i, vx, vy)
    srec.moving = true
    local v = must('set:velocity', method, set, 'velocity', i)
    check(v[1] == vx and v[2] == vy, 'set:velocity() is (%s, %s) after (%s, %s)', v[1], v[2], vx, vy)
  elseif which == 'setOneWay' then
    if rng.chance(0.3) then
      must('set:setOneWay', method, set, 'setOneWay', i)
      check(must('set:oneWay', method, set, 'oneWay', i)[1] == nil, 'set:oneWay() after making it solid')
    else
      local dx, dy = rng.range(-3, 3), rng.range(-3, 3)
      must('set:setOneWay', method, set, 'setOneWay', i, dx, dy)
      local d = must('set:oneWay', method, set, 'oneWay', i)
      if d[1] ~= nil then
        check_unit(d[1], d[2], 'set:oneWay()')
        check(d[1] * dx + d[2] * dy > 0, 'set:oneWay() points away from the direction given')
      end
    end
  elseif srec.n >= 2 then
    local j = rng.int(1, srec.n - 1)
    if j >= i then j = j + 1 end
    must('set:markNeighbours', method, set, 'markNeighbours', i, j, rng.range(1e-6, 1))
  end
end

-- Reads every property of one shape of a set: count, enabled, seams, transform, velocity, one-way.
function OPS.set_read()
  local srec = pick_set()
  local set = srec.set
  note('set reads of %s', srec.n)
  check(must('set:count', method, set, 'count')[1] == srec.n, 'set:count()')
  check(tostring(set):find('^collide2d%.staticset %(' .. srec.n .. ' shapes') ~= nil, 'tostring(set) gives %s', tostring(set))
  if srec.n == 0 then return end
  local i = rng.int(1, srec.n)
  check(must('set:isEnabled', method, set, 'isEnabled', i)[1] == srec.enabled[i], 'set:isEnabled(%s)', i)
  if srec.edges[i] then
    local e = rng.int(1, srec.edges[i])
    check_boolean(must('set:isSeam', method, set, 'isSeam', i, e)[1], 'set:isSeam')
    must_raise_arg('set:isSeam past the last edge', 2, 'isSeam', method, set, 'isSeam', i, srec.edges[i] + 1)
  end
  local t = must('set:transform', method, set, 'transform', i)
  for k = 1, 3 do check_number(t[k], 'set:transform() value ' .. k) end
  local v = must('set:velocity', method, set, 'velocity', i)
  check_number(v[1], 'set:velocity() x')
  check_number(v[2], 'set:velocity() y')
  local d = must('set:oneWay', method, set, 'oneWay', i)
  if d[1] ~= nil then check_unit(d[1], d[2], 'set:oneWay()') end
end

-- set:sweep and set:pushOut with a convex shape: a time of impact naming an enabled shape, a finite push.
function OPS.set_sweep()
  local srec, rec = pick_set(), pick_shape(true)
  note('set:sweep and set:pushOut of a %s', rec.kind)
  local r = must('set:sweep', method, srec.set, 'sweep', rec.s, rng.range(-30, 30), rng.range(-30, 30))
  check_toi('set:sweep', r, true)
  if r[1] ~= nil then
    check(integer(r[6]) and r[6] >= 1 and r[6] <= srec.n, 'set:sweep index %s of %s', r[6], srec.n)
    check(srec.enabled[r[6]], 'set:sweep hit the disabled shape %s', r[6])
  end
  local p = must('set:pushOut', method, srec.set, 'pushOut', rec.s)
  check(p.n == 2, 'set:pushOut returned %s values', p.n)
  check_number(p[1], 'set:pushOut dx')
  check_number(p[2], 'set:pushOut dy')
end

-- Options for a set's move or ball step, and the response each index's records must carry (false:
-- not to be reported).
local function make_set_opts(srec, default)
  local expected = {}
  for i = 1, srec.n do expected[i] = srec.enabled[i] and default or false end
  if rng.chance(0.3) then return nil, expected end
  local o = {}
  if rng.chance(0.5) then
    o.response = rng.pick({ 'slide', 'touch', 'cross', 'bounce' })
    for i = 1, srec.n do if expected[i] then expected[i] = o.response end end
  end
  if srec.n > 0 and rng.chance(0.4) then
    o.responses = {}
    for _ = 1, rng.int(1, 4) do
      local i = rng.int(1, srec.n)
      o.responses[i] = rng.pick({ 'slide', 'touch', 'cross', 'bounce', 'ignore' })
      if srec.enabled[i] then expected[i] = o.responses[i] ~= 'ignore' and o.responses[i] end
    end
  end
  if rng.chance(0.3) then o.restitution = rng.range(0, 1) end
  if rng.chance(0.3) then o.friction = rng.range(0, 2) end
  return o, expected
end

-- A contacts table: nil, a fresh one, or one with old records and junk to be filled again.
local function contacts_table()
  local r = rng.float()
  if r < 0.2 then return nil, false end
  if r < 0.6 then return {}, true end
  local t = {}
  for k = 1, rng.int(1, 100) do t[k] = rng.chance(0.8) and { t = -1, junk = true } or 'junk' end
  return t, false
end

-- The check of a set's contact record: an index of the set, with the response its options give.
local function set_record_check(srec, expected)
  return function(c, what)
    check(integer(c.index) and c.index >= 1 and c.index <= srec.n, '%s index %s of %s', what, c.index, srec.n)
    local e = expected[c.index]
    check(e ~= false, '%s names shape %s, which is disabled or ignored', what, c.index)
    if e and not c.pushedOut then check(c.response == e, '%s response %s, expected %s', what, c.response, e) end
  end
end

-- set:move with a convex shape: a finite end, and n valid contact records.
function OPS.set_move()
  local srec, rec = pick_set(), pick_shape(true)
  local opts, expected = make_set_opts(srec, 'slide')
  local contacts, fresh = contacts_table()
  local dx, dy = rng.range(-40, 40), rng.range(-40, 40)
  note('set:move of a %s by (%s, %s) through %s shapes', rec.kind, dx, dy, srec.n)
  local r = must('set:move', method, srec.set, 'move', rec.s, dx, dy, opts, contacts)
  check(r.n == 3, 'set:move returned %s values', r.n)
  check_number(r[1], 'set:move x')
  check_number(r[2], 'set:move y')
  check_contacts('set:move', contacts, r[3], fresh, set_record_check(srec, expected))
  check_free_move('set:move', rec.s, dx, dy, r)
end

-- set:stepBall: a finite position and velocity, n valid records; the speed kept by plain bounces.
function OPS.set_step_ball()
  local srec = pick_set()
  local opts, expected = make_set_opts(srec, 'bounce')
  local contacts, fresh = contacts_table()
  local x, y = random_place()
  local vx, vy, radius, dt = rng.range(-80, 80), rng.range(-80, 80), rng.range(0.1, 4), rng.range(0, 2)
  note('set:stepBall at (%s, %s) v (%s, %s) r %s dt %s through %s shapes', x, y, vx, vy, radius, dt, srec.n)
  local r = must('set:stepBall', method, srec.set, 'stepBall', x, y, vx, vy, radius, dt, opts, contacts)
  check(r.n == 5, 'set:stepBall returned %s values', r.n)
  for i = 1, 4 do check_number(r[i], 'set:stepBall value ' .. i) end
  check_contacts('set:stepBall', contacts, r[5], fresh, set_record_check(srec, expected))
  check_ball_contacts('set:stepBall', contacts, r[5], radius)
  local plain = not opts or (not opts.response or opts.response == 'bounce') and not opts.responses
    and (opts.restitution or 1) == 1 and (opts.friction or 0) == 0
  if plain and not srec.moving then
    local before, after = math.sqrt(vx * vx + vy * vy), math.sqrt(r[3] * r[3] + r[4] * r[4])
    check(math.abs(after - before) <= 1e-9 * before + 1e-12, 'set:stepBall changed the speed %s to %s', before, after)
  end
end

-- A move or ball step through a static set's row of 70 to 100 tiles with "cross" responses: more
-- than 64 contacts, so the binding runs it again with room for all. Finalizers of objects dropped
-- just before call set:move on the same set with other opts.responses; the collector, made eager for
-- the call, may run them at the allocation for that second run, which must still read what the
-- first read.
function OPS.set_corridor()
  local x0, y0 = rng.range(-10, 100), rng.range(-10, 100)
  local n, gap = rng.int(70, 100), rng.range(1, 3)
  local list, recs = {}, {}
  for i = 1, n do
    local s = must('collide2d.rectangle', fn, 'rectangle', x0 + i * gap, y0 - 5, 0.3 * gap, 10)[1]
    recs[i] = add_shape_rec(s, 'rectangle')
    list[i] = s
  end
  local set = must('collide2d.staticset', fn, 'staticset', list)[1]
  local srec = { set = set, dead = false, n = n, enabled = {}, edges = {}, moving = false }
  for i = 1, n do srec.enabled[i], srec.edges[i] = true, 4 end
  S.sets[#S.sets + 1] = srec
  local opts, expected = { response = 'cross', responses = {} }, {}
  for i = 1, n do
    expected[i] = i <= 64 and 'cross' or rng.pick({ 'cross', false })
    if not expected[i] then opts.responses[i] = 'ignore' end
  end
  local mover = make_shape('rectangle', x0, y0, 0.2 * gap)
  local others = { response = 'cross', responses = { [1] = 'cross' } }
  for _ = 1, rng.int(5, 30) do
    finalizer(function()
      count('finalizers moving through a set')
      pcall(set.move, set, mover.s, (n + 2) * gap, 0, others)
    end)
  end
  local contacts = {}
  local ball = rng.chance(0.5)
  note('set corridor of %s tiles, a %s', n, ball and 'ball step' or 'move')
  local pause, stepmul = collectgarbage('setpause', 0), collectgarbage('setstepmul', 1000)
  local ok, r = try(function()
    if ball then return method(set, 'stepBall', x0, y0, (n + 2) * gap, 0, 0.1 * gap, 1, opts, contacts) end
    return method(set, 'move', mover.s, (n + 2) * gap, 0, opts, contacts)
  end)
  collectgarbage('setpause', pause)
  collectgarbage('setstepmul', stepmul)
  if not ok then fail('set corridor raised %s', r) end
  check_contacts(ball and 'set:stepBall' or 'set:move', contacts, r[r.n], true, set_record_check(srec, expected))
end

-- Destroys a set (twice: the second does nothing) or drops it for the collector.
function OPS.end_set()
  local list = live_sets()
  if #list == 0 then return end
  local srec = rng.pick(list)
  if rng.chance(0.5) then
    note('destroy a static set')
    must('set:destroy', method, srec.set, 'destroy')
    must('a second set:destroy', method, srec.set, 'destroy')
    check(tostring(srec.set) == 'collide2d.staticset (destroyed)', 'tostring of a destroyed set: %s', tostring(srec.set))
    srec.dead = true
    bury('set', srec.set)
  else
    note('drop a static set')
    srec.dead = true
  end
  for k, s in ipairs(S.sets) do
    if s == srec then table.remove(S.sets, k) break end
  end
end

-- ---- ops: worlds -----------------------------------------------------------------------------

-- Adds shapes to a world: new ones mostly, and shapes of the pool that may be in this or another world
-- or destroyed (each with the error the model expects).
function OPS.world_add()
  local wrec = pick_world()
  local count = rng.int(1, 6)
  note('world:add %s shapes', count)
  for _ = 1, count do
    if wrec.dead then return end
    local rec
    if rng.chance(0.6) then rec = make_shape(random_kind()) else rec = S.shapes[rng.int(1, math.max(1, S.nshapes))] or make_shape('circle') end
    world_add(wrec, rec, new_value(wrec))
  end
  if wrec.n > MAX_MEMBERS and not wrec.dead then destroy_world(wrec) end
end

-- Removes a member (or tries a shape that is not one).
function OPS.world_remove()
  local wrec = pick_world()
  local m = pick_member(wrec)
  local rec = (m and rng.chance(0.85)) and m.rec or pick_shape()
  note('world:remove a %s', rec.kind)
  world_remove(wrec, rec)
end

-- Moves a member and tells the world.
function OPS.world_update()
  local wrec = pick_world()
  local m = pick_member(wrec)
  if not m then return end
  note('world:update a %s', m.rec.kind)
  must('move', method, m.rec.s, 'move', rng.range(-10, 10), rng.range(-10, 10))
  must('world:update', method, wrec.w, 'update', m.rec.s)
end

-- Values, bits and one-way entries: set, then read back.
function OPS.world_entry()
  local wrec = pick_world()
  local m = pick_member(wrec)
  if not m then return end
  local s = m.rec.s
  local which = rng.pick({ 'setValue', 'setBits', 'setOneWay' })
  note('world:%s of a %s', which, m.rec.kind)
  if which == 'setValue' then
    local v = new_value(wrec)
    check(rawequal(must('world:setValue', method, wrec.w, 'setValue', s, v)[1], s), 'setValue returned another value')
    m.value = v
    check(same(must('world:value', method, wrec.w, 'value', s)[1], v), 'world:value() after setValue')
  elseif which == 'setBits' then
    local c, k = rng.pick(BITS), rng.pick(BITS)
    must('world:setBits', method, wrec.w, 'setBits', s, c, k)
    m.category, m.mask = c, k
    for _, ctx in ipairs(S.active) do
      if ctx.world == wrec then ctx.changed[s] = true end
    end
    local b = must('world:bits', method, wrec.w, 'bits', s)
    check(b[1] == c and b[2] == k, 'world:bits() is %s, %s after setBits %s, %s', b[1], b[2], c, k)
  else
    local dx, dy = rng.range(-2, 2), rng.range(-2, 2)
    if rng.chance(0.3) then dx, dy = nil, nil end
    must('world:setOneWay', method, wrec.w, 'setOneWay', s, dx, dy)
    local d = must('world:oneWay', method, wrec.w, 'oneWay', s)
    if d[1] ~= nil then check_unit(d[1], d[2], 'world:oneWay()') end
    if dx == nil then check(d[1] == nil, 'world:oneWay() after making the entry solid') end
  end
end

-- world:optimize() and a thorough check of the world against the model.
function OPS.world_check()
  local wrec = pick_world()
  note('world:optimize and a check of %s members', wrec.n)
  if rng.chance(0.5) then must('world:optimize', method, wrec.w, 'optimize') end
  check_world(wrec, true)
end

-- An out table for a query: nil, empty, or with junk past any answer.
local function out_table()
  if rng.chance(0.4) then return nil end
  local t = {}
  for k = 1, rng.int(0, 30) do t[k] = rng.chance(0.5) and { junk = k } or 'junk' end
  return t
end

-- A box around a place, where the call looks (where a crowd added from a callback goes).
local function box_around(x, y, r) return { x - r, y - r, x + r, y + r } end

-- What a query answered, tested shape by shape when no Lua code ran during the call: each item meets
-- the box (a rectangle of it grown by a rounding margin: a rectangle's corners are computed from its
-- centre, an ulp away from the box's own), contains the point, or overlaps the probe.
local function check_items_meet(kind, items, n, x, y, w, h, probe)
  local e = 1e-9 * (1 + math.abs(x) + math.abs(y) + w + h)
  local box = kind == 'queryRect' and must('rectangle', fn, 'rectangle', x - e, y - e, w + 2 * e, h + 2 * e)[1]
  for k = 1, n do
    local s, met = items[k], true
    if kind == 'queryPoint' then met = must('contains', method, s, 'contains', x, y)[1]
    elseif kind == 'queryShape' then met = must('overlaps', fn, 'overlaps', s, probe)[1]
    elseif box then met = must('overlaps', fn, 'overlaps', s, box)[1] end
    check(met, 'world:%s item %s (a %s) does not meet what was asked', kind, k, collide2d.type(s))
  end
end

-- queryRect, queryPoint or queryShape with a random filter (Lua callbacks included) and out table.
function OPS.world_query()
  local wrec = pick_world()
  local kind = rng.pick({ 'queryRect', 'queryPoint', 'queryShape' })
  local probe = kind == 'queryShape' and pick_shape() or nil
  local ctx = new_ctx(wrec, probe and probe.s)
  local filter, out = make_filter(ctx), out_table()
  local x, y = random_place()
  if rng.chance(0.7) and wrec.n > 0 then
    local b = must('bbox', method, pick_member(wrec).rec.s, 'bbox')
    x, y = b[1], b[2]
  end
  local w, h = rng.range(0, 40), rng.range(0, 40)
  ctx.region = box_around(x, y, 20)
  note('world:%s%s in a world of %s', kind, ctx.callbacks and ' with callbacks' or '', wrec.n)
  local r = run_call(ctx, 'world:' .. kind, function()
    if kind == 'queryRect' then return method(wrec.w, 'queryRect', x, y, w, h, filter, out) end
    if kind == 'queryPoint' then return method(wrec.w, 'queryPoint', x, y, filter, out) end
    return method(wrec.w, 'queryShape', probe.s, filter, out)
  end)
  if r then
    check_items(ctx, 'world:' .. kind, r, out)
    if not ctx.callbacks then check_items_meet(kind, r[1], r[2], x, y, w, h, probe and probe.s) end
  end
  check_world(wrec, ctx.callbacks and rng.chance(0.2))
end

-- world:raycast or raycastAll with a random filter, maxT and out table.
function OPS.world_raycast()
  local wrec = pick_world()
  local all = rng.chance(0.5)
  local ctx = new_ctx(wrec, nil)
  local filter = make_filter(ctx)
  local out = all and out_table() or nil
  local x, y = random_place()
  local dx, dy = rng.range(-1, 1), rng.range(-1, 1)
  if dx == 0 and dy == 0 then dx = 1 end
  local maxt = rng.chance(0.6) and rng.range(0, 200) or nil
  ctx.region = box_around(x + 20 * dx, y + 20 * dy, 25)
  note('world:raycast%s from (%s, %s) dir (%s, %s) maxT %s in a world of %s', all and 'All' or '', x, y, dx, dy, maxt, wrec.n)
  local r = run_call(ctx, 'world:raycast', function()
    if all then return method(wrec.w, 'raycastAll', x, y, dx, dy, maxt, filter, out) end
    return method(wrec.w, 'raycast', x, y, dx, dy, maxt, filter)
  end)
  if r then
    if all then check_ray_hits(ctx, 'world:raycastAll', r, out, maxt or huge) else check_ray_hit(ctx, 'world:raycast', r, maxt or huge) end
    if not ctx.callbacks and not wrec.stale then
      -- Without Lua code in between, the first of every hit is the hit (ties go to the world's order).
      -- Not once a shape of the world moved without world:update: the world then answers from the box
      -- it had (docs/lua.md), which the first-hit walk and raycastAll may consult differently.
      local one = all and must('world:raycast', method, wrec.w, 'raycast', x, y, dx, dy, maxt, filter) or r
      local every = all and r or must('world:raycastAll', method, wrec.w, 'raycastAll', x, y, dx, dy, maxt, filter)
      local first = every[2] > 0 and every[1][1] or nil   -- out keeps old records past n
      check((one[1] == nil) == (first == nil), 'world:raycast and raycastAll disagree on a hit')
      if first then
        check(one[1] == first.shape and one[2] == first.t, 'world:raycast hits at t = %s, raycastAll first at t = %s', one[2], first.t)
      end
    end
  end
  check_world(wrec, false)
end

-- world:pairs with or without contacts, into a fresh or reused table.
function OPS.world_pairs()
  local wrec = pick_world()
  local out, with = out_table(), rng.chance(0.5)
  note('world:pairs%s in a world of %s', with and ' with contacts' or '', wrec.n)
  local r = must('world:pairs', method, wrec.w, 'pairs', out, with)
  check_pairs(wrec, 'world:pairs', r, out, with)
end

-- The check of a world's contact record: a live member that passed the filter, its current value,
-- the response the callbacks or options gave.
local function world_record_check(ctx)
  return function(c, what)
    local m = check_member(ctx, c.shape, what .. ' shape')
    if not m then return end
    check(same(c.value, m.value), '%s value %s, the entry has %s', what, c.value, m.value)
    check_filtered(ctx, m, what)
    local e = world_response(ctx, c.shape)
    check(e ~= false, '%s names a shape its filter or response ignores', what)
    if e and not c.pushedOut then check(c.response == e, '%s response %s, expected %s', what, c.response, e) end
  end
end

-- world:move of a convex shape (a member of the world or not) with filters, responses, contacts.
local function world_move(wrec, mover, dx, dy, ctx, opts)
  local filter = make_filter(ctx)
  local contacts, fresh = contacts_table()
  if ctx.want_contacts then contacts, fresh = {}, true end
  local r = run_call(ctx, 'world:move', function()
    return method(wrec.w, 'move', mover.s, dx, dy, opts, filter, contacts)
  end)
  if not r then return end
  check(r.n == 3, 'world:move returned %s values', r.n)
  check_number(r[1], 'world:move x')
  check_number(r[2], 'world:move y')
  check_contacts('world:move', contacts, r[3], fresh, world_record_check(ctx))
  if not ctx.callbacks then check_free_move('world:move', mover.s, dx, dy, r) end
end

-- world:stepBall with filters, responses, contacts; the speed kept by plain bounces.
local function world_step_ball(wrec, x, y, vx, vy, radius, dt, ctx, opts)
  local filter = make_filter(ctx)
  local contacts, fresh = contacts_table()
  if ctx.want_contacts then contacts, fresh = {}, true end
  local r = run_call(ctx, 'world:stepBall', function()
    return method(wrec.w, 'stepBall', x, y, vx, vy, radius, dt, opts, filter, contacts)
  end)
  if not r then return end
  check(r.n == 5, 'world:stepBall returned %s values', r.n)
  for i = 1, 4 do check_number(r[i], 'world:stepBall value ' .. i) end
  check_contacts('world:stepBall', contacts, r[5], fresh, world_record_check(ctx))
  check_ball_contacts('world:stepBall', contacts, r[5], radius)
  if ctx.response == 'bounce' and ctx.plain_bounce ~= false then
    local before, after = math.sqrt(vx * vx + vy * vy), math.sqrt(r[3] * r[3] + r[4] * r[4])
    check(math.abs(after - before) <= 1e-9 * before + 1e-12, 'world:stepBall changed the speed %s to %s', before, after)
  end
end

function OPS.world_move()
  local wrec = pick_world()
  local m = pick_member(wrec)
  local mover = (m and CONVEX[m.rec.kind] and rng.chance(0.3)) and m.rec or pick_shape(true)
  local ctx = new_ctx(wrec, mover.s)
  local opts = make_world_opts(ctx, 'slide')
  local dx, dy = rng.range(-40, 40), rng.range(-40, 40)
  local b = must('bbox', method, mover.s, 'bbox')
  ctx.region = { math.min(b[1], b[1] + dx), math.min(b[2], b[2] + dy), math.max(b[3], b[3] + dx), math.max(b[4], b[4] + dy) }
  note('world:move of a %s by (%s, %s) in a world of %s', mover.kind, dx, dy, wrec.n)
  world_move(wrec, mover, dx, dy, ctx, opts)
  check_world(wrec, ctx.callbacks and rng.chance(0.2))
end

function OPS.world_step_ball()
  local wrec = pick_world()
  local ctx = new_ctx(wrec, nil)
  local opts = make_world_opts(ctx, 'bounce')
  local x, y = random_place()
  local vx, vy, radius, dt = rng.range(-80, 80), rng.range(-80, 80), rng.range(0.1, 4), rng.range(0, 2)
  ctx.region = { math.min(x, x + vx * dt) - radius, math.min(y, y + vy * dt) - radius, math.max(x, x + vx * dt) + radius, math.max(y, y + vy * dt) + radius }
  note('world:stepBall at (%s, %s) v (%s, %s) r %s dt %s in a world of %s', x, y, vx, vy, radius, dt, wrec.n)
  world_step_ball(wrec, x, y, vx, vy, radius, dt, ctx, opts)
  check_world(wrec, ctx.callbacks and rng.chance(0.2))
end

-- A move or ball step along a row of more than 64 shapes of any kinds, with a response function that
-- mostly lets the mover cross: the path where the binding runs the call again with room for every
-- contact (asking the callbacks again). The first callback may add a crowd in reach, so the second run
-- meets more contacts than the first (issue 22's heap over-read).
function OPS.corridor()
  local wrec = rng.chance(0.5) and new_world() or pick_world()
  local x0, y0 = rng.range(-10, 100), rng.range(-10, 100)
  local n, gap = rng.int(70, 110), rng.range(1, 3)
  note('corridor of %s shapes at (%s, %s) in a world of %s', n, x0, y0, wrec.n)
  for i = 1, n do
    local rec = make_shape(random_kind(), x0 + i * gap, y0, rng.range(0.3, 0.9) * gap)
    world_add(wrec, rec, new_value(wrec))
  end
  local length = (n + 2) * gap
  local ctx = new_ctx(wrec, nil)
  ctx.cross_bias, ctx.accept, ctx.action_rate = 0.99, 0.98, 0.03
  ctx.region = { x0, y0 - gap, x0 + length, y0 + gap }
  ctx.want_contacts = rng.chance(0.9)
  if rng.chance(0.5) then ctx.first_action = 'crowd' end
  local opts = callbacks_allowed() and { response = callback(ctx, 'response') } or { response = 'cross' }
  ctx.response = type(opts.response) == 'string' and opts.response or nil
  if rng.chance(0.5) then
    local mover = make_shape(random_kind(true), x0, y0, rng.range(0.2, 0.8) * gap)
    ctx.pinned = mover.s
    note('corridor move%s', ctx.first_action and ', the first callback adds a crowd' or '')
    world_move(wrec, mover, length, 0, ctx, opts)
  else
    local t = rng.range(0.5, 2)
    note('corridor ball step%s', ctx.first_action and ', the first callback adds a crowd' or '')
    world_step_ball(wrec, x0, y0, length / t, 0, rng.range(0.1, 0.4) * gap, t, ctx, opts)
  end
  check_world(wrec, rng.chance(0.3))
end

-- Destroys a world (refused from inside its callbacks) or drops it and its members for the collector.
function OPS.end_world()
  local list = live_worlds()
  if #list == 0 then return end
  local wrec = rng.pick(list)
  if rng.chance(0.5) or (S.busy[wrec] or 0) > 0 then
    note('destroy a world of %s', wrec.n)
    destroy_world(wrec)
    if wrec.dead then
      must('a second world:destroy', method, wrec.w, 'destroy')
      check(tostring(wrec.w) == 'collide2d.world (destroyed)', 'tostring of a destroyed world: %s', tostring(wrec.w))
    end
  else
    note('drop a world of %s and its shapes', wrec.n)
    for _, m in ipairs(wrec.list) do
      if m.rec.pos then forget_shape(m.rec) end
    end
    wrec.dead = true
  end
  if wrec.dead then
    for k, w in ipairs(S.worlds) do
      if w == wrec then table.remove(S.worlds, k) break end
    end
  end
end

-- ---- ops: destroyed objects, bad arguments, the collector ------------------------------------

-- Destroyed shapes, sets and worlds raise the documented errors from every method, while type,
-- tostring and destroy itself keep working.
local DEAD_CALLS = {
  shape = {
    function(s) return method(s, 'position') end, function(s) return method(s, 'bbox') end,
    function(s) return method(s, 'vertices') end, function(s) return method(s, 'move', 1, 1) end,
    function(s) return method(s, 'setAngle', 1) end, function(s) return method(s, 'raycast', 0, 0, 1, 0) end,
    function(s) return method(s, 'contains', 0, 0) end, function(s) return method(s, 'clone') end,
    function(s) return method(s, 'world') end, function(s) return method(s, 'parts') end,
    function(s) return fn('collide', pick_shape().s, s) end, function(s) return fn('overlaps', s, pick_shape().s) end,
    function(s) return fn('sweep', pick_shape().s, 1, 0, s) end, function(s) return method(pick_world().w, 'add', s) end,
    function(s) return method(pick_world().w, 'queryShape', s) end, function(s) return method(pick_world().w, 'move', s, 1, 0) end,
    function(s) return method(pick_set().set, 'move', s, 1, 0) end, function(s) return method(pick_set().set, 'pushOut', s) end,
  },
  set = {
    function(t) return method(t, 'count') end, function(t) return method(t, 'isEnabled', 1) end,
    function(t) return method(t, 'move', pick_shape(true).s, 1, 0) end, function(t) return method(t, 'stepBall', 0, 0, 1, 0, 1, 1) end,
    function(t) return method(t, 'sweep', pick_shape(true).s, 1, 0) end, function(t) return method(t, 'transform', 1) end,
  },
  world = {
    function(w) return method(w, 'count') end, function(w) return method(w, 'add', pick_shape().s) end,
    function(w) return method(w, 'queryRect', 0, 0, 1, 1) end, function(w) return method(w, 'queryPoint', 0, 0, function() return true end) end,
    function(w) return method(w, 'raycastAll', 0, 0, 1, 0) end, function(w) return method(w, 'pairs') end,
    function(w) return method(w, 'move', pick_shape(true).s, 1, 0) end, function(w) return method(w, 'stepBall', 0, 0, 1, 0, 1, 1) end,
    function(w) return method(w, 'optimize') end,
  },
}
local DEAD_MESSAGE = { shape = MSG.dead_shape, set = MSG.dead_set, world = MSG.dead_world }

function OPS.use_destroyed()
  if #S.graveyard == 0 then return end
  local g = rng.pick(S.graveyard)
  local k = rng.int(1, #DEAD_CALLS[g.what])
  note('call %s #%s on a destroyed %s', g.what, k, g.what)
  must_raise('call #' .. k .. ' on a destroyed ' .. g.what, DEAD_MESSAGE[g.what], DEAD_CALLS[g.what][k], g.obj)
  must('destroy of a destroyed ' .. g.what, method, g.obj, 'destroy')
  if g.what == 'shape' then
    check(collide2d.type(g.obj) == 'destroyed shape', 'type of a destroyed shape: %s', collide2d.type(g.obj))
    check(tostring(g.obj) == 'collide2d.shape (destroyed)', 'tostring of a destroyed shape: %s', tostring(g.obj))
  end
end

-- Argument classes: a valid value for each, and values each must refuse with a bad argument error.
local NIL = {}   -- stands for an explicit nil among the bad values
local BAD_NUMBER = { NIL, NAN, huge, -huge, 2e15, -2e15, 'x', {}, true }
local CLASSES = {
  num = { valid = function() return rng.range(-50, 150) end, bad = BAD_NUMBER },
  optnum = { valid = function() return rng.range(-7, 7) end, bad = { NAN, huge, -huge, 2e15, 'x', {}, true } },
  size = { valid = function() return rng.range(0.5, 5) end, bad = { NIL, NAN, huge, 2e15, 0, -1, 'x', {} } },
  nonneg = { valid = function() return rng.range(0, 20) end, bad = { NIL, NAN, huge, -1, 2e15, 'x' } },
  dir = { valid = function() return rng.range(0.5, 1) end, bad = { NIL, NAN, huge, -huge, 2e15, 'x' } },
  maxt = { valid = function() return rng.range(1, 50) end, bad = { NAN, -1, -huge, 'x', {}, true } },
  dt = { valid = function() return rng.range(0, 2) end, bad = { NIL, NAN, huge, -1, 'x' } },
  bool = { valid = function() return rng.chance(0.5) end, bad = { NIL, 1, 'x' } },
  bits = { valid = function() return rng.pick(BITS) end, bad = { NIL, -1, 1.5, 2 ^ 32, NAN, 'x' } },
  any = { valid = function() return 'v' end, bad = {} },
  index = { bad = { NIL, 0, 1.5, NAN, 'x', 1e9 } },
  shape = { bad = { NIL, 1, 'x', {}, true } },
  mover = { bad = { NIL, 1, 'x', {} } },
  member = { bad = { NIL, 1, 'x', {} } },
  filter = { valid = function() return nil end,
    bad = { 1, 'x', true, { mask = -1 }, { category = 1.5 }, { fn = 1 }, { category = 'x' }, { mask = 2 ^ 32 } } },
  opts = { valid = function() return nil end,
    bad = { 1, 'x', { response = 'jump' }, { response = 1 }, { restitution = 2 }, { restitution = NAN },
      { friction = -1 }, { friction = huge }, { responses = { [0] = 'slide' } }, { responses = { 'x' } }, { responses = 5 } } },
  wopts = { valid = function() return nil end,
    bad = { 1, { response = 'jump' }, { response = 'ignore' }, { response = 1 }, { restitution = -0.5 }, { friction = NAN }, { responses = {} } } },
  table = { valid = function() return nil end, bad = { 1, 'x', true } },
  setopts = { valid = function() return nil end, bad = { 1, { seamTolerance = -1 }, { seamTolerance = NAN }, { autoSeams = 1 } } },
  worldopts = { valid = function() return nil end, bad = { 5, 'x', { margin = -1 }, { relativeMargin = NAN }, { margin = 'x' }, { margin = huge } } },
  shapes = { bad = { NIL, 1, { 1 }, { 'x' } } },
  holes = { valid = function() return nil end, bad = { 5, { 5 }, { { 1, 1, 2, 1, 2, 'x' } }, { { 1, 1, 2, 1, 2 } }, { { 1, 1, 2, 1, 2, NAN } } } },
  chainopts = { valid = function() return nil end, bad = { 5, { closed = 1 }, { oneSided = 'x' } } },
}

-- Signatures: the receiver ('shape', 'set', 'world', or nil for a module function), the name, the
-- classes of the arguments after the receiver.
local SIGNATURES = {
  { nil, 'circle', { 'num', 'num', 'size' } },
  { nil, 'rectangle', { 'num', 'num', 'size', 'size', 'optnum' } },
  { nil, 'capsule', { 'num', 'num', 'num', 'num', 'size' } },
  { nil, 'segment', { 'num', 'num', 'num', 'num' } },
  { nil, 'polygon', { 'num', 'num', 'num', 'num', 'num', 'num' } },
  { nil, 'hull', { 'num', 'num', 'num', 'num', 'num', 'num' } },
  { nil, 'concave', { 'outline', 'holes' } },
  { nil, 'chain', { 'outline', 'chainopts' } },
  { nil, 'sweep', { 'shape', 'num', 'num', 'shape', 'optnum', 'optnum' } },
  { nil, 'staticset', { 'shapes', 'setopts' } },
  { nil, 'world', { 'worldopts' } },
  { 'shape', 'move', { 'num', 'num' } },
  { 'shape', 'rotate', { 'num' } },
  { 'shape', 'setPosition', { 'num', 'num' } },
  { 'shape', 'setAngle', { 'num' } },
  { 'shape', 'setTransform', { 'num', 'num', 'num' } },
  { 'shape', 'contains', { 'num', 'num' } },
  { 'shape', 'closest', { 'num', 'num' } },
  { 'shape', 'raycast', { 'num', 'num', 'dir', 'dir', 'maxt' } },
  { 'shape', 'sweep', { 'num', 'num', 'shape', 'optnum', 'optnum' } },
  { 'shape', 'collide', { 'shape' } },
  { 'shape', 'overlaps', { 'shape' } },
  { 'shape', 'distance', { 'shape' } },
  { 'shape', 'part', { 'index', 'table' } },
  { 'shape', 'vertices', { 'table' } },
  { 'set', 'setEnabled', { 'index', 'bool' } },
  { 'set', 'isEnabled', { 'index' } },
  { 'set', 'setTransform', { 'index', 'num', 'num', 'optnum' } },
  { 'set', 'transform', { 'index' } },
  { 'set', 'setVelocity', { 'index', 'num', 'num' } },
  { 'set', 'velocity', { 'index' } },
  { 'set', 'setOneWay', { 'index', 'num', 'num' } },
  { 'set', 'markNeighbours', { 'index', 'index2', 'size' } },
  { 'set', 'sweep', { 'mover', 'num', 'num' } },
  { 'set', 'pushOut', { 'mover' } },
  { 'set', 'move', { 'mover', 'num', 'num', 'opts', 'table' } },
  { 'set', 'stepBall', { 'num', 'num', 'num', 'num', 'size', 'dt', 'opts', 'table' } },
  { 'world', 'add', { 'shape', 'any' } },
  { 'world', 'value', { 'member' } },
  { 'world', 'setBits', { 'member', 'bits', 'bits' } },
  { 'world', 'setOneWay', { 'member', 'num', 'num' } },
  { 'world', 'queryRect', { 'num', 'num', 'nonneg', 'nonneg', 'filter', 'table' } },
  { 'world', 'queryPoint', { 'num', 'num', 'filter', 'table' } },
  { 'world', 'queryShape', { 'shape', 'filter', 'table' } },
  { 'world', 'raycast', { 'num', 'num', 'dir', 'dir', 'maxt', 'filter' } },
  { 'world', 'raycastAll', { 'num', 'num', 'dir', 'dir', 'maxt', 'filter', 'table' } },
  { 'world', 'pairs', { 'table' } },
  { 'world', 'move', { 'mover', 'num', 'num', 'wopts', 'filter', 'table' } },
  { 'world', 'stepBall', { 'num', 'num', 'num', 'num', 'size', 'dt', 'wopts', 'filter', 'table' } },
}

-- A valid value of a class that depends on the receiver (a set's index, a world's member).
local function valid_value(class, env, a)
  if class == 'index' then return rng.int(1, env.set_n) end
  if class == 'index2' then return a[1] == env.set_n and 1 or env.set_n end
  if class == 'shape' then return pick_shape().s end
  if class == 'mover' then return pick_shape(true).s end
  if class == 'member' then return env.member end
  if class == 'shapes' then return { pick_shape().s } end
  if class == 'outline' then return star_points(50, 50, 5, 4) end
  return CLASSES[class].valid()
end

-- The bad values of a class: its list, plus destroyed and unsuitable objects where a shape goes.
local function bad_values(class, env)
  local list = {}
  for _, v in ipairs(CLASSES[class] and CLASSES[class].bad or {}) do list[#list + 1] = v end
  if class == 'index' or class == 'index2' then list[#list + 1] = env.set_n + 1 end
  if class == 'mover' then
    list[#list + 1] = pick_set().set
    list[#list + 1] = make_shape(rng.pick({ 'chain', 'concave' })).s
  end
  if class == 'shape' or class == 'member' then list[#list + 1] = pick_set().set end
  if class == 'outline' then
    list[#list + 1] = 5
    list[#list + 1] = { 1, 2, 'x', 4, 5, 6 }
    list[#list + 1] = { 0, 0, 1, NAN, 0, 1 }
    list[#list + 1] = { 0, 0, 1, 1, 0 }
  end
  if class == 'shapes' then
    local dead = make_shape('circle')
    destroy_shape(dead)
    list[#list + 1] = { pick_shape().s, dead.s }
  end
  return list
end

-- Calls one function with valid arguments but one, which gets a bad value: it must raise the
-- standard "bad argument #k to 'name' (...)" (k counted after the receiver), and never crash.
function OPS.bad_argument()
  local sig = rng.pick(SIGNATURES)
  local recv_kind, name, classes = sig[1], sig[2], sig[3]
  local env, recv = {}, nil
  if recv_kind == 'shape' then
    recv = pick_shape().s
    env.set_n = must('parts', method, recv, 'parts')[1]
  end
  if recv_kind == 'set' then
    local srec = pick_set()
    if srec.n < 2 then return end
    recv, env.set_n = srec.set, srec.n
  end
  if recv_kind == 'world' then
    local wrec = pick_world()
    local m = pick_member(wrec)
    if not m then return end
    recv, env.member = wrec.w, m.rec.s
  end
  local a = { n = #classes }
  for i, class in ipairs(classes) do a[i] = valid_value(class, env, a) end
  local k = rng.int(1, #classes)
  local bads = bad_values(classes[k], env)
  if #bads == 0 then return end
  local bad = rng.pick(bads)
  if bad == NIL then bad = nil end
  a[k] = bad
  local label = (recv_kind and recv_kind .. ':' or 'collide2d.') .. name .. ' with a bad argument #' .. k .. ' (' .. show(bad) .. ')'
  note('%s', label)
  if recv then
    must_raise_arg(label, k, name, method, recv, name, unpack(a, 1, a.n))
  else
    must_raise_arg(label, k, name, fn, name, unpack(a, 1, a.n))
  end
end

-- A full or partial collection (finalizers of dropped shapes, sets and worlds run).
function OPS.collect()
  note('collect garbage')
  if rng.chance(0.5) then collectgarbage('collect') else collectgarbage('step', 200) end
end

-- Drops an object whose finalizer destroys a private world and its shapes whenever the collector gets
-- to it, which may be in the middle of any later call (of this world or another): the module must not
-- care. (The model's objects stay out of it: a finalizer's change could fall between a call and the
-- model's record of it.)
function OPS.bomb()
  local w = collide2d.world()
  local shapes = {}
  for i = 1, rng.int(1, 20) do shapes[i] = w:add(collide2d.circle(rng.range(0, 10), 0, 1), i) end
  note('a finalizer that destroys a private world of %s', #shapes)
  finalizer(function()
    count('bomb finalizers run')
    pcall(w.destroy, w)
    for _, s in ipairs(shapes) do pcall(s.destroy, s) end
  end)
end

-- ---- the run ---------------------------------------------------------------------------------

local OP_MIX = {
  { 6, 'new_shape' }, { 2, 'clone' }, { 4, 'inspect' }, { 4, 'transform' }, { 6, 'pair' }, { 3, 'point' },
  { 2, 'destroy_shape' }, { 1, 'drop_shape' },
  { 1.5, 'new_set' }, { 3, 'set_edit' }, { 2, 'set_read' }, { 3, 'set_sweep' }, { 4, 'set_move' },
  { 3, 'set_step_ball' }, { 0.8, 'set_corridor' }, { 0.5, 'end_set' },
  { 8, 'world_add' }, { 3, 'world_remove' }, { 3, 'world_update' }, { 3, 'world_entry' }, { 1, 'world_check' },
  { 8, 'world_query' }, { 4, 'world_raycast' }, { 2, 'world_pairs' }, { 6, 'world_move' },
  { 4, 'world_step_ball' }, { 1.5, 'corridor' }, { 0.4, 'end_world' },
  { 5, 'bad_argument' }, { 2, 'use_destroyed' }, { 0.5, 'collect' }, { 0.5, 'bomb' },
}

-- Ops a callback may run: the small ones (no new corridors).
local NESTED_MIX = {
  { 6, 'new_shape' }, { 3, 'transform' }, { 2, 'pair' }, { 2, 'destroy_shape' },
  { 2, 'set_edit' }, { 2, 'set_move' }, { 1, 'new_set' }, { 0.5, 'end_set' },
  { 8, 'world_add' }, { 6, 'world_remove' }, { 5, 'world_update' }, { 5, 'world_entry' },
  { 4, 'world_query' }, { 2, 'world_raycast' }, { 1, 'world_pairs' }, { 2, 'world_move' },
  { 1, 'world_step_ball' }, { 0.5, 'end_world' }, { 1, 'bad_argument' }, { 1, 'use_destroyed' },
}

if ONLY then
  local keep = {}
  for _, e in ipairs(OP_MIX) do
    if (',' .. ONLY .. ','):find(',' .. e[2] .. ',', 1, true) then keep[#keep + 1] = e end
  end
  assert(#keep > 0, 'C2D_OPS_ONLY names no op')
  OP_MIX = keep
end

-- Keeps the pool bounded: drops free shapes beyond MAX_SHAPES.
local function trim_pool()
  local tries = 0
  while S.nshapes > MAX_SHAPES and tries < 50 do
    tries = tries + 1
    local rec = S.shapes[rng.int(1, S.nshapes)]
    if not rec.world then forget_shape(rec) end
  end
end

function run_nested_op()
  OPS[rng.weighted(NESTED_MIX)]()
end

-- Runs one op; a failed check was reported when it was made, any other error is one now.
local function run_op(name)
  local ok, err = xpcall(OPS[name], function(e)
    if is_failure(e) then return e end
    return { unexpected = tostring(e), traceback = debug.traceback('', 2) }
  end)
  if ok then return end
  if not is_failure(err) then pcall(fail, 'op %s raised an unexpected error: %s%s', name, err.unexpected, err.traceback) end
  -- The model may be out of step with the objects now: start again from an empty scene.
  new_scene()
end

new_scene()
local started = os.clock()
for i = 1, COUNT do
  run.op = i
  run.depth = 0
  run_op(rng.weighted(OP_MIX))
  trim_pool()
  if run.failures > 200 then
    print('lua_ops: too many failures, stopping')
    break
  end
end
collectgarbage('collect')
local names = {}
for what in pairs(stats) do names[#names + 1] = what end
table.sort(names)
print('what the run did:')
for _, what in ipairs(names) do print(string.format('  %7d %s', stats[what], what)) end
if #run.kind_order > 0 then
  print('failures by kind (count, first op, first message):')
  for _, kind in ipairs(run.kind_order) do
    local k = run.kinds[kind]
    print(string.format('  %5d  op %-6d %s', k.count, k.first, k.message:sub(1, 300)))
  end
end
print(string.format('lua_ops: seed=%d ops=%d checks=%d failures=%d time=%.1fs (%s)', SEED, run.op, run.checks,
  run.failures, os.clock() - started, jit and jit.version or _VERSION))
if log then log:close() end
os.exit(run.failures == 0 and 0 or 1, true)
