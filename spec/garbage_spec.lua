-- spec/garbage_spec.lua - the hot paths make no Lua garbage: collide, overlaps, contains, raycast,
-- move and rotate return plain numbers and booleans (multiple returns, no tables), so a game can call
-- them every frame without feeding the collector. Each loop runs 100,000 calls with the collector
-- stopped; any allocation would show in collectgarbage("count") (spec/support/garbage.lua says how
-- LuaJIT's trace compiler is told apart).
local collide2d = require 'collide2d'

local assert_no_garbage = require('spec.support.garbage').assert_no_garbage

describe('with the collector stopped, 100,000 calls allocate nothing:', function()
  local circle = collide2d.circle(0, 0, 1)
  local box = collide2d.rectangle(0.5, -1, 2, 2, 0.25)
  local poly = collide2d.polygon(0, 0, 3, 0, 4, 2, 1, 3)

  it('collide (hit, seven returns, and miss)', function()
    local far = collide2d.circle(100, 0, 1)
    assert_no_garbage(function(n)
      for _ = 1, n do
        box:collide(poly)
        circle:collide(far)
      end
    end)
    assert.is_number((box:collide(poly)))
  end)

  it('overlaps', function()
    assert_no_garbage(function(n)
      for _ = 1, n do circle:overlaps(poly) end
    end)
  end)

  it('contains', function()
    assert_no_garbage(function(n)
      for i = 1, n do poly:contains(i % 5, 1) end
    end)
  end)

  it('raycast', function()
    assert_no_garbage(function(n)
      for _ = 1, n do box:raycast(-10, 0, 1, 0, 100) end
    end)
  end)

  it('move and rotate', function()
    assert_no_garbage(function(n)
      for _ = 1, n do
        poly:move(0.001, -0.001)
        poly:rotate(0.001)
      end
    end)
  end)

  it('distance, closest, position and bbox', function()
    assert_no_garbage(function(n)
      for _ = 1, n do
        box:distance(circle)
        poly:closest(1, 1)
        poly:position()
        poly:bbox()
      end
    end)
  end)

  it('vertices into a reused table', function()
    local t = {}
    assert_no_garbage(function(n)
      for _ = 1, n do poly:vertices(t) end
    end)
  end)
end)

describe('with the collector stopped, 100,000 sweeps, moves and world calls allocate nothing:', function()
  local function row(n)
    local shapes = {}
    for i = 1, n do shapes[i] = collide2d.rectangle((i - 1) * 10, 0, 10, 10) end
    return shapes
  end
  local set = collide2d.staticset(row(20))
  local box = collide2d.rectangle(1, -8, 8, 8)
  local ball = collide2d.circle(0, 0, 1)

  local world = collide2d.world()
  for _, s in ipairs(row(20)) do world:add(s, 'tile') end
  local mover = world:add(collide2d.rectangle(1, -8, 8, 8), 'mover')

  it('sweep (hit, overlap and miss)', function()
    local far, near = collide2d.circle(10, 0, 1), collide2d.circle(0.5, 0, 1)
    assert_no_garbage(function(n)
      for _ = 1, n do
        ball:sweep(20, 0, far)
        ball:sweep(0, 20, far, 1, 1)
        collide2d.sweep(ball, 1, 0, near)
      end
    end)
  end)

  it('set:sweep and set:pushOut', function()
    assert_no_garbage(function(n)
      for _ = 1, n do
        set:sweep(box, 5, 5)
        set:pushOut(box)
      end
    end)
  end)

  it('set:move and set:stepBall with options and a reused contacts table', function()
    local contacts, opts = {}, { response = 'bounce', restitution = 0.5, responses = { [3] = 'cross' } }
    assert_no_garbage(function(n)
      for _ = 1, n do
        set:move(box, 5, 5, nil, contacts)
        set:move(box, 5, 5, opts, contacts)
        set:stepBall(5, -5, 3, 7, 1, 1, nil, contacts)
      end
    end)
    assert.are.equal('bounce', contacts[1].response)
  end)

  it('set:stepBalls with a reused flat array, options and contacts table', function()
    local balls, contacts = { 0, -5, 3, 0, 1, 5, -5, -3, 0, 1, 20, -5, 0, 7, 1 }, {}
    local opts = { ballRestitution = 0.5, masses = { 1, 2, 3 } }
    local start = { table.unpack and table.unpack(balls) or unpack(balls) }
    assert_no_garbage(function(n)
      for _ = 1, n do
        for i = 1, #start do balls[i] = start[i] end
        set:stepBalls(balls, 1, opts, contacts)
      end
    end)
    assert.is_true(#contacts >= 2)
  end)

  it('set values in contacts, set:value, and a move that places the mover', function()
    local valued = collide2d.staticset(row(20))
    for i = 1, 20 do valued:setValue(i, { tile = i }) end
    local contacts, place, mover2 = {}, { place = true }, collide2d.rectangle(1, -8, 8, 8)
    assert_no_garbage(function(n)
      for _ = 1, n do
        valued:move(box, 5, 5, nil, contacts)
        valued:stepBall(5, -5, 3, 7, 1, 1, nil, contacts)
        valued:value(3)
        valued:move(mover2, 0.001, 0, place)
        world:move(mover, 0, 0, place)
      end
    end)
    assert.are.equal(valued:value(1), contacts[1].value)
  end)

  it('set:shape, and set:vertices and set:part into a reused table', function()
    local shapes = row(3)
    shapes[4] = collide2d.concave({ 0, 20, 10, 20, 10, 22, 2, 22, 2, 28, 0, 28 })
    local drawn, t = collide2d.staticset(shapes), {}
    assert_no_garbage(function(n)
      for _ = 1, n do
        drawn:shape(2)
        drawn:vertices(2, t)
        drawn:part(4, 2, t)
      end
    end)
    assert.are.equal(8, #t)
  end)

  it('set:queryRect, queryPoint and queryShape into a reused table, with and without a filter', function()
    local out = {}
    local keep = function(i) return i % 2 == 0 end
    assert_no_garbage(function(n)
      for _ = 1, n do
        set:queryRect(0, -10, 40, 20, nil, out)
        set:queryRect(0, -10, 40, 20, keep, out)
        set:queryShape(box, keep, out)
        set:queryPoint(15, 5, nil, out)
      end
    end)
    assert.is_true(#out > 0)
  end)

  it('set:raycast, and raycastAll into reused records, with and without a filter', function()
    local out = {}
    local keep = function(i) return i > 1 end
    assert_no_garbage(function(n)
      for _ = 1, n do
        set:raycast(-10, 5, 1, 0)
        set:raycast(-10, 5, 1, 0, nil, keep)
        set:raycastAll(5, -20, 0, 1, 100, nil, out)
        set:raycastAll(-10, 5, 1, 0, 100, keep, out)
      end
    end)
    assert.is_true(#out > 0)
  end)

  it('world:update', function()
    assert_no_garbage(function(n)
      for i = 1, n do
        mover:setPosition(5 + i % 50, -4)
        world:update(mover)
      end
    end)
  end)

  it('world:queryRect, queryPoint and queryShape into a reused table, with and without filters', function()
    local out, filter = {}, { mask = 1 }
    local keep = function(_, v) return v == 'tile' end
    assert_no_garbage(function(n)
      for _ = 1, n do
        world:queryRect(0, -10, 40, 20, nil, out)
        world:queryRect(0, -10, 40, 20, filter, out)
        world:queryPoint(15, 5, keep, out)
        world:queryShape(box, nil, out)
      end
    end)
    assert.is_true(#out > 0)
  end)

  it('world:raycast, and raycastAll into reused records', function()
    local out = {}
    assert_no_garbage(function(n)
      for _ = 1, n do
        world:raycast(-10, 5, 1, 0)
        world:raycastAll(5, -20, 0, 1, 100, nil, out)
      end
    end)
  end)

  it('world:pairs into reused records', function()
    local out = {}
    assert_no_garbage(function(n)
      for _ = 1, n / 10 do world:pairs(out, true) end
    end)
    assert.is_true(#out > 0)
  end)

  it('world:move and world:stepBall with a response function and reused contacts', function()
    local contacts = {}
    local opts = { response = function(_, v) if v == 'tile' then return 'slide' end end }
    assert_no_garbage(function(n)
      for _ = 1, n do
        world:move(mover, 5, 5, nil, nil, contacts)
        world:move(mover, 5, 5, opts, nil, contacts)
        world:stepBall(5, -5, 3, 7, 1, 1, nil, nil, contacts)
      end
    end)
    assert.is_string(contacts[1].value)
  end)

  it('world:stepBalls with a reused flat array, options, a response function and contacts table', function()
    local balls, contacts = { 0, -5, 3, 0, 1, 5, -5, -3, 0, 1, 20, -5, 0, 7, 1 }, {}
    local opts = { ballRestitution = 0.5, masses = { 1, 2, 3 }, response = function() return 'bounce' end }
    local start = { table.unpack and table.unpack(balls) or unpack(balls) }
    assert_no_garbage(function(n)
      for _ = 1, n do
        for i = 1, #start do balls[i] = start[i] end
        world:stepBalls(balls, 1, opts, nil, contacts)
      end
    end)
    assert.is_true(#contacts >= 3 and contacts[#contacts].value == 'tile')
  end)
end)
