/* arb_names.h — names people type: "did you mean" suggestions for unknown
 * keys and values (the rules' options, the tournament file), and the one
 * rule for the names of bots, entrants and teams. */
#ifndef ARB_NAMES_H
#define ARB_NAMES_H
#include <stdbool.h>
#include <stddef.h>

/* Levenshtein distance between two short words (longer than 63 bytes:
 * a large number). */
size_t arb_edit_distance(const char *a, const char *b);
/* The name of NULL-terminated `names` closest to `word`, if it is within
 * max_distance edits (fewer than), else NULL. */
const char *arb_suggest(const char *word, const char *const *names, size_t max_distance);
/* A bot, entrant or team name: 1..ARB_MAX_BOT_NAME of A-Z a-z 0-9 _ . - */
bool arb_valid_name(const char *s);

#endif
