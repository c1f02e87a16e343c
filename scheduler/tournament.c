/* tournament.c — names of the tournament formats (tournament.h). */
#include "tournament.h"
#include "arb_error.h"

#include <string.h>

static const char *const format_names[TN_NFORMATS] = {
    "round-robin", "gauntlet", "single-elimination", "double-elimination", "swiss", "groups-knockout",
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
