# mk/demo.mk - the demonstration: `make demo` builds everything, then runs `make demo-run`:
#   1. the C examples (examples/c/, built against an installed copy by mk/examples.mk);
#   2. BricksBeater, the platformer and the pinball without a window (examples/lua/bricks.lua,
#      examples/lua/platformer.lua, examples/lua/pinball.lua) under Lua 5.4 and LuaJIT, each checked
#      every frame;
#   3. BricksBeater in LÖVE 11 (examples/love/, with the Lua 5.1 build of the module copied in).
# With a $DISPLAY the game opens a window to play (Escape quits); without one, or with
# DEMO_AUTOPLAY=1, it plays itself for DEMO_FRAMES frames on a virtual X display (xvfb-run), under a
# timeout, checks every frame that no ball tunnelled, and saves $(BUILD)/demo/screenshot.png.
# `make demo-love` runs only the game; `make demo-lua` only the windowless runs.
# `make demo-platformer` runs the platformer in LÖVE (examples/love/platformer/) the same way: a window
# to play with a $DISPLAY, else PLATFORMER_FRAMES frames of autoplay under xvfb-run, checked every
# frame, with a picture in $(BUILD)/demo/platformer.png. `make demo-pinball` runs the pinball
# (examples/love/pinball/) the same way, PINBALL_FRAMES frames of autoplay without a $DISPLAY, with a
# picture in $(BUILD)/demo/pinball.png. Neither is part of `make demo`, which ends with BricksBeater.

DEMO_DIR      = $(BUILD)/demo
DEMO_GAME     = $(DEMO_DIR)/love
DEMO_FRAMES  ?= 300
DEMO_BALLS   ?= 40
DEMO_TIMEOUT ?= 120
DEMO_LOVE_PKGS = love xvfb xauth libgl1-mesa-dri
PLATFORMER_GAME    = $(DEMO_DIR)/platformer
PLATFORMER_FRAMES ?= 4000
PLATFORMER_LAPS   ?= 2
PINBALL_GAME       = $(DEMO_DIR)/pinball
PINBALL_FRAMES    ?= 4000

.PHONY: demo-run demo-lua demo-love demo-game demo-platformer demo-platformer-game demo-pinball demo-pinball-game
demo-run: examples $(BUILD)/lua54/collide2d.so $(BUILD)/lua51/collide2d.so
	@for e in $(EXAMPLE_BINS); do echo "== $$e"; $$e || exit 1; done
	@$(MAKE) --no-print-directory demo-lua
	@$(MAKE) --no-print-directory demo-love

demo-lua: $(BUILD)/lua54/collide2d.so $(BUILD)/lua51/collide2d.so
	@echo "== examples/lua/bricks.lua (Lua 5.4)"
	@LUA_CPATH="$(abspath $(BUILD))/lua54/?.so" lua5.4 examples/lua/bricks.lua $(DEMO_FRAMES)
	@echo "== examples/lua/bricks.lua (LuaJIT)"
	@LUA_CPATH="$(abspath $(BUILD))/lua51/?.so" luajit examples/lua/bricks.lua $(DEMO_FRAMES)
	@echo "== examples/lua/platformer.lua (Lua 5.4)"
	@LUA_CPATH="$(abspath $(BUILD))/lua54/?.so" lua5.4 examples/lua/platformer.lua $(PLATFORMER_FRAMES) $(PLATFORMER_LAPS)
	@echo "== examples/lua/platformer.lua (LuaJIT)"
	@LUA_CPATH="$(abspath $(BUILD))/lua51/?.so" luajit examples/lua/platformer.lua $(PLATFORMER_FRAMES) $(PLATFORMER_LAPS)
	@echo "== examples/lua/pinball.lua (Lua 5.4)"
	@LUA_CPATH="$(abspath $(BUILD))/lua54/?.so" lua5.4 examples/lua/pinball.lua $(PINBALL_FRAMES)
	@echo "== examples/lua/pinball.lua (LuaJIT)"
	@LUA_CPATH="$(abspath $(BUILD))/lua51/?.so" luajit examples/lua/pinball.lua $(PINBALL_FRAMES)

