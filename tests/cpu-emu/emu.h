// CUDA's names for step 7's kernels run on the CPU (tests/panels-cpu, tests/pairs-cpu): a
// block's threads run one after another, twice. The first pass stops each thread at the
// block's barrier (each of these kernels has one: its shared memory is written before it and
// only read after), with the output read-only, so that a store before the barrier ends the
// run, saying so; the second runs each thread again from the start, loading the same values
// into the same places, and on through its stores. Races between threads other than a store
// before the barrier are not seen here (compute-sanitizer's racecheck, on a GPU).
// The first pass leaves each thread by GCC's __builtin_longjmp, not longjmp: AddressSanitizer's
// longjmp makes a system call (sigaltstack) each time, one a thread, which on some machines
// made this test take minutes; the builtin makes none, and the stack it leaves is cleared for
// AddressSanitizer here, as its longjmp would.
#ifndef TK_CPU_EMU_H
#define TK_CPU_EMU_H
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <vector>
#if defined(__SANITIZE_ADDRESS__)
#define TK_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TK_EMU_ASAN 1
#endif
#endif
#ifdef TK_EMU_ASAN
#include <sanitizer/asan_interface.h>
// Locals on the thread's stack, not on AddressSanitizer's fake stack (clang from 15 on puts
// them there by default): the frames a thread leaves at the barrier would stay allocated on
// the fake stack, which then took this test from 6 s to 90 s. ASAN_OPTIONS can still set it.
extern "C" const char *__asan_default_options() { return "detect_stack_use_after_return=0"; }
#endif

#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)   /* NT, and a least number of blocks a multiprocessor */
#define __restrict__

struct tk_uint3 { unsigned x, y, z; };
[[maybe_unused]] static tk_uint3 threadIdx, blockIdx, gridDim;

static void *at_barrier[5];   // __builtin_setjmp's buffer
static char *left_at;         // where in the stack the first pass left a thread
static int pass;              // 1: up to the barrier; 2: the whole kernel
// Not instrumented, and called through a pointer the compiler cannot see through, so that no
// call of AddressSanitizer's no-return handler (the system call) is put before the jump.
#ifdef TK_EMU_ASAN
__attribute__((no_sanitize_address))
#endif
static __attribute__((noinline)) void emu_leave()
{
    char here;
    left_at = &here;
    __builtin_longjmp(at_barrier, 1);
}
static void (*volatile emu_leave_at_barrier)() = emu_leave;
[[maybe_unused]] static void __syncthreads() { if (pass == 1) emu_leave_at_barrier(); }

// The output, in pages of its own (tk_emu_out), read-only while a block's first pass runs, and
// after them a guard page that no access may touch. mprotect, called twice a block, changes one
// page-table entry a page: where Linux grants transparent huge pages ("madvise" or "always"),
// the output lies in pages of 2 MiB, one entry each (panels-cpu at 200 shapes took 55 s, 48 of
// them in the kernel, on 4 KiB pages, and 6 s on huge pages); where it does not, in the
// system's own pages. At least one float follows the output in its pages, and up to their end
// every float must keep its fill (tk_emu_past); an access past them faults on the guard.
static float *emu_out;
static float emu_out_fill;
static size_t emu_out_bytes, emu_out_n;   // the output's pages, in bytes; its floats
static size_t emu_grain()   // 2 MiB where transparent huge pages can be had, else a page
{
#if defined(MADV_HUGEPAGE) && defined(PR_GET_THP_DISABLE)
    char mode[128] = "";
    if (FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r")) {
        if (!fgets(mode, sizeof mode, f))
            mode[0] = 0;
        fclose(f);
    }
    if (mode[0] && !strstr(mode, "[never]") && prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) == 0)
        return 2u << 20;
