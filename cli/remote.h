/* remote.h — the participant API's client (`arbiter join`, `arbiter
 * remote`; the routes in docs/api.md): a server's URL and an account's
 * token, one HTTP request at a time over libcurl, and what each refusal
 * means said in words with an exit code (cli_base.h). Linked into the
 * `arbiter` binary only: neither daemon carries libcurl. */
#ifndef ARB_REMOTE_H
#define ARB_REMOTE_H
#include "arb_buf.h"
#include "arb_limits.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Where to and as whom: options --server, --token-file, --cacert (or
 * $ARBITER_SERVER, $ARBITER_TOKEN_FILE). */
typedef struct remote {
    const char *cmd;                         /* "join", "remote entries": what messages name */
    const char *server;                      /* the URL as given */
    const char *token_file;                  /* as given */
    const char *cacert;                      /* CA bundle for a self-signed server, or NULL */
    char        base[ARB_REMOTE_MAX_URL];    /* server without its trailing '/' */
    char        token[ARB_REMOTE_TOKEN_MAX + 1];   /* never printed, never in an error */
    long        timeout_s;                   /* a request's whole time (--timeout), 0: ARB_REMOTE_TIMEOUT_S */
    size_t      sent;                        /* the last request's body bytes (a 413 says them) */
    void       *curl;                        /* CURL *, made by remote_open */
} remote;

/* One answer: its HTTP status, its body (bounded), what the headers said. */
typedef struct remote_reply {
    long    status;
    arb_buf body;                /* the answer (to_file NULL) */
    FILE   *to_file;             /* or the answer written here as it comes */
    size_t  written;             /* bytes written to to_file */
    size_t  cap;                 /* the answer's bound */
    long    retry_after;         /* Retry-After in seconds, -1 none */
    char    ctype[128];          /* Content-Type */
    char    location[512];       /* Location (a redirect, never followed) */
} remote_reply;

/* The server and token file from the options or the environment, the URL
 * checked (http:// or https://, a host, no credentials, no query), the
 * token read (remote_token_read) and the HTTP client made. A plain http://
 * URL to a host other than this one is warned about (the token travels in
 * clear). -1 to go on (remote_close at the end), else an exit code (said
 * on stderr). */
int remote_open(remote *r, const char *cmd, const char *server, const char *token_file, const char *cacert);
void remote_close(remote *r);

/* The token file: a regular file of the caller's (or root's), closed to
 * group and others (like ssh's keys: "chmod 600 FILE" is said otherwise),
 * at most ARB_REMOTE_TOKEN_MAX bytes with one trailing newline stripped,
 * printable ASCII without blanks. 0, or nonzero with the reason in err
 * (naming the file, never its contents). */
int remote_token_read(const char *path, char *token, size_t cap, char *err, size_t errlen);

/* A request: method "GET" or "POST", path (from "/api/v1/...", its
 * variable parts escaped by the caller: remote_escape), a body of len bytes
 * of type ctype (NULL: none; a POST without one sends an empty body). The
 * answer in rep (remote_reply_init first, remote_reply_release after). -1
 * when the server answered (any status), else the exit code after the
 * reason on stderr (not reached, timed out, an answer past its bound). */
void remote_reply_init(remote_reply *rep, size_t cap, FILE *to_file);
void remote_reply_release(remote_reply *rep);
int remote_request(remote *r, const char *method, const char *path, const char *ctype, const void *body, size_t len,
                   remote_reply *rep);

/* s escaped for a URL (a path segment or a query value) appended to b.
 * 0, or nonzero when b is full. */
int remote_escape(remote *r, arb_buf *b, const char *s);

/* An answer that is not 2xx said on stderr in words (401: the token was
 * refused; 413: the limit; 429: when to retry; the server's own "error"
 * text escaped for the terminal), and its exit code. */
int remote_refused(const remote *r, const remote_reply *rep);

/* s as one shell word (single-quoted when it holds anything but
 * [A-Za-z0-9_./:@%+=,-]) on f: a hint's command works when pasted. */
void remote_shell_word(FILE *f, const char *s);

#endif
