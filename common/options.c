/* Command-line parsing for every step's ./transpose. Plain C11, no CUDA. */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *const tk_exit_meaning[TK_EXIT_COUNT] = {
    [TK_EXIT_OK] = "every row ran and every output was exact",
    [TK_EXIT_WRONG] = "an output was wrong (the first wrong element is printed)",
    [TK_EXIT_USAGE] = "bad command line",
    [TK_EXIT_NO_GPU] = "no usable GPU: the CPU row ran, the GPU rows were skipped",
    [TK_EXIT_CUDA] = "a CUDA call or an allocation failed, or the matrices do not fit",
    [TK_EXIT_TODO] = "the step's TODOs are not done yet",
    [TK_EXIT_DRIVER] = "the NVIDIA driver is older than this build's CUDA: the CPU row ran, the GPU rows were skipped",
};

void tk_print_usage(FILE *f, const char *prog)
{
    fprintf(f,
"usage: %s [options]\n"
"  -n N            square N x N matrix (default %d)\n"
"  --rows R        rows of the input matrix (any R >= 1)\n"
"  --cols C        columns of the input matrix (any C >= 1); the output is C x R\n"
"  --reps K        timed runs per row; the median is reported (default %d;\n"
"                  the CPU row uses at most 5, it is a hundred times slower)\n"
"  --warmup W      untimed runs before them (default %d)\n"
"  --device D      CUDA device to use (default 0)\n"
"  --csv           print machine-readable CSV rows instead of the table\n"
"  --no-cpu        skip the CPU+OMP row (it honours OMP_NUM_THREADS)\n"
"  --no-flush      do not empty the L2 cache before each timed run (see below)\n"
"  --describe      print \"step=stepN row=GPU-xx todo=open|done\" and exit (for the grader)\n"
"  --shapes LIST   R1xC1,R2xC2,...: each shape in turn, in one process, instead of -n,\n"
"                  --rows and --cols; stops at the first whose output is not exact (for\n"
"                  the grader: one CUDA context for all of them)\n"
"  --keep-going    with --shapes: go on past a shape whose output is not exact (each says\n"
"                  'shapes: R x C exact' or 'not exact'; the exit status is 1 if one was not)\n"
"  -h, --help      this text\n"
"\n"
"Sizes: any shape whose two matrices fit in the GPU's memory and in the host's. Steps\n"
"1 to 6 and 10 hold each side in an int: at most %ld rows and as many\n"
"columns. Steps 2 to 6 count tiles of rows in their grid's y, which holds 65535 blocks:\n"
"they stop at 2097120 rows (step 6: 4194240). Each says so; steps 7 to 9 and the library\n"
"row take every shape that fits. The default, 8192 x 8192\n"
"floats, is 256 MiB a matrix. Smaller sizes flatter the GPU: the 2013 workshop\n"
"used 1024 x 1024 (4 MiB), which sits entirely in a modern L2 cache (50 MB on an\n"
"H100), so it measures the cache and the launch overhead, not device memory.\n"
"\n"
"GB/s counts every byte read and written once: 2 x rows x cols x 4 / time.\n"
"Before each timed run the output is poisoned (an element never written fails the\n"
"check) and the L2 is emptied by reading a scratch buffer, so every row, the copy\n"
"ceiling included, starts from the same cache state.\n"
"\n"
"Exit status:\n",
            prog, TK_DEFAULT_N, TK_DEFAULT_REPS, TK_DEFAULT_WARMUP, TK_INT_SIDE_MAX);
    for (int e = 0; e < TK_EXIT_COUNT; e++)
        fprintf(f, "  %d  %s\n", e, tk_exit_meaning[e]);
}