#endif
    return (size_t)sysconf(_SC_PAGESIZE);
}
static void emu_out_writable(bool yes)
{
    if (emu_out && mprotect(emu_out, emu_out_bytes, yes ? PROT_READ | PROT_WRITE : PROT_READ)) {
        perror("mprotect");
        exit(2);
    }
}
static void emu_on_segv(int)
{
    static const char before[] = "WRONG: a store to the output before the block's barrier\n";
    static const char other[] = "WRONG: an access outside the program's memory (SIGSEGV)\n";
    if (pass == 1)
        (void)!write(1, before, sizeof before - 1);
    else
        (void)!write(1, other, sizeof other - 1);
    _exit(1);
}
// An output of n floats, each fill; the one before it given back.
[[maybe_unused]] static float *tk_emu_out(size_t n, float fill)
{
    static bool handled;
    if (!handled) {
        struct sigaction sa = {};
        sa.sa_handler = emu_on_segv;
        sigaction(SIGSEGV, &sa, nullptr);
        handled = true;
    }
    static const size_t page = (size_t)sysconf(_SC_PAGESIZE), grain = emu_grain();
    if (emu_out)
        munmap(emu_out, emu_out_bytes + page);   // with its guard
    emu_out_bytes = ((n + 1) * sizeof(float) + grain - 1) / grain * grain;
    // a grain more, so that the output can start on one, and the guard; the rest given back
    char *map = (char *)mmap(nullptr, emu_out_bytes + grain + page, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    const size_t head = (grain - (size_t)map % grain) % grain;
    if (head)
        munmap(map, head);
    emu_out = (float *)(map + head);
    char *guard = map + head + emu_out_bytes;
    munmap(guard + page, grain - head);
    if (mprotect(guard, page, PROT_NONE)) {
        perror("mprotect");
        exit(2);
    }
#ifdef MADV_HUGEPAGE
    if (grain > page)
        madvise(emu_out, emu_out_bytes, MADV_HUGEPAGE);   // a hint: without them, only slower
#endif
    emu_out_n = n;
    emu_out_fill = fill;
    for (size_t i = 0; i < emu_out_bytes / sizeof(float); i++)
        emu_out[i] = fill;
    return emu_out;
}

// The input of a rows x cols transpose, each float its index: exact in a float up to 2^24,
// over every shape these tests run.
[[maybe_unused]] static std::vector<float> tk_emu_in(long rows, long cols)
{
    std::vector<float> in(rows * cols);
    for (size_t i = 0; i < in.size(); i++)
        in[i] = (float)i;
    return in;
}
// How many floats of out (cols x rows) are not in's transpose.
[[maybe_unused]] static long tk_emu_misplaced(const std::vector<float> &in, const float *out,
                                              long rows, long cols)
{
    long bad = 0;
    for (long r = 0; r < rows; r++)
        for (long c = 0; c < cols; c++)
            bad += out[c * rows + r] != in[r * cols + c];
    return bad;
}

// What was written past the output since the last call, up to the end of its pages (floats no
// longer the fill, each one's fill put back): "" when nothing, else "; N floats written past
// the output", for a WRONG line to end with.
[[maybe_unused]] static const char *tk_emu_past()
{
    static char said[64];
    long past = 0;
    for (size_t i = emu_out_n; i < emu_out_bytes / sizeof(float); i++)
        if (emu_out[i] != emu_out_fill) {
            past++;
            emu_out[i] = emu_out_fill;
        }
    said[0] = 0;
    if (past)
        snprintf(said, sizeof said, "; %ld float%s written past the output", past,
                 past == 1 ? "" : "s");
    return said;
}

// One thread: up to the barrier in the first pass, the whole kernel in the second.
template <typename K>
static __attribute__((noinline)) void emu_thread(K &kernel)
{
    if (pass == 1 && __builtin_setjmp(at_barrier)) {
#ifdef TK_EMU_ASAN
        // the frames the thread left, from a page below where it left up to this function's
        // frame (its address, not a local's: with detect_stack_use_after_return a local lies
        // on AddressSanitizer's fake stack, off the thread's stack)
        char *top = (char *)__builtin_frame_address(0), *from = left_at - 4096;
        __asan_unpoison_memory_region(from, (size_t)(top - from));
#endif
        return;
    }
    kernel();
}

// One block (blockIdx set) of nx x ny threads, in the two passes.
template <typename K>
static void tk_emu_block(unsigned nx, unsigned ny, K &kernel)
{
    for (pass = 1; pass <= 2; pass++) {
        emu_out_writable(pass == 2);
        for (unsigned ty = 0; ty < ny; ty++)
            for (unsigned tx = 0; tx < nx; tx++) {
                threadIdx = {tx, ty, 0};
                emu_thread(kernel);
            }
    }
}
#endif
