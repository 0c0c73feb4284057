-- bench/lua/sat.lua - a careful pure-Lua SAT, the yardstick for the Lua benchmark (bench.lua): what a
-- LÖVE game would otherwise write by hand. It is written for speed the way a good Lua library is:
-- world vertices and edge normals cached in flat arrays when a shape is placed, locals only, no
-- tables or closures per query, early exits. It answers the same queries as collide2d (overlap, and
-- contact normal from a to b, depth and points midway between the surfaces), so the comparison is
-- like for like; bench.lua checks that both agree before timing them.
local sqrt, cos, sin, huge = math.sqrt, math.cos, math.sin, math.huge

local sat = {}

function sat.circle(x, y, r)
  return { circle = true, x = x, y = y, r = r }
end

-- A convex polygon from a flat counter-clockwise list {x1, y1, ...}, normals precomputed.
function sat.polygon(points)
  local n = #points / 2
  local v, nrm = {}, {}
  for i = 1, n do
    local j = i % n + 1
    local x1, y1, x2, y2 = points[2 * i - 1], points[2 * i], points[2 * j - 1], points[2 * j]
    local ex, ey = x2 - x1, y2 - y1
    local len = sqrt(ex * ex + ey * ey)
    v[2 * i - 1], v[2 * i] = x1, y1
    nrm[2 * i - 1], nrm[2 * i] = ey / len, -ex / len
  end
  return { circle = false, n = n, v = v, nrm = nrm }
end

