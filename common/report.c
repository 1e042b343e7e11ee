/* Timing statistics, bandwidth arithmetic and the printed rows. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void tk_stats_of(double *ms, int n, struct tk_stats *s)
{
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    s->min = ms[0];
    s->max = ms[n - 1];
    s->median = (n % 2) ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

double tk_gbs(long rows, long cols, double ms)
{
    return 2.0 * (double)rows * (double)cols * sizeof(float) / (ms * 1e-3) / 1e9;
}

int tk_l2_note(char *buf, size_t len, size_t bytes, size_t l2)
{
    if (!l2 || bytes > l2)   /* two matrices in twice the L2 */
        return 0;
    snprintf(buf, len, "note: both matrices (2 x %.1f MiB) fit in twice the L2 (2 x %.0f MiB): "
             "neither the copy nor the kernel need reach device memory inside the timing, so "
             "%% copy is no yardstick at this size; take a matrix several times the L2",
             bytes / 1048576.0, l2 / 1048576.0);
    return 1;
}

int tk_way_note(char *buf, size_t len, long rows, long cols, const char *const *names,
                const float *best, const size_t *wrong, int n, int runs)
{
    int bad = -1;
    for (int w = 0; w < n && wrong && bad < 0; w++)
        if (wrong[w])
            bad = w;
    if (bad >= 0) {
        size_t at = (size_t)snprintf(buf, len, "note: at %ld x %ld the launch's output was not "
                                     "exact in every way:", rows, cols);
        for (int w = 0; w < n && at < len; w++) {
            if (wrong[w])
                at += (size_t)snprintf(buf + at, len - at, "%s %s %zu floats wrong",
                                       w ? "," : "", names[w], wrong[w]);
            else
                at += (size_t)snprintf(buf + at, len - at, "%s %s exact", w ? "," : "", names[w]);
        }
        if (at < len)
            snprintf(buf + at, len - at, "; %s is kept, so the row above is its output",
                     names[bad]);
        return bad;
    }
    int k = 0;
    for (int w = 1; w < n; w++)
        if (best[w] < best[k])
            k = w;
    size_t at = (size_t)snprintf(buf, len, "note: at %ld x %ld the launch took the fastest of "
                                 "its ways (the median of %d runs each):", rows, cols, runs);
    for (int w = 0; w < n && at < len; w++)
        at += (size_t)snprintf(buf + at, len - at, "%s %s %.3f ms", w ? "," : "", names[w],
                               best[w]);
    if (at < len)
        snprintf(buf + at, len - at, ": %s", names[k]);
    return k;
}

double tk_peak_gbs(int mem_clock_khz, int bus_width_bits)
{
    return 2.0 * mem_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9;
}

double tk_k20x_gbs(const char *row)
{
    static const struct { const char *row; double gbs; } k20x[] = {
        { "CPU+OMP", 4.9 },     { "GPU-1D", 7.2 },            { "GPU-2D", 59 },
        { "GPU-shared", 73 },   { "GPU-no-conflicts", 114 },  { "GPU-multi-element", 173 },
    };
    for (size_t i = 0; i < sizeof k20x / sizeof k20x[0]; i++)
        if (!strcmp(row, k20x[i].row))
            return k20x[i].gbs;
    return 0;
}

#define CSV_COLUMNS "step,row,device,cc,peak_gbs,rows,cols,reps,ms_median,ms_min,ms_max," \
                    "gbs,pct_peak,pct_copy,checked,k20x_gbs,cuda_runtime,driver"
#define CSV_COLUMNS_ACROSS "step,row,device,gpus,rows,cols,reps,ms_median,ms_min,ms_max,gbs," \
                           "link_gbs,pct_nccl,checked,cuda_runtime,driver"

void tk_print_header(FILE *f, const struct tk_table *t)
{
    if (t->csv)
        fprintf(f, "%s\n", t->across ? CSV_COLUMNS_ACROSS : CSV_COLUMNS);
    else if (t->across)
        fprintf(f, "%-34s %10s %10s %10s %9s %10s %7s %8s\n", "row", "median ms", "min ms",
                "max ms", "GB/s", "link GB/s", "% NCCL", "checked");
    else
        fprintf(f, "%-28s %10s %10s %10s %9s %7s %7s %8s %10s\n", "row", "median ms", "min ms",
                "max ms", "GB/s", "% peak", "% copy", "checked", "K20X GB/s");
}

