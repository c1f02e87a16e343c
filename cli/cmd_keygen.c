/* cmd_keygen.c — `arbiter keygen [NAME]`: a CURVE key pair for a scheduler
 * or a referee worker. Without NAME both keys are printed; with NAME they
 * are written to NAME.key (secret, mode 0600) and NAME.pub. A worker is
 * admitted when its .pub line is in the scheduler's list. */
#include "cli.h"
#include "zap.h"
#include "arb_error.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int write_file(const char *path, const char *text, int mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0)
        return -1;
    size_t n = strlen(text);
    int rc = write(fd, text, n) == (ssize_t)n ? 0 : -1;
    return close(fd) == 0 ? rc : -1;
}

int cmd_keygen(int argc, char **argv)
{
    if (argc >= 2 && argv[1][0] == '-') {
        bool help = strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0;
        fprintf(help ? stdout : stderr, "%susage: arbiter keygen [NAME]\n\n"
                "Makes a CURVE key pair: printed, or written to NAME.key (secret, 0600)\n"
                "and NAME.pub (never over an existing file).\n",
                help ? "" : "arbiter: keygen: a NAME does not start with '-'\n");
        return help ? 0 : 2;
    }
    char pub[ZAP_KEY_TEXT], sec[ZAP_KEY_TEXT];
    int rc = zap_keygen(pub, sec);
    if (rc) {
        fprintf(stderr, "arbiter: keygen: %s\n", rc == ARB_EUNSUPPORTED ? "this libzmq has no CURVE" : arb_strerror(rc));
        return 1;
    }
    if (argc < 2) {
        printf("public %s\nsecret %s\n", pub, sec);
        return 0;
    }
    char path[1024], line[64];
    snprintf(path, sizeof path, "%s.key", argv[1]);
    snprintf(line, sizeof line, "%s\n", sec);
    if (write_file(path, line, 0600) != 0) {
        perror(path);   /* never overwrite a key */
        return 1;
    }
    snprintf(path, sizeof path, "%s.pub", argv[1]);
    snprintf(line, sizeof line, "%s\n", pub);
    if (write_file(path, line, 0644) != 0) {
        perror(path);
        return 1;
    }
    printf("%s.key (secret, 0600) and %s.pub: %s\n", argv[1], argv[1], pub);
    return 0;
}
