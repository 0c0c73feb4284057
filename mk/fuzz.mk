# fuzz.mk - the libFuzzer harness (FUZZ_SRCS: fuzz/fuzz_api.c and its parts) and what runs it:
#   make fuzz FUZZ_SECONDS=N   fuzz for N seconds (default 60), new inputs kept in $(BUILD)/fuzz/corpus
#   make fuzz-merge            add the inputs of the last `make fuzz` that reach new code to fuzz/corpus
#   make fuzz-regress          replay every input of fuzz/corpus, then a short fixed-seed run (suite 51)
#   make fuzz-valgrind         replay every input of fuzz/corpus under valgrind's memcheck (suite 53)
#   make coverage              replay fuzz/corpus with clang's source coverage and print src/ line coverage
# The harness compiles the library sources in (-DC2D_STATIC) so that the library itself is instrumented
# by the fuzzer and the sanitizers. libFuzzer ships with clang (Debian: clang, libclang-rt-14-dev);
# llvm-profdata and llvm-cov come with llvm-14.

FUZZ_CC        ?= clang
FUZZ_SECONDS   ?= 60
FUZZ_JOBS      ?= 1
FUZZ_MAX_LEN   ?= 512
# The regression pass: the committed corpus once, then this many fixed-seed mutations.
FUZZ_REGRESS_RUNS ?= 20000
LLVM_PROFDATA  ?= llvm-profdata
LLVM_COV       ?= llvm-cov

FUZZ_DIR       := $(BUILD)/fuzz
# The harness, one concern a file (fuzz/fz.h lists them); fuzz/replay.c, the driver for valgrind, is
# not one of them. Every build of the harness (fuzzer, coverage, replay) compiles these.
FUZZ_SRCS      := fuzz/fuzz_api.c fuzz/fz_core.c fuzz/fz_oracle.c fuzz/fz_model.c fuzz/fz_checks.c \
                  fuzz/ops_shapes.c fuzz/ops_sweep.c fuzz/ops_turn.c fuzz/ops_sets.c fuzz/ops_members.c fuzz/ops_moves.c \
                  fuzz/ops_world.c fuzz/ops_world_move.c fuzz/ops_level.c fuzz/ops_compound.c \
                  fuzz/ops_setquery.c fuzz/ops_world_entry.c fuzz/ops_character.c fuzz/ops_balls.c
