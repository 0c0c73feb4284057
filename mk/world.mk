# world.mk - `make bench-world`: the world's broadphase against Box2D's b2BroadPhase / b2DynamicTree and
# Chipmunk's cpBBTree / cpSpaceHash (bench/bench_world.cpp). BENCH_WORLD_ARGS passes options, e.g.
# "--quick", "--frames 120" or "--strict" (exit 1 when a target is missed).

BENCH_TARGETS += bench-world

.PHONY: bench-world

$(BUILD)/bench/bench_world: bench/bench_world.cpp bench/bench.h include/collide2d.h $(SHLIB) | deps
	@mkdir -p $(@D)
	$(CXX) $(BENCH_CXXFLAGS) -o $@ $< $(BENCH_LDLIBS) -lbox2d -lchipmunk -lm

bench-world: $(BUILD)/bench/bench_world | deps
	$(BENCH_RUN) $(BUILD)/bench/bench_world $(BENCH_WORLD_ARGS)
