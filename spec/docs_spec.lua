-- spec/docs_spec.lua - the first example of docs/lua.md runs and prints what its comment says, so the
-- usage text cannot drift from the module.
local collide2d = require 'collide2d'

describe('the example at the top of docs/lua.md', function()
  it('runs and prints true 110 100', function()
    local f = assert(io.open('docs/lua.md'))
    local text = f:read('*a')
    f:close()
    local code = text:match('```lua\n(.-)```')
    assert.is_string(code)
    local printed
    local env = setmetatable({ print = function(...) printed = { ... } end,
      require = function(name) assert.are.equal('collide2d', name) return collide2d end },
      { __index = _G })
    local chunk
    if setfenv then
      chunk = assert(loadstring(code, '=docs/lua.md'))
      setfenv(chunk, env)
    else
      chunk = assert(load(code, '=docs/lua.md', 't', env))
    end
    chunk()
    assert.are.same({ true, 110, 100 }, printed)
  end)
end)
