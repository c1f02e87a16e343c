/* zap.h — who may join the worker pool: a ZAP handler (ZeroMQ's
 * authentication protocol, RFC 27) that admits only CURVE clients whose
 * public key is listed, and the keys themselves. Without a ZAP handler
 * libzmq admits any CURVE key, so the handler is started, and answering,
 * before the scheduler's socket binds; if it stops, the scheduler stops. */
#ifndef ARB_ZAP_H
#define ARB_ZAP_H
#include "arb_limits.h"

#include <stdbool.h>
#include <stddef.h>

#define ZAP_KEY_TEXT 41   /* a Z85 key: 40 characters and a NUL */
/* An identity: a key's name, or "key:" and its Z85. */
#define ZAP_ID_MAX ARB_WORKER_ID_MAX

typedef struct zap zap;

/* A new key pair as Z85 text. 0 or an error (CURVE unavailable). */
int zap_keygen(char public_key[ZAP_KEY_TEXT], char secret_key[ZAP_KEY_TEXT]);

/* Start the handler in `zmq_ctx` admitting the listed public keys: each
 * "Z85KEY" or "Z85KEY NAME". Every connection of a key carries its
 * identity as its ZAP User-Id: NAME (zap_valid_id), else "key:Z85KEY". A
 * key or name listed twice is an error. A key completing more than
 * ARB_ZAP_HANDSHAKES_PER_MIN handshakes in a minute is refused until the
 * minute ends. Returns once it is bound and serving; NULL and a message on
 * failure. */
zap *zap_start(void *zmq_ctx, const char *const *keys, int nkeys, char *err, size_t errlen);
/* An identity's characters: 1..ZAP_ID_MAX of [A-Za-z0-9_.:-]. */
bool zap_valid_id(const char *id);
/* Admitted and refused handshakes so far. */
void zap_counts(const zap *z, unsigned long *admitted, unsigned long *refused);
/* Still serving (false: the scheduler must stop). */
bool zap_alive(const zap *z);
void zap_stop(zap *z);

/* Make a socket a CURVE server (the scheduler's ROUTER) or a client of
 * server_public (a worker's DEALER). 0 or an error. */
int zap_curve_server(void *socket, const char *secret_key);
int zap_curve_client(void *socket, const char *public_key, const char *secret_key, const char *server_public);

#endif
