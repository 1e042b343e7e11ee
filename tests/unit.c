/* Host-side unit tests of the harness's plain-C parts: options, values, CPU transpose,
   checker, statistics and bandwidth arithmetic. Prints one "PASS name" or "FAIL name: why"
   line per test; tests/run.sh counts them. */
#include "matrix.h"
#include "options.h"
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    char buf[512], *argv[32];
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

    ok = parse("--rows 2097120 --cols 2147483392", &o, err) == TK_PARSE_OK &&
         parse("-n 46341", &o, err) == TK_PARSE_OK && parse("--rows 65536 --cols 65537", &o,
         err) == TK_PARSE_OK;
    result("options: sizes past 2^31 elements, up to the grid's limits, are accepted", ok, err);

    ok = parse("--rows 5 --help", &o, err) == TK_PARSE_HELP && parse("-h", &o, err) == TK_PARSE_HELP;
    result("options: -h and --help ask for the usage", ok, err);
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
        { "-n 99999999999999999999", "out of range" },
        { "--rows 8589934592 --cols 8589934592", "overflows size_t" },
        { "--rows 2097121 --cols 1", "rows: at most 2097120" },
        { "--cols 2147483393 --rows 1", "columns: at most 2147483392" },
        { "--bogus", "unknown option" },
        { "--rows", "needs a value" },
        { "--reps 0", "too small" },
        { "--reps 10001", "too large" },
        { "--warmup -1", "too small" },
        { "--device -1", "too small" },
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
        tk_fill(in, n);
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

/* The kit's shape list (scripts/shapes.txt, given as the first argument), as the grader and
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
    result("cpu transpose: the shape list was read", count >= 6, "no shapes: pass scripts/shapes.txt");

    /* A 2 x 3 by hand: in = [a b c; d e f] must become out = [a d; b e; c f]. */
    float in[6], out[6];
    tk_fill(in, 6);
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
    tk_fill(in, n);
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

int main(int argc, char **argv)
{
    test_options_good();
    test_options_bad();
    test_values();
    test_cpu_transpose(argc > 1 ? argv[1] : NULL);
    test_checker();
    test_arithmetic();
    return failures != 0;
}
