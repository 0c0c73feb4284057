-- spec/world_spec.lua - worlds from Lua: collide2d.world and shape:world(), every method (add, remove,
-- update, has, count, value, setValue, setBits, bits, setMotion, motion, optimize, destroy, queryRect,
-- queryPoint, queryShape, raycast, raycastAll, pairs, move, stepBall), every error a caller can provoke, and what
-- the binding adds to the C world: Lua values kept alive, filters and responses written in Lua,
-- errors raised inside them, changes made from inside them, coroutines, the collector, and queries
-- that agree with brute force over 300 random shapes through random moves, adds and removes.
local collide2d = require 'collide2d'
local expect = require 'spec.support.expect'

local DESTROYED = 'attempt to use a destroyed world'
local unpack = table.unpack or unpack

-- Deterministic, so a failure reproduces in every Lua: Park and Miller's generator, exact in doubles.
local seed = 777
local function random()
  seed = (seed * 16807) % 2147483647
  return seed / 2147483647
end
local function rand(n) return math.floor(random() * n) + 1 end

-- Bitwise and of two integers below 2^32, for Lua 5.1 (no operators, no library).
local function band(a, b)
  local r, bit = 0, 1
  while a > 0 and b > 0 do
    if a % 2 == 1 and b % 2 == 1 then r = r + bit end
    a, b, bit = (a - a % 2) / 2, (b - b % 2) / 2, bit * 2
  end
  return r
end

local function random_shape()
  local x, y, size = 1000 * random(), 1000 * random(), 5 + 55 * random()
  local k = rand(5)
  if k == 1 then
    return collide2d.circle(x, y, size / 2)
  elseif k == 2 then
    return collide2d.rectangle(x, y, size, size * (0.2 + random()), 3 * random())
  elseif k == 3 then
    return collide2d.polygon(x, y, x + size, y + size * random(), x + size * random(), y + size)
  elseif k == 4 then
    return collide2d.capsule(x, y, x + size * (random() - 0.5), y + size * (random() - 0.5) + 1, size / 5)
  end
  return collide2d.segment(x, y, x + size * (random() - 0.5), y + size)
end

-- A world of shapes named by value, added in order.
local function world_of(list)
  local w = collide2d.world()
  for i, s in ipairs(list) do w:add(s, i) end
  return w
end

describe('collide2d.world([opts])', function()
  it('makes an empty world, a userdata named collide2d.world', function()
    local w = collide2d.world()
    assert.are.equal('userdata', type(w))
    assert.are.equal('collide2d.world', getmetatable(w).__name)
    assert.are.equal(0, w:count())
    assert.matches('^collide2d%.world %(0 shapes, ' .. expect.ADDRESS .. '%)$', tostring(w))
    w:add(collide2d.circle(0, 0, 1))
    assert.matches('^collide2d%.world %(1 shapes, ' .. expect.ADDRESS .. '%)$', tostring(w))
    assert.is_nil(collide2d.type(w))
  end)

  it('takes the broadphase margins', function()
    local w = collide2d.world({ margin = 2, relativeMargin = 0 })
    local s = w:add(collide2d.circle(0, 0, 1))
    assert.are.same({ s }, (w:queryPoint(0, 0)))
    assert.are.equal(0, collide2d.world({ margin = 0 }):count())
    assert.are.equal(0, collide2d.world({}):count())
  end)

  it('raises the standard errors', function()
    expect.raises("bad argument #1 to 'world' (table expected, got number)", function() collide2d.world(5) end)
    expect.raises("bad argument #1 to 'world' (margin: number expected, got string)",
      function() collide2d.world({ margin = 'x' }) end)
    expect.raises("bad argument #1 to 'world' (margin: number or count out of range)",
      function() collide2d.world({ margin = -1 }) end)
    expect.raises("bad argument #1 to 'world' (relativeMargin: number is NaN or infinite)",
      function() collide2d.world({ relativeMargin = 0 / 0 }) end)
    expect.raises("bad argument #1 to 'world' (relativeMargin: number or count out of range)",
      function() collide2d.world({ relativeMargin = 1e16 }) end)
    expect.raises("bad argument #1 to 'world' (relativeMargin: number expected, got boolean)",
      function() collide2d.world({ relativeMargin = true }) end)
  end)
end)

describe('world membership', function()
  it('add returns the shape and keeps it and its value; shape:world() names the world', function()
    local w = collide2d.world()
    local s = collide2d.circle(0, 0, 1)
    assert.is_nil(s:world())
    assert.is_false(w:has(s))
    assert.are.equal(s, w:add(s, 'ball'))
    assert.is_true(w:has(s))
    assert.are.equal(w, s:world())
    assert.are.equal(w, collide2d.world(s))
    assert.are.equal(1, w:count())
    assert.are.equal('ball', w:value(s))
    assert.are.equal(s, w:setValue(s, { hp = 3 }))
    assert.are.equal(3, w:value(s).hp)
    w:setValue(s, nil)
    assert.is_nil(w:value(s))
    local t = w:add(collide2d.circle(5, 0, 1))
    assert.is_nil(w:value(t))
    assert.are.equal(2, w:count())
  end)

  it('remove takes the shape out and leaves it usable', function()
    local w = collide2d.world()
    local s = w:add(collide2d.circle(0, 0, 1), 'v')
    w:remove(s)
    assert.is_false(w:has(s))
    assert.is_nil(s:world())
    assert.are.equal(0, w:count())
    assert.are.equal(0, select(2, w:queryPoint(0, 0)))
    expect.values({ 0, 0 }, s:position())
    w:add(s, 'again')
    assert.are.equal('again', w:value(s))
  end)

  it('update makes the world see a moved shape', function()
    local w = collide2d.world()
    local s = w:add(collide2d.circle(0, 0, 1))
    s:setPosition(100, 100)
    w:update(s)
    assert.are.equal(0, select(2, w:queryPoint(0, 0)))
    assert.are.equal(s, (w:queryPoint(100, 100))[1])
  end)

  it('setBits and bits set and read the filter bits (default: category 1, every mask bit)', function()
    local w = collide2d.world()
    local s = w:add(collide2d.circle(0, 0, 1))
    assert.are.same({ 1, 4294967295 }, { w:bits(s) })
    assert.are.equal(s, w:setBits(s, 6, 0))
    assert.are.same({ 6, 0 }, { w:bits(s) })
    w:setBits(s, 4294967295, 4294967295)
    assert.are.same({ 4294967295, 4294967295 }, { w:bits(s) })
  end)

  it('optimize changes no answer', function()
    local list = {}
    for i = 1, 50 do list[i] = random_shape() end
    local w = world_of(list)
    local before = { w:queryRect(0, 0, 500, 500) }
    w:optimize()
    assert.are.same(before, { w:queryRect(0, 0, 500, 500) })
  end)

  it('a shape is in one world at a time', function()
    local w, other = collide2d.world(), collide2d.world()
    local s = w:add(collide2d.circle(0, 0, 1))
    expect.raises('shape is already in this world', function() w:add(s) end)
    expect.raises('shape is already in another world', function() other:add(s) end)
    expect.raises('shape is not in this world', function() other:remove(s) end)
    assert.is_false(other:has(s))
    w:remove(s)
    other:add(s)
    assert.are.equal(other, s:world())
  end)

  it('a shape destroyed while in a world leaves it first', function()
    local w = collide2d.world()
    local a = w:add(collide2d.circle(0, 0, 1), 'a')
    local b = w:add(collide2d.circle(0.5, 0, 1), 'b')
    a:destroy()
    assert.are.equal(1, w:count())
    assert.is_false(w:has(a))
    assert.are.same({ b }, (w:queryPoint(0, 0)))
    assert.are.equal(0, select(2, w:pairs()))
    expect.raises('attempt to use a destroyed shape', function() a:world() end)
    expect.raises('attempt to use a destroyed shape', function() w:value(a) end)
    expect.raises('attempt to use a destroyed shape', function() w:add(a) end)
    getmetatable(b).__gc(b)
    assert.are.equal(0, w:count())
  end)

  it('raises the standard errors for every method', function()
    local w = collide2d.world()
    local s, out = collide2d.circle(0, 0, 1), collide2d.circle(5, 5, 1)
    w:add(s)
    local methods = getmetatable(w).__index
    expect.raises("bad argument #1 to 'count' (collide2d.world expected, got number)", function() methods.count(5) end)
    expect.raises("bad argument #1 to 'add' (collide2d.world expected, got table)", function() methods.add({}, s) end)
    expect.raises("bad argument #1 to 'add' (collide2d.shape expected, got number)", function() w:add(5) end)
    expect.raises("bad argument #1 to 'remove' (collide2d.shape expected, got no value)", function() w:remove() end)
    expect.raises("bad argument #1 to 'update' (collide2d.shape expected, got table)", function() w:update({}) end)
    expect.raises("bad argument #1 to 'has' (collide2d.shape expected, got nil)", function() w:has(nil) end)
    expect.raises("bad argument #1 to 'value' (collide2d.shape expected, got string)", function() w:value('s') end)
    expect.raises("bad argument #1 to 'setValue' (collide2d.shape expected, got boolean)",
      function() w:setValue(true, 1) end)
    expect.raises("bad argument #1 to 'bits' (collide2d.shape expected, got no value)", function() w:bits() end)
    for _, use in ipairs({ function() w:remove(out) end, function() w:update(out) end,
      function() w:value(out) end, function() w:setValue(out, 1) end, function() w:setBits(out, 1, 1) end,
      function() w:bits(out) end }) do
      expect.raises('shape is not in this world', use)
    end
    expect.raises("bad argument #3 to 'setBits' (number expected, got no value)", function() w:setBits(s, 1) end)
    expect.raises("bad argument #2 to 'setBits' (number expected, got string)", function() w:setBits(s, 'x', 1) end)
    expect.raises("bad argument #3 to 'setBits' (integer from 0 to 0xFFFFFFFF expected)",
      function() w:setBits(s, 1, -1) end)
    expect.raises("bad argument #3 to 'setBits' (integer from 0 to 0xFFFFFFFF expected)",
      function() w:setBits(s, 1, 4294967296) end)
    expect.raises("bad argument #2 to 'setBits' (integer from 0 to 0xFFFFFFFF expected)",
      function() w:setBits(s, 1.5, 1) end)
  end)
end)

