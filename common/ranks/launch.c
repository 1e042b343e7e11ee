/* Ranks started by a launcher: who this process is, NCCL's id through a file, this rank's
   rows of the input. See launch.h. Plain C11 with POSIX (files, rename, mmap), no CUDA. */
#define _DEFAULT_SOURCE   /* gethostname, fsync, nanosleep, MAP_ANONYMOUS, MAP_NORESERVE */
#include "launch.h"
#include "matrix.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ID_MAGIC "transpose-kit nccl-id 1"   /* an id file's first line */
#define ID_MAX_BYTES 512                     /* the largest id a file may carry (NCCL's: 128) */
#define POLL_MS 200                          /* how often a rank looks for the id file */

/* ---- who this process is --------------------------------------------------------------- */

/* A launcher's variables: rank, count (size, or size_else where size is not set), local
   rank; they count only where needs (if any) is set. */
struct launcher {
    const char *name, *rank, *size, *size_else, *local, *needs;
};

static const struct launcher launchers[] = {   /* the order of launch.h */
    { "hand or a script", "TK_RANK", "TK_RANKS", NULL, "TK_LOCAL_RANK", NULL },
    { "Open MPI's mpirun", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", NULL,
      "OMPI_COMM_WORLD_LOCAL_RANK", NULL },
    { "MPICH's or Intel MPI's mpiexec (PMI)", "PMI_RANK", "PMI_SIZE", NULL, "MPI_LOCALRANKID",
      NULL },
    { "Slurm's srun", "SLURM_PROCID", "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS", "SLURM_LOCALID",
      "SLURM_STEP_ID" },
};

/* text as a whole decimal number (an optional '-', then digits only), into *v. */
static int whole(const char *text, long *v)
{
    const char *d = text + (text[0] == '-');
    if (!*d || strspn(d, "0123456789") != strlen(d) || strlen(d) > 9)
        return 0;
    *v = strtol(text, NULL, 10);
    return 1;
}

/* Reads variable name as a whole number; -1 with a message where it is not one. */
static int read_whole(tk_getenv_fn get, const char *name, long *v, char *err, size_t len)
{
    const char *text = get(name);
    if (whole(text, v))
        return 0;
    snprintf(err, len, "%s='%s' is not a whole number", name, text);
    return -1;
}

/* The run's token: where the launcher names the run, every rank of it has the same. */
static void read_token(struct tk_launch *l, const struct launcher *la, tk_getenv_fn get)
{
    const char *job = get("SLURM_JOB_ID"), *step = get("SLURM_STEP_ID");
    const char *ns = get("PMIX_NAMESPACE"), *jobid = get("OMPI_MCA_ess_base_jobid");
    l->token[0] = '\0';
    l->token_from = "";
    if (!strcmp(la->rank, "SLURM_PROCID") && job && step) {
        snprintf(l->token, sizeof l->token, "slurm:%s.%s", job, step);
        l->token_from = "SLURM_JOB_ID, SLURM_STEP_ID";
    } else if (!strcmp(la->rank, "OMPI_COMM_WORLD_RANK") && (ns || jobid)) {
        snprintf(l->token, sizeof l->token, "%s:%s", ns ? "pmix" : "ompi", ns ? ns : jobid);
        l->token_from = ns ? "PMIX_NAMESPACE" : "OMPI_MCA_ess_base_jobid";
    }
    for (char *c = l->token; *c; c++)   /* one word in the file */
        if (*c <= ' ' || *c > '~')
            *c = '_';
}

/* Reads launcher la's variables into *l: 1, or -1 with a message. */
static int read_launcher(struct tk_launch *l, const struct launcher *la, tk_getenv_fn get,
                         int max_ranks, char *err, size_t len)
{
    const char *size = la->size_else && !get(la->size) ? la->size_else : la->size;
    long rank, ranks, local = -1;
    if (!get(la->rank) && !get(size)) {
        snprintf(err, len, "%s is set but %s and %s are not", la->local, la->rank, size);
        return -1;
    }
    if (!get(size) && la->size_else) {
        snprintf(err, len, "%s is set but neither %s nor %s is", la->rank, la->size, la->size_else);
        return -1;
    }
    if (!get(la->rank) || !get(size)) {
        snprintf(err, len, "%s is set but %s is not", get(size) ? size : la->rank,
                 get(size) ? la->rank : size);
        return -1;
    }
    if (read_whole(get, la->rank, &rank, err, len) < 0 || read_whole(get, size, &ranks, err, len) < 0)
        return -1;
    if (get(la->local) && read_whole(get, la->local, &local, err, len) < 0)
        return -1;
    if (ranks < 1 || ranks > max_ranks) {
        snprintf(err, len, "%s=%ld: the rank count must be 1 to %d", size, ranks, max_ranks);
        return -1;
    }
    if (rank < 0 || rank >= ranks) {
        snprintf(err, len, "%s=%ld with %s=%ld: a rank must be 0 to %ld", la->rank, rank, size,
                 ranks, ranks - 1);
        return -1;
    }
    if (get(la->local) && local < 0) {
        snprintf(err, len, "%s=%ld: a local rank is 0 or more", la->local, local);
        return -1;
    }
    l->rank = (int)rank, l->ranks = (int)ranks, l->local = (int)local;
    l->launcher = la->name;
    int n = snprintf(l->vars, sizeof l->vars, "%s=%ld, %s=%ld", la->rank, rank, size, ranks);
    if (local >= 0 && n > 0 && (size_t)n < sizeof l->vars)
        snprintf(l->vars + n, sizeof l->vars - n, ", %s=%ld", la->local, local);
    read_token(l, la, get);
    return 1;
}

