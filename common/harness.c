/* The harness's front end on one GPU: what harness.h promises a step. A run: device report,
   CPU+OMP row, copy ceiling, kernel timing, exact check, each through the core (core.h), once
   a shape. C11 calling the CUDA runtime's C API; the kernels live in the step's .cu. */
#include "core.h"
#include "harness.h"
#include "harness_state.h"

#include <stdlib.h>
#include <string.h>

/* --shapes: every shape in turn in this one process, so that one CUDA context serves them all
   (a context costs about 0.3 s, and the grader runs some twenty shapes a program). The step's
   main runs its body once a shape, in the loop that tk_next_shape ends; tk_next_shape begins
   each shape after the first as tk_begin began the first, with the same arguments. Each
   input's values follow the last one's (tk_fill's first), so that nothing a shape left in
   device memory can pass for the next shape's input. */
static struct {
    const char *step, *row;
    int argc;
    char **argv;
    int next;                 /* the shape this run is */
    size_t first;             /* the index of its input's first value */
    int wrong;                /* a shape before this one was not exact (--keep-going) */
} shapes;

/* What tk_fastest_way found at this shape, said after the row (finish_shape, which ends the
   line); empty if none. */
static char way_note[1024];
static int way_wrong;   /* a way's output there was not exact */
static struct tk_core *way_core;   /* the shape's (begin_shape): trials prepared as a row's */

/* One run of one way: set it, then launch. */
struct way_run {
    tk_launch_long_fn launch;
    void (*way)(int k);
    int k;
    const float *d_in;
    float *d_out;
    long rows, cols;
};

static void way_set(void *arg)   /* after the L2 is emptied, before the start event */
{
    const struct way_run *w = arg;
    w->way(w->k);
}

static void way_once(void *arg, cudaStream_t s, int last)
{
    const struct way_run *w = arg;
    (void)s, (void)last;   /* the launch runs on the default stream, the one-GPU core's */
    w->launch(w->d_in, w->d_out, w->rows, w->cols);
}

int tk_fastest_way(tk_launch_long_fn launch, void (*way)(int k), const char *const *names,
                   int n, const float *d_in, float *d_out, long rows, long cols)
{
    enum { RUNS = 5, MAX_WAYS = 12 };
    static int timing;   /* set while the launch runs below: it must not ask again */
    char err[160];
    if (n < 1 || n > MAX_WAYS) {
        fprintf(stderr, "transpose: tk_fastest_way: %d ways (1 to %d)\n", n, MAX_WAYS);
        exit(TK_EXIT_USAGE);
    }
    if (timing) {
        fprintf(stderr, "transpose: at %ld x %ld the launch asked tk_fastest_way again while it "
                "was being timed: it must know the shape it asked for as timed before the harness "
                "runs it (step 7: timed_rows and timed_cols)\n", rows, cols);
        exit(TK_EXIT_USAGE);
    }
    int forced = tk_way_of(getenv("TK_WAY"), n, err, sizeof err);
    if (forced == -2) {
        fprintf(stderr, "transpose: %s: it names one of this launch's %d ways, 0 to %d\n", err,
                n, n - 1);
        exit(TK_EXIT_USAGE);
    }
    if (forced >= 0) {
        snprintf(way_note, sizeof way_note, "note: at %ld x %ld the launch took %s, as TK_WAY=%d "
                 "says (not timed)", rows, cols, names[forced], forced);
        way(forced);
        return forced;
    }
    if (!way_core) {
        fprintf(stderr, "transpose: tk_fastest_way outside a shape (before tk_begin, or after "
                "its buffers were freed): no shape to time it on\n");
        exit(TK_EXIT_USAGE);
    }
    float best[MAX_WAYS];
    size_t wrong[MAX_WAYS] = { 0 };
    timing = 1;
    for (int w = 0; w < n; w++) {   /* each way once, untimed: its output poisoned, then checked */
        way(w);
        CUDA_CHECK(cudaMemset(d_out, TK_POISON_BYTE, (size_t)rows * cols * sizeof(float)));
        launch(d_in, d_out, rows, cols);
        CUDA_CHECK(cudaGetLastError());
        wrong[w] = tk_count_transposed_differences(d_in, d_out, rows, cols);
    }
    /* Then the ways in turn, each run timed alone and prepared as a row's runs are (core.h,
       tk_core_time): its output poisoned and the L2 emptied first. Timed back to back, a
       way could start on an L2 still holding part of the last run's matrix (at 4096 x 4096,
       64 MiB against the H100's L2 of 50), which the row's runs never do. */
    struct way_run runs[MAX_WAYS];
    struct tk_timed t[MAX_WAYS];
    double ms_of[MAX_WAYS][RUNS], *ms[MAX_WAYS];
    for (int w = 0; w < n; w++) {
        runs[w] = (struct way_run){ launch, way, w, d_in, d_out, rows, cols };
        t[w] = (struct tk_timed){ .work = way_once, .arg = &runs[w], .line_up = way_set,
                                  .out = d_out, .out_bytes = (size_t)rows * cols * sizeof(float) };
        ms[w] = ms_of[w];
    }
    tk_core_time_rounds(way_core, t, n, 0, RUNS, ms);
    timing = 0;
    for (int w = 0; w < n; w++) {
        struct tk_stats st;
        tk_stats_of(ms[w], RUNS, &st);
        best[w] = (float)st.median;   /* as the row reports its runs */
    }
    int k = tk_way_note(way_note, sizeof way_note, rows, cols, names, best, wrong, n, RUNS);
    way_wrong = wrong[k] != 0;
    way(k);
    return k;
}

