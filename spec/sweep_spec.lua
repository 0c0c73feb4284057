-- spec/sweep_spec.lua - swept collision and static sets from Lua: collide2d.sweep / shape:sweep, and
-- collide2d.staticset with every method (count, setEnabled, isEnabled, isSeam, markNeighbours, sweep,
-- pushOut, move, stepBall, destroy), their contacts tables, their metamethods and every error a
-- caller can provoke; then two properties through the binding: a ball in seed 004's scene never
-- tunnels and keeps its speed over 2,000 random trajectories, and a box sliding along a row of 100
-- adjacent boxes never stops at a seam.
local collide2d = require 'collide2d'
local expect = require 'spec.support.expect'

local TOL = expect.TOL
local DEGENERATE = 'degenerate geometry (too few distinct points, collinear, or zero length)'

-- Deterministic, so a failure reproduces in every Lua: Park and Miller's generator, exact in doubles.
local seed = 20240601
local function random()
  seed = (seed * 16807) % 2147483647
  return seed / 2147483647
end

local function near(a, b, tol) return math.abs(a - b) <= (tol or TOL) end

describe('collide2d.sweep(a, dx, dy, b [, odx, ody])', function()
  local a, b = collide2d.circle(0, 0, 1), collide2d.circle(10, 0, 1)

  it('returns t, the normal from a to b, the contact point and overlapping = false on a hit', function()
    local t, nx, ny, px, py, overlapping, depth = collide2d.sweep(a, 20, 0, b)
    expect.values({ 0.4, 1, 0, 9, 0 }, t, nx, ny, px, py)
    assert.is_false(overlapping)
    assert.is_nil(depth)
    assert.are.equal(6, select('#', collide2d.sweep(a, 20, 0, b)))
  end)

  it('is the method shape:sweep(dx, dy, other [, odx, ody])', function()
    assert.are.same({ collide2d.sweep(a, 20, 0, b) }, { a:sweep(20, 0, b) })
    assert.are.same({ collide2d.sweep(a, 5, 0, b, -5, 0) }, { a:sweep(5, 0, b, -5, 0) })
  end)

  it('moves both shapes over the same time when b moves too', function()
    local t, nx, ny = a:sweep(5, 0, b, -5, 0)
    expect.values({ 0.8, 1, 0 }, t, nx, ny)
    expect.values({ 0.4 }, (a:sweep(0, 0, b, -20, 0)))
  end)

  it('returns nil alone when they never touch', function()
    assert.are.equal(1, select('#', a:sweep(0, 5, b)))
    assert.is_nil(a:sweep(0, 5, b))
    assert.is_nil(a:sweep(-20, 0, b))
    assert.is_nil(a:sweep(7.9, 0, b))
  end)

  it('reports an overlap at t = 0 with its depth as a seventh value', function()
    local t, nx, ny, px, py, overlapping, depth = a:sweep(1, 0, collide2d.circle(0.5, 0, 1))
    assert.are.equal(0, t)
    expect.values({ 1, 0, 1.5 }, nx, ny, depth)
    assert.is_number(px)
    assert.is_number(py)
    assert.is_true(overlapping)
  end)

  it('does not move the shapes', function()
    a:sweep(20, 0, b, 3, 3)
    expect.values({ 0, 0 }, a:position())
    expect.values({ 10, 0 }, b:position())
  end)

  it('works for every pair of kinds', function()
    local kinds = {
      collide2d.circle(0, 0, 1), collide2d.rectangle(-1, -1, 2, 2), collide2d.polygon(-1, -1, 1, -1, 0, 1),
      collide2d.capsule(-1, 0, 1, 0, 0.5), collide2d.segment(0, -1, 0, 1),
    }
    for _, s in ipairs(kinds) do
      for _, o in ipairs(kinds) do
        local moved = o:clone():move(10, 0)
        local t, nx = s:sweep(20, 0, moved)
        assert.is_number(t)
        assert.is_true(t > 0.2 and t <= 0.5)
        assert.is_true(nx > 0)
      end
    end
  end)

  it('raises the standard errors', function()
    expect.raises("bad argument #1 to 'sweep' (collide2d.shape expected, got number)",
      function() collide2d.sweep(1, 0, 0, b) end)
    expect.raises("bad argument #4 to 'sweep' (collide2d.shape expected, got nil)",
      function() collide2d.sweep(a, 0, 0, nil) end)
    expect.raises("bad argument #3 to 'sweep' (number expected, got string)",
      function() collide2d.sweep(a, 1, 'x', b) end)
    expect.raises("bad argument #2 to 'sweep' (number expected, got string)",
      function() a:sweep(1, 'x', b) end)
    expect.raises("bad argument #5 to 'sweep' (number expected, got table)",
      function() collide2d.sweep(a, 1, 0, b, {}) end)
    expect.raises("bad argument #2 to 'sweep' (number is NaN or infinite)",
      function() collide2d.sweep(a, 0 / 0, 0, b) end)
    expect.raises("bad argument #6 to 'sweep' (number is NaN or infinite)",
      function() collide2d.sweep(a, 0, 0, b, 0, math.huge) end)
    expect.raises("bad argument #5 to 'sweep' (number or count out of range)",
      function() collide2d.sweep(a, 0, 0, b, 1e16, 0) end)
    local dead = collide2d.circle(0, 0, 1)
    dead:destroy()
    expect.raises('attempt to use a destroyed shape', function() dead:sweep(1, 0, b) end)
    expect.raises('attempt to use a destroyed shape', function() a:sweep(1, 0, dead) end)
  end)
end)

