# mk/demo.mk - the demonstration: `make demo` builds everything, then runs `make demo-run`:
#   1. the C examples (examples/c/, built against an installed copy by mk/examples.mk);
#   2. BricksBeater, the platformer, the pinball and the shooter without a window (examples/lua/bricks.lua,
#      examples/lua/platformer.lua, examples/lua/pinball.lua, examples/lua/shooter.lua) under Lua 5.4
#      and LuaJIT, each checked every frame;
#   3. BricksBeater in LÖVE 11 (examples/love/, with the Lua 5.1 build of the module copied in).
# With a $DISPLAY the game opens a window to play (Escape quits); without one, or with
# DEMO_AUTOPLAY=1, it plays itself for DEMO_FRAMES frames on a virtual X display (xvfb-run), under a
# timeout, checks every frame that no ball tunnelled, and saves $(BUILD)/demo/screenshot.png.
# `make demo-love` runs only the game; `make demo-lua` only the windowless runs.
# `make demo-platformer` runs the platformer in LÖVE (examples/love/platformer/) the same way: a window
# to play with a $DISPLAY, else PLATFORMER_FRAMES frames of autoplay under xvfb-run, checked every
# frame, with a picture in $(BUILD)/demo/platformer.png. `make demo-pinball` runs the pinball
# (examples/love/pinball/) the same way, PINBALL_FRAMES frames of autoplay without a $DISPLAY, with a
# picture in $(BUILD)/demo/pinball.png, and `make demo-shooter` the shooter (examples/love/shooter/),
# SHOOTER_FRAMES frames, with $(BUILD)/demo/shooter.png. None of the three is part of `make demo`, which
# ends with BricksBeater. scripts/love_demo.sh runs each game.

DEMO_DIR      = $(BUILD)/demo
DEMO_GAME     = $(DEMO_DIR)/love
DEMO_FRAMES  ?= 300
DEMO_BALLS   ?= 40
DEMO_TIMEOUT ?= 120
PLATFORMER_GAME    = $(DEMO_DIR)/platformer
PLATFORMER_FRAMES ?= 4000
PLATFORMER_LAPS   ?= 2
PINBALL_GAME       = $(DEMO_DIR)/pinball
PINBALL_FRAMES    ?= 4000
SHOOTER_GAME       = $(DEMO_DIR)/shooter
SHOOTER_FRAMES    ?= 1200

.PHONY: demo-run demo-lua demo-love demo-game demo-platformer demo-platformer-game demo-pinball demo-pinball-game \
        demo-shooter demo-shooter-game
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
	@echo "== examples/lua/shooter.lua (Lua 5.4)"
	@LUA_CPATH="$(abspath $(BUILD))/lua54/?.so" lua5.4 examples/lua/shooter.lua $(SHOOTER_FRAMES)
	@echo "== examples/lua/shooter.lua (LuaJIT)"
	@LUA_CPATH="$(abspath $(BUILD))/lua51/?.so" luajit examples/lua/shooter.lua $(SHOOTER_FRAMES)

# The game directory LÖVE runs: the game's Lua files and the 5.1 module, which LÖVE's require finds
# next to main.lua.
demo-game: $(BUILD)/lua51/collide2d.so
	@rm -rf $(DEMO_GAME)
	@mkdir -p $(DEMO_GAME)
	@cp examples/love/*.lua $(DEMO_GAME)/
	@cp $(BUILD)/lua51/collide2d.so $(DEMO_GAME)/

demo-love: demo-game
	@DEMO_AUTOPLAY="$(DEMO_AUTOPLAY)" sh scripts/love_demo.sh $(DEMO_GAME) "examples/love, $(DEMO_BALLS) balls" \
	    $(DEMO_FRAMES) $(DEMO_TIMEOUT) "mouse or arrows: paddle, space: launch, F1: debug view, Escape: quit" \
	    $(DEMO_DIR)/screenshot.png COLLIDE2D_BALLS=$(DEMO_BALLS)

# The platformer's game directory: its own Lua files and the 5.1 module.
demo-platformer-game: $(BUILD)/lua51/collide2d.so
	@rm -rf $(PLATFORMER_GAME)
	@mkdir -p $(PLATFORMER_GAME)
	@cp examples/love/platformer/*.lua $(PLATFORMER_GAME)/
	@cp $(BUILD)/lua51/collide2d.so $(PLATFORMER_GAME)/

demo-platformer: demo-platformer-game
	@DEMO_AUTOPLAY="$(DEMO_AUTOPLAY)" sh scripts/love_demo.sh $(PLATFORMER_GAME) examples/love/platformer \
	    $(PLATFORMER_FRAMES) $(DEMO_TIMEOUT) "arrows: run, space: jump, R: restart, F1: debug view, Escape: quit" \
	    $(DEMO_DIR)/platformer.png COLLIDE2D_LAPS=$(PLATFORMER_LAPS)

# The pinball's game directory: its own Lua files and the 5.1 module.
demo-pinball-game: $(BUILD)/lua51/collide2d.so
	@rm -rf $(PINBALL_GAME)
	@mkdir -p $(PINBALL_GAME)
	@cp examples/love/pinball/*.lua $(PINBALL_GAME)/
	@cp $(BUILD)/lua51/collide2d.so $(PINBALL_GAME)/

demo-pinball: demo-pinball-game
	@DEMO_AUTOPLAY="$(DEMO_AUTOPLAY)" sh scripts/love_demo.sh $(PINBALL_GAME) examples/love/pinball \
	    $(PINBALL_FRAMES) $(DEMO_TIMEOUT) "Z / left shift and / / right shift: flippers, space: plunger, F1: debug view, Escape: quit" \
	    $(DEMO_DIR)/pinball.png

# The shooter's game directory: its own Lua files and the 5.1 module.
demo-shooter-game: $(BUILD)/lua51/collide2d.so
	@rm -rf $(SHOOTER_GAME)
	@mkdir -p $(SHOOTER_GAME)
	@cp examples/love/shooter/*.lua $(SHOOTER_GAME)/
	@cp $(BUILD)/lua51/collide2d.so $(SHOOTER_GAME)/

demo-shooter: demo-shooter-game
	@DEMO_AUTOPLAY="$(DEMO_AUTOPLAY)" sh scripts/love_demo.sh $(SHOOTER_GAME) examples/love/shooter \
	    $(SHOOTER_FRAMES) $(DEMO_TIMEOUT) "mouse: aim, R: restart, F1: bullet paths, Escape: quit" \
	    $(DEMO_DIR)/shooter.png
