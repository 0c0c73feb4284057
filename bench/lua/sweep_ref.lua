-- bench/lua/sweep_ref.lua - a careful pure-Lua ball stepper and bump.lua-style slide, the yardstick for
-- the Lua sweep benchmark (bench_sweep.lua): what a LÖVE game without collide2d would write by hand for
-- a breakout ball among bricks and a platformer box among tiles. Both work on axis-aligned boxes only
-- (the bricks, walls and tiles of the scenes), kept in flat arrays, with a uniform grid as bump.lua
-- keeps one: each leg of a move gathers the boxes in the grid cells its swept box covers (each box
-- once, by stamping), rejects on bounding boxes, and runs the exact test on what is left. A brute-force
-- variant of each (every box, every leg) is here too, for comparison. Locals only, no tables or
-- closures per call: contact records are filled in a table the caller reuses, so neither makes garbage.
--
-- Ball: the exact time of impact of a circle with a box is where the centre's segment enters the box
-- grown by the radius with rounded corners: its four flat faces first (each entered only while the
-- centre moves towards it), then, when no face is met, the four corner circles. The velocity is
-- reflected about the face normal, or about the line from the corner to the centre, and the loop
-- goes on with the rest of the step.
--
-- Slide: bump.lua's loop: the box's centre against each tile grown by the box's half sizes (the
-- Minkowski difference), the earliest entry wins, the box stops there and the rest of the motion loses
-- its part along the hit normal; repeat. As in bump.lua, moving along a face it touches is no hit, so
-- a box slides over the seams of a tile floor; EPS (1e-9 of a unit) absorbs the rounding of positions
-- that end "touching" a face.
local sqrt, floor, huge = math.sqrt, math.floor, math.huge

local ref = {}

local MAX_LEGS = 64 -- as collide2d, which reports at most 64 contacts a move
local EPS = 1e-9

