/* arb_error.c — text for every arb_err code. */
#include "arb_error.h"

static const struct {
    int code;
    const char *name;
    const char *text;
} errors[] = {
    {ARB_OK, "OK", "success"},
    {ARB_EINVAL, "EINVAL", "invalid argument"},
    {ARB_ENOMEM, "ENOMEM", "out of memory"},
    {ARB_ENOSPC, "ENOSPC", "no space left in a bounded buffer"},
    {ARB_ERANGE, "ERANGE", "value out of range"},
    {ARB_EPARSE, "EPARSE", "cannot parse"},
    {ARB_EILLEGAL, "EILLEGAL", "illegal move"},
    {ARB_ESTATE, "ESTATE", "not allowed in the current state"},
    {ARB_EIO, "EIO", "input/output error"},
    {ARB_ETIMEOUT, "ETIMEOUT", "timed out"},
    {ARB_ENOTFOUND, "ENOTFOUND", "not found"},
    {ARB_EUNSUPPORTED, "EUNSUPPORTED", "not supported"},
    {ARB_ETOOBIG, "ETOOBIG", "input larger than its limit"},
    {ARB_ECORRUPT, "ECORRUPT", "data fails an integrity check"},
    {ARB_ESANDBOX, "ESANDBOX", "the required sandbox could not be had"},
};

const char *arb_strerror(int err)
{
    for (unsigned i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == err)
            return errors[i].text;
    return "unknown arbiter error";
}

const char *arb_errname(int err)
{
    for (unsigned i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].code == err)
            return errors[i].name;
    return "EUNKNOWN";
}
