/* fuzz_main.c — runs a fuzz target over the files named on the command line
 * (the seed corpus) when libFuzzer is not available, so the target is built
 * and exercised by every compiler. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int n = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f)
            return 2;
        static uint8_t buf[1 << 20];
        size_t len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        LLVMFuzzerTestOneInput(buf, len);
        n++;
    }
    printf("fuzz-corpus: %d passed, 0 failed\n", n);
    return 0;
}
