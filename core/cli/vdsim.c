/* vdsim: run the VDSim core natively and write time plus all outputs as CSV (%.17g).
 *
 *   vdsim --level l2|l3 --vehicle F --tire F [--kinematics-dir D]
 *         (--scenario step-steer|sine-steer|braking|coast-down | --commands cmd.csv)
 *         [--dt 0.01] [--t-end 10] [--set name=value]... [-o out.csv]
 *
 * Exit codes: 0 success, 1 runtime or configuration error, 2 usage error. */
#include "vd/vd.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_USAGE 2

typedef enum { SC_NONE, SC_STEP_STEER, SC_SINE_STEER, SC_BRAKING, SC_COAST_DOWN } scenario;

typedef struct cmd_row {
    double t;
    vd_cmd u;
} cmd_row;

typedef struct cmd_table {
    cmd_row *rows;
    size_t n;
} cmd_table;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vdsim --level l2|l3 --vehicle vehicle.json --tire tire.json\n"
            "             [--kinematics-dir DIR]   (L3: DIR/front.csv and DIR/rear.csv)\n"
            "             (--scenario step-steer|sine-steer|braking|coast-down |\n"
            "              --commands cmd.csv)     (columns time,steer,throttle,brake; held)\n"
            "             [--dt 0.01] [--t-end 10] [--set NAME=VALUE]... [-o out.csv]\n"
            "Tunable NAMEs:");
    for (const char *const *n = vd_param_names(); *n; n++)
        fprintf(f, " %s", *n);
    fprintf(f, "\n");
}

/* Locale-independent number with full-string check. */
static int parse_num(const char *s, double *out)
{
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (c == (locale_t)0)
        return -1;
    char *end = NULL;
    errno = 0;
    double v = strtod_l(s, &end, c);
    freelocale(c);
    if (end == s || errno == ERANGE || !isfinite(v))
        return -1;
    while (*end == ' ' || *end == '\t' || *end == '\r')
        end++;
    if (*end != '\0')
        return -1;
    *out = v;
    return 0;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

static int load_commands(cmd_table *tab, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "vdsim: %s: cannot open: %s\n", path, strerror(errno));
        return -1;
    }
    char line[1024];
    int lineno = 0, header = 0, rc = 0;
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *l = trim(line);
        if (*l == '\0' || *l == '#')
            continue;
        if (!header) {
            if (strncmp(l, "time", 4) != 0) {
                fprintf(stderr, "vdsim: %s: line %d: header must be 'time,steer,throttle,brake'\n",
                        path, lineno);
                rc = -1;
                break;
            }
            header = 1;
            continue;
        }
        double v[4];
        char *save = l;
        int k = 0;
        for (; k < 4; k++) {
            char *c = strchr(save, ',');
            if (c)
                *c = '\0';
            if (parse_num(trim(save), &v[k]) != 0) {
                fprintf(stderr, "vdsim: %s: line %d: column %d: '%s' is not a number\n", path,
                        lineno, k + 1, trim(save));
                rc = -1;
                break;
            }
            if (!c) {
                k++;
                break;
            }
            save = c + 1;
        }
        if (rc < 0)
            break;
        if (k != 4 || strchr(save, ',') != NULL) {
            fprintf(stderr, "vdsim: %s: line %d: expected 4 columns (time,steer,throttle,brake)\n",
                    path, lineno);
            rc = -1;
            break;
        }
        if (tab->n > 0 && !(v[0] > tab->rows[tab->n - 1].t)) {
            fprintf(stderr, "vdsim: %s: line %d: time must be strictly increasing\n", path, lineno);
            rc = -1;
            break;
        }
        if (tab->n == cap) {
            size_t nc = cap ? 2 * cap : 256;
            cmd_row *nr = realloc(tab->rows, nc * sizeof *nr);
            if (!nr) {
                fprintf(stderr, "vdsim: out of memory\n");
                rc = -1;
                break;
            }
            tab->rows = nr;
            cap = nc;
        }
        tab->rows[tab->n].t = v[0];
        tab->rows[tab->n].u.steer = v[1];
        tab->rows[tab->n].u.throttle = v[2];
        tab->rows[tab->n].u.brake = v[3];
        tab->n++;
    }
    fclose(f);
    if (rc == 0 && tab->n == 0) {
        fprintf(stderr, "vdsim: %s: no command rows\n", path);
        rc = -1;
    }
    return rc;
}

