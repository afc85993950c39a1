/* Plots from evidence (convention in reports/README.md) drawn by gnuplot into SVG fragments.
 * gnuplot runs as a child process (posix_spawn, minimal environment, -d: no init files); the script
 * goes to its stdin through a socket (MSG_NOSIGNAL: a dying gnuplot cannot SIGPIPE us), the SVG comes
 * back on its stdout, all under a wall-clock limit. Text from evidence is reduced to a whitelist
 * before it reaches the script, so it can never become a gnuplot command. No state is kept. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report.h"

#ifndef FMUC_GNUPLOT
#define FMUC_GNUPLOT "/usr/bin/gnuplot"
#endif

#define PLOT_MAX_POINTS 2000        /* rows sent to gnuplot after downsampling (about) */
#define PLOT_MAX_SERIES 16
#define PLOT_MAX_INPUT 10000000     /* points per array accepted at all */
#define PLOT_TIMEOUT_S 20.0
#define PLOT_SVG_CAP (16u << 20)    /* bytes of SVG accepted */
#define PLOT_TEXT_CAP 120

typedef struct {
    double *v;
    size_t n;
} darray;

typedef struct {
    char title[PLOT_TEXT_CAP + 1], xlabel[PLOT_TEXT_CAP + 1], ylabel[PLOT_TEXT_CAP + 1];
    int logy;
    darray x;
    size_t nseries;
    darray y[PLOT_MAX_SERIES];
    char name[PLOT_MAX_SERIES][PLOT_TEXT_CAP + 1];
    int has_band;
    darray lo, hi;
} plot_data;

static int allowed(unsigned char c)
{
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
        return 1;
    return c != 0 && strchr(" _.,:;()+-=/[]^*%", c) != NULL;
}

/* Keep [A-Za-z0-9 _.,:;()+-=/[]^*%] and valid UTF-8 characters from U+00A0 on (units such as
 * "°C", "Ω", "µs": no gnuplot syntax, the terminal is noenhanced); anything else (invalid UTF-8,
 * controls, quotes, backquotes, backslashes, $ @ { } ...) becomes a space, runs of spaces collapse.
 * The result can sit inside a single-quoted gnuplot string. */
static void sanitize(char *dst, const char *src)
{
    size_t n = 0;
    int space = 0;
    const unsigned char *s = (const unsigned char *)(src ? src : "");
    size_t len = strlen((const char *)s);
    for (size_t i = 0; i < len && n < PLOT_TEXT_CAP;) {
        size_t adv = 1;
        int32_t cp = s[i];
        if (s[i] >= 0x80)
            cp = fmuc_report__utf8_decode(s + i, len - i, &adv);
        int ok = adv == 1 ? allowed(s[i])
                          : cp >= 0xA0 && !(cp >= 0xFDD0 && cp <= 0xFDEF) &&
                                (cp & 0xFFFE) != 0xFFFE && cp != 0x2028 && cp != 0x2029;
        if (ok && s[i] != ' ') {
            if (space && n > 0 && n < PLOT_TEXT_CAP)
                dst[n++] = ' ';
            if (n + adv <= PLOT_TEXT_CAP) {
                memcpy(dst + n, s + i, adv);
                n += adv;
            } else {
                break; /* never half a character */
            }
            space = 0;
        } else {
            space = 1;
        }
        i += adv;
    }
    dst[n] = '\0';
}

/* An axis label: "<label> [<unit>]" from the plot's "xlabel"/"xunit" (or "ylabel"/"yunit");
 * "[<unit>]" alone without a label; a label that already ends in "[<unit>]" is kept. */
static void axis_label(char *dst, const cJSON *plot, const char *label_key, const char *unit_key)
{
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(plot, label_key);
    const cJSON *u = cJSON_GetObjectItemCaseSensitive(plot, unit_key);
    const char *label = cJSON_IsString(l) ? l->valuestring : "";
    const char *unit = cJSON_IsString(u) && u->valuestring[0] ? u->valuestring : NULL;
    char buf[2 * PLOT_TEXT_CAP + 8];
    char tail[PLOT_TEXT_CAP + 4];
    if (unit)
        snprintf(tail, sizeof tail, "[%.*s]", PLOT_TEXT_CAP, unit);
    size_t ll = strlen(label), tl = unit ? strlen(tail) : 0;
    if (!unit || (ll >= tl && strcmp(label + ll - tl, tail) == 0))
        snprintf(buf, sizeof buf, "%.*s", 2 * PLOT_TEXT_CAP, label);
    else
        snprintf(buf, sizeof buf, "%.*s%s%s", PLOT_TEXT_CAP, label, ll ? " " : "", tail);
    sanitize(dst, buf);
}

