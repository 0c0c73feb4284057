# mk/windows.mk - the Windows builds, cross-compiled with Debian's mingw-w64 toolchain
# (gcc-mingw-w64-x86-64-win32, gcc-mingw-w64-i686-win32), and what spec/suites/40-windows.sh runs
# under Wine. Two different files are named collide2d.dll, so they live in different directories:
#   make windows   for 64-bit Windows, in $(BUILD)/windows/:
#                    collide2d.dll          the C library (exports exactly the c2d_* functions of the .so)
#                    libcollide2d.dll.a     its import library (mingw: -lcollide2d); collide2d.def, its
#                                           export list (MSVC: lib /def:collide2d.def /machine:x64)
#                    include/collide2d.h    the header
#                    lua51/collide2d.dll    the Lua module for LuaJIT and LÖVE 11: the core compiled in,
#                                           only luaopen_collide2d exported, linked against lua51.dll
#                  and the same for 32-bit Windows in $(BUILD)/windows-i686/.
#   make windows-lua    PUC Lua 5.1 for Windows (lua51.dll, lua.exe), built from Debian's source package
#                       of lua5.1 (`apt-get source`, needs a deb-src entry: scripts/deps.sh adds one)
#                       with the same cross compiler; it is what the module links against and what the
#                       suite runs it in. It stays in the build tree: later runs reuse it.
#                       Also LuaJIT for 64-bit Windows (luajit/luajit.exe and its lua51.dll, the runtime
#                       LÖVE ships), from Debian's luajit source package, to run the module as LÖVE does.
#   make windows-tests  the 64-bit test programs: the C tests (spec/c/ without the Box2D cross-check)
#                       and spec/windows/cases.c, linked against collide2d.dll
# Only what the header's export macro already does is Windows-specific: no other code path differs.
# The 32-bit builds use SSE2 arithmetic (-msse2 -mfpmath=sse), not the x87's 80-bit registers, so
# their doubles round as on x86_64; they are built and their exports checked, but not run (that would
# need Debian's i386 wine32).

WIN_ARCHS       := x86_64 i686
WIN_DIR_x86_64  := $(BUILD)/windows
WIN_DIR_i686    := $(BUILD)/windows-i686
WIN_ARCH_x86_64 :=
WIN_ARCH_i686   := -msse2 -mfpmath=sse
WIN_PKG_x86_64  := gcc-mingw-w64-x86-64-win32
WIN_PKG_i686    := gcc-mingw-w64-i686-win32
WIN_CFLAGS      := $(CSTD) $(OPT) $(WARN) -Iinclude -Isrc
# GCC's helper routines (on i686, __ctzdi2 for a 64-bit __builtin_ctzll, for one) come from libgcc; a
# mingw link takes them from libgcc_s_dw2-1.dll unless told otherwise, a DLL nobody ships beside a game.
# Linked in statically, the DLLs need nothing beyond Windows' own.
WIN_LDFLAGS     := -static-libgcc
# Debian's lua5.1 source, unpacked once for both architectures.
WIN_LUA_SRC     := $(BUILD)/windows-src/lua5.1
WIN_LUA_CORE    := lapi lcode ldebug ldo ldump lfunc lgc llex lmem lobject lopcodes lparser lstate \
                   lstring ltable ltm lundump lvm lzio lauxlib lbaselib ldblib liolib lmathlib loslib \
                   ltablib lstrlib loadlib linit
# Lua's own code, as its mingw target builds it (its warnings are upstream's, not shown).
WIN_LUA_CFLAGS  := -O2 -DLUA_BUILD_AS_DLL
# The module exports luaopen_collide2d and nothing else: with an EXPORTS list GNU ld exports only what
# it names (without one it would export every global symbol of the compiled-in core).
WIN_MOD_DEF     := $(BUILD)/windows-src/collide2d-lua.def

.PHONY: windows windows-lua windows-tests $(WIN_ARCHS:%=windows-%)
windows: $(WIN_ARCHS:%=windows-%)

