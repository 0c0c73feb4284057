# collide2d: build, test, install. `make` builds the libraries; `make test` runs the whole suite and
# ends with one line "N passed, N failed"; `make demo` builds everything and runs the demonstration.
# Extra targets live in mk/*.mk, one file per concern (Lua module, benchmarks, ...).

VERSION_MAJOR := 1
VERSION_MINOR := 0
VERSION_PATCH := 0
VERSION       := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
CXX     ?= c++
BUILD   ?= build

WARN    := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes
# No contraction of a * b + c into a fused multiply-add, which rounds differently: results must be the
# same bits on every platform. GCC already refrains under -std=c99, clang does not (see src/trig.c).
CSTD    := -std=c99 -D_POSIX_C_SOURCE=200809L -ffp-contract=off
OPT     ?= -O2
CFLAGS_LIB := $(CSTD) $(OPT) -g -fPIC -fvisibility=hidden -DC2D_BUILD $(WARN) -Iinclude -Isrc

SRCS    := $(sort $(wildcard src/*.c))
HDRS    := include/collide2d.h $(wildcard src/*.h)
OBJS    := $(SRCS:src/%.c=$(BUILD)/obj/%.o)

# The shared library's name and link flags depend on the platform's linker: -soname, the version
# script and -z defs are GNU ld's (Linux, the BSDs); Apple's ld64 takes an install name instead,
# refuses undefined symbols by default, and has no symbol versions (-fvisibility=hidden already leaves
# only the C2D_API functions exported). macOS is not tested here (make macos cross-builds it with
# mk/macos.mk's toolchain): see docs/platforms.md.
UNAME_S := $(shell uname -s 2>/dev/null)
ifeq ($(UNAME_S),Darwin)
SONAME  := libcollide2d.$(VERSION_MAJOR).dylib
SHLIB   := $(BUILD)/libcollide2d.$(VERSION).dylib
SHLIB_DEV := libcollide2d.dylib
SHLIB_LDFLAGS := -dynamiclib -install_name @rpath/$(SONAME) \
    -compatibility_version $(VERSION_MAJOR) -current_version $(VERSION)
else
SONAME  := libcollide2d.so.$(VERSION_MAJOR)
SHLIB   := $(BUILD)/libcollide2d.so.$(VERSION)
SHLIB_DEV := libcollide2d.so
SHLIB_LDFLAGS := -shared -Wl,-soname,$(SONAME) -Wl,--version-script=src/collide2d.map -Wl,-z,defs
endif
STLIB   := $(BUILD)/libcollide2d.a
PCFILE  := $(BUILD)/collide2d.pc

.PHONY: all deps test demo clean install uninstall
all: $(SHLIB) $(STLIB) $(PCFILE)

deps:
	@sh scripts/deps.sh

$(BUILD)/obj/%.o: src/%.c $(HDRS) | $(BUILD)/obj
	$(CC) $(CFLAGS_LIB) -c $< -o $@

$(BUILD)/obj:
	mkdir -p $@

$(SHLIB): $(OBJS) src/collide2d.map
	$(CC) $(SHLIB_LDFLAGS) -o $@ $(OBJS) -lm
	ln -sf $(notdir $(SHLIB)) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/$(SHLIB_DEV)

$(STLIB): $(OBJS)
	rm -f $@
	ar rcs $@ $(OBJS)

$(PCFILE): scripts/collide2d.pc.in Makefile | $(BUILD)/obj
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' $< > $@

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/collide2d.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 $(SHLIB) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(notdir $(SHLIB)) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/$(SHLIB_DEV)
	install -m 644 $(STLIB) $(DESTDIR)$(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' scripts/collide2d.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/collide2d.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/include/collide2d.h $(DESTDIR)$(PREFIX)/lib/libcollide2d.* \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig/collide2d.pc

# ---- C tests: one binary from spec/c (C and C++ files), built plain and with ASan+UBSan ----------
TEST_CSRCS   := $(sort $(wildcard spec/c/*.c))
TEST_CXXSRCS := $(sort $(wildcard spec/c/*.cpp))
TEST_HDRS    := $(wildcard spec/c/*.h)
TEST_CFLAGS  := -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -g $(WARN) -Wno-missing-prototypes -Iinclude -Isrc -Ispec/c
TEST_CXXFLAGS := -O2 -g -Wall -Wextra -Iinclude -Isrc -Ispec/c
SAN          := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

TEST_OBJS      := $(TEST_CSRCS:spec/c/%.c=$(BUILD)/test/%.o) $(TEST_CXXSRCS:spec/c/%.cpp=$(BUILD)/test/%.o)
TEST_ASAN_OBJS := $(TEST_OBJS:$(BUILD)/test/%=$(BUILD)/test-asan/%) $(SRCS:src/%.c=$(BUILD)/test-asan/lib_%.o)

$(BUILD)/test/%.o: spec/c/%.c $(TEST_HDRS) include/collide2d.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -c $< -o $@
$(BUILD)/test/%.o: spec/c/%.cpp $(TEST_HDRS) include/collide2d.h
	@mkdir -p $(@D)
	$(CXX) $(TEST_CXXFLAGS) -c $< -o $@

# Private modules with tests of their own (spec/c/test_trig.c calls c2d_sincos, test_decompose.c
# c2d_decompose, which needs c2d_orient), which the shared library hides: compiled into the plain test
# binary as well, with the library's flags.
TEST_PRIVATE_OBJS := $(BUILD)/test/lib_trig.o $(BUILD)/test/lib_decompose.o $(BUILD)/test/lib_predicates.o
$(BUILD)/test/lib_%.o: src/%.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_LIB) -c $< -o $@

# The plain test binary links the shared library, as users do.
$(BUILD)/test_c: $(TEST_OBJS) $(TEST_PRIVATE_OBJS) $(SHLIB)
	$(CXX) -o $@ $(TEST_OBJS) $(TEST_PRIVATE_OBJS) -L$(BUILD) -Wl,-rpath,'$$ORIGIN' -lcollide2d -lbox2d -lgmp -lm

# The sanitised binary compiles the library sources in, so the library itself is instrumented.
$(BUILD)/test-asan/%.o: spec/c/%.c $(TEST_HDRS) include/collide2d.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $(SAN) -DC2D_STATIC -c $< -o $@
$(BUILD)/test-asan/%.o: spec/c/%.cpp $(TEST_HDRS) include/collide2d.h
	@mkdir -p $(@D)
	$(CXX) $(TEST_CXXFLAGS) $(SAN) -DC2D_STATIC -c $< -o $@
$(BUILD)/test-asan/lib_%.o: src/%.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(CSTD) -O1 -g $(WARN) -Iinclude -Isrc $(SAN) -DC2D_STATIC -c $< -o $@
$(BUILD)/test_c_asan: $(TEST_ASAN_OBJS)
	$(CXX) $(SAN) -o $@ $(TEST_ASAN_OBJS) -lbox2d -lgmp -lm

test: deps all
	@sh spec/run.sh

demo: deps all
	@$(MAKE) --no-print-directory demo-run

clean:
	rm -rf $(BUILD)

-include $(sort $(wildcard mk/*.mk))