-- A row of unit squares along the x axis: {0..1, 1..2, ...} x {0..1}.
local function row(n, size)
  size = size or 1
  local shapes = {}
  for i = 1, n do shapes[i] = collide2d.rectangle((i - 1) * size, 0, size, size) end
  return shapes
end

describe('collide2d.staticset(shapes [, opts])', function()
  it('copies the shapes: changing or destroying them later does not change the set', function()
    local shapes = row(2)
    local set = collide2d.staticset(shapes)
    assert.are.equal(2, set:count())
    shapes[1]:move(100, 100)
    shapes[2]:destroy()
    local box = collide2d.rectangle(0.25, -2, 0.5, 0.5)
    local t, nx, ny, px, py, index = set:sweep(box, 0, 5)
    expect.values({ 0.3, 0, 1, 0.5, 0 }, t, nx, ny, px, py)
    assert.are.equal(1, index)
  end)

  it('accepts an empty list and every kind of shape', function()
    assert.are.equal(0, collide2d.staticset({}):count())
    local set = collide2d.staticset({ collide2d.circle(0, 0, 1), collide2d.rectangle(0, 0, 1, 1),
      collide2d.polygon(0, 0, 1, 0, 0, 1), collide2d.capsule(0, 0, 1, 0, 1), collide2d.segment(0, 0, 1, 0) })
    assert.are.equal(5, set:count())
  end)

  it('is a userdata named collide2d.staticset that prints its size, or that it was destroyed', function()
    local set = collide2d.staticset(row(3))
    assert.are.equal('userdata', type(set))
    assert.are.equal('collide2d.staticset', getmetatable(set).__name)
    assert.matches('^collide2d%.staticset %(3 shapes, ' .. expect.ADDRESS .. '%)$', tostring(set))
    set:destroy()
    assert.are.equal('collide2d.staticset (destroyed)', tostring(set))
    assert.is_nil(collide2d.type(set))
  end)

  it('finds seams automatically between touching shapes, unless autoSeams is false', function()
    local set = collide2d.staticset(row(3))
    -- A rectangle's edges from its first corner: bottom (y = 0 side), right, top, left.
    assert.is_false(set:isSeam(1, 1))
    assert.is_true(set:isSeam(1, 2))
    assert.is_false(set:isSeam(1, 4))
    assert.is_true(set:isSeam(2, 2))
    assert.is_true(set:isSeam(2, 4))
    assert.is_true(set:isSeam(3, 4))
    assert.is_false(set:isSeam(3, 2))
    local plain = collide2d.staticset(row(3), { autoSeams = false })
    assert.is_false(plain:isSeam(1, 2))
    assert.is_false(plain:isSeam(2, 4))
  end)

  it('joins shapes within seamTolerance, and markNeighbours joins a chosen pair', function()
    local gap = { collide2d.rectangle(0, 0, 1, 1), collide2d.rectangle(1.01, 0, 1, 1) }
    assert.is_false(collide2d.staticset(gap):isSeam(1, 2))
    assert.is_true(collide2d.staticset(gap, { seamTolerance = 0.05 }):isSeam(1, 2))
    local set = collide2d.staticset(gap)
    assert.are.equal(set, set:markNeighbours(1, 2, 0.05))
    assert.is_true(set:isSeam(1, 2))
    assert.is_true(set:isSeam(2, 4))
  end)

  it('setEnabled disables a shape (ignored by every query, its neighbours lose their seams)', function()
    local set = collide2d.staticset(row(3))
    assert.is_true(set:isEnabled(2))
    assert.are.equal(set, set:setEnabled(2, false))
    assert.is_false(set:isEnabled(2))
    assert.is_true(set:isEnabled(1))
    assert.is_false(set:isSeam(1, 2))
    local box = collide2d.rectangle(1.25, -2, 0.5, 0.5)
    assert.is_nil(set:sweep(box, 0, 5))
    set:setEnabled(2, true)
    assert.is_true(set:isEnabled(2))
    assert.is_true(set:isSeam(1, 2))
    assert.are.equal(2, select(6, set:sweep(box, 0, 5)))
  end)

  it('raises the standard errors', function()
    local s = collide2d.circle(0, 0, 1)
    expect.raises("bad argument #1 to 'staticset' (table expected, got no value)", function() collide2d.staticset() end)
    expect.raises("bad argument #1 to 'staticset' (collide2d.shape expected at index 2, got number)",
      function() collide2d.staticset({ s, 5 }) end)
    local dead = collide2d.circle(0, 0, 1)
    dead:destroy()
    expect.raises("bad argument #1 to 'staticset' (destroyed shape at index 1)",
      function() collide2d.staticset({ dead }) end)
    expect.raises("bad argument #2 to 'staticset' (table expected, got string)",
      function() collide2d.staticset({}, 'x') end)
    expect.raises("bad argument #2 to 'staticset' (seamTolerance: number expected, got string)",
      function() collide2d.staticset({}, { seamTolerance = 'x' }) end)
    expect.raises("bad argument #2 to 'staticset' (seamTolerance: size or radius must be positive)",
      function() collide2d.staticset({}, { seamTolerance = -1 }) end)
    expect.raises("bad argument #2 to 'staticset' (seamTolerance: number is NaN or infinite)",
      function() collide2d.staticset({}, { seamTolerance = 0 / 0 }) end)
    expect.raises("bad argument #2 to 'staticset' (seamTolerance: number or count out of range)",
      function() collide2d.staticset({}, { seamTolerance = 1e16 }) end)
    expect.raises("bad argument #2 to 'staticset' (autoSeams: boolean expected, got number)",
      function() collide2d.staticset({}, { autoSeams = 0 }) end)
  end)
end)

