/* Host-side unit tests of the harness's plain-C parts: options, values, CPU transpose,
   checker, statistics and bandwidth arithmetic, and launcher mode's environment, id file and
   rows (ranks/launch.h). Prints one "PASS name" or "FAIL name: why" line per test; tests/run.sh
   counts them. */
#define _POSIX_C_SOURCE 200809L   /* fork, waitpid, mkdtemp, setrlimit for the launcher's tests */
#include "explain.h"
#include "hostmem.h"
#include "ranks/launch.h"
#include "matrix.h"
#include "options.h"
#include "report.h"

#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int failures;

static void result(const char *name, int ok, const char *why)
{
    if (ok) {
        printf("PASS %s\n", name);
    } else {
        printf("FAIL %s: %s\n", name, why);
        failures++;
    }
}

/* ---- options ---------------------------------------------------------------------- */

static enum tk_parse_result parse(const char *line, struct tk_options *o, char *err)
{
    static char buf[512];   /* static: o->shapes points into it */
    char *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "transpose %s", line);
    for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    err[0] = '\0';
    return tk_parse_options(argc, argv, o, err, 256);
}

static void test_options_good(void)
{
    struct tk_options o;
    char err[256];

    int ok = parse("", &o, err) == TK_PARSE_OK && o.rows == 8192 && o.cols == 8192 &&
             o.reps == TK_DEFAULT_REPS && o.warmup == TK_DEFAULT_WARMUP && o.device == 0 &&
             !o.csv && !o.no_cpu && !o.no_flush;
    result("options: defaults are 8192 x 8192, 20 reps, 3 warm-ups", ok, err);

    ok = parse("-n 100", &o, err) == TK_PARSE_OK && o.rows == 100 && o.cols == 100;
    result("options: -n sets both dimensions", ok, err);

    ok = parse("--rows 3 --cols=7 --reps 9 --warmup=0 --device 1 --csv --no-cpu --no-flush", &o,
               err) == TK_PARSE_OK && o.rows == 3 && o.cols == 7 && o.reps == 9 &&
         o.warmup == 0 && o.device == 1 && o.csv && o.no_cpu && o.no_flush;
    result("options: every flag, with space and = forms", ok, err);

    ok = parse("--rows 2147483392 --cols 1000000", &o, err) == TK_PARSE_OK &&
         parse("--rows 25913499 --cols 11", &o, err) == TK_PARSE_OK &&
         parse("-n 46341", &o, err) == TK_PARSE_OK && parse("--rows 65536 --cols 65537", &o,
         err) == TK_PARSE_OK && parse("--rows 2147483649 --cols 1", &o, err) == TK_PARSE_OK &&
         parse("--rows 3 --cols 4294967296", &o, err) == TK_PARSE_OK && o.cols == 4294967296L;
    result("options: sizes past 2^31 elements, 2097120 rows and an int a side are accepted", ok, err);

    /* Which programs hold a side in an int, and what they say past it. */
    char say[256] = "";
    ok = !tk_side_refusal("step3", TK_INT_SIDE_MAX, TK_INT_SIDE_MAX, say, sizeof say) &&
         tk_side_refusal("step3", TK_INT_SIDE_MAX + 1, 1, say, sizeof say) &&
         strstr(say, "2147483393 rows: step 3 holds each side of the matrix in an int") &&
         strstr(say, "at most 2147483392; step 7 takes every shape that fits") &&
         !strstr(say, "one GPU");
    result("options: step 3 refuses a side past an int, in its words, naming step 7", ok, say);
    ok = tk_side_refusal("step10", 1, 4294967296L, say, sizeof say) &&
         strstr(say, "4294967296 columns: step 10 holds each side") &&
         strstr(say, "(steps 8 and 9 across GPUs)") &&
         tk_side_refusal("baseline", 1, 2147483648L, say, sizeof say) &&
         strstr(say, "baseline holds each side");
    result("options: step 10 (its fused kernel) and the baseline refuse a side past an int too", ok, say);
    ok = !tk_side_refusal("step7", 4294967296L, 3, say, sizeof say) &&
         !tk_side_refusal("step8", 4294967296L, 3, say, sizeof say) &&
         !tk_side_refusal("library", 2, 4294967296L, say, sizeof say) &&
         tk_takes_long_sides("step7") && tk_takes_long_sides("step9") &&
         tk_takes_long_sides("library") && !tk_takes_long_sides("step6") &&
         !tk_takes_long_sides("step10");
    result("options: steps 7 to 9 and the library row take long sides", ok, say);

    ok = parse("--rows 5 --help", &o, err) == TK_PARSE_HELP && parse("-h", &o, err) == TK_PARSE_HELP;
    result("options: -h and --help ask for the usage", ok, err);

    long r = 0, c = 0;
    ok = parse("--shapes 1x1,33x65,4097x1 --no-cpu", &o, err) == TK_PARSE_OK && o.shapes &&
         o.rows == 1 && o.cols == 1 && tk_shape_of(o.shapes, 1, &r, &c) && r == 33 && c == 65 &&
         tk_shape_of(o.shapes, 2, &r, &c) && r == 4097 && c == 1 && !tk_shape_of(o.shapes, 3, &r, &c);
    result("options: --shapes lists shapes, the first the run's size, none past the last", ok, err);
    ok = parse("", &o, err) == TK_PARSE_OK && !o.shapes && !o.keep_going;
    result("options: without --shapes, no list", ok, err);
    ok = parse("--shapes 1x1,2x2 --keep-going", &o, err) == TK_PARSE_OK && o.keep_going &&
         parse("--shapes 1x1", &o, err) == TK_PARSE_OK && !o.keep_going;
    result("options: --keep-going with --shapes is taken, and only where given", ok, err);
}

