# sweep.mk - `make bench-sweep`: the swept-collision benchmark (ball steps among 400 bricks, bump-style
# slide moves among 400 tiles, each against a brute-force loop over every shape), added to `make bench`.

BENCH_TARGETS += bench-sweep

.PHONY: bench-sweep

$(BUILD)/bench/bench_sweep: bench/bench_sweep.c bench/bench.h include/collide2d.h $(SHLIB) | deps
	@mkdir -p $(@D)
	$(CC) $(CSTD) -O2 -g $(WARN) -Iinclude -Ibench -o $@ $< $(BENCH_LDLIBS) -lm

# BENCH_SWEEP_ARGS passes options through, e.g. BENCH_SWEEP_ARGS="--reps 5", "--quick" or "--verbose".
bench-sweep: $(BUILD)/bench/bench_sweep | deps
	$(BENCH_RUN) $(BUILD)/bench/bench_sweep $(BENCH_SWEEP_ARGS)
