-- collide2d_loader.lua - loads the collide2d Lua module built for the platform a LÖVE game runs on.
--
--   local collide2d = require("collide2d_loader").load()
--
-- A game ships one module binary per platform under lib/<platform>/ (make dist's folder names):
--
--   lib/linux-x86_64/collide2d.so      lib/windows-x86_64/collide2d.dll    lib/macos-arm64/collide2d.so
--   lib/linux-aarch64/collide2d.so     lib/windows-i686/collide2d.dll      lib/macos-x86_64/collide2d.so
--
-- each the lua51 build (LÖVE 11 is LuaJIT: the Lua 5.1 API). load():
--   1. names the platform: the OS from love.system.getOS() (else jit.os, else the shape of
--      package.config and the environment), the CPU from jit.arch (else the environment or uname -m);
--   2. finds lib/<platform>/collide2d.<so|dll> in the game (love.filesystem: the game's folder, its
--      .love or its fused executable). A shared library cannot be loaded from inside a zip, so when
--      the file is not a real file on disk it is copied into the save directory, as
--      collide2d-native/<platform>-<fingerprint>/collide2d.<so|dll>, and only when that copy is
--      missing or differs (size, then bytes); copies of other builds for the platform are removed;
--   3. loads it with package.loadlib(path, "luaopen_collide2d") and stores the module in
--      package.loaded.collide2d, so require "collide2d" anywhere else returns the same table (if the
--      system refuses the file, require "collide2d" is tried before giving up, as in 4);
--   4. with no binary for the platform in the game, tries require "collide2d" (a module beside the
--      game, the executable, or on package.cpath, as without the loader), and if that fails too raises
--      an error naming the platform and every file it looked for.
-- Outside LÖVE (plain Lua 5.1 or LuaJIT) the layout is looked up under the loader's own folder (or
-- opts.root) and loaded in place. Lua 5.2 and later cannot load a lua51 build: there load() is
-- require "collide2d" (build/lua54/collide2d.so on package.cpath, for instance).
--
-- Options, all optional: load({ dir = "lib", root = <folder> }). loader.platform() returns the
-- platform's folder name and a description of how it was found.

local loader = { VERSION = "1.0.0" }

local NAME = "collide2d"
local SAVE_DIR = "collide2d-native"

-- The loader's own folder, for plain Lua ("@lua/collide2d_loader.lua" -> "lua").
local function own_dir()
  local source = debug and debug.getinfo and debug.getinfo(1, "S").source or ""
  if source:sub(1, 1) ~= "@" then return "." end
  return source:sub(2):match("^(.*)[/\\][^/\\]*$") or "."
end