static void test_options_bad(void)
{
    static const struct { const char *line, *message; } bad[] = {
        { "-n 0", "too small" },
        { "-n -5", "too small" },
        { "--rows 0 --cols 4", "too small" },
        { "-n abc", "not a whole number" },
        { "-n 12x", "not a whole number" },
        { "--cols=", "not a whole number" },
        { "--rows 4 --cols=\t4", "not a whole number" },   /* strtol would skip the tab */
        { "-n 99999999999999999999", "out of range" },
        { "--rows 8589934592 --cols 8589934592", "overflows size_t" },
        { "--rows 2305843009213693952 --cols 1", "overflows size_t" },
        { "--bogus", "unknown option" },
        { "--rows", "needs a value" },
        { "--reps 0", "too small" },
        { "--reps 10001", "too large" },
        { "--warmup -1", "too small" },
        { "--device -1", "too small" },
        { "--shapes 3x4,,5x6", "'' is not a shape ROWSxCOLS" },
        { "--shapes 3by4", "'3by4' is not a shape ROWSxCOLS" },
        { "--shapes 3x4,", "ends with a comma, no shape after it" },
        { "--shapes 3x0", "--shapes cols: 0 is too small" },
        { "--shapes 2147483649x1", "2^31 elements in all" },
        { "--shapes 65536x32769", "2^31 elements in all" },
        { "--shapes 4x4 -n 4", "takes the place of -n" },
        { "--keep-going -n 4", "--keep-going goes on through a --shapes list" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct tk_options o;
        char err[256], name[128], why[320];
        int ok = parse(bad[i].line, &o, err) == TK_PARSE_ERROR && strstr(err, bad[i].message);
        snprintf(name, sizeof name, "options: '%s' is refused (%s)", bad[i].line, bad[i].message);
        snprintf(why, sizeof why, "message was '%s'", err);
        result(name, ok, why);
    }
}

/* ---- values, CPU transpose, checker --------------------------------------------- */

static void test_values(void)
{
    static const size_t probe[] = { 0, 1, 2, 3, (1u << 24) - 1, 1u << 24, (1u << 24) + 1,
                                    (1ul << 31) - 2, (1ul << 31) - 1 };
    int ok = 1;
    char why[128] = "";
    for (size_t k = 0; k < sizeof probe / sizeof probe[0]; k++) {
        size_t i = probe[k], back;
        float v = tk_value(i);
        if (!isfinite(v) || !tk_value_index(v, &back) || back != i) {
            snprintf(why, sizeof why, "index %zu gave %g, read back as %zu", i, v, back);
            ok = 0;
        }
        if (i > 0 && tk_value(i) == tk_value(i - 1)) {
            snprintf(why, sizeof why, "indices %zu and %zu share a value", i - 1, i);
            ok = 0;
        }
    }
    result("values: finite, distinct and invertible up to 2^31 - 1", ok, why);

    /* --shapes: an input filled from a later first index has none of an earlier one's values
       at any element, and reads back as its own elements. */
    float a[64], b[64];
    size_t at = 0;
    tk_fill(a, 64, 0);
    tk_fill(b, 64, 64);
    ok = 1;
    for (size_t k = 0; k < 64; k++)
        for (size_t j = 0; j < 64; j++)
            ok &= memcmp(&a[k], &b[j], sizeof(float)) != 0;
    ok &= tk_input_index(b[5], &at) && at == 5 && !tk_input_index(a[5], &at);
    result("values: an input filled from index 64 shares no value with the one from 0, and its "
           "elements read back as its own", ok, "a value repeated or read back wrong");

    /* Every value in a range past 2^24, where (float)i would collide, is distinct. */
    size_t start = 1u << 24, n = 1u << 20, back;
    ok = 1;
    for (size_t i = start; i < start + n && ok; i++)
        ok = tk_value_index(tk_value(i), &back) && back == i;
    result("values: a million consecutive indices past 2^24 stay distinct", ok, "collision");

    float poison;
    unsigned p = TK_POISON_BITS;
    memcpy(&poison, &p, sizeof poison);
    /* Past 2^31: hashed, normal, under 1 in magnitude, never a value of the first 2^31. */
    ok = 1;
    size_t bad_i = 0, same = 0;
    for (size_t i = (1ul << 31); i < (1ul << 31) + 1000000 && ok; i++) {
        float v = tk_value(i);
        ok = isnormal(v) && fabsf(v) < 1.0f && !tk_value_index(v, &back);
        bad_i = i;
        same += (v == tk_value(i + 1));
    }
    snprintf(why, sizeof why, "index %zu", bad_i);
    result("values: past 2^31, normal floats under 1, apart from the first 2^31", ok, why);
    snprintf(why, sizeof why, "%zu of a million neighbours share a value", same);
    result("values: past 2^31, neighbouring hashed values differ", same == 0, why);

    result("values: the poison is a NaN and no input value", isnan(poison) &&
           !tk_value_index(poison, &back), "poison is a value");
}

static int transpose_is_right(int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    int ok = in && out;
    if (ok) {
        tk_fill(in, n, 0);
        tk_poison(out, n);
        tk_transpose_cpu(in, out, rows, cols);
        ok = tk_check(in, out, rows, cols, NULL) == 0;
        /* And by the definition, independently of tk_check. */
        for (int r = 0; r < rows && ok; r++)
            for (int c = 0; c < cols && ok; c++)
                ok = memcmp(&out[(size_t)c * rows + r], &in[(size_t)r * cols + c], 4) == 0;
    }
    free(in);
    free(out);
    return ok;
}

/* The kit's shape list (scripts/grade/shapes.txt, given as the first argument), as the grader and
   the GPU tests read it: "ROWSxCOLS" lines, '#' comments. */
static void test_cpu_transpose(const char *shapes_file)
{
    FILE *f = shapes_file ? fopen(shapes_file, "r") : NULL;
    char line[128];
    int count = 0;
    while (f && fgets(line, sizeof line, f)) {
        int rows, cols;
        char name[64];
        if (line[0] == '#' || sscanf(line, "%dx%d", &rows, &cols) != 2)
            continue;
        snprintf(name, sizeof name, "cpu transpose: %d x %d", rows, cols);
        result(name, transpose_is_right(rows, cols), "wrong output");
        count++;
    }
    if (f)
        fclose(f);
    result("cpu transpose: the shape list was read", count >= 6, "no shapes: pass scripts/grade/shapes.txt");

    /* A 2 x 3 by hand: in = [a b c; d e f] must become out = [a d; b e; c f]. */
    float in[6], out[6];
    tk_fill(in, 6, 0);
    tk_transpose_cpu(in, out, 2, 3);
    int ok = out[0] == in[0] && out[1] == in[3] && out[2] == in[1] && out[3] == in[4] &&
             out[4] == in[2] && out[5] == in[5];
    result("cpu transpose: 2 x 3 by hand", ok, "wrong layout");
}

static void test_checker(void)
{
    int rows = 33, cols = 65;
    size_t n = (size_t)rows * cols;
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    if (!in || !out) {
        result("checker: allocation", 0, "out of memory");
        return;
    }
    tk_fill(in, n, 0);
    tk_transpose_cpu(in, out, rows, cols);
    struct tk_mismatch m;
    result("checker: a right transpose passes", tk_check(in, out, rows, cols, &m) == 0,
           "reported a mismatch");

    /* Plant a wrong value at out[40][7] (row 40 of the 65 x 33 output), which must hold
       in[7][40]: in[8][40]'s value, an off-by-one row. */
    size_t at = 40 * (size_t)rows + 7;
    out[at] = in[8 * (size_t)cols + 40];
    int ok = tk_check(in, out, rows, cols, &m) == 1 && m.count == 1 && m.poisoned == 0 &&
             m.out_row == 40 && m.out_col == 7 &&
             memcmp(&m.expected, &in[7 * (size_t)cols + 40], 4) == 0 &&
             memcmp(&m.got, &out[at], 4) == 0;
    result("checker: a planted wrong element is found, with its place and values", ok,
           "missed or misplaced");

    char text[96];
    tk_describe_value(m.got, rows, cols, text, sizeof text);
    result("checker: a wrong value is named by the input element it came from",
           strstr(text, "in[8][40]") != NULL, text);

    /* An element never written: poison left in place, earlier than the wrong one. */
    tk_poison(&out[3], 1);
    ok = tk_check(in, out, rows, cols, &m) == 2 && m.poisoned == 1 && m.out_row == 0 &&
         m.out_col == 3;
    result("checker: an unwritten (poisoned) element is found first", ok, "missed");
    tk_describe_value(m.got, rows, cols, text, sizeof text);
    result("checker: an unwritten element is named as the poison",
           strstr(text, "poison") != NULL, text);

    /* -0.0 == +0.0 for ==, not for a bit-exact check: plant one and make sure it counts. */
    tk_transpose_cpu(in, out, rows, cols);
    out[5] = -out[5];
    result("checker: a sign flip is caught (bitwise comparison)",
           tk_check(in, out, rows, cols, NULL) == 1, "sign flip passed");

    tk_poison(out, n);
    ok = tk_check(in, out, rows, cols, &m) == n && m.poisoned == n;
    result("checker: an output never written fails on every element", ok, "passed");
    free(in);
    free(out);
}

/* ---- where wrong values came from ------------------------------------------------ */

/* A wrong "kernel" on the host: out[p][q] = in[src_r][src_c] from map(), or the poison where
   map() returns 0. */
typedef int (*wrong_map)(long p, long q, int rows, int cols, long *sr, long *sc);

static int m_copy(long p, long q, int rows, int cols, long *sr, long *sc)
{
    long o = p * rows + q;   /* out's element o holds in's element o */
    *sr = o / cols, *sc = o % cols;
    return 1;
}
static int m_load_stride(long p, long q, int rows, int cols, long *sr, long *sc)
{
    long s = q * rows + p;   /* in[q * rows + p] */
    if (s >= (long)rows * cols) return 0;
    *sr = s / cols, *sc = s % cols;
    return 1;
}
/* out[c * cols + r] = in[r][c]: find which (r, c) lands at o = p * rows + q. */
static int m_store_stride(long p, long q, int rows, int cols, long *sr, long *sc)
{
    long o = p * rows + q, c = o / cols, r = o % cols;
    if (r >= rows || c >= cols) return 0;
    *sr = r, *sc = c;
    return 1;
}
static int tile_side = 32;
static int m_tile_own(long p, long q, int rows, int cols, long *sr, long *sc)
{
    long T = tile_side;
    (void)rows, (void)cols;
    *sr = T * (p / T) + q % T, *sc = T * (q / T) + p % T;
    return *sr < rows && *sc < cols;
}
static int m_tile_flat(long p, long q, int rows, int cols, long *sr, long *sc)
{
    long T = tile_side;
    *sr = T * (q / T) + p % T, *sc = T * (p / T) + q % T;
    return *sr < rows && *sc < cols;
}
static int m_pairs(long p, long q, int rows, int cols, long *sr, long *sc)
{
    (void)cols;
    *sr = (q ^ 1) < rows ? q ^ 1 : q, *sc = p;
    return 1;
}
static int m_shift(long p, long q, int rows, int cols, long *sr, long *sc)
{
    (void)rows;
    *sr = q, *sc = p + 1 < cols ? p + 1 : p;
    return 1;
}
static int m_scramble(long p, long q, int rows, int cols, long *sr, long *sc)
{
    (void)rows, (void)cols;
    *sr = q ^ 2, *sc = p;   /* chunks of two swapped within each group of four */
    return 1;
}
static int m_cols_short(long p, long q, int rows, int cols, long *sr, long *sc)
{
    (void)rows, (void)cols;
    *sr = q, *sc = p;
    return p < 64;   /* output rows from 64 on (input columns) never written */
}
static int m_tile_rows(long p, long q, int rows, int cols, long *sr, long *sc)
{
    (void)rows, (void)cols;
    *sr = q, *sc = p;
    return q % 32 < 4 || q % 32 >= 8;   /* rows 4 to 7 of each 32 never written */
}
static int m_row_start(long p, long q, int rows, int cols, long *sr, long *sc)
{
    (void)rows, (void)cols;
    *sr = q, *sc = p;
    return !(q == 0 && p % 3 == 0);   /* the first float of every third output row unwritten */
}
static int m_row_both_ends(long p, long q, int rows, int cols, long *sr, long *sc)
{
    (void)cols;
    *sr = q, *sc = p;
    return !((q == 0 && p % 2 == 0) || (q >= rows - 2 && p % 5 == 1));   /* and the last two */
}
static int m_row_middle(long p, long q, int rows, int cols, long *sr, long *sc)
{
    (void)rows, (void)cols;
    *sr = q, *sc = p;
    return !((q == 0 || q == 20) && p % 3 == 0);   /* one of them in the middle of its row */
}
static int m_foreign(long p, long q, int rows, int cols, long *sr, long *sc)
{
    (void)rows, (void)cols;
    *sr = q, *sc = p;
    return 2;   /* 2: a value that is no input element */
}

/* The pattern line tk_print_explanation gives for map on rows x cols, in buf. */
static void explained(wrong_map map, int rows, int cols, char *buf, size_t len)
{
    size_t n = (size_t)rows * cols;
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    buf[0] = '\0';
    if (!in || !out) { free(in); free(out); return; }
    tk_fill(in, n, 0);
    tk_poison(out, n);
    for (long p = 0; p < cols; p++)
        for (long q = 0; q < rows; q++) {
            long sr, sc;
            int k = map(p, q, rows, cols, &sr, &sc);
            if (k == 1) out[p * rows + q] = in[sr * cols + sc];
            if (k == 2) out[p * rows + q] = 0.5f;
        }
    struct tk_explanation e;
    tk_explain(in, out, rows, cols, &e);
    FILE *mem = tmpfile();
    if (mem) {
        tk_print_explanation(mem, &e, rows, cols);
        rewind(mem);
        size_t got = fread(buf, 1, len - 1, mem);
        buf[got] = '\0';
        fclose(mem);
    }
    free(in);
    free(out);
}

static void test_explain(void)
{
    static const struct { const char *what; wrong_map map; int rows, cols, tile; const char *says; } cases[] = {
        { "a copy", m_copy, 33, 65, 0, "pattern: copy:" },
        { "a load index with rows for cols", m_load_stride, 48, 80, 0, "pattern: load-stride:" },
        { "a store index with cols for rows", m_store_stride, 48, 80, 0, "pattern: store-stride:" },
        { "32 x 32 tiles at their own place", m_tile_own, 96, 160, 32, "pattern: tile-own-place 32:" },
        { "64 x 64 tiles at their own place", m_tile_own, 128, 192, 64, "pattern: tile-own-place 64:" },
        { "32 x 32 tiles untransposed", m_tile_flat, 96, 160, 32, "pattern: tile-untransposed 32:" },
        { "pairs swapped", m_pairs, 64, 96, 0, "pattern: pairs:" },
        { "a one-column shift", m_shift, 33, 65, 0, "pattern: shifted: every misplaced value comes from 0 rows and 1 columns" },
        { "values moved inside 8 x 8 tiles", m_scramble, 128, 128, 0, "pattern: tile-scrambled 8:" },
        { "the input's columns from 64 on never written", m_cols_short, 97, 161, 0,
          "pattern: unwritten-columns 64: the input's columns 64 to 160, the last 97, are never "
          "written, every element of them and nothing else (64 = 1 x 64)" },
        { "rows 4 to 7 of every 32 never written", m_tile_rows, 128, 96, 0,
          "pattern: unwritten-tile-rows 32: in every band of 32 input rows, rows 4 to 7 of the band" },
        { "values that are no input element", m_foreign, 33, 65, 0, "pattern: foreign: 2145 elements" },
        { "the first float of every third output row never written", m_row_start, 64, 96, 0,
          "pattern: unwritten-row-ends 8: 32 elements are never written, each among the first or "
          "the last 8 floats of its output row (input rows 0 to 0, output rows 0 to 93), and no other" },
        { "first and last floats of some output rows never written", m_row_both_ends, 97, 161, 0,
          "pattern: unwritten-row-ends 8: 145 elements are never written, each among the first or "
          "the last 8 floats of its output row (input rows 0 to 96, output rows 0 to 160)" },
        { "an unwritten float in the middle of an output row", m_row_middle, 64, 96, 0,
          "pattern: unwritten-scattered: 64 elements are never written, in input rows 0 to 20" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[4096], name[160];
        tile_side = cases[i].tile;
        explained(cases[i].map, cases[i].rows, cases[i].cols, text, sizeof text);
        snprintf(name, sizeof name, "explain: %s (%d x %d) is named", cases[i].what, cases[i].rows,
                 cases[i].cols);
        result(name, strstr(text, cases[i].says) && strstr(text, "  evidence: out["), text);
    }

    /* Nothing fits: a few values exchanged at random-looking places. Evidence, and "unknown". */
    int rows = 40, cols = 70;
    size_t n = (size_t)rows * cols;
    float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    if (in && out) {
        tk_fill(in, n, 0);
        tk_transpose_cpu(in, out, rows, cols);
        float t = out[5];
        out[5] = out[1234], out[1234] = out[77], out[77] = t;
        struct tk_explanation e;
        tk_explain(in, out, rows, cols, &e);
        result("explain: a map that fits nothing is called unknown, with 3 pieces of evidence",
               e.moved == TK_MOVED_UNKNOWN && e.evidence == 3 && e.wrong == 3, "classified");
        /* The evidence names the source: out[0][5] holds what belongs at flat index 77. */
        char text[2048] = "";
        FILE *mem = tmpfile();
        if (mem) {
            tk_print_explanation(mem, &e, rows, cols);
            rewind(mem);
            text[fread(text, 1, sizeof text - 1, mem)] = '\0';
            fclose(mem);
        }
        result("explain: evidence names where a value came from and where it belongs",
               strstr(text, "evidence: out[0][5] holds in[") && strstr(text, "(it should hold in[5][0])"),
               text);
    }
    free(in);
    free(out);
}

/* The patterns line of a given output, in buf. */
static void explained_out(const float *in, const float *out, int rows, int cols, char *buf,
                          size_t len)
{
    struct tk_explanation e;
    tk_explain(in, out, rows, cols, &e);
    buf[0] = '\0';
    FILE *mem = tmpfile();
    if (mem) {
        tk_print_explanation(mem, &e, rows, cols);
        rewind(mem);
        buf[fread(buf, 1, len - 1, mem)] = '\0';
        fclose(mem);
    }
}

/* Copies that moved too few bytes, and bounds with rows and cols exchanged. */
static void test_explain_tails(void)
{
    enum { R = 33, C = 65, N = R * C };
    static float in[N], good[N], out[N], zin[N];
    char text[4096];
    tk_fill(in, N, 0);
    tk_transpose_cpu(in, good, R, C);

    /* A copy back of half the bytes: 4290 of 8580, which ends inside element 1072. */
    tk_poison(out, N);
    memcpy(out, good, N * 4 / 2);
    explained_out(in, out, R, C, text, sizeof text);
    result("explain: a copy back of half the bytes is a tail of the output, the torn element named",
           strstr(text, "pattern: out-tail 1072: the output's last 1073 elements in memory order, "
                  "from out[32][16] on, are wrong") &&
           strstr(text, "holds only the first 2 bytes of its value: the output is right up to byte "
                  "4290 of its 8580") && !strstr(text, "pattern: unwritten-columns"), text);

    /* A 1 x 1 matrix copied back with 2 of its 4 bytes: its one element is torn. */
    float one_in, one_good, one_out;
    tk_fill(&one_in, 1, 0);
    one_good = one_in;
    tk_poison(&one_out, 1);
    memcpy(&one_out, &one_good, 2);
    explained_out(&one_in, &one_out, 1, 1, text, sizeof text);
    result("explain: a 1 x 1 output copied back with 2 bytes holds half its value",
           strstr(text, "pattern: out-tail 0:") && strstr(text, "out[0][0] holds only the first 2 "
                  "bytes of its value: the output is right up to byte 2 of its 4") &&
           !strstr(text, "pattern: foreign"), text);

    /* Half the bytes of a square: whole output rows, so both the tail and the columns fit. */
    static float sq_in[64 * 64], sq_good[64 * 64], sq_out[64 * 64];
    tk_fill(sq_in, 64 * 64, 0);
    tk_transpose_cpu(sq_in, sq_good, 64, 64);
    tk_poison(sq_out, 64 * 64);
    memcpy(sq_out, sq_good, 64 * 64 * 4 / 2);
    explained_out(sq_in, sq_out, 64, 64, text, sizeof text);
    result("explain: half a square's bytes fits both a tail (half of them) and the last columns",
           strstr(text, "pattern: out-tail 2048:") && strstr(text, "(half of them)") &&
           strstr(text, "pattern: unwritten-columns 32:"), text);

    /* A tail of whole output rows at no simple fraction: the columns say it all. */
    tk_poison(sq_out, 64 * 64);
    memcpy(sq_out, sq_good, 48 * 64 * 4 - 64 * 4 * 7);
    explained_out(sq_in, sq_out, 64, 64, text, sizeof text);
    result("explain: a tail of whole rows at no simple fraction is said as columns only",
           !strstr(text, "pattern: out-tail") && strstr(text, "pattern: unwritten-columns 41:"), text);

    /* A copy up of half the bytes: the kernel saw zeros past in's element N / 2. */
    memcpy(zin, in, sizeof zin);
    memset(zin + N / 2, 0, (N - N / 2) * 4);
    tk_transpose_cpu(zin, out, R, C);
    explained_out(in, out, R, C, text, sizeof text);
    result("explain: a copy up of half the bytes is a tail of the input",
           strstr(text, "pattern: in-tail 1072: the wrong elements are exactly those whose input "
                  "element lies at in[16][32] or later") && strstr(text, "first 4288 of its 8580 bytes"),
           text);

    /* A store guard with rows and cols exchanged, rows < cols: output rows from rows on are
       never written. The first unwritten input column equals rows. */
    memcpy(out, good, sizeof out);
    for (long p = R; p < C; p++)
        for (long q = 0; q < R; q++)
            memcpy(&out[p * R + q], &(uint32_t){ TK_POISON_BITS }, 4);
    explained_out(in, out, R, C, text, sizeof text);
    result("explain: unwritten columns from rows on say that their first equals rows",
           strstr(text, "pattern: unwritten-columns 33:") &&
           strstr(text, "nothing else; the first of them equals rows (33)"), text);
}

/* ---- how a matrix splits over ranks (steps 8 to 10) ------------------------------ */

/* Every split of n over p ranks, and every chunking of each part into K chunks, covers
   0 .. n exactly once, in order, with parts that differ by at most one. */
static void test_partition(void)
{
    static const long sizes[] = { 1, 2, 3, 7, 31, 33, 65, 97, 161, 4097, 8191, 12345, 65537 };
    int ok = 1;
    char why[160] = "";
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && ok; i++)
        for (int parts = 1; parts <= 9 && ok; parts++) {
            long n = sizes[i], first[10], lo = n, hi = 0;
            tk_split(n, parts, first);
            ok = first[0] == 0 && first[parts] == n;
            for (int k = 0; k < parts && ok; k++) {
                long len = first[k + 1] - first[k];
                ok = len >= 0;
                if (len < lo) lo = len;
                if (len > hi) hi = len;
                for (int K = 1; K <= 5 && ok; K++) {
                    long at = first[k];
                    for (int c = 0; c < K && ok; c++) {
                        long a = tk_chunk_first(first, k, c, K), b = tk_chunk_first(first, k, c + 1, K);
                        ok = a == at && b >= a && (c == 0 || (a - first[k]) % 8 == 0);
                        at = b;
                    }
                    ok = ok && at == first[k + 1];
                }
            }
            ok = ok && hi - lo <= 1;
            if (!ok)
                snprintf(why, sizeof why, "n = %ld over %d parts", n, parts);
        }
    result("partition: every split over 1 to 9 ranks, and its chunks, covers the range exactly, "
           "parts within one of each other, chunks 8-aligned in their part", ok, why);

    long first[4];
    tk_split(2, 3, first);   /* more ranks than rows: one rank gets none */
    result("partition: 2 rows over 3 ranks gives one rank none (0, 0, 1, 2)",
           first[0] == 0 && first[1] == 0 && first[2] == 1 && first[3] == 2, "wrong split");
    tk_split(8191, 2, first);
    result("partition: 8191 rows over 2 ranks is 4095 and 4096", first[1] == 4095 &&
           first[2] == 8191, "wrong split");
    tk_split(2000000000L, 3, first);
    result("partition: no overflow past 2^31 (2e9 over 3 ranks)", first[1] == 666666666L &&
           first[2] == 1333333333L && tk_chunk_first(first, 2, 1, 4) == 1499999997L, "overflow");
}

/* ---- a rank's part of a matrix, checked in one thread (steps 8 to 10) ------------- */

static void test_parts(void)
{
    enum { R = 7, C = 10, P = 3 };
    float in[R * C], out[C * R], block[R * 4];
    long col0[P + 1];
    size_t poisoned, first, wrong = 0;
    tk_fill(in, R * C, 0);
    tk_transpose_cpu(in, out, R, C);
    tk_split(C, P, col0);
    for (int p = 0; p < P; p++) {   /* rank p's output rows: out[c][r] = in[r][col0[p] + c] */
        struct tk_part mine = { col0[p + 1] - col0[p], R, (size_t)col0[p], 1, C };
        wrong += tk_check_part(in, out + col0[p] * R, &mine, &poisoned, &first);
    }
    for (int r = 0; r < R; r++)     /* the input's columns 3 to 6, untransposed */
        for (int b = 0; b < 4; b++)
            block[r * 4 + b] = in[r * C + 3 + b];
    struct tk_part cols = { R, 4, 3, C, 1 };
    wrong += tk_check_part(in, block, &cols, &poisoned, &first);
    result("parts: every rank's output rows, and a block of input columns, check exact",
           wrong == 0, "a difference in an exact part");

    float *rank1 = out + col0[1] * R;
    struct tk_part mine = { col0[2] - col0[1], R, (size_t)col0[1], 1, C };
    rank1[5] = in[0];
    tk_poison(rank1 + 8, 2);
    wrong = tk_check_part(in, rank1, &mine, &poisoned, &first);
    result("parts: one wrong and two poisoned elements are counted, the first named",
           wrong == 3 && poisoned == 2 && first == 5, "wrong count, poison count or first");
    size_t poisoned2, first2;
    size_t wrong2 = tk_check_part(NULL, rank1, &mine, &poisoned2, &first2);
    rank1[5] = in[(size_t)col0[1]];   /* mended: the NULL check must then pass */
    tk_transpose_cpu(in, out, R, C);
    result("parts: without the input (NULL, a launched rank), the values themselves check "
           "alike: the same three found, and the mended part passes", wrong2 == 3 &&
           poisoned2 == 2 && first2 == 5 && tk_check_part(NULL, rank1, &mine, &poisoned2,
           &first2) == 0 && tk_check_part(NULL, block, &cols, &poisoned2, &first2) == 0,
           "a difference");
}

/* ---- stage (c)'s stores, emulated on the host (step 10) -------------------------- */

enum { F_TC = 64, F_TR = 64, F_HALO = 7, F_RANKS = 4 };   /* step 7's tile; up to 4 ranks */

/* The index arithmetic of solution/step10's fused_kernel and stage_c, for rank p of P: every
   store every thread makes, each counted in hits[q] (one byte a float of rank q's output
   rows). plant 0 is the kernel; 1 shifts the windows by step 7's skew of the whole matrix,
   (c * rows) % 8, instead of the element's place in its rank's window; 2 counts the tiles
   without the HALO rows. Returns 0, or 1 with the first breach in why: a store outside its
   rank's output rows, a float2 off 8 bytes, a window not starting on its sector, a staged row
   outside the tile. */
static int fused_rank(int rows, int cols, const long *row0, const long *col0, int P, int p,
                      int plant, unsigned char **hits, char *why, size_t len)
{
    long rp = row0[p + 1] - row0[p];
    int H = rows % 8 || row0[p] % 8 ? F_HALO : 0;
    long nx = (cols + F_TC - 1) / F_TC, ny = (rp + (plant == 2 ? 0 : H) + F_TR - 1) / F_TR;
    for (long b = 0; b < nx * ny; b++) {
        long c0 = b % nx * F_TC, y0 = b / nx * F_TR, rs = y0 - H;
        for (long c = c0; c < c0 + F_TC && c < cols; c++) {
            int q = 0;
            while (q + 1 < P && col0[q + 1] <= c) q++;
            size_t at = (size_t)(c - col0[q]) * rows + row0[p];
            size_t n = (size_t)(col0[q + 1] - col0[q]) * rows;
            long w = y0 - (H ? (long)((plant == 1 ? (size_t)c * rows : at) % 8) : 0);
            if (H && (at + w) % 8) {
                snprintf(why, len, "rank %d, output row %ld: window at %zu, not on a sector", p, c,
                         at + w);
                return 1;
            }
            for (long r = w; r < w + F_TR; r++) {   /* lane (r - w) / 2, float (r - w) % 2 */
                long pair = r - (r - w) % 2;
                if (r < 0 || r >= rp)
                    continue;
                if (r - rs < 0 || r - rs >= F_TR + H || at + r >= n ||
                    (pair >= 0 && pair + 2 <= rp && (at + pair) % 2)) {
                    snprintf(why, len, "rank %d stores local row %ld of output row %ld at %zu of "
                             "rank %d's %zu floats (staged as %ld of %d)", p, r, c, at + r, q, n,
                             r - rs, F_TR + H);
                    return 1;
                }
                hits[q][at + r]++;
            }
        }
    }
    return 0;
}

/* Every rank's stores over P ranks at rows x cols: 0 when each float of every rank's output
   rows is stored exactly once and nothing is breached; 1, saying why, otherwise. */
static int fused_split(int rows, int cols, int P, int plant, char *why, size_t len)
{
    long row0[F_RANKS + 1], col0[F_RANKS + 1];
    unsigned char *hits[F_RANKS];
    int bad = 0;
    tk_split(rows, P, row0);
    tk_split(cols, P, col0);
    for (int q = 0; q < P; q++)
        hits[q] = calloc((size_t)(col0[q + 1] - col0[q]) * rows + 1, 1);
    for (int p = 0; p < P && !bad; p++)
        bad = fused_rank(rows, cols, row0, col0, P, p, plant, hits, why, len);
    for (int q = 0; q < P; q++) {
        size_t n = (size_t)(col0[q + 1] - col0[q]) * rows;
        for (size_t k = 0; k < n && !bad; k++)
            if (hits[q][k] != 1) {
                snprintf(why, len, "float %zu of rank %d's output rows stored %d times", k, q,
                         hits[q][k]);
                bad = 1;
            }
        free(hits[q]);
    }
    return bad;
}

/* ---- the host's memory under a control group's limit (hostmem.c) ----------------- */

/* write_file(dir, rel, text): dir/rel holds text, its folders made; 0 where it cannot. */
static int write_file(const char *dir, const char *rel, const char *text)
{
    char path[4096], *p;
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    for (p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        mkdir(path, 0755);
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fputs(text, f);
    return fclose(f) == 0;
}

static void test_hostmem(void)
{
    const double G = 1073741824.0;
    char dir[] = "/tmp/tk-cgroup-XXXXXX", file[4200];
    int limited = -1;
    if (!mkdtemp(dir)) {
        result("host memory: a scratch folder", 0, "mkdtemp failed");
        return;
    }
    snprintf(file, sizeof file, "%s/cgroup", dir);
    double m = tk_host_memory(8 * G, dir, "/nonexistent/cgroup", &limited);
    result("host memory: without a control group file, the machine's", m == 8 * G && !limited, "");
    /* v2: the job's limit, above the step's group (max), is the least */
    write_file(dir, "cgroup", "0::/job/step\n");
    write_file(dir, "job/step/memory.max", "max\n");
    write_file(dir, "job/memory.max", "1073741824\n");
    m = tk_host_memory(8 * G, dir, file, &limited);
    result("host memory: cgroup v2, a limit on a group above the process's", m == G && limited, "");
    m = tk_host_memory(0.5 * G, dir, file, &limited);
    result("host memory: a limit above the machine's memory leaves the machine's", m == 0.5 * G && !limited, "");
    write_file(dir, "job/step/memory.max", "536870912\n");
    m = tk_host_memory(8 * G, dir, file, &limited);
    result("host memory: the least of the groups' limits", m == 0.5 * G && limited, "");
    /* v2 in a container's own view: its group is the root */
    write_file(dir, "cgroup", "0::/\n");
    write_file(dir, "memory.max", "2147483648\n");
    m = tk_host_memory(8 * G, dir, file, &limited);
    result("host memory: cgroup v2 seen from inside a container (its group at the root)", m == 2 * G && limited, "");
    /* v2: a group outside this view's root (a path through ..) has no limit here */
    write_file(dir, "cgroup", "0::/../../other\n");
    m = tk_host_memory(8 * G, dir, file, &limited);
    result("host memory: cgroup v2, a group outside the view's root: no limit read", m == 8 * G && !limited, "");
    char plant[4200];
    snprintf(plant, sizeof plant, "%s/memory.max", dir);
    remove(plant);   /* the container's limit above: the v1 cases below have none */
    /* v1: the deepest memory.stat's hierarchical_memory_limit (its "unlimited" is a huge
       number); a parent's limit_in_bytes alone is not read: it may not apply */
    write_file(dir, "cgroup", "4:memory:/v1job\n3:cpu,cpuacct:/\n");
    write_file(dir, "memory/v1job/memory.stat", "cache 0\nhierarchical_memory_limit 9223372036854771712\n");
    write_file(dir, "memory/memory.limit_in_bytes", "1073741824\n");
    m = tk_host_memory(8 * G, dir, file, &limited);
    result("host memory: cgroup v1 without a limit (its huge number), the machine's", m == 8 * G && !limited, "");
    write_file(dir, "memory/v1job/memory.stat", "cache 0\nhierarchical_memory_limit 3221225472\n");
    m = tk_host_memory(8 * G, dir, file, &limited);
    result("host memory: cgroup v1, the hierarchical limit of the process's group", m == 3 * G && limited, "");
    write_file(dir, "cgroup", "4:cpuset,memory:/v1job/step");   /* joint controllers, no newline */
    m = tk_host_memory(8 * G, dir, file, &limited);
    result("host memory: cgroup v1, memory among joint controllers, a group this view lacks (its parent read)",
           m == 3 * G && limited, "");
    write_file(dir, "cgroup", "4:nomemory:/v1job\n");
    m = tk_host_memory(8 * G, dir, file, &limited);
    result("host memory: a controller whose name only holds 'memory' is not memory's", m == 8 * G && !limited, "");
    /* hybrid: a v2 line with no memory.max beside the v1 memory line, which holds the limit */
    write_file(dir, "cgroup", "0::/v1job\n4:memory:/v1job\n");
    m = tk_host_memory(8 * G, dir, file, &limited);
    result("host memory: a hybrid system, the v1 memory hierarchy's limit", m == 3 * G && limited, "");
    write_file(dir, "memory/v1job/memory.stat", "hierarchical_memory_limit garbage\n");
    m = tk_host_memory(8 * G, dir, file, &limited);
    result("host memory: a limit it cannot read as a number is no limit", m == 8 * G && !limited, "");
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        result("host memory: the scratch folder removed", 0, cmd);
}

static void test_fused(void)
{
    static const int shapes[][2] = { { 1, 1 }, { 97, 161 }, { 33, 65 }, { 33, 64 }, { 160, 96 },
                                     { 63, 65 }, { 8191, 31 }, { 4097, 33 }, { 12345, 6789 } };
    char why[256] = "", shape[64] = "";
    int bad = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0] && !bad; s++)
        for (int P = 1; P <= F_RANKS && !bad; P++) {
            bad = fused_split(shapes[s][0], shapes[s][1], P, 0, why, sizeof why);
            snprintf(shape, sizeof shape, "%d x %d over %d: ", shapes[s][0], shapes[s][1], P);
        }
    char text[320];
    snprintf(text, sizeof text, "%s%s", shape, why);
    result("stage (c): every float of every rank's output stored once, inside its rank's rows, "
           "float2 on 8 bytes, windows on sectors (1 to 4 ranks, 9 shapes)", !bad, text);
    result("stage (c): step 7's skew of the whole matrix, (c * rows) % 8, is caught off its "
           "sector (12345 x 6789 over 2)", fused_split(12345, 6789, 2, 1, why, sizeof why) &&
           strstr(why, "not on a sector"), why);
    result("stage (c): tiles counted without the HALO rows are caught leaving floats unstored "
           "(63 x 65 on 1)", fused_split(63, 65, 1, 2, why, sizeof why) &&
           strstr(why, "stored 0 times"), why);
}

