/* hostile ctor-crash: an ELF constructor that raises SIGSEGV when the library is loaded
 * (robustness B03). Not in the build's own mdgen tool, which links the same sources. */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "../hostile_smd.h"

__attribute__((constructor)) static void crash_at_load(void)
{
    if (strncmp(program_invocation_short_name, "mdgen", 5) != 0)
        raise(SIGSEGV);
}

FMUC_HOSTILE_SMD(.start = NULL);
