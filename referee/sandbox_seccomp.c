/* sandbox_seccomp.c — the bots' seccomp filter as classic BPF (sandbox_seccomp.h). */
#include "sandbox_seccomp.h"
#include "arb_error.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* fcntl commands that glibc hides behind feature macros or that older
 * headers lack; the numbers are the kernel's ABI (include/uapi/linux/fcntl.h). */
#ifndef F_OFD_GETLK
#define F_OFD_GETLK 36
#define F_OFD_SETLK 37
#define F_OFD_SETLKW 38
#endif
#ifndef F_SETLEASE
#define F_SETLEASE 1024
#define F_GETLEASE 1025
#endif
#ifndef F_NOTIFY
#define F_NOTIFY 1026
#endif

#if defined(__x86_64__)

#define X32_SYSCALL_BIT 0x40000000u

/* One instruction at a time into a bounded array. */
typedef struct prog {
    struct sock_filter *ins;
    size_t n, cap;
    bool full;
} prog;

static void emit(prog *p, uint16_t code, uint32_t k, uint8_t jt, uint8_t jf)
{
    if (p->n >= p->cap) {
        p->full = true;
        return;
    }
    p->ins[p->n++] = (struct sock_filter){code, jt, jf, k};
}

#define RET(p, v) emit(p, BPF_RET | BPF_K, (v), 0, 0)
/* if A == k: return v (else fall through) */
#define IF_RET(p, k, v) do { emit(p, BPF_JMP | BPF_JEQ | BPF_K, (k), 0, 1); RET(p, v); } while (0)

int sbx_seccomp_build(struct sock_filter *out, size_t cap)
{
    prog p = {out, 0, cap, false};
    const uint32_t allow = SECCOMP_RET_ALLOW, kill = SECCOMP_RET_KILL_PROCESS;
    const uint32_t nothing = SECCOMP_RET_ERRNO | 0;   /* "success", without the effect */
    const uint32_t enosys = SECCOMP_RET_ERRNO | ENOSYS, enolck = SECCOMP_RET_ERRNO | ENOLCK,
                   eperm = SECCOMP_RET_ERRNO | EPERM;
    /* Another architecture's numbers (int 0x80 from a 64-bit process, a
     * 32-bit binary) would slip past every check below: refused outright. */
    emit(&p, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch), 0, 0);
    emit(&p, BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
    RET(&p, kill);
    emit(&p, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr), 0, 0);
    /* x32 calls are x86_64 calls with a high bit: the same trap. */
    emit(&p, BPF_JMP | BPF_JGE | BPF_K, X32_SYSCALL_BIT, 0, 1);
    RET(&p, kill);
    /* flock on a file every sandbox can open read-only (/usr/bin/...) is a
     * bit one bot sets and another tests: it succeeds and locks nothing, so
     * a bot that locks its own files for itself still works. */
    IF_RET(&p, SYS_flock, nothing);
    IF_RET(&p, SYS_inotify_init, enosys);
    IF_RET(&p, SYS_inotify_init1, enosys);
    IF_RET(&p, SYS_inotify_add_watch, enosys);
    IF_RET(&p, SYS_fanotify_init, enosys);
    IF_RET(&p, SYS_keyctl, enosys);
    IF_RET(&p, SYS_add_key, enosys);
    IF_RET(&p, SYS_request_key, enosys);
    IF_RET(&p, SYS_io_uring_setup, enosys);
    /* kill(-1, …) signals every process the bot may signal: at the rlimits
     * level (the referee's own uid) that is the referee and every other
     * bot. No bot needs it. (pid_t is an int: its low 32 bits.) */
    emit(&p, BPF_JMP | BPF_JEQ | BPF_K, SYS_kill, 0, 4);   /* else past the next four */
    emit(&p, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]), 0, 0);
    IF_RET(&p, 0xffffffffu, eperm);
    RET(&p, allow);
    /* fcntl: look at the command (its low 32 bits: the kernel reads an
     * unsigned int). */
    emit(&p, BPF_JMP | BPF_JEQ | BPF_K, SYS_fcntl, 1, 0);
    RET(&p, allow);
    emit(&p, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1]), 0, 0);
    IF_RET(&p, F_SETLK, nothing);
    IF_RET(&p, F_SETLKW, nothing);
    IF_RET(&p, F_OFD_SETLK, nothing);
    IF_RET(&p, F_OFD_SETLKW, nothing);
    IF_RET(&p, F_GETLK, enolck);
    IF_RET(&p, F_OFD_GETLK, enolck);
    IF_RET(&p, F_SETLEASE, eperm);
    IF_RET(&p, F_GETLEASE, eperm);
    IF_RET(&p, F_NOTIFY, eperm);
    RET(&p, allow);
    return p.full ? ARB_ENOSPC : (int)p.n;
}

bool sbx_seccomp_supported(void) { return true; }

#else /* not x86_64: no filter (documented in docs/security.md) */

int sbx_seccomp_build(struct sock_filter *out, size_t cap)
{
    (void)out;
    (void)cap;
    return ARB_EUNSUPPORTED;
}

bool sbx_seccomp_supported(void) { return false; }

#endif

int sbx_seccomp_memfd(void)
{
    struct sock_filter ins[SBX_SECCOMP_MAX];
    int n = sbx_seccomp_build(ins, SBX_SECCOMP_MAX);
    if (n < 0)
        return n;
    int fd = memfd_create("arbiter-seccomp", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0)
        return ARB_EIO;
    size_t len = (size_t)n * sizeof ins[0];
    /* Sealed: nothing with the descriptor can change the filter between
     * here and bubblewrap reading it. */
    if (write(fd, ins, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET) != 0
        || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
        close(fd);
        return ARB_EIO;
    }
    return fd;
}

int sbx_seccomp_install(const struct sock_filter *ins, size_t n)
{
    struct sock_fprog fp = {(unsigned short)n, (struct sock_filter *)ins};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return ARB_EIO;
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp) != 0)
        return ARB_EIO;
    return 0;
}
