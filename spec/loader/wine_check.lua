-- spec/loader/wine_check.lua - the loader's Windows branch in LuaJIT for Windows, under Wine
-- (spec/suites/42-loader.sh): luajit.exe spec/loader/wine_check.lua EXPECT GAME SAVE, where GAME is a
-- folder standing for a .love's contents (collide2d_loader.lua and, unless EXPECT is "missing",
-- lib/windows-x86_64/collide2d.dll) and SAVE the save directory, both Windows paths with "/".
--   copy     with spec/loader/love_stub.lua as love: the DLL is copied into the save directory and
--            loaded from there ("# writes N" says how many files were written);
--   missing  with the stub, a game without the DLL: the error names the platform and the files;
--   plain    no love at all: the loader finds GAME/lib/windows-x86_64/collide2d.dll beside itself.
-- Prints "ok - " / "not ok - " lines; exits 0 when every check passed.
local expect, game, save = arg[1], arg[2], arg[3]
local failures = 0
local function check(ok, what)
  if not ok then failures = failures + 1 end
  print((ok and "ok - " or "not ok - ") .. what)
end
local function has(s, part) return type(s) == "string" and s:find(part, 1, true) ~= nil end

package.path = game .. "/?.lua;" .. package.path
if expect ~= "plain" then love = dofile("spec/loader/love_stub.lua")("Windows", game, save) end
local loader = require "collide2d_loader"
local platform, how = loader.platform()
check(platform == "windows-x86_64", "under Wine the platform is windows-x86_64 (" .. how .. ")")

local ok, collide2d, path = pcall(loader.load)
if expect == "missing" then
  print("# " .. tostring(collide2d))
  check(not ok and has(collide2d, "collide2d: no binary for this platform, windows-x86_64 (love.system.getOS() Windows, jit.arch x64)"),
    "with no DLL for the platform, load() raises naming the platform")
  check(has(collide2d, "looked for lib/windows-x86_64/collide2d.dll in the game (" .. game .. ".love)"),
    "the error names the file it looked for in the game")
  check(has(collide2d, 'then require "collide2d"') and has(collide2d, "collide2d.dll'"),
    "the error lists the DLLs require looked for")
  check(love.filesystem.writes == 0, "nothing was written")
else
  check(ok, "load() loads the module: " .. tostring(path or collide2d))
  if ok then
    if expect == "copy" then
      local dir = (save .. "/collide2d-native/windows-x86_64-"):gsub("/", "\\")
      check(path:sub(1, #dir) == dir and path:sub(#dir + 1):match("^%x%x%x%x%x%x%x%x\\collide2d%.dll$"),
        "it was loaded from the save directory, by a path with backslashes: " .. path)
      print("# writes " .. love.filesystem.writes)
    else
      check(path == (game .. "/lib/windows-x86_64/collide2d.dll"):gsub("/", "\\"),
        "without LÖVE it was loaded in place, beside the loader: " .. path)
    end
    check(require("collide2d") == collide2d, 'require "collide2d" returns the same module')
    check(collide2d._VERSION == "1.0.0" and debug.getinfo(collide2d.collide, "S").what == "Lua",
      "collide2d " .. tostring(collide2d._VERSION) .. " with LuaJIT's FFI fast path")
    local nx, ny, depth, x, y = collide2d.circle(0, 0, 1):collide(collide2d.circle(1.5, 0, 1))
    check(nx == 1 and ny == 0 and depth == 0.5 and x == 0.75 and y == 0,
      "it answers: circle against circle, normal (1, 0), depth 0.5, contact (0.75, 0)")
  end
end
io.stdout:flush()
os.exit(failures == 0 and 0 or 1)
