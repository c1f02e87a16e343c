/* tournament.c — names of the tournament formats and rating systems
 * (tournament.h). */
#include "tournament.h"
#include "arb_error.h"

#include <string.h>

static const char *const format_names[TN_NFORMATS] = {
    "round-robin", "gauntlet", "single-elimination", "double-elimination", "swiss", "groups-knockout", "ladder",
};

const char *tn_format_name(tn_format f)
{
    return (unsigned)f < TN_NFORMATS ? format_names[f] : "?";
}

int tn_format_parse(const char *s, tn_format *out)
{
    for (int i = 0; i < TN_NFORMATS; i++)
        if (strcmp(s, format_names[i]) == 0) {
            *out = (tn_format)i;
            return 0;
        }
    return ARB_ENOTFOUND;
}

static const char *const rating_names[TN_NRATINGS] = {"none", "openskill", "glicko2", "elo"};

const char *tn_rating_name(tn_rating r)
{
    return (unsigned)r < TN_NRATINGS ? rating_names[r] : "?";
}

int tn_rating_parse(const char *s, tn_rating *out)
{
    for (int i = 0; i < TN_NRATINGS; i++)
        if (strcmp(s, rating_names[i]) == 0) {
            *out = (tn_rating)i;
            return 0;
        }
    return ARB_ENOTFOUND;
}
