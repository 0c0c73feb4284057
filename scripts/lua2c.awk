# lua2c.awk - a Lua source file as a C string constant, so that a C module can carry a Lua chunk:
#
#     awk -v name=ffi_chunk -f scripts/lua2c.awk lua/ffi.lua > lua/ffi_chunk.h
#
# writes `static const char ffi_chunk[] = ...;` whose bytes are the file's, every line ending in "\n".
# Each line of Lua becomes a string literal of its own and the compiler joins them, so no literal is
# longer than its line. Escaped: backslash and double quote, and the question mark, since -std=c99
# turns trigraphs such as ??/ into other characters; a tab or carriage return becomes \t or \r. Any
# other control character stops the script (exit status 1): keep them out of embedded Lua. The output
# depends on nothing but the input (spec/suites/38-rockspec.sh regenerates it and compares).

BEGIN {
    if (name == "") {
        print "lua2c.awk: usage: awk -v name=IDENTIFIER -f scripts/lua2c.awk FILE.lua" > "/dev/stderr"
        failed = 1
        exit 1
    }
    # The characters a byte-wise scan meets, as an index for escaping.
    ctl = ""
    for (i = 1; i < 32; i++)
        ctl = ctl sprintf("%c", i)
    ctl = ctl sprintf("%c", 127)
}

NR == 1 {
    print "/* " name ": generated from " FILENAME " by scripts/lua2c.awk; do not edit (make regenerates it). */"
    print "static const char " name "[] ="
}

{
    out = ""
    n = length($0)
    for (i = 1; i <= n; i++) {
        c = substr($0, i, 1)
        if (c == "\\" || c == "\"" || c == "?")
            out = out "\\" c
        else if (c == "\t")
            out = out "\\t"
        else if (c == "\r")
            out = out "\\r"
        else if (index(ctl, c) > 0) {
            printf "lua2c.awk: %s:%d:%d: a control character in the Lua source\n", FILENAME, NR, i \
                > "/dev/stderr"
            failed = 1
            exit 1
        } else
            out = out c
    }
    if (NR > 1)
        print "    \"" prev "\\n\""
    prev = out
}

END {
    if (failed)
        exit 1
    if (NR == 0) {
        print "lua2c.awk: empty input" > "/dev/stderr"
        exit 1
    }
    print "    \"" prev "\\n\";"
}
