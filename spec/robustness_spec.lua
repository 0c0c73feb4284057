-- spec/robustness_spec.lua - no input from Lua crashes the process: every function of the module is
-- called many times with arguments drawn from a hostile mix (NaN, infinities, huge and negative
-- numbers, strings, tables, booleans, nil, foreign userdata, destroyed shapes), under pcall. Every call
-- must either return or raise a string error; the run reaching its end is the proof of no crash.
local collide2d = require 'collide2d'

-- Deterministic, so a failure reproduces: Park and Miller's generator, exact in doubles.
local seed = 4242
local function rand(n)
  seed = (seed * 16807) % 2147483647
  return seed % n + 1
end

local function shapes()
  local dead = collide2d.rectangle(0, 0, 1, 1)
  dead:destroy()
  return {
    collide2d.circle(0, 0, 1), collide2d.rectangle(-1, -1, 2, 2, 0.5),
    collide2d.polygon(0, 0, 2, 0, 1, 2), collide2d.capsule(0, 0, 3, 1, 0.5),
    collide2d.segment(-1, 0, 1, 0), collide2d.hull(0, 0, 1, 1, 1, 0, 0, 1, 0.5, 0.5), dead,
  }
end

local pool = shapes()
local values = {
  0, 1, -1, 0.5, 1e15, -1e15, 1e16, 1e300, -1e300, 0 / 0, math.huge, -math.huge, 2 ^ 53, 5e-324,
  '1', 'x', '', true, false, {}, { 1, 2, 3, 4, 5, 6 }, { 0, 0, 1, 0, 'x' }, { 0, 0, 0 / 0, 1, 1, 1 },
  io.stdout, print, coroutine.create(function() end),
}
for _, s in ipairs(pool) do values[#values + 1] = s end
local NIL = {}   -- stands for an explicit nil argument
values[#values + 1] = NIL

describe('hostile arguments', function()
  local names = {}
  for k, v in pairs(collide2d) do if type(v) == 'function' then names[#names + 1] = k end end
  table.sort(names)

  it('never crash any of the ' .. #names .. ' functions (20,000 random calls)', function()
    local returned, raised = 0, 0
    local args = {}
    for _ = 1, 20000 do
      local f = collide2d[names[rand(#names)]]
      local n = rand(8) - 1
      for i = 1, n do
        local v = values[rand(#values)]
        if v == NIL then v = nil end
        args[i] = v
      end
      local ok, err = pcall(f, (table.unpack or unpack)(args, 1, n))
      if ok then
        returned = returned + 1
      else
        raised = raised + 1
        assert.is_string(err)
      end
    end
    -- Both outcomes must occur, or the mix was not hostile (or not valid) enough to mean anything.
    assert.is_true(returned > 1000, returned .. ' calls returned')
    assert.is_true(raised > 1000, raised .. ' calls raised')
  end)

  it('leave the shapes they did not destroy usable', function()
    local c = collide2d.circle(0, 0, 1)
    pcall(collide2d.move, c, 0 / 0, 0)
    pcall(collide2d.setTransform, c, 1e300, 0, 0)
    pcall(collide2d.rotate, c, math.huge)
    local x, y = c:position()
    assert.are.same({ 0, 0, 0 }, { x, y, c:angle() })
  end)
end)

describe('hostile arguments to static sets and worlds', function()
  -- Methods are called through their tables, with any receiver: sets, worlds, shapes, anything.
  local set_methods = getmetatable(collide2d.staticset({})).__index
  local world_methods = getmetatable(collide2d.world()).__index
  local calls = {}
  for name, f in pairs(set_methods) do calls[#calls + 1] = { 'set:' .. name, f } end
  for name, f in pairs(world_methods) do calls[#calls + 1] = { 'world:' .. name, f } end
  for _, name in ipairs({ 'sweep', 'staticset', 'world' }) do calls[#calls + 1] = { name, collide2d[name] } end
  table.sort(calls, function(a, b) return a[1] < b[1] end)

  local function pool()
    local shapes = shapes()
    local live = {}
    for i = 1, #shapes - 1 do live[i] = shapes[i] end
    local dead_set, dead_world = collide2d.staticset(live), collide2d.world()
    dead_set:destroy()
    dead_world:destroy()
    local worlds = { collide2d.world(), collide2d.world({ margin = 1 }), dead_world }
    for i = 1, #live do worlds[1]:add(live[i], i) end
    local sets = { collide2d.staticset(live), collide2d.staticset({}), dead_set }
    return shapes, sets, worlds
  end

  -- As many random calls per function whatever their number: most calls raise, and what returns is
  -- mostly the destroys and constructors, whose share shrinks as methods are added.
  local ncalls = 600 * #calls
  it('never crash any of the ' .. #calls .. ' functions (' .. ncalls .. ' random calls, hostile callbacks)', function()
    local shapes, sets, worlds = pool()
    local mix = {}
    for _, v in ipairs(values) do mix[#mix + 1] = v end
    for _, v in ipairs(shapes) do mix[#mix + 1] = v end
    for _, v in ipairs(sets) do mix[#mix + 1] = v end
    for _, v in ipairs(worlds) do mix[#mix + 1] = v end
    local depth = 0
    local function any()
      local v = mix[rand(#mix)]
      if v == NIL then return nil end
      return v
    end
    -- Callbacks that raise, answer nonsense, or call back into the module (a bounded number of levels).
    local function hostile(...)
      local pick = rand(6)
      if pick == 1 then error('callback error') end
      if pick == 2 then error(any()) end
      if pick == 3 and depth < 2 then
        depth = depth + 1
        local c = calls[rand(#calls)]
        pcall(c[2], any(), any(), any(), any(), any(), any())
        depth = depth - 1
      end
      if pick == 4 then return ({ 'slide', 'touch', 'cross', 'bounce', 'ignore', 'x', 5, true })[rand(8)] end
      return any()
    end
    mix[#mix + 1] = hostile
    mix[#mix + 1] = { response = hostile }
    mix[#mix + 1] = { fn = hostile, category = 1, mask = 3 }
    mix[#mix + 1] = { response = 'cross', responses = { 'ignore', 'x', [100] = 'slide' }, restitution = 0.5 }
    mix[#mix + 1] = { response = 'bounce', friction = 1e300, restitution = -1 }
    mix[#mix + 1] = { category = -1, mask = 0 / 0 }
    mix[#mix + 1] = { seamTolerance = 1e-3, autoSeams = false, margin = 3, relativeMargin = 0 }
    local returned, raised = 0, 0
    local args = {}
    for _ = 1, ncalls do
      local c = calls[rand(#calls)]
      local n = rand(11) - 1
      for i = 1, n do args[i] = any() end
      -- The receiver is usually of the right kind, so that the calls go deep.
      if rand(4) > 1 then
        if c[1]:sub(1, 4) == 'set:' then args[1] = sets[rand(#sets)] end
        if c[1]:sub(1, 6) == 'world:' then args[1] = worlds[rand(#worlds)] end
        n = math.max(n, 1)
      end
      local ok = pcall(c[2], (table.unpack or unpack)(args, 1, n))
      if ok then returned = returned + 1 else raised = raised + 1 end
      if rand(1000) == 1 then collectgarbage('collect') end
    end
    assert.is_true(returned > 1000, returned .. ' calls returned')
    assert.is_true(raised > 1000, raised .. ' calls raised')
    -- The worlds still answer, consistently with their own count.
    for _, w in ipairs(worlds) do
      local ok, count = pcall(w.count, w)
      if ok then
        local items, n = w:queryRect(-1e6, -1e6, 2e6, 2e6)
        assert.is_true(n <= count)
        for k = 1, n do assert.is_true(w:has(items[k])) end
      end
    end
  end)
end)