describe('static set methods', function()
  local set = collide2d.staticset(row(3))
  local box = collide2d.rectangle(0.25, -2, 0.5, 0.5)

  it('raise on a destroyed set, and destroy, __gc and __close may run again', function()
    local dead = collide2d.staticset(row(2))
    local mt = getmetatable(dead)
    mt.__gc(dead)
    mt.__close(dead)
    dead:destroy()
    assert.are.equal('collide2d.staticset (destroyed)', tostring(dead))
    local msg = 'attempt to use a destroyed static set'
    expect.raises(msg, function() dead:count() end)
    expect.raises(msg, function() dead:setEnabled(1, false) end)
    expect.raises(msg, function() dead:isEnabled(1) end)
    expect.raises(msg, function() dead:isSeam(1, 1) end)
    expect.raises(msg, function() dead:markNeighbours(1, 2, 1) end)
    expect.raises(msg, function() dead:sweep(box, 1, 1) end)
    expect.raises(msg, function() dead:pushOut(box) end)
    expect.raises(msg, function() dead:move(box, 1, 1) end)
    expect.raises(msg, function() dead:stepBall(0, 0, 1, 1, 1, 1) end)
  end)

  if _VERSION == 'Lua 5.4' then
    it('close a to-be-closed set (Lua 5.4)', function()
      local chunk = assert(load([[
        local collide2d, shapes = ...
        local kept
        do
          local set <close> = collide2d.staticset(shapes)
          kept = set
        end
        return kept
      ]]))
      assert.are.equal('collide2d.staticset (destroyed)', tostring(chunk(collide2d, row(2))))
    end)
  end

  it('name a wrong self, shape, index or number in a standard error', function()
    local methods = getmetatable(set).__index
    expect.raises("bad argument #1 to 'count' (collide2d.staticset expected, got number)",
      function() methods.count(5) end)
    expect.raises("bad argument #1 to 'sweep' (collide2d.shape expected, got table)",
      function() set:sweep({}, 1, 1) end)
    expect.raises("bad argument #3 to 'sweep' (number expected, got nil)",
      function() set:sweep(box, 1, nil) end)
    expect.raises("bad argument #2 to 'sweep' (number is NaN or infinite)",
      function() set:sweep(box, 0 / 0, 1) end)
    expect.raises("bad argument #1 to 'pushOut' (collide2d.shape expected, got no value)",
      function() set:pushOut() end)
    expect.raises("bad argument #1 to 'isEnabled' (shape index expected (1 to 3))",
      function() set:isEnabled(0) end)
    expect.raises("bad argument #1 to 'isEnabled' (shape index expected (1 to 3))",
      function() set:isEnabled(4) end)
    expect.raises("bad argument #1 to 'isEnabled' (shape index expected (1 to 3))",
      function() set:isEnabled(1.5) end)
    expect.raises("bad argument #1 to 'isEnabled' (number expected, got string)",
      function() set:isEnabled('x') end)
    expect.raises("bad argument #2 to 'setEnabled' (boolean expected, got no value)",
      function() set:setEnabled(1) end)
    expect.raises("bad argument #1 to 'setEnabled' (shape index expected (1 to 3))",
      function() set:setEnabled(9, true) end)
    expect.raises("bad argument #2 to 'isSeam' (edge index expected (1 to the shape's edge count))",
      function() set:isSeam(1, 5) end)
    expect.raises("bad argument #2 to 'isSeam' (edge index expected (1 to the shape's edge count))",
      function() set:isSeam(1, 0) end)
    expect.raises("bad argument #2 to 'isSeam' (number expected, got no value)",
      function() set:isSeam(1) end)
    expect.raises("bad argument #2 to 'markNeighbours' (shape index expected (1 to 3))",
      function() set:markNeighbours(1, 4, 1) end)
    expect.raises("bad argument #2 to 'markNeighbours' (a shape cannot be its own neighbour)",
      function() set:markNeighbours(2, 2, 1) end)
    expect.raises("bad argument #3 to 'markNeighbours' (size or radius must be positive)",
      function() set:markNeighbours(1, 2, 0) end)
    expect.raises("bad argument #3 to 'markNeighbours' (number is NaN or infinite)",
      function() set:markNeighbours(1, 2, math.huge) end)
  end)
end)

