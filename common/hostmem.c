/* How much host memory a run may use: see hostmem.h. */
#include "hostmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number in file path, or 0 where it cannot be read or says "max" (no limit). */
static double limit_in(const char *path)
{
    FILE *f = fopen(path, "r");
    char word[64] = "";
    if (!f)
        return 0;
    int got = fscanf(f, "%63s", word);
    fclose(f);
    if (got != 1 || strcmp(word, "max") == 0)
        return 0;
    char *end;
    double v = strtod(word, &end);
    return *end == '\0' && v > 0 ? v : 0;
}

/* The least limit in file name of dir/group and of every group above it, up to dir itself
   (a container's own view has its group at dir); 0 where none is set. */
static double least_up(const char *dir, const char *group, const char *name)
{
    char path[4096], g[2048];
    double least = 0;
    snprintf(g, sizeof g, "%s", group);
    for (;;) {
        size_t n = strlen(g);
        while (n > 0 && g[n - 1] == '/')
            g[--n] = '\0';
        snprintf(path, sizeof path, "%s%s/%s", dir, g, name);
        double v = limit_in(path);
        if (v > 0 && (least == 0 || v < least))
            least = v;
        if (n == 0)
            return least;
        char *slash = strrchr(g, '/');
        if (!slash)
            return least;
        *slash = '\0';
    }
}

double tk_host_memory(double phys_bytes, const char *root, const char *cgroup_file, int *limited)
{
    double least = phys_bytes;
    char line[2560], dir[2048];
    FILE *f = fopen(cgroup_file, "r");
    *limited = 0;
    while (f && fgets(line, sizeof line, f)) {   /* "ID:CONTROLLERS:PATH" a line */
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        const char *controllers = c1 + 1, *group = c2 + 1;
        double v = 0;
        if (*controllers == '\0') {   /* cgroup v2: one hierarchy */
            v = least_up(root, group, "memory.max");
        } else if (strstr(controllers, "memory")) {   /* cgroup v1: the memory hierarchy */
            snprintf(dir, sizeof dir, "%s/memory", root);
            v = least_up(dir, group, "memory.limit_in_bytes");
        }
        if (v > 0 && (least <= 0 || v < least)) {
            least = v;
            *limited = 1;
        }
    }
    if (f)
        fclose(f);
    return least;
}
