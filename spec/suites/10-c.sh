# The C tests, linked against the shared library as a user program would be.
make --no-print-directory -s BUILD=${BUILD:-build} ${BUILD:-build}/test_c >/dev/null && exec ${BUILD:-build}/test_c
