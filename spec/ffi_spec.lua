-- spec/ffi_spec.lua - the LuaJIT fast path (docs/lua.md, "LuaJIT"): under LuaJIT the hot functions are
-- Lua wrappers calling the core through the FFI, and they must be indistinguishable from the C
-- functions they replace. Two instances of the module are loaded side by side, one with the fast path
-- and one with COLLIDE2D_NO_FFI=1, and every wrapped function is called through both, as a module
-- function and as a method, on random shapes of every kind and on bad arguments: the values (and how
-- many there are) must be identical to the last bit, and the errors identical to the last character.
-- The suite 31-luajit.sh also runs every other spec both ways. Elsewhere the functions are C.
local collide2d = require 'collide2d'

local has_ffi, ffi = pcall(require, 'ffi')

local WRAPPED = { 'overlaps', 'collide', 'distance', 'contains', 'raycast', 'position', 'move',
  'setPosition', 'rotate', 'setAngle', 'setTransform' }

local function what(f) return debug.getinfo(f, 'S').what end

if not (jit and has_ffi) then
  describe('outside LuaJIT', function()
    it('the module has no fast path: every function is the C function', function()
      for _, name in ipairs(WRAPPED) do assert.are.equal('C', what(collide2d[name]), name) end
    end)
  end)
  return
end

-- The two instances. A second require runs luaopen_collide2d again: the same metatables (shapes of one
-- instance are shapes of the other) filled again, and the shape metatable's __index set to the newest
-- module table; the end of this file puts back the instance every other spec uses.
-- The module reads COLLIDE2D_NO_FFI with the C library's getenv: set it there (POSIX setenv, or the
-- Windows C runtime's _putenv_s, where an empty value removes the variable).
local set_no_ffi
if jit.os == 'Windows' then
  ffi.cdef 'int _putenv_s(const char *name, const char *value);'
  set_no_ffi = function(value) ffi.C._putenv_s('COLLIDE2D_NO_FFI', value or '') end
else
  ffi.cdef [[
  int setenv(const char *name, const char *value, int overwrite);
  int unsetenv(const char *name);
  ]]
  set_no_ffi = function(value)
    if value then ffi.C.setenv('COLLIDE2D_NO_FFI', value, 1) else ffi.C.unsetenv('COLLIDE2D_NO_FFI') end
  end
end
local function load_with(no_ffi)
  package.loaded.collide2d = nil
  set_no_ffi(no_ffi)
  return require 'collide2d'
end
local saved_env = os.getenv('COLLIDE2D_NO_FFI')
local fast = load_with('0') -- "0" counts as unset
local slow = load_with('1')
load_with(saved_env)
package.loaded.collide2d = collide2d
local MT = getmetatable(collide2d.circle(0, 0, 1))
MT.__index = collide2d

local function pack(...) return { n = select('#', ...), ... } end

-- Runs fn with the methods of shapes taken from module M.
local function with_methods(M, fn, ...)
  MT.__index = M
  local r = pack(pcall(fn, ...))
  MT.__index = collide2d
  if not r[1] then error(r[2], 0) end
  return unpack(r, 2, r.n)
end

-- Deterministic, the same in every run: Park and Miller's generator.
local seed = 20240601
local function uniform(lo, hi)
  seed = (seed * 16807) % 2147483647
  return lo + (hi - lo) * seed / 2147483647
end

