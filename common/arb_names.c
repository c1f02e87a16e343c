/* arb_names.c — suggestions and name rules (arb_names.h). */
#include "arb_names.h"
#include "arb_limits.h"

#include <string.h>

size_t arb_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 999;
    size_t prev[64], cur[64];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, (lb + 1) * sizeof prev[0]);
    }
    return prev[lb];
}

const char *arb_suggest(const char *word, const char *const *names, size_t max_distance)
{
    const char *best = NULL;
    size_t bestd = max_distance;
    for (size_t i = 0; names[i]; i++) {
        size_t d = arb_edit_distance(word, names[i]);
        if (d < bestd) {
            bestd = d;
            best = names[i];
        }
    }
    return best;
}

bool arb_valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n < 1 || n > ARB_MAX_BOT_NAME)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(('a' <= s[i] && s[i] <= 'z') || ('A' <= s[i] && s[i] <= 'Z') || ('0' <= s[i] && s[i] <= '9')
              || s[i] == '_' || s[i] == '.' || s[i] == '-'))
            return false;
    return true;
}
