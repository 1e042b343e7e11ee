/* Timing statistics, bandwidth arithmetic and the printed rows. Plain C, no CUDA. */
#ifndef TK_REPORT_H
#define TK_REPORT_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tk_stats { double median, min, max; };

/* Sorts ms[0..n) in place and takes median (mean of the middle two when n is even), min, max. */
void tk_stats_of(double *ms, int n, struct tk_stats *s);

/* Effective bandwidth of a transpose or copy: every byte read once and written once,
   2 * rows * cols * 4 bytes over the time, in decimal GB/s. */
double tk_gbs(long rows, long cols, double ms);

/* Where both matrices (bytes each) fit in twice the L2 (l2 bytes), writes into buf the note
   that the copy is no yardstick at this size, with the sizes, and returns 1; else 0. */
int tk_l2_note(char *buf, size_t len, size_t bytes, size_t l2);

/* The ways of a launch that tk_fastest_way (harness.h) timed: best[k] the least time of way k
   (ms) over runs runs each, wrong[k] how many floats of its output were not exact in its
   untimed, checked run (NULL: none counted), names[k] its name, n of them. Writes into buf
   the note under the row (no line end), cut at len - 1 characters, and returns the way to
   keep: where a way's output was not exact, the first such way, the note saying how many
   floats of each way were wrong (so that the row's check shows that way's output); else the
   fastest (the first of equal times), the note giving each way's time. */
int tk_way_note(char *buf, size_t len, long rows, long cols, const char *const *names,
                const float *best, const size_t *wrong, int n, int runs);

/* Theoretical device-memory bandwidth: two transfers a clock (DDR) over the bus width. */
double tk_peak_gbs(int mem_clock_khz, int bus_width_bits);

/* The 2013 workshop's K20X figure for a row name (1024 x 1024), or 0 when it has none. */
double tk_k20x_gbs(const char *row);

/* What every printed row shares: the run it belongs to. A table across GPUs (steps 8 to 10)
   has columns of its own: the number of GPUs instead of the compute capability and peak, link
   GB/s and % of NCCL instead of % of peak and % of copy, and no K20X figure. */
struct tk_table {
    const char *step;         /* "step1" */
    const char *device;       /* "NVIDIA H100 80GB HBM3", or "none" */
    int cc_major, cc_minor;
    double peak_gbs;          /* 0 when unknown */
    int across, gpus;         /* across: the table across GPUs, over gpus of them */
    long rows, cols;
    int reps;
    int runtime_version, driver_version;   /* as CUDA reports them: 13000 is 13.0 */
    int csv;
};

struct tk_row {
    const char *name;         /* "CPU+OMP", "copy ceiling", "GPU-1D", ... */
    const char *note;         /* shown after the name in the table, e.g. "16 threads"; may be NULL */
    struct tk_stats ms;
    double copy_gbs;          /* the copy ceiling of the same run, 0 when not measured */
    double pct_copy;          /* % of the copy ceiling, taken run by run (0: from copy_gbs) */
    int gpu;                  /* % of peak and % of copy apply */
    int checked;              /* 1: output exact; 0: wrong (no figures are printed) */
    double link_bytes;        /* across GPUs: the bytes that cross between GPUs, 0 when none */
    double nccl_ms;           /* across GPUs: the NCCL row's median, 0 when not measured */
};

void tk_print_header(FILE *f, const struct tk_table *t);
void tk_print_row(FILE *f, const struct tk_table *t, const struct tk_row *r);

#ifdef __cplusplus
}
#endif
#endif
