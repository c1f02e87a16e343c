/* zap.h — who may join the worker pool: a ZAP handler (ZeroMQ's
 * authentication protocol, RFC 27) that admits only CURVE clients whose
 * public key is listed, and the keys themselves. Without a ZAP handler
 * libzmq admits any CURVE key, so the handler is started, and answering,
 * before the scheduler's socket binds; if it stops, the scheduler stops. */
#ifndef ARB_ZAP_H
#define ARB_ZAP_H
#include <stdbool.h>
#include <stddef.h>

#define ZAP_KEY_TEXT 41   /* a Z85 key: 40 characters and a NUL */
#define ZAP_MAX_KEYS 4096

typedef struct zap zap;

/* A new key pair as Z85 text. 0 or an error (CURVE unavailable). */
int zap_keygen(char public_key[ZAP_KEY_TEXT], char secret_key[ZAP_KEY_TEXT]);

/* Start the handler in `zmq_ctx` admitting the listed public keys (Z85).
 * Returns once it is bound and serving; NULL and a message on failure. */
zap *zap_start(void *zmq_ctx, const char *const *keys, int nkeys, char *err, size_t errlen);
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
