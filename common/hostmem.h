/* How much host memory a run may use: the machine's, or less where the process's control
   group sets a memory limit (a Slurm job, a container, a shared node's per-user limit), so
   that a shape too large for that share is refused with a message rather than killed by the
   kernel (exit 137). Plain C, no CUDA: the unit tests build it. */
#ifndef TK_HOSTMEM_H
#define TK_HOSTMEM_H

#ifdef __cplusplus
extern "C" {
#endif

/* The least of phys_bytes (the machine's memory; 0 for unknown) and every memory limit set on
   the process's control group or a group above it: cgroup v2's memory.max, v1's
   memory.limit_in_bytes, under root (normally "/sys/fs/cgroup") along the paths that
   cgroup_file (normally "/proc/self/cgroup") names. *limited is 1 where such a limit is the
   least, else 0. Files it cannot read are no limit. */
double tk_host_memory(double phys_bytes, const char *root, const char *cgroup_file, int *limited);

/* tk_host_memory for this process: /sys/fs/cgroup and /proc/self/cgroup, or, for the tests
   only, TK_TEST_CGROUP=DIR (DIR/cgroup read as /proc/self/cgroup, DIR as /sys/fs/cgroup), so
   that a control group's limit can be planted. */
double tk_host_memory_here(double phys_bytes, int *limited);

#ifdef __cplusplus
}
#endif
#endif
