-- spec/loader/main.lua - the loader check (spec/suites/42-loader.sh): a game that loads collide2d
-- through lua/collide2d_loader.lua, zipped into a .love (or fused to LÖVE's executable, or run as a
-- folder) with the module under lib/<platform>/. COLLIDE2D_LOADER_EXPECT says what must happen:
--   copy     the module is copied out of the .love or the executable into the save directory, and
--            loaded from there (the suite checks from outside whether the copy was written again);
--   in-place the game is a folder: the module is loaded where it lies, nothing is copied;
--   require  the game has no lib/ but collide2d.so beside main.lua, as without the loader: load()
--            falls back to require "collide2d", which LÖVE's own C loader answers;
--   broken   the game's lib/linux-x86_64/collide2d.so is no library, and nothing else supplies one:
--            load() raises naming the file, the system's complaint and require's;
--   missing  the game has no binary for this platform: load() raises the error naming the platform,
--            the file it looked for and the files require looked in.
-- Each check prints "ok - ..." or "not ok - ..."; the game quits with status 42 when all passed.

function love.errorhandler(msg)
  print('not ok - Lua error: ' .. tostring(msg) .. '\n' .. debug.traceback())
  io.stdout:flush()
  os.exit(1)
end

local failures = 0
local function check(ok, what)
  if not ok then failures = failures + 1 end
  print((ok and 'ok - ' or 'not ok - ') .. what)
end
local function has(s, part) return type(s) == 'string' and s:find(part, 1, true) ~= nil end

local expect = os.getenv('COLLIDE2D_LOADER_EXPECT') or 'copy'
local fs = love.filesystem
local loader = require 'collide2d_loader'
local platform = loader.platform()

function love.load()
  check(platform == 'linux-x86_64', 'the platform is linux-x86_64 (' .. select(2, loader.platform()) .. ')')
  check(package.loaded.collide2d == nil, 'collide2d is not loaded before load()')
  local source = fs.getSource()
  if expect == 'in-place' or expect == 'require' or expect == 'broken' then
    local f = io.open(source .. '/main.lua')
    if f then f:close() end
    check(f ~= nil and not fs.isFused(), 'the game is a folder: ' .. source)
  else
    check(has(source, '.love') or fs.isFused(), 'the game is a .love or a fused executable: ' .. source)
  end

  local ok, collide2d, path = pcall(loader.load)
  if expect == 'broken' then
    local err = collide2d
    print('# ' .. tostring(err))
    check(not ok and has(err, 'collide2d: could not load ' .. source .. '/lib/linux-x86_64/collide2d.so: '),
      'load() raises naming the file the system refused')
    check(has(err, 'then require "collide2d"') and has(err, "no file './collide2d.so'"),
      'the error lists the files require looked in')
    check(package.loaded.collide2d == nil, 'nothing is left in package.loaded')
    collide2d = nil
  elseif expect == 'missing' then
    local err = collide2d
    print('# ' .. tostring(err))
    check(not ok, 'load() raises with no binary for the platform')
    check(has(err, 'collide2d: no binary for this platform, linux-x86_64 (love.system.getOS() Linux, jit.arch x64)'),
      'the error names the platform and how it was found')
    check(has(err, 'looked for lib/linux-x86_64/collide2d.so in the game (' .. source .. ')'),
      'the error names the file it looked for in the game')
    check(has(err, 'then require "collide2d"') and has(err, "no file './collide2d.so'"),
      'the error lists the files require looked in')
    check(package.loaded.collide2d == nil, 'nothing is left in package.loaded')
    check(fs.getInfo('collide2d-native') == nil, 'nothing was written to the save directory')
    collide2d = nil
  else
    check(ok, 'load() loads the module: ' .. tostring(path or collide2d))
    if not ok then collide2d = nil end
  end
  if collide2d then
    local save = fs.getSaveDirectory()
    if expect == 'require' then
      check(path == nil and fs.getRealDirectory('collide2d.so') == source,
        'it came from require "collide2d": the collide2d.so beside main.lua')
      check(fs.getInfo('collide2d-native') == nil, 'nothing was copied to the save directory')
    elseif expect == 'in-place' then
      check(path == source .. '/lib/linux-x86_64/collide2d.so', 'it was loaded in place: ' .. tostring(path))
      check(fs.getInfo('collide2d-native') == nil, 'nothing was copied to the save directory')
    else
      local rel = type(path) == 'string' and path:sub(#save + 2) or ''
      check(path:sub(1, #save + 1) == save .. '/' and rel:match('^collide2d%-native/linux%-x86_64%-%x%x%x%x%x%x%x%x/collide2d%.so$'),
        'it was loaded from the save directory: ' .. tostring(path))
      check(fs.getRealDirectory(rel) == save and fs.read(rel) == fs.read('lib/linux-x86_64/collide2d.so'),
        'the copy holds the bytes of the game\'s lib/linux-x86_64/collide2d.so')
      local items = fs.getDirectoryItems('collide2d-native')
      check(#items == 1, 'one copy for the platform is left (' .. table.concat(items, ' ') .. ')')
      print('# copy ' .. save .. '/' .. rel)
    end
    check(require('collide2d') == collide2d and loader.load() == collide2d,
      'require "collide2d" and a second load() return the same module')
    check(collide2d._VERSION == '1.0.0' and debug.getinfo(collide2d.collide, 'S').what == 'Lua',
      'collide2d ' .. tostring(collide2d._VERSION) .. ' with LuaJIT\'s FFI fast path')
    local nx, ny, depth, x, y = collide2d.circle(0, 0, 1):collide(collide2d.circle(1.5, 0, 1))
    check(nx == 1 and ny == 0 and depth == 0.5 and x == 0.75 and y == 0,
      'it answers: circle against circle, normal (1, 0), depth 0.5, contact (0.75, 0)')
    local level = collide2d.staticset({ collide2d.rectangle(100, -50, 10, 100) })
    local bx, by, vx, vy, n = level:stepBall(0, 0, 6000, 0, 5, 1 / 60)
    check(n == 1 and vx == -6000 and bx < 95 and by == 0, 'a fast ball bounces off a wall, not through it')
  end
  print(string.format('checks done: %d failed', failures))
  io.stdout:flush()
  love.event.quit(failures == 0 and 42 or 1)
end
