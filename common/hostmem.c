/* How much host memory a run may use: see hostmem.h. */
#include "hostmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number in file path after key (the first word of its line; key "" for the file's first
   word), or 0 where it cannot be read or says "max" (no limit). */
static double number_in(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    char k[128], word[64];
    double v = 0;
    if (!f)
        return 0;
    if (*key == '\0') {
        if (fscanf(f, "%63s", word) == 1 && strcmp(word, "max") != 0) {
            char *end;
            v = strtod(word, &end);
            if (*end != '\0')
                v = 0;
        }
    } else {
        while (fscanf(f, "%127s %63s", k, word) == 2)
            if (strcmp(k, key) == 0) {
                v = strtod(word, NULL);
                break;
            }
    }
    fclose(f);
    return v > 0 ? v : 0;
}

/* The limit of dir/group, walking up to dir (a container's own view holds its group at dir):
   v2, the least memory.max of every level; v1, the hierarchical_memory_limit of the deepest
   memory.stat the view holds, which already counts the levels above where they apply. 0
   where none is set. */
static double walk_up(const char *dir, const char *group, int v1)
{
    char path[4096], g[2048];
    double least = 0;
    snprintf(g, sizeof g, "%s", group);
    for (;;) {
        size_t n = strlen(g);
        while (n > 0 && g[n - 1] == '/')
            g[--n] = '\0';
        if (v1) {
            snprintf(path, sizeof path, "%s%s/memory.stat", dir, g);
            FILE *f = fopen(path, "r");
            if (f) {   /* the deepest group this view holds: its limit, all levels counted */
                fclose(f);
                return number_in(path, "hierarchical_memory_limit");
            }
        } else {
            snprintf(path, sizeof path, "%s%s/memory.max", dir, g);
            double v = number_in(path, "");
            if (v > 0 && (least == 0 || v < least))
                least = v;
        }
        char *slash = strrchr(g, '/');
        if (n == 0 || !slash)
            return least;
        *slash = '\0';
    }
}

/* Whether the comma-separated list holds name. */
static int has_controller(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list;;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
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
        if (strstr(group, "/..")) /* a group outside this view's root: its limit is not here */
            continue;
        double v = 0;
        if (*controllers == '\0') {   /* cgroup v2: one hierarchy */
            v = walk_up(root, group, 0);
        } else if (has_controller(controllers, "memory")) {   /* cgroup v1 */
            snprintf(dir, sizeof dir, "%s/memory", root);
            v = walk_up(dir, group, 1);
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

double tk_host_memory_here(double phys_bytes, int *limited)
{
    const char *fake = getenv("TK_TEST_CGROUP");
    char file[4096];
    if (!fake || *fake == '\0')
        return tk_host_memory(phys_bytes, "/sys/fs/cgroup", "/proc/self/cgroup", limited);
    snprintf(file, sizeof file, "%s/cgroup", fake);
    return tk_host_memory(phys_bytes, fake, file, limited);
}