# Debian's source package $(1), unpacked into $(2) (apt-get source names the directory after the version).
define WIN_FETCH
	@command -v apt-get >/dev/null 2>&1 && command -v dpkg-source >/dev/null 2>&1 || \
	    { echo "windows: apt-get source needs apt and dpkg-dev (apt-get install dpkg-dev)" >&2; exit 1; }
	@rm -rf $(BUILD)/windows-src/fetch-$(1) $(2) && mkdir -p $(BUILD)/windows-src/fetch-$(1)
	@echo "windows: apt-get source $(1) (Debian's source package, into $(2))"
	@cd $(BUILD)/windows-src/fetch-$(1) && apt-get source -qq $(1) > ../apt-source-$(1).log 2>&1 || \
	    { cat ../apt-source-$(1).log >&2; echo "windows: apt-get source $(1) failed; is there a deb-src entry? (scripts/deps.sh adds one as root)" >&2; exit 1; }
	@mv $(BUILD)/windows-src/fetch-$(1)/$(1)-*/ $(2) && rm -rf $(BUILD)/windows-src/fetch-$(1)
	@touch $@
endef

$(WIN_LUA_SRC)/src/lua.h:
	$(call WIN_FETCH,lua5.1,$(WIN_LUA_SRC))

$(WIN_MOD_DEF):
	@mkdir -p $(@D)
	@printf 'EXPORTS\n    luaopen_collide2d\n' > $@

# One set of rules per architecture: $(1) the architecture, $(2) its build directory.
define WIN_RULES
WIN_CC_$(1) := $(1)-w64-mingw32-gcc

.PHONY: $(2)/.toolchain
$(2)/.toolchain:
	@command -v $$(WIN_CC_$(1)) >/dev/null 2>&1 || \
	    { echo "windows: $$(WIN_CC_$(1)) not found; run as root: apt-get install $(WIN_PKG_$(1))" >&2; exit 1; }

$(2)/obj/%.o: src/%.c $(HDRS) | $(2)/.toolchain
	@mkdir -p $$(@D)
	$$(WIN_CC_$(1)) $$(WIN_CFLAGS) $(WIN_ARCH_$(1)) -DC2D_BUILD -c $$< -o $$@

# The import library and the export list come out of the same link.
$(2)/collide2d.dll: $(SRCS:src/%.c=$(2)/obj/%.o)
	$$(WIN_CC_$(1)) -shared $$(WIN_LDFLAGS) -o $$@ $$^ -Wl,--out-implib,$(2)/libcollide2d.dll.a \
	    -Wl,--output-def,$(2)/collide2d.def -lm

$(2)/include/collide2d.h: include/collide2d.h
	@mkdir -p $$(@D)
	cp $$< $$@

$(2)/lua5.1/lua51.dll: $(WIN_LUA_SRC)/src/lua.h | $(2)/.toolchain
	@mkdir -p $$(@D)
	$$(WIN_CC_$(1)) $$(WIN_LUA_CFLAGS) $(WIN_ARCH_$(1)) -shared -s -o $$@ \
	    $$(WIN_LUA_CORE:%=$(WIN_LUA_SRC)/src/%.c) -Wl,--out-implib,$(2)/lua5.1/liblua51.dll.a

$(2)/lua5.1/lua.exe: $(2)/lua5.1/lua51.dll
	$$(WIN_CC_$(1)) $$(WIN_LUA_CFLAGS) $(WIN_ARCH_$(1)) -s -o $$@ $(WIN_LUA_SRC)/src/lua.c \
	    -L$(2)/lua5.1 -llua51

# Against the headers of the same Lua 5.1 source and its lua51.dll: the module imports the Lua 5.1 C API
# by name from lua51.dll, which is the file (and API) LÖVE 11 and LuaJIT ship on Windows.
$(2)/lua51/collide2d.dll: $(LUA_MOD_SRCS) $(LUA_MOD_HDRS) $(2)/lua5.1/lua51.dll $(WIN_MOD_DEF)
	@mkdir -p $$(@D)
	$$(WIN_CC_$(1)) $$(WIN_CFLAGS) $(WIN_ARCH_$(1)) -DC2D_STATIC -I$(WIN_LUA_SRC)/src -shared $$(WIN_LDFLAGS) -o $$@ \
	    $(LUA_MOD_SRCS) $(WIN_MOD_DEF) -L$(2)/lua5.1 -llua51 -lm

windows-$(1): $(2)/collide2d.dll $(2)/include/collide2d.h $(2)/lua51/collide2d.dll
endef
$(foreach a,$(WIN_ARCHS),$(eval $(call WIN_RULES,$(a),$(WIN_DIR_$(a)))))

# LuaJIT for 64-bit Windows, the runtime LÖVE 11 ships (its lua51.dll), from Debian's luajit source
# package, cross-built as LuaJIT documents it (a host compiler for its build tools, the mingw-w64 one
# for the target; MAKEFLAGS is cleared so that this build's variables, such as CC, do not reach
# LuaJIT's Makefile). The suite runs the module in it, with the FFI fast path and without.
WIN_LUAJIT_SRC := $(BUILD)/windows-src/luajit
WIN_LUAJIT_DIR := $(WIN_DIR_x86_64)/luajit
WIN_JOBS       := $(shell nproc 2>/dev/null || echo 2)

