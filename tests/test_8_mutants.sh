# Mutants (tests/mutants.sh): the generator makes at least 150 single-edit mutants, the same
# ones every time, each one edit of its solution that tests/mistake.awk applies; the table
# that reads the grader's words into categories (tests/mutants/categories.txt) holds against
# the grader's own words; a fixed sample, one mutant a category, builds here and, on a GPU,
# is killed by the grader's checks. The whole run (tests/mutants.sh --run, minutes on a GPU)
# is not part of make test. Every check is also shown failing on a planted case.
# shellcheck disable=SC2034  # judge and fail (tests/lib.sh) read LAST_OUT and RC

mt=$TK_BUILD/mutants-test
rm -rf "$mt" && mkdir -p "$mt"
MUT=tests/mutants

# 1. The generator: at least 150 mutants, ids unique, the same list and descriptions twice.
run_cmd tests/mutants.sh --out "$mt/a"
list=$mt/a/mutants.txt
count=$(wc -l <"$list" 2>/dev/null || echo 0)
if [ "$RC" = 0 ] && [ "$count" -ge 150 ]; then pass "the generator makes $count mutants (at least 150)"
else fail "the generator makes at least 150 mutants" "exit $RC, $count mutants"; fi
judge "the generator prints its counts by step and operator" 0 '^operator +step1 ' '^guard-strict ' '^all '
run_cmd tests/mutants.sh --out "$mt/b"
run_cmd diff -r "$mt/a" "$mt/b"
judge "the generator is deterministic: a second run writes the same list and descriptions" 0 ''
run_cmd diff <(tests/mutants.sh --list) "$list"
judge "--list prints the list the generator writes" 0 ''

# unique LIST: the ids LIST holds more than once (none: unique).
unique() { cut -d' ' -f1 "$1" | sort | uniq -d; }
dups=$(unique "$list")
[ -z "$dups" ] && pass "every mutant's id is its own" || fail "every mutant's id is its own" "twice: $dups"
sed -n '1p;1p' "$list" >"$mt/twice.txt"
[ -n "$(unique "$mt/twice.txt")" ] && pass "ids: a list that names a mutant twice is caught" ||
    fail "ids: a list that names a mutant twice is caught" "not caught"

# unmade LIST: the operators of operators.txt that made no mutant in LIST (none: all made one).
unmade() { awk 'NR == FNR { made[$3] = 1; next } !/^[ \t]*(#|$)/ && !($1 in made) { print $1 }' "$1" $MUT/operators.txt; }
missing=$(unmade "$list")
[ -z "$missing" ] && pass "every operator makes at least one mutant" ||
    fail "every operator makes at least one mutant" "none from: $(echo "$missing" | tr '\n' ' ')"
grep ' step1 ' "$list" >"$mt/step1.txt"
case $(unmade "$mt/step1.txt" | tr '\n' ' ') in
    *barrier-drop*) pass "operators: step 1 alone, which has no barrier, is caught making no barrier mutant" ;;
    *) fail "operators: step 1 alone is caught making no barrier mutant" "not caught" ;;
esac
awk '!/^[ \t]*(#|$)/' $MUT/operators.txt >"$mt/ops.txt" && echo "no-such-op index never made" >>"$mt/ops.txt"
mkdir -p "$mt/refused"
expect "the generator refuses an operator it does not know" 1 'unknown operator no-such-op' \
    awk -v base=solution/step1 -v dir="$mt/refused" -f $MUT/mutate.awk "$mt/ops.txt" solution/step1/transpose.cu

# 2. Each mutant applies to its base (mistake.awk: its text occurs there exactly once) and is
# one edit of it: diff shows one command that changes, drops or adds one line, or a line moved
# (one line dropped, the same line added elsewhere).
# one_edit BASE FILE: whether FILE is one edit of BASE.
one_edit() {
    diff "$1" "$2" | awk '
        /^[0-9]/ { cmds++; next }
        /^< / { dels++; del = substr($0, 3) }
        /^> / { adds++; add = substr($0, 3) }
        END { exit !(cmds == 1 && dels <= 1 && adds <= 1 || cmds == 2 && dels == 1 && adds == 1 && del == add) }'
}
bad=""
while read -r id step _; do
    if ! awk -f tests/mistake.awk "$mt/a/desc/$id.txt" "solution/$step/transpose.cu" >"$mt/m.cu" 2>>"$mt/apply.log"; then
        bad="$bad $id(applies-not)"
    elif ! one_edit "solution/$step/transpose.cu" "$mt/m.cu"; then
        bad="$bad $id(not-one-edit)"
    fi
    echo "$(cksum <"$mt/m.cu" | tr ' ' -) $id" >>"$mt/made.txt"
