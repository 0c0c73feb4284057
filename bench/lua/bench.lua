-- bench/lua/bench.lua - calls per second of collide2d's overlaps and collide from Lua, against the same
-- queries answered by a careful pure-Lua SAT (sat.lua), on circle, rectangle and polygon pairs.
-- Run from the top directory with LUA_CPATH pointing at a build (`make bench-lua` does both, for Lua
-- 5.4 and LuaJIT, the latter with its FFI fast path and with COLLIDE2D_NO_FFI=1). Each pair kind uses 64 placements, half of them overlapping, cycled through so that
-- neither side is timed on one memorised answer. Before timing, both sides must agree on every
-- placement (overlap, normal, depth and contact points), so the race is between equal answers.
package.path = 'bench/lua/?.lua;' .. package.path
local collide2d = require 'collide2d'
local sat = require 'sat'

local SECONDS = tonumber(os.getenv('BENCH_SECONDS')) or 0.25
local PLACEMENTS = 64

-- A deterministic generator, the same under every interpreter (math.random differs between them):
-- Park and Miller's, whose products stay below 2^53, exact in doubles as in Lua 5.4's integers.
local seed = 12345
local function uniform(lo, hi)
  seed = (seed * 16807) % 2147483647
  return lo + (hi - lo) * seed / 2147483647
end

-- A regular n-gon of radius r centred at (x, y), turned by a, as a flat counter-clockwise list.
local function ngon(n, x, y, r, a)
  local t = {}
  for i = 0, n - 1 do
    local ang = a + 2 * math.pi * i / n
    t[#t + 1], t[#t + 2] = x + r * math.cos(ang), y + r * math.sin(ang)
  end
  return t
end

-- Each kind makes one shape pair at offset (dx, dy) in both representations.
local kinds = {
  { name = 'circle-circle', make = function(dx, dy)
      return { collide2d.circle(0, 0, 1), collide2d.circle(dx, dy, 0.8) },
             { sat.circle(0, 0, 1), sat.circle(dx, dy, 0.8) }
    end },
  { name = 'circle-rectangle', make = function(dx, dy, a)
      return { collide2d.circle(dx, dy, 0.8), collide2d.rectangle(-1, -0.5, 2, 1, a) },
             { sat.circle(dx, dy, 0.8), sat.rectangle(-1, -0.5, 2, 1, a) }
    end },
  { name = 'rectangle-rectangle', make = function(dx, dy, a)
      return { collide2d.rectangle(-1, -0.5, 2, 1, 0.3), collide2d.rectangle(dx - 0.75, dy - 0.5, 1.5, 1, a) },
             { sat.rectangle(-1, -0.5, 2, 1, 0.3), sat.rectangle(dx - 0.75, dy - 0.5, 1.5, 1, a) }
    end },
  { name = 'polygon-polygon (8-gons)', make = function(dx, dy, a)
      local p, q = ngon(8, 0, 0, 1, 0.1), ngon(8, dx, dy, 0.9, a)
      return { collide2d.polygon(p), collide2d.polygon(q) }, { sat.polygon(p), sat.polygon(q) }
    end },
}

-- Both sides' answers for one pair, compared value by value: same count, each within 1e-9. Two
-- contact points may come in either order.
local function agree(c, s)
  local x = { collide2d.collide(c[1], c[2]) }
  local y = { sat.collide(s[1], s[2]) }
  if collide2d.overlaps(c[1], c[2]) ~= sat.overlaps(s[1], s[2]) or #x ~= #y then return false end
  if #x == 7 and math.abs(x[4] - y[4]) + math.abs(x[5] - y[5]) > 1e-9 then
    y[4], y[5], y[6], y[7] = y[6], y[7], y[4], y[5]
  end
  for i = 1, #x do
    if math.abs(x[i] - y[i]) > 1e-9 then return false end
  end
  return true
end

-- Calls per second of fn(a, b) over the placements, for about SECONDS of work.
local function rate(fn, pairs_)
  local n, a, b = #pairs_, {}, {}
  for i = 1, n do a[i], b[i] = pairs_[i][1], pairs_[i][2] end
  local rounds, elapsed = 1, 0
  while true do
    local start = os.clock()
    for _ = 1, rounds do
      for i = 1, n do fn(a[i], b[i]) end
    end
    elapsed = os.clock() - start
    if elapsed >= SECONDS then break end
    rounds = rounds * 2
  end
  return rounds * n / elapsed
end

local function si(x)
  if x >= 1e6 then return string.format('%7.2f M', x / 1e6) end
  return string.format('%7.1f k', x / 1e3)
end

print(string.format('%s, collide2d %s%s; calls per second (higher is better)',
  jit and jit.version or _VERSION, collide2d._VERSION,
  debug.getinfo(collide2d.collide, 'S').what == 'Lua' and ' (FFI fast path)' or ''))
print(string.format('%-36s %-9s %12s %12s %8s', 'pair', 'query', 'collide2d', 'pure Lua', 'ratio'))
local mismatches = 0
for _, kind in ipairs(kinds) do
  local cpairs, spairs, hits = {}, {}, 0
  for i = 1, PLACEMENTS do
    -- Half the placements overlap (distance 0.5..1.4), half are apart (2.3..3).
    local dist = i % 2 == 0 and uniform(0.5, 1.4) or uniform(2.3, 3)
    local dir, a = uniform(0, 2 * math.pi), uniform(0, math.pi)
    local c, s = kind.make(dist * math.cos(dir), dist * math.sin(dir), a)
    cpairs[i], spairs[i] = c, s
    if not agree(c, s) then mismatches = mismatches + 1 end
    if collide2d.overlaps(c[1], c[2]) then hits = hits + 1 end
  end
  for _, query in ipairs({ 'overlaps', 'collide' }) do
    local native = rate(collide2d[query], cpairs)
    local lua = rate(sat[query], spairs)
    print(string.format('%-36s %-9s %12s %12s %7.1fx', kind.name .. (query == 'overlaps' and
      string.format(' [%d/%d hit]', hits, PLACEMENTS) or ''), query, si(native), si(lua), native / lua))
  end
end
if mismatches > 0 then
  print(string.format('WARNING: pure Lua and collide2d disagreed on %d placements', mismatches))
  os.exit(1)
end
print(string.format('pure Lua and collide2d agree on all %d placements', PLACEMENTS * #kinds))
