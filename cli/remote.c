/* remote.c — the participant API's client (remote.h) over libcurl: TLS
 * (GnuTLS, as the server's) is a library's job, not ours. Every answer is
 * bounded, a redirect is never followed (the token would go with it), a
 * stalled transfer is given up, and the token appears in one place only:
 * the Authorization header of a request to the URL given. */
#include "remote.h"
#include "cli_base.h"
#include "arb_text.h"

#include <curl/curl.h>
#include <jansson.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef ARB_VERSION
#define ARB_VERSION "dev"
#endif

int remote_token_read(const char *path, char *token, size_t cap, char *err, size_t errlen)
{
    char term[512];
    arb_term(path, term, sizeof term);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        snprintf(err, errlen, "the token file %s cannot be read: %s", term, strerror(errno));
        return -1;
    }
    struct stat st;
    int rc = -1;
    char buf[ARB_REMOTE_TOKEN_MAX + 2];
    ssize_t n = 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "the token file %s is not a regular file", term);
        goto out;
    }
    if (st.st_uid != getuid() && st.st_uid != 0) {
        snprintf(err, errlen, "the token file %s belongs to another user (uid %u): a token is its owner's alone", term,
                 (unsigned)st.st_uid);
        goto out;
    }
    if (st.st_mode & 077) {
        /* as ssh does with a private key: a token others can read is
         * everyone's on this machine */
        snprintf(err, errlen, "the token file %s is open to others (mode %04o); make it yours alone: chmod 600 %s",
                 term, (unsigned)(st.st_mode & 07777), term);
        goto out;
    }
    for (ssize_t k; (size_t)n < sizeof buf && (k = read(fd, buf + n, sizeof buf - (size_t)n)) != 0; ) {
        if (k < 0) {
            if (errno == EINTR)
                continue;
            snprintf(err, errlen, "the token file %s cannot be read: %s", term, strerror(errno));
            goto out;
        }
        n += k;
    }
    if ((size_t)n > ARB_REMOTE_TOKEN_MAX) {
        snprintf(err, errlen, "the token file %s is longer than %d bytes: not a token file", term, ARB_REMOTE_TOKEN_MAX);
        goto out;
    }
    if (n > 0 && buf[n - 1] == '\n')   /* the newline an editor or echo leaves */
        n--;
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    if (n == 0) {
        snprintf(err, errlen, "the token file %s is empty (the token is the last line `arbiter account add` printed)",
                 term);
        goto out;
    }
    for (ssize_t i = 0; i < n; i++) {
        if (buf[i] <= ' ' || buf[i] > '~') {   /* a header can hold nothing else */
            snprintf(err, errlen, "the token file %s holds more than one token's characters (a blank, a second line "
                     "or a control byte at byte %zd): it should hold the token alone", term, i + 1);
            goto out;
        }
    }
    if ((size_t)n >= cap) {
        snprintf(err, errlen, "the token file %s is too long for a token", term);
        goto out;
    }
    memcpy(token, buf, (size_t)n);
    token[n] = 0;
    rc = 0;
out:
    explicit_bzero(buf, sizeof buf);
    close(fd);
    return rc;
}

/* A host that is this machine: a plain http:// to it keeps the token here. */
static bool loopback(const char *host)
{
    return strcasecmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 || strcmp(host, "[::1]") == 0
           || strcmp(host, "::1") == 0;
}

/* The URL checked; *plain set for http://, host copied. 0 or -1 (said). */
static int check_url(const char *cmd, const char *url, bool *plain, char *host, size_t hostcap)
{
    char term[512];
    arb_term(url, term, sizeof term);
    CURLU *u = curl_url();
    if (!u)
        return -1;
    int rc = -1;
    char *scheme = NULL, *h = NULL, *user = NULL, *query = NULL, *frag = NULL;
    if (strlen(url) >= ARB_REMOTE_MAX_URL) {
        fprintf(stderr, "arbiter: %s: --server is longer than %d bytes\n", cmd, ARB_REMOTE_MAX_URL - 1);
        goto out;
    }
    if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK || curl_url_get(u, CURLUPART_SCHEME, &scheme, 0)
        || curl_url_get(u, CURLUPART_HOST, &h, 0)) {
        fprintf(stderr, "arbiter: %s: --server %s is not a URL (https://HOST[:PORT], or http:// to this machine)\n",
                cmd, term);
        goto out;
    }
    if (strcmp(scheme, "https") != 0 && strcmp(scheme, "http") != 0) {
        fprintf(stderr, "arbiter: %s: --server %s: the API is served over https:// or http://, not %s://\n", cmd,
                term, scheme);
        goto out;
    }
    if (curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK) {
        fprintf(stderr, "arbiter: %s: --server holds a user name or password: the account is the token's "
                "(--token-file), never in the URL\n", cmd);
        goto out;
    }
    if (curl_url_get(u, CURLUPART_QUERY, &query, 0) == CURLUE_OK
        || curl_url_get(u, CURLUPART_FRAGMENT, &frag, 0) == CURLUE_OK) {
        fprintf(stderr, "arbiter: %s: --server %s: the server's address only (no ?query, no #fragment)\n", cmd, term);
        goto out;
    }
    *plain = strcmp(scheme, "http") == 0;
    snprintf(host, hostcap, "%s", h);
    rc = 0;
