-- spec/compound_spec.lua - chains and concave polygons from Lua: collide2d.chain and collide2d.concave,
-- shape:parts / shape:part, every query on them, in static sets (one index for the whole shape, its
-- inner joints never caught on) and in worlds, one-sided chains, and the errors a caller can provoke.
local collide2d = require 'collide2d'
local expect = require 'spec.support.expect'

local function near(a, b, tol) return math.abs(a - b) <= (tol or expect.TOL) end

-- An L: a 4 x 4 square missing its top-right 3 x 3 (y up).
local L_OUTLINE = { 0, 0, 4, 0, 4, 1, 1, 1, 1, 4, 0, 4 }

describe('collide2d.concave(outline [, holes])', function()
  it('makes one shape of convex parts that answers as the outline', function()
    local l = collide2d.concave(L_OUTLINE)
    assert.are.equal('concave', l:type())
    assert.are.equal(2, l:parts())
    assert.are.equal(8, #l:part(1))
    assert.is_false(l:contains(3, 3))
    assert.is_true(l:contains(0.5, 3) and l:contains(3, 0.5) and l:contains(1, 1))
    local t, x, y, nx, ny = l:raycast(3, 3, 0, -1)
    expect.values({ 2, 3, 1, 0, 1 }, t, x, y, nx, ny)
    local px, py, d = l:closest(0.5, 0.9)                  -- inside: the nearest outline point
    expect.values({ 0, 0.9, -0.5 }, px, py, d)
    assert.are.equal(12, #l:vertices())
  end)

  it('pushes a box out of its inside corner along the shortest way out of the whole', function()
    local l = collide2d.concave(L_OUTLINE)
    local box = collide2d.rectangle(0.9, 0.8, 1, 1)        -- centre (1.4, 1.3): 0.1 into one arm, 0.2 into the other
    local nx, ny, depth = l:collide(box)
    assert.is_true(near(depth, math.sqrt(0.05)) and near(nx, 0.1 / math.sqrt(0.05)) and near(ny, 0.2 / math.sqrt(0.05)))
    box:move(nx * depth, ny * depth)
    assert.is_true(l:distance(box) >= -1e-12)
  end)

  it('takes holes', function()
    local ring = collide2d.concave({ 0, 0, 10, 0, 10, 10, 0, 10 }, { { 4, 4, 6, 4, 6, 6, 4, 6 } })
    assert.is_true(ring:parts() >= 4)
    assert.is_false(ring:contains(5, 5))
    assert.is_true(ring:contains(1, 1))
    local t = ring:raycast(5, 5, 1, 0)                     -- from inside the hole: meets its edge
    assert.is_true(near(t, 1))
  end)

  it('moves and turns with all its parts', function()
    local l = collide2d.concave(L_OUTLINE)
    local x, y = l:position()
    l:setTransform(x + 10, y, math.pi)
    assert.is_false(l:contains(0.5, 3))
    assert.is_true(l:contains(x + 10 - (0.5 - x), y - (3 - y)))
    local copy = l:clone()
    l:destroy()
    assert.are.equal(2, copy:parts())
  end)

  it('raises the standard errors', function()
    expect.raises("bad argument #1 to 'concave' (polygon not simple (crosses or touches itself, or a hole leaves the outline or meets another))",
      function() collide2d.concave({ 0, 0, 2, 2, 2, 0, 0, 2 }) end)
    expect.raises("bad argument #1 to 'concave' (degenerate geometry (too few distinct points, collinear, or zero length))",
      function() collide2d.concave({ 0, 0, 1, 1, 2, 2 }) end)
    expect.raises("bad argument #1 to 'concave' (outline: table expected, got number)",
      function() collide2d.concave(5) end)
    expect.raises("bad argument #1 to 'concave' (outline: an even number of coordinates expected)",
      function() collide2d.concave({ 0, 0, 1 }) end)
    expect.raises("bad argument #2 to 'concave' (hole: number expected at index 2, got string)",
      function() collide2d.concave({ 0, 0, 9, 0, 9, 9 }, { { 1, 'x' } }) end)
    expect.raises("bad argument #2 to 'concave' (hole: number is NaN or infinite)",
      function() collide2d.concave({ 0, 0, 9, 0, 9, 9 }, { { 5, 1, 6, 1, 6, 0 / 0 } }) end)
    expect.raises("bad argument #2 to 'concave' (hole: number or count out of range)",
      function() collide2d.concave({ 0, 0, 9, 0, 9, 9 }, { { 5, 1, 6, 1, 6, 2e15 } }) end)
    expect.raises("bad argument #1 to 'concave' (number is NaN or infinite)",
      function() collide2d.concave({ 0, 0, 9, 0, 9, 1 / 0 }, { { 5, 1, 6, 1, 6, 2 } }) end)
    expect.raises("bad argument #1 to 'concave' (polygon not simple (crosses or touches itself, or a hole leaves the outline or meets another))",
      function() collide2d.concave({ 0, 0, 4, 0, 4, 4, 0, 4 }, { { 5, 5, 6, 5, 6, 6 } }) end)
    expect.raises("bad argument #1 to 'part' (part index expected (1 to 2))",
      function() collide2d.concave(L_OUTLINE):part(3) end)
  end)
end)

describe('collide2d.chain(points [, opts])', function()
  it('is a polyline whose joints never catch a sliding box', function()
    local pts = {}
    for i = 0, 40 do pts[#pts + 1] = i * 0.5; pts[#pts + 1] = 0 end
    local floor = collide2d.chain(pts)
    assert.are.equal('chain', floor:type())
    assert.are.equal(40, floor:parts())
    local set = collide2d.staticset({ floor })
    local box = collide2d.rectangle(0, 0, 1, 1)            -- resting on the floor, y up: it spans y 0 to 1
    local contacts = {}
    local x, y, n = set:move(box, 15, -1, nil, contacts)
    expect.values({ 15.5, 0.5, 1 }, x, y, n)
    assert.are.equal(1, contacts[1].index)
    expect.values({ 0, 1 }, contacts[1].nx, contacts[1].ny)
  end)

  it('blocks from its right only when one-sided', function()
    -- A closed counter-clockwise square: its right is outside.
    local wall = collide2d.chain({ 0, 0, 10, 0, 10, 10, 0, 10 }, { closed = true, oneSided = true })
    assert.are.equal(4, wall:parts())
    local set = collide2d.staticset({ wall })
    local box = collide2d.rectangle(-4, 4, 2, 2)
    local x, _, n = set:move(box, 8, 0)
    expect.values({ -1, 1 }, x, n)                         -- stopped at the wall, outside
    box:setPosition(5, 5)
    x, _, n = set:move(box, 10, 0)
    expect.values({ 15, 0 }, x, n)                         -- walks out
  end)

  it('raises the standard errors', function()
    expect.raises("bad argument #1 to 'chain' (degenerate geometry (too few distinct points, collinear, or zero length))",
      function() collide2d.chain({ 1, 1, 1, 1 }) end)
    expect.raises("bad argument #2 to 'chain' (closed: boolean expected, got number)",
      function() collide2d.chain({ 0, 0, 1, 0 }, { closed = 1 }) end)
  end)
end)

describe('chains and concave polygons in worlds', function()
  it('are found by queries and met by moves and balls', function()
    local world = collide2d.world()
    local l = world:add(collide2d.concave(L_OUTLINE), 'L')
    local floor = world:add(collide2d.chain({ -10, -1, 0, -1.5, 10, -1 }), 'floor')
    assert.are.equal(0, #world:queryPoint(3, 3))
    assert.are.equal(l, world:queryPoint(0.5, 3)[1])
    local hit, t = world:raycast(3, 3, 0, -1)
    assert.are.equal(l, hit)
    assert.is_true(near(t, 2))
    local contacts = {}
    local x, y, n = world:move(collide2d.rectangle(2.5, 2.5, 1, 1), 0, -10, nil, nil, contacts)
    expect.values({ 3, 1.5, 1 }, x, y, n)
    assert.are.equal('L', contacts[1].value)
    -- A ball dropped onto the L's lower arm bounces off its top, at y = 1.
    expect.values({ 3, 4, 0, 4, 1 }, world:stepBall(3, 3, 0, -4, 0.5, 1))
    -- One beside it falls onto the chain floor, rising to the right there: it bounces up and left.
    local _, _, bvx, bvy, m = world:stepBall(5, 1, 0, -4, 0.5, 1)
    assert.is_true(m == 1 and bvx < 0 and bvy > 0 and near(bvx * bvx + bvy * bvy, 16, 1e-9))
    assert.is_truthy(floor)
  end)

  it('cannot be the mover of a move or set sweep: the error names the shape, argument #1', function()
    local set = collide2d.staticset({ collide2d.rectangle(0, 0, 10, 1) })
    local world = collide2d.world()
    world:add(collide2d.rectangle(0, 0, 10, 1))
    for _, mover in ipairs({ collide2d.chain({ 0, -3, 1, -2, 2, -3 }), collide2d.concave(L_OUTLINE) }) do
      for _, call in ipairs({
        { 'move', function() set:move(mover, 1, 1) end },
        { 'sweep', function() set:sweep(mover, 1, 1) end },
        { 'move', function() world:move(mover, 1, 1) end },
      }) do
        local ok, err = pcall(call[2])
        assert.is_false(ok)
        assert.matches("^bad argument #1 to '" .. call[1] .. "' %(", (err:gsub('^[^\n]-:%d+: ', '', 1)))
      end
    end
  end)
end)
