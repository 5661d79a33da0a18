/* The marker of bench/instructions.py, preloaded into a child under callgrind (LD_PRELOAD): Python's
 * os.getsid() calls this getsid. The child starts with the instrumentation off (--instr-atstart=no);
 * the first call switches it on (valgrind's client request, from its own header), and callgrind,
 * finding itself in a function named getsid, writes the counters out (--dump-before=getsid): the
 * first stretch, next to nothing. Every later call is counted as libc's getsid was, one stretch
 * ended per call (bench/instructions.py's test counts the stretches). Outside valgrind the request
 * does nothing. */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

static int switched_on;

pid_t getsid(pid_t pid) {
    if (!switched_on) {
        switched_on = 1;
        CALLGRIND_START_INSTRUMENTATION;
    }
    return (pid_t)syscall(SYS_getsid, pid);
}