int tk_launch_read(struct tk_launch *l, tk_getenv_fn get, int max_ranks, char *err, size_t len)
{
    memset(l, 0, sizeof *l);
    err[0] = '\0';
    for (size_t i = 0; i < sizeof launchers / sizeof launchers[0]; i++) {
        const struct launcher *la = &launchers[i];
        int present = get(la->rank) || get(la->size) || (la->size_else && get(la->size_else)) ||
                      get(la->local);
        if (!present || (la->needs && !get(la->needs)))
            continue;
        if (read_launcher(l, la, get, max_ranks, err, len) < 0)
            return -1;
        const char *t = get("TK_ID_TIMEOUT");
        long s = TK_ID_TIMEOUT_DEFAULT;
        if (t && (!whole(t, &s) || s < 1 || s > 86400)) {
            snprintf(err, len, "TK_ID_TIMEOUT='%s' is not a whole number of seconds from 1 to "
                     "86400", t);
            return -1;
        }
        l->timeout_s = (int)s;
        return 1;
    }
    if (get("SLURM_PROCID") && !get("SLURM_STEP_ID"))
        snprintf(err, len, "SLURM_PROCID is set but SLURM_STEP_ID is not: this is a Slurm batch "
                 "script or salloc shell, not a task that srun started");
    return 0;
}

/* ---- NCCL's id through a file ---------------------------------------------------------- */

/* The folder path lies in, into dir. */
static void folder_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* A hexadecimal digit's value, or -1. */
static int hex_digit(char c)
{
    const char *digits = "0123456789abcdef", *d = c ? strchr(digits, c) : NULL;
    return d ? (int)(d - digits) : -1;
}

/* What an id file holds. */
struct id_file { int ranks; char token[128]; unsigned char id[ID_MAX_BYTES]; size_t bytes; };

/* Reads an id file: 0; 1 where there is none; 2 where path is not an id file (why says how). */
static int read_id_file(const char *path, struct id_file *f, char *why, size_t len)
{
    char line[2 * ID_MAX_BYTES + 16];
    FILE *in = fopen(path, "r");
    if (!in) {
        if (errno == ENOENT)
            return 1;
        snprintf(why, len, "%s cannot be read: %s", path, strerror(errno));
        return 2;
    }
    int ok = fgets(line, sizeof line, in) && !strcmp(line, ID_MAGIC "\n");
    ok = ok && fgets(line, sizeof line, in) && sscanf(line, "ranks %d", &f->ranks) == 1;
    ok = ok && fgets(line, sizeof line, in) && !strncmp(line, "token ", 6);
    if (ok) {
        line[strcspn(line, "\n")] = '\0';
        snprintf(f->token, sizeof f->token, "%.*s", (int)sizeof f->token - 1, line + 6);
    }
    ok = ok && fgets(line, sizeof line, in) && !strncmp(line, "id ", 3);
    f->bytes = 0;
    for (const char *h = line + 3; ok && h[0] && h[0] != '\n'; h += 2) {
        int hi = hex_digit(h[0]), lo = hi < 0 ? -1 : hex_digit(h[1]);
        if (lo < 0 || f->bytes == ID_MAX_BYTES) {
            ok = 0;
            break;
        }
        f->id[f->bytes++] = (unsigned char)(hi << 4 | lo);
    }
    fclose(in);
    if (!ok)
        snprintf(why, len, "%s is not an id file of the kit", path);
    return ok ? 0 : 2;
}