# The game directory LÖVE runs: the game's Lua files and the 5.1 module, which LÖVE's require finds
# next to main.lua.
demo-game: $(BUILD)/lua51/collide2d.so
	@rm -rf $(DEMO_GAME)
	@mkdir -p $(DEMO_GAME)
	@cp examples/love/*.lua $(DEMO_GAME)/
	@cp $(BUILD)/lua51/collide2d.so $(DEMO_GAME)/

demo-love: demo-game
	@command -v love >/dev/null 2>&1 || { echo "demo: LÖVE 11 not found; run as root: apt-get install $(DEMO_LOVE_PKGS)" >&2; exit 1; }
	@if [ -n "$${DISPLAY:-}" ] && [ -z "$(DEMO_AUTOPLAY)" ]; then \
	    echo "== LÖVE: examples/love (mouse or arrows: paddle, space: launch, F1: debug view, Escape: quit)"; \
	    love $(DEMO_GAME); \
	else \
	    command -v xvfb-run >/dev/null 2>&1 || { echo "demo: xvfb-run not found; run as root: apt-get install $(DEMO_LOVE_PKGS)" >&2; exit 1; }; \
	    echo "== LÖVE: examples/love, autoplay $(DEMO_FRAMES) frames, $(DEMO_BALLS) balls, on a virtual display"; \
	    rm -f $(DEMO_DIR)/screenshot.png; \
	    COLLIDE2D_AUTOPLAY=$(DEMO_FRAMES) COLLIDE2D_BALLS=$(DEMO_BALLS) \
	    COLLIDE2D_SCREENSHOT="$(abspath $(DEMO_DIR))/screenshot.png" XDG_DATA_HOME="$(abspath $(DEMO_DIR))/save" \
	        timeout $(DEMO_TIMEOUT) xvfb-run -a love $(DEMO_GAME); \
	    status=$$?; \
	    if [ $$status -eq 124 ]; then echo "demo: LÖVE did not finish within $(DEMO_TIMEOUT) s" >&2; fi; \
	    exit $$status; \
	fi

# The platformer's game directory: its own Lua files and the 5.1 module.
demo-platformer-game: $(BUILD)/lua51/collide2d.so
	@rm -rf $(PLATFORMER_GAME)
	@mkdir -p $(PLATFORMER_GAME)
	@cp examples/love/platformer/*.lua $(PLATFORMER_GAME)/
	@cp $(BUILD)/lua51/collide2d.so $(PLATFORMER_GAME)/

demo-platformer: demo-platformer-game
	@command -v love >/dev/null 2>&1 || { echo "demo: LÖVE 11 not found; run as root: apt-get install $(DEMO_LOVE_PKGS)" >&2; exit 1; }
	@if [ -n "$${DISPLAY:-}" ] && [ -z "$(DEMO_AUTOPLAY)" ]; then \
	    echo "== LÖVE: examples/love/platformer (arrows: run, space: jump, R: restart, F1: debug view, Escape: quit)"; \
	    love $(PLATFORMER_GAME); \
	else \
	    command -v xvfb-run >/dev/null 2>&1 || { echo "demo: xvfb-run not found; run as root: apt-get install $(DEMO_LOVE_PKGS)" >&2; exit 1; }; \
	    echo "== LÖVE: examples/love/platformer, autoplay $(PLATFORMER_FRAMES) frames on a virtual display"; \
	    rm -f $(DEMO_DIR)/platformer.png; \
	    COLLIDE2D_AUTOPLAY=$(PLATFORMER_FRAMES) COLLIDE2D_LAPS=$(PLATFORMER_LAPS) \
	    COLLIDE2D_SCREENSHOT="$(abspath $(DEMO_DIR))/platformer.png" XDG_DATA_HOME="$(abspath $(DEMO_DIR))/save" \
	        timeout $(DEMO_TIMEOUT) xvfb-run -a love $(PLATFORMER_GAME); \
	    status=$$?; \
	    if [ $$status -eq 124 ]; then echo "demo: LÖVE did not finish within $(DEMO_TIMEOUT) s" >&2; fi; \
	    exit $$status; \
	fi

# The pinball's game directory: its own Lua files and the 5.1 module.
demo-pinball-game: $(BUILD)/lua51/collide2d.so
	@rm -rf $(PINBALL_GAME)
	@mkdir -p $(PINBALL_GAME)
	@cp examples/love/pinball/*.lua $(PINBALL_GAME)/
	@cp $(BUILD)/lua51/collide2d.so $(PINBALL_GAME)/

demo-pinball: demo-pinball-game
	@command -v love >/dev/null 2>&1 || { echo "demo: LÖVE 11 not found; run as root: apt-get install $(DEMO_LOVE_PKGS)" >&2; exit 1; }
	@if [ -n "$${DISPLAY:-}" ] && [ -z "$(DEMO_AUTOPLAY)" ]; then \
	    echo "== LÖVE: examples/love/pinball (Z / left shift and / / right shift: flippers, space: plunger, F1: debug view, Escape: quit)"; \
	    love $(PINBALL_GAME); \
	else \
	    command -v xvfb-run >/dev/null 2>&1 || { echo "demo: xvfb-run not found; run as root: apt-get install $(DEMO_LOVE_PKGS)" >&2; exit 1; }; \
	    echo "== LÖVE: examples/love/pinball, autoplay $(PINBALL_FRAMES) frames on a virtual display"; \
	    rm -f $(DEMO_DIR)/pinball.png; \
	    COLLIDE2D_AUTOPLAY=$(PINBALL_FRAMES) \
	    COLLIDE2D_SCREENSHOT="$(abspath $(DEMO_DIR))/pinball.png" XDG_DATA_HOME="$(abspath $(DEMO_DIR))/save" \
	        timeout $(DEMO_TIMEOUT) xvfb-run -a love $(PINBALL_GAME); \
	    status=$$?; \
	    if [ $$status -eq 124 ]; then echo "demo: LÖVE did not finish within $(DEMO_TIMEOUT) s" >&2; fi; \
	    exit $$status; \
	fi