void tk_print_row(FILE *f, const struct tk_table *t, const struct tk_row *r)
{
    double gbs = tk_gbs(t->rows, t->cols, r->ms.median);
    double k20x = t->across ? 0 : tk_k20x_gbs(r->name);
    /* The two columns after GB/s: % of peak and % of copy, or link GB/s and % of NCCL. */
    double a, b;
    int a_known, b_known;
    if (t->across) {
        a = r->link_bytes / (r->ms.median * 1e6), a_known = r->link_bytes > 0;
        b = 100 * r->nccl_ms / r->ms.median, b_known = r->nccl_ms > 0;
    } else {
        a = 100 * gbs / t->peak_gbs, a_known = r->gpu && t->peak_gbs > 0;
        b = r->pct_copy > 0 ? r->pct_copy : 100 * gbs / r->copy_gbs;
        b_known = r->gpu && (r->pct_copy > 0 || r->copy_gbs > 0);
    }

    if (t->csv) {
        /* The CSV never needs quotes: no field holds a comma (a device name's become spaces),
           so every comma separates. The device stays quoted, as earlier runs wrote it. */
        char device[256];
        snprintf(device, sizeof device, "%s", t->device);
        for (char *p = device; *p; p++)
            if (*p == ',' || *p == '"')
                *p = ' ';
        if (t->across)
            fprintf(f, "%s,%s,\"%s\",%d,%ld,%ld,%d,", t->step, r->name, device, t->gpus,
                    t->rows, t->cols, t->reps);
        else
            fprintf(f, "%s,%s,\"%s\",%d.%d,%.0f,%ld,%ld,%d,", t->step, r->name, device,
                    t->cc_major, t->cc_minor, t->peak_gbs, t->rows, t->cols, t->reps);
        if (r->checked) {
            fprintf(f, "%.4f,%.4f,%.4f,%.1f,", r->ms.median, r->ms.min, r->ms.max, gbs);
            if (a_known) fprintf(f, "%.1f", a);
            fputc(',', f);
            if (b_known) fprintf(f, "%.1f", b);
            fputc(',', f);
        } else {
            fputs(",,,,,,", f);
        }
        fputs(r->checked ? "yes" : "no", f);
        if (!t->across) {
            fputc(',', f);
            if (k20x > 0) fprintf(f, "%g", k20x);
        }
        fprintf(f, ",%d.%d,", t->runtime_version / 1000, t->runtime_version % 1000 / 10);
        if (t->driver_version > 0)   /* none where no driver is installed: the field is empty */
            fprintf(f, "%d.%d", t->driver_version / 1000, t->driver_version % 1000 / 10);
        fputc('\n', f);
        return;
    }

    char label[96];
    int a_width = t->across ? 10 : 7;
    if (r->note)
        snprintf(label, sizeof label, "%s (%s)", r->name, r->note);
    else
        snprintf(label, sizeof label, "%s", r->name);
    fprintf(f, "%-*s ", t->across ? 34 : 28, label);
    if (!r->checked) {
        fprintf(f, "%10s %10s %10s %9s %*s %7s %8s", "-", "-", "-", "-", a_width, "-", "-",
                "WRONG");
    } else {
        fprintf(f, "%10.3f %10.3f %10.3f %9.1f ", r->ms.median, r->ms.min, r->ms.max, gbs);
        if (!a_known)     fprintf(f, "%*s ", a_width, "-");
        else if (t->across) fprintf(f, "%10.1f ", a);
        else              fprintf(f, "%6.1f%% ", a);
        if (b_known) fprintf(f, "%6.1f%% ", b);
        else         fprintf(f, "%7s ", "-");
        fprintf(f, "%8s", "yes");
    }
    if (k20x > 0) fprintf(f, " %10g", k20x);
    fputc('\n', f);
}