static int read_numbers(const cJSON *arr, darray *out, char *why, size_t whylen, const char *what)
{
    long n = fmuc_evidence_numbers_read(arr, PLOT_MAX_INPUT, &out->v);
    out->n = 0;
    if (n < 0) {
        snprintf(why, whylen, "%s is not an array of at most %d numbers", what, PLOT_MAX_INPUT);
        return -1;
    }
    out->n = (size_t)n;
    return 0;
}

static void plot_data_free(plot_data *p)
{
    free(p->x.v);
    for (size_t i = 0; i < p->nseries; i++)
        free(p->y[i].v);
    free(p->lo.v);
    free(p->hi.v);
}

static int parse_plot(const cJSON *plot, plot_data *p, char *why, size_t whylen)
{
    if (!cJSON_IsObject(plot)) {
        snprintf(why, whylen, "plot is not an object");
        return -1;
    }
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(plot, "title");
    sanitize(p->title, cJSON_IsString(t) ? t->valuestring : "");
    axis_label(p->xlabel, plot, "xlabel", "xunit");
    axis_label(p->ylabel, plot, "ylabel", "yunit");
    p->logy = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(plot, "logy"));

    if (read_numbers(cJSON_GetObjectItemCaseSensitive(plot, "x"), &p->x, why, whylen, "x") < 0)
        return -1;
    if (p->x.n < 1) {
        snprintf(why, whylen, "x has no values");
        return -1;
    }
    const cJSON *series = cJSON_GetObjectItemCaseSensitive(plot, "series");
    if (!cJSON_IsArray(series) || !series->child) {
        snprintf(why, whylen, "no series");
        return -1;
    }
    for (const cJSON *s = series->child; s; s = s->next) {
        if (p->nseries == PLOT_MAX_SERIES)
            break; /* further series are not drawn */
        size_t k = p->nseries;
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(s, "name");
        sanitize(p->name[k], cJSON_IsString(nm) ? nm->valuestring : "");
        if (!p->name[k][0])
            snprintf(p->name[k], sizeof p->name[k], "series %zu", k + 1);
        char what[32];
        snprintf(what, sizeof what, "series %zu y", k + 1);
        if (read_numbers(cJSON_GetObjectItemCaseSensitive(s, "y"), &p->y[k], why, whylen, what) < 0)
            return -1;
        p->nseries++;
        if (p->y[k].n != p->x.n) {
            snprintf(why, whylen, "series %zu has %zu values but x has %zu", k + 1, p->y[k].n, p->x.n);
            return -1;
        }
    }
    const cJSON *band = cJSON_GetObjectItemCaseSensitive(plot, "band");
    if (band && !cJSON_IsNull(band)) {
        if (read_numbers(cJSON_GetObjectItemCaseSensitive(band, "lo"), &p->lo, why, whylen, "band.lo") < 0 ||
            read_numbers(cJSON_GetObjectItemCaseSensitive(band, "hi"), &p->hi, why, whylen, "band.hi") < 0)
            return -1;
        if (p->lo.n != p->x.n || p->hi.n != p->x.n) {
            snprintf(why, whylen, "band has %zu/%zu values but x has %zu", p->lo.n, p->hi.n, p->x.n);
            return -1;
        }
        p->has_band = 1;
    }
    return 0;
}

static void put_num(FILE *f, double v, int logy)
{
    char buf[40];
    if (!isfinite(v) || (logy && v <= 0.0))
        fputs("NaN", f); /* undefined point: gnuplot leaves a gap */
    else
        fputs(fmuc_report__num(buf, sizeof buf, v, 10), f);
}

