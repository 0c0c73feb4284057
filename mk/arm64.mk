# mk/arm64.mk - Linux on ARM64 (aarch64), cross-compiled with Debian's gcc-aarch64-linux-gnu (and
# libc6-dev-arm64-cross), and what spec/suites/43-arm64.sh runs under qemu-user's qemu-aarch64. Nothing
# here needs an ARM64 machine, binfmt_misc, or dpkg's multiarch: the cross toolchain brings the ARM64
# C library (/usr/aarch64-linux-gnu), and `qemu-aarch64 -L /usr/aarch64-linux-gnu` runs a dynamically
# linked ARM64 program against it. Everything lands in $(BUILD)/arm64/:
#   make arm64        what a release ships (make dist-arm64: $(BUILD)/dist/linux-aarch64/):
#                       libcollide2d.so.1.0.0   the C library, SONAME libcollide2d.so.1 (with its symlinks),
#                                               exporting exactly what the x86_64 .so exports
#                       libcollide2d.a          the static library
#                       lua51/collide2d.so      the Lua module for LÖVE 11, LuaJIT and PUC Lua 5.1
#                       lua54/collide2d.so      the Lua module for Lua 5.4
#                     Built with the host's flags (-ffp-contract=off among them), the modules against the
#                     same Debian Lua headers as the host's modules (liblua5.1-0-dev, liblua5.4-dev).
#   make arm64-lua    ARM64 interpreters to test the modules in (not shipped): PUC Lua 5.1 (lua5.1/lua),
#                     Lua 5.4 (lua5.4/lua) and LuaJIT 2.1 (luajit/luajit), built from Debian's source
#                     packages (`apt-get source`, the way mk/windows.mk gets them; scripts/deps.sh adds the
#                     deb-src entry), unpacked into $(BUILD)/arm64-src/ and kept there.
#   make arm64-tests  test/test_c: the C tests (spec/c/, all but the Box2D cross-check), linked -static
#                     against libcollide2d.a and a GMP cross-built from Debian's gmp source package (for
#                     the exact-rational judges of test_degenerate.c and test_decompose.c);
#                     test/cases: spec/windows/cases.c, linked against libcollide2d.so.

