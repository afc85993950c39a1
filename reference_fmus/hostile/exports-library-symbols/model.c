/* hostile exports-library-symbols: the FMU library exports its own, incompatible definitions of
 * symbols that also exist in fmucheck's libraries (SUNDIALS CVODE, libxml2, libzip, cJSON,
 * OpenSSL, zlib, ICU), as Dymola FMUs export their CVode* (issue 16, cause 1). Its model hooks
 * call them through the PLT (interposable), check that they got their own definitions, log
 * which ones were bound elsewhere and return fmi2Error. A loader that puts the library in a
 * symbol scope with fmucheck's libraries fails every check; an isolated one passes them all.
 * version.map exports these names beside fmi2*. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../hostile_smd.h"

#define MAGIC 4242
/* exported and interposable (the FMU is compiled with -fvisibility=hidden, -fPIC) */
#define OWN __attribute__((visibility("default")))

/* Own definitions, deliberately incompatible with the libraries' (signatures and results). */
OWN int CVodeGetNumSteps(void *cvode_mem, long *nsteps);
OWN int xmlStrlen(const unsigned char *s);
OWN const char *zip_libzip_version(void);
OWN const char *cJSON_Version(void);
OWN unsigned char *SHA256(const unsigned char *d, size_t n, unsigned char *md);
OWN int inflateEnd(void *strm);
OWN int32_t u_strlen_72(const uint16_t *s);
OWN void u_init_72(int *status);

int CVodeGetNumSteps(void *cvode_mem, long *nsteps)
{
    (void)cvode_mem;
    if (nsteps)
        *nsteps = MAGIC;
    return MAGIC;
}

int xmlStrlen(const unsigned char *s)
{
    (void)s;
    return -MAGIC;
}

const char *zip_libzip_version(void)
{
    return "fmuc-hostile-zip";
}

const char *cJSON_Version(void)
{
    return "fmuc-hostile-cjson";
}

unsigned char *SHA256(const unsigned char *d, size_t n, unsigned char *md)
{
    (void)d;
    (void)n;
    memset(md, 0x5a, 32);
    return md;
}

int inflateEnd(void *strm)
{
    (void)strm;
    return MAGIC;
}

int32_t u_strlen_72(const uint16_t *s)
{
    (void)s;
    return -MAGIC;
}

void u_init_72(int *status)
{
    *status = MAGIC;
}

/* Every call with arguments the foreign definitions handle without crashing; the names of those
 * bound to another library's definition are written to foreign ("" when all eight are ours). */
static void foreign_bindings(char *foreign, size_t n)
{
    static const unsigned char text[] = "ab";
    static const uint16_t utext[] = {'a', 'b', 0};
    unsigned char md[64];
    long steps = 0;
    int status = 0;
    size_t len = 0;
    int bad[8];
    static const char *const names[8] = {"CVodeGetNumSteps", "xmlStrlen", "zip_libzip_version",
                                         "cJSON_Version", "SHA256", "inflateEnd", "u_strlen_72",
                                         "u_init_72"};
    memset(md, 0, sizeof md);
    bad[0] = CVodeGetNumSteps(NULL, &steps) != MAGIC || steps != MAGIC;
    bad[1] = xmlStrlen(text) != -MAGIC;
    bad[2] = strcmp(zip_libzip_version(), "fmuc-hostile-zip") != 0;
    bad[3] = strcmp(cJSON_Version(), "fmuc-hostile-cjson") != 0;
    bad[4] = SHA256(text, 2, md) != md || md[0] != 0x5a || md[31] != 0x5a;
    bad[5] = inflateEnd(NULL) != MAGIC;
    bad[6] = u_strlen_72(utext) != -MAGIC;
    u_init_72(&status);
    bad[7] = status != MAGIC;
    foreign[0] = '\0';
    for (int i = 0; i < 8; i++)
        if (bad[i] && len + 1 < n)
            len += (size_t)snprintf(foreign + len, n - len, "%s%s", len ? ", " : "", names[i]);
}

static fmi2Status probe(fmuc_m_ctx *c, const char *where)
{
    char foreign[256];
    foreign_bindings(foreign, sizeof foreign);
    if (!foreign[0])
        return fmi2OK;
    fmuc_m_log(c, fmi2Error, NULL, "%s: the FMU's own %s bound to other libraries' definitions",
               where, foreign);
    return fmi2Error;
}

static fmi2Status own_start(fmuc_m_ctx *c, void *data)
{
    (void)data;
    return probe(c, "fmi2Instantiate");
}

static fmi2Status own_enter_init(fmuc_m_ctx *c, void *data)
{
    (void)data;
    return probe(c, "fmi2EnterInitializationMode");
}

static fmi2Status own_calc(fmuc_m_ctx *c, void *data)
{
    fmi2Status st = probe(c, "calculation");
    return st != fmi2OK ? st : calc(c, data);
}

const fmuc_m_desc fmuc_model = {
    SMD_DESC_BASE,
    .description = "SpringMassDamper exporting its own CVode*, xml*, zip_*, cJSON_*, SHA256, "
                   "inflate* and ICU symbols (fixture)",
    .caps = SMD_CAPS,
    .data_size = sizeof(smd),
    .cs_h_max = 1e-3,
    .start = own_start,
    .enter_init = own_enter_init,
    .calc = own_calc,
    .dir_deriv = dir_deriv,
};