/* ---- launcher mode: who this process is (ranks/launch.h) --------------------------- */

static const char *const *test_env;   /* "NAME=VALUE" strings, NULL-terminated */

static const char *table_get(const char *name)
{
    size_t len = strlen(name);
    for (const char *const *e = test_env; *e; e++)
        if (!strncmp(*e, name, len) && (*e)[len] == '=')
            return *e + len + 1;
    return NULL;
}

static int launch_with(const char *const *vars, struct tk_launch *l, char *err)
{
    test_env = vars;
    return tk_launch_read(l, table_get, 64, err, 256);
}

static void test_launch_env(void)
{
    struct tk_launch l;
    char err[256], why[1024];
    const char *const slurm[] = { "SLURM_PROCID=3", "SLURM_STEP_NUM_TASKS=8", "SLURM_NTASKS=16",
        "SLURM_LOCALID=1", "SLURM_STEP_ID=0", "SLURM_JOB_ID=42", NULL };
    int r = launch_with(slurm, &l, err);
    snprintf(why, sizeof why, "%d: rank %d of %d, local %d, token '%s', %s (%s)", r, l.rank,
             l.ranks, l.local, l.token, l.vars, err);
    result("launch: srun's task: SLURM_PROCID, the step's SLURM_STEP_NUM_TASKS (not the job's "
           "SLURM_NTASKS), SLURM_LOCALID, the run named by job and step", r == 1 && l.rank == 3 &&
           l.ranks == 8 && l.local == 1 && !strcmp(l.token, "slurm:42.0") &&
           !strcmp(l.vars, "SLURM_PROCID=3, SLURM_STEP_NUM_TASKS=8, SLURM_LOCALID=1") &&
           strstr(l.launcher, "srun") && l.timeout_s == TK_ID_TIMEOUT_DEFAULT, why);

    const char *const slurm_old[] = { "SLURM_PROCID=1", "SLURM_NTASKS=2", "SLURM_STEP_ID=7",
                                      NULL };
    r = launch_with(slurm_old, &l, err);
    result("launch: srun without SLURM_STEP_NUM_TASKS: the count from SLURM_NTASKS, no local "
           "rank (-1), no run name without SLURM_JOB_ID", r == 1 && l.rank == 1 && l.ranks == 2 &&
           l.local == -1 && !l.token[0], err);

    const char *const batch[] = { "SLURM_PROCID=0", "SLURM_NTASKS=4", "SLURM_LOCALID=0",
                                  "SLURM_JOB_ID=42", NULL };
    r = launch_with(batch, &l, err);
    result("launch: a Slurm batch script (SLURM_PROCID without SLURM_STEP_ID) is no launched "
           "task: none found, with the hint", r == 0 && strstr(err, "SLURM_STEP_ID is not: this "
           "is a Slurm batch script or salloc shell"), err);

    const char *const ompi[] = { "OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2",
        "OMPI_COMM_WORLD_LOCAL_RANK=1", "PMIX_NAMESPACE=prterun-host-7@1",
        "SLURM_PROCID=0", "SLURM_NTASKS=1", "SLURM_STEP_ID=3", "SLURM_JOB_ID=42", NULL };
    r = launch_with(ompi, &l, err);
    snprintf(why, sizeof why, "%d: rank %d of %d, local %d, token '%s' (%s)", r, l.rank, l.ranks,
             l.local, l.token, err);
    result("launch: Open MPI's mpirun inside a Slurm job: OMPI_COMM_WORLD_* win over srun's "
           "daemon's SLURM_PROCID; the run named by PMIX_NAMESPACE", r == 1 && l.rank == 1 &&
           l.ranks == 2 && l.local == 1 && !strcmp(l.token, "pmix:prterun-host-7@1") &&
           strstr(l.launcher, "Open MPI"), why);

    const char *const pmi[] = { "PMI_RANK=5", "PMI_SIZE=6", "MPI_LOCALRANKID=1", NULL };
    r = launch_with(pmi, &l, err);
    result("launch: MPICH's or Intel MPI's PMI_RANK, PMI_SIZE, MPI_LOCALRANKID", r == 1 &&
           l.rank == 5 && l.ranks == 6 && l.local == 1 && !l.token[0] && strstr(l.launcher, "PMI"),
           err);

    const char *const kit[] = { "TK_RANK=0", "TK_RANKS=1", "TK_ID_TIMEOUT=5", "PMI_RANK=1",
                                "PMI_SIZE=2", NULL };
    r = launch_with(kit, &l, err);
    result("launch: the kit's own TK_RANK and TK_RANKS come first; no TK_LOCAL_RANK is -1; "
           "TK_ID_TIMEOUT read", r == 1 && l.rank == 0 && l.ranks == 1 && l.local == -1 &&
           l.timeout_s == 5 && !strcmp(l.vars, "TK_RANK=0, TK_RANKS=1"), err);

    const char *const none[] = { "HOME=/root", "SLURM_JOB_ID=42", NULL };
    r = launch_with(none, &l, err);
    result("launch: no launcher's variables: none found, no hint", r == 0 && !err[0], err);

    static const struct { const char *vars[4], *message; } bad[] = {
        { { "TK_RANK=2", "TK_RANKS=2" }, "TK_RANK=2 with TK_RANKS=2: a rank must be 0 to 1" },
        { { "TK_RANK=-1", "TK_RANKS=2" }, "TK_RANK=-1 with TK_RANKS=2: a rank must be 0 to 1" },
        { { "TK_RANK=x", "TK_RANKS=2" }, "TK_RANK='x' is not a whole number" },
        { { "TK_RANK=1.5", "TK_RANKS=2" }, "TK_RANK='1.5' is not a whole number" },
        { { "TK_RANK=", "TK_RANKS=2" }, "TK_RANK='' is not a whole number" },
        { { "TK_RANK=0", "TK_RANKS= 2" }, "TK_RANKS=' 2' is not a whole number" },
        { { "TK_RANK=0", "TK_RANKS=0" }, "TK_RANKS=0: the rank count must be 1 to 64" },
        { { "TK_RANK=0", "TK_RANKS=65" }, "TK_RANKS=65: the rank count must be 1 to 64" },
        { { "TK_RANK=0" }, "TK_RANK is set but TK_RANKS is not" },
        { { "TK_RANKS=2" }, "TK_RANKS is set but TK_RANK is not" },
        { { "TK_LOCAL_RANK=0" }, "TK_LOCAL_RANK is set but TK_RANK and TK_RANKS are not" },
        { { "TK_RANK=0", "TK_RANKS=2", "TK_LOCAL_RANK=-1" }, "TK_LOCAL_RANK=-1: a local rank is 0 or more" },
        { { "TK_RANK=0", "TK_RANKS=2", "TK_LOCAL_RANK=one" }, "TK_LOCAL_RANK='one' is not a whole number" },
        { { "TK_RANK=0", "TK_RANKS=2", "TK_ID_TIMEOUT=0" }, "TK_ID_TIMEOUT='0' is not a whole number of seconds from 1 to 86400" },
        { { "SLURM_PROCID=0", "SLURM_STEP_ID=1" }, "SLURM_PROCID is set but neither SLURM_STEP_NUM_TASKS nor SLURM_NTASKS is" },
        { { "OMPI_COMM_WORLD_SIZE=4" }, "OMPI_COMM_WORLD_SIZE is set but OMPI_COMM_WORLD_RANK is not" },
        { { "PMI_RANK=4", "PMI_SIZE=4" }, "PMI_RANK=4 with PMI_SIZE=4: a rank must be 0 to 3" },
    };
    int refused = 0, total = (int)(sizeof bad / sizeof bad[0]);
    why[0] = '\0';
    for (int i = 0; i < total; i++) {
        const char *vars[5] = { bad[i].vars[0], bad[i].vars[1], bad[i].vars[2], bad[i].vars[3], NULL };
        if (launch_with(vars, &l, err) == -1 && strstr(err, bad[i].message))
            refused++;
        else if (!why[0])
            snprintf(why, sizeof why, "'%s': got '%s'", bad[i].message, err);
    }
    snprintf(err, sizeof err, "%d of %d refused with their message; first miss %s", refused,
             total, why);
    result("launch: a rank not below the count, a count out of 1..64, a number that is not "
           "one, a count or rank missing, a bad TK_ID_TIMEOUT: each refused with its message",
           refused == total, err);
}