-- A grid over boxes given as flat arrays l, t, r, b (left, top, right, bottom; y down) of n boxes,
-- covering (x0, y0)-(x1, y1) with square cells of `cell` units. Boxes outside fall in the border cells.
function ref.grid(l, t, r, b, n, cell, x0, y0, x1, y1)
  local cols, rows = floor((x1 - x0) / cell) + 1, floor((y1 - y0) / cell) + 1
  local g = { l = l, t = t, r = r, b = b, n = n, cell = cell, x0 = x0, y0 = y0, cols = cols, rows = rows,
              cells = {}, stamp = {}, mark = 0, cand = {} }
  for c = 1, cols * rows do g.cells[c] = {} end
  for i = 1, n do
    g.stamp[i] = 0
    local c0, c1 = ref.span(g, l[i], r[i], x0, cols)
    local r0, r1 = ref.span(g, t[i], b[i], y0, rows)
    for row = r0, r1 do
      for col = c0, c1 do
        local list = g.cells[row * cols + col + 1]
        list[#list + 1] = i
      end
    end
  end
  return g
end

-- The cells (0-based, clamped) that the interval lo..hi covers along one axis.
function ref.span(g, lo, hi, origin, count)
  local a, z = floor((lo - origin) / g.cell), floor((hi - origin) / g.cell)
  if a < 0 then a = 0 elseif a > count - 1 then a = count - 1 end
  if z < 0 then z = 0 elseif z > count - 1 then z = count - 1 end
  return a, z
end
local span = ref.span

-- Fills g.cand[1..m] with the boxes in the cells that the box minx..maxx, miny..maxy covers and whose
-- own boxes touch it, each once; returns m. (Gathering first and testing in a second, flat loop keeps
-- LuaJIT's traces simple: with the exact test inside the three nested loops they abort.)
local function gather(g, minx, maxx, miny, maxy)
  local L, T, R, B, cells, stamp, cand = g.l, g.t, g.r, g.b, g.cells, g.stamp, g.cand
  local cols, m = g.cols, 0
  local mark = g.mark + 1
  g.mark = mark
  local c0, c1 = span(g, minx, maxx, g.x0, cols)
  local r0, r1 = span(g, miny, maxy, g.y0, g.rows)
  for row = r0, r1 do
    for col = c0, c1 do
      local list = cells[row * cols + col + 1]
      for k = 1, #list do
        local i = list[k]
        if stamp[i] ~= mark then
          stamp[i] = mark
          if L[i] <= maxx and R[i] >= minx and T[i] <= maxy and B[i] >= miny then
            m = m + 1
            cand[m] = i
          end
        end
      end
    end
  end
  return m
end
ref.gather = gather

-- Fills contacts[k] (the record is created the first time only).
local function record(contacts, k, index, t, x, y, nx, ny)
  local c = contacts[k]
  if not c then c = {}; contacts[k] = c end
  c.index, c.t, c.x, c.y, c.nx, c.ny = index, t, x, y, nx, ny
end

-- ---- ball ----------------------------------------------------------------------------------------

-- Entry time (0..best) of the point m + s * d into the circle of squared radius rr about the origin
-- (a = d . d), moving towards it; nil if none before best.
local function corner_toi(mx, my, dx, dy, a, rr, best)
  local bq = mx * dx + my * dy
  if bq >= 0 then return nil end
  local disc = bq * bq - a * (mx * mx + my * my - rr)
  if disc < 0 then return nil end
  local s = (-bq - sqrt(disc)) / a
  if s < 0 then s = 0 end
  if s < best then return s end
  return nil
end

-- Time of impact s (0..best) of a circle of radius rad whose centre moves from (px, py) by (dx, dy)
-- with the box l, t, r, b, and the box's unit normal towards the ball there; nil if not before best.
local function ball_toi(px, py, dx, dy, rad, l, t, r, b, best)
  local hit, nx, ny = best, nil, nil
  -- Flat faces: the centre crosses the face's line, inside the face's span, moving towards it.
  if dx > 0 then
    local gap = l - rad - px
    if gap > -EPS then
      local s = gap / dx
      if s < 0 then s = 0 end
      local y = py + s * dy
      if s < hit and y >= t and y <= b then hit, nx, ny = s, -1, 0 end
    end
  elseif dx < 0 then
    local gap = px - r - rad
    if gap > -EPS then
      local s = -gap / dx
      if s < 0 then s = 0 end
      local y = py + s * dy
      if s < hit and y >= t and y <= b then hit, nx, ny = s, 1, 0 end
    end
  end
  if dy > 0 then
    local gap = t - rad - py
    if gap > -EPS then
      local s = gap / dy
      if s < 0 then s = 0 end
      local x = px + s * dx
      if s < hit and x >= l and x <= r then hit, nx, ny = s, 0, -1 end
    end
  elseif dy < 0 then
    local gap = py - b - rad
    if gap > -EPS then
      local s = -gap / dy
      if s < 0 then s = 0 end
      local x = px + s * dx
      if s < hit and x >= l and x <= r then hit, nx, ny = s, 0, 1 end
    end
  end
  if nx then return hit, nx, ny end
  -- Corners: the grown box is convex and holds every corner circle, so when the segment enters it
  -- through a rounded corner, the earliest corner-circle entry is that point.
  local a, rr = dx * dx + dy * dy, rad * rad
  local cx, cy = l, t
  local s = corner_toi(px - l, py - t, dx, dy, a, rr, hit)
  if s then hit = s end
  s = corner_toi(px - r, py - t, dx, dy, a, rr, hit)
  if s then hit, cx, cy = s, r, t end
  s = corner_toi(px - r, py - b, dx, dy, a, rr, hit)
  if s then hit, cx, cy = s, r, b end
  s = corner_toi(px - l, py - b, dx, dy, a, rr, hit)
  if s then hit, cx, cy = s, l, b end
  if hit == best then return nil end
  nx, ny = px + hit * dx - cx, py + hit * dy - cy
  local len = sqrt(nx * nx + ny * ny) -- the radius but for rounding: exactly unit for the reflection
  return hit, nx / len, ny / len
end
ref.ball_toi = ball_toi

-- One step of a ball of radius rad at (x, y) with velocity (vx, vy) for dt through the grid's boxes,
-- bouncing off each (speed kept): returns x, y, vx, vy and the number of contacts, recorded in
-- `contacts` as {index =, t = (fraction of dt), x =, y = (contact point), nx =, ny =}.
function ref.stepBall(g, x, y, vx, vy, rad, dt, contacts)
  local L, T, R, B, cand = g.l, g.t, g.r, g.b, g.cand
  local done, n = 0, 0 -- fraction of dt gone, contacts
  for _ = 1, MAX_LEGS do
    local rest = 1 - done
    local dx, dy = vx * dt * rest, vy * dt * rest
    -- The swept box of the ball over this leg.
    local minx, maxx = x - rad, x + rad
    if dx < 0 then minx = minx + dx else maxx = maxx + dx end
    local miny, maxy = y - rad, y + rad
    if dy < 0 then miny = miny + dy else maxy = maxy + dy end
    local best, hi = 1, nil
    for k = 1, gather(g, minx, maxx, miny, maxy) do
      local i = cand[k]
      local s = ball_toi(x, y, dx, dy, rad, L[i], T[i], R[i], B[i], best)
      if s then best, hi = s, i end
    end
    if not hi then
      return x + dx, y + dy, vx, vy, n
    end
    -- The normal of the earliest hit (asked again: fewer live values in the loop, simpler traces).
    local _, hnx, hny = ball_toi(x, y, dx, dy, rad, L[hi], T[hi], R[hi], B[hi], 2)
    x, y = x + best * dx, y + best * dy
    done = done + best * rest
    n = n + 1
    if contacts then record(contacts, n, hi, done, x - hnx * rad, y - hny * rad, hnx, hny) end
    local vn = vx * hnx + vy * hny
    vx, vy = vx - 2 * vn * hnx, vy - 2 * vn * hny
    if done >= 1 then break end
  end
  return x, y, vx, vy, n
end

-- The same step without the grid: every box on every leg.
function ref.stepBallBrute(g, x, y, vx, vy, rad, dt, contacts)
  local L, T, R, B, count = g.l, g.t, g.r, g.b, g.n
  local done, n = 0, 0
  for _ = 1, MAX_LEGS do
    local rest = 1 - done
    local dx, dy = vx * dt * rest, vy * dt * rest
    local minx, maxx = x - rad, x + rad
    if dx < 0 then minx = minx + dx else maxx = maxx + dx end
    local miny, maxy = y - rad, y + rad
    if dy < 0 then miny = miny + dy else maxy = maxy + dy end
    local best, hi = 1, nil
    for i = 1, count do
      local l, t, r, b = L[i], T[i], R[i], B[i]
      if l <= maxx and r >= minx and t <= maxy and b >= miny then
        local s = ball_toi(x, y, dx, dy, rad, l, t, r, b, best)
        if s then best, hi = s, i end
      end
    end
    if not hi then
      return x + dx, y + dy, vx, vy, n
    end
    local _, hnx, hny = ball_toi(x, y, dx, dy, rad, L[hi], T[hi], R[hi], B[hi], 2)
    x, y = x + best * dx, y + best * dy
    done = done + best * rest
    n = n + 1
    if contacts then record(contacts, n, hi, done, x - hnx * rad, y - hny * rad, hnx, hny) end
    local vn = vx * hnx + vy * hny
    vx, vy = vx - 2 * vn * hnx, vy - 2 * vn * hny
    if done >= 1 then break end
  end
  return x, y, vx, vy, n
end

-- ---- slide ---------------------------------------------------------------------------------------

-- Entry time (0..best) of the point (px, py) moving by (dx, dy) into the box l, t, r, b (a tile grown
-- by the mover's half sizes) and the normal of the face entered; nil if not before best. Bump's rules:
-- a face the point lies on (within EPS) while moving along it or away is no hit.
local function slide_toi(px, py, dx, dy, l, t, r, b, best)
  local enter, leave, nx, ny
  if dx > 0 then
    enter, leave, nx, ny = (l - px) / dx, (r - px) / dx, -1, 0
    if enter < 0 and l - px > -EPS then enter = 0 end
  elseif dx < 0 then
    enter, leave, nx, ny = (r - px) / dx, (l - px) / dx, 1, 0
    if enter < 0 and px - r > -EPS then enter = 0 end
  elseif px > l + EPS and px < r - EPS then
    enter, leave, nx, ny = -huge, huge, 0, 0
  else
    return nil
  end
  if dy > 0 then
    local e, x = (t - py) / dy, (b - py) / dy
    if e < 0 and t - py > -EPS then e = 0 end
    if e > enter then enter, nx, ny = e, 0, -1 end
    if x < leave then leave = x end
  elseif dy < 0 then
    local e, x = (b - py) / dy, (t - py) / dy
    if e < 0 and py - b > -EPS then e = 0 end
    if e > enter then enter, nx, ny = e, 0, 1 end
    if x < leave then leave = x end
  elseif py <= t + EPS or py >= b - EPS then
    return nil
  end
  if enter < 0 or enter >= best or enter >= leave then return nil end
  return enter, nx, ny
end
ref.slide_toi = slide_toi

-- Moves a box of half sizes hw, hh centred at (x, y) by (dx, dy) through the grid's boxes, sliding:
-- returns where its centre ends and the number of contacts, recorded in `contacts` as
-- {index =, t = (fraction of the move), x =, y = (the centre at the contact), nx =, ny =}.
function ref.move(g, x, y, hw, hh, dx, dy, contacts)
  local L, T, R, B, cand = g.l, g.t, g.r, g.b, g.cand
  local done, n = 0, 0 -- fraction of the move gone (each leg is what is left of it), contacts
  for _ = 1, MAX_LEGS do
    if dx == 0 and dy == 0 then break end
    local minx, maxx = x - hw, x + hw
    if dx < 0 then minx = minx + dx else maxx = maxx + dx end
    local miny, maxy = y - hh, y + hh
    if dy < 0 then miny = miny + dy else maxy = maxy + dy end
    local best, hi = 1, nil
    for k = 1, gather(g, minx, maxx, miny, maxy) do
      local i = cand[k]
      local s = slide_toi(x, y, dx, dy, L[i] - hw, T[i] - hh, R[i] + hw, B[i] + hh, best)
      if s then best, hi = s, i end
    end
    if not hi then
      x, y = x + dx, y + dy
      break
    end
    -- The normal of the earliest hit (asked again: fewer live values in the loop, simpler traces).
    local _, hnx, hny = slide_toi(x, y, dx, dy, L[hi] - hw, T[hi] - hh, R[hi] + hw, B[hi] + hh, 2)
    -- Stop at the face (exactly on its line), then slide: the rest loses its part along the normal.
    if hnx ~= 0 then
      x, y = hnx < 0 and L[hi] - hw or R[hi] + hw, y + best * dy
      dx, dy = 0, (1 - best) * dy
    else
      x, y = x + best * dx, hny < 0 and T[hi] - hh or B[hi] + hh
      dx, dy = (1 - best) * dx, 0
    end
    n = n + 1
    done = done + best * (1 - done)
    if contacts then record(contacts, n, hi, done, x, y, hnx, hny) end
  end
  return x, y, n
end

-- The same move without the grid: every tile on every leg.
function ref.moveBrute(g, x, y, hw, hh, dx, dy, contacts)
  local L, T, R, B, count = g.l, g.t, g.r, g.b, g.n
  local done, n = 0, 0
  for _ = 1, MAX_LEGS do
    if dx == 0 and dy == 0 then break end
    local minx, maxx = x - hw, x + hw
    if dx < 0 then minx = minx + dx else maxx = maxx + dx end
    local miny, maxy = y - hh, y + hh
    if dy < 0 then miny = miny + dy else maxy = maxy + dy end
    local best, hi = 1, nil
    for i = 1, count do
      local l, t, r, b = L[i], T[i], R[i], B[i]
      if l <= maxx and r >= minx and t <= maxy and b >= miny then
        local s = slide_toi(x, y, dx, dy, l - hw, t - hh, r + hw, b + hh, best)
        if s then best, hi = s, i end
      end
    end
    if not hi then
      x, y = x + dx, y + dy
      break
    end
    local _, hnx, hny = slide_toi(x, y, dx, dy, L[hi] - hw, T[hi] - hh, R[hi] + hw, B[hi] + hh, 2)
    if hnx ~= 0 then
      x, y = hnx < 0 and L[hi] - hw or R[hi] + hw, y + best * dy
      dx, dy = 0, (1 - best) * dy
    else
      x, y = x + best * dx, hny < 0 and T[hi] - hh or B[hi] + hh
      dx, dy = (1 - best) * dx, 0
    end
    n = n + 1
    done = done + best * (1 - done)
    if contacts then record(contacts, n, hi, done, x, y, hnx, hny) end
  end
  return x, y, n
end

return ref
