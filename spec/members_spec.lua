-- spec/members_spec.lua - static sets whose shapes move and block from one side, from Lua:
-- set:setTransform / transform, set:setVelocity / velocity (a paddle swept against the ball it hits),
-- set:setOneWay / oneWay and world:setOneWay / oneWay (platforms passed from below, landed on from
-- above), and the contact fields that say where the mover was (moverX, moverY) and how it went on
-- (vx, vy), with no limit on how many contacts a call reports.
local collide2d = require 'collide2d'
local expect = require 'spec.support.expect'

local function near(a, b, tol) return math.abs(a - b) <= (tol or expect.TOL) end

-- A w by h rectangle centred at (x, y) (collide2d.rectangle takes the top-left corner).
local function rect(x, y, w, h) return collide2d.rectangle(x - w / 2, y - h / 2, w, h) end

describe('set:setTransform(i, x, y [, angle]) and set:transform(i)', function()
  local function row()
    return collide2d.staticset({ rect(0.5, 0.5, 1, 1), rect(1.5, 0.5, 1, 1),
      rect(2.5, 0.5, 1, 1) })
  end

  it('re-places a shape, and its seams follow it', function()
    local set = row()
    assert.is_true(set:isSeam(2, 2)) -- brick 2's right edge, against brick 3
    assert.are.equal(set, set:setTransform(3, 2.5, 5.5))
    expect.values({ 2.5, 5.5, 0 }, set:transform(3))
    assert.is_false(set:isSeam(2, 2))
    set:setTransform(3, 2.5, 0.5, 0)
    assert.is_true(set:isSeam(2, 2))
    set:setTransform(1, 100, 100, 0.5)
    expect.values({ 100, 100, 0.5 }, set:transform(1))
    set:setTransform(1, 90, 90) -- the angle is kept
    expect.values({ 90, 90, 0.5 }, set:transform(1))
  end)

  it('is where queries find it', function()
    local set = row()
    set:setTransform(2, 50, 50)
    local box = rect(50, 40, 1, 1)
    local t, nx, ny, px, py, index = set:sweep(box, 0, 20)
    assert.are.equal(2, index)
    assert.is_true(near(t * 20, 9))
    expect.values({ 0, 1 }, nx, ny) -- from the shape to the set's shape
  end)

  it('raises the standard errors and changes nothing', function()
    local set = row()
    expect.raises("bad argument #1 to 'setTransform' (shape index expected (1 to 3))",
      function() set:setTransform(4, 0, 0) end)
    expect.raises("bad argument #2 to 'setTransform' (number is NaN or infinite)",
      function() set:setTransform(1, 0 / 0, 0) end)
    expect.raises("bad argument #4 to 'setTransform' (number is NaN or infinite)",
      function() set:setTransform(1, 0, 0, math.huge) end)
    expect.raises("bad argument #2 to 'setTransform' (number or count out of range)",
      function() set:setTransform(1, 1e16, 0) end)
    expect.raises("bad argument #3 to 'setTransform' (number expected, got no value)",
      function() set:setTransform(1, 0) end)
    expect.values({ 0.5, 0.5, 0 }, set:transform(1))
    assert.is_true(set:isSeam(1, 2))
    set:destroy()
    expect.raises('attempt to use a destroyed static set', function() set:setTransform(1, 0, 0) end)
  end)
end)

describe('set:setVelocity(i, vx, vy) and set:velocity(i)', function()
  it('sweeps a paddle against the ball over the step', function()
    local set = collide2d.staticset({ rect(0, 0, 10, 1) })
    assert.are.equal(set, set:setVelocity(1, 0, 50))
    expect.values({ 0, 50 }, set:velocity(1))
    local contacts = {}
    -- A ball at rest 10 above the paddle's top: the paddle reaches it at t = 0.2 and sends it up at 100.
    local x, y, vx, vy, n = set:stepBall(1, 11.5, 0, 0, 1, 1, nil, contacts)
    assert.are.equal(1, n)
    assert.is_true(near(vy, 100, 1e-9) and near(vx, 0) and near(y, 11.5 + 80, 1e-9) and x == 1)
    local c = contacts[1]
    assert.is_true(near(c.t, 0.2) and near(c.moverY, 11.5) and near(c.y, 10.5) and near(c.vy, 100, 1e-9))
    expect.values({ 0, 0, 0 }, set:transform(1)) -- the step does not move the paddle
  end)

  it('never lets a ball through a paddle moving 50 radii a step', function()
    local r, W = 1, 40
    local set = collide2d.staticset({ rect(-1, 100, 2, 204), rect(W + 1, 100, 2, 204),
      rect(W / 2, 201, W + 4, 2), rect(W / 2, 5, W, 2) })
    local seed = 4242
    local function random()
      seed = (seed * 16807) % 2147483647
      return seed / 2147483647
    end
    local x, y, vx, vy, py = 20, 40, 17, -23, 5
    for _ = 1, 3000 do
      local v = (random() * 2 - 1) * 50 * r
      if py + v > 90 then v = 90 - py end
      if py + v < 5 then v = 5 - py end
      set:setVelocity(4, 0, v)
      x, y, vx, vy = set:stepBall(x, y, vx, vy, r, 1)
      py = py + v
      set:setTransform(4, W / 2, py)
      assert(y - r >= py + 1 - 1e-9, string.format('ball at %.17g below the paddle top %.17g', y, py + 1))
      local sp = math.sqrt(vx * vx + vy * vy)
      if sp > 120 then vx, vy = vx * 60 / sp, vy * 60 / sp end
    end
  end)

  it('raises the standard errors', function()
    local set = collide2d.staticset({ collide2d.circle(0, 0, 1) })
    expect.raises("bad argument #3 to 'setVelocity' (number is NaN or infinite)",
      function() set:setVelocity(1, 0, 0 / 0) end)
    expect.raises("bad argument #1 to 'velocity' (shape index expected (1 to 1))", function() set:velocity(2) end)
  end)
end)