/* ---- launcher mode: NCCL's id through a file, and a rank's rows -------------------- */

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int file_is(const char *path, const char *text)
{
    char buf[256] = "";
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return f && !strcmp(buf, text);
}

/* What err says until a call writes its message there. */
static void no_message(char *err)
{
    strcpy(err, "(no message: the call did not refuse)");
}

static void test_launch_id_file(void)
{
    char dir[] = "/tmp/tk-unit-XXXXXX", path[64], other[64], err[1024];
    unsigned char id[128], got[128];
    struct stat st;
    if (!mkdtemp(dir)) {
        result("id file: a scratch folder", 0, "mkdtemp failed");
        return;
    }
    snprintf(path, sizeof path, "%s/id", dir);
    snprintf(other, sizeof other, "%s/notes.txt", dir);
    for (int i = 0; i < 128; i++)
        id[i] = (unsigned char)(i * 7 + 3);

    /* Two processes: the reader waits, a writer appears later. */
    no_message(err);
    double t0 = seconds();
    pid_t pid = fork();
    if (pid == 0) {
        struct timespec wait = { 0, 400 * 1000000L };
        nanosleep(&wait, NULL);
        _exit(tk_id_write(path, id, sizeof id, 4, "slurm:9.1", err, sizeof err) ? 1 : 0);
    }
    int r = tk_id_read(path, got, sizeof got, 4, "slurm:9.1", 10, err, sizeof err);
    int st_child = -1;
    waitpid(pid, &st_child, 0);
    double waited = seconds() - t0;
    result("id file: a reader that starts first waits for the writer's file (another process) "
           "and reads its 128 bytes exactly", r == 0 && !memcmp(id, got, sizeof id) &&
           waited >= 0.35 && WIFEXITED(st_child) && WEXITSTATUS(st_child) == 0, err);

    int entries = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        entries += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    result("id file: the write leaves nothing but the file (its temporary was renamed)",
           entries == 1 && stat(path, &st) == 0, "a temporary file is left beside the id");

    t0 = seconds();
    no_message(err);
    r = tk_id_read(path, got, sizeof got, 4, "slurm:9.2", 1, err, sizeof err);
    waited = seconds() - t0;
    result("id file: another run's file (its name slurm:9.1, this run slurm:9.2) is passed "
           "over until the timeout, which says so", r == -1 && waited >= 1 && waited < 5 &&
           strstr(err, "after 1 s (TK_ID_TIMEOUT)") && strstr(err, "holds the id of another "
           "run ('slurm:9.1'; this run is 'slurm:9.2')"), err);
    no_message(err);
    r = tk_id_read(path, got, sizeof got, 3, "slurm:9.1", 1, err, sizeof err);
    result("id file: a file written for 4 ranks is refused by a run of 3, saying so", r == -1 &&
           strstr(err, "holds an id for 4 ranks, this run has 3"), err);

    no_message(err);
    result("id file: rank 0 removes a file an earlier run left", tk_id_prepare(path, 1, err,
           sizeof err) == 0 && stat(path, &st) != 0, err);

    t0 = seconds();
    no_message(err);
    r = tk_id_read(path, got, sizeof got, 4, "", 1, err, sizeof err);
    waited = seconds() - t0;
    result("id file: a missing file times out after TK_ID_TIMEOUT with its message", r == -1 &&
           waited >= 1 && waited < 5 && strstr(err, "no NCCL id for this run in ") &&
           strstr(err, "after 1 s") && strstr(err, "no file appeared at") &&
           strstr(err, "check that rank 0 runs"), err);

    FILE *f = fopen(other, "w");
    if (f) { fputs("my notes\n", f); fclose(f); }
    no_message(err);
    r = tk_id_prepare(other, 1, err, sizeof err);
    result("id file: a file that is not an id file is refused, not removed", r == -1 &&
           strstr(err, "is not an id file of the kit: it was left as it is") &&
           file_is(other, "my notes\n"), err);
    no_message(err);
    r = tk_id_read(other, got, sizeof got, 4, "", 1, err, sizeof err);
    result("id file: a reader finds no id in a file that is not one, and says so", r == -1 &&
           strstr(err, "is not an id file of the kit"), err);

    char lost[96], err0[1024];
    snprintf(lost, sizeof lost, "%s/no-such-folder/id", dir);
    no_message(err0);
    no_message(err);
    int w = tk_id_prepare(lost, 1, err0, sizeof err0);
    int rd = tk_id_prepare(lost, 0, err, sizeof err);
    result("id file: a folder that is not here is refused, to rank 0 and to the others",
           w == -1 && rd == -1 && strstr(err0, "no folder") && !strcmp(err0, err) &&
           strstr(err, "every rank's node shares"), err);
    no_message(err);
    result("id file: an empty path is refused", tk_id_prepare("", 0, err, sizeof err) == -1 &&
           strstr(err, "empty"), err);
    no_message(err);
    result("id file: another rank accepts an existing folder, and writes nothing",
           tk_id_prepare(path, 0, err, sizeof err) == 0 && stat(path, &st) != 0, err);

    unlink(other);
    unlink(path);
    rmdir(dir);
}

