# mk/lua.mk - the Lua module: the binding (lua/*.c) built twice with the core compiled in, each time by
# one compiler command.
#   $(BUILD)/lua54/collide2d.so  against Lua 5.4 headers
#   $(BUILD)/lua51/collide2d.so  against PUC Lua 5.1 headers: loads in PUC Lua 5.1, LuaJIT and LÖVE 11
# Neither links a Lua library (the interpreter that loads the module provides the Lua API), and each
# is self-contained: hidden visibility leaves luaopen_collide2d as the only exported symbol, so a game
# needs nothing but the one .so. `make lua` builds both; the Lua suites (spec/suites/3*) build what
# they test, so `make` alone never needs Lua installed.

LUA54_CFLAGS = $(shell pkg-config --cflags lua5.4 2>/dev/null)
LUA51_CFLAGS = $(shell pkg-config --cflags lua5.1 2>/dev/null)
LUA_MOD_CFLAGS = $(CSTD) $(OPT) -g -fPIC -fvisibility=hidden -DC2D_STATIC $(WARN) -Iinclude -Isrc
LUA_MOD_SRCS = $(sort $(wildcard lua/*.c)) $(SRCS)
LUA_MOD_HDRS = $(sort $(wildcard lua/*.h) lua/ffi_chunk.h) $(HDRS)
# A Lua C module leaves the lua_* functions to the interpreter that loads it: GNU ld allows that in a
# shared object by default; on macOS the module is a bundle told to look them up at load time.
ifeq ($(UNAME_S),Darwin)
LUA_MOD_LDFLAGS = -bundle -undefined dynamic_lookup
else
LUA_MOD_LDFLAGS = -shared
endif
LUA_MODULES = $(BUILD)/lua54/collide2d.so $(BUILD)/lua51/collide2d.so

.PHONY: lua bench-lua
lua: $(LUA_MODULES)

# The Lua side of the LuaJIT fast path, lua/ffi.lua, is compiled in as a string constant. The generated
# header is committed too, since luarocks' builtin build compiles the sources without running make;
# spec/suites/38-rockspec.sh checks that it is what lua/ffi.lua gives.
lua/ffi_chunk.h: lua/ffi.lua scripts/lua2c.awk
	awk -v name=ffi_chunk -f scripts/lua2c.awk lua/ffi.lua > $@.tmp && mv $@.tmp $@

# pkg-config answers nothing when the headers are missing; say which package to install.
$(BUILD)/lua54/collide2d.so: $(LUA_MOD_SRCS) $(LUA_MOD_HDRS)
	@test -n "$(LUA54_CFLAGS)" || { echo "lua: Lua 5.4 headers not found; apt-get install liblua5.4-dev pkg-config" >&2; exit 1; }
	@mkdir -p $(@D)
	$(CC) $(LUA_MOD_CFLAGS) $(LUA54_CFLAGS) $(LUA_MOD_LDFLAGS) -o $@ $(LUA_MOD_SRCS) -lm

$(BUILD)/lua51/collide2d.so: $(LUA_MOD_SRCS) $(LUA_MOD_HDRS)
	@test -n "$(LUA51_CFLAGS)" || { echo "lua: Lua 5.1 headers not found; apt-get install liblua5.1-0-dev pkg-config" >&2; exit 1; }
	@mkdir -p $(@D)
	$(CC) $(LUA_MOD_CFLAGS) $(LUA51_CFLAGS) $(LUA_MOD_LDFLAGS) -o $@ $(LUA_MOD_SRCS) -lm

# The Lua 5.4 module with AddressSanitizer and UBSan, core included, for spec/suites/33-lua-asan.sh:
# the interpreter is not instrumented, so the suite preloads the sanitizer runtimes.
LUA_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
$(BUILD)/lua54-asan/collide2d.so: $(LUA_MOD_SRCS) $(LUA_MOD_HDRS)
	@test -n "$(LUA54_CFLAGS)" || { echo "lua: Lua 5.4 headers not found; apt-get install liblua5.4-dev pkg-config" >&2; exit 1; }
	@mkdir -p $(@D)
	$(CC) $(subst $(OPT),-O1,$(LUA_MOD_CFLAGS)) $(LUA_SAN) $(LUA54_CFLAGS) $(LUA_MOD_LDFLAGS) -o $@ $(LUA_MOD_SRCS) -lm

# The Lua 5.1 module likewise, for the random-operation tester under PUC Lua 5.1 and LuaJIT
# (spec/suites/34-lua-ops.sh). LuaJIT allocates its objects (userdata included) with its own
# allocator, out of the sanitizer's sight: there it watches the module's and the core's own memory.
$(BUILD)/lua51-asan/collide2d.so: $(LUA_MOD_SRCS) $(LUA_MOD_HDRS)
	@test -n "$(LUA51_CFLAGS)" || { echo "lua: Lua 5.1 headers not found; apt-get install liblua5.1-0-dev pkg-config" >&2; exit 1; }
	@mkdir -p $(@D)
	$(CC) $(subst $(OPT),-O1,$(LUA_MOD_CFLAGS)) $(LUA_SAN) $(LUA51_CFLAGS) $(LUA_MOD_LDFLAGS) -o $@ $(LUA_MOD_SRCS) -lm

# From Lua 5.4 and LuaJIT (bench/lua/): calls per second of overlaps and collide against a pure-Lua
# SAT (bench.lua), then microseconds per ball step and per slide move against a pure-Lua stepper and
# bump-style slide (bench_sweep.lua), milliseconds per frame of 1000 balls stepped at once
# (bench_balls.lua), and the shooter's frame with a world holding a level against the same game
# rebuilding each bullet's path (shooter.lua). All but bench_balls exit 1 when the two sides disagree. LuaJIT runs bench.lua
# twice: with the FFI fast path and with the C functions (COLLIDE2D_NO_FFI=1). BENCH_SECONDS scales
# them (bench-quick sets 0.02). $(BENCH_RUN), from mk/bench.mk, keeps them from timing alongside
# another benchmark.
bench-lua: $(LUA_MODULES)
	@echo "== Lua 5.4"
	@LUA_CPATH="$(abspath $(BUILD))/lua54/?.so" $(BENCH_RUN) lua5.4 bench/lua/bench.lua
	@LUA_CPATH="$(abspath $(BUILD))/lua54/?.so" $(BENCH_RUN) lua5.4 bench/lua/bench_sweep.lua
	@LUA_CPATH="$(abspath $(BUILD))/lua54/?.so" $(BENCH_RUN) lua5.4 bench/lua/bench_balls.lua
	@LUA_CPATH="$(abspath $(BUILD))/lua54/?.so" $(BENCH_RUN) lua5.4 bench/lua/shooter.lua
	@echo "== LuaJIT"
	@COLLIDE2D_NO_FFI= LUA_CPATH="$(abspath $(BUILD))/lua51/?.so" $(BENCH_RUN) luajit bench/lua/bench.lua
	@COLLIDE2D_NO_FFI= LUA_CPATH="$(abspath $(BUILD))/lua51/?.so" $(BENCH_RUN) luajit bench/lua/bench_sweep.lua
	@COLLIDE2D_NO_FFI= LUA_CPATH="$(abspath $(BUILD))/lua51/?.so" $(BENCH_RUN) luajit bench/lua/bench_balls.lua
	@COLLIDE2D_NO_FFI= LUA_CPATH="$(abspath $(BUILD))/lua51/?.so" $(BENCH_RUN) luajit bench/lua/shooter.lua
	@echo "== LuaJIT, COLLIDE2D_NO_FFI=1"
	@COLLIDE2D_NO_FFI=1 LUA_CPATH="$(abspath $(BUILD))/lua51/?.so" $(BENCH_RUN) luajit bench/lua/bench.lua

BENCH_TARGETS += bench-lua
