/* keyfile.c — CURVE key files as the daemons and `arbiter run --listen`
 * read them (cli.h): one key, or a list of admitted workers' keys. Apart
 * from place.c so that arbiter-referee, which reads its key pair, does not
 * link the record. */
#include "cli_base.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A key file: its first 40 characters (Z85), checked. */
int cli_read_key(const char *path, char key[41])
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[128] = "";
    bool ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    line[strcspn(line, "\r\n ")] = 0;
    if (!ok || strlen(line) != 40)
        return -1;
    memcpy(key, line, 41);
    return 0;
}

/* Worker public keys, one a line (lines starting with '#' are comments),
 * into keys[]. */
int cli_read_keys(const char *path, char (*keys)[CLI_KEY_LINE], int cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[256];
    int n = 0, lineno = 0;
    while (n < cap && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        char *k = line + strspn(line, " \t");
        for (size_t e = strlen(k); e > 0 && (k[e - 1] == ' ' || k[e - 1] == '\t'); e--)
            k[e - 1] = 0;
        if (!*k || *k == '#')   /* '#' is a Z85 character: comments start a line */
            continue;
        if (strcspn(k, " \t") != 40 || strlen(k) >= CLI_KEY_LINE) {
            fprintf(stderr, "%s:%d: not a 40-character Z85 public key\n", path, lineno);
            fclose(f);
            return -1;
        }
        snprintf(keys[n++], CLI_KEY_LINE, "%s", k);   /* the name, if any, is checked by zap_start */
    }
    fclose(f);
    return n;
}
