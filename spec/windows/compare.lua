-- spec/windows/compare.lua - compares two outputs of the shared cases (spec/windows/cases.c or
-- cases.lua), line by line, for spec/suites/40-windows.sh. Run with Lua 5.4 (string.unpack).
--   lua5.4 compare.lua REFERENCE OTHER NAME
-- Every line must be identical: every number to the last bit. The sections ("info", "exact" for
-- unturned shapes, "turned" for shapes at other angles) are counted separately: turned shapes are
-- placed with the library's own sine and cosine (src/trig.c), so they too agree to the last bit. Prints
-- one "ok"/"not ok" line per section, then stops with status 1 if any failed.
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
    s = { lines = 0, bitwise = 0, bad = 0 }
    stats[section] = s
  end
  s.lines = s.lines + 1
  local why
  if ref[i] == other[i] then
    s.bitwise = s.bitwise + 1
  else
    why = 'differs'
    for k = 3, math.min(#a, #b) do
      if a[k] ~= b[k] and #a[k] == 16 and #b[k] == 16 and a[k]:match('^%x+$') and b[k]:match('^%x+$') then
        why = string.format('value %d: %.17g vs %.17g', k - 2, double(a[k]), double(b[k]))
        break
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
  else
    report(s.bad == 0, string.format('%s: %d of %d lines identical to the last bit', section, s.bitwise, s.lines))
  end
end
os.exit(failed == 0 and 0 or 1)
