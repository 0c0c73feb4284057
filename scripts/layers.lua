-- scripts/layers.lua - checks that the library's source files call only downwards, from their own
-- symbols: nm lists what each object file defines and what it needs, which gives the call graph
-- between files; src/README.md's layer table says which layer each file belongs to.
--
--   lua5.4 scripts/layers.lua OBJDIR [LAYERS_MD [SRCDIR]]
--
-- With SRCDIR, only the objects of SRCDIR's .c files count (an object left from a file since removed
-- is not the library's).
-- Fails (exit 1) on a file the table does not place, a table row naming no file, a call from one file
-- up to a file of a higher layer, and any circle of calls between files (in one layer too), naming the
-- files and the functions. Prints "ok ..."/"not ok ..." lines and a closing "RESULT passed=N failed=M".

local objdir = arg[1] or 'build/obj'
local layers_md = arg[2] or 'src/README.md'
local srcdir = arg[3]

local passed, failed = 0, 0
local function ok(msg) passed = passed + 1; print('ok     ' .. msg) end
local function fail(msg) failed = failed + 1; print('not ok ' .. msg) end

-- The layer table: rows "| N | name | `a.c`, `b.c` |".
local layer_of, layer_name, rows = {}, {}, 0
for line in io.lines(layers_md) do
  local n, name, files = line:match('^|%s*(%d+)%s*|%s*([^|]-)%s*|%s*([^|]-)%s*|')
  if n then
    rows = rows + 1
    n = tonumber(n)
    layer_name[n] = name
    for f in files:gmatch('`([%w_]+)%.c`') do layer_of[f] = n end
  end
end
if rows == 0 then
  fail('no layer table in ' .. layers_md)
  print(('RESULT passed=%d failed=%d'):format(passed, failed))
  os.exit(1)
end

-- What each object defines and needs.
local defined_by, needs, files = {}, {}, {}
local list = io.popen('ls ' .. objdir .. '/*.o 2>/dev/null')
for path in list:lines() do
  local file = path:match('([%w_]+)%.o$')
  local source = srcdir and io.open(srcdir .. '/' .. file .. '.c')
  if source then source:close() end
  if srcdir and not source then goto next end
  files[#files + 1] = file
  needs[file] = {}
  local nm = io.popen('nm ' .. path)
  for line in nm:lines() do
    local kind, sym = line:match('^%s*%x*%s+(%a)%s+(%S+)$')
    if kind == 'U' then
      needs[file][#needs[file] + 1] = sym
    elseif kind and kind:match('[TDBR]') then
      defined_by[sym] = file
    end
  end
  nm:close()
  ::next::
end
list:close()
table.sort(files)
if #files == 0 then
  fail('no object files in ' .. objdir)
  print(('RESULT passed=%d failed=%d'):format(passed, failed))
  os.exit(1)
end

-- Every file has a layer, and every file the table names exists.
local present = {}
for _, f in ipairs(files) do
  present[f] = true
  if layer_of[f] then ok(f .. '.c is in layer ' .. layer_of[f] .. ' (' .. layer_name[layer_of[f]] .. ')')
  else fail(f .. '.c is in no layer of ' .. layers_md) end
end
for f in pairs(layer_of) do
  if not present[f] then fail(layers_md .. ' names ' .. f .. '.c, which was not built') end
end

-- Edges between files, with the functions that make them.
local edges = {} -- edges[a][b] = { sym, ... }
for _, a in ipairs(files) do
  edges[a] = {}
  for _, sym in ipairs(needs[a]) do
    local b = defined_by[sym]
    if b and b ~= a then
      edges[a][b] = edges[a][b] or {}
      table.insert(edges[a][b], sym)
    end
  end
end
local function syms(a, b)
  local s = edges[a][b]
  table.sort(s)
  return table.concat(s, ', ')
end

-- No call goes up a layer.
local up = 0
for _, a in ipairs(files) do
  local targets = {}
  for b in pairs(edges[a]) do targets[#targets + 1] = b end
  table.sort(targets)
  for _, b in ipairs(targets) do
    if layer_of[a] and layer_of[b] and layer_of[b] > layer_of[a] then
      up = up + 1
      fail(('%s.c (layer %d) calls up into %s.c (layer %d): %s'):format(a, layer_of[a], b, layer_of[b], syms(a, b)))
    end
  end
end
if up == 0 then ok('no file calls a file of a higher layer') end

-- No circles: Tarjan's strongly connected components over the file graph.
local index, low, onstack, stack, counter, circles = {}, {}, {}, {}, 0, 0
local function strongconnect(v)
  counter = counter + 1
  index[v], low[v] = counter, counter
  stack[#stack + 1] = v
  onstack[v] = true
  local targets = {}
  for w in pairs(edges[v]) do targets[#targets + 1] = w end
  table.sort(targets)
  for _, w in ipairs(targets) do
    if not index[w] then
      strongconnect(w)
      low[v] = math.min(low[v], low[w])
    elseif onstack[w] then
      low[v] = math.min(low[v], index[w])
    end
  end
  if low[v] == index[v] then
    local comp = {}
    repeat
      local w = table.remove(stack)
      onstack[w] = false
      comp[#comp + 1] = w
    until w == v
    if #comp > 1 then
      table.sort(comp)
      circles = circles + 1
      local member, calls = {}, {}
      for _, f in ipairs(comp) do member[f] = true end
      for _, a in ipairs(comp) do
        for _, b in ipairs(comp) do
          if edges[a][b] then calls[#calls + 1] = ('%s.c -> %s.c (%s)'):format(a, b, syms(a, b)) end
        end
      end
      fail('circle of calls between ' .. table.concat(comp, '.c, ') .. '.c: ' .. table.concat(calls, '; '))
    end
  end
end
for _, f in ipairs(files) do
  if not index[f] then strongconnect(f) end
end
if circles == 0 then ok('no circle of calls between source files') end

print(('RESULT passed=%d failed=%d'):format(passed, failed))
os.exit(failed == 0 and 0 or 1)
