# Lotto (BOJ 6603) with one mistake: no blank line after each test case.
# Try it: backtrack judge 6603 -- awk -f examples/judge/lotto-no-blank-line.awk
function pick(from, depth,    i, line) {
    if (depth == 6) {
        line = chosen[1]
        for (i = 2; i <= 6; i++) line = line " " chosen[i]
        print line
        return
    }
    for (i = from; i <= $1; i++) {
        chosen[depth + 1] = $(i + 1)
        pick(i + 1, depth + 1)
    }
}
$1 == 0 { exit }
{ pick(1, 0) }
