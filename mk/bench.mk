# bench.mk - `make bench`: the benchmarks, run one after another, each printing its own table.
#
# `bench` runs every target listed in BENCH_TARGETS. Other mk files add theirs with
#     BENCH_TARGETS += bench-lua
# and wrap their run command in $(BENCH_RUN) so that, under make -j, no two benchmarks time at once.
# mk/*.mk are included in name order, so most appends come after this file is read; the prerequisite
# list of `bench` is therefore expanded a second time, when make has read everything.

BENCH_TARGETS += bench-narrow

# Same optimisation for every library measured: Debian builds Box2D and Chipmunk with -O2, and the
# collide2d library itself is built with $(OPT), -O2 unless overridden.
BENCH_CXXFLAGS := -O2 -g -Wall -Wextra -Iinclude -Ibench
# Linked the way a user links: against the shared library, found at run time through an rpath.
BENCH_LDLIBS   := -L$(BUILD) -Wl,-rpath,'$$ORIGIN/..' -lcollide2d
# A lock file serialises the timed runs even under make -j: parallel timings would disturb each other.
BENCH_RUN      := flock $(BUILD)/bench.lock

.PHONY: bench bench-narrow
.SECONDEXPANSION:
bench: deps $$(BENCH_TARGETS)

$(BUILD)/bench/bench_narrow: bench/bench_narrow.cpp bench/bench.h include/collide2d.h $(SHLIB) | deps
	@mkdir -p $(@D)
	$(CXX) $(BENCH_CXXFLAGS) -o $@ $< $(BENCH_LDLIBS) -lbox2d -lchipmunk -lm

# BENCH_NARROW_ARGS passes options through, e.g. BENCH_NARROW_ARGS="--only polygon-polygon --dump 3".
bench-narrow: $(BUILD)/bench/bench_narrow | deps
	$(BENCH_RUN) $(BUILD)/bench/bench_narrow $(BENCH_NARROW_ARGS)
