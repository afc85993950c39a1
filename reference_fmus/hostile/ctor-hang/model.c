/* hostile ctor-hang: an ELF constructor that never returns when the library is loaded (robustness
 * B03, a hang instead of a crash). Not in the build's own mdgen tool, which links the same
 * sources. */
#include <errno.h>
#include <string.h>

#include "../hostile_smd.h"

__attribute__((constructor)) static void hang_at_load(void)
{
    if (strncmp(program_invocation_short_name, "mdgen", 5) != 0)
        for (volatile int spin = 1; spin;) {
        }
}

FMUC_HOSTILE_SMD(.start = NULL);
