/* fuzz_play_parser.c — libFuzzer target for the play notation parser and the
 * classifier/validator behind it: any bytes must be rejected cleanly or
 * parsed into a set of cards that formats back into an equivalent play. */
#include "ddz.h"
#include "arb_error.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 512)
        return 0;
    char text[513];
    memcpy(text, data, size);
    text[size] = 0;
    static const char *const presets[] = {"standard", "four-player", "douzero"};
    for (int p = 0; p < 3; p++) {
        ddz_rules r;
        ddz_rules_preset(&r, presets[p]);
        ddz_cards cards, primary;
        if (ddz_play_parse(&r, text, &cards, &primary) != 0)
            continue;
        char out[512];
        ddz_cards_format(cards, out, sizeof out);
        ddz_cards again;
        if (cards && (ddz_cards_parse(&r, out, &again) != 0 || again != cards))
            abort();
        ddz_move rd[64], chosen;
        int n = ddz_classify(&r, cards, rd, 64);
        if (n < 0)
            abort();
        int rc = ddz_validate(&r, cards, NULL, cards, primary, &chosen, out, sizeof out);
        if (rc == 0 && cards && chosen.cards != cards)
            abort();
        if (n == 0 && rc == 0 && cards)
            abort();   /* validated without any reading */
    }
    return 0;
}
