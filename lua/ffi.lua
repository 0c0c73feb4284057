-- Run once by luaopen_collide2d under LuaJIT, with the module table, the shape metatable and a table
-- of entry points (name -> light userdata: the address of a C function pointer). Replaces the hot
-- functions with Lua wrappers that call the core through the FFI, which LuaJIT's trace compiler
-- compiles (a classic C function call aborts the trace). A wrapper answers only when every argument is
-- exactly what it expects and the entry point says OK; anything else (wrong type, destroyed shape,
-- NaN, a missing argument, a string that is a number) goes to the original C function with the
-- arguments as given, a tail call, so the values, the errors and even the function name in "bad
-- argument #n to 'f'" are the C path's. Returns true once the wrappers are in place.
local M, MT, E = ...
local ok, ffi = pcall(require, 'ffi')
local jit = package.loaded.jit
if not ok or type(ffi) ~= 'table' or type(jit) ~= 'table' or not jit.status() then return false end
local getmetatable, type, HUGE = getmetatable, type, math.huge
-- The C function behind E[name], whose type is signature: "int (*)(...)". Types are given as strings
-- only: busted (and maybe others) patch ffi.typeof to cache types by their first argument.
local function entry(name, signature)
  return ffi.cast((signature:gsub('^int %(%*%)', 'int (**)')), E[name])[0]
end
-- The results of every call: read back at once, before any other Lua code can run in this state.
local out = ffi.new('double[8]')
-- A userdata with the shape metatable; the entry points check that it is really a shape box. Light
-- userdata have the shape metatable only if debug.setmetatable gave it to every light userdata: their
-- pointers could point anywhere, so then the wrappers leave everything to the C functions.
local LIGHT = E.overlaps
local function isshape(x)
  return getmetatable(x) == MT and type(x) == 'userdata' and getmetatable(LIGHT) ~= MT
end
local W = {}

local c_overlaps, f_overlaps = M.overlaps, entry('overlaps', 'int (*)(void *, void *)')
function W.overlaps(...)
  local a, b = ...
  if isshape(a) and isshape(b) then
    local r = f_overlaps(a, b)
    if r >= 0 then return r == 1 end
  end
  return c_overlaps(...)
end

local c_collide, f_collide = M.collide, entry('collide', 'int (*)(void *, void *, double *)')
function W.collide(...)
  local a, b = ...
  if isshape(a) and isshape(b) then
    local n = f_collide(a, b, out)
    if n == 0 then return nil end
    if n == 1 then return out[0], out[1], out[2], out[3], out[4] end
    if n == 2 then return out[0], out[1], out[2], out[3], out[4], out[5], out[6] end
  end
  return c_collide(...)
end

local c_distance, f_distance = M.distance, entry('distance', 'int (*)(void *, void *, double *)')
function W.distance(...)
  local a, b = ...
  if isshape(a) and isshape(b) and f_distance(a, b, out) == 0 then
    return out[0], out[1], out[2], out[3], out[4], out[5], out[6]
  end
  return c_distance(...)
end

local c_contains, f_contains = M.contains, entry('contains', 'int (*)(void *, double, double)')
function W.contains(...)
  local s, x, y = ...
  if isshape(s) and type(x) == 'number' and type(y) == 'number' then
    local r = f_contains(s, x, y)
    if r >= 0 then return r == 1 end
  end
  return c_contains(...)
end

local c_raycast, f_raycast = M.raycast,
  entry('raycast', 'int (*)(void *, double, double, double, double, double, double *)')
function W.raycast(...)
  local s, ox, oy, dx, dy, maxt = ...
  if maxt == nil then maxt = HUGE end
  if isshape(s) and type(ox) == 'number' and type(oy) == 'number' and type(dx) == 'number'
      and type(dy) == 'number' and type(maxt) == 'number' then
    local r = f_raycast(s, ox, oy, dx, dy, maxt, out)
    if r == 0 then return nil end
    if r == 1 then return out[0], out[1], out[2], out[3], out[4] end
  end
  return c_raycast(...)
end

local c_position, f_position = M.position, entry('position', 'int (*)(void *, double *)')
function W.position(...)
  local s = ...
  if isshape(s) and f_position(s, out) == 0 then return out[0], out[1] end
  return c_position(...)
end

-- The setters return the shape, as the C functions do.
local c_move, f_move = M.move, entry('move', 'int (*)(void *, double, double)')
function W.move(...)
  local s, dx, dy = ...
  if isshape(s) and type(dx) == 'number' and type(dy) == 'number' and f_move(s, dx, dy) == 0 then
    return s
  end
  return c_move(...)
end

local c_setPosition, f_setPosition = M.setPosition, entry('setPosition', 'int (*)(void *, double, double)')
function W.setPosition(...)
  local s, x, y = ...
  if isshape(s) and type(x) == 'number' and type(y) == 'number' and f_setPosition(s, x, y) == 0 then
    return s
  end
  return c_setPosition(...)
end

local c_rotate, f_rotate = M.rotate, entry('rotate', 'int (*)(void *, double)')
function W.rotate(...)
  local s, da = ...
  if isshape(s) and type(da) == 'number' and f_rotate(s, da) == 0 then return s end
  return c_rotate(...)
end

local c_setAngle, f_setAngle = M.setAngle, entry('setAngle', 'int (*)(void *, double)')
function W.setAngle(...)
  local s, a = ...
  if isshape(s) and type(a) == 'number' and f_setAngle(s, a) == 0 then return s end
  return c_setAngle(...)
end

local c_setTransform, f_setTransform = M.setTransform,
  entry('setTransform', 'int (*)(void *, double, double, double)')
function W.setTransform(...)
  local s, x, y, a = ...
  if isshape(s) and type(x) == 'number' and type(y) == 'number' and type(a) == 'number'
      and f_setTransform(s, x, y, a) == 0 then
    return s
  end
  return c_setTransform(...)
end

-- All or nothing: an error above leaves the module as the C path made it.
for name, f in pairs(W) do M[name] = f end
return true
