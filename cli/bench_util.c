/* bench_util.c — medians and figures for the benchmarks (bench_util.h). */
#include "bench_util.h"
#include "arb_file.h"
#include "arb_error.h"
#include "config.h"
#include "arb_time.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

bool bench_bot_usable(const char *bench, const char *bot)
{
    struct stat st;
    if (!bot || bot[0] != '/') {
        fprintf(stderr, "arbiter: bench %s: --bot needs an absolute path to a bot (random_bot)\n", bench);
        return false;
    }
    if (stat(bot, &st) != 0) {
        fprintf(stderr, "arbiter: bench %s: --bot %s: %s\n", bench, bot, strerror(errno));
        return false;
    }
    if (!S_ISREG(st.st_mode) || access(bot, X_OK) != 0) {
        fprintf(stderr, "arbiter: bench %s: --bot %s: not an executable file\n", bench, bot);
        return false;
    }
    return true;
}

double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

void bench_print(const char *title, const bench_figure *figs, size_t n, cli_format format)
{
    if (format == CLI_FORMAT_JSON) {
        printf("{\"title\":");
        cli_json_string(stdout, title ? title : "");
        printf(",\"figures\":[");
        for (size_t i = 0; i < n; i++) {
            printf("%s{\"name\":", i ? "," : "");
            cli_json_string(stdout, figs[i].name);
            /* JSON has no inf or nan: a figure that is not a number is null */
            if (figs[i].value == figs[i].value && figs[i].value - figs[i].value == 0)
                printf(",\"value\":%.*f,\"unit\":", figs[i].decimals, figs[i].value);
            else
                printf(",\"value\":null,\"unit\":");
            cli_json_string(stdout, figs[i].unit);
            printf("}");
        }
        printf("]}\n");
        return;
    }
    if (title)
        printf("%s\n", title);
    for (size_t i = 0; i < n; i++)
        printf("%s %.*f %s\n", figs[i].name, figs[i].decimals, figs[i].value, figs[i].unit);
}

int bench_db_open(bench_db *r, const char *bench, const char *db)
{
    char err[2048], state[128];
    memset(r, 0, sizeof *r);
    snprintf(r->dir, sizeof r->dir, "/tmp/arbiter-bench-%s.XXXXXX", bench);
    if (!mkdtemp(r->dir)) {
        fprintf(stderr, "arbiter: bench %s: cannot make a temporary directory\n", bench);
        r->dir[0] = '\0';
        return CLI_EXIT_FAIL;
    }
    snprintf(state, sizeof state, "%s/state", r->dir);
    if (db)
        snprintf(r->conninfo, sizeof r->conninfo, "%s", db);
    else if (pgctl_start(&r->pg, state, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: bench %s: %s\n", bench, err);
        return CLI_EXIT_FAIL;
    } else {
        r->own = true;
        snprintf(r->conninfo, sizeof r->conninfo, "%s", r->pg.conninfo);
    }
    r->st = store_open(r->conninfo, err, sizeof err);
    if (!r->st || store_migrate(r->st, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: bench %s: %s\n", bench, err);
        return CLI_EXIT_FAIL;
    }
    return 0;
}

void bench_db_close(bench_db *r, const char *bench)
{
    store_close(r->st);
    r->st = NULL;
    if (r->own)
        pgctl_stop(&r->pg);
    r->own = false;
    if (!r->dir[0])
        return;
    if (arb_remove_tree(r->dir) != 0)
        fprintf(stderr, "arbiter: bench %s: %s left behind\n", bench, r->dir);
}

/* Round trips per second of a line of `len` bytes through two pipes to a
 * child process that echoes it: the cost of one request and one reply with
 * nothing else done on either side. *cpu_us: the CPU the asking side spent
 * per round trip (a write and a read). */
double bench_pipe_round_trips(int count, size_t len, double *cpu_us)
{
    int down[2], up[2];
    if (pipe(down) || pipe(up))
        return 0;
    pid_t pid = fork();
    if (pid == 0) {
        close(down[1]);
        close(up[0]);
        char buf[4096];
        for (;;) {
            ssize_t n = read(down[0], buf, sizeof buf);
            if (n <= 0 || write(up[1], buf, (size_t)n) != n)
                _exit(0);
        }
    }
    close(down[0]);
    close(up[1]);
    char line[512], back[512];
    memset(line, 'x', len - 1);
    line[len - 1] = '\n';
    uint64_t t0 = arb_now_ns(), c0 = arb_thread_cpu_ns();
    for (int i = 0; i < count; i++) {
        if (write(down[1], line, len) != (ssize_t)len)
            break;
        size_t got = 0;
        while (got < len) {
            ssize_t n = read(up[0], back + got, sizeof back - got);
            if (n <= 0)
                break;
            got += (size_t)n;
        }
    }
    double s = (double)(arb_now_ns() - t0) / 1e9;
    *cpu_us = (double)(arb_thread_cpu_ns() - c0) / 1e3 / count;
    close(down[1]);
    close(up[0]);
    waitpid(pid, NULL, 0);
    return count / s;
}

int bench_rr_config(const char *dir, const char *bot, int entrants, struct tn_config *cfg, char *err, size_t errlen)
{
    char path[600];
    snprintf(path, sizeof path, "%s/bench.yaml", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return ARB_EIO;
    }
    fprintf(f, "name: bench\nformat: round-robin\ndeals: 1\nseed: 3\nclock: {move_ms: 5000}\nentrants:\n");
    for (int i = 0; i < entrants; i++)
        fprintf(f, "  - name: r%d\n    command: %s\n", i, bot);
    fclose(f);
    return tn_config_load(path, cfg, err, errlen);
}
