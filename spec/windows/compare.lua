-- spec/windows/compare.lua - compares two outputs of the shared cases (spec/windows/cases.c or
-- cases.lua), line by line, for spec/suites/40-windows.sh. Run with Lua 5.4 (string.unpack).
--   lua5.4 compare.lua REFERENCE OTHER NAME
-- Lines of the sections "info" and "exact" must be identical: every number to the last bit. Lines of
-- "turned" (shapes at angles other than 0, placed with the platform's cos and sin) must have the same
-- tokens except numbers, and numbers equal within TOL relative to max(1, |a|, |b|); how many of them
-- still agree bit for bit is reported. Prints one "ok"/"not ok" line per section, then stops with
-- status 1 if any failed.
local TOL = 1e-9
local ref_name, other_name, name = arg[1], arg[2], arg[3] or arg[2]

local function read(path)
  local f = assert(io.open(path, 'rb'))
  local lines = {}
  for line in f:lines() do lines[#lines + 1] = (line:gsub('\r$', '')) end
  f:close()
  return lines
end

local function split(line)
  local t = {}
  for w in line:gmatch('%S+') do t[#t + 1] = w end
  return t
end

local function double(hex)
  return string.unpack('<d', string.pack('<I8', math.tointeger(tonumber(hex, 16)) or 0))
end

local ref, other = read(ref_name), read(other_name)
local failed = 0
local function report(ok, what)
  if not ok then failed = failed + 1 end
  print((ok and 'ok     ' or 'not ok ') .. name .. ': ' .. what)
end

if #ref ~= #other or #ref == 0 then
  report(false, string.format('%d lines, the reference %d', #other, #ref))
end

local stats = {}
local shown = 0
for i = 1, math.min(#ref, #other) do
  local a, b = split(ref[i]), split(other[i])
  local section = a[1]
  local s = stats[section]
  if not s then
    s = { lines = 0, bitwise = 0, bad = 0, values = 0, differing = 0, worst = 0 }
    stats[section] = s
  end
  s.lines = s.lines + 1
  local why
  if ref[i] == other[i] then
    s.bitwise = s.bitwise + 1
  elseif section ~= 'turned' or b[1] ~= 'turned' or a[2] ~= b[2] or #a ~= #b then
    why = 'differs'
  else
    for k = 3, #a do
      if a[k] ~= b[k] then
        if #a[k] == 16 and #b[k] == 16 and a[k]:match('^%x+$') and b[k]:match('^%x+$') then
          local x, y = double(a[k]), double(b[k])
          local rel = math.abs(x - y) / math.max(1, math.abs(x), math.abs(y))
          s.differing = s.differing + 1
          if rel > s.worst then s.worst = rel end
          if not (rel <= TOL) then why = string.format('value %d: %.17g vs %.17g', k - 2, x, y) end
        else
          why = string.format('token %d: %s vs %s', k - 2, a[k], b[k])
        end
      end
    end
  end
  if why then
    s.bad = s.bad + 1
    if shown < 5 then
      shown = shown + 1
      print('# line ' .. i .. ' (' .. why .. ')\n#   reference: ' .. ref[i] .. '\n#   ' .. name .. ': ' .. other[i])
    end
  end
end

for _, section in ipairs({ 'info', 'exact', 'turned' }) do
  local s = stats[section]
  if not s then
    report(false, 'no "' .. section .. '" lines')
  elseif section ~= 'turned' then
    report(s.bad == 0, string.format('%s: %d of %d lines identical to the last bit', section, s.bitwise, s.lines))
  else
    report(s.bad == 0, string.format('turned: %d of %d lines identical to the last bit; the other %d agree within %g (%d values differ, by at most %.3g relative)',
      s.bitwise, s.lines, s.lines - s.bitwise - s.bad, TOL, s.differing, s.worst))
  end
end
os.exit(failed == 0 and 0 or 1)
