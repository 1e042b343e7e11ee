/* The lever benchmark's hooks on the one-GPU harness: see bench.h. Each is a step of the
   harness's own path (harness_state.h) or a field of its state. C11. */
#include "bench.h"
#include "harness_state.h"

const struct tk_options *tk_run_options(const struct tk_run *run)
{
    return &run->h->core.opt;
}

int tk_run_cc(const struct tk_run *run)
{
    return run->h->core.table.cc_major * 10 + run->h->core.table.cc_minor;
}

void tk_time_kernel(struct tk_run *run, const char *name, tk_launch_fn launch, int copies,
                    const float *d_in, float *d_out)
{
    tk_time_row(run, name, launch, copies, d_in, d_out);
}

int tk_report_kernel(struct tk_run *run)
{
    return tk_check_row(run);
}

int tk_output_exact(const struct tk_run *run, int copies, struct tk_mismatch *m)
{
    return tk_core_exact(run->in, run->out, run->rows, run->cols, copies, m);
}

void tk_mark_wrong(struct tk_run *run)
{
    run->h->core.status = TK_EXIT_WRONG;
}