ARM_TRIPLET := aarch64-linux-gnu
ARM_CC      := $(ARM_TRIPLET)-gcc
ARM_SYSROOT := /usr/$(ARM_TRIPLET)
ARM_DIR     := $(BUILD)/arm64
ARM_SRC     := $(BUILD)/arm64-src
ARM_OBJS    := $(SRCS:src/%.c=$(ARM_DIR)/obj/%.o)
ARM_SHLIB   := $(ARM_DIR)/libcollide2d.so.$(VERSION)
ARM_SONAME  := libcollide2d.so.$(VERSION_MAJOR)
ARM_STLIB   := $(ARM_DIR)/libcollide2d.a
# The module's sources and headers as mk/lua.mk names them (LUA_MOD_SRCS, LUA_MOD_HDRS): that file is
# read after this one, and a prerequisite list is expanded as it is read.
ARM_MOD_SRCS := $(sort $(wildcard lua/*.c)) $(SRCS)
ARM_MOD_HDRS := $(sort $(wildcard lua/*.h) lua/ffi_chunk.h) $(HDRS)
# Debian's luaconf.h includes lua5.x-deb-multiarch.h (the multiarch triplet of its C module path), which
# the host's copy defines for x86_64 in an include directory the cross compiler does not search.
ARM_DEB_INC := $(ARM_DIR)/deb-include
# The build tools of LuaJIT and GMP run their own make; at most two jobs (a 2-core machine).
ARM_JOBS    := 2

.PHONY: arm64 arm64-lua arm64-tests dist-arm64 $(ARM_DIR)/.toolchain
arm64: $(ARM_SHLIB) $(ARM_STLIB) $(ARM_DIR)/lua51/collide2d.so $(ARM_DIR)/lua54/collide2d.so

$(ARM_DIR)/.toolchain:
	@command -v $(ARM_CC) >/dev/null 2>&1 && [ -f $(ARM_SYSROOT)/include/stdio.h ] || \
	    { echo "arm64: $(ARM_CC) or its C library not found; run as root: apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross" >&2; exit 1; }

$(ARM_DIR)/obj/%.o: src/%.c $(HDRS) | $(ARM_DIR)/.toolchain
	@mkdir -p $(@D)
	$(ARM_CC) $(CFLAGS_LIB) -c $< -o $@

# GNU ld's flags, as the Makefile gives them on Linux.
$(ARM_SHLIB): $(ARM_OBJS) src/collide2d.map
	$(ARM_CC) -shared -Wl,-soname,$(ARM_SONAME) -Wl,--version-script=src/collide2d.map -Wl,-z,defs \
	    -o $@ $(ARM_OBJS) -lm
	ln -sf $(notdir $@) $(ARM_DIR)/$(ARM_SONAME)
	ln -sf $(ARM_SONAME) $(ARM_DIR)/libcollide2d.so

$(ARM_STLIB): $(ARM_OBJS)
	rm -f $@
	$(ARM_TRIPLET)-ar rcs $@ $(ARM_OBJS)

$(ARM_DEB_INC)/%-deb-multiarch.h:
	@mkdir -p $(@D)
	printf '#define DEB_HOST_MULTIARCH "$(ARM_TRIPLET)"\n' > $@

# As mk/lua.mk builds the host's: the core compiled in, luaopen_collide2d the only export, no Lua
# library linked (the interpreter provides the API).
$(ARM_DIR)/lua51/collide2d.so: $(ARM_MOD_SRCS) $(ARM_MOD_HDRS) $(ARM_DEB_INC)/lua5.1-deb-multiarch.h | $(ARM_DIR)/.toolchain
	@test -n "$(LUA51_CFLAGS)" || { echo "arm64: Lua 5.1 headers not found; apt-get install liblua5.1-0-dev pkg-config" >&2; exit 1; }
	@mkdir -p $(@D)
	$(ARM_CC) $(LUA_MOD_CFLAGS) $(LUA51_CFLAGS) -I$(ARM_DEB_INC) -shared -o $@ $(ARM_MOD_SRCS) -lm

$(ARM_DIR)/lua54/collide2d.so: $(ARM_MOD_SRCS) $(ARM_MOD_HDRS) $(ARM_DEB_INC)/lua5.4-deb-multiarch.h | $(ARM_DIR)/.toolchain
	@test -n "$(LUA54_CFLAGS)" || { echo "arm64: Lua 5.4 headers not found; apt-get install liblua5.4-dev pkg-config" >&2; exit 1; }
	@mkdir -p $(@D)
	$(ARM_CC) $(LUA_MOD_CFLAGS) $(LUA54_CFLAGS) -I$(ARM_DEB_INC) -shared -o $@ $(ARM_MOD_SRCS) -lm

# ---- Debian's source packages, unpacked into $(ARM_SRC)/ once ------------------------------------
# $(1): the source package, $(2): where it goes (apt-get source names the directory after the version).
# Its own fetch directory, so that it can run beside mk/windows.mk's fetch of the same package.
define ARM_FETCH
	@command -v apt-get >/dev/null 2>&1 && command -v dpkg-source >/dev/null 2>&1 || \
	    { echo "arm64: apt-get source needs apt and dpkg-dev (apt-get install dpkg-dev)" >&2; exit 1; }
	@rm -rf $(ARM_SRC)/fetch-$(1) $(2) && mkdir -p $(ARM_SRC)/fetch-$(1)
	@echo "arm64: apt-get source $(1) (Debian's source package, into $(2))"
	@cd $(ARM_SRC)/fetch-$(1) && apt-get source -qq $(1) > ../apt-source-$(1).log 2>&1 || \
	    { cat ../apt-source-$(1).log >&2; echo "arm64: apt-get source $(1) failed; is there a deb-src entry? (scripts/deps.sh adds one as root)" >&2; exit 1; }
	@mv $(ARM_SRC)/fetch-$(1)/$(1)-*/ $(2) && rm -rf $(ARM_SRC)/fetch-$(1)
	@touch $@
endef

$(ARM_SRC)/lua5.1/src/lua.h:
	$(call ARM_FETCH,lua5.1,$(ARM_SRC)/lua5.1)
$(ARM_SRC)/lua5.4/src/lua.h:
	$(call ARM_FETCH,lua5.4,$(ARM_SRC)/lua5.4)
$(ARM_SRC)/luajit/src/luajit.h:
	$(call ARM_FETCH,luajit,$(ARM_SRC)/luajit)
$(ARM_SRC)/gmp/gmp-h.in:
	$(call ARM_FETCH,gmp,$(ARM_SRC)/gmp)

# ---- the ARM64 interpreters (make arm64-lua) -------------------------------------------------------
# PUC Lua as its own Makefile builds it for Linux (-O2, the C module loader through dlopen, the API
# exported to the modules with -Wl,-E), without readline (no ARM64 readline here; the tests need none).
ARM_LUA51_CORE := lapi lcode ldebug ldo ldump lfunc lgc llex lmem lobject lopcodes lparser lstate \
                  lstring ltable ltm lundump lvm lzio lauxlib lbaselib ldblib liolib lmathlib loslib \
                  ltablib lstrlib loadlib linit
ARM_LUA54_CORE := lapi lcode lctype ldebug ldo ldump lfunc lgc llex lmem lobject lopcodes lparser lstate \
                  lstring ltable ltm lundump lvm lzio lauxlib lbaselib lcorolib ldblib liolib lmathlib \
                  loadlib loslib lstrlib ltablib lutf8lib linit

$(ARM_DIR)/lua5.1/lua: $(ARM_SRC)/lua5.1/src/lua.h $(ARM_DEB_INC)/lua5.1-deb-multiarch.h | $(ARM_DIR)/.toolchain
	@mkdir -p $(@D)
	$(ARM_CC) -O2 -DLUA_USE_POSIX -DLUA_USE_DLOPEN -I$(ARM_DEB_INC) -Wl,-E -o $@ \
	    $(ARM_LUA51_CORE:%=$(ARM_SRC)/lua5.1/src/%.c) $(ARM_SRC)/lua5.1/src/lua.c -ldl -lm

$(ARM_DIR)/lua5.4/lua: $(ARM_SRC)/lua5.4/src/lua.h $(ARM_DEB_INC)/lua5.4-deb-multiarch.h | $(ARM_DIR)/.toolchain
	@mkdir -p $(@D)
	$(ARM_CC) -O2 -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -I$(ARM_DEB_INC) -Wl,-E -o $@ \
	    $(ARM_LUA54_CORE:%=$(ARM_SRC)/lua5.4/src/%.c) $(ARM_SRC)/lua5.4/src/lua.c -ldl -lm

# LuaJIT cross-built as it documents (a host compiler for its build tools, the cross one for the target);
# MAKEFLAGS cleared so that this build's variables, such as CC, do not reach LuaJIT's Makefile. The
# luajit executable has the VM linked in and exports its API (-Wl,-E) to the modules it loads.
$(ARM_DIR)/luajit/luajit: $(ARM_SRC)/luajit/src/luajit.h | $(ARM_DIR)/.toolchain
	MAKEFLAGS= $(MAKE) -j$(ARM_JOBS) -C $(ARM_SRC)/luajit HOST_CC="$(CC)" CROSS=$(ARM_TRIPLET)- TARGET_SYS=Linux \
	    > $(ARM_SRC)/luajit-build.log 2>&1 || { tail -n 30 $(ARM_SRC)/luajit-build.log >&2; exit 1; }
	@mkdir -p $(@D)
	cp $(ARM_SRC)/luajit/src/luajit $@

arm64-lua: $(ARM_DIR)/lua5.1/lua $(ARM_DIR)/lua5.4/lua $(ARM_DIR)/luajit/luajit

# ---- the test programs (make arm64-tests) ----------------------------------------------------------
# GMP for ARM64, static, for the tests that judge answers with exact rationals (spec/c/exact.h).
# Debian's source drops GMP's manual (not free) and removes doc/ from the build with a patch to
# Makefile.am applied by autoreconf; here the generated files are given the same change instead (a
# stand-in doc/Makefile.in for configure, doc/ out of SUBDIRS), so no autotools are needed. Its
# configure needs m4.
ARM_GMP := $(ARM_DIR)/gmp
$(ARM_GMP)/lib/libgmp.a: $(ARM_SRC)/gmp/gmp-h.in | $(ARM_DIR)/.toolchain
	@command -v m4 >/dev/null 2>&1 || { echo "arm64: GMP's configure needs m4; apt-get install m4" >&2; exit 1; }
	mkdir -p $(ARM_SRC)/gmp/doc && touch $(ARM_SRC)/gmp/doc/Makefile.in
	sed -i '/^SUBDIRS = /s/ doc$$//' $(ARM_SRC)/gmp/Makefile.in
	cd $(ARM_SRC)/gmp && MAKEFLAGS= ./configure --host=$(ARM_TRIPLET) --disable-shared --enable-static \
	    --prefix="$(abspath $(ARM_GMP))" CC=$(ARM_CC) > ../gmp-build.log 2>&1 && \
	    MAKEFLAGS= $(MAKE) -j$(ARM_JOBS) >> ../gmp-build.log 2>&1 && MAKEFLAGS= $(MAKE) install >> ../gmp-build.log 2>&1 || \
	    { tail -n 30 ../gmp-build.log >&2; exit 1; }

ARM_TEST_DIR  := $(ARM_DIR)/test
ARM_TEST_OBJS := $(TEST_CSRCS:spec/c/%.c=$(ARM_TEST_DIR)/obj/%.o)
# The private modules some tests call (TEST_PRIVATE_OBJS in the Makefile): the library's own objects,
# compiled with the same flags as there.
ARM_TEST_PRIVATE := $(TEST_PRIVATE_OBJS:$(BUILD)/test/lib_%.o=$(ARM_DIR)/obj/%.o)

$(ARM_TEST_DIR)/obj/%.o: spec/c/%.c $(TEST_HDRS) include/collide2d.h | $(ARM_DIR)/.toolchain
	@mkdir -p $(@D)
	$(ARM_CC) $(TEST_CFLAGS) -I$(ARM_GMP)/include -c $< -o $@
$(ARM_TEST_DIR)/obj/test_degenerate.o $(ARM_TEST_DIR)/obj/test_decompose.o: $(ARM_GMP)/lib/libgmp.a

# Static: qemu-aarch64 runs it with no ARM64 C library around.
$(ARM_TEST_DIR)/test_c: $(ARM_TEST_OBJS) $(ARM_TEST_PRIVATE) $(ARM_STLIB) $(ARM_GMP)/lib/libgmp.a
	$(ARM_CC) -static -o $@ $(ARM_TEST_OBJS) $(ARM_TEST_PRIVATE) $(ARM_STLIB) $(ARM_GMP)/lib/libgmp.a -lm

# Against the shared library, found beside it through its RUNPATH, as a user's program finds it.
$(ARM_TEST_DIR)/cases: spec/windows/cases.c include/collide2d.h $(ARM_SHLIB) | $(ARM_DIR)/.toolchain
	@mkdir -p $(@D)
	$(ARM_CC) $(CSTD) -O2 $(WARN) -Iinclude -o $@ $< -L$(ARM_DIR) -Wl,-rpath,'$$ORIGIN/..' -lcollide2d

arm64-tests: $(ARM_TEST_DIR)/test_c $(ARM_TEST_DIR)/cases

# ---- make dist: $(BUILD)/dist/linux-aarch64/, laid out as the host's linux-x86_64/ ----------------
# (On an ARM64 machine the host's own folder has that name: dist-host makes it there.)
ARM_DIST := $(BUILD)/dist/linux-aarch64
dist-arm64: arm64
	@rm -rf $(ARM_DIST)
	@mkdir -p $(ARM_DIST)/include $(ARM_DIST)/lib/pkgconfig $(ARM_DIST)/lua51 $(ARM_DIST)/lua54
	cp include/collide2d.h $(ARM_DIST)/include/
	cp $(ARM_SHLIB) $(ARM_STLIB) $(ARM_DIST)/lib/
	ln -sf $(notdir $(ARM_SHLIB)) $(ARM_DIST)/lib/$(ARM_SONAME)
	ln -sf $(ARM_SONAME) $(ARM_DIST)/lib/libcollide2d.so
	$(DIST_PC) > $(ARM_DIST)/lib/pkgconfig/collide2d.pc
	cp $(ARM_DIR)/lua51/collide2d.so $(ARM_DIST)/lua51/
	cp $(ARM_DIR)/lua54/collide2d.so $(ARM_DIST)/lua54/
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@PLATFORM@|linux-aarch64|g' scripts/dist/README-linux.md \
	    > $(ARM_DIST)/README.md
	@echo "dist: linux-aarch64 in $(BUILD)/dist/"

ifneq ($(UNAME_S)-$(shell uname -m),Linux-aarch64)
dist: dist-arm64
# The loader goes into every folder (mk/dist.mk), this one too.
dist-loader: dist-arm64
endif