describe('set:sweep(shape, dx, dy)', function()
  local set = collide2d.staticset(row(3))

  it('returns t, normal (shape to set), point, the 1-based index and overlapping', function()
    local box = collide2d.rectangle(2.25, -2, 0.5, 0.5)
    local t, nx, ny, px, py, index, overlapping = set:sweep(box, 0, 5)
    expect.values({ 0.3, 0, 1, 2.5, 0 }, t, nx, ny, px, py)
    assert.are.equal(3, index)
    assert.is_false(overlapping)
    assert.are.equal(7, select('#', set:sweep(box, 0, 5)))
  end)

  it('returns nil alone for a miss', function()
    assert.are.equal(1, select('#', set:sweep(collide2d.circle(0, -5, 1), 10, 0)))
  end)

  it('reports an overlap with its depth as an eighth value', function()
    local t, _, _, _, _, index, overlapping, depth = set:sweep(collide2d.circle(0.5, 0.5, 0.25), 1, 0)
    assert.are.equal(0, t)
    assert.are.equal(1, index)
    assert.is_true(overlapping)
    assert.is_true(depth > 0)
  end)

  it('never stops at a seam: a box sliding along the top of the row meets nothing', function()
    local box = collide2d.rectangle(0.25, -0.5, 0.5, 0.5)  -- resting on the row
    assert.is_nil(set:sweep(box, 2, 0))
  end)
end)

describe('set:pushOut(shape)', function()
  local set = collide2d.staticset(row(3))

  it('returns the displacement out of the union of the set, the shortest way', function()
    expect.values({ 0, -0.35 }, set:pushOut(collide2d.rectangle(1.25, -0.25, 0.5, 0.6)))
    expect.values({ 0, 0 }, set:pushOut(collide2d.circle(0, -5, 1)))
  end)

  it('ignores seams: a shape inside the middle of the row leaves through the top or bottom', function()
    local dx, dy = set:pushOut(collide2d.rectangle(1.4, 0.1, 0.2, 0.2))
    assert.are.equal(0, dx)
    expect.values({ -0.3 }, dy)
  end)
end)