describe('world:destroy()', function()
  it('frees the world; its shapes leave it; __gc and __close may run again', function()
    local w = collide2d.world()
    local s = w:add(collide2d.circle(0, 0, 1))
    local mt = getmetatable(w)
    w:destroy()
    assert.are.equal('collide2d.world (destroyed)', tostring(w))
    assert.is_nil(s:world())
    mt.__gc(w)
    mt.__close(w)
    w:destroy()
    collide2d.world():add(s)
  end)

  it('leaves a world on which every method raises', function()
    local w = collide2d.world()
    local s = w:add(collide2d.circle(0, 0, 1))
    w:destroy()
    local uses = {
      add = function() w:add(collide2d.circle(0, 0, 1)) end, remove = function() w:remove(s) end,
      update = function() w:update(s) end, has = function() w:has(s) end, count = function() w:count() end,
      value = function() w:value(s) end, setValue = function() w:setValue(s, 1) end,
      setBits = function() w:setBits(s, 1, 1) end, bits = function() w:bits(s) end,
      optimize = function() w:optimize() end, queryRect = function() w:queryRect(0, 0, 1, 1) end,
      queryPoint = function() w:queryPoint(0, 0) end, queryShape = function() w:queryShape(s) end,
      raycast = function() w:raycast(0, 0, 1, 0) end, raycastAll = function() w:raycastAll(0, 0, 1, 0) end,
      pairs = function() w:pairs() end, move = function() w:move(s, 1, 0) end,
      stepBall = function() w:stepBall(0, 0, 1, 0, 1, 1) end,
    }
    for name, use in pairs(uses) do
      local ok, err = pcall(use)
      assert(not ok, name .. ' did not raise')
      assert(err:find(DESTROYED, 1, true), name .. ': ' .. err)
    end
  end)

  if _VERSION == 'Lua 5.4' then
    it('runs when a to-be-closed world goes out of scope (Lua 5.4)', function()
      local chunk = assert(load([[
        local collide2d, s = ...
        local kept
        do
          local w <close> = collide2d.world()
          w:add(s)
          kept = w
        end
        return kept
      ]]))
      local s = collide2d.circle(0, 0, 1)
      assert.are.equal('collide2d.world (destroyed)', tostring(chunk(collide2d, s)))
      assert.is_nil(s:world())
    end)
  end
end)

describe('the collector', function()
  it('frees an unreachable world; its shapes stay usable and leave it', function()
    local s = collide2d.circle(0, 0, 1)
    local weak = setmetatable({}, { __mode = 'v' })
    do
      local w = collide2d.world()
      w:add(s, 'v')
      weak[1] = w
    end
    collectgarbage('collect')
    collectgarbage('collect')
    assert.is_nil(weak[1])
    assert.is_nil(s:world())
    collide2d.world():add(s)
  end)

  it('keeps the shapes and values of a live world alive', function()
    local weak = setmetatable({}, { __mode = 'v' })
    local w = collide2d.world()
    do
      local value = {}
      weak[1] = w:add(collide2d.circle(0, 0, 1), value)
      weak[2] = value
    end
    collectgarbage('collect')
    collectgarbage('collect')
    assert.is_not_nil(weak[1])
    assert.are.equal(weak[2], w:value(weak[1]))
  end)

  it('frees a world whose values refer back to it, with its shapes', function()
    local weak = setmetatable({}, { __mode = 'v' })
    do
      local w = collide2d.world()
      local entity = { world = w }
      entity.shape = w:add(collide2d.circle(0, 0, 1), entity)
      weak[1], weak[2], weak[3] = w, entity, entity.shape
    end
    collectgarbage('collect')
    collectgarbage('collect')
    assert.is_nil(weak[1])
    assert.is_nil(weak[2])
    assert.is_nil(weak[3])
  end)
end)

