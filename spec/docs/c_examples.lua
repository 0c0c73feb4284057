-- spec/docs/c_examples.lua - compiles every ```c block of a Markdown page (docs/c-api.md) against
-- include/collide2d.h, and builds and runs the blocks that are whole programs. Used by suite 70-docs.
--
--   lua5.4 spec/docs/c_examples.lua PAGE WORKDIR LIBDIR
--
-- A block with its own `int main` is a program: it is compiled, linked with LIBDIR/libcollide2d.so and
-- run, and must exit 0 (its output is shown as "#" lines). Any other block is a snippet: its lines
-- from a column-0 `static` definition to the column-0 `}` that closes it (the callbacks a snippet
-- defines) go at file scope, the rest in the body of a function returning int, and the whole after
-- spec/docs/prelude.h, which declares the context snippets take for granted (a `set`, a `world`, a
-- `player`, a `ball`, `dt`, the game's own functions...). Snippets are compiled with -fsyntax-only:
-- those with nothing at file scope first all in one translation unit, each in its own function (so
-- none can see another's names); when that is not clean, and for the others, each alone, so each is
-- reported by itself. `#line` directives make the compiler name lines of PAGE.
--
-- Prints "ok - PAGE example under HEADING (line N)" for each block that passes, or
-- "not ok - PAGE example under HEADING: FIRST ERROR LINE" (HEADING is the nearest heading above the
-- block, e.g. "### c2d_world_move"). $CC (default cc) is the compiler. Exits 1 when a block failed.
local page, workdir, libdir = arg[1], arg[2], arg[3]
if not (page and workdir and libdir) then
    io.stderr:write("usage: lua5.4 spec/docs/c_examples.lua PAGE WORKDIR LIBDIR\n")
    os.exit(2)
end
local cc = os.getenv("CC")
if cc == nil or cc == "" then cc = "cc" end
local cflags = "-std=c99 -Wall -Werror=implicit-function-declaration -Werror=incompatible-pointer-types"
    .. " -Werror=int-conversion -Iinclude"
-- Beyond those errors, any other warning fails a block too (a printf format that does not fit its
-- argument, say), except, in snippets, a variable left unused: a snippet often ends with the value it
-- shows how to get.
local program_flags = cflags .. " -Werror"
local snippet_flags = cflags .. " -Werror -Wno-unused-variable -Wno-unused-but-set-variable -fsyntax-only -I."
local prelude = "spec/docs/prelude.h"

