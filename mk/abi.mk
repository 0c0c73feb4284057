# abi.mk - the ABI guard. abi/collide2d.abi is the ABI of the last release, written by libabigail's
# abidw from the shared library's DWARF; `make abi-check` (run by `make test`, suite 50-abi) compares the
# library built now against it with abidiff and fails on any difference it reports: a removed or changed
# function, a changed struct layout, enum value or typedef. Added functions are allowed (a minor
# release adds API), so --no-added-syms. Only the public interface counts: the baseline is written
# through include/ (--headers-dir) with private types dropped, and abidiff does not count an opaque
# type becoming defined, so c2d_shape's private layout may change freely. (abidiff's own --hd2 and
# --drop-private-types are not used: with them abidiff 2.2 filtered out a real struct layout change.)
#   make abi-check      compare $(SHLIB) with the baseline
#   make abi-baseline   rewrite the baseline from $(SHLIB) (only on a deliberate release: abi/README.md)
# Needs abigail-tools (Debian).

ABIDW        ?= abidw
ABIDIFF      ?= abidiff
ABI_BASELINE := abi/collide2d.abi
# No paths or source locations in the baseline: it must not change with the build directory or when
# header comments move lines.
ABIDW_FLAGS  := --no-corpus-path --no-comp-dir-path --no-show-locs --drop-undefined-syms \
                --headers-dir include --drop-private-types
ABIDIFF_FLAGS := --no-added-syms

.PHONY: abi-check abi-baseline

abi-check: $(SHLIB)
	@$(ABIDIFF) $(ABIDIFF_FLAGS) $(ABI_BASELINE) $(SHLIB) > $(BUILD)/abi-check.txt 2>&1; rc=$$?; \
	cat $(BUILD)/abi-check.txt; \
	if [ $$rc -ne 0 ]; then \
	    echo "abi-check: FAILED (abidiff exit $$rc): the ABI differs from $(ABI_BASELINE); see abi/README.md"; \
	    exit 1; \
	fi; \
	echo "abi-check: $(SHLIB) is compatible with $(ABI_BASELINE)"

abi-baseline: $(SHLIB)
	$(ABIDW) $(ABIDW_FLAGS) --out-file $(ABI_BASELINE) $(SHLIB)
	@echo "abi-baseline: wrote $(ABI_BASELINE) from $(SHLIB); review with git diff before committing"
