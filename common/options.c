/* Command-line parsing for every step's ./transpose. Plain C11, no CUDA. */
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
"  -h, --help      this text\n"
"\n"
"Sizes: up to %ld rows (65535 tiles of 32 in the grid's y) and %ld columns, as\n"
"long as two matrices fit in the GPU's memory and in the host's. The default, 8192 x 8192\n"
"floats, is 256 MiB a matrix. Smaller sizes flatter the GPU: the 2013 workshop\n"
"used 1024 x 1024 (4 MiB), which sits entirely in a modern L2 cache (50 MB on an\n"
"H100), so it measures the cache and the launch overhead, not device memory.\n"
"\n"
"GB/s counts every byte read and written once: 2 x rows x cols x 4 / time.\n"
"Before each timed run the output is poisoned (an element never written fails the\n"
"check) and the L2 is emptied by reading a scratch buffer, so every row, the copy\n"
"ceiling included, starts from the same cache state.\n"
"Exit status: 0 all rows ran and every output was exact; 1 an output was wrong;\n"
"2 bad command line; 3 no usable GPU (the CPU row ran, GPU rows skipped);\n"
"4 a CUDA call or an allocation failed; 5 the step's TODOs are not done yet.\n",
            prog, TK_DEFAULT_N, TK_DEFAULT_REPS, TK_DEFAULT_WARMUP, TK_MAX_ROWS, TK_MAX_COLS);
}

/* Parses a whole decimal integer in [lo, hi]; writes a message into err otherwise. */
static int parse_long(const char *flag, const char *text, long lo, long hi, long *out,
                      char *err, size_t errlen)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0') {
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

enum tk_parse_result tk_parse_options(int argc, char **argv, struct tk_options *o,
                                      char *err, size_t errlen)
{
    o->rows = o->cols = TK_DEFAULT_N;
    o->reps = TK_DEFAULT_REPS;
    o->warmup = TK_DEFAULT_WARMUP;
    o->device = 0;
    o->csv = o->no_cpu = o->no_flush = o->describe = 0;

    for (int i = 1; i < argc; i++) {
        const char *flag = argv[i];
        if (!strcmp(flag, "-h") || !strcmp(flag, "--help"))
            return TK_PARSE_HELP;
        if (!strcmp(flag, "--csv"))    { o->csv = 1;    continue; }
        if (!strcmp(flag, "--no-cpu")) { o->no_cpu = 1; continue; }
        if (!strcmp(flag, "--no-flush")) { o->no_flush = 1; continue; }
        if (!strcmp(flag, "--describe")) { o->describe = 1; continue; }

        /* Every other flag takes a value: "--flag V" or "--flag=V". */
        char name[32];
        const char *value = NULL;
        const char *eq = strchr(flag, '=');
        if (eq && flag[0] == '-' && flag[1] == '-' && (size_t)(eq - flag) < sizeof name) {
            memcpy(name, flag, (size_t)(eq - flag));
            name[eq - flag] = '\0';
            value = eq + 1;
            flag = name;
        }
        int known = !strcmp(flag, "-n") || !strcmp(flag, "--rows") || !strcmp(flag, "--cols") ||
                    !strcmp(flag, "--reps") || !strcmp(flag, "--warmup") ||
                    !strcmp(flag, "--device");
        if (!known) {
            snprintf(err, errlen, "unknown option '%s'", argv[i]);
            return TK_PARSE_ERROR;
        }
        if (!value) {
            if (i + 1 >= argc) {
                snprintf(err, errlen, "%s needs a value", flag);
                return TK_PARSE_ERROR;
            }
            value = argv[++i];
        }

        long v, lo = 1, hi = LONG_MAX;   /* sizes: their limits are checked below */
        if (!strcmp(flag, "--reps"))
            hi = TK_MAX_REPS;
        else if (!strcmp(flag, "--warmup"))
            lo = 0, hi = TK_MAX_REPS;
        else if (!strcmp(flag, "--device"))
            lo = 0, hi = 1023;
        if (parse_long(flag, value, lo, hi, &v, err, errlen))
            return TK_PARSE_ERROR;

        if (!strcmp(flag, "-n"))            o->rows = o->cols = v;
        else if (!strcmp(flag, "--rows"))   o->rows = v;
        else if (!strcmp(flag, "--cols"))   o->cols = v;
        else if (!strcmp(flag, "--reps"))   o->reps = (int)v;
        else if (!strcmp(flag, "--warmup")) o->warmup = (int)v;
        else                                o->device = (int)v;
    }

    /* Byte count first: it must be representable before any limit is meaningful. */
    size_t r = (size_t)o->rows, c = (size_t)o->cols;
    if (r > SIZE_MAX / c || r * c > SIZE_MAX / sizeof(float)) {
        snprintf(err, errlen, "%ld x %ld floats: the size in bytes overflows size_t",
                 o->rows, o->cols);
        return TK_PARSE_ERROR;
    }
    if (o->rows > TK_MAX_ROWS) {
        snprintf(err, errlen, "%ld rows: at most %ld (65535 tiles of 32 rows in the grid's y)",
                 o->rows, TK_MAX_ROWS);
        return TK_PARSE_ERROR;
    }
    if (o->cols > TK_MAX_COLS) {
        snprintf(err, errlen, "%ld columns: at most %ld (the kernels index columns as int)",
                 o->cols, TK_MAX_COLS);
        return TK_PARSE_ERROR;
    }
    return TK_PARSE_OK;
}