out:
    curl_free(scheme);
    curl_free(h);
    curl_free(user);
    curl_free(query);
    curl_free(frag);
    curl_url_cleanup(u);
    return rc;
}

int remote_open(remote *r, const char *cmd, const char *server, const char *token_file, const char *cacert)
{
    memset(r, 0, sizeof *r);
    r->cmd = cmd;
    r->server = server && *server ? server : getenv("ARBITER_SERVER");
    r->token_file = token_file && *token_file ? token_file : getenv("ARBITER_TOKEN_FILE");
    r->cacert = cacert;
    if (!r->server || !*r->server) {
        fprintf(stderr, "arbiter: %s: which server? --server URL (or ARBITER_SERVER in the environment)\n", cmd);
        return CLI_EXIT_USAGE;
    }
    if (!r->token_file || !*r->token_file) {
        fprintf(stderr, "arbiter: %s: as whom? --token-file FILE, the file holding your account's token (or "
                "ARBITER_TOKEN_FILE in the environment)\n", cmd);
        return CLI_EXIT_USAGE;
    }
    bool plain;
    char host[512];
    if (check_url(cmd, r->server, &plain, host, sizeof host) != 0)
        return CLI_EXIT_USAGE;
    if (cacert && access(cacert, R_OK) != 0) {
        char term[512];
        fprintf(stderr, "arbiter: %s: --cacert %s cannot be read: %s\n", cmd, arb_term(cacert, term, sizeof term),
                strerror(errno));
        return CLI_EXIT_USAGE;
    }
    snprintf(r->base, sizeof r->base, "%s", r->server);
    for (size_t n = strlen(r->base); n > 0 && r->base[n - 1] == '/'; n--)
        r->base[n - 1] = 0;
    char err[1024];
    if (remote_token_read(r->token_file, r->token, sizeof r->token, err, sizeof err) != 0) {
        fprintf(stderr, "arbiter: %s: %s\n", cmd, err);
        return CLI_EXIT_USAGE;
    }
    if (plain && !loopback(host)) {
        char term[512];
        fprintf(stderr, "arbiter: %s: warning: %s is plain http:// to another machine: your token travels in clear "
                "(anyone on the way can take it); ask the organiser for https://\n", cmd,
                arb_term(r->server, term, sizeof term));
    }
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || !(r->curl = curl_easy_init())) {
        fprintf(stderr, "arbiter: %s: the HTTP client (libcurl) cannot start\n", cmd);
        explicit_bzero(r->token, sizeof r->token);
        return CLI_EXIT_FAIL;
    }
    return -1;
}

void remote_close(remote *r)
{
    if (r->curl) {
        curl_easy_cleanup(r->curl);
        curl_global_cleanup();
    }
    r->curl = NULL;
    explicit_bzero(r->token, sizeof r->token);
}

void remote_reply_init(remote_reply *rep, size_t cap, FILE *to_file)
{
    memset(rep, 0, sizeof *rep);
    rep->cap = cap;
    rep->to_file = to_file;
    rep->retry_after = -1;
    arb_buf_init(&rep->body, cap);
}

void remote_reply_release(remote_reply *rep)
{
    arb_buf_release(&rep->body);
}

/* The answer's bytes, bounded: past the cap the transfer is stopped
 * (CURLE_WRITE_ERROR) and said as such, never kept cut. Only a 2xx answer
 * goes to the file; a refusal's text is kept to be said. */
static size_t on_body(char *p, size_t size, size_t n, void *ctx)
{
    remote_reply *rep = ctx;
    size_t len = size * n;
    if (rep->to_file && rep->status >= 200 && rep->status < 300) {
        if (rep->written + len > rep->cap || fwrite(p, 1, len, rep->to_file) != len)
            return 0;
        rep->written += len;
        return len;
    }
    return arb_buf_append(&rep->body, p, len) == 0 ? len : 0;
}

