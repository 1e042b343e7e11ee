/* The lever benchmark's hooks on the one-GPU harness: see bench.h. Each reads or sets a
   field of the harness's state (harness_state.h), or times with its rounds. C11. */
#include "bench.h"
#include "harness_state.h"
#include <stdio.h>
#include <stdlib.h>

const struct tk_options *tk_run_options(const struct tk_run *run)
{
    return &run->h->core.opt;
}

int tk_run_cc(const struct tk_run *run)
{
    return run->h->core.table.cc_major * 10 + run->h->core.table.cc_minor;
}

int tk_output_exact(const struct tk_run *run, int copies, struct tk_mismatch *m)
{
    return tk_core_exact(run->in, run->out, run->rows, run->cols, copies, m);
}

void tk_mark_wrong(struct tk_run *run)
{
    run->h->core.status = TK_EXIT_WRONG;
}

struct pick { tk_launch_fn launch; const float *d_in; float *d_out; int rows, cols; };

static void launch_pick(void *arg, cudaStream_t s, int last)
{
    const struct pick *p = arg;
    (void)s, (void)last;   /* a launch runs on the default stream, the harness's */
    p->launch(p->d_in, p->d_out, p->rows, p->cols);
}

int tk_run_fastest(struct tk_run *run, const tk_launch_fn *launch, int n, const float *d_in,
                   float *d_out, double *median)
{
    struct tk_core *c = &run->h->core;
    struct pick *p = calloc((size_t)n, sizeof *p);
    struct tk_timed *t = calloc((size_t)n, sizeof *t);
    double **ms = calloc((size_t)n, sizeof *ms);
    int best = 0;
    if (!p || !t || !ms) {
        fprintf(stderr, "tk_run_fastest: out of host memory\n");
        exit(TK_EXIT_CUDA);   /* as the harness does (tk_core_ms) */
    }
    for (int k = 0; k < n; k++) {
        p[k] = (struct pick){ launch[k], d_in, d_out, (int)run->rows, (int)run->cols };
        t[k] = (struct tk_timed){ .work = launch_pick, .arg = &p[k], .out = d_out,
                                  .out_bytes = run->bytes };
        ms[k] = tk_core_ms(c);
    }
    tk_core_time_rounds(c, t, n, ms);
    for (int k = 0; k < n; k++) {
        struct tk_stats st;
        tk_stats_of(ms[k], c->opt.reps, &st);
        median[k] = st.median;
        free(ms[k]);
        if (median[k] < median[best])
            best = k;
    }
    free(p), free(t), free(ms);
    return best;
}
