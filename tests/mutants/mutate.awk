# The single-edit mutants of one solution file, from the operators of operators.txt:
#   awk -v base=solution/step3 -v dir=DIR -f tests/mutants/mutate.awk \
#       tests/mutants/operators.txt solution/step3/transpose.cu
# writes DIR/ID.txt for each mutant, a description in tests/mistake.awk's format (headers
# mutant, mistake, base, step, operator, category, site, then one replace: ... with: ... end block
# that occurs exactly once in the base), and prints one line a mutant: ID OPERATOR CATEGORY
# LINE. ID is STEP-LLINE-OPERATOR-K, K counting the operator's sites on that line. An edit
# that leaves the file as it was, or as an earlier mutant made it, is dropped. Comments are
# never mutated. Deterministic: operators in the file's order, then lines, then columns.
# Exits 1 on an operator it does not know.

FNR == NR {
    if ($0 ~ /^[ \t]*(#|$)/) next
    nops++; opname[nops] = $1; opcat[$1] = $2
    d = $0; sub(/^[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", d); opdesc[$1] = d
    next
}
{ L[++n] = $0 }

END {
    if (!n) { print "mutate.awk: no base file" > "/dev/stderr"; exit 1 }
    step = base; sub(/.*\//, "", step)
    mask()
    for (i = 1; i <= n; i++) text = text L[i] "\n"
    seen[text] = 1
    for (k = 1; k <= nops; k++) {
        op = opname[k]
        for (i = 1; i <= n; i++) {
            C = M[i]; nocc = 0
            if (!apply(op, i)) { print "mutate.awk: unknown operator " op > "/dev/stderr"; exit 1 }
        }
    }
}

# M[i]: line i with its comments masked ("\001"), so that no pattern matches inside one;
# region[i]: "kernel", "header" (the line that opens launch(), or a function that returns
# launch()'s grid, a dim3), "launch" (its body) or "main".
function mask(   i, s, out, j, p, incomment, where) {
    incomment = 0; where = "kernel"
    for (i = 1; i <= n; i++) {
        s = L[i]; out = ""
        while (s != "") {
            if (incomment) {
                p = index(s, "*/")
                if (!p) { out = out fill(length(s)); s = "" }
                else { out = out fill(p + 1); s = substr(s, p + 2); incomment = 0 }
            } else {
                p = index(s, "/*")
                if (!p) { out = out s; s = "" }
                else { out = out substr(s, 1, p - 1); s = substr(s, p); incomment = 1 }
            }
        }
        M[i] = out
        if (L[i] ~ /^static void launch\(/ || L[i] ~ /^(static )?dim3 [A-Za-z_][A-Za-z0-9_]*\(/) {
            region[i] = "header"; where = "launch"; continue
        }
        if (L[i] ~ /^int main\(/) where = "main"
        region[i] = where
        if (where == "launch" && L[i] ~ /^}/) where = "kernel"
    }
}
function fill(k,   s) { s = ""; while (k-- > 0) s = s "\001"; return s }

# apply OP I: every site of OP on line I, each through emit; false for an unknown OP.
function apply(op, i,   s, p, q, r, t, w, x, y, lo, hi) {
    s = M[i]
    if (op == "index-rc") {
        if (region[i] != "kernel") return 1
        for (p = 1; (q = next_at(s, "(^|[^A-Za-z0-9_.])(in|out|o)\\[", p)); p = q + 1) {
            q = index(substr(s, q), "[") + q - 1
            r = close_of(s, q)
            x = swap_sum(substr(s, q + 1, r - q - 1), "rows cols")
            if (x != "") edit_span(op, i, q + 1, r - 1, x)
        }
    } else if (op == "index-stride") {
        if (region[i] != "kernel") return 1
        for (p = 1; (q = next_at(s, "\\* (rows|cols)([^A-Za-z0-9_]|$)", p)); p = q + 1)
            edit_span(op, i, q + 2, q + 5, substr(s, q + 2, 4) == "rows" ? "cols" : "rows")
    } else if (op == "tile-swap") {
        if (region[i] != "kernel" || s ~ /__shared__/) return 1
        for (p = 1; (q = next_at(s, "(^|[^A-Za-z0-9_])tile\\[", p)); p = q + 1) {
            q = index(substr(s, q), "[") + q - 1
            r = close_of(s, q)
            x = substr(s, q + 1, r - q - 1)
            if (x ~ /^at\(.*\)$/) {                       # tile[at(a, b)]
                t = top_comma(x)
                if (t) edit_span(op, i, q + 1, r - 1, "at(" trim(substr(x, t + 1, length(x) - t - 1)) ", " substr(x, 4, t - 4) ")")
            } else if (substr(s, r + 1, 1) == "[") {      # tile[a][b]
                w = close_of(s, r + 1)
                edit_span(op, i, q + 1, w - 1, substr(s, r + 2, w - r - 2) "][" x)
            } else {                                      # tile[i * S + j]
                y = swap_sum(x, "S")
                if (y != "") edit_span(op, i, q + 1, r - 1, y)
            }
        }
    } else if (op == "thread-xy" || op == "block-xy") {
        if (region[i] != "kernel") return 1
        x = op == "thread-xy" ? "threadIdx" : "block(Idx|Dim)"
        if (s !~ (x "\\.[xy]")) return 1
        y = L[i]
        for (p = 1; (q = next_at(s, x "\\.[xy]", p)); p = q + 1) {
            q = index(substr(s, q), ".") + q
            y = substr(y, 1, q - 1) (substr(s, q, 1) == "x" ? "y" : "x") substr(y, q + 1)
        }
        edit_line(op, i, y)
    } else if (op == "guard-strict" || op == "loop-bound") {
        if (region[i] != "kernel" || s ~ /^#/) return 1
        if (op == "loop-bound") {                          # the condition of a for (...)
            if (!(t = next_at(s, "for \\(", 1))) return 1
            lo = index(substr(s, t), ";") + t - 1
            hi = index(substr(s, lo + 1), ";") + lo
        }
        for (p = 1; (q = next_at(s, " (<|<=|>|>=) ", p)); p = q + 1) {
            if (op == "loop-bound" && (q < lo || q > hi)) continue
            x = substr(s, q + 1, 2); sub(/ $/, "", x)
            if (op == "guard-strict") {
                y = x == "<" ? "<=" : x == "<=" ? "<" : x == ">" ? ">=" : ">"
                edit_span(op, i, q + 1, q + length(x), y)
            } else {
                t = q + length(x) + 2                      # the bound's first character
                w = operand_end(s, t)
                y = substr(s, t, w - t + 1)
                r = (x == "<" || x == ">=") ? -1 : 1
                if (y ~ /^-?[0-9]+$/) y = y + r
                else y = y (r < 0 ? " - 1" : " + 1")
                edit_span(op, i, t, w, y)
            }
        }
    } else if (op == "guard-rc" || op == "grid-rc") {
        if (region[i] != (op == "guard-rc" ? "kernel" : "launch")) return 1
        if (op == "guard-rc" && s !~ / (<|<=|>|>=|==|!=) /) return 1
        if (s ~ /<<</ || !next_at(s, "(^|[^A-Za-z0-9_.])(rows|cols)([^A-Za-z0-9_]|$)", 1)) return 1
        y = L[i]
        for (p = 1; (q = next_at(s, "(^|[^A-Za-z0-9_.])(rows|cols)([^A-Za-z0-9_]|$)", p)); p = q + 1) {
            if (substr(s, q, 4) !~ /^(rows|cols)$/) q++
            y = substr(y, 1, q - 1) (substr(s, q, 4) == "rows" ? "cols" : "rows") substr(y, q + 4)
        }
        edit_line(op, i, y)
    } else if (op ~ /^barrier-/) {
        if (s !~ /^[ \t]*__syncthreads\(\);[ \t\001]*$/) return 1
        if (op == "barrier-drop") edit_lines(op, i, i, i, "")
        else if (op == "barrier-dup") edit_lines(op, i, i, i, L[i] "\n" L[i] "\n")
        else if (op == "barrier-up") {
            t = statement_above(i)
            if (t) edit_lines(op, i, t, i, L[i] "\n" join(t, i - 1))
        } else if (op == "barrier-down") {
            t = block_end(i)
            if (t > i + 1) edit_lines(op, i, i, t - 1, join(i + 1, t - 1) L[i] "\n")
        } else return 0
    } else if (op == "grid-floor") {
        if (region[i] != "launch") return 1
        for (p = 1; (q = next_at(s, " - 1\\) / [A-Za-z_][A-Za-z0-9_]*", p)); p = q + 1) {
            t = substr(s, q + 8); match(t, /^[A-Za-z_][A-Za-z0-9_]*/); t = substr(t, 1, RLENGTH)
            r = q + 4                                      # the ")"
            w = open_of(s, r)
            x = substr(s, w + 1, q - w - 1)                # n + T
            if (substr(x, length(x) - length(t) - 2) != " + " t) continue
            x = substr(x, 1, length(x) - length(t) - 3)
            if (x !~ /^[A-Za-z0-9_.]+$/) x = "(" x ")"
            edit_span(op, i, w, r + 3 + length(t), x " / " t)
        }
    } else if (op == "copy-half") {
        if (s !~ /cudaMemcpy\(/) return 1
        for (p = 1; (q = next_at(s, "run\\.bytes", p)); p = q + 1)
            edit_span(op, i, q, q + 8, "run.bytes / 2")
    } else if (op == "copy-direction") {
        for (p = 1; (q = next_at(s, "cudaMemcpy(HostToDevice|DeviceToHost)", p)); p = q + 1)
            edit_span(op, i, q, q + 21, substr(s, q + 10, 1) == "H" ? "cudaMemcpyDeviceToHost" : "cudaMemcpyHostToDevice")
    } else if (op == "const-halve") {
        if (!match(s, /^#define[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]+[0-9]+/)) return 1
        t = substr(s, 1, RLENGTH); match(t, /[0-9]+$/)
        x = substr(t, RSTART) + 0
        if (x >= 2) edit_span(op, i, RSTART, RSTART + RLENGTH - 1, int(x / 2))
    } else if (op == "index-int") {
        if (region[i] != "kernel") return 1
        for (p = 1; (q = next_at(s, "\\(size_t\\)", p)); p = q + 1)
            edit_span(op, i, q, q + 7, "")
    } else if (op == "pad-zero" || op == "pad-two") {
        if (region[i] != "kernel" || s !~ /__shared__|const int/) return 1
        for (p = 1; (q = next_at(s, " \\+ 1([^0-9]|$)", p)); p = q + 1)
            edit_span(op, i, q, q + 3, op == "pad-zero" ? "" : " + 2")
    } else return 0
    return 1
}

# next_at S RE P: where the first match of RE in S at or after P starts; 0 if none.
function next_at(s, re, p,   t) {
    t = substr(s, p)
    if (!match(t, re)) return 0
    return p + RSTART - 1
}
# close_of S P / open_of S P: the bracket that closes the one at P / opens the one at P.
function close_of(s, p,   d, c) {
    for (d = 0; p <= length(s); p++) {
        c = substr(s, p, 1)
        if (c == "(" || c == "[") d++
        else if ((c == ")" || c == "]") && --d == 0) return p
    }
    return 0
}
function open_of(s, p,   d, c) {
    for (d = 0; p >= 1; p--) {
        c = substr(s, p, 1)
        if (c == ")" || c == "]") d++
        else if ((c == "(" || c == "[") && --d == 0) return p
    }
    return 0
}
# top_comma X: the first comma of X (an "f(a, b)") outside the brackets inside its parentheses.
function top_comma(x,   p, d, c) {
    d = 0
    for (p = 1; p <= length(x); p++) {
        c = substr(x, p, 1)
        if (c == "(" || c == "[") d++
        else if (c == ")" || c == "]") d--
        else if (c == "," && d == 1) return p
    }
    return 0
}
# operand_end S P: the last character of the operand that starts at P: up to &&, ||, ;, ?, a
# comma, or a bracket that closes outside it.
function operand_end(s, p,   d, c, e) {
    d = 0; e = p
    for (; p <= length(s); p++) {
        c = substr(s, p, 1)
        if (c == "(" || c == "[") d++
        else if (c == ")" || c == "]") { if (--d < 0) break }
        else if (d == 0 && (c == ";" || c == "?" || c == "," || substr(s, p, 2) ~ /^(&&|\|\|)$/)) break
        if (c != " ") e = p
    }
    return e
}
function trim(x) { sub(/^ +/, "", x); sub(/ +$/, "", x); return x }

# swap_sum X STRIDES: X ("[(size_t)]A * N + B", N one of STRIDES) with A and B exchanged, as
# "[(size_t)]B * N + A" (B parenthesised unless one token, A's own parentheses dropped); ""
# where X has another form.
function swap_sum(x, strides,   cast, p, d, c, a, nn, b, rest) {
    cast = ""
    if (substr(x, 1, 8) == "(size_t)") { cast = "(size_t)"; x = substr(x, 9) }
    d = 0
    for (p = 1; p <= length(x); p++) {
        c = substr(x, p, 1)
        if (c == "(" || c == "[") d++
        else if (c == ")" || c == "]") d--
        else if (d == 0 && substr(x, p, 3) == " * ") break
    }
    if (p > length(x)) return ""
    a = substr(x, 1, p - 1); rest = substr(x, p + 3)
    if (!match(rest, /^[A-Za-z_][A-Za-z0-9_]* \+ /)) return ""
    nn = substr(rest, 1, RLENGTH - 3); b = substr(rest, RLENGTH + 1)
    if (index(" " strides " ", " " nn " ") == 0) return ""
    if (substr(a, 1, 1) == "(" && close_of(a, 1) == length(a)) a = substr(a, 2, length(a) - 2)
    else if (a !~ /^[A-Za-z0-9_.]+$/) return ""
    if (b !~ /^[A-Za-z0-9_.]+$/) b = "(" b ")"
    return cast b " * " nn " + " a
}

# The barrier's moves. statement_above I: the first line of the statement above line I at
# its indentation (with the #pragma lines just above it), 0 where its block starts first;
# block_end I: the line that closes line I's block.
function statement_above(i,   ind, t) {
    ind = indent(L[i])
    for (t = i - 1; t >= 1; t--) {
        if (M[t] ~ /^[ \t\001]*$/ || indent(L[t]) > ind || M[t] ~ /^[ \t]*}/) continue
        if (indent(L[t]) < ind) return 0
        while (t > 1 && indent(L[t - 1]) == ind && L[t - 1] ~ /^[ \t]*#pragma/) t--
        return t
    }
    return 0
}
function block_end(i,   ind, t) {
    ind = indent(L[i])
    for (t = i + 1; t <= n; t++)
        if (M[t] !~ /^[ \t\001]*$/ && indent(L[t]) < ind) return t
    return 0
}
function indent(s) { match(s, /^[ \t]*/); return RLENGTH }
function join(a, b,   s) { s = ""; for (; a <= b; a++) s = s L[a] "\n"; return s }

# The edits: a span of line I (columns P to Q) replaced by X; line I replaced by Y; lines A to
# B replaced by TEXT (whole lines, each ending in "\n"). Each becomes one mutant, at site I.
function edit_span(op, i, p, q, x) {
    edit_line(op, i, substr(L[i], 1, p - 1) x substr(L[i], q + 1))
}
function edit_line(op, i, y) { edit_lines(op, i, i, i, y "\n") }
function edit_lines(op, i, a, b, new,   old, pre, post, id, f, mutant) {
    nocc++
    mutant = join(1, a - 1) new join(b + 1, n)
    if (mutant in seen) return
    seen[mutant] = 1
    id = step "-L" i "-" op "-" nocc
    # Widen the replaced block by whole lines until it occurs exactly once in the base.
    old = join(a, b); pre = post = ""
    while (occurrences(pre old post) != 1) {
        if (b < n) { b++; post = post L[b] "\n" }
        else { a--; pre = L[a] "\n" pre }
    }
    f = dir "/" id ".txt"
    printf "mutant: %s\nmistake: %s\nbase: %s\nstep: %s\noperator: %s\ncategory: %s\nsite: line %d\n", \
        id, opdesc[op], base, step, op, opcat[op], i > f
    printf "replace:\n%swith:\n%send\n", pre old post, pre new post > f
    close(f)
    print id, op, opcat[op], i
}
function occurrences(s,   t, k, p) {
    k = 0; t = text
    for (; (p = index(t, s)); k++) t = substr(t, p + 1)
    return k
}
