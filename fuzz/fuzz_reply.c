/* libFuzzer target: see fmuc_fuzz_reply in fuzz_entries.h. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_entries.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fmuc_fuzz_reply(data, size);
}
