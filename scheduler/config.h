/* config.h — load a tournament's YAML file (schemas/tournament.md) into a
 * validated tn_config. Every error names FILE:LINE:COLUMN and what was
 * expected; unknown keys are refused with a suggestion; numbers are range
 * checked; rules and options are checked by the game itself. */
#ifndef ARB_CONFIG_H
#define ARB_CONFIG_H
#include "tournament.h"

#include <stdbool.h>
#include <stddef.h>

/* Largest configuration file read. */


/* Fill *cfg (defaults, then the file). 0, or a negative arb_err with
 * "FILE:LINE:COL: message" in err (LINE and COL 1-based): ARB_EINVAL for
 * content the schema refuses (nesting deeper than ARB_YAML_MAX_DEPTH included,
 * found before the file is loaded), ARB_EPARSE for text that is not YAML
 * (in libyaml's words), ARB_ETOOBIG over ARB_TN_MAX_FILE, ARB_EIO when
 * unreadable ("FILE: reason", no position), ARB_ERANGE for a path longer than
 * cfg->path holds, ARB_ENOMEM. On success cfg owns its entrants and the
 * file's text, with its digest (free with tn_config_release); on failure
 * it owns nothing. */
int tn_config_load(const char *path, tn_config *cfg, char *err, size_t errlen);
/* The same from text that came over the API (POST /api/v1/tournaments,
 * through the web's hooks): label names it in errors ("LABEL:LINE:COL:
 * message"); nothing in it may name a file of this host (files:,
 * files_root:, a command whose program has a '/': refused with a place),
 * since it has no directory here. text need not be NUL-terminated. */
int tn_config_load_text(const char *label, const char *text, size_t len, tn_config *cfg, char *err, size_t errlen);
/* An open tournament's field at its start: the registered entrants
 * (name, command; marked registered, unseeded) appended after the file's,
 * then what depends on the number of entrants checked as the loader checks
 * it for a file without registration (a table's worth, groups, the
 * tables of a round, Swiss's rounds). 0, or an error in err (the message
 * the tournament's events show when it does not start). */
int tn_config_registered(tn_config *cfg, const tn_entrant *add, int n, char *err, size_t errlen);
/* Free the entrants and the text; harmless twice. */
void tn_config_release(tn_config *cfg);
/* Check that every entrant's program can be started from this host
 * (relative to the file's directory, then PATH): "FILE:LINE: entrant NAME:
 * ..." in err for the first that cannot. */
int tn_config_check_commands(const tn_config *cfg, char *err, size_t errlen);
/* A name of an archive that is a bot's whole program (files:): .tar,
 * .tar.gz, .tgz, .tar.xz, .txz, .tar.zst, .tzst, .zip. */
bool tn_archive_name(const char *f);

#endif
