/* arb_error.c — text for every arb_err code, from the one list (arb_error.h). */
#include "arb_error.h"

const char *arb_strerror(int err)
{
    switch (err) {
#define ARB_ERR_TEXT(name, code, text) case code: return text;
        ARB_ERRORS(ARB_ERR_TEXT)
#undef ARB_ERR_TEXT
    }
    return "unknown arbiter error";
}

const char *arb_errname(int err)
{
    switch (err) {
#define ARB_ERR_NAME(name, code, text) case code: return #name;
        ARB_ERRORS(ARB_ERR_NAME)
#undef ARB_ERR_NAME
    }
    return "EUNKNOWN";
}