/* A launched rank's rows: filled where they lie in the whole input, the rest not there. */
static void test_launch_rows(void)
{
    enum { N = 1 << 20, FIRST = 1 << 19, COUNT = 1000 };
    char err[256] = "";
    float *m = tk_rows_reserve(N, FIRST, COUNT, err, sizeof err);
    int ok = m != NULL;
    for (size_t i = FIRST; ok && i < FIRST + COUNT; i++)
        ok = m[i] == tk_value(i);
    result("rows: a rank's 1000 rows of a 2^20-float input are filled, at their place", ok, err);
    if (!m)
        return;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {   /* reads element 0, two megabytes before its rows */
        struct rlimit none = { 0, 0 };
        setrlimit(RLIMIT_CORE, &none);
        volatile float v = m[0];
        (void)v;
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    result("rows: the rest of the input is not there: a read of element 0 faults (SIGSEGV)",
           WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "the read did not fault");
    tk_rows_release(m, N);
}


/* ---- statistics and bandwidth ----------------------------------------------------- */

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b); }

static void test_arithmetic(void)
{
    double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };
    struct tk_stats s;
    tk_stats_of(odd, 3, &s);
    result("stats: median, min and max of an odd count", s.median == 3 && s.min == 1 &&
           s.max == 5, "wrong");
    tk_stats_of(even, 4, &s);
    result("stats: the median of an even count is the mean of the middle two",
           s.median == 2.5 && s.min == 1 && s.max == 4, "wrong");

    /* 8192 x 8192 floats read and written in 1 ms: 2 * 8192^2 * 4 bytes / 1e-3 s. */
    result("bandwidth: 8192^2 in 1 ms is 536.870912 GB/s", near(tk_gbs(8192, 8192, 1.0),
           536.870912), "wrong");
    result("bandwidth: rectangular sizes count rows x cols", near(tk_gbs(3, 5, 2.0),
           2.0 * 15 * 4 / 2e-3 / 1e9), "wrong");
    /* The H100 of the reference: 2619 MHz memory clock, 5120-bit bus -> 3352.32 GB/s. */
    result("bandwidth: theoretical peak of the H100 is 3352.32 GB/s",
           near(tk_peak_gbs(2619000, 5120), 3352.32), "wrong");
    /* A device name with a comma must not add a CSV field. */
    char line[512] = "";
    FILE *mem = tmpfile();
    struct tk_table t = { .step = "step1", .device = "Acme GPU, rev \"2\"", .rows = 2, .cols = 3,
                          .reps = 1, .csv = 1 };
    struct tk_row r = { .name = "GPU-1D", .ms = { 1, 1, 1 }, .gpu = 1, .checked = 1 };
    int fields = 0;
    if (mem) {
        tk_print_row(mem, &t, &r);
        rewind(mem);
        if (!fgets(line, sizeof line, mem))
            line[0] = '\0';
        fclose(mem);
    }
    for (const char *p = line; *p; p++)
        fields += (*p == ',');
    result("csv: a device name with a comma and quotes keeps the row at 18 fields",
           fields == 17 && strstr(line, "Acme GPU  rev  2 "), line);

    result("bandwidth: the seed's K20X figures are looked up by row name",
           tk_k20x_gbs("GPU-multi-element") == 173 && tk_k20x_gbs("CPU+OMP") == 4.9 &&
           tk_k20x_gbs("copy ceiling") == 0, "wrong");
}

