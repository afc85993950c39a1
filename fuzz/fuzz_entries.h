/* Fuzzing entry points shared by the libFuzzer targets (fuzz_*.c) and the regression test
 * (tests/unit/test_fuzz_regressions.c, which replays the files in fuzz/regressions/<target>/ through them).
 * Each returns 0; a bug shows up as a crash or a sanitizer report. */
#ifndef FMUC_FUZZ_ENTRIES_H
#define FMUC_FUZZ_ENTRIES_H

#include <stddef.h>
#include <stdint.h>

/** Bytes -> memfd -> fmuc_fmu_open (small limits, private temp dir) -> fmuc_fmu_close. */
int fmuc_fuzz_archive(const uint8_t *data, size_t size);
/** Bytes -> fmuc_md_parse -> every static check of the registry (XML/archive needs only) on a
 *  zeroed fmu carrying the parsed model. */
int fmuc_fuzz_md(const uint8_t *data, size_t size);
/** First byte selects: even -> the worker reply-frame decoder on the rest; odd -> the shared
 *  region decoder (fmuc_trace__decode) on a region overlaid with the rest. */
int fmuc_fuzz_reply(const uint8_t *data, size_t size);

#endif