-- love.system.getOS() and jit.os names, to make dist's.
local OS_NAMES = {
  ["OS X"] = "macos", OSX = "macos", Windows = "windows", Linux = "linux", Android = "android",
  iOS = "ios", Web = "web", BSD = "bsd", POSIX = "posix",
}
-- jit.arch (and the environment's) names, to make dist's: as uname -m names the CPU on Linux and
-- macOS (aarch64 on Linux, arm64 on macOS), as the mingw-w64 triplets do for Windows.
local ARCH_NAMES = {
  x64 = "x86_64", x86_64 = "x86_64", amd64 = "x86_64", AMD64 = "x86_64",
  x86 = "i686", i386 = "i686", i686 = "i686",
  arm64 = "arm64", aarch64 = "arm64", ARM64 = "arm64", arm = "arm", armv7l = "arm",
}

local function popen_line(cmd)
  if not io.popen then return nil end
  local ok, f = pcall(io.popen, cmd)
  if not ok or not f then return nil end
  local line = f:read("*l")
  f:close()
  return line
end

-- -> platform folder name ("linux-x86_64"), and how it was found (for error messages).
function loader.platform()
  local os_name, os_from, arch, arch_from
  if love and love.system and love.system.getOS then
    os_name, os_from = love.system.getOS(), "love.system.getOS()"
  elseif jit and jit.os then
    os_name, os_from = jit.os, "jit.os"
  elseif package.config:sub(1, 1) == "\\" then
    os_name, os_from = "Windows", "package.config"
  else
    os_name, os_from = popen_line("uname -s 2>/dev/null"), "uname -s"
    if os_name == "Darwin" then os_name = "OS X" end
  end
  if jit and jit.arch then
    arch, arch_from = jit.arch, "jit.arch"
  elseif os_name == "Windows" then
    arch = os.getenv("PROCESSOR_ARCHITEW6432") or os.getenv("PROCESSOR_ARCHITECTURE")
    arch_from = "PROCESSOR_ARCHITECTURE"
  else
    arch, arch_from = popen_line("uname -m 2>/dev/null"), "uname -m"
  end
  local o = OS_NAMES[os_name or ""] or (os_name and os_name:lower():gsub("[^%w]", "")) or "unknown"
  local a = ARCH_NAMES[arch or ""] or (arch and arch:lower()) or "unknown"
  if a == "arm64" and (o == "linux" or o == "android") then a = "aarch64" end
  return o .. "-" .. a, string.format("%s %s, %s %s", os_from, tostring(os_name), arch_from, tostring(arch))
end

local function ext_for(platform)
  return platform:match("^windows%-") and ".dll" or ".so"
end

local function is_file(path)
  local f = io.open(path, "rb")
  if f then f:close() return true end
  return false
end

-- A 32-bit polynomial hash of the bytes, as 8 hex digits: names the save-directory copy after its
-- contents, so that a new build never overwrites a library another running copy of the game has
-- loaded. Exact in doubles (h * 256 + 255 < 2^53) and in Lua 5.3+ integers. About 8 ms a megabyte
-- under LuaJIT.
local function fingerprint(data)
  local h, n, byte, M = 0, #data, string.byte, 4294967291
  local i = 1
  while i + 7 <= n do
    local a, b, c, d, e, f, g, k = byte(data, i, i + 7)
    h = (h * 256 + a) % M; h = (h * 256 + b) % M; h = (h * 256 + c) % M; h = (h * 256 + d) % M
    h = (h * 256 + e) % M; h = (h * 256 + f) % M; h = (h * 256 + g) % M; h = (h * 256 + k) % M
    i = i + 8
  end
  while i <= n do h = (h * 256 + byte(data, i)) % M; i = i + 1 end
  return string.format("%08x", h)
end

-- LÖVE: the path of a real file holding the game's lib/<platform>/ binary, copied out of the .love or
-- the fused executable when it is not one. -> path, or nil when the game has no such file.
local function from_love(file, platform, ext)
  local fs = love.filesystem
  local info = fs.getInfo(file, "file")
  if not info then return nil end
  local real_dir = fs.getRealDirectory(file)
  if real_dir and is_file(real_dir .. "/" .. file) then return real_dir .. "/" .. file end

  local data, err = fs.read(file)
  if not data then error(NAME .. ": could not read " .. file .. " from the game: " .. tostring(err), 0) end
  local dir = SAVE_DIR .. "/" .. platform .. "-" .. fingerprint(data)
  local copy = dir .. "/" .. NAME .. ext
  local have = fs.getInfo(copy, "file")
  if not (have and have.size == #data and fs.read(copy) == data) then
    if not fs.createDirectory(dir) then
      error(NAME .. ": could not create " .. dir .. " in the save directory " .. fs.getSaveDirectory(), 0)
    end
    local ok, werr = fs.write(copy, data)
    if not ok then
      error(NAME .. ": could not write " .. copy .. " in the save directory: " .. tostring(werr), 0)
    end
  end
  -- Other builds' copies for this platform (from an earlier version of the game) go; one that another
  -- running copy holds open on Windows stays until next time.
  for _, item in ipairs(fs.getDirectoryItems(SAVE_DIR)) do
    local old = SAVE_DIR .. "/" .. item
    if item ~= platform .. "-" .. dir:sub(-8) and item:sub(1, #platform + 1) == platform .. "-"
        and #item == #platform + 9 and fs.getRealDirectory(old) == fs.getSaveDirectory() then
      fs.remove(old .. "/" .. NAME .. ext)
      fs.remove(old)
    end
  end
  return fs.getSaveDirectory() .. "/" .. copy
end

-- -> the module and its path; or, when the system refuses the file, what require "collide2d" finds
-- instead (a copy beside the executable, say: LuaJIT opens a Windows path with LoadLibraryExA, which
-- fails for characters outside the ANSI code page, as in some user names).
local function open(path, platform)
  if platform:match("^windows%-") then path = path:gsub("/", "\\") end
  local open_fn, err = package.loadlib(path, "luaopen_" .. NAME)
  if not open_fn then
    local ok, module = pcall(require, NAME)
    if ok then return module end
    error(string.format('%s: could not load %s: %s; then require "%s": %s', NAME, path, tostring(err),
      NAME, tostring(module)), 0)
  end
  local module = open_fn(NAME)
  package.loaded[NAME] = module
  return module, path
end

-- -> the module, and the path it was loaded from (nil when require found it).
function loader.load(opts)
  opts = opts or {}
  if package.loaded[NAME] then return package.loaded[NAME] end
  local platform, how = loader.platform()
  local ext = ext_for(platform)
  local file = (opts.dir or "lib") .. "/" .. platform .. "/" .. NAME .. ext
  local looked
  if _VERSION ~= "Lua 5.1" then
    looked = "nothing under lib/ (" .. _VERSION .. " cannot load a Lua 5.1 module)"
  elseif love and love.filesystem and love.filesystem.getInfo and not opts.root then
    local path = from_love(file, platform, ext)
    if path then return open(path, platform) end
    looked = file .. " in the game (" .. tostring(love.filesystem.getSource()) .. ")"
  else
    local path = (opts.root or own_dir()) .. "/" .. file
    if is_file(path) then return open(path, platform) end
    looked = path
  end
  local ok, result = pcall(require, NAME)
  if ok then return result end
  error(string.format('%s: no binary for this platform, %s (%s); looked for %s, then require "%s": %s',
    NAME, platform, how, looked, NAME, tostring(result)), 0)
end

return loader