-- A w by h rectangle with its top-left corner at (x, y), turned by angle about its centre.
function sat.rectangle(x, y, w, h, angle)
  local cx, cy, c, s = x + w / 2, y + h / 2, cos(angle or 0), sin(angle or 0)
  local pts = {}
  for _, corner in ipairs({ { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } }) do
    local lx, ly = corner[1] * w / 2, corner[2] * h / 2
    pts[#pts + 1] = cx + c * lx - s * ly
    pts[#pts + 1] = cy + s * lx + c * ly
  end
  return sat.polygon(pts)
end

-- Largest separation of b from a over a's edge normals, and the edge: > 0 means a separating axis.
local function max_separation(a, b)
  local av, an, bv, bn = a.v, a.nrm, b.v, b.n
  local best, edge = -huge, 1
  for i = 1, a.n do
    local nx, ny, px, py = an[2 * i - 1], an[2 * i], av[2 * i - 1], av[2 * i]
    local s = huge
    for j = 1, bn do
      local d = nx * (bv[2 * j - 1] - px) + ny * (bv[2 * j] - py)
      if d < s then s = d end
    end
    if s > best then
      best, edge = s, i
      if s > 0 then return s, i end
    end
  end
  return best, edge
end

-- Largest separation of a circle's centre over a polygon's edges, and the edge.
local function centre_separation(p, cx, cy)
  local v, nrm = p.v, p.nrm
  local best, edge = -huge, 1
  for i = 1, p.n do
    local s = nrm[2 * i - 1] * (cx - v[2 * i - 1]) + nrm[2 * i] * (cy - v[2 * i])
    if s > best then best, edge = s, i end
  end
  return best, edge
end

-- Contact of polygon p against circle c: normal from p to c, depth, one point; nil when apart.
local function polygon_circle(p, c)
  local cx, cy, r = c.x, c.y, c.r
  local s, i = centre_separation(p, cx, cy)
  if s > r then return nil end
  local v, n = p.v, p.n
  local nx, ny = p.nrm[2 * i - 1], p.nrm[2 * i]
  if s > 0 then
    -- Outside the edge's line: the closest feature is the edge or one of its two end points.
    local j = i % n + 1
    local x1, y1, x2, y2 = v[2 * i - 1], v[2 * i], v[2 * j - 1], v[2 * j]
    local vx, vy
    if (cx - x1) * (x2 - x1) + (cy - y1) * (y2 - y1) <= 0 then
      vx, vy = x1, y1
    elseif (cx - x2) * (x1 - x2) + (cy - y2) * (y1 - y2) <= 0 then
      vx, vy = x2, y2
    end
    if vx then
      local dx, dy = cx - vx, cy - vy
      local d2 = dx * dx + dy * dy
      if d2 > r * r then return nil end
      local d = sqrt(d2)
      nx, ny = dx / d, dy / d
      return nx, ny, r - d, (vx + cx - nx * r) / 2, (vy + cy - ny * r) / 2
    end
  end
  -- Face region (or the centre inside): the face normal; midway between the face and the circle.
  local half = (r + s) / 2
  return nx, ny, r - s, cx - nx * half, cy - ny * half
end

-- Clips the incident edge of inc against the side planes of ref's edge e and returns the one or two
-- points below the reference face, midway between the surfaces.
local function clip(ref, e, inc, nx, ny)
  local rv, n = ref.v, ref.n
  local e2 = e % n + 1
  local ax, ay, bx, by = rv[2 * e - 1], rv[2 * e], rv[2 * e2 - 1], rv[2 * e2]
  -- Incident edge: the one whose normal is most anti-parallel to the reference normal.
  local iv, inrm, best, k = inc.v, inc.nrm, huge, 1
  for i = 1, inc.n do
    local d = inrm[2 * i - 1] * nx + inrm[2 * i] * ny
    if d < best then best, k = d, i end
  end
  local k2 = k % inc.n + 1
  local x1, y1, x2, y2 = iv[2 * k - 1], iv[2 * k], iv[2 * k2 - 1], iv[2 * k2]
  local tx, ty = bx - ax, by - ay
  local tlen = sqrt(tx * tx + ty * ty)
  tx, ty = tx / tlen, ty / tlen
  -- Keep the part of the segment with 0 <= (p - a) . t <= |b - a|.
  local d1, d2 = (x1 - ax) * tx + (y1 - ay) * ty, (x2 - ax) * tx + (y2 - ay) * ty
  if d1 < 0 then
    if d2 < 0 then return nil end
    local u = d1 / (d1 - d2)
    x1, y1, d1 = x1 + u * (x2 - x1), y1 + u * (y2 - y1), 0
  elseif d2 < 0 then
    local u = d2 / (d2 - d1)
    x2, y2, d2 = x2 + u * (x1 - x2), y2 + u * (y1 - y2), 0
  end
  if d1 > tlen then
    if d2 > tlen then return nil end
    local u = (d1 - tlen) / (d1 - d2)
    x1, y1 = x1 + u * (x2 - x1), y1 + u * (y2 - y1)
  elseif d2 > tlen then
    local u = (d2 - tlen) / (d2 - d1)
    x2, y2 = x2 + u * (x1 - x2), y2 + u * (y1 - y2)
  end
  local s1 = nx * (x1 - ax) + ny * (y1 - ay)
  local s2 = nx * (x2 - ax) + ny * (y2 - ay)
  local px, py, qx, qy
  if s1 <= 0 then px, py = x1 - nx * s1 / 2, y1 - ny * s1 / 2 end
  if s2 <= 0 then
    if px then
      qx, qy = x2 - nx * s2 / 2, y2 - ny * s2 / 2
    else
      px, py = x2 - nx * s2 / 2, y2 - ny * s2 / 2
    end
  end
  return px, py, qx, qy
end

local function polygon_polygon(a, b)
  local sa, ea = max_separation(a, b)
  if sa > 0 then return nil end
  local sb, eb = max_separation(b, a)
  if sb > 0 then return nil end
  -- The face of a wins ties (within a hair), so symmetric cases pick a stable reference.
  if sb > sa + 1e-9 then
    local nx, ny = b.nrm[2 * eb - 1], b.nrm[2 * eb]
    local px, py, qx, qy = clip(b, eb, a, nx, ny)
    if not px then return nil end
    return -nx, -ny, -sb, px, py, qx, qy
  end
  local nx, ny = a.nrm[2 * ea - 1], a.nrm[2 * ea]
  local px, py, qx, qy = clip(a, ea, b, nx, ny)
  if not px then return nil end
  return nx, ny, -sa, px, py, qx, qy
end

-- nx, ny, depth, x1, y1 [, x2, y2] with the normal from a to b, or nil when apart.
function sat.collide(a, b)
  if a.circle then
    if b.circle then
      local dx, dy, r = b.x - a.x, b.y - a.y, a.r + b.r
      local d2 = dx * dx + dy * dy
      if d2 > r * r then return nil end
      local d = sqrt(d2)
      local nx, ny = 1, 0
      if d > 0 then nx, ny = dx / d, dy / d end
      local m = (a.r - b.r + d) / 2
      return nx, ny, r - d, a.x + nx * m, a.y + ny * m
    end
    local nx, ny, depth, x, y = polygon_circle(b, a)
    if not nx then return nil end
    return -nx, -ny, depth, x, y
  elseif b.circle then
    return polygon_circle(a, b)
  end
  return polygon_polygon(a, b)
end

-- true when a and b overlap or touch.
function sat.overlaps(a, b)
  if a.circle and b.circle then
    local dx, dy, r = b.x - a.x, b.y - a.y, a.r + b.r
    return dx * dx + dy * dy <= r * r
  elseif a.circle or b.circle then
    local p, c = a, b
    if a.circle then p, c = b, a end
    return polygon_circle(p, c) ~= nil
  end
  return max_separation(a, b) <= 0 and max_separation(b, a) <= 0
end

return sat