/* Zero-order hold: the last row with time <= t (rows before the first time use the first). */
static vd_cmd command_at(const cmd_table *tab, scenario sc, double t)
{
    vd_cmd u = {0, 0, 0};
    switch (sc) {
    case SC_STEP_STEER:
        u.steer = t >= 1.0 ? 0.02 : 0.0;
        break;
    case SC_SINE_STEER:
        u.steer = 0.03 * sin(2.0 * 3.14159265358979323846 * 0.5 * t);
        break;
    case SC_BRAKING:
        u.brake = t >= 1.0 ? 0.8 : 0.0;
        break;
    case SC_COAST_DOWN:
        break;
    case SC_NONE: {
        size_t lo = 0;
        const double eps = 1e-9;
        while (lo + 1 < tab->n && tab->rows[lo + 1].t <= t + eps)
            lo++;
        u = tab->rows[lo].u;
        break;
    }
    }
    return u;
}

static void write_header(FILE *o)
{
    fprintf(o, "time,x,y,yaw,vx,vy,yaw_rate,ax,ay,roll,pitch,"
               "susp_comp_FL,susp_comp_FR,susp_comp_RL,susp_comp_RR,"
               "Fz_FL,Fz_FR,Fz_RL,Fz_RR\n");
}

static void write_row(FILE *o, double t, const vd_out *y)
{
    fprintf(o, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g", t, y->x, y->y,
            y->yaw, y->vx, y->vy, y->yaw_rate, y->ax, y->ay, y->roll, y->pitch);
    for (int i = 0; i < 4; i++)
        fprintf(o, ",%.17g", y->susp_comp[i]);
    for (int i = 0; i < 4; i++)
        fprintf(o, ",%.17g", y->fz[i]);
    fprintf(o, "\n");
}

