/* sandbox_seccomp.h — the seccomp filter every bot runs under: it closes the
 * kernel-wide channels that a read-only, network-less sandbox still leaves
 * between co-located bots (file locks on shared files, inotify/fanotify
 * watches, per-uid keyrings, io_uring), and allows everything else. Built by
 * hand as classic BPF (no libseccomp); handed to bubblewrap (--seccomp FD) or
 * installed in the bot's process before execve. */
#ifndef ARB_SANDBOX_SECCOMP_H
#define ARB_SANDBOX_SECCOMP_H
#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>

/* Instructions of the filter (with room to spare). */
#define SBX_SECCOMP_MAX 64

/* Whether this build has a filter for its architecture (x86_64). Elsewhere
 * the functions below do nothing and say so (docs/security.md). */
bool sbx_seccomp_supported(void);

/* Write the filter into out (cap instructions); returns the number of
 * instructions, or a negative arb_err (ARB_ENOSPC, ARB_EUNSUPPORTED). Pure:
 * safe to call anywhere. What it does, per system call:
 *   flock                                   -> returns 0, locks nothing
 *   fcntl F_SETLK/F_SETLKW/F_OFD_SETLK(W)   -> returns 0, locks nothing
 *   fcntl F_GETLK/F_OFD_GETLK               -> ENOLCK
 *   fcntl F_SETLEASE/F_GETLEASE/F_NOTIFY    -> EPERM
 *   inotify_init(1), inotify_add_watch,
 *   fanotify_init, keyctl, add_key,
 *   request_key, io_uring_setup             -> ENOSYS (as a kernel without them)
 *   kill(-1, sig)                           -> EPERM (every process of its uid)
 *   a foreign architecture or x32 call      -> the process is killed */
int sbx_seccomp_build(struct sock_filter *out, size_t cap);

/* A sealed memfd (close-on-exec) holding the filter in the format bubblewrap
 * reads for --seccomp FD; the caller closes it. Negative arb_err on failure. */
int sbx_seccomp_memfd(void);

/* In the calling thread: PR_SET_NO_NEW_PRIVS, then the filter. Only
 * async-signal-safe calls (usable between fork and execve). 0 or a negative
 * arb_err. */
int sbx_seccomp_install(const struct sock_filter *ins, size_t n);

#endif
