-- spec/module_spec.lua - the module and its userdata: loading, version, the metatable conventions
-- (__name, __index, __tostring, __gc, __close), destroy, and every error a Lua caller can provoke:
-- wrong arguments raise the standard "bad argument" errors, a destroyed shape raises, nothing crashes.
local collide2d = require 'collide2d'
local expect = require 'spec.support.expect'

local DESTROYED = 'attempt to use a destroyed shape'

describe('require "collide2d"', function()
  it('returns the module table and defines no globals', function()
    local before = {}
    for k in pairs(_G) do before[k] = true end
    package.loaded.collide2d = nil
    local again = require 'collide2d'
    for k in pairs(_G) do assert.is_true(before[k], 'new global ' .. tostring(k)) end
    assert.is_table(again)
    -- Loading again points the shared metatable's __index at the new table; put the first one back.
    package.loaded.collide2d = collide2d
    getmetatable(collide2d.circle(0, 0, 1)).__index = collide2d
  end)

  it('reports the core version as _VERSION and version()', function()
    assert.are.equal('1.0.0', collide2d._VERSION)
    local number, text = collide2d.version()
    assert.are.equal(10000, number)
    assert.are.equal('1.0.0', text)
  end)

  it('offers every function under its documented name', function()
    local names = { 'angle', 'bbox', 'box', 'capsule', 'chain', 'circle', 'clone', 'closest', 'collide', 'concave',
      'contains', 'destroy', 'distance', 'hull', 'move', 'overlaps', 'part', 'parts', 'polygon', 'position',
      'radius', 'raycast',
      'rectangle', 'rotate', 'segment', 'setAngle', 'setPosition', 'setTransform', 'staticset', 'sweep',
      'sweepMotion',
      'type', 'version', 'vertices', 'world' }
    for _, name in ipairs(names) do assert.is_function(collide2d[name], name) end
    local count = 0
    for _, v in pairs(collide2d) do if type(v) == 'function' then count = count + 1 end end
    assert.are.equal(#names, count)
  end)
end)

describe('a shape userdata', function()
  it('is named collide2d.shape and uses the module table as __index', function()
    local c = collide2d.circle(0, 0, 1)
    local mt = getmetatable(c)
    assert.are.equal('userdata', type(c))
    assert.are.equal('collide2d.shape', mt.__name)
    assert.are.equal(collide2d, mt.__index)
    assert.are.equal(collide2d.collide, c.collide)
  end)

  it('answers a:f(b) exactly as collide2d.f(a, b)', function()
    local a, b = collide2d.circle(0, 0, 1), collide2d.rectangle(0.5, -1, 2, 2)
    assert.are.same({ collide2d.collide(a, b) }, { a:collide(b) })
    assert.are.same({ collide2d.distance(b, a) }, { b:distance(a) })
    assert.are.equal(collide2d.overlaps(a, b), a:overlaps(b))
  end)

  it('prints its kind and address, or that it was destroyed', function()
    local kinds = {
      circle = collide2d.circle(0, 0, 1),
      rectangle = collide2d.rectangle(0, 0, 1, 1),
      polygon = collide2d.polygon(0, 0, 1, 0, 0, 1),
      capsule = collide2d.capsule(0, 0, 1, 0, 1),
      segment = collide2d.segment(0, 0, 1, 0),
    }
    for kind, shape in pairs(kinds) do
      assert.matches('^collide2d%.shape %(' .. kind .. ', ' .. expect.ADDRESS .. '%)$', tostring(shape))
      shape:destroy()
      assert.are.equal('collide2d.shape (destroyed)', tostring(shape))
    end
  end)

  it('is classified by collide2d.type like io.type: kind, "destroyed shape" or nil', function()
    assert.are.equal('circle', collide2d.circle(0, 0, 1):type())
    assert.are.equal('rectangle', collide2d.rectangle(0, 0, 1, 1):type())
    assert.are.equal('polygon', collide2d.polygon(0, 0, 1, 0, 0, 1):type())
    assert.are.equal('polygon', collide2d.hull(0, 0, 1, 1, 1, 0, 0, 1):type())
    assert.are.equal('capsule', collide2d.capsule(0, 0, 1, 0, 1):type())
    assert.are.equal('segment', collide2d.segment(0, 0, 1, 0):type())
    local s = collide2d.circle(0, 0, 1)
    s:destroy()
    assert.are.equal('destroyed shape', collide2d.type(s))
    assert.is_nil(collide2d.type(42))
    assert.is_nil(collide2d.type(nil))
    assert.is_nil(collide2d.type(io.stdout))
    assert.is_nil(collide2d.type(setmetatable({}, getmetatable(s))))
    expect.raises("bad argument #1 to 'type' (value expected)", function() collide2d.type() end)
  end)
end)

describe('shape:destroy()', function()
  it('frees the shape now; any later use raises', function()
    local a, b = collide2d.circle(0, 0, 1), collide2d.circle(1, 0, 1)
    a:destroy()
    expect.raises(DESTROYED, function() a:overlaps(b) end)
    expect.raises(DESTROYED, function() b:overlaps(a) end)
    expect.raises(DESTROYED, function() collide2d.collide(b, a) end)
  end)

  it('is what __gc and __close do, and any of them may run again', function()
    local a, b = collide2d.circle(0, 0, 1), collide2d.circle(0, 0, 1)
    local mt = getmetatable(a)
    mt.__gc(a)
    assert.are.equal('destroyed shape', collide2d.type(a))
    mt.__close(b)
    assert.are.equal('destroyed shape', collide2d.type(b))
    a:destroy()
    mt.__close(a)
    mt.__gc(b)
    b:destroy()
    assert.are.equal('collide2d.shape (destroyed)', tostring(a))
  end)

  it('lets the collector free an unreachable shape (and a destroyed one)', function()
    local weak = setmetatable({}, { __mode = 'v' })
    weak[1] = collide2d.circle(0, 0, 1)
    weak[2] = collide2d.rectangle(0, 0, 1, 1)
    weak[2]:destroy()
    collectgarbage('collect')
    collectgarbage('collect')
    assert.is_nil(weak[1])
    assert.is_nil(weak[2])
  end)

  if _VERSION == 'Lua 5.4' then
    it('runs when a to-be-closed variable goes out of scope (Lua 5.4)', function()
      -- load() keeps the <close> syntax away from the Lua 5.1 parser that also reads this file.
      local chunk = assert(load([[
        local collide2d = ...
        local kept
        do
          local s <close> = collide2d.circle(0, 0, 1)
          kept = s
          assert(collide2d.type(kept) == 'circle')
        end
        return kept
      ]]))
      assert.are.equal('destroyed shape', collide2d.type(chunk(collide2d)))
    end)
  end
end)

-- One valid call per function that takes a shape, to prove each rejects destroyed and foreign shapes.
local uses = {
  angle = function(s) return s:angle() end,
  bbox = function(s) return s:bbox() end,
  clone = function(s) return s:clone() end,
  closest = function(s) return s:closest(0, 0) end,
  collide = function(s, o) return s:collide(o) end,
  contains = function(s) return s:contains(0, 0) end,
  distance = function(s, o) return s:distance(o) end,
  move = function(s) return s:move(1, 1) end,
  overlaps = function(s, o) return s:overlaps(o) end,
  position = function(s) return s:position() end,
  radius = function(s) return s:radius() end,
  raycast = function(s) return s:raycast(0, 0, 1, 0) end,
  rotate = function(s) return s:rotate(1) end,
  setAngle = function(s) return s:setAngle(1) end,
  setPosition = function(s) return s:setPosition(1, 1) end,
  setTransform = function(s) return s:setTransform(1, 1, 1) end,
  vertices = function(s) return s:vertices() end,
}

-- Lua names a function in an error from the call site, so each call must be spelled collide2d.name().
local function named_call(name)
  local code = 'local collide2d = ... return function(...) collide2d.' .. name .. '(...) end'
  return assert((loadstring or load)(code))(collide2d)
end

describe('every function taking a shape', function()
  for name, use in pairs(uses) do
    it(name .. ' raises on a destroyed shape', function()
      local s, other = collide2d.circle(0, 0, 1), collide2d.circle(1, 0, 1)
      s:destroy()
      expect.raises(DESTROYED, use, s, other)
    end)

    it(name .. ' names a non-shape in a standard bad argument error', function()
      expect.raises("bad argument #1 to '" .. name .. "' (collide2d.shape expected, got table)",
        function() named_call(name)({}, collide2d.circle(0, 0, 1)) end)
      expect.raises("bad argument #1 to '" .. name .. "' (collide2d.shape expected, got no value)",
        function() named_call(name)() end)
    end)
  end

  it('collide, overlaps and distance check their second shape too', function()
    local a = collide2d.circle(0, 0, 1)
    expect.raises("bad argument #2 to 'collide' (collide2d.shape expected, got number)",
      function() collide2d.collide(a, 5) end)
    expect.raises("bad argument #1 to 'overlaps' (collide2d.shape expected, got nil)",
      function() a:overlaps(nil) end)
    expect.raises("bad argument #2 to 'distance' (collide2d.shape expected, got string)",
      function() collide2d.distance(a, 'b') end)
  end)
end)

describe('constructor argument errors', function()
  it('name a missing or non-number argument', function()
    expect.raises("bad argument #3 to 'circle' (number expected, got no value)",
      function() collide2d.circle(0, 0) end)
    expect.raises("bad argument #1 to 'circle' (number expected, got string)",
      function() collide2d.circle('x', 0, 1) end)
    expect.raises("bad argument #4 to 'rectangle' (number expected, got nil)",
      function() collide2d.rectangle(0, 0, 1, nil) end)
    expect.raises("bad argument #5 to 'rectangle' (number expected, got table)",
      function() collide2d.rectangle(0, 0, 1, 1, {}) end)
    expect.raises("bad argument #5 to 'capsule' (number expected, got no value)",
      function() collide2d.capsule(0, 0, 1, 0) end)
    expect.raises("bad argument #2 to 'segment' (number expected, got boolean)",
      function() collide2d.segment(0, true, 1, 0) end)
  end)

  it('name a size that is not positive', function()
    expect.raises("bad argument #3 to 'circle' (size or radius must be positive)",
      function() collide2d.circle(0, 0, 0) end)
    expect.raises("bad argument #3 to 'circle' (size or radius must be positive)",
      function() collide2d.circle(-5, -5, -1) end)
    expect.raises("bad argument #3 to 'rectangle' (size or radius must be positive)",
      function() collide2d.rectangle(-1, -1, 0, 1) end)
    expect.raises("bad argument #4 to 'rectangle' (size or radius must be positive)",
      function() collide2d.rectangle(0, 0, 2, -1) end)
    expect.raises("bad argument #5 to 'capsule' (size or radius must be positive)",
      function() collide2d.capsule(0, 0, 1, 0, -0.5) end)
  end)

  it('name a NaN, an infinity or a number beyond C2D_MAX_COORDINATE (1e15)', function()
    expect.raises("bad argument #2 to 'circle' (number is NaN or infinite)",
      function() collide2d.circle(0, 0 / 0, 1) end)
    expect.raises("bad argument #3 to 'circle' (number is NaN or infinite)",
      function() collide2d.circle(0, 0, math.huge) end)
    expect.raises("bad argument #1 to 'circle' (number or count out of range)",
      function() collide2d.circle(1e16, 0, 1) end)
    expect.raises("bad argument #5 to 'rectangle' (number is NaN or infinite)",
      function() collide2d.rectangle(0, 0, 1, 1, -math.huge) end)
    expect.raises("bad argument #4 to 'capsule' (number or count out of range)",
      function() collide2d.capsule(0, 0, 1, -2e15, 1) end)
    expect.raises("bad argument #3 to 'polygon' (number is NaN or infinite)",
      function() collide2d.polygon(0, 0, 0 / 0, 0, 0, 1) end)
    expect.raises("bad argument #1 to 'polygon' (number or count out of range)",
      function() collide2d.polygon({ 0, 0, 1, 0, 0, 1e300 }) end)
  end)

  it('name the second point of a zero-length segment or capsule', function()
    local msg = 'degenerate geometry (too few distinct points, collinear, or zero length)'
    expect.raises("bad argument #3 to 'segment' (" .. msg .. ')', function() collide2d.segment(1, 2, 1, 2) end)
    expect.raises("bad argument #3 to 'capsule' (" .. msg .. ')', function() collide2d.capsule(1, 2, 1, 2, 1) end)
  end)

  it('reject point lists that are odd, short, collinear or not convex', function()
    local degenerate = 'degenerate geometry (too few distinct points, collinear, or zero length)'
    expect.raises("bad argument #6 to 'polygon' (number expected, got no value)",
      function() collide2d.polygon(0, 0, 1, 0, 1) end)
    expect.raises("bad argument #66 to 'polygon' (number expected, got no value)", function()
      local t = {}
      for i = 1, 65 do t[i] = i end
      collide2d.polygon((table.unpack or unpack)(t))
    end)
    expect.raises("bad argument #1 to 'polygon' (number expected at index 6, got nil)",
      function() collide2d.polygon({ 0, 0, 1, 0, 1 }) end)
    expect.raises("bad argument #1 to 'hull' (number expected at index 2, got string)",
      function() collide2d.hull({ 0, 'y', 1, 0, 1, 1 }) end)
    expect.raises("bad argument #1 to 'polygon' (" .. degenerate .. ')', function() collide2d.polygon() end)
    expect.raises("bad argument #1 to 'polygon' (" .. degenerate .. ')', function() collide2d.polygon({}) end)
    expect.raises("bad argument #1 to 'polygon' (" .. degenerate .. ')',
      function() collide2d.polygon(0, 0, 1, 1, 2, 2) end)
    expect.raises("bad argument #1 to 'hull' (" .. degenerate .. ')',
      function() collide2d.hull(0, 0, 1, 1, 2, 2, 3, 3) end)
    expect.raises("bad argument #1 to 'polygon' (points do not form a convex polygon)",
      function() collide2d.polygon(0, 0, 2, 0, 1, 0.5, 2, 2, 0, 2) end)
  end)

  it('refuse more than C2D_MAX_POLYGON_POINTS (65536) points before reading them', function()
    -- All zeros: had the points been read first, the error would be about degenerate geometry.
    local t = {}
    for i = 1, 2 * 65537 do t[i] = 0 end
    expect.raises("bad argument #1 to 'polygon' (number or count out of range)",
      function() collide2d.polygon(t) end)
  end)
end)

describe('method argument errors', function()
  local s = collide2d.rectangle(0, 0, 2, 2)

  it('count arguments after self, as Lua does for methods', function()
    expect.raises("bad argument #1 to 'move' (number expected, got string)", function() s:move('x', 1) end)
    expect.raises("bad argument #2 to 'move' (number expected, got no value)", function() s:move(1) end)
    expect.raises("bad argument #1 to 'rotate' (number expected, got nil)", function() s:rotate(nil) end)
    expect.raises("bad argument #2 to 'contains' (number expected, got no value)", function() s:contains(1) end)
    expect.raises("bad argument #3 to 'setTransform' (number expected, got no value)",
      function() s:setTransform(1, 2) end)
    expect.raises("bad argument #1 to 'vertices' (table expected, got number)", function() s:vertices(5) end)
    expect.raises("calling 'move' on bad self (collide2d.shape expected, got table)",
      function() local t = { move = collide2d.move }; t:move(1, 1) end)
  end)

  it('carry the core status for bad numbers and leave the shape as it was', function()
    local shape = collide2d.circle(1, 2, 1)
    expect.raises("bad argument #2 to 'setPosition' (number is NaN or infinite)",
      function() shape:setPosition(0, 0 / 0) end)
    expect.raises("bad argument #1 to 'setAngle' (number is NaN or infinite)",
      function() shape:setAngle(math.huge) end)
    expect.raises("bad argument #1 to 'move' (number or count out of range)",
      function() shape:move(2e15, 0) end)
    expect.raises("bad argument #1 to 'rotate' (number is NaN or infinite)",
      function() shape:rotate(0 / 0) end)
    expect.values({ 1, 2 }, shape:position())
    expect.values({ 0 }, shape:angle())
  end)

  it('name a zero ray direction and a NaN ray limit', function()
    local degenerate = 'degenerate geometry (too few distinct points, collinear, or zero length)'
    expect.raises("bad argument #3 to 'raycast' (" .. degenerate .. ')', function() s:raycast(0, 0, 0, 0) end)
    expect.raises("bad argument #5 to 'raycast' (number is NaN or infinite)",
      function() s:raycast(-1, 1, 1, 0, 0 / 0) end)
    expect.raises("bad argument #1 to 'closest' (number is NaN or infinite)",
      function() s:closest(math.huge, 0) end)
  end)
end)