static void release(struct tk_run *run)
{
    way_core = NULL;   /* the shape's flush scratch and events go below */
    tk_core_release(&run->h->core);
    free(run->in);
    free(run->out);
    run->in = run->out = NULL;
    fflush(stdout);
}

/* Why this machine cannot run the GPU rows, or NULL when device opt.device is usable. */
static const char *gpu_problem(struct tk_core *c, char *why, size_t len)
{
    int count;
    const char *problem = tk_gpu_problem(&count, &c->gpu_status, why, len);
    if (!problem && c->opt.device >= count) {
        fprintf(stderr, "transpose: --device %d: this machine has %d GPU%s (0..%d)\n",
                c->opt.device, count, count == 1 ? "" : "s", count - 1);
        exit(TK_EXIT_USAGE);
    }
    return problem;
}

/* The device line; then, once the two matrices and the flush's scratch are known to fit in
   the device's free memory, the flush's buffers. */
static void report_device(struct tk_run *run)
{
    struct tk_core *c = &run->h->core;
    struct cudaDeviceProp p;
    int dev = c->dev, clock_khz = 0, bus_bits = 0;
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
    /* CUDA 13 removed the memory clock and bus width from cudaDeviceProp. */
    CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));

    snprintf(c->device, sizeof c->device, "%s", p.name);
    c->table.device = c->device;
    c->table.cc_major = p.major;
    c->table.cc_minor = p.minor;
    c->table.peak_gbs = tk_peak_gbs(clock_khz, bus_bits);
    tk_core_say(c, "device %d: %s, sm_%d%d, %d SMs, L2 %.0f MiB, theoretical peak %.0f GB/s "
                "(%d MHz x %d-bit bus)\n", dev, p.name, p.major, p.minor, p.multiProcessorCount,
                p.l2CacheSize / TK_MIB, c->table.peak_gbs, clock_khz / 1000, bus_bits);

    size_t free_b, total_b;
    tk_core_l2(c);
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    if (2 * run->bytes + c->scratch_bytes > free_b) {
        fprintf(stderr, "transpose: %ld x %ld needs two device matrices of %.1f MiB and %.0f MiB "
                "of scratch; device %d has %.0f MiB free of %.0f MiB: choose a smaller size\n",
                run->rows, run->cols, run->bytes / TK_MIB, c->scratch_bytes / TK_MIB, dev,
                free_b / TK_MIB, total_b / TK_MIB);
        exit(TK_EXIT_CUDA);
    }
    tk_core_gpu_buffers(c);
}

/* The two host matrices, or a message that says how much they need and how much memory
   the machine has, and exit 4, before any long work. */
static void host_matrices(struct tk_run *run, const char *prog)
{
    tk_core_host_fits(&run->h->core, prog, run->bytes);
    run->in = malloc(run->bytes);
    run->out = malloc(run->bytes);
    if (!run->in || !run->out) {
        fprintf(stderr, "%s: cannot allocate two host matrices of %.1f GiB\n", prog,
                run->bytes / (TK_MIB * 1024));
        exit(TK_EXIT_CUDA);
    }
}

