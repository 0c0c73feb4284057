-- spec/docs_spec.lua - the first example of docs/lua.md runs and prints what its comment says, and the
-- examples of its Reference section run (those after it: spec/world_spec.lua), so the
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

-- Runs every ```lua block of docs/lua.md between the headings from and to (to nil: the next "## "
-- heading), each in a fresh environment with collide2d in it; returns the section and the count.
local function run_examples(label, from, to)
  local f = assert(io.open('docs/lua.md'))
  local text = f:read('*a')
  f:close()
  local start = assert(text:find('\n' .. from .. '\n', 1, true))
  local stop = to and assert(text:find('\n' .. to .. '\n', 1, true)) or text:find('\n## ', start + 1, true) or #text
  local section = text:sub(start, stop)
  local count = 0
  for code in section:gmatch('```lua\n(.-)```') do
    count = count + 1
    local env = setmetatable({ collide2d = collide2d }, { __index = _G })
    local name = '=docs/lua.md ' .. label .. ' example ' .. count
    local chunk
    if setfenv then
      chunk = assert(loadstring(code, name))
      setfenv(chunk, env)
    else
      chunk = assert(load(code, name, 't', env))
    end
    chunk()
  end
  return section, count
end

describe('the examples of the Reference section of docs/lua.md', function()
  it('run as they are', function()
    local _, count = run_examples('reference', '## Reference', '## Swept collision')
    assert.is_true(count >= 1)   -- collide2d.box's, beside collide2d.rectangle
  end)
end)

describe('the examples of the Static sets section of docs/lua.md', function()
  it('run as they are (set:moveCharacter\'s among them)', function()
    local section, count = run_examples('static set', '## Static sets', '## Worlds')
    assert.is_truthy(section:find('### set:moveCharacter', 1, true))
    assert.is_true(count >= 27)
  end)
end)

describe('the examples of the Worlds section of docs/lua.md', function()
  it('run as they are (world:moveCharacter\'s among them)', function()
    local section, count = run_examples('world', '## Worlds')
    assert.is_truthy(section:find('### world:moveCharacter', 1, true))
    assert.is_true(count >= 20)
  end)
end)

describe('the LÖVE drawing example of docs/lua.md', function()
  it('runs against a stand-in for love.graphics and draws the shapes where they are', function()
    local f = assert(io.open('docs/lua.md'))
    local text = f:read('*a')
    f:close()
    local start = assert(text:find('\n### LÖVE\n', 1, true))
    local stop = assert(text:find('\n### LuaJIT\n', 1, true))
    local code = text:sub(start, stop):match('```lua\n(.-)```')
    assert.is_string(code)
    local drawn = {}
    local love = { graphics = {
      polygon = function(mode, t) drawn[#drawn + 1] = { mode, #t, t[1], t[2] } end,
      circle = function(mode, x, y, r) drawn[#drawn + 1] = { mode, x, y, r } end,
    } }
    local env = setmetatable({ collide2d = collide2d, love = love,
      wall = collide2d.rectangle(120, 50, 20, 200), ball = collide2d.circle(100, 100, 10) }, { __index = _G })
    local chunk
    if setfenv then
      chunk = assert(loadstring(code, '=docs/lua.md LÖVE example'))
      setfenv(chunk, env)
    else
      chunk = assert(load(code, '=docs/lua.md LÖVE example', 't', env))
    end
    chunk()
    love.draw()
    assert.are.same({ { 'fill', 8, 120, 50 }, { 'line', 100, 100, 10 } }, drawn)
  end)
end)
