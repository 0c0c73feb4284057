-- spec/bookkeeping_spec.lua - what a game no longer keeps by hand (issue 25, item 4): a Lua value per
-- static-set shape (set:setValue, set:value) reported as contacts[k].value as world contacts report
-- theirs; the set's shapes read back to draw them (set:shape, set:vertices, set:parts, set:part) where
-- the set placed them; rectangles made from their centre (collide2d.box) beside the corner form
-- (collide2d.rectangle); and moves that place the mover (opts.place), updating its world entry.
-- Bad input raises the named error and changes nothing.
local collide2d = require 'collide2d'
local expect = require 'spec.support.expect'

-- A floor, a bumper above it and an L-shaped ledge (a concave polygon of two parts), y down.
local function level()
  return collide2d.staticset({
    collide2d.rectangle(0, 0, 100, 10),
    collide2d.circle(50, -30, 5),
    collide2d.concave({ 60, -20, 70, -20, 70, -18, 62, -18, 62, -12, 60, -12 }),
  })
end

describe('set:setValue(i, value) and set:value(i)', function()
  it('keep any Lua value per shape, nil until given', function()
    local set = level()
    for i = 1, 3 do assert.is_nil(set:value(i)) end
    local bumper = { score = 100 }
    assert.are.equal(set, set:setValue(2, bumper))
    set:setValue(1, 'floor'):setValue(3, false)
    assert.are.equal(bumper, set:value(2))
    assert.are.equal('floor', set:value(1))
    assert.are.equal(false, set:value(3))
    set:setValue(1, nil)
    assert.is_nil(set:value(1))
    local f = function() end
    set:setValue(1, f)
    assert.are.equal(f, set:value(1))
  end)

  it('refuse a bad index or a missing value, changing nothing', function()
    local set = level():setValue(1, 'floor')
    expect.raises("bad argument #1 to 'setValue' (shape index expected (1 to 3))", function() set:setValue(4, 'x') end)
    expect.raises("bad argument #1 to 'setValue' (shape index expected (1 to 3))", function() set:setValue(1.5, 'x') end)
    expect.raises("bad argument #1 to 'value' (shape index expected (1 to 3))", function() set:value(0) end)
    expect.raises("bad argument #2 to 'setValue' (value expected)", function() set:setValue(1) end)
    expect.raises("bad argument #1 to 'value' (number expected, got table)", function() set:value({}) end)
    assert.are.equal('floor', set:value(1))
    set:destroy()
    expect.raises('attempt to use a destroyed static set', function() set:value(1) end)
    expect.raises('attempt to use a destroyed static set', function() set:setValue(1, 2) end)
  end)

  it('are kept alive by the set, and a set whose values refer back to it is still collected', function()
    local set = level()
    local weak = setmetatable({}, { __mode = 'v' })
    weak.value = {}
    set:setValue(2, weak.value)
    collectgarbage('collect')
    assert.is_table(weak.value)
    -- Made in a function of its own, so that no register of this one still holds the set.
    local function make_cycle()
      local cycle = level()
      cycle:setValue(1, { set = cycle })
      weak.set = cycle
    end
    make_cycle()
    collectgarbage('collect')
    collectgarbage('collect')
    assert.is_nil(weak.set)
    set:destroy()
    collectgarbage('collect')
    assert.is_nil(weak.value)   -- a destroyed set lets its values go
  end)

  it('are reported as contacts[k].value by moves, turning moves and ball steps', function()
    local set = level():setValue(1, 'floor'):setValue(2, 'bumper')
    local contacts = {}
    -- A ball between the floor (top y = 0) and the bumper above it: floor, bumper, floor, ...
    local _, _, _, _, n = set:stepBall(50, -10, 0, 60, 1, 1, nil, contacts)
    assert.is_true(n >= 3)
    assert.are.equal('floor', contacts[1].value)
    assert.are.equal('bumper', contacts[2].value)
    for k = 1, n do
      assert.are.equal(set:value(contacts[k].index), contacts[k].value)
    end
    local x, y
    x, y, n = set:move(collide2d.rectangle(10, -3, 1, 1), 4, 5, nil, contacts)
    assert.are.equal(1, n)
    assert.are.equal('floor', contacts[1].value)
    -- The ledge has no value: the record's value is nil, also in a record reused from the last call.
    set:setValue(1, nil)
    local angle
    x, y, angle, n = set:moveTurning(collide2d.box(58.9, -15, 2, 2), 0, 0, 1.5, 0, 0, nil, contacts)
    assert.are.equal(1, n)
    assert.are.equal(3, contacts[1].index)     -- its corner turns into the ledge
    assert.is_nil(contacts[1].value)
    assert.is_true(angle > 0 and angle < 1.5 and x == 58.9 and y == -15)
    x, y, n = set:move(collide2d.rectangle(10, -3, 1, 1), 4, 5, nil, contacts)
    assert.is_nil(contacts[1].value)
  end)

  it('change no motion: the same answers with values as without', function()
    local bare, valued = level(), level()
    for i = 1, 3 do valued:setValue(i, { i }) end
    for k = 1, 50 do
      local a, b = { bare:stepBall(k, -15, 7 - k % 13, 31, 1, 1) }, { valued:stepBall(k, -15, 7 - k % 13, 31, 1, 1) }
      assert.are.same(a, b)
      a = { bare:move(collide2d.box(k, -12, 2, 1), 7 - k % 11, 15) }
      b = { valued:move(collide2d.box(k, -12, 2, 1), 7 - k % 11, 15) }
      assert.are.same(a, b)
    end
  end)
end)