/* The note that the copy is no yardstick: where both matrices fit in twice the L2, and only
   there, with the sizes. */
static void test_l2_note(void)
{
    char buf[320] = "";
    size_t l2 = (size_t)50 << 20;
    int small = tk_l2_note(buf, sizeof buf, (size_t)1000 * 1000 * 4, l2);
    result("l2 note: 1000 x 1000 in a 50 MiB L2 gets the note, with the sizes", small &&
           strstr(buf, "note: both matrices (2 x 3.8 MiB) fit in twice the L2 (2 x 50 MiB)") &&
           strstr(buf, "% copy is no yardstick at this size"), buf);
    result("l2 note: a matrix exactly the L2's size still fits", tk_l2_note(buf, sizeof buf, l2, l2), "no note");
    result("l2 note: a matrix one float over the L2 gets none",
           !tk_l2_note(buf, sizeof buf, l2 + 4, l2), buf);
    result("l2 note: 8192 x 8192 in a 50 MiB L2 gets none",
           !tk_l2_note(buf, sizeof buf, (size_t)8192 * 8192 * 4, l2), buf);
    result("l2 note: an L2 of unknown size (0) gets none", !tk_l2_note(buf, sizeof buf, 4, 0), buf);
}

/* TK_WAY, the tests' knob on a launch of several ways (tk_fastest_way): unset or empty times
   them; a way's number takes it; anything else is refused, saying why. */