describe('set:move(shape, dx, dy [, opts [, contacts]])', function()
  local floor = collide2d.staticset(row(10))
  local wall = collide2d.staticset({ collide2d.rectangle(5, -10, 1, 20) })

  it('returns where the shape would end and the number of contacts; the shape stays put', function()
    local box = collide2d.rectangle(0, -3, 1, 1)  -- centre (0.5, -2.5)
    local x, y, n = floor:move(box, 4, 5)
    expect.values({ 4.5, -0.5 }, x, y)
    assert.are.equal(1, n)
    expect.values({ 0.5, -2.5 }, box:position())
  end)

  it('fills the contacts table with reused records', function()
    local box = collide2d.rectangle(0, -3, 1, 1)
    local stale = { index = 99, extra = 'kept' }
    local contacts = { stale, 'not a table', { index = 'old' } }
    local _, _, n = floor:move(box, 4, 5, nil, contacts)
    assert.are.equal(1, n)
    assert.are.equal(stale, contacts[1])
    assert.are.equal('kept', stale.extra)
    local c = contacts[1]
    assert.are.equal(2, c.index)  -- the box lands across tiles 2 and 3
    expect.values({ 0.4, 1.8, 0, 0, -1 }, c.t, c.x, c.y, c.nx, c.ny)
    assert.are.equal('slide', c.response)
    assert.is_false(c.pushedOut)
    -- Entries past n are left alone: n says how many are valid.
    assert.are.equal('not a table', contacts[2])
  end)

  it('answers each response', function()
    local box = collide2d.rectangle(0, -3, 1, 1)
    expect.values({ 4.5, -2.5, 1 }, wall:move(box, 10, 0, { response = 'touch' }))
    expect.values({ 4.5, -2.5, 1 }, wall:move(box, 10, 0, { response = 'slide' }))
    expect.values({ 10.5, -2.5, 1 }, wall:move(box, 10, 0, { response = 'cross' }))
    expect.values({ -1.5, -2.5, 1 }, wall:move(box, 10, 0, { response = 'bounce' }))
    expect.values({ 1.5, -2.5, 1 }, wall:move(box, 10, 0, { response = 'bounce', restitution = 0.5 }))
    local contacts = {}
    wall:move(box, 10, 0, { response = 'cross' }, contacts)
    assert.are.equal('cross', contacts[1].response)
  end)

  it('takes per-shape responses, "ignore" among them', function()
    local two = collide2d.staticset({ collide2d.rectangle(5, -10, 1, 20), collide2d.rectangle(8, -10, 1, 20) })
    local box = collide2d.rectangle(0, -3, 1, 1)
    local contacts = {}
    expect.values({ 7.5, -2.5, 2 }, two:move(box, 10, 0, { responses = { 'cross' } }, contacts))
    assert.are.same({ 1, 'cross', 2, 'slide' },
      { contacts[1].index, contacts[1].response, contacts[2].index, contacts[2].response })
    expect.values({ 7.5, -2.5, 1 }, two:move(box, 10, 0, { responses = { 'ignore' } }))
    expect.values({ 10.5, -2.5, 0 }, two:move(box, 10, 0, { responses = { 'ignore', 'ignore' } }))
    expect.values({ 4.5, -2.5, 1 }, two:move(box, 10, 0, { response = 'touch', responses = { [2] = 'slide' } }))
  end)

  it('pushes a shape that starts inside out first, and says so', function()
    local contacts = {}
    local x, y, n = floor:move(collide2d.rectangle(2.25, -0.25, 0.5, 0.5), 0, 0, nil, contacts)
    expect.values({ 2.5, -0.25 }, x, y)
    assert.are.equal(1, n)
    assert.is_true(contacts[1].pushedOut)
  end)

  it('reports every contact, however many', function()
    -- A ball rattling between two close walls meets a contact per bounce, until the stepper gives up
    -- after 256 (a wedge narrower than the mover).
    local walls = collide2d.staticset({ collide2d.rectangle(-10, -100, 10, 1000), collide2d.rectangle(2.5, -100, 10, 1000) })
    local contacts = {}
    local _, _, _, _, n = walls:stepBall(1, 0, 100, 1, 1, 1, nil, contacts)
    assert.is_true(n > 64)
    assert.are.equal(n, #contacts)
    for k = 1, n do assert.is_number(contacts[k].moverX) end
  end)

  it('raises the standard errors', function()
    local box = collide2d.rectangle(0, -3, 1, 1)
    expect.raises("bad argument #4 to 'move' (table expected, got number)",
      function() floor:move(box, 1, 1, 5) end)
    expect.raises("bad argument #5 to 'move' (table expected, got string)",
      function() floor:move(box, 1, 1, nil, 'x') end)
    expect.raises("bad argument #3 to 'move' (number expected, got no value)",
      function() floor:move(box, 1) end)
    expect.raises("bad argument #3 to 'move' (number or count out of range)",
      function() floor:move(box, 1, -1e16) end)
    expect.raises("bad argument #4 to 'move' (opts.response: invalid response 'jump')",
      function() floor:move(box, 1, 1, { response = 'jump' }) end)
    expect.raises("bad argument #4 to 'move' (opts.response: invalid response 'ignore')",
      function() floor:move(box, 1, 1, { response = 'ignore' }) end)
    expect.raises("bad argument #4 to 'move' (opts.response: string expected, got function)",
      function() floor:move(box, 1, 1, { response = print }) end)
    expect.raises("bad argument #4 to 'move' (opts.restitution: number or count out of range)",
      function() floor:move(box, 1, 1, { restitution = 1.5 }) end)
    expect.raises("bad argument #4 to 'move' (opts.restitution: number is NaN or infinite)",
      function() floor:move(box, 1, 1, { restitution = 0 / 0 }) end)
    expect.raises("bad argument #4 to 'move' (opts.friction: number expected, got string)",
      function() floor:move(box, 1, 1, { friction = 'x' }) end)
    expect.raises("bad argument #4 to 'move' (opts.friction: number or count out of range)",
      function() floor:move(box, 1, 1, { friction = -1 }) end)
    expect.raises("bad argument #4 to 'move' (opts.responses: table expected, got string)",
      function() floor:move(box, 1, 1, { responses = 'slide' }) end)
    expect.raises("bad argument #4 to 'move' (opts.responses: keys must be shape indices (1 to 10))",
      function() floor:move(box, 1, 1, { responses = { [11] = 'slide' } }) end)
    expect.raises("bad argument #4 to 'move' (opts.responses: keys must be shape indices (1 to 10))",
      function() floor:move(box, 1, 1, { responses = { x = 'slide' } }) end)
    expect.raises("bad argument #4 to 'move' (opts.responses[2]: invalid response 'jump')",
      function() floor:move(box, 1, 1, { responses = { 'slide', 'jump' } }) end)
    expect.raises("bad argument #4 to 'move' (opts.responses[1]: string expected, got boolean)",
      function() floor:move(box, 1, 1, { responses = { true } }) end)
  end)
end)

describe('set:stepBall(x, y, vx, vy, r, dt [, opts [, contacts]])', function()
  local floor = collide2d.staticset(row(10))

  it('bounces by default and returns the new position, velocity and contact count', function()
    local contacts = {}
    local x, y, vx, vy, n = floor:stepBall(1, -3, 1, 4, 1, 1, nil, contacts)
    expect.values({ 2, -3, 1, -4, 1 }, x, y, vx, vy, n)
    assert.are.same({ 'bounce', false }, { contacts[1].response, contacts[1].pushedOut })
    expect.values({ 0.5, 1.5, 0, 0, -1 }, contacts[1].t, contacts[1].x, contacts[1].y, contacts[1].nx,
      contacts[1].ny)
  end)

  it('takes the options of a move', function()
    expect.values({ 1.5, -1, 0, 0, 1 }, floor:stepBall(1, -3, 1, 4, 1, 1, { response = 'touch' }))
    expect.values({ 2, -1, 1, 0, 1 }, floor:stepBall(1, -3, 1, 4, 1, 1, { response = 'slide' }))
    expect.values({ 2, -2, 1, -2, 1 }, floor:stepBall(1, -3, 1, 4, 1, 1, { restitution = 0.5 }))
  end)

  it('raises the standard errors', function()
    expect.raises("bad argument #5 to 'stepBall' (size or radius must be positive)",
      function() floor:stepBall(0, -5, 1, 1, 0, 1) end)
    expect.raises("bad argument #6 to 'stepBall' (number or count out of range)",
      function() floor:stepBall(0, -5, 1, 1, 1, -1) end)
    expect.raises("bad argument #3 to 'stepBall' (number is NaN or infinite)",
      function() floor:stepBall(0, -5, 0 / 0, 1, 1, 1) end)
    expect.raises("bad argument #6 to 'stepBall' (number expected, got no value)",
      function() floor:stepBall(0, -5, 1, 1, 1) end)
    expect.raises("bad argument #7 to 'stepBall' (table expected, got boolean)",
      function() floor:stepBall(0, -5, 1, 1, 1, 1, true) end)
    expect.raises("bad argument #8 to 'stepBall' (table expected, got number)",
      function() floor:stepBall(0, -5, 1, 1, 1, 1, nil, 1) end)
  end)
end)

-- Seed 004's scene in an 800 x 600 window: the walls are rectangles outside the window, and four
-- rectangles stand inside, given as {left, top, right, bottom}.
local WIDTH, HEIGHT = 800, 600
local function seed_scene()
  local rects = {
    { -100, -100, WIDTH + 100, 0 }, { -100, HEIGHT, WIDTH + 100, HEIGHT + 100 },
    { -100, -100, 0, HEIGHT + 100 }, { WIDTH, -100, WIDTH + 100, HEIGHT + 100 },
    { 86, 72, 207, 177 }, { 391, 37, 500, 113 }, { 103, 334, 229, 407 }, { 304, 200, 493, 339 },
  }
  local shapes = {}
  for i, r in ipairs(rects) do shapes[i] = collide2d.rectangle(r[1], r[2], r[3] - r[1], r[4] - r[2]) end
  return shapes
end

-- The smallest signed distance from (x, y) to the shapes' boundaries (negative inside one).
local function clearance(shapes, x, y)
  local best = math.huge
  for _, s in ipairs(shapes) do
    local _, _, d = s:closest(x, y)
    if s:contains(x, y) then d = -math.abs(d) end
    if d < best then best = d end
  end
  return best
end

describe('a ball in seed 004\'s scene', function()
  it('never tunnels and keeps its speed over 2,000 random trajectories', function()
    local shapes = seed_scene()
    local set = collide2d.staticset(shapes)
    local contacts = {}
    local steps, bounces = 0, 0
    for _ = 1, 2000 do
      local r = 2 + 28 * random()
      local x, y
      repeat
        x, y = r + (WIDTH - 2 * r) * random(), r + (HEIGHT - 2 * r) * random()
      until clearance(shapes, x, y) >= r
      local angle, speed = 2 * math.pi * random(), 0.2 + 999.8 * random() ^ 2
      local vx, vy = speed * math.cos(angle), speed * math.sin(angle)
      speed = math.sqrt(vx * vx + vy * vy)
      for _ = 1, 10 do
        local n
        x, y, vx, vy, n = set:stepBall(x, y, vx, vy, r, 1, nil, contacts)
        steps, bounces = steps + 1, bounces + n
        local d = clearance(shapes, x, y)
        assert(d >= r - 1e-9, string.format('ball of radius %.17g at (%.17g, %.17g) is %.17g from a wall',
          r, x, y, d))
        local now = math.sqrt(vx * vx + vy * vy)
        assert(math.abs(now - speed) <= 1e-9 * speed,
          string.format('speed %.17g became %.17g', speed, now))
      end
    end
    assert.are.equal(20000, steps)
    assert.is_true(bounces > 10000, bounces .. ' bounces')
  end)
end)

describe('a box sliding along a row of 100 adjacent boxes', function()
  local tiles = collide2d.staticset(row(100, 10))

  it('never stops at a seam, pressed into the row or moving along it', function()
    for _, dy in ipairs({ 0, 1, 5 }) do
      local box = collide2d.rectangle(1, -8, 8, 8)  -- resting on the row, whose top is y = 0
      local contacts = {}
      for step = 1, 197 do
        local x0 = box:position()
        local x, y, n = tiles:move(box, 5, dy, nil, contacts)
        assert(near(x, x0 + 5, 1e-9), string.format('step %d: x went from %.17g to %.17g', step, x0, x))
        assert(near(y, -4, 1e-9), string.format('step %d: y is %.17g', step, y))
        for k = 1, n do
          assert.are.same({ 0, -1 }, { contacts[k].nx, contacts[k].ny })
        end
        box:setPosition(x, y)
      end
    end
  end)

  it('slides the whole length in one move, and back', function()
    local box = collide2d.rectangle(1, -8, 8, 8)
    local x, y = tiles:move(box, 990, 3)
    expect.values({ 995, -4 }, x, y)
    box:setPosition(995, -4)
    x, y = tiles:move(box, -990, 3)
    expect.values({ 5, -4 }, x, y)
  end)

  it('rolls a ball along the row without a bump', function()
    local x, y, vx, vy = 5, -5, 7, 0
    for _ = 1, 130 do
      x, y, vx, vy = tiles:stepBall(x, y, vx, vy, 5, 1)
      assert(near(y, -5, 1e-9) and near(vy, 0, 1e-9), string.format('bumped at x = %.17g', x))
      if x > 990 then vx = -math.abs(vx) end
    end
  end)
end)

describe('collide2d.sweepMotion', function()
  it('answers as sweep when nothing turns, and as the exact arc when a bar turns into a ball', function()
    local a, b = collide2d.circle(0, 0, 1), collide2d.rectangle(5, -1, 2, 2)
    local want1 = { collide2d.sweep(a, 10, 1, b, -1, 0) }
    local got1 = { collide2d.sweepMotion(a, 10, 1, 0, 3, 4, b, -1, 0) }
    assert.are.same(want1, got1)
    assert.are.equal(6, #got1)
    -- a segment from (0, 0) to (10, 0) turning 1 radian about its start meets a ball of radius 1 at (6, 3)
    local bar, ball = collide2d.segment(0, 0, 10, 0), collide2d.circle(6, 3, 1)
    local want = math.atan2 and math.atan2(3, 6) or math.atan(3, 6)
    want = want - math.asin(1 / math.sqrt(45))
    local t, nx, ny = bar:sweepMotion(0, 0, 1, -5, 0, ball)
    assert(near(t, want, 1e-9) and near(nx, -math.sin(want), 1e-9) and near(ny, math.cos(want), 1e-9))
    -- seen from the ball, the bar's motion is b's: the same time, the normal turned round
    local t2, nx2, ny2 = ball:sweepMotion(0, 0, 0, 0, 0, bar, 0, 0, 1, -5, 0)
    assert(t2 == t and nx2 == -nx and ny2 == -ny)
  end)

  it('never lets a thin flipper swinging 3 radians a frame step over a ball', function()
    for i = 0, 40 do
      local angle = 0.05 + i * 0.05                  -- the ball sits somewhere across the swing
      local r = 20 + i * 2
      local ball = collide2d.circle(r * math.cos(angle), r * math.sin(angle), 2)
      local flipper = collide2d.rectangle(0, -0.005, 110, 0.01)
      local t = flipper:sweepMotion(0, 0, 3, -55, 0, ball)
      assert(t and t <= angle / 3, 'missed the ball at angle ' .. angle)
    end
  end)
end)

describe('set:moveTurning(shape, dx, dy, angle [, px, py [, opts [, contacts]]])', function()
  it('stops turning where a corner meets the wall, to 1e-9, and reports the contact', function()
    local wall = collide2d.staticset({ collide2d.rectangle(1.2, -5, 1, 10) })
    local crate = collide2d.rectangle(-1, -1, 2, 2)
    local contacts = {}
    local x, y, angle, n = wall:moveTurning(crate, 0, 0, math.pi / 2, nil, nil, nil, contacts)
    local want = math.pi / 4 - math.acos(1.2 / math.sqrt(2))
    assert(x == 0 and y == 0 and n == 1)
    assert(near(angle, want, 1e-9) and angle <= want)
    assert(contacts[1].index == 1 and contacts[1].response == 'slide')
    assert(near(contacts[1].t, want / (math.pi / 2), 1e-9) and near(contacts[1].nx, -1, 1e-9))
    assert(near(contacts[1].x, 1.2, 1e-9))
    -- the shape itself is not moved
    local cx, cy = crate:position()
    assert(cx == 0 and cy == 0 and crate:angle() == 0)
  end)

  it('turns a door about its hinge and answers as set:move without turning', function()
    local set = collide2d.staticset({ collide2d.circle(10, 10, 0.5) })
    local door = collide2d.rectangle(0, -0.1, 4, 0.2)     -- centred at (2, 0), hinged at (0, 0)
    local x, y, angle, n = set:moveTurning(door, 0, 0, math.pi / 2, -2, 0)
    assert(near(x, 0, 1e-12) and near(y, 2, 1e-12) and angle == math.pi / 2 and n == 0)
    local box = collide2d.rectangle(0, -3, 1, 1)
    local floor = collide2d.staticset({ collide2d.rectangle(0, 0, 100, 10) })
    local mx, my, mn = floor:move(box, 4, 5)
    local tx, ty, ta, tn = floor:moveTurning(box, 4, 5, 0, 0.3, -0.2)
    assert(tx == mx and ty == my and ta == 0 and tn == mn)
  end)

  it('refuses bad numbers and changes nothing', function()
    local set = collide2d.staticset({ collide2d.rectangle(1.2, -5, 1, 10) })
    local crate = collide2d.rectangle(-1, -1, 2, 2)
    expect.raises("bad argument #4 to 'moveTurning' (number is NaN or infinite)",
      function() set:moveTurning(crate, 0, 0, 0 / 0) end)
    expect.raises("bad argument #5 to 'moveTurning' (number or count out of range)",
      function() set:moveTurning(crate, 0, 0, 1, 1e300, 0) end)
    expect.raises("bad argument #7 to 'moveTurning' (opts.response: invalid response 'jump')",
      function() set:moveTurning(crate, 0, 0, 1, nil, nil, { response = 'jump' }) end)
    local cx, cy = crate:position()
    assert(cx == 0 and cy == 0 and crate:angle() == 0)
  end)
end)
