/* Fork mode's processes (steps 8-10, without a launcher): the GPU probe and
   the CPU+OMP row each in a child process of its own (in launcher mode, where nothing is
   forked, in this process), then one process a rank, forked, handed NCCL's id through a pipe
   and supervised by the parent, which waits for them and exits with the worst status. See
   ranks.h; what the processes run is begin.c's. C11 with POSIX (fork, pipe, wait, kill)
   calling the CUDA runtime's and NCCL's C APIs. */
#define _DEFAULT_SOURCE   /* kill */
#include "state.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* How many GPUs there are, or why none is usable, asked in a child process: a process that
   has touched CUDA cannot fork ranks that use it. In launcher mode, where nothing is forked,
   asked here. */
const char *tk_ranks_probe(struct tk_ranks *rk, int *count, char *why, size_t len)
{
    struct tk_ranks_state *h = rk->h;
    int fd[2];
    struct probe_msg msg;
    memset(&msg, 0, sizeof msg);
    if (h->id_file) {
        tk_ranks_probe_here(rk, &msg);
    } else {
        if (pipe(fd)) { snprintf(why, len, "pipe failed"); return why; }
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            close(fd[0]);
            tk_ranks_probe_here(rk, &msg);
            _exit(write(fd[1], &msg, sizeof msg) == (ssize_t)sizeof msg ? 0 : 1);
        }
        close(fd[1]);
        ssize_t got = pid > 0 ? read(fd[0], &msg, sizeof msg) : -1;
        close(fd[0]);
        if (pid > 0) waitpid(pid, NULL, 0);
        if (got != (ssize_t)sizeof msg) { snprintf(why, len, "the GPU probe failed"); return why; }
    }
    *count = msg.count;
    h->core.table.runtime_version = msg.runtime;
    h->core.table.driver_version = msg.driver;
    snprintf(h->core.device, sizeof h->core.device, "%s", msg.device);
    if (h->core.device[0])
        h->core.table.device = h->core.device;
    if (!msg.problem) return NULL;
    h->core.gpu_status = msg.problem;
    snprintf(why, len, "%s", msg.why);
    return why;
}

/* The parent: waits for the ranks; when one fails, the others may wait for it forever in
   NCCL, so they are stopped. Exits with the worst status. */
static void wait_for_ranks(const pid_t *pid, int ranks)
{
    int worst = TK_EXIT_OK, left = ranks, stopped = 0;
    while (left > 0) {
        int st;
        pid_t done = wait(&st);
        if (done < 0) break;
        left--;
        int r = 0;
        while (r < ranks && pid[r] != done) r++;
        int code = WIFEXITED(st) ? WEXITSTATUS(st) : TK_EXIT_CUDA;
        if (code != TK_EXIT_OK && code != TK_EXIT_WRONG && code != TK_EXIT_TODO) {
            if (!stopped)
                fprintf(stderr, "rank %d failed (%s %d): stopping the other ranks\n", r,
                        WIFEXITED(st) ? "exit status" : "signal",
                        WIFEXITED(st) ? code : WTERMSIG(st));
            for (int k = 0; k < ranks && !stopped; k++)
                if (k != r) kill(pid[k], SIGTERM);
            stopped = 1;
            code = TK_EXIT_CUDA;
        } else if (code == TK_EXIT_WRONG) {
            fprintf(stderr, "rank %d: its output was wrong (above)\n", r);
        }
        /* 4 above 1 above 5 above 0. */
        int rank_of[] = { [TK_EXIT_OK] = 0, [TK_EXIT_TODO] = 1, [TK_EXIT_WRONG] = 2,
                          [TK_EXIT_CUDA] = 3 };   /* statuses up to TK_EXIT_TODO */
        if (code <= TK_EXIT_TODO && code != TK_EXIT_USAGE && code != TK_EXIT_NO_GPU &&
            rank_of[code] > rank_of[worst])
            worst = code;
    }
    exit(worst);
}

/* The CPU+OMP row, in a child process of its own (which may use OpenMP); in launcher mode,
   where nothing is forked after it, in this process. */
void tk_ranks_cpu_row(struct tk_ranks *rk)
{
    struct tk_ranks_state *h = rk->h;
    if (h->id_file) {
        if (tk_ranks_cpu_row_here(rk) < 0) exit(TK_EXIT_CUDA);
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (tk_ranks_cpu_row_here(rk) < 0) _exit(TK_EXIT_CUDA);
        fflush(NULL);
        _exit(h->core.status);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        h->core.status = pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == TK_EXIT_WRONG
                        ? TK_EXIT_WRONG : TK_EXIT_CUDA;
}

/* One process a rank. Rank 0 makes NCCL's unique id and hands it to the others through a
   pipe: a read of that size is whole. Returns in each rank, set up; the parent waits. */
void tk_ranks_fork_ranks(struct tk_ranks *rk)
{
    int fd[2];
    pid_t pid[TK_MAX_RANKS];
    if (pipe(fd)) { perror("pipe"); exit(TK_EXIT_CUDA); }
    fflush(NULL);
    for (int p = 0; p < rk->ranks; p++) {
        pid[p] = fork();
        if (pid[p] < 0) { perror("fork"); exit(TK_EXIT_CUDA); }
        if (pid[p] == 0) {
            ncclUniqueId id;
            rk->rank = p;
            if (p == 0) {
                close(fd[0]);
                NCCL_CHECK(ncclGetUniqueId(&id));
                for (int k = 1; k < rk->ranks; k++)
                    if (write(fd[1], &id, sizeof id) != (ssize_t)sizeof id) {
                        perror("rank 0: write"); exit(TK_EXIT_CUDA);
                    }
                close(fd[1]);
            } else {
                close(fd[1]);
                if (read(fd[0], &id, sizeof id) != (ssize_t)sizeof id) {
                    fprintf(stderr, "rank %d: no NCCL id from rank 0\n", p); exit(TK_EXIT_CUDA);
                }
                close(fd[0]);
            }
            rk->h->core.dev = p;
            CUDA_CHECK(cudaSetDevice(p));
            NCCL_CHECK(ncclCommInitRank(&rk->comm, rk->ranks, id, p));
            tk_ranks_set_up_rank(rk);
            return;
        }
    }
    close(fd[0]);
    close(fd[1]);
    wait_for_ranks(pid, rk->ranks);
}
