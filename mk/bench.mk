# bench.mk - `make bench`: the benchmarks, run one after another, each printing its own table.
#
# `bench` runs every target listed in BENCH_TARGETS. Other mk files add theirs with
#     BENCH_TARGETS += bench-lua
# and wrap their run command in $(BENCH_RUN) so that, under make -j, no two benchmarks time at once.
# mk/*.mk are included in name order, so most appends come after this file is read; the prerequisite
# list of `bench` is therefore expanded a second time, when make has read everything.
#
# `make bench-quick` runs the same programs as smoke runs (a few seconds each; the numbers mean
# nothing). `make bench-profile` counts instructions per call of the narrow-phase target pairs under
# callgrind (noise-free, unlike the timings). `make test` runs none of this: no test depends on timing.

BENCH_TARGETS += bench-narrow

# Same optimisation for every library measured: Debian builds Box2D and Chipmunk with -O2, and the
# collide2d library itself is built with $(OPT), -O2 unless overridden.
BENCH_CXXFLAGS := -O2 -g -Wall -Wextra -Iinclude -Ibench
# Linked the way a user links: against the shared library, found at run time through an rpath.
BENCH_LDLIBS   := -L$(BUILD) -Wl,-rpath,'$$ORIGIN/..' -lcollide2d
# A lock file serialises the timed runs even under make -j: parallel timings would disturb each other.
BENCH_RUN      := flock $(BUILD)/bench.lock

.PHONY: bench bench-narrow bench-quick bench-profile
.SECONDEXPANSION:
bench: deps $$(BENCH_TARGETS)

NARROW_HEADERS := bench/narrow_scene.h bench/narrow_peers.h bench/narrow_floor.h
$(BUILD)/bench/bench_narrow: bench/bench_narrow.cpp $(NARROW_HEADERS) bench/bench.h include/collide2d.h $(SHLIB) | deps
	@mkdir -p $(@D)
	$(CXX) $(BENCH_CXXFLAGS) -o $@ $< $(BENCH_LDLIBS) -lbox2d -lchipmunk -lm

# BENCH_NARROW_ARGS passes options through, e.g. BENCH_NARROW_ARGS="--only polygon-polygon --verbose".
bench-narrow: $(BUILD)/bench/bench_narrow | deps
	$(BENCH_RUN) $(BUILD)/bench/bench_narrow $(BENCH_NARROW_ARGS)

# Every benchmark once with --quick (bench-lua with a short BENCH_SECONDS): checks that they build,
# run, agree with their peers and end cleanly, in well under a minute.
bench-quick: deps
	@BENCH_SECONDS=0.02 $(MAKE) --no-print-directory bench BENCH_NARROW_ARGS=--quick BENCH_SWEEP_ARGS=--quick BENCH_BALLS_ARGS=--quick \
	    BENCH_WORLD_ARGS=--quick BENCH_TRIG_ARGS=--quick

# Instructions, conditional branches and (simulated) mispredicted branches per call, for each library
# on the pairs the narrow-phase targets name, from one untimed pass of every pass function under
# callgrind: 256 pairs of table A visited 8 times each in random order, poses alternating, so the
# "placed" passes count placing both shapes (collide2d: c2d_shape_set_transform; Box2D: b2Transform::Set;
# Chipmunk: cpBodySetPosition, cpBodySetAngle, cpShapeCacheBB) and the "fixed" ones the query alone.
# Pass names: <library>_<call>_<placed|fixed>_pass (b2_collide is the bare b2Collide* call, which
# answers both overlap and contact; cp_collide is cpShapesCollide; floor is narrow_floor.h's box-box).
# BENCH_PROFILE_PAIRS picks other kinds (underscores for spaces).
BENCH_PROFILE_PAIRS ?= circle-polygon polygon-polygon box-box_aligned box-box_rotated capsule-polygon ray-polygon
bench-profile: $(BUILD)/bench/bench_narrow | deps
	@for p in $(BENCH_PROFILE_PAIRS); do \
	    out=$(BUILD)/bench/callgrind.$$p; \
	    valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file=$$out \
	        $(BUILD)/bench/bench_narrow --profile --only $$p --sections A --pairs 256 > $$out.log 2>&1 || \
	        { cat $$out.log; exit 1; }; \
	    calls=$$(sed -n 's/^profile: .* one pass of \([0-9]*\) calls.*/\1/p' $$out.log | head -1); \
	    echo "== $$p: per call (one pass of $$calls calls per function)"; \
	    printf '  %-30s %9s %9s %9s\n' pass Ir branches mispred; \
	    for ev in Ir Bc Bcm; do \
	        callgrind_annotate --inclusive=yes --threshold=100 --show=$$ev $$out | \
	            sed -n "s/^ *\([0-9,]*\) .*::\([a-z0-9_]*_pass\)(void\*) \[.*/\2 $$ev \1/p"; \
	    done | tr -d , | awk -v calls=$$calls ' \
	        { v[$$1, $$2] = $$3 / calls; seen[$$1] = 1 } \
	        END { for (p in seen) printf "  %-30s %9.1f %9.1f %9.2f\n", p, v[p, "Ir"], v[p, "Bc"], v[p, "Bcm"] }' | sort; \
	done