static void test_way(void)
{
    char err[160] = "";
    result("TK_WAY: unset means time the ways", tk_way_of(NULL, 3, err, sizeof err) == -1, err);
    result("TK_WAY: empty means time the ways", tk_way_of("", 3, err, sizeof err) == -1, err);
    result("TK_WAY: 0 and 2 of 3 ways are taken", tk_way_of("0", 3, err, sizeof err) == 0 &&
           tk_way_of("2", 3, err, sizeof err) == 2, err);
    result("TK_WAY: 3 of 3 ways is refused, saying the most", tk_way_of("3", 3, err, sizeof err) == -2 &&
           strstr(err, "TK_WAY: 3 is too large (at most 2)"), err);
    result("TK_WAY: -1 is refused", tk_way_of("-1", 3, err, sizeof err) == -2 &&
           strstr(err, "too small (at least 0)"), err);
    result("TK_WAY: a word is refused, saying so", tk_way_of("8bands", 3, err, sizeof err) == -2 &&
           strstr(err, "TK_WAY: '8bands' is not a whole number"), err);
}

/* The note under a row whose launch timed its ways (tk_fastest_way): the fastest taken and
   said, each way's time, a tie kept by the first way, a note cut short without overrunning;
   a way whose output was not exact kept instead (the first such), each way's count said. */