FUZZ_HDRS      := fuzz/fz.h
FUZZ_BIN       := $(FUZZ_DIR)/fuzz_api
FUZZ_COV_BIN   := $(FUZZ_DIR)/fuzz_api_cov
FUZZ_REPLAY_BIN := $(FUZZ_DIR)/replay
FUZZ_CFLAGS    := $(CSTD) -g $(WARN) -Iinclude -Isrc -DC2D_STATIC
FUZZ_SAN       := -O2 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# -fsanitize=fuzzer here only provides libFuzzer's main (to replay files); no ASan, so counts are clean.
FUZZ_COVFLAGS  := -O1 -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping
# Inputs that reproduce library bugs are named crash-*: they stay in the regression replay until the
# bug is fixed, but seed neither the mutation runs (libFuzzer stops when a seed fails) nor the
# coverage replay (an abort would lose the profile).
FUZZ_CORPUS_OK  = $(filter-out fuzz/corpus/crash-%,$(wildcard fuzz/corpus/*))
FUZZ_SEEDS      = $(FUZZ_DIR)/seeds.txt

$(FUZZ_DIR)/seeds.txt: FORCE
	@mkdir -p $(@D)
	@echo "$(abspath $(FUZZ_CORPUS_OK))" | tr ' ' ',' > $@
FORCE:

.PHONY: fuzz fuzz-merge fuzz-regress fuzz-valgrind coverage FORCE

$(FUZZ_BIN): $(FUZZ_SRCS) $(FUZZ_HDRS) $(SRCS) $(HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_SAN) -o $@ $(FUZZ_SRCS) $(SRCS) -lm

$(FUZZ_COV_BIN): $(FUZZ_SRCS) $(FUZZ_HDRS) $(SRCS) $(HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_COVFLAGS) -o $@ $(FUZZ_SRCS) $(SRCS) -lm

# New inputs go to $(FUZZ_DIR)/corpus; fuzz/corpus only seeds the run. A finding stops the run (of
# that job) and is written to $(FUZZ_DIR)/crash-*; FZ_TRACE=1 $(FUZZ_BIN) <file> shows what it does.
# libFuzzer runs the jobs as child processes that log to fuzz-<job>.log in the current directory,
# so it runs from $(FUZZ_DIR); the last lines of each log (executions, exec/s) are printed at the end.
FUZZ_ABS := $(abspath $(FUZZ_DIR))
fuzz: $(FUZZ_BIN) $(FUZZ_SEEDS)
	@mkdir -p $(FUZZ_DIR)/corpus && rm -f $(FUZZ_DIR)/fuzz-*.log
	cd $(FUZZ_DIR) && ./fuzz_api -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) \
	    -print_final_stats=1 -jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS) -artifact_prefix=$(FUZZ_ABS)/ \
	    -seed_inputs=@$(FUZZ_ABS)/seeds.txt $(FUZZ_ABS)/corpus; rc=$$?; \
	for f in fuzz-*.log; do echo "== $(FUZZ_DIR)/$$f"; \
	    grep -E 'invariant broken|ERROR: [A-Za-z]+Sanitizer|runtime error|Test unit written|stat::(number_of_executed_units|average_exec_per_sec|new_units_added)' $$f; \
	done; exit $$rc

# Only inputs that add coverage are copied in, so the committed corpus stays small.
fuzz-merge: $(FUZZ_BIN)
	$(FUZZ_BIN) -merge=1 -max_len=$(FUZZ_MAX_LEN) fuzz/corpus $(FUZZ_DIR)/corpus

# Every committed input on its own (so each failure is named), then the fixed-seed mutation run from
# a fresh directory, so a failure there reproduces exactly. Prints one "ok"/"not ok" line per check.
fuzz-regress: $(FUZZ_BIN) $(FUZZ_SEEDS)
	@rm -rf $(FUZZ_DIR)/regress-out && mkdir -p $(FUZZ_DIR)/regress-out
	@fail=0; for f in fuzz/corpus/*; do \
	    if $(FUZZ_BIN) $$f > $(FUZZ_DIR)/regress-one.log 2>&1; then echo "ok     $$f"; \
	    else fail=$$((fail + 1)); echo "not ok $$f: $$(grep -m1 -E 'invariant broken|ERROR: [A-Za-z]+Sanitizer|runtime error' \
	        $(FUZZ_DIR)/regress-one.log)"; fi; \
	done; \
	if $(FUZZ_BIN) -runs=$(FUZZ_REGRESS_RUNS) -seed=1 -max_len=$(FUZZ_MAX_LEN) \
	    -seed_inputs=@$(FUZZ_SEEDS) -artifact_prefix=$(FUZZ_DIR)/regress- $(FUZZ_DIR)/regress-out \
	    > $(FUZZ_DIR)/regress-run.log 2>&1; then \
	    echo "ok     fixed-seed run: $$(grep -o 'Done [0-9]* runs' $(FUZZ_DIR)/regress-run.log)"; \
	else fail=$$((fail + 1)); echo "not ok fixed-seed run: $$(grep -m1 -E 'invariant broken|ERROR: [A-Za-z]+Sanitizer|runtime error' \
	    $(FUZZ_DIR)/regress-run.log) (input in $(FUZZ_DIR)/regress-crash-*)"; fi; \
	test $$fail -eq 0

# The harness without libFuzzer or sanitizers, built as users build the library (the default compiler,
# -O2), for memcheck: it sees reads of memory never written, which ASan does not. fuzz/replay.c says
# how a failure shows; memcheck's report is in $(FUZZ_DIR)/valgrind.log. DWARF 4, because valgrind
# 3.19 cannot read the DWARF 5 that clang 14 writes.
$(FUZZ_REPLAY_BIN): fuzz/replay.c $(FUZZ_SRCS) $(FUZZ_HDRS) $(SRCS) $(HDRS)
	@mkdir -p $(FUZZ_DIR)
	$(CC) $(CSTD) $(OPT) -gdwarf-4 $(WARN) -Iinclude -Isrc -DC2D_STATIC -o $@ fuzz/replay.c $(FUZZ_SRCS) $(SRCS) -lm

fuzz-valgrind: $(FUZZ_REPLAY_BIN)
	@valgrind --log-file=$(FUZZ_DIR)/valgrind.log $(FUZZ_REPLAY_BIN) fuzz/corpus/* > $(FUZZ_DIR)/valgrind.out 2>&1; \
	cat $(FUZZ_DIR)/valgrind.out; \
	ran=$$(grep -cE '^(ok|not ok) ' $(FUZZ_DIR)/valgrind.out); \
	set -- fuzz/corpus/*; \
	if [ $$ran -lt $$# ]; then shift $$ran; \
	    echo "not ok $$1: the harness stopped here: $$(grep -m1 -E 'invariant broken|Process terminating' \
	        $(FUZZ_DIR)/valgrind.out $(FUZZ_DIR)/valgrind.log)"; exit 1; fi; \
	! grep -q '^not ok ' $(FUZZ_DIR)/valgrind.out

coverage: $(FUZZ_COV_BIN)
	@rm -f $(FUZZ_DIR)/cov-*.profraw
	LLVM_PROFILE_FILE=$(FUZZ_DIR)/cov-%p.profraw $(FUZZ_COV_BIN) $(FUZZ_CORPUS_OK) \
	    > $(FUZZ_DIR)/coverage-run.log 2>&1
	$(LLVM_PROFDATA) merge -sparse -o $(FUZZ_DIR)/coverage.profdata $(FUZZ_DIR)/cov-*.profraw
	$(LLVM_COV) report $(FUZZ_COV_BIN) -instr-profile=$(FUZZ_DIR)/coverage.profdata $(SRCS)
	@$(LLVM_COV) show $(FUZZ_COV_BIN) -instr-profile=$(FUZZ_DIR)/coverage.profdata -show-line-counts-or-regions \
	    $(SRCS) > $(FUZZ_DIR)/coverage.txt
	@echo "annotated sources (uncovered lines marked 0): $(FUZZ_DIR)/coverage.txt"