/* Parses a whole decimal integer in [lo, hi]; writes a message into err otherwise. */
static int parse_long(const char *flag, const char *text, long lo, long hi, long *out,
                      char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || isspace((unsigned char)text[0])) {   /* strtol skips spaces */
        snprintf(err, errlen, "%s: '%s' is not a whole number", flag, text);
        return -1;
    }
    if (errno == ERANGE) {
        snprintf(err, errlen, "%s: '%s' is out of range", flag, text);
        return -1;
    }
    if (v < lo) {
        snprintf(err, errlen, "%s: %ld is too small (at least %ld)", flag, v, lo);
        return -1;
    }
    if (v > hi) {
        snprintf(err, errlen, "%s: %ld is too large (at most %ld)", flag, v, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int tk_way_of(const char *text, int n, char *err, size_t errlen)
{
    long k;
    if (!text || !*text)
        return -1;
    if (parse_long("TK_WAY", text, 0, n - 1L, &k, err, errlen))
        return -2;
    return (int)k;
}

/* Whether rows x cols is a size the kit runs; writes a message into err otherwise. */
static enum tk_parse_result check_size(long rows, long cols, char *err, size_t errlen)
{
    /* The two matrices' byte count must be representable before any limit means anything. */
    size_t r = (size_t)rows, c = (size_t)cols;
    if (r > SIZE_MAX / c || r * c > SIZE_MAX / (2 * sizeof(float))) {
        snprintf(err, errlen, "%ld x %ld floats: the size in bytes overflows size_t", rows, cols);
        return TK_PARSE_ERROR;
    }
    return TK_PARSE_OK;
}

int tk_takes_long_sides(const char *step)
{
    static const char *const takes[] = { "step7", "step8", "step9", "library" };
    for (size_t k = 0; step && k < sizeof takes / sizeof takes[0]; k++)
        if (strcmp(step, takes[k]) == 0)
            return 1;
    return 0;
}

int tk_side_refusal(const char *step, long rows, long cols, char *err, size_t errlen)
{
    if (tk_takes_long_sides(step) || (rows <= TK_INT_SIDE_MAX && cols <= TK_INT_SIDE_MAX))
        return 0;
    int n = 0;   /* "step3" is step 3 */
    char name[40];
    if (step && sscanf(step, "step%d", &n) == 1 && n > 0)
        snprintf(name, sizeof name, "step %d", n);
    else
        snprintf(name, sizeof name, "%s", step ? step : "this program");
    int tall = rows > TK_INT_SIDE_MAX;
    snprintf(err, errlen, "%ld %s: %s holds each side of the matrix in an int (its kernel's "
             "rows and cols), at most %ld; step 7 takes every shape that fits%s",
             tall ? rows : cols, tall ? "rows" : "columns", name, TK_INT_SIDE_MAX,
             n >= 8 ? " (steps 8 and 9 across GPUs)" : "");
    return 1;
}

/* One shape "RxC" of a list, from *p up to the next comma or the end: 0 and *p past it, or
   -1 (err says why). */
static int parse_shape(const char **p, long *rows, long *cols, char *err, size_t errlen)
{
    char text[64], *x;
    size_t len = strcspn(*p, ",");
    if (len == 0 || len >= sizeof text) {
        snprintf(err, errlen, "--shapes: '%.*s' is not a shape ROWSxCOLS", (int)(len < 40 ? len : 40), *p);
        return -1;
    }
    memcpy(text, *p, len);
    text[len] = '\0';
    x = strchr(text, 'x');
    if (!x) {
        snprintf(err, errlen, "--shapes: '%s' is not a shape ROWSxCOLS", text);
        return -1;
    }
    *x = '\0';
    if (parse_long("--shapes rows", text, 1, LONG_MAX, rows, err, errlen) ||
        parse_long("--shapes cols", x + 1, 1, LONG_MAX, cols, err, errlen))
        return -1;
    if ((*p)[len] == ',' && (*p)[len + 1] == '\0') {
        snprintf(err, errlen, "--shapes: the list ends with a comma, no shape after it");
        return -1;
    }
    *p += len + ((*p)[len] == ',');
    return 0;
}

int tk_shape_of(const char *list, int k, long *rows, long *cols)
{
    char err[128];
    const char *p = list;
    for (int i = 0; *p; i++) {
        if (parse_shape(&p, rows, cols, err, sizeof err))
            return 0;
        if (i == k)
            return 1;
    }
    return 0;
}

/* A --shapes list: every shape a size the kit runs, at most TK_MAX_SHAPES of them, and not
   more than 2^31 elements in all, so that every input of the run has values of its own
   (tk_fill); o->rows and o->cols become the first shape. */
static enum tk_parse_result check_shapes(struct tk_options *o, char *err, size_t errlen)
{
    const char *p = o->shapes;
    size_t total = 0;
    int k = 0;
    if (!*p) {
        snprintf(err, errlen, "--shapes: the list is empty");
        return TK_PARSE_ERROR;
    }
    while (*p) {
        long r, c;
        if (parse_shape(&p, &r, &c, err, errlen) || check_size(r, c, err, errlen))
            return TK_PARSE_ERROR;
        if (k++ == 0)
            o->rows = r, o->cols = c;
        total += (size_t)r * (size_t)c;   /* at most 2^31 before, a size_t's quarter added */
        if (k > TK_MAX_SHAPES || total > ((size_t)1 << 31)) {
            snprintf(err, errlen, "--shapes: more than %d shapes or 2^31 elements in all: "
                     "run them in several lists", TK_MAX_SHAPES);
            return TK_PARSE_ERROR;
        }
    }
    return TK_PARSE_OK;
}

enum tk_parse_result tk_parse_options(int argc, char **argv, struct tk_options *o,
                                      char *err, size_t errlen)
{
    enum { OPT_ROWS = 256, OPT_COLS, OPT_REPS, OPT_WARMUP, OPT_DEVICE, OPT_CSV, OPT_NO_CPU,
           OPT_NO_FLUSH, OPT_DESCRIBE, OPT_SHAPES, OPT_KEEP_GOING };
    static const struct option longopts[] = {
        { "rows", required_argument, NULL, OPT_ROWS },
        { "cols", required_argument, NULL, OPT_COLS },
        { "reps", required_argument, NULL, OPT_REPS },
        { "warmup", required_argument, NULL, OPT_WARMUP },
        { "device", required_argument, NULL, OPT_DEVICE },
        { "csv", no_argument, NULL, OPT_CSV },
        { "no-cpu", no_argument, NULL, OPT_NO_CPU },
        { "no-flush", no_argument, NULL, OPT_NO_FLUSH },
        { "describe", no_argument, NULL, OPT_DESCRIBE },
        { "shapes", required_argument, NULL, OPT_SHAPES },
        { "keep-going", no_argument, NULL, OPT_KEEP_GOING },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    o->rows = o->cols = TK_DEFAULT_N;
    o->reps = TK_DEFAULT_REPS;
    o->warmup = TK_DEFAULT_WARMUP;
    o->device = 0;
    o->csv = o->no_cpu = o->no_flush = o->describe = 0;
    o->shapes = NULL;
    o->keep_going = 0;
    int sized = 0;   /* -n, --rows or --cols given */

    optind = 0;    /* glibc: start afresh, also when called again */
    opterr = 0;    /* the messages below are the kit's own */
    int opt;
    long v;
    while ((opt = getopt_long(argc, argv, "+:n:h", longopts, NULL)) != -1) {
        const char *flag = argv[optind - 1];   /* as typed, for messages */
        switch (opt) {
        case 'h':
            return TK_PARSE_HELP;
        case OPT_CSV:      o->csv = 1;      continue;
        case OPT_NO_CPU:   o->no_cpu = 1;   continue;
        case OPT_NO_FLUSH: o->no_flush = 1; continue;
        case OPT_DESCRIBE: o->describe = 1; continue;
        case OPT_SHAPES:   o->shapes = optarg; continue;
        case OPT_KEEP_GOING: o->keep_going = 1; continue;
        case ':':
            snprintf(err, errlen, "%s needs a value", flag);
            return TK_PARSE_ERROR;
        case '?':
            snprintf(err, errlen, "unknown option '%s'", flag);
            return TK_PARSE_ERROR;
        }
        /* An option with a value. Sizes: their limits are checked below. */
        long lo = 1, hi = LONG_MAX;
        const char *name = opt == 'n' ? "-n" : longopts[opt - OPT_ROWS].name;
        char dashed[32];
        if (opt != 'n') {
            snprintf(dashed, sizeof dashed, "--%s", name);
            name = dashed;
        }
        if (opt == OPT_REPS)
            hi = TK_MAX_REPS;
        else if (opt == OPT_WARMUP)
            lo = 0, hi = TK_MAX_REPS;
        else if (opt == OPT_DEVICE)
            lo = 0, hi = 1023;
        if (parse_long(name, optarg, lo, hi, &v, err, errlen))
            return TK_PARSE_ERROR;
        switch (opt) {
        case 'n':        o->rows = o->cols = v; sized = 1; break;
        case OPT_ROWS:   o->rows = v;           sized = 1; break;
        case OPT_COLS:   o->cols = v;           sized = 1; break;
        case OPT_REPS:   o->reps = (int)v;      break;
        case OPT_WARMUP: o->warmup = (int)v;    break;
        default:         o->device = (int)v;    break;
        }
    }
    if (optind < argc) {   /* a word that is no option */
        snprintf(err, errlen, "unknown option '%s'", argv[optind]);
        return TK_PARSE_ERROR;
    }

    if (o->keep_going && !o->shapes) {
        snprintf(err, errlen, "--keep-going goes on through a --shapes list: give one");
        return TK_PARSE_ERROR;
    }
    if (o->shapes) {
        if (sized) {
            snprintf(err, errlen, "--shapes takes the place of -n, --rows and --cols: give one or the other");
            return TK_PARSE_ERROR;
        }
        return check_shapes(o, err, errlen);
    }
    return check_size(o->rows, o->cols, err, errlen);
}
