/* hostile temp-files: a good FMU as many tools write them, using the system's temporary folders
 * the usual ways. Its start (fmi2Instantiate, fmi2Reset) writes and reads back a tmpfile() (glibc
 * puts it in /tmp whatever TMPDIR says), a mkstemp("/tmp/...") file it keeps under a fixed name
 * while the instance lives, and a POSIX named semaphore (sem_open: /dev/shm); any failure makes
 * the instantiation fail with a logged reason. It also looks for the marker file that
 * tests/unit/test_isolation.c leaves in the host's /tmp and logs "host marker visible" when it
 * sees it. Nothing of this is forbidden by FMI 2.0.4: the battery must pass (each worker gets a
 * /tmp and /dev/shm of its own, harness/src/sandbox.c make_private_tmp), and nothing the FMU
 * writes reaches the host's /tmp (red-team round 6: tmpfile() and sem_open failed
 * api-instantiate under Landlock). */
#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../hostile_smd.h"

#define KEPT "/tmp/fmuc-temp-files-kept"
#define HOST_MARKER "/tmp/fmuc-temp-files-host-marker"

static fmi2Status fail_with(fmuc_m_ctx *c, const char *what)
{
    fmuc_m_log(c, fmi2Error, NULL, "temp-files: %s failed", what);
    return fmi2Error;
}

static fmi2Status use_temp_folders(fmuc_m_ctx *c, void *data)
{
    (void)data;
    char buf[16] = "";
    FILE *f = tmpfile();
    if (!f)
        return fail_with(c, "tmpfile()");
    int ok = fputs("scratch", f) >= 0 && fflush(f) == 0 && fseek(f, 0, SEEK_SET) == 0 &&
             fgets(buf, sizeof buf, f) && strcmp(buf, "scratch") == 0;
    fclose(f);
    if (!ok)
        return fail_with(c, "writing and reading back a tmpfile()");

    char name[] = "/tmp/fmuc-temp-files-XXXXXX";
    int fd = mkstemp(name);
    if (fd < 0)
        return fail_with(c, "mkstemp(\"/tmp/fmuc-temp-files-XXXXXX\")");
    ok = write(fd, "x", 1) == 1;
    close(fd);
    if (!ok || rename(name, KEPT) != 0)
        return fail_with(c, "writing and renaming a mkstemp file in /tmp");

    char sname[64];
    snprintf(sname, sizeof sname, "/fmuc-temp-files-%ld", (long)getpid());
    sem_t *s = sem_open(sname, O_CREAT, 0600, 1);
    if (s == SEM_FAILED)
        return fail_with(c, "sem_open");
    ok = sem_wait(s) == 0 && sem_post(s) == 0;
    sem_close(s);
    sem_unlink(sname);
    if (!ok)
        return fail_with(c, "sem_wait/sem_post on a named semaphore");

    struct stat st;
    if (stat(HOST_MARKER, &st) == 0)
        fmuc_m_log(c, fmi2OK, NULL, "temp-files: host marker visible (%s)", HOST_MARKER);
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.start = use_temp_folders);