done <"$list"
[ -z "$bad" ] && pass "every mutant applies to its base and is one edit of it ($count)" ||
    fail "every mutant applies to its base and is one edit of it" "$bad"
same=$(unique "$mt/made.txt")
[ -z "$same" ] && pass "no two mutants make the same file" || fail "no two mutants make the same file" "$same"
base=solution/step3/transpose.cu
sed 's/threadIdx.x\]/threadIdx.y]/' "$base" >"$mt/two.cu"   # two lines, far apart
! one_edit "$base" "$mt/two.cu" && pass "one edit: two lines changed apart are caught" ||
    fail "one edit: two lines changed apart are caught" "not caught"
! one_edit "$base" "$base" && pass "one edit: no edit at all is caught" || fail "one edit: no edit at all is caught" "not caught"
sed '/__syncthreads/d; /int oc = /s/$/\n    __syncthreads();/' "$base" >"$mt/moved.cu"
! one_edit "$base" "$mt/moved.cu" && pass "one edit: a line moved and changed on the way is caught" ||
    fail "one edit: a line moved and changed on the way is caught" "not caught"

# 3. tests/mutants/equivalent.txt names mutants the generator makes, each with the code of
# its line and a reason.
stale=$(awk 'NR == FNR { made[$1] = 1; next } !/^[ \t]*(#|$)/ && !($1 in made) { print $1 }' \
            "$list" $MUT/equivalent.txt)
[ -z "$stale" ] && pass "every mutant listed as equivalent is made by the generator" ||
    fail "every mutant listed as equivalent is made by the generator" "$(echo "$stale" | tr '\n' ' ')"
