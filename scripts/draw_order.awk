# draw_order.awk - flags a line that draws two random numbers in one expression whose order C leaves
# unspecified: two arguments of one call, f(uniform(..), uniform(..)), two elements of one braced
# initializer, {uniform(..), uniform(..)}, or two operands, uniform(..) * uniform(..). x86-64 gcc
# evaluates a call's arguments last to first and ARM64 gcc first to last, so such a line gives the
# two machines different random streams (spec/c/test.h). Sequenced draws are not flagged: separate
# declarators or statements (, and ; outside brackets), the arguments of a drawing call (evaluated
# before its body draws), an if/while/for/switch condition, the operands of ?: && and ||.
# It reads one line at a time, so it catches the plain cases, not every one (a call spread over
# lines is seen only as far as the first line goes).
# Usage: awk -f scripts/draw_order.awk FILE...   prints "file:line: text" for each such line.
function is_draw(s) {
    return match(s, /^(c2d_test_uniform|c2d_test_rand|tu_random_[a-z_]+|tu_grid|tu_grid_point|[a-z_]*uniform|random_dir|fz_byte|fz_number|fz_vec|fz_slot|gen_next|gen_unit|gen_angle|dc_scale) *\(/)
}
# Ends the current argument (or, at depth 0, declarator or statement) of level d.
function end_segment(d) {
    if (cnt[d] >= 2 && !seqseg[d] && !block[d]) flagged = 1
    if (cnt[d] >= 2 && seqseg[d]) cnt[d] = 1 # c ? u() : u() draws once as seen from outside
    if (cnt[d] >= 1) segs[d]++
    total[d] += cnt[d]
    cnt[d] = 0
    seqseg[d] = 0
}
FNR == 1 { in_comment = 0 }
{
    line = $0
    gsub(/\\./, "", line)
    gsub(/"[^"]*"/, "\"\"", line)
    gsub(/'[^']*'/, "' '", line)
    if (in_comment) {
        if (index(line, "*/") == 0) next
        line = substr(line, index(line, "*/") + 2)
        in_comment = 0
    }
    gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, " ", line)
    if (index(line, "/*")) { line = substr(line, 1, index(line, "/*") - 1); in_comment = 1 }
    if (index(line, "//")) line = substr(line, 1, index(line, "//") - 1)
    depth = 0
    flagged = 0
    pending = 0
    cnt[0] = segs[0] = total[0] = seqseg[0] = block[0] = 0
    word = ""
    n = length(line)
    for (i = 1; i <= n; i++) {
        c = substr(line, i, 1)
        prev = i > 1 ? substr(line, i - 1, 1) : " "
        if (c ~ /[A-Za-z0-9_]/) {
            if (prev !~ /[A-Za-z0-9_]/) {
                word = ""
                if (c ~ /[A-Za-z_]/ && is_draw(substr(line, i))) { cnt[depth]++; pending = 1 }
            }
            word = word c
            continue
        }
        if (c == "(" || c == "{") {
            depth++
            cnt[depth] = segs[depth] = total[depth] = seqseg[depth] = block[depth] = 0
            opaque[depth] = pending ? 1 : (c == "(" && word ~ /^(if|while|for|switch)$/ ? 2 : 0)
            pending = 0
        } else if (c == ")" || c == "}") {
            if (depth == 0) continue
            end_segment(depth)
            if (segs[depth] >= 2 && !block[depth]) flagged = 1
            t = total[depth]
            o = opaque[depth]
            depth--
            if (o == 0) cnt[depth] += t
        } else if (c == ",") {
            end_segment(depth)
        } else if (c == ";") {
            end_segment(depth)
            if (depth > 0) block[depth] = 1
        } else if (c == "?" || (c == "&" && prev == "&") || (c == "|" && prev == "|")) {
            seqseg[depth] = 1
        }
        if (c !~ /[ \t]/) word = ""
    }
    for (k = depth; k >= 1; k--) {
        end_segment(k)
        if (segs[k] >= 2 && !block[k]) flagged = 1
    }
    end_segment(0)
    if (flagged) print FILENAME ":" FNR ": " $0
}
