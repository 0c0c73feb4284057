-- spec/support/garbage.lua - asserts that a loop of calls makes no Lua garbage. Used by
-- spec/garbage_spec.lua (every Lua) and spec/ffi_spec.lua (LuaJIT's FFI fast path).
--   assert_no_garbage(loop)   -- loop(n) makes n rounds of the calls under test
local M = {}

local N = 100000

-- KB allocated by loop(N) with the collector stopped. The same loop runs once first, after the
-- collection: a collection shrinks the Lua stack, and the first calls grow it back, once.
local function allocated_once(loop)
  collectgarbage('collect')
  collectgarbage('stop')
  loop(N)
  local before = collectgarbage('count')
  loop(N)
  local after = collectgarbage('count')
  collectgarbage('restart')
  return after - before
end

-- LuaJIT's trace compiler allocates GC objects of its own while it records, aborts and retries traces.
-- That happens even inside a loop run with the compiler off: jit.off() does not stop a trace already
-- being recorded from busted's own code, through the test, into the loop (seen here: 0.3 to 0.9 KB
-- over an empty loop, in the first test of a file only). Such work is transient, while garbage made by
-- the calls is made again on every pass, so the least of three passes counts.
local function allocated(loop)
  local least = allocated_once(loop)
  for _ = 2, 3 do
    if least == 0 then break end
    least = math.min(least, allocated_once(loop))
  end
  return least
end

-- With the compiler on, traces around C calls are recorded, aborted and retried, which allocates a few
-- hundred bytes in some passes whatever the loop calls. There the check is that nothing is allocated
-- per call: one object per call would be at least 16 bytes * 100,000 = 1.6 MB, and even one per 100
-- calls is 16 KB, the bound.
local TRACE_LIMIT = 16

-- PUC Lua must allocate exactly nothing, and so must LuaJIT with its compiler off: that catches
-- whatever the binding or its FFI path allocates. LuaJIT with the compiler on is held to TRACE_LIMIT.
function M.assert_no_garbage(loop)
  if jit then
    jit.off()
    local ok, kb = pcall(allocated, loop)
    jit.on()
    assert(ok, kb)
    assert(kb == 0, string.format('%.3f KB allocated over %d calls with the JIT off', kb, N))
    kb = allocated(loop)
    assert(kb <= TRACE_LIMIT, string.format('%.3f KB allocated over %d calls with the JIT on', kb, N))
  else
    local kb = allocated(loop)
    assert(kb == 0, string.format('%.3f KB allocated over %d calls', kb, N))
  end
end

return M
