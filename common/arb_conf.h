/* arb_conf.h — table-driven configuration for the daemons: a flat YAML
 * mapping of known keys (and the same keys as --flags), each typed and
 * range-checked, every error naming FILE:LINE:COL. */
#ifndef ARB_CONF_H
#define ARB_CONF_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "arb_limits.h"

typedef enum arb_conf_type {
    ARB_CONF_STR,      /* char[size] at offset; longer values refused */
    ARB_CONF_INT,      /* int at offset, within [lo, hi] */
    ARB_CONF_BOOL,     /* bool at offset: true/false/yes/no/on/off */
    ARB_CONF_ENUM,     /* int at offset: the index of the value in `choices` (NULL-terminated) */
    ARB_CONF_STRLIST,  /* arb_conf_list at offset: a YAML sequence of strings (or one string) */
} arb_conf_type;

typedef struct arb_conf_list { int n; char item[ARB_CONF_LIST_MAX][512]; } arb_conf_list;

/* One row of a daemon's key table; the table ends with a row whose name is
 * NULL. The name "config" is reserved for --config. The table is code, so a
 * size that does not match the type is an assert, not an error. */
typedef struct arb_conf_key {
    const char *name;            /* "heartbeat_ms" (the flag is --heartbeat-ms) */
    arb_conf_type type;
    size_t offset, size;         /* offsetof/sizeof the field in the caller's struct */
    long long lo, hi;            /* ARB_CONF_INT */
    const char *const *choices;  /* ARB_CONF_ENUM */
    const char *help;            /* one line, for --help */
} arb_conf_key;

/* Read a YAML file whose top level is a mapping of keys from `keys` (terminated by
 * an entry with name NULL) into `out`. Unknown keys (with a "did you mean"), wrong types,
 * out-of-range numbers, a value too long, a duplicate key, a second YAML document,
 * a file over 1 MiB, control characters in strings, and YAML syntax errors are
 * refused: a negative arb_err and "FILE:LINE:COL: message" in err (libyaml's own words for
 * syntax errors; "FILE: reason" when unreadable). Fields not in the file keep
 * what `out` held (the caller sets defaults first). An empty file or a file of
 * comments only is fine.
 *
 * Details: a STR key written as nothing (`db:`, `db: ~`, `db: null`) is the
 * empty string; a STRLIST key written so is the empty list, one string is a
 * list of one, and a list in the file replaces the list `out` held. Aliases
 * (*name) are refused, since a flat file has no use for them; anchors and
 * tags are ignored. Integers are decimal ("-5", "1000"; not "1e3",
 * "0x10", or "050", which YAML 1.1 reads as octal).
 * Codes: ARB_EIO unreadable, ARB_ETOOBIG the file or a value too large,
 * ARB_EPARSE a YAML syntax error, ARB_ENOTFOUND an unknown key, ARB_ERANGE a
 * number out of range, ARB_EINVAL anything else, ARB_ENOMEM. On error `out`
 * is left as it was. */
int arb_conf_load(const char *path, const arb_conf_key *keys, void *out, char *err, size_t errlen);

/* Set one key from text (a --flag's value): same checks; errors as
 * "--heartbeat-ms: expected an integer in 100..60000, found \"x\"". For STRLIST
 * the value is appended. `name` may be spelt with dashes or underscores. */
int arb_conf_set(const arb_conf_key *keys, void *out, const char *name, const char *value, char *err, size_t errlen);

/* Parse argv flags "--name value" / "--name=value" (dashes for underscores) into
 * out via arb_conf_set; "--config FILE" is loaded first wherever it appears
 * (so flags override the file). Arguments not recognised are left: their indexes
 * are written to rest[] (up to restcap), their count to *nrest. 0, or an error in err.
 *
 * Every argument is read, argv[0] too: a caller with main's argv passes
 * argc - 1, argv + 1, and rest[] indexes what it passed. A BOOL flag alone
 * ("--check") is true; a word after it is its value only if it is a
 * boolean ("--check no"). After "--" nothing is parsed: the arguments that
 * follow go to rest[] ("--" itself does not). More unrecognised arguments
 * than restcap is an error (ARB_ENOSPC), as is --config given twice. On
 * error `out` is left as it was. */
int arb_conf_args(const arb_conf_key *keys, void *out, int argc, char **argv, int *rest, int restcap, int *nrest,
                  char *err, size_t errlen);

/* Write the keys and their help, one per line, as --help text ("  --heartbeat-ms N   help (default ...)"),
 * with current values from `out` as defaults. --config FILE comes first. */
void arb_conf_usage(FILE *f, const arb_conf_key *keys, const void *out);

#endif
