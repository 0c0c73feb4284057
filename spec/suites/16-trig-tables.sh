# The generated parts of the library's sine and cosine are what scripts/trig_tables.py makes from pi
# today: the constants between the GENERATED markers of src/trig.c, and the reference values the C
# tests measure c2d_sincos against (spec/c/trig_reference.h, recomputed: some seconds).
passed=0; failed=0
command -v python3 >/dev/null 2>&1 || { echo "python3 not found: apt-get install python3"; echo "RESULT passed=0 failed=1"; exit 1; }
if python3 scripts/trig_tables.py check-tables src/trig.c; then
    passed=$((passed + 1)); echo "ok     src/trig.c's constants are what scripts/trig_tables.py makes"
else
    failed=$((failed + 1)); echo "not ok src/trig.c's constants differ from scripts/trig_tables.py's"
fi
if python3 scripts/trig_tables.py check-reference spec/c/trig_reference.h 2>/dev/null; then
    passed=$((passed + 1)); echo "ok     spec/c/trig_reference.h is what scripts/trig_tables.py makes"
else
    failed=$((failed + 1)); echo "not ok spec/c/trig_reference.h differs from scripts/trig_tables.py's"
fi
echo "RESULT passed=$passed failed=$failed"
[ "$failed" -eq 0 ]