void tk_unfinished(void)
{
    tk_core_unfinished();
}

/* One shape's start: its options (the same each shape), its host matrices and input, the
   device line, the CPU+OMP row; without a usable GPU it says why and exits 3. */
static void begin_shape(struct tk_run *run)
{
    static struct tk_state state;   /* one shape at a time */
    const char *step = shapes.step, *row = shapes.row;
    int argc = shapes.argc;
    char **argv = shapes.argv;
    struct tk_core *c = &state.core;
    char why[256];
    memset(run, 0, sizeof *run);
    memset(&state, 0, sizeof state);
    run->h = &state;
    way_core = c;
    snprintf(c->who, sizeof c->who, "transpose");
    tk_core_options(c, step, row, tk_print_usage, argc, argv);
    if (shapes.next == 0)   /* the whole list, once */
        tk_core_check_sides(c, step, tk_print_usage, argv[0]);
    state.row = row;
    c->dev = c->opt.device;
    if (c->opt.shapes) {   /* this run's shape, from the list */
        tk_shape_of(c->opt.shapes, shapes.next, &c->opt.rows, &c->opt.cols);
        c->table.rows = c->opt.rows;
        c->table.cols = c->opt.cols;
    }

    run->rows = c->opt.rows;   /* a side past an int only where the step takes it (core.c) */
    run->cols = c->opt.cols;
    size_t n = (size_t)run->rows * run->cols;
    run->bytes = n * sizeof(float);
    tk_cuda_check_shape(run->rows, run->cols);
    host_matrices(run, argv[0]);
    cudaRuntimeGetVersion(&c->table.runtime_version);
    cudaDriverGetVersion(&c->table.driver_version);   /* 0 when there is no driver */

    tk_core_say(c, "transpose-kit %s: %ld x %ld floats (%.1f MiB a matrix), median of %d timed "
                "runs after %d warm-ups\n", step, run->rows, run->cols, run->bytes / TK_MIB,
                c->opt.reps, c->opt.warmup);
    const char *problem = gpu_problem(c, why, sizeof why);
    if (!problem)
        report_device(run);   /* refuses a size the device cannot hold, before the fill */
    if (!problem || !c->opt.no_cpu)   /* the input, unless nothing will read it */
        tk_fill(run->in, n, shapes.first);
    tk_core_header(c);
    if (!c->opt.no_cpu)
        tk_core_cpu_row(c, run->in, run->out, run->rows, run->cols);
    if (problem)
        tk_core_skip_gpu(c, problem);
}

void tk_begin(struct tk_run *run, const char *step, const char *row, int argc, char **argv)
{
    memset(&shapes, 0, sizeof shapes);
    shapes.step = step;
    shapes.row = row;
    shapes.argc = argc;
    shapes.argv = argv;
    begin_shape(run);
}

/* One timed run: the step's kernel, or one of the copy ceiling's two copies. */
enum work { MEMCPY, COPY_KERNEL, KERNEL, WORKS };
struct launch {
    enum work what;
    tk_launch_fn launch;           /* the step's launch: int sides, */
    tk_launch_long_fn launch_long; /* or long (the other is NULL) */
    const float *d_in;
    float *d_out;
    long rows, cols;
    size_t bytes;
};

static void launch_once(void *arg, cudaStream_t s, int last)
{
    const struct launch *l = arg;
    (void)last;
    if (l->what == KERNEL && l->launch_long)
        l->launch_long(l->d_in, l->d_out, l->rows, l->cols);
    else if (l->what == KERNEL)   /* the sides fit an int: time_row refused any other */
        l->launch(l->d_in, l->d_out, (int)l->rows, (int)l->cols);
    else if (l->what == MEMCPY)
        CUDA_CHECK(cudaMemcpyAsync(l->d_out, l->d_in, l->bytes, cudaMemcpyDeviceToDevice, s));
    else
        tk_copy_floats(l->d_in, l->d_out, l->bytes / sizeof(float), s);
}

/* One copy of the ceiling, run once before the timing: its output must be its input, bit for
   bit, compared on the device (no trip to the host and back for a matrix of gigabytes). */
