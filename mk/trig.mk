# trig.mk - `make bench-trig`: the library's own sine and cosine (src/trig.c) against the C library's
# sincos, added to `make bench`. The benchmark links the library's object file for c2d_sincos, which
# the shared library does not export.

BENCH_TARGETS += bench-trig

.PHONY: bench-trig

$(BUILD)/bench/bench_trig: bench/bench_trig.c bench/bench.h src/trig.h $(BUILD)/obj/trig.o | deps
	@mkdir -p $(@D)
	$(CC) $(CSTD) -O2 -g $(WARN) -Iinclude -Isrc -Ibench -o $@ $< $(BUILD)/obj/trig.o -lm

# BENCH_TRIG_ARGS passes options through, e.g. BENCH_TRIG_ARGS="--reps 31" or "--quick".
bench-trig: $(BUILD)/bench/bench_trig | deps
	$(BENCH_RUN) $(BUILD)/bench/bench_trig $(BENCH_TRIG_ARGS)
