/* hostile huge-alloc: fmi2Instantiate asks allocateMemory for 64 GiB (robustness B09/B16: the
 * worker's allocator refuses it under its limits; the FMU copes with NULL and goes on). A raw
 * malloc of that size is left out: under AddressSanitizer (no RLIMIT_AS) it may abort. */
#include <stdint.h>

#include "../hostile_smd.h"

static fmi2Status grab(fmuc_m_ctx *c, void *data)
{
    (void)data;
    void *p = fmuc_m_alloc(c, 64, (size_t)1 << 30);
    if (!p) {
        fmuc_m_log(c, fmi2Warning, NULL, "64 GiB scratch buffer not available; continuing");
        return fmi2OK;
    }
    fmuc_m_free(c, p);
    return fmi2OK;
}

FMUC_HOSTILE_SMD(.start = grab);
