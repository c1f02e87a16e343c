/* web_api.h — the participant API (/api/v1/, docs/api.md) inside the
 * server (web_server.c): requests with bodies, bearer tokens, roles,
 * per-account rate limits and quotas, the audit log. What web_server.c and
 * web_api.c share of libmicrohttpd. */
#ifndef ARB_WEB_API_H
#define ARB_WEB_API_H
#include "web_srv.h"
#include "store.h"

#include <microhttpd.h>

#if MHD_VERSION < 0x00097002
typedef int web_result;
#else
typedef enum MHD_Result web_result;
#endif

/* The security headers every answer carries (web_server.c): 0 or -1. */
int web__secure(struct MHD_Response *r);

typedef struct web_api web_api;
/* The API's sessions on the record at conninfo (ARB_API_SESSIONS, each as
 * the role arbiter_web when the login may take it: *as_role says whether
 * it did, why says why not). NULL with a message. */
web_api *web_api_open(const char *conninfo, const web_hooks *hooks, bool *as_role, char *why, size_t whylen,
                      char *err, size_t errlen);
void web_api_close(web_api *a);

/* One request's state across the library's calls (a body comes in
 * pieces); freed by web_api_done. */
typedef struct web_api_req web_api_req;
/* Every call of the library's handler for a /api/v1/ URL: the first
 * decides from the request line and headers alone (route, auth, limits,
 * Content-Length against the route's bound, Content-Type); a body is read
 * into a buffer no larger than its Content-Length; the last call answers.
 * client: the request's client (web_clients.c's rule). */
web_result web_api_handle(web_api *a, struct MHD_Connection *c, const char *url, const char *method,
                          const char *upload, size_t *upload_size, web_api_req **state, const wcl_addr *client);
void web_api_done(web_api_req *r);

#endif
