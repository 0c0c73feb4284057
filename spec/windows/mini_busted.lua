-- spec/windows/mini_busted.lua - runs busted spec files where busted cannot run: under the Windows Lua 5.1
-- interpreter in Wine (spec/suites/40-windows.sh), which has none of busted's C modules. The specs use
-- only describe, it and luassert's assertions (pure Lua, found on LUA_PATH), so this implements just
-- those with busted's order: describe blocks run first and register their tests, then each test runs,
-- in order, in its own protected call. Anything else a spec might call (before_each, pending, ...)
-- is not defined, so a spec that needs it fails loudly instead of passing unchecked.
-- Prints "ok - ..." or "not ok - ..." per test, then "RESULT passed=N failed=M".
-- Usage: lua mini_busted.lua spec/queries_spec.lua [more spec files]
local luassert = require 'luassert'

local tests = {}
local path = {}

_G.assert = luassert

function _G.describe(name, fn)
  path[#path + 1] = name
  local ok, err = pcall(fn)
  if not ok then
    tests[#tests + 1] = { name = table.concat(path, ' ') .. ' (describe block)', err = err }
  end
  path[#path] = nil
end

function _G.it(name, fn)
  tests[#tests + 1] = { name = table.concat(path, ' ') .. ' ' .. name, fn = fn }
end

local load_failed = 0
for _, file in ipairs(arg) do
  local chunk, err = loadfile(file)
  if not chunk then
    print('not ok - ' .. file .. ': ' .. tostring(err))
    load_failed = load_failed + 1
  else
    path[1] = file .. ':'
    local ok, run_err = pcall(chunk)
    path[1] = nil
    if not ok then
      print('not ok - ' .. file .. ': ' .. tostring(run_err))
      load_failed = load_failed + 1
    end
  end
end

local passed, failed = 0, load_failed
for _, t in ipairs(tests) do
  local ok, err = false, t.err
  if t.fn then ok, err = pcall(t.fn) end
  if ok then
    passed = passed + 1
    print('ok - ' .. t.name)
  else
    failed = failed + 1
    if type(err) == 'table' then err = err.message or tostring(err) end
    print('not ok - ' .. t.name .. ': ' .. tostring(err))
  end
end
print(string.format('RESULT passed=%d failed=%d', passed, failed))
os.exit(failed == 0 and 0 or 1)