int main(int argc, char **argv)
{
    const char *level_s = NULL, *veh = NULL, *tire = NULL, *kdir = NULL, *scen_s = NULL,
               *cmds = NULL, *outp = NULL;
    const char *sets[64];
    int nsets = 0;
    double dt = 0.01, t_end = 10.0;
    int rc = 1;
    vd_params *p = NULL;
    vd_model *m = NULL;
    cmd_table tab = {NULL, 0};
    FILE *o = NULL;
    vd_error err = {{0}};

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        double *num = NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--level") == 0)
            slot = &level_s;
        else if (strcmp(a, "--vehicle") == 0)
            slot = &veh;
        else if (strcmp(a, "--tire") == 0)
            slot = &tire;
        else if (strcmp(a, "--kinematics-dir") == 0)
            slot = &kdir;
        else if (strcmp(a, "--scenario") == 0)
            slot = &scen_s;
        else if (strcmp(a, "--commands") == 0)
            slot = &cmds;
        else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)
            slot = &outp;
        else if (strcmp(a, "--dt") == 0)
            num = &dt;
        else if (strcmp(a, "--t-end") == 0)
            num = &t_end;
        else if (strcmp(a, "--set") == 0) {
            if (i + 1 >= argc || nsets >= 64) {
                fprintf(stderr, "vdsim: --set needs NAME=VALUE\n");
                return EXIT_USAGE;
            }
            sets[nsets++] = argv[++i];
            continue;
        } else {
            fprintf(stderr, "vdsim: unknown option '%s'\n", a);
            usage(stderr);
            return EXIT_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "vdsim: option '%s' needs a value\n", a);
            return EXIT_USAGE;
        }
        const char *v = argv[++i];
        if (slot) {
            *slot = v;
        } else if (parse_num(v, num) != 0) {
            fprintf(stderr, "vdsim: option '%s': '%s' is not a number\n", a, v);
            return EXIT_USAGE;
        }
    }
    vd_level level;
    if (!level_s || (strcmp(level_s, "l2") != 0 && strcmp(level_s, "l3") != 0)) {
        fprintf(stderr, "vdsim: --level must be l2 or l3\n");
        usage(stderr);
        return EXIT_USAGE;
    }
    level = strcmp(level_s, "l2") == 0 ? VD_L2 : VD_L3;
    if (!veh || !tire) {
        fprintf(stderr, "vdsim: --vehicle and --tire are required\n");
        return EXIT_USAGE;
    }
    if ((scen_s != NULL) == (cmds != NULL)) {
        fprintf(stderr, "vdsim: give exactly one of --scenario and --commands\n");
        return EXIT_USAGE;
    }
    scenario sc = SC_NONE;
    if (scen_s) {
        if (strcmp(scen_s, "step-steer") == 0)
            sc = SC_STEP_STEER;
        else if (strcmp(scen_s, "sine-steer") == 0)
            sc = SC_SINE_STEER;
        else if (strcmp(scen_s, "braking") == 0)
            sc = SC_BRAKING;
        else if (strcmp(scen_s, "coast-down") == 0)
            sc = SC_COAST_DOWN;
        else {
            fprintf(stderr, "vdsim: unknown scenario '%s' (step-steer, sine-steer, braking, "
                            "coast-down)\n", scen_s);
            return EXIT_USAGE;
        }
    }
    if (!(dt > 0.0) || !(t_end >= 0.0) || t_end / dt > 1e9) {
        fprintf(stderr, "vdsim: need --dt > 0 and --t-end >= 0 (at most 1e9 steps)\n");
        return EXIT_USAGE;
    }
    if (kdir && level != VD_L3) {
        fprintf(stderr, "vdsim: --kinematics-dir applies to --level l3 only\n");
        return EXIT_USAGE;
    }

    if (vd_params_load(&p, veh, tire, &err) != VD_OK) {
        fprintf(stderr, "vdsim: %s\n", err.msg);
        goto out;
    }
    if (kdir) {
        char fp[4096], rp[4096];
        snprintf(fp, sizeof fp, "%s/front.csv", kdir);
        snprintf(rp, sizeof rp, "%s/rear.csv", kdir);
        if (vd_params_load_kinematics(p, fp, rp, &err) != VD_OK) {
            fprintf(stderr, "vdsim: %s\n", err.msg);
            goto out;
        }
    }
    for (int i = 0; i < nsets; i++) {
        char name[128];
        const char *eq = strchr(sets[i], '=');
        double v;
        if (!eq || (size_t)(eq - sets[i]) >= sizeof name || parse_num(eq + 1, &v) != 0) {
            fprintf(stderr, "vdsim: --set '%s': expected NAME=VALUE\n", sets[i]);
            rc = EXIT_USAGE;
            goto out;
        }
        memcpy(name, sets[i], (size_t)(eq - sets[i]));
        name[eq - sets[i]] = '\0';
        if (vd_param_set(p, name, v, &err) != VD_OK) {
            fprintf(stderr, "vdsim: --set: %s\n", err.msg);
            rc = EXIT_USAGE;
            goto out;
        }
    }
    if (cmds && load_commands(&tab, cmds) != 0)
        goto out;
    if (vd_create(&m, level, p, &err) != VD_OK) {
        fprintf(stderr, "vdsim: %s\n", err.msg);
        goto out;
    }
    o = outp ? fopen(outp, "w") : stdout;
    if (!o) {
        fprintf(stderr, "vdsim: %s: cannot create: %s\n", outp, strerror(errno));
        goto out;
    }
    long long nsteps = llround(t_end / dt);
    write_header(o);
    vd_cmd u0 = command_at(&tab, sc, 0.0);
    vd_set_cmd(m, &u0);
    vd_out y;
    vd_outputs(m, &y);
    write_row(o, 0.0, &y);
    for (long long k = 0; k < nsteps; k++) {
        double t = (double)k * dt;
        vd_cmd u = command_at(&tab, sc, t);
        if (vd_step(m, dt, &u) != VD_OK) {
            fprintf(stderr, "vdsim: step %lld at t = %.17g failed (invalid command or dt)\n", k, t);
            goto out;
        }
        vd_outputs(m, &y);
        write_row(o, (double)(k + 1) * dt, &y);
    }
    if (fflush(o) != 0 || ferror(o)) {
        fprintf(stderr, "vdsim: %s: write error\n", outp ? outp : "stdout");
        goto out;
    }
    rc = 0;
out:
    if (o && o != stdout && fclose(o) != 0 && rc == 0) {
        fprintf(stderr, "vdsim: %s: write error\n", outp);
        rc = 1;
    }
    free(tab.rows);
    vd_destroy(m);
    vd_params_free(p);
    return rc;
}
