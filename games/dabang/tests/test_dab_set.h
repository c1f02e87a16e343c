/* test_dab_set.h — the "@set k=v,..." directive of the Da Bang rule files
 * (games/dabang/tests/data/), shared by test_dab_rules and test_dab_deal_rules:
 * level, trump and other (the other team's level) name the deal; any other
 * key is a rule option. */
#ifndef ARB_TEST_DB_SET_H
#define ARB_TEST_DB_SET_H
#include "dabang.h"

#include <stdio.h>
#include <string.h>

/* Apply list (cut in place) to *rules, *level, *suit and *other: NULL, or
 * what is wrong in err. */
static inline const char *dab_test_set(char *list, dab_rules *rules, int *level, int *suit, int *other, char *err,
                                      size_t errlen)
{
    for (char *save = NULL, *kv = strtok_r(list, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        char why[200] = "";
        if (!eq) {
            snprintf(err, errlen, "bad @set %s", kv);
            return err;
        }
        *eq = 0;
        const char *v = eq + 1;
        if (strcmp(kv, "level") == 0) {
            *level = dab_level_parse(v);
            *other = *level;
        } else if (strcmp(kv, "trump") == 0) {
            *suit = dab_suit_parse(v);
        } else if (strcmp(kv, "other") == 0) {
            *other = dab_level_parse(v);
        } else if (dab_rules_set(rules, kv, v, why, sizeof why)) {
            snprintf(err, errlen, "bad @set: %s", why);
            return err;
        }
        if (*level < 0 || *suit < 0 || *other < 0) {
            snprintf(err, errlen, "bad @set value %s", v);
            return err;
        }
    }
    return NULL;
}

#endif
