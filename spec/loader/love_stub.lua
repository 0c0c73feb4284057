-- spec/loader/love_stub.lua - a stand-in for LÖVE's love.system and love.filesystem, so that
-- lua/collide2d_loader.lua can run where LÖVE cannot: in the cross-built LuaJIT for Windows under
-- Wine (spec/suites/42-loader.sh). It is a test fixture, not a LÖVE: it has only what the loader calls,
-- over two real folders, with LÖVE's rules as the loader relies on them:
--   game  the game's files as LÖVE sees them inside a .love: getSource() and getRealDirectory() answer
--         the .love's path (game .. ".love"), which is no folder, so a file there cannot be loaded
--         in place and the loader must copy it;
--   save  the save directory: write, createDirectory and remove act there only, and a path found
--         there is the save directory's (it comes first, as in LÖVE).
-- Paths are LÖVE's: "/"-separated, relative to the game; getSaveDirectory() has "/" too, as LÖVE's
-- does on Windows. Directories are made, listed and removed through cmd.exe (mkdir, dir /b, rmdir).
-- The number of files written is kept in love.filesystem.writes, for the suite to check.
return function(os_name, game, save)
  local windows = package.config:sub(1, 1) == "\\"
  local function native(path) return windows and (path:gsub("/", "\\")) or path end
  local function size_of(path)
    local f = io.open(native(path), "rb")
    if not f then return nil end
    local size = f:seek("end")
    f:close()
    return size
  end
  local function slurp(path)
    local f = io.open(native(path), "rb")
    if not f then return nil end
    local data = f:read("*a")
    f:close()
    return data
  end
  local function list(dir)
    local items = {}
    local p = io.popen('dir /b "' .. native(dir) .. '" 2>nul')
    if p then
      for line in p:lines() do
        line = line:gsub("\r$", "")
        if line ~= "" then items[#items + 1] = line end
      end
      p:close()
    end
    return items
  end
  local function in_dir(dir, path) -- is path (a file or a folder) in dir?
    if size_of(dir .. "/" .. path) then return true end
    local parent, name = path:match("^(.*)/([^/]+)$")
    for _, item in ipairs(list(parent and dir .. "/" .. parent or dir)) do
      if item == (name or path) then return true end
    end
    return false
  end

  local fs = { writes = 0 }
  function fs.getSource() return game .. ".love" end
  function fs.getSaveDirectory() return save end
  function fs.isFused() return false end
  function fs.getRealDirectory(path)
    if in_dir(save, path) then return save end
    if in_dir(game, path) then return game .. ".love" end
    return nil
  end
  function fs.getInfo(path, filter)
    local size = size_of(save .. "/" .. path) or size_of(game .. "/" .. path)
    if size and (filter == nil or filter == "file") then return { type = "file", size = size } end
    return nil
  end
  function fs.read(path)
    local data = slurp(save .. "/" .. path) or slurp(game .. "/" .. path)
    if not data then return nil, "Could not open file " .. path .. ". Does not exist." end
    return data, #data
  end
  function fs.write(path, data)
    local f, err = io.open(native(save .. "/" .. path), "wb")
    if not f then return false, err end
    f:write(data)
    f:close()
    fs.writes = fs.writes + 1
    return true
  end
  function fs.createDirectory(path)
    os.execute('mkdir "' .. native(save .. "/" .. path) .. '" 2>nul')
    return in_dir(save, path)
  end
  function fs.getDirectoryItems(path)
    local items, seen = {}, {}
    for _, dir in ipairs({ save, game }) do
      for _, item in ipairs(list(dir .. "/" .. path)) do
        if not seen[item] then seen[item] = true; items[#items + 1] = item end
      end
    end
    return items
  end
  function fs.remove(path)
    local full = native(save .. "/" .. path)
    if os.remove(full) then return true end
    os.execute('rmdir "' .. full .. '" 2>nul')
    return not in_dir(save, path)
  end

  return { filesystem = fs, system = { getOS = function() return os_name end } }
end
