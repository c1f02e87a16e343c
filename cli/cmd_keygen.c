/* cmd_keygen.c — `arbiter keygen [NAME]`: a CURVE key pair for a scheduler
 * or a referee worker. Without NAME both keys are printed; with NAME they
 * are written to NAME.key (secret, mode 0600) and NAME.pub. A worker is
 * admitted when its .pub line is in the scheduler's list. */
#include "cli.h"
#include "zap.h"
#include "arb_error.h"

#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int write_file(const char *path, const char *text, int mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0)
        return -1;
    size_t n = strlen(text);
    ssize_t w = write(fd, text, n);
    int cause = w < 0 ? errno : w != (ssize_t)n ? ENOSPC : 0;   /* a short write: the disk filled */
    if (close(fd) != 0 && !cause)
        cause = errno;
    if (cause) {   /* no half key left behind (O_EXCL would refuse the next try) */
        unlink(path);
        errno = cause;   /* for the caller's perror: "No space left on device" */
        return -1;
    }
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: arbiter keygen [NAME]\n\n"
               "Makes a CURVE key pair: printed, or written to NAME.key (secret, 0600)\n"
               "and NAME.pub (never over an existing file).\n");
}

int cmd_keygen(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    cli_opts_begin();
    while ((c = cli_getopt("keygen", argc, argv, ":h", opts)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return CLI_EXIT_OK;
        }
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (argc - optind > 1) {
        fprintf(stderr, "arbiter: keygen: one NAME at most\n");
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = optind < argc ? argv[optind] : NULL;
    if (name && !name[0]) {   /* "" would write the hidden files .key and .pub */
        fprintf(stderr, "arbiter: keygen: NAME must not be empty\n");
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    char pub[ZAP_KEY_TEXT], sec[ZAP_KEY_TEXT];
    int rc = zap_keygen(pub, sec);
    if (rc) {
        fprintf(stderr, "arbiter: keygen: %s\n", rc == ARB_EUNSUPPORTED ? "this libzmq has no CURVE" : arb_strerror(rc));
        return rc == ARB_EUNSUPPORTED ? CLI_EXIT_UNSUPPORTED : CLI_EXIT_FAIL;
    }
    if (!name) {
        printf("public %s\nsecret %s\n", pub, sec);
        return CLI_EXIT_OK;
    }
    char path[1024], line[64];
    snprintf(path, sizeof path, "%s.key", name);
    snprintf(line, sizeof line, "%s\n", sec);
    if (write_file(path, line, 0600) != 0) {
        perror(path);   /* never overwrite a key */
        return CLI_EXIT_FAIL;
    }
    snprintf(path, sizeof path, "%s.pub", name);
    snprintf(line, sizeof line, "%s\n", pub);
    if (write_file(path, line, 0644) != 0) {
        perror(path);
        return CLI_EXIT_FAIL;
    }
    printf("%s.key (secret, 0600) and %s.pub: %s\n", name, name, pub);
    return CLI_EXIT_OK;
}