local function q(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function write(path, text)
    local f = assert(io.open(path, "w"))
    f:write(text)
    f:close()
end

-- Runs a shell command; its output (stdout and stderr) and whether it exited 0.
local function run(cmd)
    local p = assert(io.popen(cmd .. " 2>&1"))
    local out = p:read("a")
    local ok, how, code = p:close()
    return out, ok == true, how, code
end

-- The line of a compiler's output that says what went wrong first.
local function first_error(out)
    for line in out:gmatch("[^\n]+") do
        if line:find("error:", 1, true) then return line end
    end
    return out:match("[^\n]+") or "no output"
end

-- The blocks: { line = first line of code, heading = ..., lines = {...}, program = bool }.
local blocks, heading, cur, n = {}, "(top of the page)", nil, 0
local fence_open = nil -- the language of a fenced block that is not C, while inside one
for line in io.lines(page) do
    n = n + 1
    if cur then
        if line:match("^```%s*$") then
            blocks[#blocks + 1] = cur
            cur = nil
        else
            cur.lines[#cur.lines + 1] = line
            if line:match("^int%s+main%s*%(") then cur.program = true end
        end
    elseif fence_open then
        if line:match("^```%s*$") then fence_open = nil end
    elseif line:match("^```c%s*$") then
        cur = { line = n + 1, heading = heading, lines = {}, program = false }
    elseif line:match("^```") then
        fence_open = line
    elseif line:match("^#+%s") then
        heading = line
    end
end

local passed, failed = 0, 0
local function ok(b, note)
    passed = passed + 1
    print(("ok - %s example under %s (line %d%s)"):format(page, b.heading, b.line - 1, note or ""))
end
local function not_ok(b, why, out)
    failed = failed + 1
    print(("not ok - %s example under %s: %s"):format(page, b.heading, why))
    local shown = 0
    for line in (out or ""):gmatch("[^\n]+") do
        shown = shown + 1
        if shown > 20 then print("#   ...") break end
        print("#   " .. line)
    end
end

if cur then
    not_ok(cur, ("the ```c block that opens at line %d is never closed"):format(cur.line - 1))
end
if #blocks == 0 and not cur then
    print(("not ok - %s has no ```c block"):format(page))
    os.exit(1)
end

-- A snippet as C: its file-scope definitions, then a function example_K holding the rest.
local function snippet_source(b, k)
    local top, body = {}, {}
    local inside = false
    for j, line in ipairs(b.lines) do
        local at = ('#line %d "%s"'):format(b.line + j - 1, page)
        if inside or line:match("^static%s") or line:match("^#") then
            top[#top + 1] = at
            top[#top + 1] = line
            if line:match("^static%s") and not line:match(";%s*$") then inside = true end
            if inside and line:match("^}") then inside = false end
        else
            body[#body + 1] = at
            body[#body + 1] = line
        end
    end
    return table.concat(top, "\n") .. "\n" .. ("int example_%d(void)\n{\n"):format(k)
        .. table.concat(body, "\n") .. ('\n#line 1 "(the wrapper of %s line %d)"\n'):format(page, b.line - 1)
        .. "    return 0;\n}\n", #top > 0
end

os.execute("mkdir -p " .. q(workdir))
local head = ('#include "%s"\n'):format(prelude)
local snippets, batched = {}, {}
for k, b in ipairs(blocks) do
    if not b.program then
        snippets[#snippets + 1] = k
        -- A snippet with nothing at file scope cannot change how another compiles: those go together.
        local src, has_top = snippet_source(b, k)
        if not has_top then batched[#batched + 1] = { k = k, src = src } end
    end
end

-- The batched snippets in one translation unit first: one compiler run when they are all clean.
local all_clean = false
if #batched > 0 then
    local parts = { head }
    for _, s in ipairs(batched) do
        parts[#parts + 1] = s.src
        blocks[s.k].batched = true
    end
    local file = workdir .. "/all.c"
    write(file, table.concat(parts, "\n"))
    local out, good = run(("%s %s %s"):format(cc, snippet_flags, q(file)))
    all_clean = good
    if good then
        for line in out:gmatch("[^\n]+") do print("# " .. line) end
    end
end

for k, b in ipairs(blocks) do
    if b.program then
        local src = workdir .. ("/example_%d.c"):format(k)
        local exe = workdir .. ("/example_%d"):format(k)
        write(src, ('#line %d "%s"\n'):format(b.line, page) .. table.concat(b.lines, "\n") .. "\n")
        local out, good = run(("%s %s -o %s %s -L%s -Wl,-rpath,%s -lcollide2d -lm"):format(
            cc, program_flags, q(exe), q(src), q(libdir), q(libdir)))
        if not good then
            not_ok(b, first_error(out), out)
        else
            for line in out:gmatch("[^\n]+") do print("# " .. line) end
            local res, ran, how, code = run(q(exe))
            for line in res:gmatch("[^\n]+") do print("#   " .. line) end
            if ran then ok(b, ", a program: built and ran") else not_ok(b, ("the program ended by %s %s"):format(how, code)) end
        end
    elseif all_clean and b.batched then
        ok(b)
    else
        local src = workdir .. ("/example_%d.c"):format(k)
        write(src, head .. (snippet_source(b, k)))
        local out, good = run(("%s %s %s"):format(cc, snippet_flags, q(src)))
        if good then
            for line in out:gmatch("[^\n]+") do print("# " .. line) end
            ok(b)
        else
            not_ok(b, first_error(out), out)
        end
    end
end
print(("# %d C blocks in %s: %d snippets, %d programs"):format(#blocks, page, #snippets, #blocks - #snippets))
os.exit(failed == 0 and 0 or 1)