static size_t on_header(char *p, size_t size, size_t n, void *ctx)
{
    remote_reply *rep = ctx;
    size_t len = size * n;
    char line[640];
    size_t k = len < sizeof line - 1 ? len : sizeof line - 1;
    memcpy(line, p, k);
    line[k] = 0;
    line[strcspn(line, "\r\n")] = 0;
    if (strncmp(line, "HTTP/", 5) == 0) {   /* a new answer (after a 100 Continue) */
        const char *sp = strchr(line, ' ');
        rep->status = sp ? strtol(sp + 1, NULL, 10) : 0;
        rep->retry_after = -1;
        rep->ctype[0] = rep->location[0] = 0;
    } else if (strncasecmp(line, "Retry-After:", 12) == 0) {
        char *end;
        long v = strtol(line + 12, &end, 10);
        rep->retry_after = end != line + 12 && v >= 0 && v < 86400 * 7 ? v : -1;
    } else if (strncasecmp(line, "Content-Type:", 13) == 0) {
        snprintf(rep->ctype, sizeof rep->ctype, "%s", line + 13 + strspn(line + 13, " \t"));
    } else if (strncasecmp(line, "Location:", 9) == 0) {
        snprintf(rep->location, sizeof rep->location, "%s", line + 9 + strspn(line + 9, " \t"));
    }
    return len;
}

int remote_escape(remote *r, arb_buf *b, const char *s)
{
    char *e = curl_easy_escape(r->curl, s, 0);
    int rc = e ? arb_buf_puts(b, e) : -1;
    curl_free(e);
    return rc;
}

int remote_request(remote *r, const char *method, const char *path, const char *ctype, const void *body, size_t len,
                   remote_reply *rep)
{
    CURL *c = r->curl;
    char url[ARB_REMOTE_MAX_URL + 8192], ctline[160], term[512], errbuf[CURL_ERROR_SIZE] = "";
    int k = snprintf(url, sizeof url, "%s%s", r->base, path);
    if (k < 0 || (size_t)k >= sizeof url) {
        fprintf(stderr, "arbiter: %s: the request's URL is longer than %zu bytes\n", r->cmd, sizeof url - 1);
        return CLI_EXIT_USAGE;
    }
    struct curl_slist *hdrs = NULL;
    if (ctype) {
        snprintf(ctline, sizeof ctline, "Content-Type: %s", ctype);
        hdrs = curl_slist_append(hdrs, ctline);
    }
    hdrs = curl_slist_append(hdrs, "Accept: application/json");
    curl_easy_reset(c);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "arbiter/" ARB_VERSION);
    curl_easy_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_BEARER);
    curl_easy_setopt(c, CURLOPT_XOAUTH2_BEARER, r->token);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, (long)ARB_REMOTE_CONNECT_S);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, r->timeout_s > 0 ? r->timeout_s : (long)ARB_REMOTE_TIMEOUT_S);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, (long)ARB_REMOTE_LOW_SPEED_BYTES);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (long)ARB_REMOTE_LOW_SPEED_S);
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)rep->cap);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, rep);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, rep);
    if (r->cacert)
        curl_easy_setopt(c, CURLOPT_CAINFO, r->cacert);
    if (strcmp(method, "POST") == 0) {
        curl_easy_setopt(c, CURLOPT_POST, 1L);
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body ? body : "");
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(body ? len : 0));
    } else {
        curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
    }
    r->sent = body ? len : 0;
    CURLcode cc = curl_easy_perform(c);
    curl_slist_free_all(hdrs);
    arb_term(r->server, term, sizeof term);
    if (cc == CURLE_OK) {
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &rep->status);
        return -1;
    }
    const char *e = errbuf[0] ? errbuf : curl_easy_strerror(cc);
    char why[CURL_ERROR_SIZE * 2];
    arb_term(e, why, sizeof why);
    switch (cc) {
    case CURLE_COULDNT_CONNECT:
        fprintf(stderr, "arbiter: %s: cannot connect to %s (%s): is the server running, and is this its address?\n",
                r->cmd, term, why);
        return CLI_EXIT_USAGE;
    case CURLE_COULDNT_RESOLVE_HOST:
        fprintf(stderr, "arbiter: %s: the server %s cannot be found (%s)\n", r->cmd, term, why);
        return CLI_EXIT_USAGE;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
        fprintf(stderr, "arbiter: %s: the server %s is not who its certificate should say (%s); for a server "
                "with a certificate of its own making, --cacert FILE with that certificate\n", r->cmd, term, why);
        return CLI_EXIT_USAGE;
    case CURLE_SSL_CONNECT_ERROR:
        fprintf(stderr, "arbiter: %s: no TLS connection with %s (%s): is it https:// there?\n", r->cmd, term, why);
        return CLI_EXIT_USAGE;
    case CURLE_OPERATION_TIMEDOUT:
        fprintf(stderr, "arbiter: %s: %s did not answer in time (%s); nothing is known of the request's fate: "
                "`arbiter remote entries` shows what the server holds\n", r->cmd, term, why);
        return CLI_EXIT_FAIL;
    case CURLE_FILESIZE_EXCEEDED:
    case CURLE_WRITE_ERROR:
        if (rep->to_file && ferror(rep->to_file))
            fprintf(stderr, "arbiter: %s: the answer could not be written: %s\n", r->cmd, strerror(errno));
        else
            fprintf(stderr, "arbiter: %s: the answer from %s is larger than %zu bytes: refused\n", r->cmd, term,
                    rep->cap);
        return CLI_EXIT_FAIL;
    default:
        fprintf(stderr, "arbiter: %s: the request to %s failed: %s\n", r->cmd, term, why);
        return CLI_EXIT_FAIL;
    }
}

