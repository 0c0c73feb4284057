-- spec/character_spec.lua - set:moveCharacter, the character mover (issue 26, item 1): on a 30 degree
-- slope a character walks down without leaving the ground and at the input's speed along it, stands
-- still without creeping, climbs a low step, rides a platform, stands on the same point of one that
-- turns (state.px, state.py, and state.vx, state.vy its surface's velocity there; in a world as in the
-- set, bit for bit), lands on a one-way ledge and drops
-- through it, bumps its head; the state table says what it stands on; no garbage per call; every bad
-- argument is named.
local collide2d = require 'collide2d'
local expect = require 'spec.support.expect'
local assert_no_garbage = require('spec.support.garbage').assert_no_garbage

-- A y-up level: a floor (top y = 0) and a 30 degree slope rising to the right from x = 10 to x = 30,
-- then a flat top.
local function slope_level()
  local t = math.tan(math.pi / 6)
  local ground = collide2d.chain({ -20, 0, 10, 0, 30, 20 * t, 60, 20 * t })
  return collide2d.staticset({ ground }), t
end

describe('set:moveCharacter(shape, dx, dy [, opts [, state]])', function()
  it('walks down a 30 degree slope on the ground, at the speed asked along it, where set:move leaves it', function()
    local set, t = slope_level()
    local run, gravity = 0.2, 0.05
    local opts = { snap = 0.5, place = true }
    -- From the top, walking left: down the slope.
    local box = collide2d.box(33, 20 * t + 0.8, 0.8, 1.6)
    local state = {}
    local x, y = set:moveCharacter(box, 0, -gravity, opts, state)
    assert.is_true(state.grounded)
    local airborne = 0
    for _ = 1, 150 do
      local x0, y0 = x, y
      local grounded, nx, ny
      x, y, grounded, nx, ny = set:moveCharacter(box, -run, -gravity, opts, state)
      if not grounded then airborne = airborne + 1 end
      -- On the slope itself (its normal before and after): `run` along it.
      if ny < 0.99 and x < 29 and x > 11 then
        local moved = math.sqrt((x - x0) ^ 2 + (y - y0) ^ 2)
        assert.is_true(math.abs(moved - run) <= 0.01 * run, 'moved ' .. moved)
        assert.is_true(math.abs(nx + 0.5) < 1e-9)
      end
    end
    assert.are.equal(0, airborne)
    assert.is_true(x < 10)
    -- Off the top's edge onto the slope: 1 along the ground around the bend (0.6 on the top until the
    -- box's corner passes the edge, 0.4 down the slope), not a step down; the bend's record (the
    -- ground touched where it begins) goes to a contacts table as set:move's contacts do.
    box:setPosition(30.2, 20 * t + 0.8)
    set:moveCharacter(box, 0, -gravity, opts, state)
    local contacts = {}
    x, y = set:moveCharacter(box, -1.0, -gravity, opts, state, contacts)
    assert.is_falsy(state.snapped)
    assert.is_true(math.abs(x - (29.6 - 0.4 * math.cos(math.pi / 6))) < 1e-9, 'x ' .. x)
    assert.is_true(math.abs(y - (20 * t + 0.8 - 0.4 * 0.5)) < 1e-9, 'y ' .. y)
    assert.is_true(math.abs(state.nx + 0.5) < 1e-9)
    assert.are.equal(1, state.count)
    assert.are.equal(state.count, #contacts)
    assert.is_true(math.abs(contacts[1].moverX - 29.6) < 1e-9 and math.abs(contacts[1].x - 30) < 1e-9)
    -- Off a ledge (a floor 1 lower beyond x = 60): a step down, straight down, said in state.snap.
    local ledge = collide2d.staticset({ collide2d.chain({ 30, 20 * t, 60, 20 * t, 60, 20 * t - 1, 90, 20 * t - 1 }) })
    box:setPosition(60.2, 20 * t + 0.8)
    state = {}
    ledge:moveCharacter(box, 0, -gravity, { snap = 1.5, place = true }, state)
    ledge:moveCharacter(box, 0.8, -gravity, { snap = 1.5, place = true }, state)
    assert.is_true(state.grounded and state.snapped and math.abs(state.snap - 1) < 1e-9, tostring(state.snap))
    box:setPosition(20, 10 * t + 1.5)
    state = {}                                                   -- in the air
    set:moveCharacter(box, 0, -1, nil, state, contacts)         -- a fall onto the slope: one contact
    assert.are.equal(1, state.count)
    assert.are.equal(1, contacts[1].index)
    assert.is_true(math.abs(contacts[1].nx + 0.5) < 1e-9)

    -- The same walk with set:move, gravity and slide: off the ground on the way down.
    local plain = collide2d.box(33, 20 * t + 0.8, 0.8, 1.6)
    local contacts, vy, off = {}, 0, 0
    for _ = 1, 150 do
      vy = vy - gravity
      local px, py, n = set:move(plain, -run, vy, nil, contacts)
      local on = false
      for k = 1, n do if contacts[k].ny > 0.7 then on = true end end
      if on then vy = 0 else off = off + 1 end
      plain:setPosition(px, py)
    end
    assert.is_true(off > 10, 'set:move was off the ground ' .. off .. ' frames')
  end)

  it('stands still on the slope without creeping', function()
    local set, t = slope_level()
    local box = collide2d.box(20, 10 * t + 0.9, 0.8, 1.6)
    local state, opts = {}, { snap = 0.5, place = true }
    for _ = 1, 20 do set:moveCharacter(box, 0, -0.05, opts, state) end
    assert.is_true(state.grounded)
    local x0, y0 = box:position()
    for _ = 1, 200 do set:moveCharacter(box, 0, -0.05, opts, state) end
    local x1, y1 = box:position()
    assert.are.equal(x0, x1)
    assert.are.equal(y0, y1)
  end)

  it('climbs a step under opts.step and is blocked by a higher one', function()
    local floor = collide2d.box(0, -1, 60, 2)
    local low = collide2d.box(10, 0.15, 4, 0.3)     -- 0.3 high
    local high = collide2d.box(20, 0.5, 4, 1.0)     -- 1.0 high
    local set = collide2d.staticset({ floor, low, high })
    local box = collide2d.box(5, 0.8, 0.8, 1.6)
    local state, opts = {}, { step = 0.5, snap = 0.2, place = true }
    local stepped = false
    for _ = 1, 200 do
      set:moveCharacter(box, 0.1, -0.05, opts, state)
      stepped = stepped or state.stepped
    end
    local x = box:position()
    assert.is_true(stepped)
    assert.is_true(x > 12 and x < 18, 'at x ' .. x)
    assert.is_true(state.wall)
    assert.are.equal(1, state.index)
  end)

  it('rides a moving platform, keeping its offset', function()
    local platform = collide2d.box(0, 0, 6, 1)
    local set = collide2d.staticset({ platform })
    set:setValue(1, 'ferry')
    local box = collide2d.box(1, 0.5 + 0.8, 0.8, 1.6)
    local state, opts = {}, { place = true }
    set:moveCharacter(box, 0, -0.05, opts, state)
    assert.are.equal('ferry', state.value)
    local bx, by = box:position()
    local px, py = set:transform(1)
    local ox, oy = bx - px, by - py
    for f = 1, 100 do
      local vx, vy = 0.1 * math.sin(f), 0.1 * math.cos(f)
      set:setVelocity(1, vx, vy)
      set:moveCharacter(box, 0, -0.05, opts, state)
      set:advance(1)
      assert.are.equal(vx, state.vx)
      assert.are.equal(vy, state.vy)
    end
    bx, by = box:position()
    px, py = set:transform(1)
    assert.is_true(math.abs(bx - px - ox) < 1e-9 and math.abs(by - py - oy) < 1e-9)
  end)

  -- The coordinates of (x, y) in the own frame of the set's shape 1.
  local function local_point(set, x, y)
    local px, py, a = set:transform(1)
    local c, s = math.cos(a), math.sin(a)
    return c * (x - px) + s * (y - py), -s * (x - px) + c * (y - py)
  end

  it('rides a swinging, drifting plank standing on the same point of it, and says its surface velocity there', function()
    for _, make in ipairs({
      function() return collide2d.capsule(1.2, 0.65, 1.2, 1.45, 0.4) end,  -- on its round bottom
      function() return collide2d.box(1.2, 0.25 + 0.8, 0.8, 1.6) end,      -- on a corner
    }) do
      local set = collide2d.staticset({ collide2d.box(0, 0, 6, 0.5) })
      local hero = make()
      local state, opts = {}, { place = true, snap = 0.1 }
      set:moveCharacter(hero, 0, -0.05, opts, state)
      assert.is_true(state.grounded)
      -- The box, flat on the plank, stands on the corner the first turn lifts: from the second frame
      -- on, the point stood on stays (the plank keeps tilting the same side of flat).
      local lx, ly
      local angle, most = 0, 0
      for f = 1, 60 do
        local w = 0.03 * math.cos(f * 0.05)                    -- tilts between 0 and 0.6 rad
        local vx, vy = 0.05 * math.sin(f * 0.3), 0.05 * math.cos(f * 0.2)
        local hx, hy = 1.5, 0.1                                 -- the pivot, in the plank's frame
        local px, py, a = set:transform(1)
        local cx = px + math.cos(a) * hx - math.sin(a) * hy
        local cy = py + math.sin(a) * hx + math.cos(a) * hy
        set:setMotion(1, vx, vy, w, hx, hy)
        local _, _, grounded = set:moveCharacter(hero, 0, -0.05, opts, state)
        set:advance(1)
        angle = angle + w
        most = math.max(most, angle)
        assert.is_true(grounded and state.index == 1 and state.count == 0)
        local x, y = local_point(set, state.px, state.py)
        if f > 1 then
          assert.is_true(math.abs(x - lx) <= 1e-12 and math.abs(y - ly) <= 1e-12,
            ('frame %d: stands at (%.17g, %.17g) of the plank, was (%.17g, %.17g)'):format(f, x, y, lx, ly))
        end
        lx, ly = x, y
        -- v + w x r, r from where the pivot stands now (moved by v).
        local rx, ry = state.px - cx - vx, state.py - cy - vy
        assert.is_true(math.abs(state.vx - (vx - w * ry)) < 1e-12 and math.abs(state.vy - (vy + w * rx)) < 1e-12)
      end
      assert.is_true(most > 0.5)
    end
  end)

  it('makes no garbage riding a turning plank', function()
    local set = collide2d.staticset({ collide2d.box(0, 0, 6, 0.5) })
    local hero = collide2d.capsule(1, 0.65, 1, 1.45, 0.4)
    local state, opts = {}, { place = true }
    set:moveCharacter(hero, 0, -0.05, opts, state)
    assert_no_garbage(function(n)
      for i = 1, n do
        set:setMotion(1, 0, 0, i % 200 < 100 and 0.001 or -0.001)   -- rocking within 0.1 rad
        set:moveCharacter(hero, 0, -0.05, opts, state)
        set:advance(1)
      end
    end)
    assert.is_true(state.grounded)
  end)

  it('lands on a one-way ledge, drops through it with opts.dropThrough, and bumps its head', function()
    local floor = collide2d.box(0, -1, 40, 2)
    local ledge = collide2d.box(0, 3.75, 8, 0.5)   -- top at 4
    local roof = collide2d.box(20, 3.5, 10, 1)     -- underside at 3
    local set = collide2d.staticset({ floor, ledge, roof })
    set:setOneWay(2, 0, 1)
    local box = collide2d.box(0, 6, 0.8, 1.6)
    local state, opts = {}, { place = true }
    local y, grounded, index
    for _ = 1, 100 do
      _, y, grounded, _, _, index = set:moveCharacter(box, 0, -0.1, opts, state)
      if grounded then break end
    end
    assert.are.equal(2, index)
    assert.is_true(math.abs(y - 4.8) < 1e-9)
    assert.is_true(state.landed)
    set:moveCharacter(box, 0, -0.1, { place = true, dropThrough = true }, state)
    assert.is_false(state.grounded)
    for _ = 1, 100 do
      _, y, grounded, _, _, index = set:moveCharacter(box, 0, -0.1, opts, state)
      if grounded then break end
    end
    assert.are.equal(1, index)
    assert.is_true(math.abs(y - 0.8) < 1e-9)
    -- Under the roof: a jump stops at its underside, and says so.
    box:setPosition(20, 0.8)
    local ceiling
    _, y, grounded, _, _, _, ceiling = set:moveCharacter(box, 0, 2, opts, state)
    assert.is_true(ceiling)
    assert.is_true(state.ceiling)
    assert.is_true(math.abs(y - (3 - 0.8)) < 1e-9)
  end)

  it('keeps a state per shape when given none, and works on a y-down screen (upY = -1)', function()
    local floor = collide2d.box(0, 101, 40, 2)     -- y grows down: top at 100
    local set = collide2d.staticset({ floor })
    local box = collide2d.box(0, 99.2, 0.8, 1.6)
    local opts = { upY = -1, place = true }
    local x, y, grounded, nx, ny, index = set:moveCharacter(box, 0.25, 0.5, opts)
    assert.is_true(grounded)
    assert.are.equal(0, nx)
    assert.are.equal(-1, ny)
    assert.are.equal(1, index)
    -- The module remembered the ground: this call walks (gravity dropped), 0.25 along the floor.
    x, y = set:moveCharacter(box, 0.25, 0.5, opts)
    assert.are.equal(0.5, x)
    assert.are.equal(99.2, y)
  end)

  it('makes no garbage, with a reused state table or none', function()
    local set = slope_level()
    local box = collide2d.box(20, 8, 0.8, 1.6)
    local other = collide2d.box(25, 12, 0.8, 1.6)
    local state, opts = {}, { snap = 0.5, step = 0.2, maxSlope = 0.9 }
    set:moveCharacter(other, 0, -0.05, opts)   -- the module's own state table for it, made once
    assert_no_garbage(function(n)
      for i = 1, n do
        set:moveCharacter(box, (i % 3 - 1) * 0.1, -0.05, opts, state)
        set:moveCharacter(other, 0.1, -0.05, opts)
      end
    end)
  end)

  it('names every bad argument', function()
    local set = slope_level()
    local box = collide2d.box(0, 1, 0.8, 1.6)
    local chain = collide2d.chain({ 0, 0, 1, 1, 2, 0 })
    expect.raises("bad argument #1 to 'moveCharacter' (a chain or concave polygon cannot be a mover)",
      function() set:moveCharacter(chain, 1, 0) end)
    expect.raises("bad argument #2 to 'moveCharacter' (number expected, got nil)",
      function() set:moveCharacter(box, nil, 0) end)
    expect.raises("bad argument #3 to 'moveCharacter' (number is NaN or infinite)",
      function() set:moveCharacter(box, 0, 0 / 0) end)
    expect.raises("bad argument #2 to 'moveCharacter' (number or count out of range)",
      function() set:moveCharacter(box, 1e16, 0) end)
    expect.raises("bad argument #4 to 'moveCharacter' (table expected, got string)",
      function() set:moveCharacter(box, 1, 0, 'fast') end)
    expect.raises("bad argument #4 to 'moveCharacter' (opts.upX, opts.upY: degenerate geometry (too few distinct points, collinear, or zero length))",
      function() set:moveCharacter(box, 1, 0, { upX = 0, upY = 0 }) end)
    expect.raises("bad argument #4 to 'moveCharacter' (opts.maxSlope: number or count out of range)",
      function() set:moveCharacter(box, 1, 0, { maxSlope = math.pi / 2 }) end)
    expect.raises("bad argument #4 to 'moveCharacter' (opts.snap: number or count out of range)",
      function() set:moveCharacter(box, 1, 0, { snap = -1 }) end)
    expect.raises("bad argument #4 to 'moveCharacter' (opts.step: number expected, got string)",
      function() set:moveCharacter(box, 1, 0, { step = 'high' }) end)
    expect.raises("bad argument #4 to 'moveCharacter' (opts.dropThrough: boolean expected, got number)",
      function() set:moveCharacter(box, 1, 0, { dropThrough = 1 }) end)
    expect.raises("bad argument #5 to 'moveCharacter' (table expected, got number)",
      function() set:moveCharacter(box, 1, 0, nil, 7) end)
    expect.raises("bad argument #5 to 'moveCharacter' (state.index: shape index expected (1 to 1))",
      function() set:moveCharacter(box, 1, 0, nil, { grounded = true, index = 2 }) end)
    expect.raises("bad argument #5 to 'moveCharacter' (state.nx: number is NaN or infinite)",
      function() set:moveCharacter(box, 1, 0, nil, { grounded = true, index = 1, nx = 0 / 0 }) end)
    -- A failed call changes nothing: neither the state table nor the shape.
    local state = { grounded = true, index = 1, nx = 0, ny = 1 }
    expect.raises("bad argument #4 to 'moveCharacter' (opts.snap: number or count out of range)",
      function() set:moveCharacter(box, 1, 0, { snap = -1, place = true }, state) end)
    assert.are.same({ grounded = true, index = 1, nx = 0, ny = 1 }, state)
    assert.are.same({ 0, 1 }, { box:position() })
    local dead = slope_level()
    dead:destroy()
    expect.raises('attempt to use a destroyed static set', function() dead:moveCharacter(box, 1, 0) end)
  end)
end)

describe('world:moveCharacter(shape, dx, dy [, opts [, filter [, state [, contacts]]]])', function()
  it('walks, steps up and rides through a world as through a static set, naming the ground by its shape', function()
    local world = collide2d.world()
    local floor, block = collide2d.box(0, -1, 40, 2), collide2d.box(10, 0.25, 4, 0.5)
    world:add(floor, 'floor')
    world:add(block, 'block')
    local set = collide2d.staticset({ floor, block })
    local a, b = collide2d.box(0, 0.8, 0.8, 1.6), collide2d.box(0, 0.8, 0.8, 1.6)
    local opts = { step = 0.6, snap = 0.3, place = true }
    local sa, sb = {}, {}
    for _ = 1, 150 do
      local ax, ay, ag = set:moveCharacter(a, 0.1, -0.05, opts, sa)
      local bx, by, bg, _, _, ground = world:moveCharacter(b, 0.1, -0.05, opts, nil, sb)
      assert.are.same({ ax, ay, ag }, { bx, by, bg })
      if ag then
        assert.are.equal(sa.index == 1 and floor or block, ground)
        assert.are.equal(ground, sb.shape)
        assert.are.equal(sa.index == 1 and 'floor' or 'block', sb.value)
      else
        assert.is_nil(ground)
      end
    end
    assert.is_true(select(1, b:position()) > 12)
    -- A filter leaves the block out: walked through.
    local c = collide2d.box(0, 0.8, 0.8, 1.6)
    local only_floor = function(shape) return shape == floor end
    for _ = 1, 150 do world:moveCharacter(c, 0.1, -0.05, opts, only_floor) end
    local cx, cy = c:position()
    assert.are.equal(15, math.floor(cx + 0.5))
    assert.are.equal(0.8, cy)
    -- Standing on the floor, no garbage per call with a reused state table and no filter.
    local state, d = {}, collide2d.box(-5, 0.8, 0.8, 1.6)
    world:moveCharacter(d, 0, -0.05, nil, nil, state)
    assert_no_garbage(function(n)
      for _ = 1, n do world:moveCharacter(d, 0, -0.05, nil, nil, state) end
    end)
    assert.is_true(state.grounded)
  end)

  it('rides a turning entry, and a turning shape of its level, as set:moveCharacter rides the set\'s, bit for bit', function()
    local set = collide2d.staticset({ collide2d.box(0, 0, 6, 0.5), collide2d.box(0, -6, 40, 1) })
    local plank = collide2d.box(0, 0, 6, 0.5)                 -- the world's entry, placed as the set's
    local world, leveled = collide2d.world(), collide2d.world()
    world:add(plank, 'plank')
    world:add(collide2d.box(0, -6, 40, 1), 'floor')
    leveled:setLevel(set)
    local a, b, c = collide2d.capsule(1, 0.65, 1, 1.45, 0.4), collide2d.capsule(1, 0.65, 1, 1.45, 0.4),
      collide2d.capsule(1, 0.65, 1, 1.45, 0.4)
    local sa, sb, sc, opts = {}, {}, {}, { place = true, snap = 0.1 }
    local rode = 0
    for f = 1, 150 do
      local w = 0.02 * math.sin(f * 0.07)
      set:setMotion(1, 0, 0.01 * math.cos(f * 0.05), w, 1, 0)
      world:setMotion(plank, 0, 0.01 * math.cos(f * 0.05), w, 1, 0)
      local dx = f % 60 < 30 and 0.05 or -0.05
      local ax, ay, ag = set:moveCharacter(a, dx, -0.05, opts, sa)
      local bx, by, bg, _, _, ground = world:moveCharacter(b, dx, -0.05, opts, nil, sb)
      local cx, cy, cg = leveled:moveCharacter(c, dx, -0.05, opts, nil, sc)
      assert.are.same({ ax, ay, ag }, { bx, by, bg })
      assert.are.same({ ax, ay, ag }, { cx, cy, cg })
      if ag then
        assert.are.same({ sa.px, sa.py, sa.vx, sa.vy }, { sb.px, sb.py, sb.vx, sb.vy })
        assert.are.same({ sa.px, sa.py, sa.vx, sa.vy }, { sc.px, sc.py, sc.vx, sc.vy })
        if sa.index == 1 then
          rode = rode + 1
          assert.are.equal(plank, ground)
          assert.are.equal(1, sc.index)
        end
      end
      set:advance(1)
      plank:setTransform(set:transform(1))
      world:update(plank)
    end
    assert.is_true(rode > 100, 'rode ' .. rode)
  end)

  it('names its bad arguments', function()
    local world = collide2d.world()
    local box = collide2d.box(0, 0.8, 0.8, 1.6)
    expect.raises("bad argument #6 to 'moveCharacter' (state.shape: collide2d.shape expected, got number)",
      function() world:moveCharacter(box, 0, 0, nil, nil, { grounded = true, shape = 3 }) end)
    expect.raises("bad argument #4 to 'moveCharacter' (opts.maxSlope: number or count out of range)",
      function() world:moveCharacter(box, 0, 0, { maxSlope = -1 }) end)
    expect.raises("bad argument #5 to 'moveCharacter' (function or table expected, got string)",
      function() world:moveCharacter(box, 0, 0, nil, 'x') end)
    expect.raises("bad argument #2 to 'moveCharacter' (number is NaN or infinite)",
      function() world:moveCharacter(box, 0 / 0, 0) end)
  end)
end)
