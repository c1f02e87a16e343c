/* hostile.c — a misbehaving bot for the seat tests; argv[1] picks the
 * misbehaviour: alloc (allocate without end), bigfile (write a file without
 * end), crash (SIGSEGV), hugeline (one enormous line). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "alloc") == 0) {
        size_t total = 0;
        for (;;) {
            char *p = malloc(16u << 20);
            if (!p) {
                printf("oom after %zu MiB\n", total >> 20);
                fflush(stdout);
                return 0;
            }
            memset(p, 1, 16u << 20);
            total += 16u << 20;
        }
    }
    if (strcmp(mode, "bigfile") == 0) {
        FILE *f = fopen("big.bin", "wb");
        static char block[1 << 16];
        for (;;)
            if (!f || fwrite(block, 1, sizeof block, f) != sizeof block || fflush(f) != 0) {
                printf("write failed\n");
                return 0;
            }
    }
    if (strcmp(mode, "crash") == 0) {
        raise(SIGSEGV);
        return 0;
    }
    if (strcmp(mode, "hugeline") == 0) {
        for (int i = 0; i < 100000; i++)
            fputs("0123456789", stdout);
        puts("");
        puts("after");
        fflush(stdout);
        for (;;)
            pause();
    }
    return 2;
}
