# mk/dist.mk - `make dist`: what a release ships, one directory per platform under $(BUILD)/dist/:
#   <host>/           this machine's build (linux-x86_64 here): the shared and static libraries with
#                     their symlinks, the header, a relocatable collide2d.pc, the Lua modules
#                     (lua51/ for LÖVE 11, LuaJIT and PUC Lua 5.1; lua54/) and a README
#   windows-x86_64/   from `make windows`: bin/collide2d.dll (the C library), lib/libcollide2d.dll.a,
#   windows-i686/     lib/collide2d.def, lib/pkgconfig/collide2d.pc, the header, lua51/collide2d.dll (the
#                     Lua module for LÖVE 11 and LuaJIT) and a README on shipping it with a LÖVE game
# The READMEs come from scripts/dist/. macOS is not built here (docs/platforms.md).

DIST      := $(BUILD)/dist
ifeq ($(UNAME_S),Darwin)
DIST_HOST := macos-$(shell uname -m)
else
DIST_HOST := $(shell uname -s | tr A-Z a-z)-$(shell uname -m)
endif
# The .pc files find their own directory, so an unpacked package works wherever it lands.
DIST_PC   = sed -e 's|@PREFIX@|$${pcfiledir}/../..|' -e 's|@VERSION@|$(VERSION)|' scripts/collide2d.pc.in

.PHONY: dist dist-host dist-windows
dist: dist-host dist-windows
	@echo "dist: $(DIST_HOST) $(WIN_ARCHS:%=windows-%) in $(DIST)/"

# The modules by name: mk/lua.mk, which sets LUA_MODULES, is read after this file, and a prerequisite
# list is expanded as it is read (the variable would still be empty here).
dist-host: all $(BUILD)/lua51/collide2d.so $(BUILD)/lua54/collide2d.so
	@rm -rf $(DIST)/$(DIST_HOST)
	@mkdir -p $(DIST)/$(DIST_HOST)/include $(DIST)/$(DIST_HOST)/lib/pkgconfig $(DIST)/$(DIST_HOST)/lua51 \
	    $(DIST)/$(DIST_HOST)/lua54
	cp include/collide2d.h $(DIST)/$(DIST_HOST)/include/
	cp $(SHLIB) $(STLIB) $(DIST)/$(DIST_HOST)/lib/
	ln -sf $(notdir $(SHLIB)) $(DIST)/$(DIST_HOST)/lib/$(SONAME)
	ln -sf $(SONAME) $(DIST)/$(DIST_HOST)/lib/$(SHLIB_DEV)
	$(DIST_PC) > $(DIST)/$(DIST_HOST)/lib/pkgconfig/collide2d.pc
	cp $(BUILD)/lua51/collide2d.so $(DIST)/$(DIST_HOST)/lua51/
	cp $(BUILD)/lua54/collide2d.so $(DIST)/$(DIST_HOST)/lua54/
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@PLATFORM@|$(DIST_HOST)|g' scripts/dist/README-linux.md \
	    > $(DIST)/$(DIST_HOST)/README.md

# $(1): the architecture, $(2): its build directory (passed as $$(WIN_DIR_...): mk/windows.mk, which
# sets it, is read after this file), $(3): MSVC's /machine name, $(4): a note for the README
define DIST_WINDOWS
dist-windows-$(1): windows-$(1)
	@rm -rf $(DIST)/windows-$(1)
	@mkdir -p $(DIST)/windows-$(1)/bin $(DIST)/windows-$(1)/include $(DIST)/windows-$(1)/lib/pkgconfig \
	    $(DIST)/windows-$(1)/lua51
	cp $(2)/collide2d.dll $(DIST)/windows-$(1)/bin/
	cp $(2)/libcollide2d.dll.a $(2)/collide2d.def $(DIST)/windows-$(1)/lib/
	cp include/collide2d.h $(DIST)/windows-$(1)/include/
	$$(DIST_PC) > $(DIST)/windows-$(1)/lib/pkgconfig/collide2d.pc
	cp $(2)/lua51/collide2d.dll $(DIST)/windows-$(1)/lua51/
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@PLATFORM@|windows-$(1)|g' -e 's|@MACHINE@|$(3)|g' \
	    -e 's|@BITS_NOTE@|$(4)|' scripts/dist/README-windows.md > $(DIST)/windows-$(1)/README.md
.PHONY: dist-windows-$(1)
dist-windows: dist-windows-$(1)
endef
$(eval $(call DIST_WINDOWS,x86_64,$$(WIN_DIR_x86_64),x64,For 64-bit Windows and 64-bit LÖVE. Its tests run under Wine on every `make test`.))
$(eval $(call DIST_WINDOWS,i686,$$(WIN_DIR_i686),x86,For 32-bit Windows and 32-bit LÖVE. Built and its exports checked like the 64-bit one but not run by the tests (that needs a 32-bit Wine).))

# macOS, cross-built here (mk/macos.mk), never run here: macos-arm64/ (Apple silicon) and macos-x86_64/
# (Intel), each with lib/libcollide2d.1.0.0.dylib (install name @rpath/libcollide2d.1.dylib) and its
# symlinks, lib/libcollide2d.a, lib/pkgconfig/collide2d.pc, the header, lua51/collide2d.so (the Lua
# module for LÖVE 11) and a README saying what was checked. ($(1): the architecture.)
define DIST_MACOS
dist-macos-$(1): macos-$(1)
	@rm -rf $(DIST)/macos-$(1)
	@mkdir -p $(DIST)/macos-$(1)/include $(DIST)/macos-$(1)/lib/pkgconfig $(DIST)/macos-$(1)/lua51
	cp include/collide2d.h $(DIST)/macos-$(1)/include/
	cp $(BUILD)/macos-$(1)/libcollide2d.$(VERSION).dylib $(BUILD)/macos-$(1)/libcollide2d.a $(DIST)/macos-$(1)/lib/
	ln -sf libcollide2d.$(VERSION).dylib $(DIST)/macos-$(1)/lib/libcollide2d.$(VERSION_MAJOR).dylib
	ln -sf libcollide2d.$(VERSION_MAJOR).dylib $(DIST)/macos-$(1)/lib/libcollide2d.dylib
	$$(DIST_PC) > $(DIST)/macos-$(1)/lib/pkgconfig/collide2d.pc
	cp $(BUILD)/macos-$(1)/lua51/collide2d.so $(DIST)/macos-$(1)/lua51/
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@PLATFORM@|macos-$(1)|g' -e 's|@CPU@|$(2)|g' \
	    scripts/dist/README-macos.md > $(DIST)/macos-$(1)/README.md
.PHONY: dist-macos-$(1)
dist-macos: dist-macos-$(1)
endef
.PHONY: dist-macos dist-loader
$(eval $(call DIST_MACOS,arm64,Apple silicon (M1 and later)))
$(eval $(call DIST_MACOS,x86_64,Intel))
dist: dist-macos dist-loader

# Every folder gets the loader for LÖVE games (lua/collide2d_loader.lua), which picks the module for the
# platform a game runs on out of lib/<platform>/ (README.md, "Shipping your game").
dist-loader: dist-host dist-windows dist-macos
	for d in $(DIST)/*/; do cp lua/collide2d_loader.lua "$$d"; done
