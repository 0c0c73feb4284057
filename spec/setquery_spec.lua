-- spec/setquery_spec.lua - the same verbs on both containers: a static set's queryRect, queryPoint,
-- queryShape, raycast and raycastAll answer as a world's over the same shapes (indices where the world
-- gives shapes), with the world's arguments, filters, reused tables and errors; and a world's
-- setEnabled, isEnabled, setVelocity and velocity, as a static set's.
local collide2d = require 'collide2d'
local expect = require 'spec.support.expect'

-- A level of every kind: a row of tiles, rotated boxes, a circle, a capsule, a segment, a chain and a
-- concave ledge; the same shapes in a set (index i) and in a world (value i).
local function level()
  local shapes = {}
  for i = 1, 6 do shapes[#shapes + 1] = collide2d.rectangle((i - 1) * 10, 50, 10, 10) end
  shapes[#shapes + 1] = collide2d.box(15, 20, 12, 4, 0.6)
  shapes[#shapes + 1] = collide2d.box(40, 25, 6, 9, -1.1)
  shapes[#shapes + 1] = collide2d.circle(30, 5, 4)
  shapes[#shapes + 1] = collide2d.capsule(50, 10, 58, 18, 2)
  shapes[#shapes + 1] = collide2d.segment(0, 35, 25, 30)
  shapes[#shapes + 1] = collide2d.chain({ 60, 40, 70, 30, 80, 40, 90, 30 })
  shapes[#shapes + 1] = collide2d.concave({ 65, 0, 85, 0, 85, 5, 70, 5, 70, 20, 65, 20 })
  shapes[#shapes + 1] = collide2d.polygon(5, 0, 12, 2, 10, 9, 3, 6)
  local set, world = collide2d.staticset(shapes), collide2d.world()
  for i, s in ipairs(shapes) do world:add(s, i) end
  return set, world, shapes
end

-- The world's answer as indices.
local function values(world, items, n)
  local list = {}
  for k = 1, n do list[k] = world:value(items[k]) end
  return list
end

local function list(items, n)
  local l = {}
  for k = 1, n do l[k] = items[k] end
  return l
end

describe('set:queryRect, queryPoint and queryShape', function()
  it('answer as a world over the same shapes, with indices for shapes', function()
    local set, world, shapes = level()
    for y = -5, 60, 7 do
      for x = -5, 95, 9 do
        local si, sn = set:queryRect(x, y, 12, 8)
        local wi, wn = world:queryRect(x, y, 12, 8)
        assert.are.same(values(world, wi, wn), list(si, sn))
        si, sn = set:queryPoint(x, y)
        wi, wn = world:queryPoint(x, y)
        assert.are.same(values(world, wi, wn), list(si, sn))
      end
    end
    local probe = collide2d.circle(0, 0, 6)
    for y = -5, 60, 5 do
      for x = -5, 95, 5 do
        probe:setPosition(x, y)
        local si, sn = set:queryShape(probe)
        local wi, wn = world:queryShape(probe)
        assert.are.same(values(world, wi, wn), list(si, sn))
      end
    end
    -- A chain and a concave shape as probes too; every shape finds itself.
    for i, s in ipairs(shapes) do
      local si, sn = set:queryShape(s)
      local wi, wn = world:queryShape(s)
      assert.are.same(values(world, wi, wn), list(si, sn))
      local found = false
      for k = 1, sn do found = found or si[k] == i end
      assert.is_true(found)
    end
  end)

  it('never find a disabled shape, and find a re-placed one where it went', function()
    local set = level()
    set:setEnabled(1, false)
    assert.are.equal(0, select(2, set:queryPoint(5, 55)))
    set:setEnabled(1, true)
    assert.are.same({ 1 }, (set:queryPoint(5, 55)))
    set:setTransform(9, 500, 500)                                -- the circle
    assert.are.same({ 9 }, (set:queryPoint(500, 500)))
    assert.are.equal(0, select(2, set:queryPoint(30, 5)))
  end)

  it('fill and clear an out table, and keep what a filter function(index, value) keeps', function()
    local set = level()
    set:setValue(2, 'cracked'):setValue(4, 'cracked')
    local out = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' }
    local items, n = set:queryRect(0, 50, 60, 10, nil, out)
    assert.are.equal(out, items)
    assert.are.same({ 1, 2, 3, 4, 5, 6 }, list(items, n))
    assert.is_nil(out[7])
    local seen = {}
    items, n = set:queryRect(0, 50, 60, 10, function(i, value)
      seen[#seen + 1] = i
      return value == 'cracked'
    end, out)
    assert.are.same({ 2, 4 }, list(items, n))
    assert.are.equal(2, #out)
    assert.are.same({ 1, 2, 3, 4, 5, 6 }, seen)                  -- asked once per shape found
    items, n = set:queryPoint(15, 55, function() return false end)
    assert.are.same({}, items)
    assert.are.equal(0, n)
  end)

  it('let a filter query or destroy the set, and pass on its errors', function()
    local set = level()
    local inner
    local items, n = set:queryRect(0, 50, 60, 10, function(i)
      inner = select(2, set:queryRect(0, 50, 60, 10))
      return i == 3
    end)
    assert.are.equal(6, inner)
    assert.are.same({ 3 }, list(items, n))
    expect.raises('boom', function() set:queryPoint(5, 55, function() error('boom', 0) end) end)
    assert.are.equal(1, select(2, set:queryPoint(5, 55)))        -- and the set still answers
    items, n = set:queryRect(0, 50, 60, 10, function(i)
      set:destroy()
      return true
    end)
    assert.are.equal(6, n)
    expect.raises('attempt to use a destroyed static set', function() set:queryPoint(5, 55) end)
  end)

  it('raise the standard errors, naming the argument', function()
    local set = level()
    expect.raises("bad argument #3 to 'queryRect' (number or count out of range)",
      function() set:queryRect(0, 0, -1, 1) end)
    expect.raises("bad argument #1 to 'queryRect' (number is NaN or infinite)",
      function() set:queryRect(0 / 0, 0, 1, 1) end)
    expect.raises("bad argument #5 to 'queryRect' (function expected, got number)",
      function() set:queryRect(0, 0, 1, 1, 5) end)
    expect.raises("bad argument #6 to 'queryRect' (table expected, got number)",
      function() set:queryRect(0, 0, 1, 1, nil, 5) end)
    expect.raises("bad argument #2 to 'queryPoint' (number expected, got no value)",
      function() set:queryPoint(1) end)
    expect.raises("bad argument #1 to 'queryPoint' (number or count out of range)",
      function() set:queryPoint(2e15, 0) end)
    expect.raises("bad argument #1 to 'queryShape' (collide2d.shape expected, got number)",
      function() set:queryShape(3) end)
    local gone = collide2d.circle(0, 0, 1)
    gone:destroy()
    expect.raises('attempt to use a destroyed shape', function() set:queryShape(gone) end)
    local fake = { queryPoint = set.queryPoint }
    expect.raises("calling 'queryPoint' on bad self (collide2d.staticset expected, got table)",
      function() fake:queryPoint(0, 0) end)
  end)
end)

describe('set:raycast and set:raycastAll', function()
  it('answer as a world over the same shapes, with indices for shapes', function()
    local set, world = level()
    local out, wout = {}, {}
    for k = 0, 71 do
      local a = k * math.pi / 36
      local dx, dy = math.cos(a), math.sin(a)
      for _, o in ipairs({ { 45, 28 }, { -10, 5 }, { 62, 45 }, { 30, 5 } }) do
        local si, st, spx, spy, snx, sny = set:raycast(o[1], o[2], dx, dy)
        local ws, wt, wpx, wpy, wnx, wny = world:raycast(o[1], o[2], dx, dy)
        assert.are.equal(ws and world:value(ws), si)
        assert.are.same({ wt, wpx, wpy, wnx, wny }, { st, spx, spy, snx, sny })
        local _, sn = set:raycastAll(o[1], o[2], dx, dy, 80, nil, out)
        local _, wn = world:raycastAll(o[1], o[2], dx, dy, 80, nil, wout)
        assert.are.equal(wn, sn)
        for h = 1, sn do
          assert.are.equal(world:value(wout[h].shape), out[h].index)
          assert.are.same({ wout[h].t, wout[h].x, wout[h].y, wout[h].nx, wout[h].ny },
            { out[h].t, out[h].x, out[h].y, out[h].nx, out[h].ny })
        end
      end
    end
  end)

  it('break ties of t by index, and skip what the filter refuses', function()
    local row = {}
    for i = 1, 4 do row[i] = collide2d.rectangle(i - 1, 0, 1, 1) end
    local set = collide2d.staticset(row)
    local i, t, px, py = set:raycast(-1, 1, 1, 0)               -- along the tops: every tile at once
    assert.are.same({ 1, 1, 0, 1 }, { i, t, px, py })
    local hits, n = set:raycastAll(-1, 0.5, 1, 0, 2.5)
    assert.are.equal(2, n)
    assert.are.same({ 1, 1 }, { hits[1].index, hits[1].t })
    assert.are.same({ 2, 2 }, { hits[2].index, hits[2].t })
    set:setValue(1, 'glass')
    assert.are.equal(2, (set:raycast(-1, 0.5, 1, 0, nil, function(_, v) return v ~= 'glass' end)))
    assert.is_nil(set:raycast(-1, 0.5, 1, 0, nil, function() return false end))
    local out = { { index = 99 } }
    local first = out[1]
    hits, n = set:raycastAll(-1, 0.5, 1, 0, nil, function(index) return index % 2 == 0 end, out)
    assert.are.equal(out, hits)
    assert.are.equal(2, n)
    assert.are.same({ 2, 4 }, { hits[1].index, hits[2].index })
    local reused = false
    for k = 1, 4 do reused = reused or out[k] == first end
    assert.is_true(reused)                                       -- records are kept, not replaced
    set:setEnabled(1, false)
    assert.are.equal(2, (set:raycast(-1, 0.5, 1, 0)))
  end)

  it('let a filter query or destroy the set, and pass on its errors', function()
    local set = level()
    local i = set:raycast(-10, 55, 1, 0, nil, function(index)
      assert.are.equal(6, select(2, set:raycastAll(-10, 55, 1, 0)))
      return index == 3
    end)
    assert.are.equal(3, i)
    expect.raises('boom', function() set:raycast(-10, 55, 1, 0, nil, function() error('boom', 0) end) end)
    expect.raises('boom', function() set:raycastAll(-10, 55, 1, 0, nil, function() error('boom', 0) end) end)
    assert.are.equal(1, (set:raycast(-10, 55, 1, 0)))
    i = set:raycast(-10, 55, 1, 0, nil, function(index)
      set:destroy()
      return index == 2
    end)
    assert.are.equal(2, i)
    expect.raises('attempt to use a destroyed static set', function() set:raycast(-10, 55, 1, 0) end)
  end)

  it('raise the standard errors, naming the argument', function()
    local set = level()
    expect.raises("bad argument #3 to 'raycast' (degenerate geometry (too few distinct points, collinear, or zero length))",
      function() set:raycast(0, 0, 0, 0) end)
    expect.raises("bad argument #5 to 'raycast' (number or count out of range)",
      function() set:raycast(0, 0, 1, 0, -1) end)
    expect.raises("bad argument #6 to 'raycast' (function expected, got table)",
      function() set:raycast(0, 0, 1, 0, nil, {}) end)
    expect.raises("bad argument #1 to 'raycastAll' (number is NaN or infinite)",
      function() set:raycastAll(0 / 0, 0, 1, 0) end)
    expect.raises("bad argument #7 to 'raycastAll' (table expected, got string)",
      function() set:raycastAll(0, 0, 1, 0, nil, nil, 'x') end)
  end)
end)

describe('world:setEnabled and world:isEnabled', function()
  it('hide a shape from every query, ray, pair and move until it is enabled again', function()
    local world = collide2d.world()
    local floor = world:add(collide2d.rectangle(0, 10, 100, 10), 'floor')
    local door = world:add(collide2d.rectangle(40, -20, 4, 30), 'door')
    local crate = world:add(collide2d.rectangle(38, 5, 8, 6), 'crate')  -- touches the door and the floor
    assert.is_true(world:isEnabled(door))
    assert.are.equal(door, world:setEnabled(door, false))
    assert.is_false(world:isEnabled(door))
    assert.are.equal(0, select(2, world:queryPoint(42, -10)))
    assert.are.equal(0, select(2, world:queryRect(40, -20, 4, 10)))
    assert.are.equal(crate, (world:raycast(42, -30, 0, 1)))     -- down through the open doorway
    local _, n = world:raycastAll(0, 0, 1, 0)
    assert.are.equal(0, n)
    local pairs_, np = world:pairs()
    assert.are.equal(1, np)
    assert.are.same({ floor, crate }, { pairs_[1].a, pairs_[1].b })
    local x, y, nm = world:move(collide2d.rectangle(0, -10, 4, 4), 80, 0)
    assert.are.equal(0, nm)
    local _, _, _, _, nb = world:stepBall(0, -10, 80, 0, 1, 1)
    assert.are.equal(0, nb)
    world:setEnabled(door, true)
    assert.is_true(world:isEnabled(door))
    assert.are.equal(1, select(2, world:queryPoint(42, -10)))
    assert.are.equal(door, (world:raycast(0, -10, 1, 0)))
    assert.are.equal(3, select(2, world:pairs()))
    assert.are.equal(1, select(3, world:move(collide2d.rectangle(0, -10, 4, 4), 80, 0)))
  end)

  it('raise the standard errors', function()
    local world = collide2d.world()
    local s = world:add(collide2d.circle(0, 0, 1))
    expect.raises("bad argument #2 to 'setEnabled' (boolean expected, got no value)", function() world:setEnabled(s) end)
    expect.raises("bad argument #2 to 'setEnabled' (boolean expected, got number)",
      function() world:setEnabled(s, 0) end)
    expect.raises('shape is not in this world', function() world:setEnabled(collide2d.circle(0, 0, 1), false) end)
    expect.raises('shape is not in this world', function() world:isEnabled(collide2d.circle(0, 0, 1)) end)
    expect.raises("bad argument #1 to 'isEnabled' (collide2d.shape expected, got no value)", function() world:isEnabled() end)
    assert.is_true(world:isEnabled(s))                           -- a failed call changed nothing
  end)
end)

describe('world:setVelocity and world:velocity', function()
  it('set the velocity of the motion, its turn kept', function()
    local world = collide2d.world()
    local s = world:add(collide2d.rectangle(0, 0, 10, 2))
    expect.values({ 0, 0 }, world:velocity(s))
    world:setMotion(s, 1, 2, 3, 4, 0)
    assert.are.equal(s, world:setVelocity(s, -5, 6))
    expect.values({ -5, 6 }, world:velocity(s))
    expect.values({ -5, 6, 3, 4, 0 }, world:motion(s))
  end)

  it('raise the standard errors and change nothing', function()
    local world = collide2d.world()
    local s = world:add(collide2d.circle(0, 0, 1))
    world:setVelocity(s, 1, 2)
    expect.raises("bad argument #2 to 'setVelocity' (number is NaN or infinite)",
      function() world:setVelocity(s, 0 / 0, 1) end)
    expect.raises("bad argument #3 to 'setVelocity' (number or count out of range)",
      function() world:setVelocity(s, 1, 2e15) end)
    expect.raises("bad argument #3 to 'setVelocity' (number expected, got no value)",
      function() world:setVelocity(s, 1) end)
    expect.raises('shape is not in this world', function() world:velocity(collide2d.circle(0, 0, 1)) end)
    expect.values({ 1, 2 }, world:velocity(s))
  end)
end)