static int check_copy(struct tk_run *run, const struct launch *l, const char *name)
{
    CUDA_CHECK(cudaMemsetAsync(l->d_out, TK_POISON_BYTE, run->bytes, 0));
    launch_once((void *)l, 0, 0);
    CUDA_CHECK(cudaGetLastError());
    if (tk_count_differences(l->d_in, l->d_out, run->bytes / sizeof(float))) {
        fprintf(stderr, "copy ceiling: WRONG: %s did not reproduce its input\n", name);
        run->h->core.status = TK_EXIT_WRONG;
        return 0;
    }
    return 1;
}

/* The median of n values (sorted in place). */
static double median_of(double *v, int n)
{
    struct tk_stats st;
    tk_stats_of(v, n, &st);
    return st.median;
}

static void time_row(struct tk_run *run, const char *name, tk_launch_fn launch,
                     tk_launch_long_fn launch_long, int copies, const float *d_in, float *d_out);

void tk_time_gpu(struct tk_run *run, tk_launch_fn launch, const float *d_in, float *d_out)
{
    tk_time_row(run, run->h->row, launch, 0, d_in, d_out);
}

void tk_time_gpu_long(struct tk_run *run, tk_launch_long_fn launch, const float *d_in,
                      float *d_out)
{
    time_row(run, run->h->row, NULL, launch, 0, d_in, d_out);
}

void tk_time_row(struct tk_run *run, const char *name, tk_launch_fn launch, int copies,
                 const float *d_in, float *d_out)
{
    time_row(run, name, launch, NULL, copies, d_in, d_out);
}

static void time_row(struct tk_run *run, const char *name, tk_launch_fn launch,
                     tk_launch_long_fn launch_long, int copies, const float *d_in, float *d_out)
{
    struct tk_state *h = run->h;
    struct tk_core *c = &h->core;
    if (launch && (run->rows > TK_INT_SIDE_MAX || run->cols > TK_INT_SIDE_MAX)) {
        fprintf(stderr, "transpose: %ld x %ld: this program's launch takes its sides in an int "
                "(at most %ld); a launch of long sides takes this shape\n", run->rows, run->cols,
                TK_INT_SIDE_MAX);   /* tk_begin let it by: the program's name takes long sides */
        exit(TK_EXIT_USAGE);
    }
    h->kernel.name = name;
    h->kernel_copies = copies;
    if (!d_in || !d_out)   /* the step's TODOs are not done: tk_next_shape says so */
        return;

    /* The copy ceiling: the same bytes read and written by cudaMemcpy and by a copy kernel,
       each checked like any row; then rounds of the two and the kernel, so that all three
       meet the same state of the GPU. In each round the ceiling is the faster of the two
       copies, and the kernel's % of copy that round's ceiling over its time. */
    struct launch l[WORKS];
    struct tk_timed t[WORKS];
    double *ms[WORKS];
    for (int w = 0; w < WORKS; w++) {
        l[w] = (struct launch){ (enum work)w, launch, launch_long, d_in, d_out, run->rows,
                                run->cols, run->bytes };
        t[w] = (struct tk_timed){ .work = launch_once, .arg = &l[w], .out = d_out,
                                  .out_bytes = run->bytes };
        ms[w] = tk_core_ms(c);
    }
    int exact = check_copy(run, &l[MEMCPY], "cudaMemcpy");
    exact &= check_copy(run, &l[COPY_KERNEL], "the copy kernel");
    tk_core_time_rounds(c, t, WORKS, c->opt.warmup, c->opt.reps, ms);   /* the kernel last */

    int reps = c->opt.reps, memcpy_faster = 0;
    double *ceiling = tk_core_ms(c), *pct = tk_core_ms(c);
    for (int i = 0; i < reps; i++) {
        memcpy_faster += ms[MEMCPY][i] <= ms[COPY_KERNEL][i];
        ceiling[i] = ms[MEMCPY][i] <= ms[COPY_KERNEL][i] ? ms[MEMCPY][i] : ms[COPY_KERNEL][i];
        pct[i] = 100 * ceiling[i] / ms[KERNEL][i];
    }
    struct tk_row copy = { .name = "copy ceiling", .note = "best copy", .gpu = 1,
                           .checked = exact, .pct_copy = 100 };
    tk_stats_of(ceiling, reps, &copy.ms);
    copy.copy_gbs = tk_gbs(run->rows, run->cols, copy.ms.median);
    tk_core_row(c, &copy);
    double memcpy_ms = median_of(ms[MEMCPY], reps), kernel_ms = median_of(ms[COPY_KERNEL], reps);
    tk_core_say(c, "copy ceiling: in each of %d runs the faster of cudaMemcpy D2D (median %.3f "
                "ms; the faster in %d) and a copy kernel (median %.3f ms)\n", reps, memcpy_ms,
                memcpy_faster, kernel_ms);

    /* The kernel. run->out is poisoned so that a result never copied back shows. */
    tk_poison(run->out, (size_t)run->rows * run->cols);
    tk_stats_of(ms[KERNEL], reps, &h->kernel.ms);
    h->kernel.gpu = 1;
    h->kernel.copy_gbs = copy.copy_gbs;
    h->kernel.pct_copy = median_of(pct, reps);
    h->kernel_timed = 1;
    for (int w = 0; w < WORKS; w++)
        free(ms[w]);
    free(ceiling);
    free(pct);
}