static void put_row(FILE *f, const plot_data *p, size_t i)
{
    put_num(f, p->x.v[i], 0);
    for (size_t k = 0; k < p->nseries; k++) {
        fputc(' ', f);
        put_num(f, p->y[k].v[i], p->logy);
    }
    if (p->has_band) {
        fputc(' ', f);
        put_num(f, p->lo.v[i], p->logy);
        fputc(' ', f);
        put_num(f, p->hi.v[i], p->logy);
    }
    fputc('\n', f);
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Rows of the data block. Long series are downsampled per bucket keeping the first row and, for every
 * column, the rows of its minimum and maximum, so spikes (a difference plot's point) survive. */
static void write_rows(FILE *f, const plot_data *p)
{
    size_t n = p->x.n;
    if (n <= PLOT_MAX_POINTS) {
        for (size_t i = 0; i < n; i++)
            put_row(f, p, i);
        return;
    }
    size_t cols = p->nseries + (p->has_band ? 2 : 0);
    size_t per = 1 + 2 * cols;
    size_t nb = PLOT_MAX_POINTS / per;
    if (nb < 100)
        nb = 100;
    size_t *idx = malloc(per * sizeof *idx);
    if (!idx) {
        for (size_t i = 0; i < n; i += n / PLOT_MAX_POINTS + 1)
            put_row(f, p, i);
        return;
    }
    size_t last = 0;
    for (size_t b = 0; b < nb; b++) {
        size_t lo = n * b / nb, hi = n * (b + 1) / nb;
        if (hi <= lo)
            continue;
        size_t m = 0;
        idx[m++] = lo;
        for (size_t c = 0; c < cols; c++) {
            const darray *a = c < p->nseries ? &p->y[c] : (c == p->nseries ? &p->lo : &p->hi);
            size_t imin = lo, imax = lo;
            double vmin = INFINITY, vmax = -INFINITY;
            for (size_t i = lo; i < hi; i++) {
                double v = a->v[i];
                if (!isfinite(v))
                    continue;
                if (v < vmin) {
                    vmin = v;
                    imin = i;
                }
                if (v > vmax) {
                    vmax = v;
                    imax = i;
                }
            }
            idx[m++] = imin;
            idx[m++] = imax;
        }
        qsort(idx, m, sizeof *idx, cmp_size);
        for (size_t j = 0; j < m; j++)
            if (j == 0 || idx[j] != idx[j - 1]) {
                put_row(f, p, idx[j]);
                last = idx[j];
            }
    }
    if (last != n - 1)
        put_row(f, p, n - 1);
    free(idx);
}

static char *build_script(const plot_data *p, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    fputs("set terminal svg size 860,420 dynamic noenhanced font 'sans,11' background '#ffffff'\n", f);
    fputs("set output\nset encoding default\nset grid\nset key top right\nset autoscale\n", f);
    if (p->title[0])
        fprintf(f, "set title '%s'\n", p->title);
    if (p->xlabel[0])
        fprintf(f, "set xlabel '%s'\n", p->xlabel);
    if (p->ylabel[0])
        fprintf(f, "set ylabel '%s'\n", p->ylabel);
    if (p->logy)
        fputs("set logscale y\nset format y '%g'\n", f);
    fputs("$fmucdata << EOD\n", f);
    write_rows(f, p);
    fputs("EOD\nplot ", f);
    if (p->has_band)
        fprintf(f, "$fmucdata using 1:%zu:%zu with filledcurves fc rgb '#9ecae1' "
                   "fs transparent solid 0.4 noborder title 'tolerance band', ",
                p->nseries + 2, p->nseries + 3);
    for (size_t k = 0; k < p->nseries; k++)
        fprintf(f, "%s$fmucdata using 1:%zu with lines lw 1.5 title '%s'", k ? ", " : "", k + 2,
                p->name[k]);
    fputs("\nunset output\nexit\n", f);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Grow-and-append for captured output. */
typedef struct {
    char *d;
    size_t n, cap, limit;
    int overflow;
} capbuf;

static int cap_read(int fd, capbuf *b)
{
    char tmp[65536];
    ssize_t k = read(fd, tmp, sizeof tmp);
    if (k < 0)
        return errno == EINTR || errno == EAGAIN ? 1 : -1;
    if (k == 0)
        return 0;
    size_t take = (size_t)k;
    if (b->n + take > b->limit) {
        take = b->limit - b->n;
        b->overflow = 1;
    }
    if (b->n + take + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 65536;
        while (nc < b->n + take + 1)
            nc *= 2;
        char *nd = realloc(b->d, nc);
        if (!nd)
            return -1;
        b->d = nd;
        b->cap = nc;
    }
    memcpy(b->d + b->n, tmp, take);
    b->n += take;
    b->d[b->n] = '\0';
    return 1;
}

static void first_line(char *why, size_t whylen, const char *prefix, const capbuf *err)
{
    const char *s = err->d ? err->d : "";
    /* gnuplot echoes the offending line, then a caret line, then the message: take the last line */
    const char *last = s, *p = s;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l > 0 && strspn(p, " ^\t") < l)
            last = p;
        p += l + (e ? 1 : 0);
    }
    size_t l = strcspn(last, "\n");
    if (l > 160)
        l = 160;
    snprintf(why, whylen, "%s%s%.*s", prefix, l ? ": " : "", (int)l, last);
}

static int run_gnuplot(const char *script, size_t slen, capbuf *out, capbuf *err, char *why,
                       size_t whylen)
{
    int sv[2] = {-1, -1}, po[2] = {-1, -1}, pe[2] = {-1, -1};
    int rc = -1, spawned = 0;
    pid_t pid = -1;
    posix_spawn_file_actions_t fa;
    int fa_init = 0;

    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 || pipe2(po, O_CLOEXEC) != 0 ||
        pipe2(pe, O_CLOEXEC) != 0) {
        snprintf(why, whylen, "cannot create pipes: %s", strerror(errno));
        goto out;
    }
    if (posix_spawn_file_actions_init(&fa) != 0)
        goto out;
    fa_init = 1;
    posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    char *argv[] = {(char *)FMUC_GNUPLOT, (char *)"-d", NULL};
    char *envp[] = {(char *)"LC_ALL=C", (char *)"PATH=/usr/bin:/bin", (char *)"HOME=/nonexistent",
                    NULL};
    int e = posix_spawn(&pid, FMUC_GNUPLOT, &fa, NULL, argv, envp);
    if (e != 0) {
        snprintf(why, whylen, "cannot run %s: %s", FMUC_GNUPLOT, strerror(e));
        goto out;
    }
    spawned = 1;
    close(sv[1]);
    close(po[1]);
    close(pe[1]);
    sv[1] = po[1] = pe[1] = -1;
    fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);

    size_t sent = 0;
    double deadline = now_s() + PLOT_TIMEOUT_S;
    int out_open = 1, err_open = 1;
    while (out_open || err_open) {
        struct pollfd fds[3];
        int nf = 0, iin = -1, iout = -1, ierr = -1;
        if (sv[0] >= 0) {
            fds[nf] = (struct pollfd){.fd = sv[0], .events = POLLOUT};
            iin = nf++;
        }
        if (out_open) {
            fds[nf] = (struct pollfd){.fd = po[0], .events = POLLIN};
            iout = nf++;
        }
        if (err_open) {
            fds[nf] = (struct pollfd){.fd = pe[0], .events = POLLIN};
            ierr = nf++;
        }
        double left = deadline - now_s();
        if (left <= 0) {
            snprintf(why, whylen, "gnuplot timed out after %.0f s", PLOT_TIMEOUT_S);
            goto out;
        }
        int pr = poll(fds, (nfds_t)nf, (int)(left * 1000.0) + 1);
        if (pr < 0) {
            if (errno == EINTR)
                continue;
            snprintf(why, whylen, "poll: %s", strerror(errno));
            goto out;
        }
        if (iin >= 0 && fds[iin].revents) {
            ssize_t k = -1;
            if (fds[iin].revents & POLLOUT)
                k = send(sv[0], script + sent, slen - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (k > 0)
                sent += (size_t)k;
            if ((k < 0 && errno != EAGAIN && errno != EINTR) || sent == slen) {
                close(sv[0]); /* EOF for gnuplot (or it has gone away) */
                sv[0] = -1;
            }
        }
        if (iout >= 0 && fds[iout].revents) {
            int r = cap_read(po[0], out);
            if (r <= 0)
                out_open = 0;
        }
        if (ierr >= 0 && fds[ierr].revents) {
            int r = cap_read(pe[0], err);
            if (r <= 0)
                err_open = 0;
        }
    }
    int st = 0;
    for (;;) { /* output closed: gnuplot should be exiting; still bounded by the deadline */
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            snprintf(why, whylen, "waitpid: %s", strerror(errno));
            goto out;
        }
        if (now_s() > deadline) {
            snprintf(why, whylen, "gnuplot timed out after %.0f s", PLOT_TIMEOUT_S);
            goto out;
        }
        struct timespec ts = {0, 2 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    spawned = 0;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        first_line(why, whylen, "gnuplot failed", err);
        goto out;
    }
    if (out->overflow) {
        snprintf(why, whylen, "gnuplot output exceeds %u bytes", PLOT_SVG_CAP);
        goto out;
    }
    rc = 0;
out:
    if (spawned) {
        kill(pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (fa_init)
        posix_spawn_file_actions_destroy(&fa);
    for (int i = 0; i < 2; i++) {
        if (sv[i] >= 0)
            close(sv[i]);
        if (po[i] >= 0)
            close(po[i]);
        if (pe[i] >= 0)
            close(pe[i]);
    }
    return rc;
}

/* Remove the first <tag>...</tag> element (gnuplot's <title>Gnuplot</title>, <desc>). */
static void drop_element(char *s, const char *tag)
{
    char open[16], close_[16];
    snprintf(open, sizeof open, "<%s>", tag);
    snprintf(close_, sizeof close_, "</%s>", tag);
    char *a = strstr(s, open);
    if (!a)
        return;
    char *b = strstr(a, close_);
    if (!b)
        return;
    b += strlen(close_);
    memmove(a, b, strlen(b) + 1);
}

/* The fragment for the page: from <svg to </svg>, gnuplot's title/desc dropped, ids and references
 * (id=, href="#, url(#) prefixed so several plots can share one document. */
static char *rewrite_svg(char *raw, const char *prefix, const char *label)
{
    char *start = strstr(raw, "<svg");
    char *end = start ? strstr(start, "</svg>") : NULL;
    if (!start || !end)
        return NULL;
    end[strlen("</svg>")] = '\0';
    drop_element(start, "title");
    drop_element(start, "desc");

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    fputs("<svg class=\"plot\" role=\"img\"", f);
    if (label[0])
        fprintf(f, " aria-label=\"%s\"", label); /* whitelisted characters only */
    const char *p = start + 4;
    while (*p) {
        int ws = p > start && (p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\t');
        if (ws && (strncmp(p, "id=\"", 4) == 0 || strncmp(p, "id='", 4) == 0)) {
            fwrite(p, 1, 4, f);
            fputs(prefix, f);
            p += 4;
        } else if (strncmp(p, "href=\"#", 7) == 0 || strncmp(p, "href='#", 7) == 0) {
            fwrite(p, 1, 7, f);
            fputs(prefix, f);
            p += 7;
        } else if (strncmp(p, "url(#", 5) == 0) {
            fwrite(p, 1, 5, f);
            fputs(prefix, f);
            p += 5;
        } else {
            fputc(*p++, f);
        }
    }
    fputc('\n', f);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

fmuc_err fmuc_plot__svg(const cJSON *plot, const char *id_prefix, char **svg, char *why,
                        size_t whylen)
{
    fmuc_err err = FMUC_ERROR;
    plot_data *p = calloc(1, sizeof *p);
    char *script = NULL;
    capbuf out = {.limit = PLOT_SVG_CAP}, errb = {.limit = 4096};
    size_t slen = 0;

    *svg = NULL;
    if (whylen)
        why[0] = '\0';
    if (!p) {
        snprintf(why, whylen, "out of memory");
        return FMUC_ENOMEM;
    }
    if (parse_plot(plot, p, why, whylen) < 0)
        goto out;
    script = build_script(p, &slen);
    if (!script) {
        snprintf(why, whylen, "out of memory");
        err = FMUC_ENOMEM;
        goto out;
    }
    if (run_gnuplot(script, slen, &out, &errb, why, whylen) < 0)
        goto out;
    *svg = out.d ? rewrite_svg(out.d, id_prefix ? id_prefix : "", p->title) : NULL;
    if (!*svg) {
        snprintf(why, whylen, "gnuplot produced no SVG");
        goto out;
    }
    err = FMUC_OK;
out:
    if (p)
        plot_data_free(p);
    free(p);
    free(script);
    free(out.d);
    free(errb.d);
    return err;
}
