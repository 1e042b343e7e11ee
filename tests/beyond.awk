# awk -v step=STEP -f tests/code-of.awk -f tests/beyond.awk FILE
# The code beyond STEP's exercise that FILE holds: the paths the solution takes that no TODO
# asks for (step 7's panels, block order and grid), which the starter supplies as they are.
# Prints one line a line of it, "LINE<tab>START<tab>TEXT" (START: the first line of its
# region). A region is marked by a comment that holds BEYOND(STEP); it runs from that line
# down to the first blank line, or, where braces open on its lines, down to the line that
# closes them (a function, an if and its block), blank lines inside included; never past the
# end of the block it stands in. A comment after code that opens no brace marks that line
# alone (step 7's launch, whose sides are long where step 6's were int).
# Used by tests/starter-is-previous.sh (the starter holds each region as the solution does)
# and tests/exercise-diff.sh (no change between starter and solution touches one).
BEGIN { tag = "BEYOND(" step ")" }
{
    code = code_of($0)
    if (!inside && index($0, tag)) {
        if (code !~ /^[ \t]*$/ && code !~ /[{}]/) { print FNR "\t" FNR "\t" $0; next }
        inside = 1; start = FNR; depth = 0; opened = 0
    }
    if (!inside) next
    if ($0 ~ /^[ \t]*$/ && depth <= 0) { inside = 0; next }
    n_open = gsub(/\{/, "{", code); n_close = gsub(/\}/, "}", code)
    depth += n_open - n_close
    if (depth < 0) { inside = 0; next }   # the brace that closes the block around it
    if (n_open) opened = 1
    print FNR "\t" start "\t" $0
    if (opened && depth <= 0) inside = 0
}
