/* The lever benchmark's hooks on the one-GPU harness: see bench.h. Each reads or sets a
   field of the harness's state (harness_state.h). C11. */
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

int tk_output_exact(const struct tk_run *run, int copies, struct tk_mismatch *m)
{
    return tk_core_exact(run->in, run->out, run->rows, run->cols, copies, m);
}

void tk_mark_wrong(struct tk_run *run)
{
    run->h->core.status = TK_EXIT_WRONG;
}