describe('set:shape(i), set:vertices(i [, t]), set:parts(i) and set:part(i, k [, t])', function()
  local kinds = {
    collide2d.circle(1, 2, 3),
    collide2d.rectangle(10, 0, 4, 2, 0.5),
    collide2d.box(30, 5, 4, 2),
    collide2d.polygon(40, 0, 44, 0, 41, 3),
    collide2d.capsule(50, 0, 54, 1, 0.5),
    collide2d.segment(60, 0, 63, 3),
    collide2d.chain({ 70, 0, 74, 2, 78, 1, 82, 3 }, { oneSided = true }),
    collide2d.concave({ 90, 0, 100, 0, 100, 2, 92, 2, 92, 8, 90, 8 }),
  }

  it('read every kind as the shape the set was made from', function()
    local set = collide2d.staticset(kinds)
    for i, s in ipairs(kinds) do
      local kind, x, y, angle, r = set:shape(i)
      assert.are.equal(s:type(), kind)
      local sx, sy = s:position()
      assert.are.same({ sx, sy, s:angle(), s:radius() }, { x, y, angle, r })
      assert.are.same(s:vertices(), set:vertices(i))
      assert.are.equal(s:parts(), set:parts(i))
      for k = 1, s:parts() do assert.are.same(s:part(k), set:part(i, k)) end
    end
  end)

  it('follow a shape the set re-places or advances, and keep their own copy', function()
    local set = collide2d.staticset(kinds)
    kinds[2]:move(100, 100)                  -- the caller's shape: the set's is its own
    local kind, x, y, angle = set:shape(2)
    assert.are.same({ 'rectangle', 12, 1, 0.5 }, { kind, x, y, angle })
    set:setTransform(2, 20, 30, 0)
    assert.are.same({ 18, 29, 22, 29, 22, 31, 18, 31 }, set:vertices(2))
    set:setMotion(8, 2, 0, 0)
    set:advance(0.5)
    local px, py = set:transform(8)
    local _, sx, sy = set:shape(8)
    assert.are.same({ px, py }, { sx, sy })
    assert.are.same({ 91, 0, 101, 0, 101, 2, 93, 2, 93, 8, 91, 8 }, expect.canonical(set:vertices(8)))
    kinds[2]:move(-100, -100)
  end)

  it('fill a table handed in, clearing it past the end', function()
    local set = collide2d.staticset(kinds)
    local t = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k' }
    assert.are.equal(t, set:vertices(2, t))
    assert.are.equal(8, #t)
    assert.is_nil(t[9])
    assert.are.equal(t, set:vertices(1, t))
    assert.are.same({ 1, 2 }, t)
    assert.are.equal(t, set:part(8, 1, t))
    assert.are.same(kinds[8]:part(1), t)
  end)

  it('draw a set with more vertices than fit on the stack', function()
    local pts = {}
    for k = 0, 99 do
      local a = 2 * math.pi * k / 100
      pts[#pts + 1] = 10 * math.cos(a)
      pts[#pts + 1] = 10 * math.sin(a)
    end
    local set = collide2d.staticset({ collide2d.polygon(pts) })
    assert.are.equal(200, #set:vertices(1))
    assert.are.same(collide2d.polygon(pts):vertices(), set:vertices(1))
  end)

  it('refuse a bad index, part or table', function()
    local set = collide2d.staticset(kinds)
    expect.raises("bad argument #1 to 'shape' (shape index expected (1 to 8))", function() set:shape(9) end)
    expect.raises("bad argument #1 to 'vertices' (shape index expected (1 to 8))", function() set:vertices(0) end)
    expect.raises("bad argument #2 to 'vertices' (table expected, got number)", function() set:vertices(1, 5) end)
    expect.raises("bad argument #1 to 'parts' (shape index expected (1 to 8))", function() set:parts(-1) end)
    expect.raises("bad argument #2 to 'part' (part index expected (1 to 3))", function() set:part(7, 4) end)
    expect.raises("bad argument #2 to 'part' (part index expected (1 to 1))", function() set:part(1, 0) end)
    expect.raises("bad argument #3 to 'part' (table expected, got string)", function() set:part(1, 1, 'x') end)
    set:destroy()
    expect.raises('attempt to use a destroyed static set', function() set:shape(1) end)
    expect.raises('attempt to use a destroyed static set', function() set:vertices(1) end)
  end)
end)

describe('collide2d.box(cx, cy, w, h [, angle])', function()
  it('is the rectangle given by its centre, as collide2d.rectangle is by its corner', function()
    local b, r = collide2d.box(5, 6, 4, 2), collide2d.rectangle(3, 5, 4, 2)
    assert.are.equal('rectangle', b:type())
    assert.are.same({ r:position() }, { b:position() })
    assert.are.same(r:vertices(), b:vertices())
    local turned = collide2d.box(5, 6, 4, 2, 0.3)
    local tx, ty = turned:position()
    assert.are.same({ 5, 6, 0.3 }, { tx, ty, turned:angle() })
    assert.are.same(collide2d.rectangle(3, 5, 4, 2, 0.3):vertices(), turned:vertices())
    assert.are.same(b:collide(collide2d.circle(7, 6, 1)), r:collide(collide2d.circle(7, 6, 1)))
  end)

  it('refuses what collide2d.rectangle refuses, naming the argument', function()
    expect.raises("bad argument #3 to 'box' (size or radius must be positive)", function() collide2d.box(0, 0, 0, 1) end)
    expect.raises("bad argument #4 to 'box' (size or radius must be positive)", function() collide2d.box(0, 0, 1, -1) end)
    expect.raises("bad argument #1 to 'box' (number is NaN or infinite)", function() collide2d.box(0 / 0, 0, 1, 1) end)
    expect.raises("bad argument #5 to 'box' (number or count out of range)", function() collide2d.box(0, 0, 1, 1, 1e16) end)
    expect.raises("bad argument #2 to 'box' (number expected, got nil)", function() collide2d.box(0, nil, 1, 1) end)
  end)
end)

describe('opts.place', function()
  it('places the shape where set:move ends, as setPosition would', function()
    local floor = collide2d.staticset({ collide2d.rectangle(0, 0, 100, 10) })
    local box, twin = collide2d.rectangle(0, -3, 1, 1), collide2d.rectangle(0, -3, 1, 1)
    local x, y, n = floor:move(box, 4, 5, { place = true })
    local tx, ty, tn = floor:move(twin, 4, 5)
    assert.are.same({ tx, ty, tn }, { x, y, n })
    assert.are.same({ 4.5, -0.5 }, { box:position() })
    assert.are.same({ 0.5, -2.5 }, { twin:position() })   -- without place nothing moves
    floor:move(twin, 4, 5, { place = false })
    assert.are.same({ 0.5, -2.5 }, { twin:position() })
  end)

  it('places and turns the shape where set:moveTurning ends', function()
    local wall = collide2d.staticset({ collide2d.rectangle(1.2, -5, 1, 10) })
    local crate = collide2d.box(0, 0, 2, 2)
    local x, y, angle = wall:moveTurning(collide2d.box(0, 0, 2, 2), 0.5, 0, math.pi / 2)
    local px, py, pangle = wall:moveTurning(crate, 0.5, 0, math.pi / 2, 0, 0, { place = true })
    assert.are.same({ x, y, angle }, { px, py, pangle })
    local cx, cy = crate:position()
    assert.are.same({ x, y, angle }, { cx, cy, crate:angle() })
  end)

  it('updates the world entry of a shape world:move places', function()
    local world = collide2d.world()
    world:add(collide2d.rectangle(0, 10, 100, 10), 'floor')
    local player = world:add(collide2d.rectangle(0, 0, 8, 8), 'player')
    local x, y = world:move(player, 60, 5, { place = true })
    assert.are.same({ 64, 6 }, { x, y })
    assert.are.same({ 64, 6 }, { player:position() })
    local found = world:queryPoint(67, 8)
    assert.are.equal(player, found[1])            -- found where it went, with no world:update
    assert.are.equal(0, select(2, world:queryPoint(1, 1)))
  end)

  it('updates the world entry of a shape a set move places', function()
    local world = collide2d.world()
    local ball = world:add(collide2d.circle(0, -20, 1))
    local floor = collide2d.staticset({ collide2d.rectangle(0, 0, 100, 10) })
    floor:move(ball, 50, 0, { place = true })
    assert.are.equal(ball, world:queryPoint(50, -20)[1])
  end)

  it('refuses a place that is not a boolean, and a ball step asked to place, changing nothing', function()
    local floor = collide2d.staticset({ collide2d.rectangle(0, 0, 100, 10) })
    local world = collide2d.world()
    local box = world:add(collide2d.rectangle(0, -3, 1, 1))
    local contacts = { { index = 7 } }
    expect.raises("bad argument #4 to 'move' (opts.place: boolean expected, got number)",
      function() floor:move(box, 4, 5, { place = 1 }, contacts) end)
    expect.raises("bad argument #7 to 'moveTurning' (opts.place: boolean expected, got string)",
      function() floor:moveTurning(box, 4, 5, 1, 0, 0, { place = 'yes' }) end)
    expect.raises("bad argument #4 to 'move' (opts.place: boolean expected, got number)",
      function() world:move(box, 4, 5, { place = 1 }) end)
    expect.raises("bad argument #7 to 'stepBall' (opts.place: a ball step has no shape to place (it returns the ball))",
      function() floor:stepBall(0, -5, 0, 1, 1, 1, { place = true }) end)
    expect.raises("bad argument #7 to 'stepBall' (opts.place: a ball step has no shape to place (it returns the ball))",
      function() world:stepBall(0, -5, 0, 1, 1, 1, { place = true }) end)
    assert.are.same({ 0.5, -2.5 }, { box:position() })
    assert.are.same({ { index = 7 } }, contacts)
    floor:stepBall(0, -5, 0, 1, 1, 1, { place = false })   -- false is no place, as nil
  end)
end)