describe('world queries', function()
  local a, b, c = collide2d.circle(0, 0, 1), collide2d.rectangle(0.5, -1, 2, 2), collide2d.circle(10, 0, 1)
  local w = collide2d.world()
  w:add(b, 'b')
  w:add(a, 'a')
  w:add(c, 'c')

  it('queryRect lists the shapes meeting the box, in the order they were added', function()
    local items, n = w:queryRect(-5, -5, 10, 10)
    assert.are.same({ b, a }, items)
    assert.are.equal(2, n)
    assert.are.same({ c }, (w:queryRect(9, 0, 0, 0)))
    assert.are.same({}, (w:queryRect(20, 20, 1, 1)))
  end)

  it('fills and trims a reused out table', function()
    local out = { 1, 2, 3, 4, 5, x = 'kept' }
    local items, n = w:queryRect(-5, -5, 10, 10, nil, out)
    assert.are.equal(out, items)
    assert.are.equal(2, n)
    assert.are.equal(2, #out)
    assert.are.same({ b, a, x = 'kept' }, out)
    assert.are.equal(0, select(2, w:queryPoint(50, 50, nil, out)))
    assert.is_nil(out[1])
  end)

  it('queryPoint and queryShape find containing and overlapping shapes', function()
    assert.are.same({ b, a }, (w:queryPoint(0.75, 0)))
    assert.are.same({ a }, (w:queryPoint(-0.75, 0)))
    assert.are.same({ b, a }, (w:queryShape(collide2d.circle(-0.25, 0, 1))))
    assert.are.same({ a }, (w:queryShape(collide2d.circle(-1.5, 0, 1))))
    -- A shape of the world finds itself.
    assert.are.same({ c }, (w:queryShape(c)))
  end)

  it('raycast returns the first shape hit, t, the point and the normal', function()
    local s, t, px, py, nx, ny = w:raycast(-10, 0, 1, 0)
    assert.are.equal(a, s)
    expect.values({ 9, -1, 0, -1, 0 }, t, px, py, nx, ny)
    assert.are.equal(b, (w:raycast(1.5, 20, 0, -1, 20)))
    assert.is_nil(w:raycast(1.5, 20, 0, -1, 5))
    assert.is_nil(w:raycast(-10, 5, 1, 0))
    assert.are.equal(1, select('#', w:raycast(-10, 5, 1, 0)))
  end)

  it('raycastAll returns every hit in order of t, in reused records', function()
    local stale = { shape = 'old', extra = true }
    local out = { stale }
    local hits, n = w:raycastAll(-10, 0, 1, 0, nil, nil, out)
    assert.are.equal(out, hits)
    assert.are.equal(3, n)
    assert.are.equal(stale, hits[1])
    assert.is_true(stale.extra)
    assert.are.same({ a, b, c }, { hits[1].shape, hits[2].shape, hits[3].shape })
    expect.values({ 9, -1, 0, -1, 0 }, hits[1].t, hits[1].x, hits[1].y, hits[1].nx, hits[1].ny)
    expect.values({ 10.5 }, hits[2].t)
    assert.are.equal(1, select(2, w:raycastAll(-10, 0, 1, 0, 9.5, nil, out)))
    assert.are.equal(stale, out[1])
  end)

  it('pairs lists the overlapping pairs, first in the order of adding, with contacts on request', function()
    local list, n = w:pairs()
    assert.are.equal(1, n)
    assert.are.same({ a = b, b = a }, list[1])
    local out = { { a = 0, extra = 1 } }
    local rec = out[1]
    list, n = w:pairs(out, true)
    assert.are.equal(out, list)
    assert.are.equal(rec, list[1])
    assert.are.equal(b, rec.a)
    assert.are.equal(a, rec.b)
    local nx, ny, depth = b:collide(a)
    expect.values({ nx, ny, depth }, rec.nx, rec.ny, rec.depth)
    w:pairs(out)
    assert.are.same({ a = b, b = a, extra = 1 }, rec)
  end)

  it('raise the standard errors', function()
    expect.raises("bad argument #1 to 'queryRect' (number expected, got string)", function() w:queryRect('x', 0, 1, 1) end)
    expect.raises("bad argument #4 to 'queryRect' (number expected, got no value)", function() w:queryRect(0, 0, 1) end)
    expect.raises("bad argument #3 to 'queryRect' (number or count out of range)", function() w:queryRect(0, 0, -1, 1) end)
    expect.raises("bad argument #2 to 'queryRect' (number is NaN or infinite)", function() w:queryRect(0, 0 / 0, 1, 1) end)
    expect.raises("bad argument #5 to 'queryRect' (function or table expected, got number)",
      function() w:queryRect(0, 0, 1, 1, 5) end)
    expect.raises("bad argument #6 to 'queryRect' (table expected, got string)",
      function() w:queryRect(0, 0, 1, 1, nil, 'x') end)
    expect.raises("bad argument #2 to 'queryPoint' (number expected, got no value)", function() w:queryPoint(0) end)
    expect.raises("bad argument #1 to 'queryShape' (collide2d.shape expected, got number)", function() w:queryShape(1) end)
    local dead = collide2d.circle(0, 0, 1)
    dead:destroy()
    expect.raises('attempt to use a destroyed shape', function() w:queryShape(dead) end)
    expect.raises("bad argument #3 to 'raycast' (degenerate geometry (too few distinct points, collinear, or zero length))",
      function() w:raycast(0, 0, 0, 0) end)
    expect.raises("bad argument #5 to 'raycast' (number or count out of range)", function() w:raycast(0, 0, 1, 0, -1) end)
    expect.raises("bad argument #5 to 'raycast' (number is NaN or infinite)", function() w:raycast(0, 0, 1, 0, 0 / 0) end)
    expect.raises("bad argument #6 to 'raycast' (function or table expected, got string)",
      function() w:raycast(0, 0, 1, 0, nil, 'f') end)
    expect.raises("bad argument #7 to 'raycastAll' (table expected, got boolean)",
      function() w:raycastAll(0, 0, 1, 0, nil, nil, true) end)
    expect.raises("bad argument #1 to 'raycastAll' (number is NaN or infinite)",
      function() w:raycastAll(math.huge, 0, 1, 0) end)
    expect.raises("bad argument #1 to 'pairs' (table expected, got number)", function() w:pairs(1) end)
  end)
end)

describe('filters', function()
  local list = {}
  for i = 1, 6 do list[i] = collide2d.circle(i * 0.1, 0, 1) end
  local w = world_of(list)
  w:setBits(list[2], 2, 4294967295)
  w:setBits(list[3], 4, 1)
  w:setBits(list[4], 0, 4294967295)

  it('a function sees each shape and its value and keeps those it answers truthy for', function()
    local seen = {}
    local items = w:queryPoint(0, 0, function(s, v)
      seen[#seen + 1] = v
      assert.are.equal(list[v], s)
      return v % 2 == 0
    end)
    assert.are.same({ list[2], list[6] }, items)   -- list[4] has category 0: no filter sees it
    assert.are.same({ 1, 2, 3, 5, 6 }, seen)
  end)

  it('a table tests the bits, then its fn', function()
    assert.are.same({ list[2] }, (w:queryPoint(0, 0, { mask = 2 })))
    assert.are.same({ list[1], list[3], list[5], list[6] }, (w:queryPoint(0, 0, { category = 1, mask = 5 })))
    assert.are.same({ list[1], list[2], list[5], list[6] }, (w:queryPoint(0, 0, { category = 2 })))
    assert.are.same({ list[5] }, (w:queryPoint(0, 0, { category = 2, fn = function(_, v) return v == 5 end })))
    assert.are.same({}, (w:queryPoint(0, 0, { category = 0 })))
  end)

  it('no filter sees every shape, whatever its bits', function()
    assert.are.same(list, (w:queryPoint(0, 0)))
  end)

  it('work in every query, move and ball step', function()
    local odd = function(_, v) return v % 2 == 1 end
    assert.are.same({ list[1], list[3], list[5] }, (w:queryRect(-1, -1, 2, 2, odd)))
    assert.are.same({ list[1], list[3], list[5] }, (w:queryShape(collide2d.circle(0, 0, 0.1), odd)))
    assert.are.equal(list[5], (w:raycast(2, 0, -1, 0, nil, function(_, v) return v == 5 end)))
    local hits, n = w:raycastAll(-5, 0, 1, 0, nil, { mask = 2 })
    assert.are.equal(1, n)
    assert.are.equal(list[2], hits[1].shape)
    local contacts = {}
    local _, _, count = w:move(collide2d.circle(-5, 0, 1), 10, 0, nil, function(_, v) return v == 6 end, contacts)
    assert.are.equal(1, count)
    assert.are.equal(list[6], contacts[1].shape)
    _, _, _, _, count = w:stepBall(-5, 0, 10, 0, 1, 1, nil, { mask = 4 }, contacts)
    assert.are.equal(1, count)
    assert.are.equal(list[3], contacts[1].shape)
  end)

  it('raise the standard errors', function()
    expect.raises("bad argument #3 to 'queryPoint' (filter.mask: integer from 0 to 0xFFFFFFFF expected)",
      function() w:queryPoint(0, 0, { mask = -1 }) end)
    expect.raises("bad argument #3 to 'queryPoint' (filter.category: integer from 0 to 0xFFFFFFFF expected)",
      function() w:queryPoint(0, 0, { category = 0.5 }) end)
    expect.raises("bad argument #3 to 'queryPoint' (filter.category: number expected, got string)",
      function() w:queryPoint(0, 0, { category = '1' }) end)
    expect.raises("bad argument #3 to 'queryPoint' (filter.fn: function expected, got number)",
      function() w:queryPoint(0, 0, { fn = 1 }) end)
  end)
end)

describe('world:move(shape, dx, dy [, opts [, filter [, contacts]]])', function()
  local wall = collide2d.rectangle(5, -10, 1, 20)
  local w = collide2d.world()
  w:add(wall, 'wall')

  it('returns where the shape would end and the contact count, with contacts naming shape and value', function()
    local box = collide2d.rectangle(0, -3, 1, 1)
    local stale = { old = true }
    local contacts = { stale }
    local x, y, n = w:move(box, 10, 3, nil, nil, contacts)
    expect.values({ 4.5, 0.5 }, x, y)
    assert.are.equal(1, n)
    assert.are.equal(stale, contacts[1])
    assert.are.equal(wall, stale.shape)
    assert.are.equal('wall', stale.value)
    assert.is_true(stale.old)
    expect.values({ 0.4, 5, -1.3, -1, 0 }, stale.t, stale.x, stale.y, stale.nx, stale.ny)
    assert.are.same({ 'slide', false }, { stale.response, stale.pushedOut })
    expect.values({ 0.5, -2.5 }, box:position())
  end)

  it('takes a response string, or a function of the shape and value', function()
    local box = collide2d.rectangle(0, -3, 1, 1)
    expect.values({ 4.5, -2.5, 1 }, w:move(box, 10, 0, { response = 'touch' }))
    expect.values({ 10.5, -2.5, 1 }, w:move(box, 10, 0, { response = 'cross' }))
    expect.values({ -1.5, -2.5, 1 }, w:move(box, 10, 0, { response = 'bounce' }))
    local asked = {}
    local respond = function(s, v)
      asked[#asked + 1] = v
      assert.are.equal(wall, s)
      return 'cross'
    end
    expect.values({ 10.5, -2.5, 1 }, w:move(box, 10, 0, { response = respond }))
    assert.are.same({ 'wall' }, asked)
    expect.values({ 10.5, -2.5, 0 }, w:move(box, 10, 0, { response = function() return nil end }))
    expect.values({ 10.5, -2.5, 0 }, w:move(box, 10, 0, { response = function() return 'ignore' end }))
  end)

  it('skips the mover when it is in the world itself', function()
    local box = w:add(collide2d.rectangle(0, -3, 1, 1), 'box')
    expect.values({ 4.5, -2.5, 1 }, w:move(box, 10, 0))
    w:remove(box)
  end)

  it('slides a box along a row of 100 tiles without stopping at a seam', function()
    local tiles = collide2d.world()
    for i = 1, 100 do tiles:add(collide2d.rectangle((i - 1) * 10, 0, 10, 10), i) end
    local box = tiles:add(collide2d.rectangle(1, -8, 8, 8), 'box')
    local contacts = {}
    for step = 1, 197 do
      local x0 = box:position()
      local x, y, n = tiles:move(box, 5, 2, nil, nil, contacts)
      assert(math.abs(x - (x0 + 5)) <= 1e-9, string.format('step %d: x went from %.17g to %.17g', step, x0, x))
      assert(math.abs(y + 4) <= 1e-9, string.format('step %d: y is %.17g', step, y))
      for k = 1, n do assert.is_number(contacts[k].value) end
      box:setPosition(x, y)
      tiles:update(box)
    end
  end)

  it('raises the standard errors', function()
    local box = collide2d.rectangle(0, -3, 1, 1)
    expect.raises("bad argument #1 to 'move' (collide2d.shape expected, got nil)", function() w:move(nil, 1, 1) end)
    expect.raises("bad argument #3 to 'move' (number expected, got no value)", function() w:move(box, 1) end)
    expect.raises("bad argument #2 to 'move' (number is NaN or infinite)", function() w:move(box, 0 / 0, 1) end)
    expect.raises("bad argument #4 to 'move' (table expected, got string)", function() w:move(box, 1, 1, 'x') end)
    expect.raises("bad argument #4 to 'move' (opts.response: string or function expected, got number)",
      function() w:move(box, 1, 1, { response = 1 }) end)
    expect.raises("bad argument #4 to 'move' (opts.response: invalid response 'jump')",
      function() w:move(box, 1, 1, { response = 'jump' }) end)
    expect.raises("bad argument #4 to 'move' (opts.responses: not supported by a world (make opts.response a function))",
      function() w:move(box, 1, 1, { responses = {} }) end)
    expect.raises("bad argument #4 to 'move' (opts.restitution: number or count out of range)",
      function() w:move(box, 1, 1, { restitution = -0.5 }) end)
    expect.raises("bad argument #5 to 'move' (function or table expected, got boolean)",
      function() w:move(box, 1, 1, nil, true) end)
    expect.raises("bad argument #6 to 'move' (table expected, got number)", function() w:move(box, 1, 1, nil, nil, 6) end)
    expect.raises("invalid response 'jump' from the response function",
      function() w:move(box, 10, 0, { response = function() return 'jump' end }) end)
    expect.raises('invalid response from the response function (string or nil expected, got boolean)',
      function() w:move(box, 10, 0, { response = function() return true end }) end)
    local dead = collide2d.circle(0, 0, 1)
    dead:destroy()
    expect.raises('attempt to use a destroyed shape', function() w:move(dead, 1, 1) end)
  end)
end)

-- Seed 004's scene in an 800 x 600 window (see spec/sweep_spec.lua), as a world.
local function seed_world()
  local rects = {
    { -100, -100, 900, 0 }, { -100, 600, 900, 700 }, { -100, -100, 0, 700 }, { 800, -100, 900, 700 },
    { 86, 72, 207, 177 }, { 391, 37, 500, 113 }, { 103, 334, 229, 407 }, { 304, 200, 493, 339 },
  }
  local w, shapes = collide2d.world(), {}
  for i, r in ipairs(rects) do shapes[i] = w:add(collide2d.rectangle(r[1], r[2], r[3] - r[1], r[4] - r[2]), i) end
  return w, shapes
end

local function clearance(shapes, x, y)
  local best = math.huge
  for _, s in ipairs(shapes) do
    local _, _, d = s:closest(x, y)
    if d < best then best = d end
  end
  return best
end

describe('world:stepBall(x, y, vx, vy, r, dt [, opts [, filter [, contacts]]])', function()
  it('bounces by default, returning position, velocity and the contact count', function()
    local w = collide2d.world()
    local floor = w:add(collide2d.rectangle(-100, 0, 200, 10), 'floor')
    local contacts = {}
    expect.values({ 2, -3, 1, -4, 1 }, w:stepBall(1, -3, 1, 4, 1, 1, nil, nil, contacts))
    assert.are.same({ floor, 'floor', 'bounce' }, { contacts[1].shape, contacts[1].value, contacts[1].response })
    expect.values({ 1.5, -1, 0, 0, 1 }, w:stepBall(1, -3, 1, 4, 1, 1, { response = 'touch' }))
    expect.values({ 2, -1, 1, 0, 1 }, w:stepBall(1, -3, 1, 4, 1, 1, { response = function() return 'slide' end }))
  end)

  it('never tunnels through seed 004\'s scene and keeps the speed (300 trajectories)', function()
    local w, shapes = seed_world()
    local contacts = {}
    for _ = 1, 300 do
      local r = 2 + 28 * random()
      local x, y
      repeat x, y = r + (800 - 2 * r) * random(), r + (600 - 2 * r) * random() until clearance(shapes, x, y) >= r
      local angle, speed = 2 * math.pi * random(), 0.2 + 999.8 * random() ^ 2
      local vx, vy = speed * math.cos(angle), speed * math.sin(angle)
      speed = math.sqrt(vx * vx + vy * vy)
      for _ = 1, 10 do
        x, y, vx, vy = w:stepBall(x, y, vx, vy, r, 1, nil, nil, contacts)
        assert(clearance(shapes, x, y) >= r - 1e-9, string.format('tunnelled to (%.17g, %.17g)', x, y))
        assert(math.abs(math.sqrt(vx * vx + vy * vy) - speed) <= 1e-9 * speed)
      end
    end
  end)

  it('raises the standard errors', function()
    local w = collide2d.world()
    expect.raises("bad argument #5 to 'stepBall' (size or radius must be positive)",
      function() w:stepBall(0, 0, 1, 1, -1, 1) end)
    expect.raises("bad argument #6 to 'stepBall' (number or count out of range)",
      function() w:stepBall(0, 0, 1, 1, 1, -1) end)
    expect.raises("bad argument #6 to 'stepBall' (number is NaN or infinite)",
      function() w:stepBall(0, 0, 1, 1, 1, 0 / 0) end)
    expect.raises("bad argument #7 to 'stepBall' (opts.friction: number or count out of range)",
      function() w:stepBall(0, 0, 1, 1, 1, 1, { friction = -1 }) end)
    expect.raises("bad argument #8 to 'stepBall' (function or table expected, got number)",
      function() w:stepBall(0, 0, 1, 1, 1, 1, nil, 8) end)
    expect.raises("bad argument #9 to 'stepBall' (table expected, got string)",
      function() w:stepBall(0, 0, 1, 1, 1, 1, nil, nil, 'c') end)
  end)
end)

describe('world:setMotion(shape, vx, vy, w [, px, py]) and world:motion(shape)', function()
  -- A flipper 110 x 18 hinged at its left end, at the origin (its position, the centre, is (55, 0)).
  local function flipper() return collide2d.rectangle(0, -9, 110, 18) end

  it('set a motion and read it back, the pivot 0, 0 by default; 0, 0, 0 stands still', function()
    local w = collide2d.world()
    local s = w:add(collide2d.circle(0, 0, 1))
    expect.values({ 0, 0, 0, 0, 0 }, w:motion(s))
    assert.are.equal(s, w:setMotion(s, 1, -2, 3, 0.5, -0.25))
    expect.values({ 1, -2, 3, 0.5, -0.25 }, w:motion(s))
    w:setMotion(s, 4, 5, 6)
    expect.values({ 4, 5, 6, 0, 0 }, w:motion(s))
    w:setMotion(s, 0, 0, 0)
    expect.values({ 0, 0, 0, 0, 0 }, w:motion(s))
    w:setMotion(s, 1, 1, 1)
    w:remove(s)                                     -- the motion leaves with the shape
    w:add(s)
    expect.values({ 0, 0, 0, 0, 0 }, w:motion(s))
  end)

  it('throw a ball at rest as the static set does, at (1 + e) w d', function()
    local w, f = collide2d.world(), flipper()
    w:add(f, 'flipper')
    w:setMotion(f, 0, 0, 30, -55, 0)
    local set = collide2d.staticset({ flipper() })
    set:setMotion(1, 0, 0, 30, -55, 0)
    local contacts = {}
    local opts = { restitution = 0.9 }
    local got = { w:stepBall(70, 20, 0, 0, 8, 1 / 60, opts, nil, contacts) }
    assert.are.same({ set:stepBall(70, 20, 0, 0, 8, 1 / 60, opts) }, got)
    assert.are.equal(1, got[5])
    assert.are.same({ f, 'flipper' }, { contacts[1].shape, contacts[1].value })
    -- The face's normal speed at the contact, d along the flipper from the hinge, times 1 + e.
    local c = contacts[1]
    local a = 30 * (1 / 60) * c.t
    local d = c.x * math.cos(a) + c.y * math.sin(a)
    local speed = math.sqrt(got[3] ^ 2 + got[4] ^ 2)
    assert.is_true(math.abs(speed - 1.9 * 30 * d) <= 1e-9 * speed)
  end)

  it('let a move meet a shape whose turn brings it into a ball standing still; queries do not see it', function()
    local w = collide2d.world()
    -- A bar 10 long hinged at the origin pointing along -y, turning up through +x at 60 rad/s.
    local bar = w:add(collide2d.rectangle(-0.25, -10, 0.5, 10), 'bar')
    w:setMotion(bar, 0, 0, 60, 0, 5)
    assert.are.equal(0, select(2, w:queryRect(7, -1, 2, 2)))
    assert.is_nil(w:raycast(7, 0, 1, 0, 2))
    local contacts = {}
    local x, y, vx, vy, n = w:stepBall(8, 0, 0, 0, 1, 1 / 30, nil, nil, contacts)
    assert.is_true(n >= 1 and contacts[1].shape == bar and vy > 400)
    -- Still again: the ball is left alone.
    w:setMotion(bar, 0, 0, 0)
    expect.values({ 8, 0, 0, 0, 0 }, w:stepBall(8, 0, 0, 0, 1, 1 / 30))
    -- A paddle moving into a crate that stands still pushes it along (a move lasts one unit of time).
    local paddle = w:add(collide2d.rectangle(-20.5, 27, 1, 6), 'paddle')
    w:setMotion(paddle, 600, 0, 0)
    local crate = collide2d.rectangle(-1, 29, 2, 2)
    x, y, n = w:move(crate, 0, 0, nil, nil, contacts)
    assert.is_true(n >= 1 and contacts[1].value == 'paddle' and x > 580 and y == 30)
  end)

  it('make no garbage', function()
    local assert_no_garbage = require('spec.support.garbage').assert_no_garbage
    local w, f = collide2d.world(), flipper()
    w:add(f)
    assert_no_garbage(function(n)
      for i = 1, n do
        w:setMotion(f, 0, 0, i % 7, -55, 0)
        w:motion(f)
      end
    end)
  end)

  it('raise the standard errors', function()
    local w = collide2d.world()
    local s = w:add(collide2d.circle(0, 0, 1))
    local out = collide2d.circle(0, 0, 1)
    expect.raises("bad argument #4 to 'setMotion' (number is NaN or infinite)",
      function() w:setMotion(s, 0, 0, 0 / 0) end)
    expect.raises("bad argument #2 to 'setMotion' (number or count out of range)",
      function() w:setMotion(s, 1e16, 0, 0) end)
    expect.raises("bad argument #6 to 'setMotion' (number or count out of range)",
      function() w:setMotion(s, 0, 0, 1, 0, 2e15) end)
    expect.raises("bad argument #3 to 'setMotion' (number expected, got no value)",
      function() w:setMotion(s, 1) end)
    expect.raises('shape is not in this world', function() w:setMotion(out, 1, 1, 1) end)
    expect.raises('shape is not in this world', function() w:motion(out) end)
    expect.values({ 0, 0, 0, 0, 0 }, w:motion(s))   -- nothing changed
    w:destroy()
    expect.raises(DESTROYED, function() w:setMotion(s, 1, 1, 1) end)
    expect.raises(DESTROYED, function() w:motion(s) end)
  end)
end)

-- ---- against brute force ------------------------------------------------------------------------

-- The world's answers, recomputed from the list of its shapes in the order they were added, with
-- each shape's bits; filter is nil or {category =, mask =}.
local function visible(bits, s, filter)
  if not filter then return true end
  local b = bits[s]
  return band(filter.category, b[2]) ~= 0 and band(b[1], filter.mask) ~= 0
end

local function brute_query(order, bits, test, filter)
  local out = {}
  for _, s in ipairs(order) do
    if visible(bits, s, filter) and test(s) then out[#out + 1] = s end
  end
  return out
end

local function brute_rays(order, bits, ox, oy, dx, dy, maxt, filter)
  local hits = {}
  for rank, s in ipairs(order) do
    if visible(bits, s, filter) then
      local t, x, y, nx, ny = s:raycast(ox, oy, dx, dy, maxt)
      if t then hits[#hits + 1] = { shape = s, t = t, x = x, y = y, nx = nx, ny = ny, rank = rank } end
    end
  end
  table.sort(hits, function(p, q) if p.t ~= q.t then return p.t < q.t end return p.rank < q.rank end)
  for _, h in ipairs(hits) do h.rank = nil end
  return hits
end

local function brute_pairs(order, bits)
  local out = {}
  for i = 1, #order do
    local a = order[i]
    for j = i + 1, #order do
      local b = order[j]
      if band(bits[a][1], bits[b][2]) ~= 0 and band(bits[b][1], bits[a][2]) ~= 0 and a:overlaps(b) then
        out[#out + 1] = { a = a, b = b }
      end
    end
  end
  return out
end

local function random_filter()
  if random() < 0.5 then return nil end
  return { category = rand(8) - 1, mask = rand(8) - 1 }
end

-- How many shapes the checks found, so a run that compares only empty answers cannot pass.
local found = { items = 0, hits = 0, pairs = 0 }

local function check_world(w, order, bits, out, hits_out)
  assert.are.equal(#order, w:count())
  for _, s in ipairs(order) do assert.is_true(w:has(s)) end
  for _ = 1, 5 do
    local x, y, wd, ht = 1100 * random() - 50, 1100 * random() - 50, 200 * random(), 200 * random()
    local f = random_filter()
    local probe = collide2d.rectangle(x, y, wd, ht)
    local expected = brute_query(order, bits, function(s) return s:overlaps(probe) end, f)
    local items, n = w:queryRect(x, y, wd, ht, f, out)
    assert.are.equal(#expected, n)
    assert.are.same(expected, items)
    found.items = found.items + n
    x, y = 1000 * random(), 1000 * random()
    expected = brute_query(order, bits, function(s) return s:contains(x, y) end, f)
    assert.are.same(expected, (w:queryPoint(x, y, f)))
    probe = random_shape()
    expected = brute_query(order, bits, function(s) return probe:overlaps(s) end, f)
    assert.are.same(expected, (w:queryShape(probe, f, out)))
    local ox, oy, angle = 1000 * random(), 1000 * random(), 2 * math.pi * random()
    local dx, dy, maxt = math.cos(angle), math.sin(angle), 1500 * random()
    local rays = brute_rays(order, bits, ox, oy, dx, dy, maxt, f)
    local hits, count = w:raycastAll(ox, oy, dx, dy, maxt, f, hits_out)
    assert.are.equal(#rays, count)
    found.hits = found.hits + count
    for k = 1, count do
      local h = hits[k]
      assert.are.same(rays[k], { shape = h.shape, t = h.t, x = h.x, y = h.y, nx = h.nx, ny = h.ny })
    end
    local s, t = w:raycast(ox, oy, dx, dy, maxt, f)
    if rays[1] then
      assert.are.same({ rays[1].shape, rays[1].t }, { s, t })
    else
      assert.is_nil(s)
    end
  end
end

describe('world queries against brute force', function()
  it('agree over 300 random shapes through random moves, adds and removes', function()
    local w = collide2d.world()
    local order, bits, spare = {}, {}, {}
    local function add(s)
      w:add(s, #order)
      order[#order + 1] = s
      bits[s] = { 1, 4294967295 }
    end
    for _ = 1, 300 do add(random_shape()) end
    local out, hits_out = {}, {}
    check_world(w, order, bits, out, hits_out)
    for round = 1, 40 do
      for _ = 1, 30 do
        local op = rand(10)
        if op <= 5 and #order > 0 then
          local s = order[rand(#order)]
          if random() < 0.8 then s:move(20 * random() - 10, 20 * random() - 10) else s:setPosition(1000 * random(), 1000 * random()) end
          if random() < 0.3 then s:rotate(random()) end
          w:update(s)
        elseif op <= 7 and #order > 0 then
          local i = rand(#order)
          local s = table.remove(order, i)
          w:remove(s)
          bits[s] = nil
          spare[#spare + 1] = s
        elseif op <= 9 then
          if #spare > 0 and random() < 0.5 then add(table.remove(spare)) else add(random_shape()) end
        elseif #order > 0 then
          local s = order[rand(#order)]
          bits[s] = { rand(8) - 1, rand(8) - 1 }
          w:setBits(s, bits[s][1], bits[s][2])
        end
      end
      if round % 10 == 0 then w:optimize() end
      check_world(w, order, bits, out, hits_out)
      if round % 8 == 0 then
        local expected = brute_pairs(order, bits)
        local list, n = w:pairs(out)
        assert.are.equal(#expected, n)
        found.pairs = found.pairs + n
        for k = 1, n do assert.are.same(expected[k], list[k]) end
      end
    end
    assert(found.items > 300 and found.hits > 300 and found.pairs > 100,
      string.format('found %d items, %d hits, %d pairs', found.items, found.hits, found.pairs))
  end)

  it('return every result of a large query (the buffer grows), and call a filter once per shape', function()
    local list = {}
    for i = 1, 600 do list[i] = collide2d.circle(i * 1e-3, 0, 1) end
    local w = world_of(list)
    local items, n = w:queryPoint(0.3, 0)
    assert.are.equal(600, n)
    assert.are.same(list, items)
    local calls, seen = 0, {}
    items, n = w:queryPoint(0.3, 0, function(s)
      calls = calls + 1
      assert.is_nil(seen[s])
      seen[s] = true
      return true
    end)
    assert.are.equal(600, calls)
    assert.are.equal(600, n)
    local hits, count = w:raycastAll(-5, 0, 1, 0)
    assert.are.equal(600, count)
    assert.are.equal(list[1], hits[1].shape)
    local _, pairs_n = w:pairs()
    assert.are.equal(600 * 599 / 2, pairs_n)
  end)
end)

-- ---- callbacks -----------------------------------------------------------------------------------

describe('an error inside a callback', function()
  local function scene()
    local list = {}
    for i = 1, 8 do list[i] = collide2d.circle(i * 0.1, 0, 1) end
    return world_of(list), list
  end

  it('propagates from every call, stops further callbacks, and leaves the world as it was', function()
    local w, list = scene()
    local calls = 0
    local function failing() calls = calls + 1; if calls == 3 then error('boom') end return true end
    local function failing_response() calls = calls + 1; if calls == 3 then error('boom') end return 'cross' end
    local uses = {
      function() return w:queryRect(-1, -1, 2, 2, failing) end,
      function() return w:queryPoint(0.5, 0, failing) end,
      function() return w:queryShape(collide2d.circle(0, 0, 1), { fn = failing }) end,
      function() return w:raycast(-5, 0, 1, 0, nil, failing) end,
      function() return w:raycastAll(-5, 0, 1, 0, nil, failing) end,
      function() return w:move(collide2d.circle(-5, 0, 1), 10, 0, nil, failing) end,
      function() return w:move(collide2d.circle(-5, 0, 1), 10, 0, { response = failing_response }) end,
      function() return w:stepBall(-5, 0, 10, 0, 1, 1, nil, failing) end,
      function() return w:stepBall(-5, 0, 10, 0, 1, 1, { response = failing_response }) end,
    }
    for i, use in ipairs(uses) do
      calls = 0
      local ok, err = pcall(use)
      assert(not ok, 'call ' .. i .. ' did not raise')
      assert.matches('boom$', err)
      assert.are.equal(3, calls)
      assert.are.same(list, (w:queryPoint(0.5, 0)))
      assert.are.equal(8, w:count())
    end
    w:destroy()   -- not busy any more
  end)

  it('keeps the error value itself', function()
    local w = scene()
    local e = {}
    local ok, err = pcall(w.queryPoint, w, 0.5, 0, function() error(e) end)
    assert.is_false(ok)
    assert.are.equal(e, err)
  end)
end)

describe('changing the world from inside a callback', function()
  it('removing shapes: a removed shape is not reported or passed on', function()
    local list = {}
    for i = 1, 6 do list[i] = collide2d.circle(i * 0.1, 0, 1) end
    local w = world_of(list)
    local seen = {}
    local items = w:queryPoint(0.5, 0, function(s, v)
      seen[#seen + 1] = v
      if v == 2 then w:remove(list[4]) end
      if v == 3 then w:remove(s); return true end
      if v == 5 then list[6]:destroy() end
      return true
    end)
    assert.are.same({ list[1], list[2], list[5] }, items)
    assert.are.same({ 1, 2, 3, 5 }, seen)
    assert.are.equal(3, w:count())
    assert.are.same({ list[1], list[2], list[5] }, (w:queryPoint(0.5, 0)))
    assert.are.same({ list[1], list[2], list[5] }, (w:queryPoint(0.5, 0)))
  end)

  it('removing during moves, ray casts and ball steps', function()
    local list = {}
    for i = 1, 6 do list[i] = collide2d.rectangle(i * 10, -10, 1, 20) end
    local w = world_of(list)
    local contacts = {}
    local _, _, n = w:move(collide2d.circle(0, 0, 1), 100, 0, { response = function(s, v)
      if v == 1 then w:remove(list[2]) end
      return 'cross'
    end }, nil, contacts)
    assert.are.equal(5, n)
    for k = 1, n do assert.is_true(w:has(contacts[k].shape)) end
    assert.are.equal(list[3], w:raycast(0, 0, 1, 0, nil, function(s, v) if v == 1 then w:remove(s) return true end return true end))
    assert.are.equal(4, w:count())
    local x = w:stepBall(0, 0, 100, 0, 1, 1, nil, function(s, v) w:remove(s) return true end)
    assert.are.equal(100, x)
    assert.are.equal(0, w:count())
  end)

  it('adding shapes and querying again (nested queries use their own buffers)', function()
    local list = {}
    for i = 1, 50 do list[i] = collide2d.circle(i * 0.01, 0, 1) end
    local w = world_of(list)
    local inner_ok = true
    local items, n = w:queryPoint(0.25, 0, function(s, v)
      local inner, m = w:queryPoint(0.25, 0)
      inner_ok = inner_ok and m >= 50 and inner[1] == list[1]
      local hits, k = w:raycastAll(-5, 0, 1, 0)
      inner_ok = inner_ok and k == m and hits[1].shape == list[1]
      if v % 10 == 0 then w:add(collide2d.circle(0.25, 0, 1), 'new') end
      return true
    end)
    assert.is_true(inner_ok)
    assert.are.equal(50, n)
    assert.are.same(list, items)
    assert.are.equal(55, w:count())
  end)

  it('destroying the world raises a clear error and changes nothing', function()
    local w = world_of({ collide2d.circle(0, 0, 1), collide2d.circle(0.5, 0, 1) })
    expect.raises('attempt to destroy a world from inside one of its callbacks',
      function() w:queryPoint(0, 0, function() w:destroy() end) end)
    expect.raises('attempt to destroy a world from inside one of its callbacks',
      function() w:move(collide2d.circle(-5, 0, 1), 10, 0, { response = function() w:destroy() end }) end)
    -- Nor can a direct call of __gc free it.
    assert.are.equal(2, select(2, w:queryPoint(0, 0, function() getmetatable(w).__gc(w) return true end)))
    assert.are.equal(2, w:count())
    assert.are.equal(2, select(2, w:queryPoint(0, 0)))
    w:destroy()
    expect.raises(DESTROYED, function() w:count() end)
  end)

  it('destroying the shape the call is reading raises; other shapes leave the world', function()
    local list = { collide2d.circle(0, 0, 1), collide2d.circle(0.5, 0, 1) }
    local w = world_of(list)
    local probe = collide2d.circle(0, 0, 1)
    expect.raises('attempt to destroy a shape that a running world query is using',
      function() w:queryShape(probe, function() probe:destroy() end) end)
    local mover = collide2d.circle(-5, 0, 1)
    expect.raises('attempt to destroy a shape that a running world query is using',
      function() w:move(mover, 10, 0, { response = function() mover:destroy() end }) end)
    w:move(mover, 10, 0, { response = function() getmetatable(mover).__gc(mover) end })
    assert.are.equal('circle', collide2d.type(probe))
    assert.are.equal('circle', collide2d.type(mover))
    probe:destroy()
    mover:destroy()
    local items = w:queryPoint(0, 0, function(s) if s == list[1] then list[2]:destroy() end return true end)
    assert.are.same({ list[1] }, items)
    assert.are.equal(1, w:count())
  end)

  -- Issue 22, item 1: a move meeting more than 64 shapes ran again with room for the first count; the
  -- response function, asked again, added shapes, and the records past the buffer were read from freed
  -- memory (t = -0.0, x = nan, response = ignore; invalid reads under valgrind).
  it('adding shapes during a move or ball step that meets more than 64: every record valid, each shape asked once', function()
    local w = collide2d.world()
    for i = 1, 70 do w:add(collide2d.rectangle(i * 2, -5, 0.5, 10), i) end
    local added, asked = false, {}
    local function respond(shape, value)
      asked[value] = (asked[value] or 0) + 1
      if not added then
        added = true
        for i = 1, 30 do w:add(collide2d.rectangle(i * 2 + 1, -5, 0.5, 10), 1000 + i) end
      end
      return 'cross'
    end
    local function check(contacts, n)
      local last = 0
      for k = 1, n do
        local r = contacts[k]
        assert.is_true(r.t >= last and r.t <= 1, 'record ' .. k .. ': t = ' .. tostring(r.t))
        assert.is_true(r.x == r.x and r.y == r.y and r.moverX == r.moverX, 'record ' .. k .. ' has NaN')
        assert.are.equal('cross', r.response)
        assert.are.equal(r.value, w:value(r.shape))
        last = r.t
      end
      for v, times in pairs(asked) do assert.are.equal(1, times, 'shape ' .. v .. ' asked again') end
    end
    local contacts = {}
    local _, _, n = w:move(collide2d.rectangle(0, 0, 0.5, 0.5), 150, 0, { response = respond }, nil, contacts)
    assert.are.equal(70, n) -- the shapes there were when the move began
    check(contacts, n)
    added, asked = false, {}
    local _, _, _, _, bn = w:stepBall(0, 0, 300, 0, 0.2, 1, { response = respond }, nil, contacts)
    assert.is_true(bn >= 100)
    check(contacts, bn)
  end)
end)

-- An object whose finalizer runs fn: a table in Lua 5.4, a newproxy userdata in 5.1 and LuaJIT.
local function finalizer(fn)
  if newproxy then
    local p = newproxy(true)
    getmetatable(p).__gc = fn
    return p
  end
  return setmetatable({}, { __gc = fn })
end

describe('Lua code that runs in the middle of a call', function()
  it('a finalizer destroying the world while a query fills its tables changes no answer', function()
    local during = 0
    -- A collector that never rests, so that finalizers run while the query creates its records.
    local pause, stepmul = collectgarbage('setpause', 0), collectgarbage('setstepmul', 1000)
    for _ = 1, 10 do
      local list = {}
      for i = 1, 2000 do list[i] = collide2d.circle(i * 1.5, 0, 1) end   -- each meets its neighbours
      local w = world_of(list)
      local filling = false
      for _ = 1, 50 do
        finalizer(function()
          if filling and tostring(w) ~= 'collide2d.world (destroyed)' then
            w:destroy()
            during = during + 1
          end
        end)
      end
      filling = true
      local hits, n = w:raycastAll(-5, 0, 1, 0)
      local ok, _, pairs_n = pcall(w.pairs, w)   -- raises if the world went during raycastAll
      filling = false
      assert.are.equal(2000, n)
      for k = 1, n do assert.are.equal(list[k], hits[k].shape) end
      assert(not ok or pairs_n == 1999, tostring(pairs_n))
      collectgarbage('collect')
    end
    collectgarbage('setpause', pause)
    collectgarbage('setstepmul', stepmul)
    assert.is_true(during > 0, 'no finalizer ran during a query')
  end)

  it('metamethods of an options or filter table that destroy what the call uses make it raise', function()
    local shape = collide2d.circle(0, 0, 1)
    local set = collide2d.staticset({ collide2d.rectangle(5, -5, 1, 10) })
    local opts = setmetatable({}, { __index = function() shape:destroy() end })
    expect.raises('attempt to use a destroyed shape', function() set:move(shape, 10, 0, opts) end)
    opts = setmetatable({}, { __index = function() set:destroy() end })
    expect.raises('attempt to use a destroyed static set', function() set:stepBall(0, 0, 10, 0, 1, 1, opts) end)
    local w = world_of({ collide2d.circle(0, 0, 1) })
    local mover = collide2d.circle(-5, 0, 1)
    expect.raises('attempt to use a destroyed shape', function()
      w:move(mover, 10, 0, setmetatable({}, { __index = function() mover:destroy() end }))
    end)
    expect.raises('attempt to use a destroyed shape', function()
      local probe = collide2d.circle(0, 0, 1)
      w:queryShape(probe, setmetatable({}, { __index = function() probe:destroy() end }))
    end)
    assert.are.equal(1, w:count())
    expect.raises(DESTROYED, function()
      w:queryRect(0, 0, 1, 1, setmetatable({}, { __index = function() w:destroy() end }))
    end)
    local listed = collide2d.circle(0, 0, 1)
    expect.raises("bad argument #1 to 'staticset' (destroyed shape at index 1)", function()
      collide2d.staticset({ listed }, setmetatable({}, { __index = function() listed:destroy() end }))
    end)
  end)
end)

describe('coroutines', function()
  local list = {}
  for i = 1, 5 do list[i] = collide2d.circle(i * 0.1, 0, 1) end
  local w = world_of(list)

  it('run callbacks in the coroutine that called', function()
    local co
    co = coroutine.create(function()
      local items = w:queryPoint(0.3, 0, function()
        assert.are.equal(co, coroutine.running())
        return true
      end)
      coroutine.yield(#items)
      list[1]:setPosition(100, 0)
      w:update(list[1])
      return select(2, w:queryPoint(0.3, 0, function() return true end))
    end)
    assert.are.same({ true, 5 }, { coroutine.resume(co) })
    assert.are.same({ true, 4 }, { coroutine.resume(co) })
    list[1]:setPosition(0.1, 0)
    w:update(list[1])
  end)

  it('refuse a yield from inside a callback, leaving the world usable', function()
    local co = coroutine.create(function()
      return w:queryPoint(0.3, 0, function() coroutine.yield() return true end)
    end)
    local ok = coroutine.resume(co)
    assert.is_false(ok)
    assert.are.equal('dead', coroutine.status(co))
    assert.are.equal(5, select(2, w:queryPoint(0.3, 0)))
    local other = world_of({ collide2d.circle(0, 0, 1) })
    co = coroutine.create(function() other:queryPoint(0, 0, function() coroutine.yield() end) end)
    coroutine.resume(co)
    other:destroy()   -- not left busy
  end)

  it('use a world made in a coroutine after the coroutine is dead', function()
    local made = coroutine.wrap(function() return world_of({ collide2d.circle(0, 0, 1) }) end)()
    collectgarbage('collect')
    assert.are.equal(1, select(2, made:queryPoint(0, 0, function() return true end)))
  end)
end)

describe('docs/lua.md', function()
  it('documents every method of a static set and of a world under a ### heading', function()
    local f = assert(io.open('docs/lua.md'))
    local text = f:read('*a')
    f:close()
    local missing = {}
    for prefix, object in pairs({ set = collide2d.staticset({}), world = collide2d.world() }) do
      for name in pairs(getmetatable(object).__index) do
        local heading = '\n### ' .. prefix .. ':' .. name .. '\n'
        if not text:find(heading, 1, true) then missing[#missing + 1] = prefix .. ':' .. name end
      end
    end
    table.sort(missing)
    assert.are.same({}, missing)
    assert.is_truthy(text:find('\n### shape:world\n', 1, true))
    assert.is_truthy(text:find('\n### shape:sweep\n', 1, true))
  end)
end)

describe('the examples of docs/lua.md from "## Swept collision" on', function()
  it('run as they are, one per function', function()
    local f = assert(io.open('docs/lua.md'))
    local text = f:read('*a')
    f:close()
    local start = assert(text:find('\n## Swept collision\n', 1, true))
    local count = 0
    for code in text:sub(start):gmatch('```lua\n(.-)```') do
      count = count + 1
      local env = setmetatable({ collide2d = collide2d }, { __index = _G })
      local chunk
      if setfenv then
        chunk = assert(loadstring(code, '=docs/lua.md example ' .. count))
        setfenv(chunk, env)
      else
        chunk = assert(load(code, '=docs/lua.md example ' .. count, 't', env))
      end
      chunk()
    end
    local headings = 0
    for _ in text:sub(start):gmatch('\n### ') do headings = headings + 1 end
    assert.are.equal(headings, count)   -- one example per function
  end)
end)

describe('world:moveTurning(shape, dx, dy, angle [, px, py [, opts [, filter [, contacts]]]])', function()
  it('answers as set:moveTurning of the same shapes, naming the entries met', function()
    local shapes = {}
    for i = 1, 6 do shapes[i] = collide2d.rectangle(i * 3, (i % 2) * 2, 2.5, 1, i * 0.2) end
    local world, set = collide2d.world(), collide2d.staticset(shapes)
    for i = 1, 6 do world:add(shapes[i], i) end
    for k = 0, 20 do
      local crate = collide2d.rectangle(k * 0.9 - 1, -2.5, 1.5, 0.8, k * 0.3)
      local sc, wc = {}, {}
      local sx, sy, sa, sn = set:moveTurning(crate, 2, 3, 2.5, 0.2, 0.1, nil, sc)
      local wx, wy, wa, wn = world:moveTurning(crate, 2, 3, 2.5, 0.2, 0.1, nil, nil, wc)
      assert(math.abs(sx - wx) < 1e-9 and math.abs(sy - wy) < 1e-9 and math.abs(sa - wa) < 1e-9 and sn == wn)
      for i = 1, sn do assert(wc[i].value == sc[i].index) end
    end
  end)

  it('places the shape and its entry with opts.place', function()
    local world = collide2d.world()
    world:add(collide2d.rectangle(1.2, -5, 1, 10), 'wall')
    local crate = collide2d.rectangle(-1, -1, 2, 2)
    world:add(crate, 'crate')
    local x, y, angle = world:moveTurning(crate, -5, 0, math.pi / 2, nil, nil, { place = true })
    local px, py = crate:position()
    assert(px == -5 and py == 0 and x == px and y == py and crate:angle() == angle and angle == math.pi / 2)
    -- the entry follows: a box far from the old place and inside the new one finds it
    local items, n = world:queryRect(x - 0.01, y - 0.01, 0.02, 0.02)
    assert(n == 1 and items[1] == crate)
  end)

  it('refuses a chain mover and bad numbers', function()
    local world = collide2d.world()
    local crate = collide2d.rectangle(-1, -1, 2, 2)
    expect.raises("bad argument #1 to 'moveTurning' (a chain or concave polygon cannot be a mover)",
      function() world:moveTurning(collide2d.chain({ 0, 0, 1, 0, 1, 1 }), 1, 0, 1) end)
    expect.raises("bad argument #4 to 'moveTurning' (number is NaN or infinite)",
      function() world:moveTurning(crate, 0, 0, 0 / 0) end)
  end)
end)
