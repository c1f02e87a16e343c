/* sbx_seccomp.c — the bots' seccomp filter (referee/sandbox_seccomp.h) run
 * for real: a child process installs it and tries each channel while the
 * parent holds a lock on the same file. Locks succeed without locking,
 * lock queries say ENOLCK, inotify, keyrings and io_uring say ENOSYS,
 * kill(-1) says EPERM, and ordinary calls still work. */
#include "sandbox_seccomp.h"
#include "../unit/test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* In the child: one bit per expectation met. */
static int child(const char *path)
{
    struct sock_filter f[SBX_SECCOMP_MAX];
    int n = sbx_seccomp_build(f, SBX_SECCOMP_MAX);
    if (n <= 0 || sbx_seccomp_install(f, (size_t)n) != 0)
        return 100;
    int bad = 0, fd = open(path, O_RDONLY);
    /* the parent holds LOCK_EX: without the filter this would be EWOULDBLOCK */
    bad |= (flock(fd, LOCK_EX | LOCK_NB) != 0) << 0;
    struct flock fl = {.l_type = F_RDLCK, .l_whence = SEEK_SET};
    bad |= (fcntl(fd, F_SETLK, &fl) != 0) << 1;
    errno = 0;
    bad |= !(fcntl(fd, F_GETLK, &fl) == -1 && errno == ENOLCK) << 2;
    errno = 0;
    bad |= !(syscall(SYS_inotify_init1, 0) == -1 && errno == ENOSYS) << 3;
    errno = 0;
    bad |= !(syscall(SYS_keyctl, 0, -4, 0) == -1 && errno == ENOSYS) << 4;
    errno = 0;
    bad |= !(syscall(SYS_add_key, "user", "x", "y", 1, -4) == -1 && errno == ENOSYS) << 5;
    errno = 0;
    bad |= !(syscall(SYS_io_uring_setup, 1, NULL) == -1 && errno == ENOSYS) << 6;
    errno = 0;
    bad |= !(fcntl(fd, F_SETLEASE, F_RDLCK) == -1 && errno == EPERM) << 7;
    errno = 0;
    bad |= !(kill(-1, 0) == -1 && errno == EPERM) << 9;
    /* ordinary life goes on */
    bad |= (fcntl(fd, F_GETFD) < 0 || getpid() <= 0 || write(1, "", 0) != 0 || kill(getpid(), 0) != 0) << 8;
    close(fd);
    return bad;
}

int main(void)
{
    CHECK(sbx_seccomp_supported());
    struct sock_filter f[SBX_SECCOMP_MAX];
    int n = sbx_seccomp_build(f, SBX_SECCOMP_MAX);
    CHECKF(n > 0 && n < SBX_SECCOMP_MAX, "%d instructions", n);
    CHECK(sbx_seccomp_build(f, 4) < 0);   /* too small: refused, not cut */
    int mfd = sbx_seccomp_memfd();
    CHECK(mfd >= 0 && lseek(mfd, 0, SEEK_END) == (off_t)((size_t)n * sizeof f[0]));
    CHECK(mfd >= 0 && write(mfd, "x", 1) < 0);   /* sealed */
    if (mfd >= 0)
        close(mfd);
    char path[] = "/tmp/sbx-seccomp-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && flock(fd, LOCK_EX) == 0);
    pid_t p = fork();
    if (p == 0)
        _exit(child(path));
    int st = 0;
    waitpid(p, &st, 0);
    CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %#x (bits of the failed expectations)", st);
    /* a foreign architecture's call kills the process: int 0x80 (i386 getpid) */
    p = fork();
    if (p == 0) {
        if (sbx_seccomp_install(f, (size_t)n) != 0)
            _exit(100);
        long r;
        __asm__ volatile("int $0x80" : "=a"(r) : "a"(20) : "memory");
        _exit(0);
    }
    waitpid(p, &st, 0);
    /* SIGSYS from the filter; SIGSEGV where the kernel has no 32-bit entry */
    CHECKF(WIFSIGNALED(st) && (WTERMSIG(st) == SIGSYS || WTERMSIG(st) == SIGSEGV),
           "int 0x80 under the filter: status %#x", st);
    close(fd);
    unlink(path);
    return TEST_DONE("sbx_seccomp");
}
