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
