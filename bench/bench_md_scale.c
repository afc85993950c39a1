/* Scalability of the model-description parse (and, when linked in, the static checks): generated
 * documents with N fixed Real parameters plus 10 outputs; time and peak RSS growth per size,
 * median of 3 runs, each run in a forked child so peaks do not mix. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fmuc/fmuc_md.h"

/* Optional hook: when a static-checks entry point exists in the link, it is run after the parse.
 * Signature: int fmuc_static_checks_run(const fmuc_md *md) (weak; absent means parse only). */
int fmuc_static_checks_run(const fmuc_md *md) __attribute__((weak));

typedef struct buf {
    char *p;
    size_t n, cap;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(buf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k >= 0 && (size_t)k < b->cap - b->n) {
            b->n += (size_t)k;
            return;
        }
        b->cap = b->cap * 2 + 4096;
        b->p = realloc(b->p, b->cap);
        if (!b->p) {
            perror("realloc");
            exit(1);
        }
    }
}

static buf generate(size_t n)
{
    buf b = {NULL, 0, 0};
    b.cap = n * 160 + 65536;
    b.p = malloc(b.cap);
    if (!b.p) {
        perror("malloc");
        exit(1);
    }
    put(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"Scale\" guid=\"{scale}\" "
            "generationTool=\"bench_md_scale\">\n"
            "  <CoSimulation modelIdentifier=\"Scale\"/>\n"
            "  <DefaultExperiment startTime=\"0\" stopTime=\"1\"/>\n"
            "  <ModelVariables>\n");
    for (size_t i = 0; i < n; i++)
        put(&b,
            "    <ScalarVariable name=\"p[%zu]\" valueReference=\"%zu\" causality=\"parameter\" "
            "variability=\"fixed\">\n      <Real start=\"%zu.25\"/>\n    </ScalarVariable>\n",
            i + 1, i, i % 1000);
    for (size_t i = 0; i < 10; i++)
        put(&b,
            "    <ScalarVariable name=\"y[%zu]\" valueReference=\"%zu\" causality=\"output\" "
            "variability=\"discrete\" initial=\"exact\">\n      <Real start=\"0\"/>\n"
            "    </ScalarVariable>\n",
            i + 1, n + i);
    put(&b, "  </ModelVariables>\n  <ModelStructure>\n    <Outputs>\n");
    for (size_t i = 0; i < 10; i++)
        put(&b, "      <Unknown index=\"%zu\" dependencies=\"\"/>\n", n + i + 1);
    put(&b, "    </Outputs>\n  </ModelStructure>\n</fmiModelDescription>\n");
    return b;
}

static long status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long v = -1;
    size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
            v = strtol(line + kl + 1, NULL, 10);
            break;
        }
    fclose(f);
    return v;
}

typedef struct run {
    double seconds;
    long peak_kb; /* RSS growth during the parse */
    size_t nvars;
    int ok;
} run;

/* One measured parse in a forked child; results come back over a pipe. */
static run measure(const buf *doc)
{
    run r = {0, 0, 0, 0};
    int fds[2];
    if (pipe(fds) < 0)
        return r;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        /* reset the peak so VmHWM measures only from here on (Linux >= 4.0) */
        FILE *cr = fopen("/proc/self/clear_refs", "w");
        if (cr) {
            fputs("5", cr);
            fclose(cr);
        }
        long base = status_kb("VmRSS");
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        fmuc_md md;
        fmuc_err e = fmuc_md_parse(&md, doc->p, doc->n, NULL);
        if (fmuc_static_checks_run)
            fmuc_static_checks_run(&md);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        run c;
        c.seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        c.peak_kb = status_kb("VmHWM") - base;
        c.nvars = md.nvars;
        c.ok = e == FMUC_OK && md.nissues == 0;
        ssize_t w = write(fds[1], &c, sizeof c);
        _exit(w == (ssize_t)sizeof c ? 0 : 1);
    }
    close(fds[1]);
    if (pid > 0) {
        ssize_t got = read(fds[0], &r, sizeof r);
        if (got != (ssize_t)sizeof r)
            r.ok = 0;
        waitpid(pid, NULL, 0);
    }
    close(fds[0]);
    return r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    size_t sizes[] = {10000, 100000, 1000000};
    size_t nsizes = sizeof sizes / sizeof sizes[0];
    if (argc > 1)
        nsizes = (size_t)strtoul(argv[1], NULL, 10) < nsizes ? (size_t)strtoul(argv[1], NULL, 10)
                                                            : nsizes;
    double med[3] = {0, 0, 0};
    int all_ok = 1;
    printf("bench_md_scale: %s\n", fmuc_static_checks_run ? "parse + static checks" : "parse only");
    printf("%10s %12s %10s %12s %10s\n", "variables", "xml_bytes", "median_s", "peak_rss_kb",
           "bytes/var");
    for (size_t s = 0; s < nsizes; s++) {
        buf doc = generate(sizes[s]);
        double t[3];
        long peak = 0;
        for (int k = 0; k < 3; k++) {
            run r = measure(&doc);
            if (!r.ok || r.nvars != sizes[s] + 10)
                all_ok = 0;
            t[k] = r.seconds;
            if (r.peak_kb > peak)
                peak = r.peak_kb;
        }
        qsort(t, 3, sizeof t[0], cmp_double);
        med[s] = t[1];
        printf("%10zu %12zu %10.3f %12ld %10.1f\n", sizes[s], doc.n, t[1], peak,
               1024.0 * (double)peak / (double)(sizes[s] + 10));
        free(doc.p);
    }
    if (nsizes == 3 && med[1] > 0)
        printf("ratio 1M/100k time: %.2f (linear = 10)\n", med[2] / med[1]);
    if (!all_ok)
        printf("ERROR: a parse failed or produced issues\n");
    return all_ok ? 0 : 1;
}
