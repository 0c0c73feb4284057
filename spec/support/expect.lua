-- spec/support/expect.lua - small assertions the Lua specs share: exact error messages (without the
-- "file:line:" prefix Lua adds) and lists of numbers returned as multiple values.
local assert = require 'luassert'

local expect = {}

-- Geometry in doubles: results that are exact on paper may be off in the last bits.
expect.TOL = 1e-12

-- A pattern for an address as this Lua prints one (tostring({}) is "table: <address>"): PUC Lua formats
-- it with the C library's %p, which is "0x55d0c8a0" with glibc but "0000000000C8D640" with Windows' C
-- runtime, and the module's __tostring uses the same lua_pushfstring("%p").
expect.ADDRESS = tostring({}):match(': 0x%x+$') and '0x%x+' or '%x+'

-- Calls fn and checks that it raises exactly msg (after the position prefix, if any).
function expect.raises(msg, fn, ...)
  local ok, err = pcall(fn, ...)
  assert(not ok, 'expected the error "' .. msg .. '", but the call succeeded')
  assert.is_string(err)
  local stripped = err:gsub('^[^\n]-:%d+: ', '', 1)
  assert.are.equal(msg, stripped)
end

-- Checks the multiple values ... against the list expected, number by number (near within tol).
function expect.values(expected, ...)
  local n = select('#', ...)
  assert.are.equal(#expected, n, 'number of values returned')
  for i = 1, n do
    local got = select(i, ...)
    assert(type(got) == 'number', 'value #' .. i .. ' is a ' .. type(got) .. ', not a number')
    assert(math.abs(got - expected[i]) <= expect.TOL,
      string.format('value #%d is %.17g, expected %.17g', i, got, expected[i]))
  end
end

-- The flat list {x1, y1, x2, y2, ...} rotated so that it starts at its lowest-then-leftmost point:
-- two lists of the same polygon's vertices in the same winding then compare equal whatever vertex
-- the library chose to start from.
function expect.canonical(list)
  local n, best = #list / 2, 1
  for i = 2, n do
    local x, y, bx, by = list[2 * i - 1], list[2 * i], list[2 * best - 1], list[2 * best]
    if y < by - expect.TOL or (math.abs(y - by) <= expect.TOL and x < bx) then best = i end
  end
  local out = {}
  for k = 0, n - 1 do
    local i = (best - 1 + k) % n + 1
    out[#out + 1] = list[2 * i - 1]
    out[#out + 1] = list[2 * i]
  end
  return out
end

return expect