$(WIN_LUAJIT_SRC)/src/luajit.h:
	$(call WIN_FETCH,luajit,$(WIN_LUAJIT_SRC))

$(WIN_LUAJIT_DIR)/luajit.exe: $(WIN_LUAJIT_SRC)/src/luajit.h | $(WIN_DIR_x86_64)/.toolchain
	MAKEFLAGS= $(MAKE) -j$(WIN_JOBS) -C $(WIN_LUAJIT_SRC) HOST_CC="$(CC)" CROSS=x86_64-w64-mingw32- TARGET_SYS=Windows \
	    BUILDMODE=dynamic > $(BUILD)/windows-src/luajit-build.log 2>&1 || \
	    { tail -n 30 $(BUILD)/windows-src/luajit-build.log >&2; exit 1; }
	@mkdir -p $(@D)
	cp $(WIN_LUAJIT_SRC)/src/lua51.dll $(@D)/
	cp $(WIN_LUAJIT_SRC)/src/luajit.exe $@

windows-lua: $(foreach a,$(WIN_ARCHS),$(WIN_DIR_$(a))/lua5.1/lua.exe) $(WIN_LUAJIT_DIR)/luajit.exe

# ---- the 64-bit test programs (spec/suites/40-windows.sh runs them under Wine) ---------------------
WIN_TEST_DIR   := $(WIN_DIR_x86_64)/test
# test_degenerate.c and test_decompose.c judge answers with GMP rationals, for which the cross toolchain
# has no library: they run in the Linux suites only.
WIN_TEST_CSRCS := $(filter-out spec/c/test_degenerate.c spec/c/test_decompose.c,$(TEST_CSRCS))
WIN_TEST_OBJS  := $(WIN_TEST_CSRCS:spec/c/%.c=$(WIN_TEST_DIR)/obj/%.o)

$(WIN_TEST_DIR)/obj/%.o: spec/c/%.c $(TEST_HDRS) include/collide2d.h | $(WIN_DIR_x86_64)/.toolchain
	@mkdir -p $(@D)
	$(WIN_CC_x86_64) $(TEST_CFLAGS) -c $< -o $@

# Each program sits beside a copy of the library DLL, as an application ships it: Windows looks for
# a DLL in the program's own directory first.
$(WIN_TEST_DIR)/collide2d.dll: $(WIN_DIR_x86_64)/collide2d.dll
	@mkdir -p $(@D)
	cp $< $@

# The private modules the tests call (see TEST_PRIVATE_OBJS in the Makefile), compiled in as there.
WIN_TEST_PRIVATE := $(TEST_PRIVATE_OBJS:$(BUILD)/test/lib_%.o=$(WIN_TEST_DIR)/obj/lib_%.o)
$(WIN_TEST_DIR)/obj/lib_%.o: src/%.c $(HDRS) | $(WIN_DIR_x86_64)/.toolchain
	@mkdir -p $(@D)
	$(WIN_CC_x86_64) $(WIN_CFLAGS) -DC2D_STATIC -c $< -o $@

$(WIN_TEST_DIR)/test_c.exe: $(WIN_TEST_OBJS) $(WIN_TEST_PRIVATE) $(WIN_DIR_x86_64)/collide2d.dll $(WIN_TEST_DIR)/collide2d.dll
	$(WIN_CC_x86_64) -o $@ $(WIN_TEST_OBJS) $(WIN_TEST_PRIVATE) -L$(WIN_DIR_x86_64) -lcollide2d -lm

$(WIN_TEST_DIR)/cases.exe: spec/windows/cases.c include/collide2d.h $(WIN_DIR_x86_64)/collide2d.dll $(WIN_TEST_DIR)/collide2d.dll
	$(WIN_CC_x86_64) $(CSTD) -O2 $(WARN) -Iinclude -o $@ $< -L$(WIN_DIR_x86_64) -lcollide2d

# The same cases program on this machine, linked against the shared library.
$(BUILD)/cases: spec/windows/cases.c include/collide2d.h $(SHLIB)
	$(CC) $(CSTD) -O2 $(WARN) -Iinclude -o $@ $< -L$(BUILD) -Wl,-rpath,'$$ORIGIN' -lcollide2d

windows-tests: $(WIN_TEST_DIR)/test_c.exe $(WIN_TEST_DIR)/cases.exe
