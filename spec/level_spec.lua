-- spec/level_spec.lua - one scene for a game (issue 25, items 2 and 3): a world that holds a static
-- set as its level (world:setLevel), so that one motion meets the walls and the world's shapes; casts in
-- the containers' normal convention (set:cast, world:cast) and the world's push-out; and opts.dt, which
-- gives every velocity one unit. Bad input raises the named error and changes nothing.
local collide2d = require 'collide2d'
local expect = require 'spec.support.expect'
local unpack = table.unpack or unpack

-- A box of walls 200 wide and 100 high, y down; the top wall carries the value "ceiling".
local function walls()
  local set = collide2d.staticset({
    collide2d.box(100, -5, 220, 10), collide2d.box(100, 105, 220, 10),
    collide2d.box(-5, 50, 10, 100), collide2d.box(205, 50, 10, 100),
  })
  set:setValue(1, 'ceiling')
  return set
end

local cross = function() return 'cross' end

describe('world:setLevel(set)', function()
  it('makes one ball step meet the level and the world, in the order met', function()
    local level, world = walls(), collide2d.world()
    local enemy = world:add(collide2d.circle(100, 30, 5), 'enemy')
    assert.are.equal(world, world:setLevel(level))
    local contacts = {}
    local x, y, vx, vy, n = world:stepBall(100, 60, 0, -100, 2, 1, { response = cross }, nil, contacts)
    assert.are.equal(3, n)
    expect.values({ 100, 44, 0, 100 }, x, y, vx, vy) -- up 58 to the ceiling, down 42
    assert.are.equal(enemy, contacts[1].shape)
    assert.is_nil(contacts[1].index)
    assert.are.same({ nil, 1, 'ceiling', 'bounce', 0, 1 },
      { contacts[2].shape, contacts[2].index, contacts[2].value, contacts[2].response, contacts[2].nx, contacts[2].ny })
    assert.are.equal(enemy, contacts[3].shape)
  end)

  it('answers as one static set of all the shapes would, for random bullets', function()
    local level, world = walls(), collide2d.world()
    local all = { collide2d.box(100, -5, 220, 10), collide2d.box(100, 105, 220, 10),
      collide2d.box(-5, 50, 10, 100), collide2d.box(205, 50, 10, 100) }
    local seed = 7
    local function rnd(lo, hi)
      seed = (seed * 1103515245 + 12345) % 2147483648
      return lo + (hi - lo) * seed / 2147483648
    end
    for i = 1, 12 do
      local x = rnd(20, 180)
      local y = rnd(10, 90)
      local s = collide2d.circle(x, y, rnd(2, 6))
      world:add(s, i)
      all[#all + 1] = s
    end
    world:setLevel(level)
    local reference = collide2d.staticset(all)
    local responses = {}
    for i = 5, #all do responses[i] = 'cross' end
    for _ = 1, 200 do
      local x, y = rnd(5, 195), rnd(5, 95)
      local vx, vy = rnd(-3000, 3000), rnd(-3000, 3000)
      local a = { world:stepBall(x, y, vx, vy, 1, 1 / 30, { response = cross }) }
      local b = { reference:stepBall(x, y, vx, vy, 1, 1 / 30, { responses = responses }) }
      assert.are.same(b, a)
    end
  end)

  it('takes opts.responses by level index, which a world without a level refuses', function()
    local level, world = walls(), collide2d.world()
    expect.raises("bad argument #7 to 'stepBall' (opts.responses: not supported by a world (make opts.response a function))",
      function() world:stepBall(100, 50, 0, -100, 1, 1, { responses = { 'ignore' } }) end)
    world:setLevel(level)
    local contacts = {}
    local _, y, _, vy, n = world:stepBall(100, 50, 0, -100, 1, 0.9, { responses = { [1] = 'ignore' } }, nil, contacts)
    assert.are.equal(0, n) -- through the ceiling, which it ignores
    expect.values({ -40, -100 }, y, vy)
    expect.raises("bad argument #7 to 'stepBall' (opts.responses: keys must be shape indices (1 to 4))",
      function() world:stepBall(100, 50, 0, -100, 1, 1, { responses = { [5] = 'ignore' } }) end)
  end)

  it('keeps the set alive and refuses to let it be destroyed while it is a level', function()
    local level, world = walls(), collide2d.world()
    world:setLevel(level)
    assert.are.equal(level, world:level())
    expect.raises("attempt to destroy a static set that is a world's level (world:setLevel(nil) first)",
      function() level:destroy() end)
    assert.are.equal(4, level:count()) -- unchanged
    world:setLevel(nil)
    assert.is_nil(world:level())
    level:destroy()
    -- a world destroyed or collected lets go of its level
    local other = walls()
    local w2 = collide2d.world()
    w2:setLevel(other)
    w2:destroy()
    other:destroy()
    local third = walls()
    do
      local w3 = collide2d.world()
      w3:setLevel(third)
    end
    collectgarbage()
    collectgarbage()
    third:destroy()
  end)

  it('raises the named errors', function()
    local world = collide2d.world()
    expect.raises("bad argument #1 to 'setLevel' (collide2d.staticset expected, got number)",
      function() world:setLevel(3) end)
    local level = walls()
    local s = collide2d.circle(100, 50, 3)
    world:add(collide2d.circle(100, 30, 5))
    expect.raises("attempt to change a world's level from inside one of its callbacks", function()
      world:stepBall(100, 50, 0, -100, 1, 1, { response = function() world:setLevel(level) return 'cross' end })
    end)
    assert.is_nil(world:level())
    assert.is_truthy(s)
  end)
end)

describe('set:cast(shape, dx, dy) and world:cast(shape, dx, dy [, filter])', function()
  it('answer the sweep with the normal towards the mover, where it stands and what it met', function()
    local level = walls()
    local ball = collide2d.circle(100, 50, 2)
    local t, x, y, nx, ny, index, value, px, py, depth = level:cast(ball, 0, -100)
    expect.values({ 0.48, 100, 2, 0, 1, 100, 0, 0 }, t, x, y, nx, ny, px, py, depth)
    assert.are.same({ 1, 'ceiling' }, { index, value })
    -- set:sweep answers the same contact, its normal the other way
    local st, snx, sny = level:sweep(ball, 0, -100)
    assert.are.same({ t, -nx, -ny }, { st, snx, sny })
    assert.is_nil(level:cast(ball, 10, 10))
    -- through a world: its shapes and its level
    local world = collide2d.world()
    local crate = world:add(collide2d.box(100, 30, 10, 10), 'crate')
    local t2, _, y2, _, ny2, what, v2 = world:cast(ball, 0, -100)
    assert.are.same({ crate, 'crate' }, { what, v2 })
    expect.values({ 0.13, 37, 1 }, t2, y2, ny2)
    world:setLevel(level)
    local t3, _, _, _, _, what3, v3 = world:cast(ball, 0, -100, function() return false end)
    assert.are.same({ 0.48, 1, 'ceiling' }, { t3, what3, v3 })
    -- a shape that starts inside: t 0 and the depth
    local t4, _, _, _, ny4, _, _, _, _, depth4 = world:cast(collide2d.circle(100, 36, 2), 0, 10)
    assert.are.equal(0, t4)
    assert.is_true(depth4 > 0 and ny4 == 1)
  end)

  it('raise the named errors', function()
    local level, world = walls(), collide2d.world()
    local chain = collide2d.chain({ 0, 0, 10, 0, 10, 10 })
    expect.raises("bad argument #1 to 'cast' (a chain or concave polygon cannot be a mover)",
      function() level:cast(chain, 1, 0) end)
    expect.raises("bad argument #1 to 'cast' (a chain or concave polygon cannot be a mover)",
      function() world:cast(chain, 1, 0) end)
    expect.raises("bad argument #2 to 'cast' (number is NaN or infinite)",
      function() level:cast(collide2d.circle(0, 0, 1), 0 / 0, 0) end)
    expect.raises("bad argument #4 to 'cast' (function or table expected, got number)",
      function() world:cast(collide2d.circle(0, 0, 1), 1, 0, 5) end)
  end)
end)

describe('world:pushOut(shape [, filter])', function()
  it('takes the shape out of the world and its level', function()
    local level, world = walls(), collide2d.world()
    world:setLevel(level)
    local dx, dy = world:pushOut(collide2d.circle(100, 1, 2))
    expect.values({ 0, 1 }, dx, dy)
    world:add(collide2d.box(100, 6, 10, 4))
    dx, dy = world:pushOut(collide2d.circle(100, 3, 2)) -- between the ceiling and the box: out sideways
    local moved = collide2d.circle(100 + dx, 3 + dy, 2)
    expect.values({ 0, 0 }, world:pushOut(moved))
    expect.values({ 0, 0 }, world:pushOut(collide2d.circle(100, 50, 2)))
    expect.raises("bad argument #1 to 'pushOut' (a chain or concave polygon cannot be a mover)",
      function() world:pushOut(collide2d.chain({ 0, 0, 10, 0, 10, 10 })) end)
  end)
end)

describe('opts.dt', function()
  it('makes a move last dt, so members move by their velocity per unit of time times dt', function()
    local function platform(v)
      local set = collide2d.staticset({ collide2d.box(0, 10, 40, 4) })
      set:setVelocity(1, 0, v)
      return set
    end
    local crate = collide2d.box(0, 0, 4, 4)
    -- a platform rising at 50 per second meets a crate falling 6 in 0.1 s as one rising 5 per move does
    local timed = { platform(-50):move(crate, 0, 6, { dt = 0.1 }) }
    local unit = { platform(-5):move(crate, 0, 6) }
    expect.values(unit, unpack(timed))
    -- the records' velocities are per unit of time
    local contacts = {}
    platform(-50):move(crate, 0, 6, { dt = 0.1, response = 'touch' }, contacts)
    expect.values({ -50 }, contacts[1].vy)
    -- a turning move: angle and displacement stay the whole move's
    local set = collide2d.staticset({ collide2d.box(100, 0, 2, 2) })
    local a = { set:moveTurning(crate, 3, 0, 0.5, 0, 0, { dt = 0.25 }) }
    expect.values({ 3, 0, 0.5, 0 }, unpack(a))
  end)

  it('is refused where it means nothing or is not a positive time', function()
    local set, world = walls(), collide2d.world()
    local crate = collide2d.box(100, 50, 4, 4)
    expect.raises("bad argument #4 to 'move' (opts.dt: must be a positive time)",
      function() set:move(crate, 1, 0, { dt = 0 }) end)
    expect.raises("bad argument #4 to 'move' (opts.dt: must be a positive time)",
      function() world:move(crate, 1, 0, { dt = -1 }) end)
    expect.raises("bad argument #4 to 'move' (opts.dt: number expected, got string)",
      function() set:move(crate, 1, 0, { dt = 'soon' }) end)
    expect.raises("bad argument #4 to 'move' (opts.dt: number is NaN or infinite)",
      function() set:move(crate, 1, 0, { dt = 1 / 0 }) end)
    expect.raises("bad argument #7 to 'stepBall' (opts.dt: a ball step's time is its dt argument)",
      function() set:stepBall(100, 50, 1, 0, 1, 1, { dt = 1 }) end)
    expect.raises("bad argument #7 to 'stepBall' (opts.dt: a ball step's time is its dt argument)",
      function() world:stepBall(100, 50, 1, 0, 1, 1, { dt = 1 }) end)
  end)
end)

describe('the opts table of moves and ball steps', function()
  it('is read through its metatable when it has one, and names the first bad field in a fixed order', function()
    local level = walls()
    local defaults = setmetatable({}, { __index = { response = 'touch' } })
    local contacts = {}
    local _, _, vx, vy, n = level:stepBall(100, 50, 0, -100, 1, 1, defaults, contacts)
    assert.are.same({ 1, 'touch', 0, 0 }, { n, contacts[1].response, vx, vy })
    for _ = 1, 20 do -- whatever order the table holds its fields in
      local opts = { friction = -1, restitution = 'x', response = 5, place = 3 }
      expect.raises("bad argument #7 to 'stepBall' (opts.response: string expected, got number)",
        function() level:stepBall(100, 50, 0, -100, 1, 1, opts) end)
      opts.response = nil
      expect.raises("bad argument #7 to 'stepBall' (opts.restitution: number expected, got string)",
        function() level:stepBall(100, 50, 0, -100, 1, 1, opts) end)
    end
  end)
end)

describe('world:moveCharacter in a world with a level', function()
  it('walks on the level, names its ground by index, and rides a moving level shape', function()
    local level = collide2d.staticset({ collide2d.box(0, 0, 100, 2), collide2d.box(80, 10, 20, 2) })
    level:setValue(1, 'floor')
    local world = collide2d.world()
    world:setLevel(level)
    local hero = collide2d.box(0, 2, 1, 2) -- y up: standing on the floor's top at y = 1
    local state = {}
    local opts = { upX = 0, upY = 1, snap = 0.2, place = true }
    local x, y, grounded, nx, ny, ground = world:moveCharacter(hero, 0.5, -0.1, opts, nil, state)
    assert.are.same({ 0.5, 2, true, 0, 1, 1 }, { x, y, grounded, nx, ny, ground })
    assert.are.same({ 1, 'floor' }, { state.index, state.value })
    assert.is_nil(state.shape)
    level:setVelocity(1, 0.25, 0)
    x = world:moveCharacter(hero, 0, -0.1, opts, nil, state)
    assert.are.equal(0.75, x) -- carried by the floor it stands on
  end)
end)

describe('a wrong self', function()
  it('is named by what it is, in every Lua', function()
    local set, world, box = walls(), collide2d.world(), collide2d.box(0, 0, 1, 1)
    expect.raises("bad argument #1 to 'move' (collide2d.staticset expected, got collide2d.shape)",
      function() set.move(box, 1, 0) end)
    expect.raises("bad argument #1 to 'setValue' (collide2d.staticset expected, got collide2d.shape)",
      function() set.setValue(box, 1, 2) end)
    expect.raises("bad argument #1 to 'stepBall' (collide2d.world expected, got collide2d.staticset)",
      function() world.stepBall(set, 0, 0, 1, 1, 1, 1) end)
    expect.raises("bad argument #1 to 'cast' (collide2d.staticset expected, got collide2d.world)",
      function() set.cast(world, box, 1, 0) end)
  end)
end)