-- A random convex polygon: points on a circle at sorted random angles.
local function ngon_points(x, y)
  local n, r, angles, pts = math.floor(uniform(3, 9)), uniform(0.5, 2), {}, {}
  for i = 1, n do angles[i] = uniform(0, 2 * math.pi) end
  table.sort(angles)
  for i = 1, n do pts[#pts + 1], pts[#pts + 2] = x + r * math.cos(angles[i]), y + r * math.sin(angles[i]) end
  return pts
end

local kinds = {
  circle = function(x, y) return fast.circle(x, y, uniform(0.2, 2)) end,
  rectangle = function(x, y) return fast.rectangle(x, y, uniform(0.2, 3), uniform(0.2, 3), uniform(-4, 4)) end,
  polygon = function(x, y)
    local ok, s = pcall(fast.polygon, ngon_points(x, y))
    return ok and s or fast.polygon(x, y, x + 1, y, x, y + 1)
  end,
  hull = function(x, y) return fast.hull(ngon_points(x, y)) end,
  capsule = function(x, y) return fast.capsule(x, y, x + uniform(-2, 2), y + uniform(0.1, 2), uniform(0.1, 1)) end,
  segment = function(x, y) return fast.segment(x, y, x + uniform(-3, 3), y + uniform(0.1, 3)) end,
}
local kind_names = {}
for name in pairs(kinds) do kind_names[#kind_names + 1] = name end
table.sort(kind_names)

-- Identical values: same count, same types, numbers equal bit for bit (the sign of zero included).
local function same(x, y, label)
  assert(x.n == y.n, string.format('%s: %d values against %d', label, x.n, y.n))
  for i = 1, x.n do
    local a, b = x[i], y[i]
    local ok = rawequal(a, b) or (a ~= a and b ~= b)
    if ok and type(a) == 'number' and a == 0 then ok = 1 / a == 1 / b end
    assert(ok, string.format('%s: value #%d is %s against %s', label, i, tostring(a), tostring(b)))
  end
end

-- Calls M[name](...) and the method form, under pcall, both through fast and through slow.
local function both(name, ...)
  local f = pack(pcall(fast[name], ...))
  local s = pack(pcall(slow[name], ...))
  same(f, s, name)
  return f
end

describe('under LuaJIT', function()
  it('the fast path is in place by default, and COLLIDE2D_NO_FFI=1 keeps the C functions', function()
    for _, name in ipairs(WRAPPED) do
      assert.are.equal('Lua', what(fast[name]), name)
      assert.are.equal('C', what(slow[name]), name)
    end
    assert.are.equal('C', what(fast.sweep))
  end)

  it('shapes of either instance are shapes of the other', function()
    local a, b = slow.circle(0, 0, 1), fast.circle(1, 0, 1)
    assert.is_true(fast.overlaps(a, b))
    assert.is_true(slow.overlaps(b, a))
  end)
end)

describe('the fast path and the C path answer identically', function()
  local ROUNDS = 40

  it('overlaps, collide and distance on random pairs of every kind, in both orders', function()
    local hits = 0
    for _, ka in ipairs(kind_names) do
      for _, kb in ipairs(kind_names) do
        for _ = 1, ROUNDS do
          local a = kinds[ka](0, 0)
          local b = kinds[kb](uniform(-3, 3), uniform(-3, 3))
          local label = ka .. '-' .. kb
          if both('overlaps', a, b)[2] then hits = hits + 1 end
          both('collide', a, b)
          both('distance', a, b)
          for _, M in ipairs({ fast, slow }) do
            local r = pack(with_methods(M, function() return a:collide(b) end))
            same(r, pack(slow.collide(a, b)), label .. ' a:collide(b)')
            r = pack(with_methods(M, function() return a:overlaps(b), b:overlaps(a), a:distance(b) end))
            same(r, pack(slow.overlaps(a, b), slow.overlaps(b, a), slow.distance(a, b)), label .. ' methods')
          end
        end
      end
    end
    -- Both answers occur often: the placements are neither all hits nor all misses.
    assert.is_true(hits > 36 * ROUNDS / 5 and hits < 36 * ROUNDS * 4 / 5, 'hits: ' .. hits)
  end)

  it('touching and coincident shapes, with one and two contact points', function()
    local pairs_ = {
      { fast.circle(0, 0, 1), fast.circle(2, 0, 1) },
      { fast.rectangle(0, 0, 2, 2), fast.rectangle(2, 0, 2, 2) },
      { fast.rectangle(0, 0, 2, 2), fast.rectangle(1.5, 0.5, 2, 2) },
      { fast.rectangle(0, 0, 2, 2), fast.rectangle(0, 0, 2, 2) },
      { fast.circle(0, 0, 1), fast.circle(0, 0, 1) },
      { fast.segment(0, 0, 4, 0), fast.capsule(0, 2, 4, 2, 2) },
      { fast.segment(0, 0, 4, 0), fast.segment(0, 0, 4, 0) },
    }
    local counts = {}
    for i, p in ipairs(pairs_) do
      both('overlaps', p[1], p[2])
      counts[both('collide', p[1], p[2]).n] = true
      both('distance', p[1], p[2])
      both('collide', p[2], p[1])
      assert.is_true(fast.overlaps(p[1], p[2]), 'pair ' .. i)
    end
    assert.is_true(counts[6] and counts[8], 'one and two contact points') -- pcall's true + 5 or 7
  end)

  it('contains, raycast and position on random shapes of every kind', function()
    for _, k in ipairs(kind_names) do
      for _ = 1, ROUNDS do
        local s = kinds[k](uniform(-1, 1), uniform(-1, 1))
        both('position', s)
        both('contains', s, uniform(-3, 3), uniform(-3, 3))
        local verts = s:vertices()
        both('contains', s, verts[1], verts[2]) -- on the boundary
        local ox, oy, dx, dy = uniform(-6, 6), uniform(-6, 6), uniform(-1, 1), uniform(-1, 1)
        both('raycast', s, ox, oy, dx, dy)
        both('raycast', s, ox, oy, -ox, -oy)
        both('raycast', s, ox, oy, -ox, -oy, uniform(0, 1.2))
        both('raycast', s, ox, oy, -ox, -oy, math.huge)
        both('raycast', s, ox, oy, -ox, -oy, nil)
        both('raycast', s, 0, 0, dx, dy, 0) -- from inside (mostly), maxt 0
        for _, M in ipairs({ fast, slow }) do
          local r = pack(with_methods(M, function()
            local t, x, y, nx, ny = s:raycast(ox, oy, -ox, -oy)
            return s:contains(0, 0), t, x, y, nx, ny, s:position()
          end))
          local t, x, y, nx, ny = slow.raycast(s, ox, oy, -ox, -oy)
          local px, py = slow.position(s)
          same(r, pack(slow.contains(s, 0, 0), t, x, y, nx, ny, px, py), k .. ' methods')
        end
      end
    end
  end)

  it('move, setPosition, rotate, setAngle and setTransform: same shapes after the same steps', function()
    for _, k in ipairs(kind_names) do
      local a = kinds[k](0, 0)
      local b = a:clone()
      local steps = {
        function(M, s) return M.move(s, uniform(-2, 2), uniform(-2, 2)) end,
        function(M, s) return M.setPosition(s, uniform(-5, 5), uniform(-5, 5)) end,
        function(M, s) return M.rotate(s, uniform(-1, 1)) end,
        function(M, s) return M.setAngle(s, uniform(-7, 7)) end,
        function(M, s) return M.setTransform(s, uniform(-5, 5), uniform(-5, 5), uniform(-7, 7)) end,
        function(M, s) return with_methods(M, function() return s:move(0.25, -0.5):rotate(0.125) end) end,
        function(M, s) return M.move(s, 0, 0) end,
      }
      for i = 1, 10 * #steps do
        local step = steps[(i - 1) % #steps + 1]
        local s0 = seed
        assert.are.equal(a, step(fast, a))
        seed = s0 -- the same random arguments for the twin
        assert.are.equal(b, step(slow, b))
        same(pack(a:position()), pack(b:position()), k .. ' position')
        same(pack(a:angle()), pack(b:angle()), k .. ' angle')
        same(pack(a:bbox()), pack(b:bbox()), k .. ' bbox')
        same(pack(unpack(a:vertices())), pack(unpack(b:vertices())), k .. ' vertices')
      end
    end
  end)

  it('for a shape in a world, which sees the move at world:update', function()
    local function run(M)
      local w = M.world()
      local s = w:add(M.rectangle(0, 0, 1, 1), 'box')
      w:add(M.circle(10, 10, 1), 'ball')
      M.move(s, 9, 9)
      w:update(s)
      local found = {}
      for _, shape in ipairs(w:queryShape(s)) do found[#found + 1] = w:value(shape) end
      table.sort(found)
      return table.concat(found, ' '), M.position(s)
    end
    same(pack(run(fast)), pack(run(slow)), 'world')
    assert.are.equal('ball box', (run(fast)))
  end)

  it('in coroutines that interleave their calls', function()
    local function worker(x, y)
      return coroutine.wrap(function()
        for _ = 1, 50 do
          local r = pack(fast.collide(x, y))
          coroutine.yield()
          same(r, pack(slow.collide(x, y)), 'coroutine')
          fast.move(x, 0.01, 0)
        end
        return 'done'
      end)
    end
    local w1 = worker(fast.circle(0, 0, 1), fast.rectangle(0.5, -1, 2, 2, 0.3))
    local w2 = worker(fast.polygon(0, 0, 3, 0, 1, 2), fast.capsule(0, 2, 2, 3, 0.5))
    for _ = 1, 50 do w1() w2() end
    assert.are.equal('done', w1())
    assert.are.equal('done', w2())
  end)
end)

describe('the fast path raises the errors of the C path', function()
  local dead = fast.circle(0, 0, 1)
  dead:destroy()
  local good = fast.rectangle(0, 0, 2, 1, 0.5)
  local set = fast.staticset({ fast.circle(0, 0, 1) })
  local world = fast.world()
  local odd = {
    nil, true, 'x', '1', '0x10', {}, setmetatable({}, MT), set, world, io.stdout, print, newproxy(true),
    dead, 0 / 0, math.huge, -math.huge, 1e16, -1, 0, 2.5,
  }
  local NODD = 20

  -- Every argument list of length up to n made from the shape and the odd values, a random sample.
  local function argument_lists(n, count)
    local lists = {}
    for _ = 1, count do
      local len = math.floor(uniform(0, n + 1.999))
      local list = { n = len }
      for i = 1, len do
        local pick = math.floor(uniform(0, NODD + 3))
        if pick >= NODD then list[i] = good else list[i] = odd[pick + 1] end
      end
      lists[#lists + 1] = list
    end
    return lists
  end

  it('for random argument lists, module functions and methods alike', function()
    local arity = { overlaps = 2, collide = 2, distance = 2, contains = 3, raycast = 6, position = 1,
      move = 3, setPosition = 3, rotate = 2, setAngle = 2, setTransform = 4 }
    local errors = 0
    for _, name in ipairs(WRAPPED) do
      for _, args in ipairs(argument_lists(arity[name] + 1, 300)) do
        local r = both(name, unpack(args, 1, args.n))
        if not r[1] then errors = errors + 1 end
        if getmetatable(args[1]) == MT and type(args[1]) == 'userdata' then
          -- the method form: "bad argument #1" is then the first argument after the colon
          local call = function(M) return with_methods(M, function()
            local x = { args[1][name](args[1], unpack(args, 2, args.n)) }
            return unpack(x)
          end) end
          same(pack(pcall(call, fast)), pack(pcall(call, slow)), name .. ' method')
        end
      end
    end
    assert.is_true(errors > 1000, 'errors: ' .. errors)
  end)

  it('naming the function and the argument as the C functions do', function()
    local cases = {
      function(M) local x = M.overlaps(good) return x end,
      function(M) local x = M.collide(good, 1) return x end,
      function(M) local x = M.distance(dead, good) return x end,
      function(M) local x = M.contains(good, 0 / 0, 0) return x end,
      function(M) local x = M.raycast(good, 0, 0, 0, 0) return x end,
      function(M) local x = M.raycast(good, 0, 0, 1, 0, -1) return x end,
      function(M) local x = M.position(set) return x end,
      function(M) local x = M.move(good, 1) return x end,
      function(M) local x = M.setPosition(good, 1e16, 0) return x end,
      function(M) local x = M.rotate(good, 'x') return x end,
      function(M) local x = M.setAngle(dead, 1) return x end,
      function(M) local x = M.setTransform(good, 1, 2, math.huge) return x end,
      function(M) return with_methods(M, function() local x = good:overlaps() return x end) end,
      function(M) return with_methods(M, function() local x = good:collide(world) return x end) end,
      function(M) return with_methods(M, function() local x = good:distance(io.stdout) return x end) end,
      function(M) return with_methods(M, function() local x = good:contains(1) return x end) end,
      function(M) return with_methods(M, function() local x = good:raycast(0, 0, 1, 0, {}) return x end) end,
      function(M) return with_methods(M, function() local x = good:move(0, 0 / 0) return x end) end,
      function(M) return with_methods(M, function() local x = good:setTransform(0, 0) return x end) end,
      function(M) return with_methods(M, function() local x = dead:position() return x end) end,
    }
    for i, case in ipairs(cases) do
      local okf, ef = pcall(case, fast)
      local oks, es = pcall(case, slow)
      assert.is_false(okf, 'case ' .. i)
      assert.is_false(oks, 'case ' .. i)
      assert.are.equal(es, ef, 'case ' .. i)
    end
    local _, e = pcall(cases[1], fast)
    assert.matches("bad argument #2 to 'overlaps' %(collide2d.shape expected, got no value%)$", e)
    _, e = pcall(cases[13], fast)
    assert.matches("bad argument #1 to 'overlaps' %(collide2d.shape expected, got no value%)$", e)
    _, e = pcall(cases[20], fast)
    assert.matches('attempt to use a destroyed shape$', e)
  end)

  it('for a userdata given the shape metatable with debug.setmetatable', function()
    local function expect_type_error(u)
      for _, call in ipairs({
        function(M) return M.overlaps(good, u) end,
        function(M) return M.collide(u, good) end,
        function(M) return M.move(u, 1, 1) end,
        function(M) return M.position(u) end,
      }) do
        local okf, ef = pcall(call, fast)
        local oks, es = pcall(call, slow)
        assert.is_false(okf)
        assert.are.equal(es, ef)
        -- named as Lua 5.4 names it, by the metatable's __name: here the shapes' own, so the message
        -- names what the value claims to be
        assert.matches('collide2d.shape expected, got collide2d.shape', ef, 1, true)
      end
    end
    -- one of our own userdata, a set, larger than a shape box
    local set_mt = getmetatable(set)
    debug.setmetatable(set, MT)
    local ok, err = pcall(expect_type_error, set)
    debug.setmetatable(set, set_mt)
    assert(ok, err)
    -- userdata of no size at all, allocated where collected shapes lived: nothing of a shape box is
    -- left in that memory
    for _ = 1, 3 do
      for _ = 1, 200 do fast.circle(0, 0, 1) end
      collectgarbage('collect')
      collectgarbage('collect')
      for _ = 1, 200 do
        local u = newproxy(false)
        debug.setmetatable(u, MT)
        ok, err = pcall(expect_type_error, u)
        debug.setmetatable(u, nil) -- or the shapes' __gc would raise when it is collected
        assert(ok, err)
      end
    end
    -- light userdata (there is no way to make one from Lua: borrow the one the wrappers hold)
    local isshape
    for i = 1, math.huge do
      local name, value = debug.getupvalue(fast.overlaps, i)
      if name == nil then break end
      if name == 'isshape' then isshape = value end
    end
    local light
    for i = 1, math.huge do
      local name, value = debug.getupvalue(isshape, i)
      if name == nil then break end
      if name == 'LIGHT' then light = value end
    end
    assert.are.equal('userdata', type(light))
    local light_mt = debug.getmetatable(light)
    debug.setmetatable(light, MT)
    ok, err = pcall(expect_type_error, light)
    debug.setmetatable(light, light_mt)
    assert(ok, err)
  end)
end)

describe('on the fast path, 100,000 calls allocate nothing', function()
  it('for every wrapped function', function()
    local a, b = fast.rectangle(0, 0, 2, 1, 0.3), fast.polygon(0, 0, 3, 0, 4, 2, 1, 3)
    local function loop(n)
      for i = 1, n do
        fast.collide(a, b)
        fast.overlaps(a, b)
        fast.distance(a, b)
        fast.contains(b, i % 5, 1)
        fast.raycast(a, -10, 0, 1, 0, 100)
        fast.position(a)
        fast.move(b, 0.001, 0)
        fast.rotate(b, 0.001)
        fast.setPosition(a, 0, 0)
        fast.setAngle(a, 0.3)
        fast.setTransform(a, 0, 0, 0.3)
      end
    end
    require('spec.support.garbage').assert_no_garbage(loop)
  end)
end)
