# The fuzz harness as a regression test: every committed input of fuzz/corpus replayed through the
# ASan+UBSan libFuzzer build (crash-* inputs reproduce reported library bugs and fail until they are
# fixed), then a short fixed-seed mutation run. One test per input, one for the run (make fuzz-regress).
sh spec/support/ok_lines.sh fuzz-regress "${BUILD:-build}/fuzz-regress.out"
