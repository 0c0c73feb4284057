-- spec/balls_spec.lua - set:stepBalls from Lua: many balls stepped at once through a static set and
-- against each other. The flat array updated in place, the contacts (which ball, which other ball or
-- which shape), masses and fixed balls, balls spawned on one spot pushed apart, one ball as
-- set:stepBall exactly, the docs' example, every error (and that an error changes nothing), and a box
-- of random balls that never ends with two overlapping or one outside. Then world:stepBalls:
-- set:stepBalls on a world's level exactly, the world's shapes named in the contacts, its filter and
-- response function asked once per shape, errors from them and the standard ones, and its docs
-- example.
local collide2d = require 'collide2d'
local expect = require 'spec.support.expect'

-- Deterministic in every Lua: Park and Miller's generator, exact in doubles.
local seed = 20261127
local function random()
  seed = (seed * 16807) % 2147483647
  return seed / 2147483647
end

local function box_of_tiles(w, h)
  local tiles = {}
  for x = -1, w do
    tiles[#tiles + 1] = collide2d.box(x + 0.5, -0.5, 1, 1)
    tiles[#tiles + 1] = collide2d.box(x + 0.5, h + 0.5, 1, 1)
  end
  for y = 0, h - 1 do
    tiles[#tiles + 1] = collide2d.box(-0.5, y + 0.5, 1, 1)
    tiles[#tiles + 1] = collide2d.box(w + 0.5, y + 0.5, 1, 1)
  end
  return collide2d.staticset(tiles)
end

describe('set:stepBalls(balls, dt [, opts [, contacts]])', function()
  local open = collide2d.staticset({})

  it('bounces two balls head-on: they swap velocities where they meet', function()
    local balls, contacts = { 0, 0, 1, 0, 1, 10, 0, -1, 0, 1 }, {}
    local n, truncated = open:stepBalls(balls, 10, nil, contacts)
    assert.are.same({ 2, false }, { n, truncated })
    assert.are.same({ -2, 0, -1, 0, 1, 12, 0, 1, 0, 1 }, balls)
    assert.are.equal(2, #contacts)
    local a, b = contacts[1], contacts[2]
    assert.are.same({ 1, 2, nil, 0.4, -1, 5, -1 }, { a.ball, a.other, a.index, a.t, a.nx, a.x, a.vx })
    assert.are.same({ 2, 1, nil, 0.4, 1, 5, 1 }, { b.ball, b.other, b.index, b.t, b.nx, b.x, b.vx })
    assert.are.equal(4, a.moverX)
    assert.are.equal('bounce', a.response)
  end)

  it('names the shape of a level contact, and its value', function()
    local floor = collide2d.staticset({ collide2d.box(0, 1, 100, 2) })
    floor:setValue(1, 'floor')
    local balls, contacts = { 0, -3, 0, 4, 1 }, {}
    local n = floor:stepBalls(balls, 1, nil, contacts)
    assert.are.equal(1, n)
    assert.are.same({ 1, 1, 'floor', nil }, { contacts[1].ball, contacts[1].index, contacts[1].value, contacts[1].other })
    assert.are.same({ 0, -3, 0, -4, 1 }, balls)
  end)

  it('pushes balls spawned on one spot apart first, by their masses, and says so', function()
    local balls, contacts = { 3, 4, 0.5, 0, 1, 3, 4, 0, 0, 3 }, {}
    local n = open:stepBalls(balls, 0, { masses = { 3, 1 } }, contacts)
    -- 4 deep: the heavy ball goes a quarter of it to the left (the first ball), the light one the rest.
    assert.is_true(math.abs(balls[1] - 2) < 1e-9 and math.abs(balls[6] - 6) < 1e-9)
    assert.are.same({ 4, 0.5, 0, 4, 0, 0 }, { balls[2], balls[3], balls[4], balls[7], balls[8], balls[9] })
    assert.are.equal(2, n)
    assert.are.same({ 1, 2, true, 0 }, { contacts[1].ball, contacts[1].other, contacts[1].pushedOut, contacts[1].t })
    assert.are.same({ 2, 1, true, 0 }, { contacts[2].ball, contacts[2].other, contacts[2].pushedOut, contacts[2].t })
  end)

  it('takes masses, and a fixed ball (math.huge) that sends another straight back', function()
    local balls = { 0, 0, 3, 0, 1, 5, 0, 0, 0, 2 }
    open:stepBalls(balls, 1, { masses = { 1, 3 }, ballRestitution = 0.5 })
    assert.is_true(math.abs(balls[3] + 0.375) < 1e-14 and math.abs(balls[8] - 1.125) < 1e-14)
    local pin = { 0, 0, 2, 0, 1, 5, 0, 0, 0, 1 }
    open:stepBalls(pin, 2, { masses = { 1, math.huge } })
    assert.are.same({ 2, 0, -2, 0, 1, 5, 0, 0, 0, 1 }, pin)
  end)

  it('steps one ball exactly as set:stepBall', function()
    local set = box_of_tiles(20, 20)
    for _ = 1, 200 do
      local x, y, vx, vy, r = 1 + 18 * random(), 1 + 18 * random(), 120 * random() - 60, 120 * random() - 60, 0.1 + random()
      local bx, by, bvx, bvy, n = set:stepBall(x, y, vx, vy, r, 1)
      local balls = { x, y, vx, vy, r }
      local m = set:stepBalls(balls, 1)
      assert.are.same({ bx, by, bvx, bvy, n }, { balls[1], balls[2], balls[3], balls[4], m })
    end
  end)

  it('runs the example of docs/lua.md', function()
    local f = assert(io.open('docs/lua.md'))
    local text = f:read('*a')
    f:close()
    local code = assert(text:match('### set:stepBalls\n.-```lua\n(.-)```'))
    local env = setmetatable({ collide2d = collide2d }, { __index = _G })
    local chunk
    if setfenv then
      chunk = assert(loadstring(code, '=docs/lua.md set:stepBalls'))
      setfenv(chunk, env)
    else
      chunk = assert(load(code, '=docs/lua.md set:stepBalls', 't', env))
    end
    chunk()
  end)

  it('refuses bad input with a standard error and changes nothing', function()
    local balls = { 1, 2, 3, 4, 1, 5, 6, 7, 8, 1 }
    local function same() assert.are.same({ 1, 2, 3, 4, 1, 5, 6, 7, 8, 1 }, balls) end
    expect.raises("bad argument #1 to 'stepBalls' (5 numbers per ball expected (x, y, vx, vy, r))",
      function() open:stepBalls({ 1, 2, 3 }, 1) end)
    expect.raises("bad argument #1 to 'stepBalls' (table expected, got number)", function() open:stepBalls(1, 1) end)
    expect.raises("bad argument #1 to 'stepBalls' (balls[4]: number expected, got string)",
      function() open:stepBalls({ 1, 2, 3, 'x', 1 }, 1) end)
    balls[10] = -1
    expect.raises("bad argument #1 to 'stepBalls' (balls: size or radius must be positive)",
      function() open:stepBalls(balls, 1) end)
    balls[10] = 1
    balls[2] = 0 / 0
    expect.raises("bad argument #1 to 'stepBalls' (balls: number is NaN or infinite)",
      function() open:stepBalls(balls, 1) end)
    balls[2] = 2
    same()
    expect.raises("bad argument #2 to 'stepBalls' (number or count out of range)", function() open:stepBalls(balls, -1) end)
    expect.raises("bad argument #2 to 'stepBalls' (number is NaN or infinite)", function() open:stepBalls(balls, 0 / 0) end)
    expect.raises("bad argument #3 to 'stepBalls' (opts.masses[2]: number or count out of range)",
      function() open:stepBalls(balls, 1, { masses = { 1, -2 } }) end)
    expect.raises("bad argument #3 to 'stepBalls' (opts.masses[1]: number is NaN or infinite)",
      function() open:stepBalls(balls, 1, { masses = { 0 / 0, 1 } }) end)
    expect.raises("bad argument #3 to 'stepBalls' (opts.masses: one mass per ball expected)",
      function() open:stepBalls(balls, 1, { masses = { 1 } }) end)
    expect.raises("bad argument #3 to 'stepBalls' (opts.ballRestitution: number or count out of range)",
      function() open:stepBalls(balls, 1, { ballRestitution = 2 }) end)
    expect.raises("bad argument #3 to 'stepBalls' (opts.restSpeed: number or count out of range)",
      function() open:stepBalls(balls, 1, { restSpeed = -1 }) end)
    expect.raises("bad argument #3 to 'stepBalls' (opts.restitution: number or count out of range)",
      function() open:stepBalls(balls, 1, { restitution = 2 }) end)
    same()
    assert.are.same({ 0, false }, { open:stepBalls({}, 1) })
  end)

  it('leaves no two of 60 random balls in a box of tiles overlapping, and none outside, over 200 steps', function()
    local w = 16
    local set = box_of_tiles(w, w)
    local balls, n = {}, 0
    while n < 60 do
      local r = 0.2 + 0.3 * random()
      local x, y = r + (w - 2 * r) * random(), r + (w - 2 * r) * random()
      local clear = true
      for k = 0, n - 1 do
        local dx, dy = balls[5 * k + 1] - x, balls[5 * k + 2] - y
        if dx * dx + dy * dy <= (r + balls[5 * k + 5]) ^ 2 then clear = false end
      end
      if clear then
        local a, s = 2 * math.pi * random(), 30 * random()
        for i, v in ipairs({ x, y, s * math.cos(a), s * math.sin(a), r }) do balls[5 * n + i] = v end
        n = n + 1
      end
    end
    local contacts, opts = {}, { ballRestitution = 0.9, restitution = 0.95 }
    for _ = 1, 200 do
      local _, truncated = set:stepBalls(balls, 1 / 30, opts, contacts)
      assert.is_false(truncated)
      for i = 0, n - 1 do
        local x, y, r = balls[5 * i + 1], balls[5 * i + 2], balls[5 * i + 5]
        assert.is_true(x >= r - 1e-9 and x <= w - r + 1e-9 and y >= r - 1e-9 and y <= w - r + 1e-9)
        for j = i + 1, n - 1 do
          local dx, dy = balls[5 * j + 1] - x, balls[5 * j + 2] - y
          assert.is_true(math.sqrt(dx * dx + dy * dy) >= r + balls[5 * j + 5] - 1e-9)
        end
      end
    end
  end)
end)

describe('world:stepBalls(balls, dt [, opts [, filter [, contacts]]])', function()
  -- A row of tiles as a world's shapes (values 'tile1' ..), and the same row as a static set.
  local function tiles_world(n)
    local world, tiles = collide2d.world(), {}
    for i = 1, n do
      tiles[i] = collide2d.box(i - 0.5, -0.5, 1, 1)
      world:add(tiles[i], 'tile' .. i)
    end
    return world, tiles
  end

  it('is set:stepBalls on the level, contacts and all, when the world has a level and no shape near', function()
    local set = box_of_tiles(16, 16)
    for i = 1, set:count() do set:setValue(i, { tile = i }) end
    local world = collide2d.world()
    world:setLevel(set)
    for _ = 1, 30 do
      local mine, theirs, n = {}, {}, 0
      while n < 12 do
        local r = 0.2 + 0.3 * random()
        local x, y = r + (16 - 2 * r) * random(), r + (16 - 2 * r) * random()
        local clear = true
        for k = 0, n - 1 do
          local dx, dy = mine[5 * k + 1] - x, mine[5 * k + 2] - y
          if dx * dx + dy * dy <= (r + mine[5 * k + 5]) ^ 2 then clear = false end
        end
        if clear then
          local a, s = 2 * math.pi * random(), 40 * random()
          for i, v in ipairs({ x, y, s * math.cos(a), s * math.sin(a), r }) do mine[5 * n + i], theirs[5 * n + i] = v, v end
          n = n + 1
        end
      end
      local cw, cs, opts = {}, {}, { ballRestitution = 0.8, restitution = 0.9 }
      for _ = 1, 3 do
        local nw, tw = world:stepBalls(mine, 1 / 4, opts, nil, cw)
        local ns, ts = set:stepBalls(theirs, 1 / 4, opts, cs)
        assert.are.same({ ns, ts }, { nw, tw })
        assert.are.same(theirs, mine)
        for k = 1, ns do
          local a, b = cw[k], cs[k]
          assert.are.same({ b.ball, b.other, b.index, b.value, b.t, b.x, b.y, b.nx, b.ny, b.moverX, b.vx },
            { a.ball, a.other, a.index, a.value, a.t, a.x, a.y, a.nx, a.ny, a.moverX, a.vx })
          assert.is_nil(a.shape)
        end
      end
    end
  end)

  it('meets the world\'s shapes as a set of them, naming each by its shape and value', function()
    local world, tiles = tiles_world(20)
    -- ball 1 falls onto tile 2; balls 2 and 3 roll at each other along the tiles
    local balls, contacts = { 1.5, 2, 0, -4, 1,   5, 1, 1, 0, 1,   8, 1, -1, 0, 1 }, {}
    local n, truncated = world:stepBalls(balls, 1, nil, nil, contacts)
    assert.are.same({ 3, false }, { n, truncated })
    -- ball 1 bounces off tile 2 at t = 0.25; balls 2 and 3 meet head-on at t = 0.5 and swap velocities
    assert.are.same({ 1.5, 4, 0, 4, 1,   5, 1, -1, 0, 1,   8, 1, 1, 0, 1 }, balls)
    assert.are.same({ 1, tiles[2], 'tile2', nil, nil, 0.25 },
      { contacts[1].ball, contacts[1].shape, contacts[1].value, contacts[1].index, contacts[1].other, contacts[1].t })
    local a, b = contacts[2], contacts[3]
    assert.are.same({ 2, 3, nil, nil, 0.5, -1 }, { a.ball, a.other, a.shape, a.value, a.t, a.nx })
    assert.are.same({ 3, 2, nil, nil, 0.5, 1 }, { b.ball, b.other, b.shape, b.value, b.t, b.nx })
  end)

  it('takes the filter and a response function, each asked once per shape', function()
    local world = collide2d.world()
    local walls = {}
    for i = 1, 3 do walls[i] = world:add(collide2d.box(4 * i, 0, 0.2, 20), i) end
    local hidden = world:add(collide2d.box(10, 0, 0.2, 20), 4)   -- left out by the filter
    local asked, accepted = {}, {}
    local opts = { response = function(shape, v)
      asked[v] = (asked[v] or 0) + 1
      return ({ 'ignore', 'cross', 'bounce' })[v]
    end }
    local filter = function(shape, v)
      accepted[v] = (accepted[v] or 0) + 1
      return shape ~= hidden
    end
    local balls, contacts = { 0, 0, 14, 0, 0.5,   0, 3, 14, 0, 0.5 }, {}
    local n = world:stepBalls(balls, 1, opts, filter, contacts)
    assert.are.equal(4, n)
    -- through wall 1, across wall 2 and the hidden one, back off wall 3's face at x = 11.9
    for k = 0, 1 do
      assert.is_true(math.abs(balls[5 * k + 1] - 8.8) < 1e-9)
      assert.are.equal(-14, balls[5 * k + 3])
    end
    assert.are.same({ 'cross', walls[2], 2 }, { contacts[1].response, contacts[1].shape, contacts[1].value })
    assert.are.same({ 'bounce', walls[3], 3 }, { contacts[4].response, contacts[4].shape, contacts[4].value })
    assert.are.same({ 1, 1, 1 }, asked)
    assert.are.same({ 1, 1, 1, 1 }, accepted)
  end)

  it('raises an error from a callback, and the standard errors, changing nothing', function()
    local world = tiles_world(4)
    local balls = { 1, 2, 0, -4, 0.5,   3, 2, 0, -4, 0.5 }
    local function same() assert.are.same({ 1, 2, 0, -4, 0.5, 3, 2, 0, -4, 0.5 }, balls) end
    expect.raises('boom', function() world:stepBalls(balls, 1, { response = function() error('boom', 0) end }) end)
    expect.raises('boom', function() world:stepBalls(balls, 1, nil, function() error('boom', 0) end) end)
    expect.raises("invalid response 'jump' from the response function",
      function() world:stepBalls(balls, 1, { response = function() return 'jump' end }) end)
    same()
    expect.raises("bad argument #1 to 'stepBalls' (5 numbers per ball expected (x, y, vx, vy, r))",
      function() world:stepBalls({ 1, 2, 3 }, 1) end)
    expect.raises("bad argument #1 to 'stepBalls' (balls[4]: number expected, got string)",
      function() world:stepBalls({ 1, 2, 3, 'x', 1 }, 1) end)
    balls[10] = 0
    expect.raises("bad argument #1 to 'stepBalls' (balls: size or radius must be positive)",
      function() world:stepBalls(balls, 1) end)
    balls[10] = 0.5
    expect.raises("bad argument #2 to 'stepBalls' (number or count out of range)", function() world:stepBalls(balls, -1) end)
    expect.raises("bad argument #3 to 'stepBalls' (opts.masses[2]: number or count out of range)",
      function() world:stepBalls(balls, 1, { masses = { 1, 0 } }) end)
    expect.raises("bad argument #3 to 'stepBalls' (opts.responses: not supported by a world (make opts.response a function))",
      function() world:stepBalls(balls, 1, { responses = { 'cross' } }) end)
    expect.raises("bad argument #4 to 'stepBalls' (function or table expected, got number)",
      function() world:stepBalls(balls, 1, nil, 4) end)
    expect.raises("bad argument #5 to 'stepBalls' (table expected, got string)",
      function() world:stepBalls(balls, 1, nil, nil, 'c') end)
    same()
    world:destroy()
    expect.raises('attempt to use a destroyed world', function() world:stepBalls(balls, 1) end)
    same()
    assert.are.same({ 0, false }, { collide2d.world():stepBalls({}, 1) })
  end)

  it('runs the example of docs/lua.md', function()
    local f = assert(io.open('docs/lua.md'))
    local text = f:read('*a')
    f:close()
    local code = assert(text:match('### world:stepBalls\n.-```lua\n(.-)```'))
    local env = setmetatable({ collide2d = collide2d }, { __index = _G })
    local chunk
    if setfenv then
      chunk = assert(loadstring(code, '=docs/lua.md world:stepBalls'))
      setfenv(chunk, env)
    else
      chunk = assert(load(code, '=docs/lua.md world:stepBalls', 't', env))
    end
    chunk()
  end)
end)
