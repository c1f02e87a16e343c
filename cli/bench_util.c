/* bench_util.c — medians and figures for the benchmarks (bench_util.h). */
#include "bench_util.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
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
