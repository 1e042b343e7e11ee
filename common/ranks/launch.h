/* Ranks started by a launcher (launcher mode, steps 8 to 10): this process's rank from the
   environment a launcher sets, NCCL's unique id handed through a file, and this rank's rows
   of the input. Plain C with POSIX, no CUDA or NCCL: tests/unit.c calls every function.

   Launcher mode is on when --id-file PATH (or TK_ID_FILE) is given; launched.c then reads
   who this process is with tk_launch_read, rank 0 writes NCCL's id into PATH and the others
   read it. The environment is read in this order, the first launcher found being the one:
       TK_RANK, TK_RANKS, TK_LOCAL_RANK                   the kit's own, set by hand or a test
       OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK           Open MPI's mpirun
       PMI_RANK, PMI_SIZE, MPI_LOCALRANKID                MPICH's or Intel MPI's mpiexec (PMI)
       SLURM_PROCID, SLURM_STEP_NUM_TASKS (or SLURM_NTASKS), SLURM_LOCALID   Slurm's srun
   The MPI launchers come before Slurm: an mpirun inside a Slurm job may start its processes
   through srun, and their SLURM_PROCID is then not their rank. Slurm's variables count only
   with SLURM_STEP_ID, which srun sets: a batch script or an salloc shell has SLURM_PROCID=0
   and the job's SLURM_NTASKS too, but it is no task of a parallel step. */
#ifndef TK_LAUNCH_H
#define TK_LAUNCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TK_ID_TIMEOUT_DEFAULT 300   /* seconds a rank waits for the id file (TK_ID_TIMEOUT) */

/* Who this process is, as a launcher said. */
struct tk_launch {
    int rank, ranks;        /* this process's rank, 0 .. ranks - 1, and how many there are */
    int local;              /* its rank among those on its node; -1 where the launcher said none */
    const char *launcher;   /* who set the variables: "Slurm's srun", "hand or a script", ... */
    char vars[192];         /* the variables read, with their values: "SLURM_PROCID=1, ..." */
    char token[128];        /* this run's name, the same in every rank ("" where the launcher
                               gives none): the id file carries it, so that a file left by
                               another run is passed over */
    const char *token_from; /* the variables the token was made of ("" where none) */
    int timeout_s;          /* how long a rank waits for the id file: TK_ID_TIMEOUT, or 300 */
};

/* How an environment is read: getenv, or a test's table. */
typedef const char *(*tk_getenv_fn)(const char *name);

/* Reads who this process is from the environment (get), in the order above. Returns 1 with *l
   filled; 0 where no launcher's variables are set (err then holds a hint, or ""); -1 with a
   message in err where they are set but wrong: not a whole number, a rank not below the count,
   no count, a count above max_ranks, a bad TK_ID_TIMEOUT. */
int tk_launch_read(struct tk_launch *l, tk_getenv_fn get, int max_ranks, char *err, size_t len);

/* Before any long work, in every rank: the id file's folder must exist here (a folder missing
   on one node is a folder that is not shared). Rank 0 (writer) must be able to write there,
   and removes a file an earlier run left at path; a file at path that is not an id file is
   refused, not removed. 0, or -1 with a message in err. */
int tk_id_prepare(const char *path, int writer, char *err, size_t len);

/* Rank 0: writes the id (len bytes), the rank count and the token into path at once: into a
   temporary file beside it, then renamed onto path, so that a reader sees all of it or none.
   0, or -1 with a message in err. */
int tk_id_write(const char *path, const void *id, size_t len, int ranks, const char *token,
                char *err, size_t errlen);

/* The other ranks: waits up to timeout_s seconds for path to hold an id written for ranks
   ranks and this token (a file of another run is passed over), and reads it into id (len
   bytes). 0, or -1 with a message in err saying what was found and what to check. */
int tk_id_read(const char *path, void *id, size_t len, int ranks, const char *token,
               int timeout_s, char *err, size_t errlen);

/* Removes path (rank 0, once every rank holds the id); a path already gone is no error. */
void tk_id_remove(const char *path);

/* The input's n floats as one address range, of which only elements first to first + count
   - 1 are memory, filled with their values (tk_value): the rest is reserved, never backed,
   and faults if read. A launched rank other than 0 holds its own rows so, and still finds
   them at the same place as in the whole matrix. NULL with a message in err where the
   memory cannot be had. */
float *tk_rows_reserve(size_t n, size_t first, size_t count, char *err, size_t len);
void tk_rows_release(float *m, size_t n);

#ifdef __cplusplus
}
#endif
#endif
