/* arb_num.h — numbers from text, bounded: the one replacement for atoi,
 * atol and atof (common/arb_banned.h bans them), which take " 12", "12abc"
 * and "" without a word and overflow silently. */
#ifndef ARB_NUM_H
#define ARB_NUM_H

/* A whole decimal number in [min, max], the whole of s: optional '-',
 * digits, nothing else (no spaces, no '+', no "0x"). Returns 0 with *out
 * set, ARB_EINVAL when s is not such a number (NULL, empty, trailing
 * bytes), ARB_ERANGE when it is outside [min, max]; *out is left alone on
 * an error. */
int arb_parse_ll(const char *s, long long min, long long max, long long *out);

/* The same for an int in [min, max]. */
int arb_parse_int(const char *s, int min, int max, int *out);

/* A finite decimal number (strtod's notation, the whole of s, no leading
 * space). Returns 0, ARB_EINVAL or ARB_ERANGE (out of double's range,
 * inf, nan). */
int arb_parse_double(const char *s, double *out);

/* s as a whole number (arb_parse_ll's notation), or dflt when s is NULL or
 * no whole number: an optional argument with its default. */
long long arb_num_or(const char *s, long long dflt);

/* A number as PostgreSQL prints an integer or float column (store_cell,
 * PQgetvalue): SQL NULL (an empty string or NULL) reads as 0, as atoi read
 * it. Text that is no number never comes from such a column; it reads as 0
 * too rather than as its leading digits. */
long long arb_cell_int(const char *s);
double arb_cell_float(const char *s);

#endif
