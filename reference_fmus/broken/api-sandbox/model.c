/* api-sandbox fixtures: SpringMassDamper whose fmi2ExitInitializationMode also tries what a
 * well-behaved FMU must not do in fmucheck's sandbox (one defect per fixture):
 *   (default)              create files in $HOME, in /tmp, in its own resources/ folder and in
 *                          the report folder of the fmucheck that runs it (from its -o argument);
 *   SMD_SANDBOX_TCP        open a TCP connection to 127.0.0.1:9;
 *   SMD_SANDBOX_UDP        send a DNS-style query over UDP to 127.0.0.1:53.
 * Every file it manages to create is removed again at once, so running it without the sandbox
 * leaves nothing behind. Otherwise the model is the good SpringMassDamper. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define fmuc_model fmuc_model_base
#include "../../good/SpringMassDamper/model.c"
#undef fmuc_model

#if !defined(SMD_SANDBOX_TCP) && !defined(SMD_SANDBOX_UDP)
static void try_create(const char *dir, const char *leaf)
{
    char path[4096];
    if (!dir || !*dir)
        return;
    int k = snprintf(path, sizeof path, "%s/%s-%ld", dir, leaf, (long)getpid());
    if (k < 0 || (size_t)k >= sizeof path)
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
        close(fd);
        unlink(path);
    }
}

/* The -o/--output argument of the fmucheck that started us (our parent), from its cmdline. */
static int report_dir(char *out, size_t n)
{
    char path[64], buf[8192];
    snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)getppid());
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t len = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (len <= 0)
        return -1;
    buf[len] = '\0';
    for (ssize_t i = 0; i < len;) {
        const char *arg = buf + i;
        size_t al = strlen(arg);
        if ((!strcmp(arg, "-o") || !strcmp(arg, "--output")) && i + (ssize_t)al + 1 < len) {
            snprintf(out, n, "%s", arg + al + 1);
            return 0;
        }
        i += (ssize_t)al + 1;
    }
    return -1;
}
#endif

static fmi2Status exit_init_defect(fmuc_m_ctx *ctx, void *data)
{
    (void)data;
#if defined(SMD_SANDBOX_TCP)
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(9);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    connect(s, (const struct sockaddr *)&a, sizeof a);
    if (s >= 0)
        close(s);
#elif defined(SMD_SANDBOX_UDP)
    static const unsigned char query[] = {0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
                                          0x00, 0x00, 0x00, 0x07, 'e',  'x',  'a',  'm',  'p',
                                          'l',  'e',  0x03, 'c',  'o',  'm',  0x00, 0x00, 0x01,
                                          0x00, 0x01};
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(53);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sendto(s, query, sizeof query, MSG_DONTWAIT, (const struct sockaddr *)&a, sizeof a);
    if (s >= 0)
        close(s);
#else
    char rep[4096];
    try_create(getenv("HOME"), "fmu-wrote-home");
    try_create("/tmp", "fmu-wrote-tmp");
    try_create(fmuc_m_resource_dir(ctx), "fmu-wrote-resources");
    if (report_dir(rep, sizeof rep) == 0)
        try_create(rep, "fmu-wrote-report");
#endif
#if defined(SMD_SANDBOX_TCP) || defined(SMD_SANDBOX_UDP)
    (void)ctx;
#endif
    return fmi2OK;
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper that writes or connects outside the sandbox (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .calc = calc,
    .exit_init = exit_init_defect,
    .dir_deriv = dir_deriv,
};