int tk_id_prepare(const char *path, int writer, char *err, size_t len)
{
    char dir[4096], why[256];
    struct stat st;
    struct id_file f;
    if (!path || !*path) {
        snprintf(err, len, "the id file's path is empty");
        return -1;
    }
    folder_of(path, dir, sizeof dir);
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
        snprintf(err, len, "%s: no folder %s here: the id file must be in a folder every rank's "
                 "node shares", path, dir);
        return -1;
    }
    if (!writer)
        return 0;
    if (access(dir, W_OK | X_OK)) {
        snprintf(err, len, "%s: cannot write into the folder %s (%s)", path, dir, strerror(errno));
        return -1;
    }
    if (lstat(path, &st))
        return 0;   /* nothing there */
    if (!S_ISREG(st.st_mode) || read_id_file(path, &f, why, sizeof why) != 0) {
        snprintf(err, len, "%s is there and is not an id file of the kit: it was left as it "
                 "is; give --id-file a path of its own", path);
        return -1;
    }
    if (unlink(path) && errno != ENOENT) {   /* an earlier run's */
        snprintf(err, len, "cannot remove %s, left by an earlier run: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int tk_id_write(const char *path, const void *id, size_t len, int ranks, const char *token,
                char *err, size_t errlen)
{
    char tmp[4096 + 128], host[64] = "host";
    const unsigned char *b = id;
    gethostname(host, sizeof host - 1);
    host[sizeof host - 1] = '\0';
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.%s.%ld", path, host, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof tmp || len > ID_MAX_BYTES) {
        snprintf(err, errlen, "%s: the path is too long", path);
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);
    FILE *out = fd < 0 ? NULL : fdopen(fd, "w");
    if (!out) {
        snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
        if (fd >= 0) { close(fd); unlink(tmp); }
        return -1;
    }
    fprintf(out, "%s\nranks %d\ntoken %s\nid ", ID_MAGIC, ranks, token);
    for (size_t i = 0; i < len; i++)
        fprintf(out, "%02x", b[i]);
    fprintf(out, "\n");
    int bad = fflush(out) || fsync(fd);   /* on the disk before it has its name */
    bad = fclose(out) || bad;
    if (bad || rename(tmp, path)) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int tk_id_read(const char *path, void *id, size_t len, int ranks, const char *token,
               int timeout_s, char *err, size_t errlen)
{
    char why[512];
    struct id_file f;
    struct timespec pause = { 0, POLL_MS * 1000000L };
    double end = now_s() + timeout_s;
    for (;;) {
        int r = read_id_file(path, &f, why, sizeof why);
        if (r == 1)
            snprintf(why, sizeof why, "no file appeared at %s", path);
        else if (r == 0 && f.ranks != ranks)
            snprintf(why, sizeof why, "%s holds an id for %d ranks, this run has %d: a file of "
                     "another run", path, f.ranks, ranks);
        else if (r == 0 && strcmp(f.token, token))
            snprintf(why, sizeof why, "%s holds the id of another run ('%s'; this run is '%s')",
                     path, f.token, token);
        else if (r == 0 && f.bytes != len)
            snprintf(why, sizeof why, "%s holds an id of %zu bytes, not %zu", path, f.bytes, len);
        else if (r == 0) {
            memcpy(id, f.id, len);
            return 0;
        }
        if (now_s() >= end)
            break;
        nanosleep(&pause, NULL);
    }
    snprintf(err, errlen, "no NCCL id for this run in %s after %d s (TK_ID_TIMEOUT): %s. Rank 0 "
             "writes it once it is ready, after its CPU+OMP row (--no-cpu skips that): check "
             "that rank 0 runs, and that the file is on a filesystem every rank's node shares",
             path, timeout_s, why);
    return -1;
}

void tk_id_remove(const char *path)
{
    unlink(path);
}

/* ---- this rank's rows ------------------------------------------------------------------ */

float *tk_rows_reserve(size_t n, size_t first, size_t count, char *err, size_t len)
{
    size_t bytes = n * sizeof(float), page = (size_t)sysconf(_SC_PAGESIZE);
    float *m = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        snprintf(err, len, "cannot reserve %.1f GiB of address space for the input: %s",
                 bytes / (1024.0 * 1024 * 1024), strerror(errno));
        return NULL;
    }
    if (!count)
        return m;
    size_t lo = first * sizeof(float) / page * page;
    size_t hi = ((first + count) * sizeof(float) + page - 1) / page * page;
    if (mprotect((char *)m + lo, hi - lo, PROT_READ | PROT_WRITE)) {
        snprintf(err, len, "cannot allocate %.1f MiB for this rank's rows of the input: %s",
                 (hi - lo) / (1024.0 * 1024), strerror(errno));
        munmap(m, bytes);
        return NULL;
    }
    for (size_t i = first; i < first + count; i++)
        m[i] = tk_value(i);
    return m;
}

void tk_rows_release(float *m, size_t n)
{
    if (m)
        munmap(m, n * sizeof(float));
}
