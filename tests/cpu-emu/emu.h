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
#include <sys/mman.h>
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

// The output, in pages of its own (tk_emu_out), read-only while a block's first pass runs. Its
// mapping is whole huge pages (2 MiB), asked for as such: where Linux grants them (transparent
// huge pages "madvise" or "always"), mprotect changes a few entries a call, not one a 4 KiB
// page, twice a block (panels-cpu at 200 shapes: 55 s, 48 of them in the kernel, with 4 KiB
// pages; 6 s with huge pages); where not, the same checks run, slower. Past the output, up to
// the mapping's end, every float must keep its fill (tk_emu_past).
enum : size_t { EMU_HUGE = 2u << 20 };
static float *emu_out, emu_out_fill;
static size_t emu_out_bytes, emu_out_n;
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
    if (emu_out)
        munmap(emu_out, emu_out_bytes);
    emu_out_bytes = ((n ? n : 1) * sizeof(float) + EMU_HUGE - 1) / EMU_HUGE * EMU_HUGE;
    // a huge page more than that, so that the mapping can start on one; the rest given back
    char *map = (char *)mmap(nullptr, emu_out_bytes + EMU_HUGE, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    const size_t head = (EMU_HUGE - (size_t)map % EMU_HUGE) % EMU_HUGE;
    if (head)
        munmap(map, head);
    munmap(map + head + emu_out_bytes, EMU_HUGE - head);
    emu_out = (float *)(map + head);
#ifdef MADV_HUGEPAGE
    madvise(emu_out, emu_out_bytes, MADV_HUGEPAGE);   // a hint: without huge pages, only slower
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

// How many floats past the output, up to its mapping's end, were written since the last call
// (no longer the fill); each one's fill put back.
[[maybe_unused]] static long tk_emu_past()
{
    long past = 0;
    for (size_t i = emu_out_n; i < emu_out_bytes / sizeof(float); i++)
        if (emu_out[i] != emu_out_fill) {
            past++;
            emu_out[i] = emu_out_fill;
        }
    return past;
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