# equivalent_pins FILE ROOT: each mutant FILE lists whose line of ROOT/solution/STEP/transpose.cu
# does not hold the code FILE gives it in backquotes (the line's last /* */ comment left out,
# when the line ends with it), or that gives no code or no reason, one a line, saying which.
# (A line whose code holds a backquote cannot be given: no solution has one.)
equivalent_pins() {
    awk -v root="$2" '!/^[ \t]*(#|$)/ {
        id = $1; split(id, p, "-"); n = substr(p[2], 2) + 0
        if (!match($0, /`[^`]*`/)) { print id ": gives no code"; next }
        pin = substr($0, RSTART + 1, RLENGTH - 2)
        if (pin !~ /[^ \t]/) { print id ": gives no code"; next }
        if (substr($0, RSTART + RLENGTH) !~ /[^ \t]/) { print id ": gives no reason"; next }
        f = root "/solution/" p[1] "/transpose.cu"; code = ""; k = 0
        while ((getline l < f) > 0) if (++k == n) { code = l; break }
        close(f)
        if (match(code, /\/\*([^*]|\*+[^*\/])*\*+\/[ \t]*$/)) code = substr(code, 1, RSTART - 1)
        gsub(/^[ \t]+|[ \t]+$/, "", code)
        if (code != pin) print id ": gives `" pin "`, line " n " holds `" code "`" }' "$1"
}
pins=$(equivalent_pins $MUT/equivalent.txt .)
[ -z "$pins" ] && pass "every mutant listed as equivalent gives its line's code, which the line still holds, and a reason" ||
    fail "every mutant listed as equivalent gives its line's code, which the line still holds, and a reason" "$pins"
# The check can fail: step 7's solution with a line put in above its launch (the lines below
# move down one, as when a reason came to name another mutant), and a listed mutant whose
# reason is cut off.
for d in solution/step*/; do mkdir -p "$mt/pins/$d" && cp "$d/transpose.cu" "$mt/pins/$d"; done
sed '150i /* a line put in */' solution/step7/transpose.cu >"$mt/pins/solution/step7/transpose.cu"
sed 's/^\(step7-L157-grid-rc-1  `[^`]*`\).*/\1/' $MUT/equivalent.txt >"$mt/pins/equivalent.txt"
pins=$(equivalent_pins "$mt/pins/equivalent.txt" "$mt/pins")
[[ $pins == *'step7-L156-grid-rc-1: gives `bool panel = panel_shape(rows, cols);`, line 156 holds `'* ]] &&
    pass "equivalent pins: a line moved under a listed mutant is named, with both codes" ||
    fail "equivalent pins: a line moved under a listed mutant is named, with both codes" "$pins"
[[ $pins == *"step7-L157-grid-rc-1: gives no reason"* ]] && [[ $pins != *step6-* ]] &&
    pass "equivalent pins: a listed mutant with no reason is named; the steps unchanged are not" ||
    fail "equivalent pins: a listed mutant with no reason is named; the steps unchanged are not" "$pins"

# 4. The table of the grader's words. Every finding the grader can print, from its own words
# (scripts/grade/grade-words.sh, scripts/grade/grade.sh, the harness), must be read as exactly its row, and
# every row must be read from some finding.
# grader_words DIR: DIR/FINDING.K, one file a case: the lines the grader prints for it.
grader_words() (
    . scripts/grade/grade-words.sh
    local d=$1 name s
    say() { cat >"$(mktemp "$d/$1.XXXXXX")"; }   # say FINDING: a case, its lines on stdin
    # explain_pattern on every pattern the harness prints (common/patterns.h, which test 2
    # holds to explain_pattern's labels), in the words of several steps; one it does not know.
    for name in $(tests/pattern-names.sh --list common/patterns.h) no-such-pattern; do
        for s in 1 3 6 7 8; do
            explain_pattern "step$s" "  pattern: $name 32: the harness's words (64 = 2 x 32)" |
                sed '1s/^/what the wrong values show (33 x 65): /' |
                say "pattern:${name/no-such-pattern/unnamed}"
        done
    done
    # The last columns or rows unwritten from exactly rows (cols): a bound with the two
    # exchanged; where that number is also a whole number of blocks, a grid too.
    explain_pattern step3 "  pattern: unwritten-columns 33: the harness's words; the first of them equals rows (33)" |
        sed '1s/^/what the wrong values show (33 x 65): /' | say pattern:unwritten-bound
    explain_pattern step2 "  pattern: unwritten-rows 96: the harness's words; the first of them equals cols (96 = 3 x 32)" |
        sed '1s/^/what the wrong values show (160 x 96): /' | say pattern:unwritten-bound-blocks
    # grade.sh's line where every square passed and only rectangles failed.
    grep -o 'printf "what the shapes show[^"]*' scripts/grade/grade.sh | sed 's/^printf "//; s/%d/3/g; s/\\n$//' |
        say shapes:rows-cols
    # explain_call, on the harness's line for each kind of failed call it tells apart.
    call() { printf '%s\n' "transpose.cu:40: $2 failed: reason ($3)" >"$d/log"; explain_call "$d/log" | say "call:$1"; }
    call copy-refused 'cudaMemcpy(d_in, run.in, run.bytes, cudaMemcpyDeviceToHost)' cudaErrorInvalidValue
    call copy-refused 'cudaMemcpy(run.out, d_out, run.bytes, cudaMemcpyHostToDevice)' cudaErrorInvalidValue
    call launch-refused 'cudaGetLastError()' cudaErrorInvalidConfiguration
    call launch-refused 'cudaGetLastError()' cudaErrorInvalidValue
    call misaligned 'cudaDeviceSynchronize()' cudaErrorMisalignedAddress
    call illegal-address 'cudaDeviceSynchronize()' cudaErrorIllegalAddress
    call out-of-memory 'cudaMalloc(&d_in, run.bytes)' cudaErrorMemoryAllocation
    call free 'cudaFree(d_in)' cudaErrorInvalidValue
    call unexplained 'cudaDeviceSynchronize()' cudaErrorLaunchFailure
    echo "Segmentation fault" >"$d/log"; explain_call "$d/log" | say call:unnamed
    # explain_finding, on each kind of compute-sanitizer finding it tells apart.
    finding() { printf '========= %s\n' "$3" >"$d/log"; explain_finding "$2" "$d/log" | say "sanitizer:$1"; }
    finding call-failed memcheck 'Program hit cudaErrorLaunchFailure (error 719) on CUDA API call to cudaDeviceSynchronize.'
    finding misaligned memcheck $'Invalid __global__ read of size 8 bytes\n=========     Address 0x7f0000000004 is misaligned'
    finding global-write memcheck 'Invalid __global__ write of size 4 bytes'
    finding global-read memcheck 'Invalid __global__ read of size 4 bytes'
    finding shared memcheck 'Invalid __shared__ write of size 4 bytes'
    finding race racecheck $'Error: Race reported between Write access at transpose_kernel+0x80 in transpose.cu:23\n=========     and Read access at transpose_kernel+0xc0 in transpose.cu:29 [60512 hazards]'
    finding race racecheck $'Error: Race reported between Read access at transpose_kernel+0xc0 in transpose.cu:68\n=========     and Write access at transpose_kernel+0x80 in transpose.cu:57 [1152 hazards]'
    finding race racecheck $'Error: Race reported between Write access at transpose_kernel+0x80 in transpose.cu:55\n=========     and Write access at transpose_kernel+0x90 in transpose.cu:54 [302 hazards]\n=========     and Read access at transpose_kernel+0xc0 in transpose.cu:68 [3 hazards]'
    finding race-writes racecheck $'Warning: Race reported between Write access at transpose_kernel+0x7d0 in transpose.cu:66\n=========     and Write access at transpose_kernel+0xe60 in transpose.cu:66 [9 hazards]'
    finding race-writes racecheck $'Error: Race reported between Write access at transpose_kernel+0x870 in transpose.cu:55\n=========     and Write access at transpose_kernel+0x840 in transpose.cu:54 [302 hazards]\n=========     and Write access at transpose_kernel+0x860 in transpose.cu:54 [318 hazards]'
    finding barrier synccheck 'Barrier error detected. Divergent thread(s) in block'
    finding unexplained memcheck 'A finding no one has words for'
    # grade.sh's own lines (its echo text, shape and exit status filled in), and the harness's.
    said() { grep -o "echo \"[^\"]*$2[^\"]*" scripts/grade/grade.sh | head -n 1 |
             sed 's/^echo "//; s/\$rows/33/g; s/\$cols/65/g; s/\$rc/139/g' | say "$1"; }
    said build 'FAIL build'
    said shape:timeout 'did not finish in 2 minutes'
    said shape:not-run 'not run yet'
    said shape:exit 'exit status'
    said sanitizer:timeout 'did not finish in 5 minutes'
    # int_wrap_words, on the shape past 2^31 elements: a wrong element whose write's index, read's
    # index or both pass an int; one whose indexes do not; an illegal address; neither.
    wrap() { printf '%s\n' "$2" >"$d/log"; int_wrap_words "$d/log" 46341 46341 | say "large:$1"; }
    wrap int-wrap '  first at out[46340][46338] of the 46341 x 46341 output: expected 1, got 2'
    wrap int-wrap '  first at out[41708][46340] of the 46341 x 46341 output: expected 1, got 2'
    wrap int-wrap '  first at out[46340][46340] of the 46341 x 46341 output: expected 1, got 2'
    wrap not-int '  first at out[10][5] of the 46341 x 46341 output: expected 1, got 2'
    wrap int-wrap 'transpose.cu:40: cudaDeviceSynchronize() failed: an illegal memory access was encountered (cudaErrorIllegalAddress)'
    wrap unexplained 'Segmentation fault'
    { sed -n '/no element was written/{N;p}' common/core.c | grep -o '"[^"]*"' | tr -d '"\n' | sed 's/\\n$//'
      echo; } | say shape:nothing-written
)
# table_proof TABLE DIR: the cases of DIR read with TABLE: prints each case read as anything
# but its own finding, and each row of TABLE no case is read as; nothing when all hold.
table_proof() {
    local table=$1 d=$2 f want got
    for f in "$d"/*.*; do
        want=${f##*/}; want=${want%.*}
        got=$(awk -v each=1 -f $MUT/explained.awk "$table" "$f" | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')
        [ "$got" = "$want " ] || echo "case ${f##*/} read as '${got% }'"
        echo "$want" >>"$d/.proven"
    done
    awk 'NR == FNR { proven[$1] = 1; next } !/^[ \t]*(#|$)/ && !($1 in proven) { print "row " $1 " read from no case" }' \
        "$d/.proven" "$table"
    rm -f "$d/.proven"
}
mkdir -p "$mt/words"
grader_words "$mt/words"
cases=$(find "$mt/words" -type f | wc -l)
proof=$(table_proof $MUT/categories.txt "$mt/words")
[ -z "$proof" ] && [ "$cases" -ge 60 ] && pass "categories.txt: each of $cases findings in the grader's own words is read as its row, and every row is used" ||
    fail "categories.txt: each finding in the grader's own words is read as its row, and every row is used" "$cases cases; $proof"
{ cat $MUT/categories.txt; echo "call:never   copy   words the grader never prints"; } >"$mt/table-extra.txt"
[[ $(table_proof "$mt/table-extra.txt" "$mt/words") == *"row call:never read from no case"* ]] &&
    pass "categories.txt: a row no finding reads is caught" || fail "categories.txt: a row no finding reads is caught" "not caught"
sed 's/^\(pattern:load-stride  *index  *\).*/\1the load.s index steps a row by cols/' $MUT/categories.txt >"$mt/table-stale.txt"
[[ $(table_proof "$mt/table-stale.txt" "$mt/words") == *"case pattern:load-stride."*" read as ''"* ]] &&
    pass "categories.txt: a row whose words the grader no longer says is caught" ||
    fail "categories.txt: a row whose words the grader no longer says is caught" "not caught"
printf 'PASS build\nPASS 1 x 1\ngraded step3: passed\n' >"$mt/clean.txt"
run_cmd awk -f $MUT/explained.awk $MUT/categories.txt "$mt/clean.txt"
judge "explained.awk: a grade with no finding is read as none ('-|')" 0 '^-\|$'
cat "$mt/words/pattern:unwritten-rows."* "$mt/words/sanitizer:global-read."* >"$mt/mixed.txt"
run_cmd awk -f $MUT/explained.awk $MUT/categories.txt "$mt/mixed.txt"
judge "explained.awk: a grade's categories are its findings' categories, each once" 0 \
    '^grid guard\|pattern:unwritten-rows sanitizer:global-read$'

# 5. The report's arithmetic: the match rate counts the mutants the checks killed, not the build's.
cat >"$mt/report.csv" <<'EOF'
id,step,operator,category,verdict,checks,explained,match,line,findings,build_s,grade_s
a,step1,index-rc,index,killed,shapes,index,yes,20,pattern:copy,3.0,10.0
b,step1,index-rc,index,killed,memcheck,guard,no,20,sanitizer:global-read,3.0,10.0
c,step1,index-rc,index,killed,build,build,-,20,build,3.0,
d,step2,guard-rc,guard,survived,,-,-,17,,3.0,10.0
e,step2,guard-rc,guard,equivalent,,-,-,17,,3.0,10.0
EOF
run_cmd awk -F, -v wall=60 -v builders=8 -v jobs=8 -f $MUT/summary.awk "$mt/report.csv"
judge "summary.awk: verdicts, and a match rate of the mutants the checks killed" 0 \
    '^5 mutants: killed 3 \(1 by the build, 2 by the checks\), survived 1, equivalent 1$' \
    '^  step1 +3 +1 +2 +0 +0 +1  50%$' '^  step2 +2 +0 +0 +1 +1 +0    -$' '^  all +5 +1 +2 +1 +1 +1  50%$'

# The words past 2^31 name the index that passed an int from the first wrong element's two
# places: out[i][j] is element i * rows + j of out and holds in[j][i], element j * cols + i of
# in. A square and a rectangle, so that rows and cols exchanged would be caught.
wrap_says() {   # wrap_says LINE ROWS COLS: int_wrap_words on a run that printed LINE
    printf '%s\n' "$1" >"$mt/wrap.log"
    (. scripts/grade/grade-words.sh && int_wrap_words "$mt/wrap.log" "$2" "$3") >"$TK_BUILD/last.out" 2>&1
    RC=$?; LAST_OUT=$TK_BUILD/last.out
}
wrap_says '  first at out[46340][46338] of the 46341 x 46341 output' 46341 46341
judge "past 2^31: the write's index named (46341 x 46341)" 0 'element 2147488278 of out; it should hold in\[46338\]\[46340\], element 2147395598 of in' "the write's index \(into out\) passes it; the read's does not"
wrap_says '  first at out[32768][0] of the 32769 x 65536 output' 65536 32769
judge "past 2^31: the write's index named (65536 x 32769, not square)" 0 'element 2147483648 of out; it should hold in\[0\]\[32768\], element 32768 of in' "the write's index \(into out\) passes it"
wrap_says '  first at out[1][65535] of the 32769 x 65536 output' 65536 32769
judge "past 2^31: the read's index named (65536 x 32769)" 0 'element 131071 of out; it should hold in\[65535\]\[1\], element 2147516416 of in' "the read's index \(into in\) passes it; the write's does not"
wrap_says '  first at out[46340][46340] of the 46341 x 46341 output' 46341 46341
judge "past 2^31: both indexes named" 0 "both indexes pass it"
wrap_says '  first at out[10][5] of the 46341 x 46341 output' 46341 46341
judge "past 2^31: an element whose indexes fit an int is not blamed on an int" 0 'does not point at an index held in an int'
[ -z "$(grep 'size_t' "$LAST_OUT")" ] && pass "past 2^31: ... and no size_t is offered for it" || fail "past 2^31: ... and no size_t is offered for it" "see above"

# 6. --run: without a GPU it says so and grades nothing; bad arguments are refused.
expect "--run without a GPU: nothing graded, nothing built, exit 3" 3 '^nothing was graded: no usable GPU here' \
    env CUDA_VISIBLE_DEVICES= tests/mutants.sh --run --out "$mt/run"
[ ! -e "$mt/run" ] && pass "--run without a GPU writes nothing" || fail "--run without a GPU writes nothing" "$mt/run exists"
expect "--jobs past 8 is refused (the GPU is shared)" 2 'takes 1 to 8' tests/mutants.sh --run --jobs 9
expect "an unknown argument is refused, with the usage" 2 'tests/mutants.sh --run \[--jobs N\]' tests/mutants.sh --all

# 7. A fixed sample, one mutant a category: in the generator's order, the first of each
# category that tests/mutants/equivalent.txt does not list. It builds here; on a GPU the
# grader's checks kill each.
sample=$(awk 'NR == FNR { if ($0 !~ /^[ \t]*(#|$)/) eq[$1] = 1; next }
              !($4 in taken) && !($1 in eq) { taken[$4] = 1; print $1, $2 }' $MUT/equivalent.txt "$list")
ncat=$(awk '!/^[ \t]*(#|$)/ { print $2 }' $MUT/operators.txt | sort -u | wc -l)
[ "$(echo "$sample" | wc -l)" = "$ncat" ] && pass "the sample holds one mutant of each of the $ncat categories" ||
    fail "the sample holds one mutant of each of the $ncat categories" "$(echo "$sample" | tr '\n' ' ')"
while read -r id step; do
    edited_folder "$mt/a/desc/$id.txt" "solution/$step" "$mt/s/$id"
done <<<"$sample"
echo "$sample" | cut -d' ' -f1 | xargs -P "$(nproc)" -I{} sh -c \
    'make -s -C "$1/{}" COMMON="$2/common" >"$1/{}/build.log" 2>&1; echo $? >"$1/{}/build.rc"' _ "$mt/s" "$TK_ROOT"
while read -r id step; do
    LAST_OUT=$mt/s/$id/build.log
    [ "$(cat "$mt/s/$id/build.rc")" = 0 ] && pass "sample $id builds" || fail "sample $id builds" "make failed"
done <<<"$sample"
LAST_OUT=$TK_BUILD/last.out
gpu_probe
if [ "$GPU_STATE" = present ]; then
    at_once=1; gpus_shared && at_once=4   # grades side by side where the GPU takes several processes
    TK_GRADE_LOCK=$(mktemp /tmp/tk-grade-lock.XXXXXX) && export TK_GRADE_LOCK
    echo "$sample" | cut -d' ' -f1 | TK_GRADE_AT_ONCE=2 xargs -P "$at_once" -I{} bash -c \
        'grade_into "$0/{}" --checks-only large' "$mt/s"
    rm -f "$TK_GRADE_LOCK"; unset TK_GRADE_LOCK
fi
while read -r id step; do
    gpu_test "grade: sample $id is killed by the checks" || continue
    if grep -q 'not checked: this machine cannot hold it' "$mt/s/$id/grade.txt" 2>/dev/null; then
        skip "grade: sample $id is killed by the checks" "this machine cannot hold a shape past 2^31 elements (the grade says so)"; continue
    fi
    judge_grade "grade: sample $id is killed by the checks" "$mt/s/$id" 1 "^graded $step: failed \\((shapes|memcheck|racecheck|synccheck|large)"
done <<<"$sample"

# A run in parts: --steps keeps only those steps' mutants; --summary adds up the parts' CSVs.
run_cmd tests/mutants.sh --list --steps 1,3
part=$(awk '{ print $2 }' "$LAST_OUT" | sort -u | tr '\n' ' ')
whole=$(tests/mutants.sh --list | awk '$2 == "step1" || $2 == "step3"' | wc -l)
[ "$RC" = 0 ] && [ "$part" = "step1 step3 " ] && [ "$(wc -l <"$LAST_OUT")" = "$whole" ] &&
    pass "mutants --steps 1,3: every mutant of steps 1 and 3 and no other ($whole)" ||
    fail "mutants --steps 1,3: every mutant of steps 1 and 3 and no other" "steps '$part', $(wc -l <"$LAST_OUT") of $whole"
expect "mutants --steps refuses what is not a list of step numbers, exit 2" 2 'takes step numbers' \
    tests/mutants.sh --steps 1,x
head=$(head -n 1 "$mt/report.csv")   # the header section 5 wrote: what --run writes
printf '%s\n%s\n' "$head" "a,step1,index-rc,index,killed,shapes,index,yes,20,pattern:copy,3.0,10.0" >"$TK_BUILD/part1.csv"
printf '%s\n%s\n%s\n' "$head" "b,step2,guard-rc,guard,killed,shapes,grid,no,17,pattern:unwritten-rows,3.0,12.0" \
    "c,step2,const-halve,constant,equivalent,,-,-,9,,3.0,9.0" >"$TK_BUILD/part2.csv"
expect "mutants --summary adds up the parts: 3 mutants, 2 killed, 1 equivalent, 1 of 2 matched" 0 \
    '^3 mutants: killed 2 \(0 by the build, 2 by the checks\), survived 0, equivalent 1$' \
    tests/mutants.sh --summary "$TK_BUILD/part1.csv" "$TK_BUILD/part2.csv"
grep -Eq '^  all +3 +0 +2 +0 +1 +1 +50%$' "$LAST_OUT" && pass "mutants --summary: the match rate over the parts (1 of 2)" ||
    fail "mutants --summary: the match rate over the parts" "see above"
expect "mutants --summary refuses a file that is not a run's CSV, exit 2" 2 'is not a CSV of tests/mutants.sh --run' \
    tests/mutants.sh --summary tests/mutants/operators.txt
# A part that re-grades: where a mutant is in several parts, its last graded row counts (an
# ungraded row never hides a graded one); a survivor listed in equivalent.txt since its run
# counts as equivalent, said so.
eqid=$(awk '!/^[ \t]*(#|$)/ { print $1; exit }' $MUT/equivalent.txt)
printf '%s\n%s\n%s\n' "$head" "b,step2,guard-rc,guard,killed,shapes,guard,yes,17,pattern:unwritten-rows,3.0,12.0" \
    "a,step1,index-rc,index,ungraded,,-,-,20,,," >"$TK_BUILD/part3.csv"
printf '%s\n%s\n' "$head" "$eqid,${eqid%%-*},barrier-dup,barrier,survived,,-,-,53,,3.0,9.0" >"$TK_BUILD/part4.csv"
expect "mutants --summary: a re-graded mutant counts once, by its last graded row (2 of 2 matched)" 0 \
    '^3 mutants: killed 2 \(0 by the build, 2 by the checks\), survived 0, equivalent 1$' \
    tests/mutants.sh --summary "$TK_BUILD/part1.csv" "$TK_BUILD/part2.csv" "$TK_BUILD/part3.csv"
grep -Eq '^  all +3 +0 +2 +0 +1 +2 +100%$' "$LAST_OUT" && pass "mutants --summary: the re-graded row's match counts, the ungraded row does not" ||
    fail "mutants --summary: the re-graded row's match counts, the ungraded row does not" "see above"
printf '%s\n%s\n%s\n' "$head" "d,step1,index-rc,index,ungraded,,-,-,21,,," \
    "a,step1,index-rc,index,timeout,,-,-,20,,3.0,240.0" >"$TK_BUILD/part5.csv"
expect "mutants --summary: a later timeout does not hide a verdict; a mutant only ever ungraded counts as such" 0 \
    "^2 mutants: killed 1 \\(0 by the build, 1 by the checks\\), survived 0, equivalent 0, not graded before the run's --limit 1\$" \
    tests/mutants.sh --summary "$TK_BUILD/part1.csv" "$TK_BUILD/part5.csv"
expect "mutants --summary: a survivor listed as equivalent since its run counts as equivalent, said so" 0 \
    '^1 survivor\(s\) of the runs, listed in tests/mutants/equivalent.txt since, counted as equivalent$' \
    tests/mutants.sh --summary "$TK_BUILD/part4.csv"
grep -q '^1 mutants: killed 0 (0 by the build, 0 by the checks), survived 0, equivalent 1$' "$LAST_OUT" &&
    pass "mutants --summary: that survivor is not counted as one" ||
    fail "mutants --summary: that survivor is not counted as one" "see above"

# --ids FILE: only the mutants it lists, in its order; an ID the generator does not make, or no
# file, is refused.
printf '# a comment\n%s\n%s\n' "$(sed -n 2p "$list" | cut -d' ' -f1)" "$(sed -n 1p "$list" | cut -d' ' -f1)" >"$TK_BUILD/ids.txt"
run_cmd tests/mutants.sh --list --ids "$TK_BUILD/ids.txt"
[ "$RC" = 0 ] && [ "$(cut -d' ' -f1 "$LAST_OUT" | tr '\n' ' ')" = "$(grep -v '^#' "$TK_BUILD/ids.txt" | tr '\n' ' ')" ] &&
    pass "mutants --ids: only the listed mutants, in the file's order" ||
    fail "mutants --ids: only the listed mutants, in the file's order" "exit $RC: $(tr '\n' ' ' <"$LAST_OUT")"
cat "$TK_BUILD/ids.txt" "$TK_BUILD/ids.txt" >"$TK_BUILD/ids-twice.txt"
run_cmd tests/mutants.sh --list --ids "$TK_BUILD/ids-twice.txt"
[ "$RC" = 0 ] && [ "$(wc -l <"$LAST_OUT")" = 2 ] && pass "mutants --ids: an ID listed twice is graded once" ||
    fail "mutants --ids: an ID listed twice is graded once" "exit $RC, $(wc -l <"$LAST_OUT") lines"
echo "step1-L999-no-such-op-1" >"$TK_BUILD/ids-bad.txt"
expect "mutants --ids refuses an ID no mutant has, exit 2" 2 '^mutants: --ids: no mutant step1-L999-no-such-op-1$' \
    tests/mutants.sh --list --ids "$TK_BUILD/ids-bad.txt"
expect "mutants --ids refuses a file that is not there, exit 2" 2 'takes a file of mutant IDs' \
    tests/mutants.sh --list --ids "$TK_BUILD/no-such-ids.txt"
