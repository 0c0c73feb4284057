# Examples, built the way a user builds against an installed collide2d: `make install` into a private
# prefix, then pkg-config for the flags. `make examples` builds them; `make demo-run` (mk/demo.mk)
# runs them before the Lua and LÖVE demos.
EXAMPLE_PREFIX := $(abspath $(BUILD))/prefix
EXAMPLE_SRCS   := $(sort $(wildcard examples/c/*.c))
EXAMPLE_BINS   := $(EXAMPLE_SRCS:examples/c/%.c=$(BUILD)/examples/%)
EXAMPLE_PC     := PKG_CONFIG_PATH=$(EXAMPLE_PREFIX)/lib/pkgconfig

.PHONY: examples example-prefix
example-prefix: all
	@$(MAKE) --no-print-directory -s install PREFIX=$(EXAMPLE_PREFIX) DESTDIR= >/dev/null

$(BUILD)/examples/%: examples/c/%.c include/collide2d.h | example-prefix
	@mkdir -p $(@D)
	$(CC) -std=c99 -O2 -Wall -Wextra -o $@ $< $$($(EXAMPLE_PC) pkg-config --cflags --libs collide2d) \
	    -Wl,-rpath,$(EXAMPLE_PREFIX)/lib -lm

examples: $(EXAMPLE_BINS)
