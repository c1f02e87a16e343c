/* transcript_writer.c — the recording sink (transcript_writer.h): records
 * encoded by transcript_enc.c, hashed with SHA-256 as they are appended
 * to the file. The hash is OpenSSL's: every record of every decision goes
 * through it (a third of the referee's instructions with libsodium's
 * portable code), and OpenSSL's uses the CPU's SHA extensions. */
#include "transcript_writer.h"
#include "transcript_enc.h"
#include "arb_error.h"
#include "arb_kdf.h"
#include "arb_limits.h"
#include "arb_sign.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tr_writer {
    FILE *f;                       /* NULL: hash only */
    EVP_MD_CTX *sha;
    tr_enc enc;
    uint64_t size;                 /* bytes written */
    int err;                       /* first error, sticky */
    int sys_errno;                 /* the errno of the first write that failed (0: none) */
    char why[128];                 /* its text, the sink's why: "No space left on device" */
};

/* A write that failed, errno still its: the first is kept, with its
 * cause; a full disk (or quota) is ARB_EDISKFULL, any other ARB_EIO. */
static int io_failed(tr_writer *w)
{
    int e = errno;
    if (!w->err) {
        w->sys_errno = e;
        w->err = e == ENOSPC || e == EDQUOT ? ARB_EDISKFULL : ARB_EIO;
        snprintf(w->why, sizeof w->why, "%s", strerror(e));
    }
    return w->err;
}

tr_writer *tr_writer_open(const char *path, int *err)
{
    /* 0600: the transcript holds every hand; no bot (another uid) may read
     * it while the match is played. Never through a link at its name
     * (O_NOFOLLOW). Only for a file in a directory of the referee's own
     * (its state): where a user points, the caller makes the file by the
     * rule of arb_file.h and gives tr_writer_open_fd its descriptor. */
    int fd = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600) : -1;
    if (path && fd < 0) {
        int e = errno;
        *err = e == ENOSPC || e == EDQUOT ? ARB_EDISKFULL : ARB_EIO;
        errno = e;
        return NULL;
    }
    return tr_writer_open_fd(fd, err);
}

tr_writer *tr_writer_open_fd(int fd, int *err)
{
    int rc = sodium_init() < 0 ? ARB_EUNSUPPORTED : 0;
    tr_writer *w = rc ? NULL : calloc(1, sizeof *w);
    if (!w) {
        *err = rc ? rc : ARB_ENOMEM;
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    w->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (fd >= 0 && !w->f) {
        int e = errno;
        close(fd);
        free(w);
        *err = ARB_ENOMEM;
        errno = e;
        return NULL;
    }
    w->sha = EVP_MD_CTX_new();
    if (!w->sha || EVP_DigestInit_ex(w->sha, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(w->sha);
        if (w->f)
            fclose(w->f);
        free(w);
        *err = ARB_ENOMEM;
        return NULL;
    }
    tr_enc_init(&w->enc);
    *err = 0;
    return w;
}

static int w_record(void *ctx, const match_rec *rec)
{
    tr_writer *w = ctx;
    if (w->err)
        return w->err;
    tr_enc_record(&w->enc, rec);
    const uint8_t *bytes = (const uint8_t *)w->enc.sb.data;
    size_t len = w->enc.sb.size;
    if (w->size + len > ARB_MAX_TRANSCRIPT)
        return w->err = ARB_ETOOBIG;
    if (w->f && fwrite(bytes, 1, len, w->f) != len)
        return io_failed(w);
    if (EVP_DigestUpdate(w->sha, bytes, len) != 1)
        return w->err = ARB_EIO;
    w->size += len;
    return 0;
}

static const char *w_why(const void *ctx)
{
    const tr_writer *w = ctx;
    return w->why;   /* a write's cause; "" when the error code says it all */
}

match_sink tr_writer_sink(tr_writer *w)
{
    return (match_sink){.ctx = w, .record = w_record, .why = w_why};
}

int tr_writer_close(tr_writer *w, char hex[65])
{
    return tr_writer_close_signed(w, NULL, hex, NULL);
}

int tr_writer_close_signed(tr_writer *w, const arb_sign_key *key, char hex[65], uint8_t *sig)
{
    int rc = w->err;
    uint8_t digest[crypto_hash_sha256_BYTES];
    unsigned dlen = 0;
    if (EVP_DigestFinal_ex(w->sha, digest, &dlen) != 1 || dlen != sizeof digest) {
        memset(digest, 0, sizeof digest);
        if (!rc)
            rc = ARB_EIO;
    }
    EVP_MD_CTX_free(w->sha);
    arb_key_hex(digest, hex);
    tr_enc_digest(&w->enc, digest);
    if (w->f && fwrite(w->enc.sb.data, 1, w->enc.sb.size, w->f) != w->enc.sb.size && !rc)
        rc = io_failed(w);
    if (key) {
        arb_sign_digest(key, digest, sig);
        tr_enc_signature(&w->enc, key->pk, sig);
        if (w->f && fwrite(w->enc.sb.data, 1, w->enc.sb.size, w->f) != w->enc.sb.size && !rc)
            rc = io_failed(w);
    }
    if (w->f) {
        /* The transcript is the evidence: on disk before we say it exists. */
        if ((fflush(w->f) != 0 || fsync(fileno(w->f)) != 0) && !rc)
            rc = io_failed(w);
        if (fclose(w->f) != 0 && !rc)
            rc = io_failed(w);
    }
    int cause = w->sys_errno;
    tr_enc_release(&w->enc);
    free(w);
    if (cause)
        errno = cause;   /* the caller names it (strerror) */
    return rc;
}

void tr_writer_abandon(tr_writer *w)
{
    if (!w)
        return;
    if (w->f)
        fclose(w->f);
    EVP_MD_CTX_free(w->sha);
    tr_enc_release(&w->enc);
    free(w);
}
