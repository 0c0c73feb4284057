# balls.mk - `make bench-balls`: 1000 balls stepped at once per frame (c2d_static_set_step_balls) in a box
# of tiles, against the level and each other, added to `make bench`.

BENCH_TARGETS += bench-balls

.PHONY: bench-balls

$(BUILD)/bench/bench_balls: bench/bench_balls.c bench/bench.h include/collide2d.h $(SHLIB) | deps
	@mkdir -p $(@D)
	$(CC) $(CSTD) -O2 -g $(WARN) -Iinclude -Ibench -o $@ $< $(BENCH_LDLIBS) -lm

# BENCH_BALLS_ARGS passes options through, e.g. BENCH_BALLS_ARGS="--frames 300" or "--quick".
bench-balls: $(BUILD)/bench/bench_balls | deps
	$(BENCH_RUN) $(BUILD)/bench/bench_balls $(BENCH_BALLS_ARGS)