static void test_way_note(void)
{
    const char *const names[3] = { "one band", "8 bands", "all bands" };
    const float best[3] = { 6.403f, 6.106f, 5.964f }, tie[3] = { 2.5f, 2.5f, 3.0f };
    const size_t exact[3] = { 0, 0, 0 }, one_wrong[3] = { 0, 26400, 0 }, two_wrong[3] = { 0, 7, 9 };
    char buf[512], small[40];
    int k = tk_way_note(buf, sizeof buf, 45888, 45897, names, best, exact, 3, 5);
    result("way note: the fastest of three is taken and said, with each way's time", k == 2 &&
           !strcmp(buf, "note: at 45888 x 45897 the launch took the fastest of its ways (the median "
                   "of 5 runs each): one band 6.403 ms, 8 bands 6.106 ms, all bands 5.964 ms: all bands"), buf);
    k = tk_way_note(buf, sizeof buf, 45888, 45897, names, best, NULL, 3, 5);
    result("way note: no counts (NULL) is every way exact", k == 2 && strstr(buf, ": all bands"), buf);
    k = tk_way_note(buf, sizeof buf, 8192, 8192, names, tie, exact, 3, 5);
    result("way note: a tie keeps the first of the equal ways", k == 0 &&
           !strcmp(buf + strlen(buf) - strlen("3.000 ms: one band"), "3.000 ms: one band"), buf);
    k = tk_way_note(buf, sizeof buf, 300, 600, names + 1, best + 1, exact, 1, 5);
    result("way note: one way is taken", k == 0 && strstr(buf, "8 bands 6.106 ms: 8 bands"), buf);
    memset(small, 'x', sizeof small);
    k = tk_way_note(small, 30, 45888, 45897, names, best, exact, 3, 5);
    result("way note: a note past its buffer is cut, ended, and the way still found", k == 2 &&
           strlen(small) == 29 && small[30] == 'x', small);
    k = tk_way_note(buf, sizeof buf, 300, 600, names, best, one_wrong, 3, 5);
    result("way note: a way whose output was not exact is kept, though not the fastest, and said",
           k == 1 && !strcmp(buf, "note: at 300 x 600 the launch's output was not exact in every "
                             "way: one band exact, 8 bands 26400 floats wrong, all bands exact; 8 "
                             "bands is kept, so the row above is its output"), buf);
    printf("%s\n", buf);   /* the note as the harness prints it: test 2 reads the grader's words of it */
    k = tk_way_note(buf, sizeof buf, 300, 600, names, best, two_wrong, 3, 5);
    result("way note: of two ways not exact the first is kept, each one's count said", k == 1 &&
           strstr(buf, "8 bands 7 floats wrong, all bands 9 floats wrong; 8 bands is kept"), buf);
    memset(small, 'x', sizeof small);
    k = tk_way_note(small, 30, 300, 600, names, best, one_wrong, 3, 5);
    result("way note: a wrong way's note past its buffer is cut, ended, and the way still kept",
           k == 1 && strlen(small) == 29 && small[30] == 'x', small);
}

int main(int argc, char **argv)
{
    test_options_good();
    test_options_bad();
    test_values();
    test_cpu_transpose(argc > 1 ? argv[1] : NULL);
    test_checker();
    test_explain();
    test_explain_tails();
    test_partition();
    test_parts();
    test_fused();
    test_hostmem();
    test_launch_env();
    test_launch_id_file();
    test_launch_rows();
    test_arithmetic();
    test_l2_note();
    test_way();
    test_way_note();
    return failures != 0;
}