int remote_refused(const remote *r, const remote_reply *rep)
{
    char msg[1024] = "", term[512];
    json_t *j = json_loadb(arb_buf_str(&rep->body), rep->body.len, JSON_REJECT_DUPLICATES, NULL);
    const char *e = j && json_is_object(j) ? json_string_value(json_object_get(j, "error")) : NULL;
    if (e)
        arb_term(e, msg, sizeof msg);
    else
        snprintf(msg, sizeof msg, "an answer that is not the API's (%s%s)", rep->ctype[0] ? "Content-Type " : "no type",
                 arb_term(rep->ctype, term, sizeof term));
    json_decref(j);
    const char *cmd = r->cmd;
    long s = rep->status;
    switch (s) {
    case 401:
        fprintf(stderr, "arbiter: %s: the server refused the token (401: %s): revoked or mistyped? `arbiter account "
                "rotate NAME` on the server makes a new one\n", cmd, msg);
        return CLI_EXIT_USAGE;
    case 403:
        fprintf(stderr, "arbiter: %s: the server refused (403: %s): your account's role does not allow this\n", cmd,
                msg);
        return CLI_EXIT_USAGE;
    case 404:
        fprintf(stderr, "arbiter: %s: not found (404: %s)\n", cmd, msg);
        return CLI_EXIT_NORECORD;
    case 413:
        fprintf(stderr, "arbiter: %s: too large for the server (413: %s); this request's body was %zu bytes\n", cmd,
                msg, r->sent);
        return CLI_EXIT_USAGE;
    case 429:
        if (rep->retry_after >= 0)
            fprintf(stderr, "arbiter: %s: too many requests or over a quota (429: %s); retry after %ld seconds\n", cmd,
                    msg, rep->retry_after);
        else
            fprintf(stderr, "arbiter: %s: too many requests or over a quota (429: %s)\n", cmd, msg);
        return CLI_EXIT_FAIL;
    case 400:
        fprintf(stderr, "arbiter: %s: the server refused the request (400: %s)\n", cmd, msg);
        return CLI_EXIT_USAGE;
    case 409:
        fprintf(stderr, "arbiter: %s: refused (409: %s)\n", cmd, msg);
        return CLI_EXIT_FAIL;
    default:
        break;
    }
    if (s >= 300 && s < 400) {
        fprintf(stderr, "arbiter: %s: the server sends us to %s (%ld); not followed (the token goes to the URL "
                "given only): give that address as --server\n", cmd,
                rep->location[0] ? arb_term(rep->location, term, sizeof term) : "another address", s);
        return CLI_EXIT_USAGE;
    }
    fprintf(stderr, "arbiter: %s: the server answered %ld: %s\n", cmd, s, msg);
    return CLI_EXIT_FAIL;
}

void remote_shell_word(FILE *f, const char *s)
{
    bool plain = *s != 0;
    for (const char *c = s; *c && plain; c++)
        plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')
                || strchr("_./:@%+=,-", *c);
    if (plain) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (const char *c = s; *c; c++) {
        if (*c == '\'')
            fputs("'\\''", f);
        else
            fputc(*c, f);
    }
    fputc('\'', f);
}