int tk_check_row(struct tk_run *run)
{
    struct tk_state *h = run->h;
    tk_core_check_row(&h->core, run->in, run->out, run->rows, run->cols, h->kernel_copies,
                      &h->kernel);
    h->kernel_timed = 0;   /* reported */
    h->kernel_reported = 1;
    return h->core.status;
}

/* The shape just run: the exact check of run->out and the kernel's row (or, where the kernel
   never ran, the TODOs' message and exit 5), the notes after it; then its host and device
   buffers are given back. Whether the run goes on to a next shape: one follows in the
   --shapes list, and this one was exact, or (--keep-going) only wrong. */
static int finish_shape(struct tk_run *run)
{
    struct tk_state *h = run->h;
    struct tk_core *c = &h->core;
    h->finished = 1;
    if (!h->kernel_timed && !h->kernel_reported) {
        tk_core_say(c, "%s: not run yet: the device buffers d_in and d_out are not allocated. "
                    "Work through the TODO(%s) comments in transpose.cu, then run make again.\n",
                    h->row ? h->row : "the GPU kernel", c->table.step);
        release(run);
        exit(c->status ? c->status : TK_EXIT_TODO);
    }
    if (h->kernel_timed)
        tk_check_row(run);
    char note[320];
    if (h->kernel_reported && tk_l2_note(note, sizeof note, run->bytes, c->l2_bytes))
        tk_core_say(c, "%s\n", note);
    if (way_wrong && !c->status) {   /* the way kept came out exact this time: a race */
        fprintf(stderr, "the launch: WRONG: at %ld x %ld its output was exact in the way it kept, "
                "but not when that way was checked before the timing (the note below)\n",
                run->rows, run->cols);
        c->status = TK_EXIT_WRONG;
    }
    if (way_note[0])
        tk_core_say(c, "%s\n", way_note);
    way_note[0] = '\0';
    way_wrong = 0;
    if (tk_todo_open()) {
        tk_core_say_unfinished(c, "the row above is still the kernel the starter began with; ");
        if (!c->status)
            c->status = TK_EXIT_TODO;
    }
    long rows, cols;
    int wrong = c->status == TK_EXIT_WRONG;
    int next = c->opt.shapes && (!c->status || (wrong && c->opt.keep_going));
    if (next)
        tk_core_say(c, "shapes: %ld x %ld %s\n", run->rows, run->cols, wrong ? "not exact" : "exact");
    shapes.wrong |= wrong;
    release(run);
    return next && tk_shape_of(c->opt.shapes, shapes.next + 1, &rows, &cols);
}

int tk_next_shape(struct tk_run *run)
{
    if (!finish_shape(run))
        return 0;
    shapes.first += (size_t)run->rows * run->cols;
    shapes.next++;
    begin_shape(run);
    return 1;
}

int tk_end(struct tk_run *run)
{
    struct tk_state *h = run->h;
    if (!h->finished && finish_shape(run)) {   /* a main without the loop, and more shapes */
        fprintf(stderr, "transpose: --shapes: only the first shape ran: this program's main "
                "has no do { ... } while (tk_next_shape(&run)) loop around its body "
                "(common/harness.h)\n");
        return TK_EXIT_USAGE;
    }
    return h->core.status ? h->core.status : shapes.wrong ? TK_EXIT_WRONG : 0;
}