describe('set:setOneWay(i, dx, dy) and world:setOneWay(shape, dx, dy)', function()
  it('passes from below and holds from above, for moves and balls', function()
    local set = collide2d.staticset({ rect(0, 0, 4, 1) })
    assert.is_nil(set:oneWay(1))
    assert.are.equal(set, set:setOneWay(1, 0, 2))
    expect.values({ 0, 1 }, set:oneWay(1))
    local box = rect(0, -2, 1, 1)
    expect.values({ 0, 2, 0 }, set:move(box, 0, 4))
    box:setPosition(0, 2)
    expect.values({ 0.5, 1, 1 }, set:move(box, 0.5, -4))
    local x, y, vx, vy, n = set:stepBall(0, -3, 0, 10, 0.25, 0.6)
    expect.values({ 0, 3, 0, 10, 0 }, x, y, vx, vy, n)
    x, y, vx, vy, n = set:stepBall(0, 3, 0, -10, 0.25, 1)
    expect.values({ 0, 8.5, 0, 10, 1 }, x, y, vx, vy, n)
    set:setOneWay(1) -- solid again
    assert.is_nil(set:oneWay(1))
    box:setPosition(0, -2)
    expect.values({ 0, -1, 1 }, set:move(box, 0, 4))
  end)

  it('works for world entries', function()
    local world = collide2d.world()
    local slab = rect(0, 0, 4, 1)
    world:add(slab, 'slab')
    assert.are.equal(slab, world:setOneWay(slab, 0, 1))
    expect.values({ 0, 1 }, world:oneWay(slab))
    local box = rect(0, -2, 1, 1)
    expect.values({ 0, 2, 0 }, world:move(box, 0, 4))
    box:setPosition(0, 2)
    local contacts = {}
    expect.values({ 0, 1, 1 }, world:move(box, 0, -4, nil, nil, contacts))
    assert.are.equal('slab', contacts[1].value)
    assert.is_true(near(contacts[1].moverY, 1) and near(contacts[1].moverX, 0))
    world:setOneWay(slab)
    assert.is_nil(world:oneWay(slab))
    expect.raises("bad argument #2 to 'setOneWay' (number is NaN or infinite)",
      function() world:setOneWay(slab, 0 / 0, 1) end)
  end)

  it('refuses a zero direction, which says no side, and changes nothing', function()
    local set = collide2d.staticset({ rect(0, 0, 4, 1) })
    set:setOneWay(1, 0, 1)
    local msg = "bad argument #2 to 'setOneWay' (direction (0, 0) has no side: leave it out to make the shape solid again)"
    expect.raises(msg, function() set:setOneWay(1, 0, 0) end)
    expect.values({ 0, 1 }, set:oneWay(1))
    local world = collide2d.world()
    local slab = rect(0, 0, 4, 1)
    world:add(slab, 'slab')
    expect.raises(msg, function() world:setOneWay(slab, 0, -0.0) end)
    assert.is_nil(world:oneWay(slab))
  end)
end)

describe('a chain or concave polygon as a mover', function()
  it('is refused by name, for every call that moves a shape', function()
    local set = collide2d.staticset({ rect(0, 0, 4, 1) })
    local world = collide2d.world()
    local chain = collide2d.chain({ 0, 5, 1, 5, 1, 6 })
    local concave = collide2d.concave({ 0, 0, 4, 0, 4, 4, 2, 1, 0, 4 })
    for _, mover in ipairs({ chain, concave }) do
      local function msg(f) return "bad argument #1 to '" .. f .. "' (a chain or concave polygon cannot be a mover)" end
      expect.raises(msg('move'), function() set:move(mover, 1, 0) end)
      expect.raises(msg('moveTurning'), function() set:moveTurning(mover, 1, 0, 1) end)
      expect.raises(msg('sweep'), function() set:sweep(mover, 1, 0) end)
      expect.raises(msg('pushOut'), function() set:pushOut(mover) end)
      expect.raises(msg('move'), function() world:move(mover, 1, 0) end)
    end
  end)
end)

describe('contact fields', function()
  it('say where the mover was and how it went on, for every contact', function()
    -- A box crossing 100 tiles (apart, so that none hides another's face) meets 100 contacts: all
    -- are reported.
    local tiles = {}
    for i = 1, 100 do tiles[i] = rect(i - 0.5, 0.5, 0.8, 1) end
    local set = collide2d.staticset(tiles)
    local contacts = {}
    local box = rect(-1, 0.5, 0.5, 0.5)
    local x, y, n = set:move(box, 200, 0, { response = 'cross' }, contacts)
    expect.values({ 199, 0.5 }, x, y)
    assert.are.equal(100, n)
    for k = 1, n do
      local c = contacts[k]
      assert.are.equal(k, c.index)
      assert.is_true(near(c.moverX, k - 0.9 - 0.25, 1e-9) and near(c.moverY, 0.5))
      expect.values({ 200, 0 }, c.vx, c.vy)
    end
    -- The same table again, with fewer contacts: the first ones are overwritten, n says how many.
    set:move(box, 0, -5, nil, contacts)
    assert.are.equal(1, contacts[1].index)
  end)
end)
