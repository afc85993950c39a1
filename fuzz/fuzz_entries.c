/* Fuzzing entry points (see fuzz_entries.h). Compiled into each fuzz target, and #included by
 * tests/unit/test_fuzz_regressions.c so that the normal build replays the same code paths. */
#include "fuzz_entries.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../checks/check.h"
#include "../harness/src/worker_internal.h"
#include "fmuc/fmuc_fmu.h"
#include "fmuc/fmuc_md.h"
#include "fmuc/fmuc_worker.h"

int fmuc_fuzz_archive(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fmuc-fuzz-archive", MFD_CLOEXEC);
    if (fd < 0)
        return 0;
    size_t off = 0;
    while (off < size) {
        ssize_t w = write(fd, data + off, size - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    /* small caps so a bomb is found in microseconds, not seconds */
    fmuc_fmu_limits lim = {.max_file_bytes = 4u << 20,
                           .max_entries = 256,
                           .max_entry_bytes = 2u << 20,
                           .max_total_bytes = 4u << 20,
                           .max_ratio = 100,
                           .max_xml_bytes = 1u << 20};
    fmuc_fmu fmu;
    fmuc_diag diag = {{0}, FMUC_OK};
    fmuc_err err = fmuc_fmu_open(&fmu, path, &lim, NULL, &diag);
    (void)err;
    /* the listing must be self-consistent whatever the verdict */
    for (size_t i = 0; i < fmu.listing.nentries; i++)
        if (!fmu.listing.entries[i].name)
            abort();
    fmuc_fmu_close(&fmu);
    close(fd);
    return 0;
}

int fmuc_fuzz_md(const uint8_t *data, size_t size)
{
    /* an exact-size copy: any read past the end is an ASan report */
    char *xml = malloc(size ? size : 1);
    if (!xml)
        return 0;
    if (size)
        memcpy(xml, data, size);
    fmuc_fmu fmu;
    memset(&fmu, 0, sizeof fmu);
    fmuc_err err = fmuc_md_parse(&fmu.md, xml, size, NULL);
    if (err == FMUC_OK) {
        char path[] = "fuzz.fmu", platform[] = "linux64";
        fmu.path = path;
        fmu.file_name = path;
        fmu.platform = platform;
        fmu.has_md_file = 1;
        fmu.md_parsed = 1;
        fmuc_options opts;
        fmuc_options_init(&opts);
        fmuc_subject subj = {.fmu = &fmu, .opts = &opts};
        for (size_t i = 0; fmuc_checks[i]; i++) {
            const fmuc_check *c = fmuc_checks[i];
            if (c->needs & (FMUC_NEEDS_BINARY | FMUC_NEEDS_SANDBOX))
                continue; /* those load the FMU in a worker: nothing to load here */
            fmuc_result res;
            fmuc_result_init(&res, c->id, c->title, c->spec, c->level);
            c->run(&subj, &res);
            fmuc_result_clear(&res);
        }
    }
    fmuc_md_free(&fmu.md);
    free(xml);
    return 0;
}

int fmuc_fuzz_reply(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const char *rest = (const char *)data + 1;
    size_t n = size - 1;
    fmuc_worker_outcome out;
    memset(&out, 0, sizeof out);
    if ((data[0] & 1) == 0) {
        /* exact-size copy (NULL when empty, as the parent's sink can be) */
        char *buf = n ? malloc(n) : NULL;
        if (n && !buf)
            return 0;
        if (n)
            memcpy(buf, rest, n);
        fmuc_worker__decode_reply(buf, n, (data[0] & 2) ? 64 : 16u << 20, &out);
        if (out.end == FMUC_WORKER_OK && !cJSON_IsObject(out.reply))
            abort();
        free(buf);
    } else {
        /* the region a crashed worker leaves behind: anything, with the magic intact */
        fmuc_w_shared *sh = calloc(1, sizeof *sh);
        if (!sh)
            return 0;
        size_t k = n < sizeof *sh ? n : sizeof *sh;
        memcpy(sh, rest, k);
        /* the same bytes also over the log, so log decoding sees garbage too */
        size_t lk = n < sizeof sh->log ? n : sizeof sh->log;
        if (data[0] & 2)
            memcpy(sh->log, rest, lk);
        /* and over the sandbox record (achieved isolation, recorded attempts) */
        size_t sk = n < sizeof sh->sandbox ? n : sizeof sh->sandbox;
        if (data[0] & 4)
            memcpy(&sh->sandbox, rest, sk);
        sh->magic = FMUC_W_MAGIC;
        fmuc_trace__decode(sh, &out);
        fmuc_sandbox__decode(&sh->sandbox, &out);
        free(sh);
    }
    fmuc_worker_outcome_free(&out);
    return 0;
}
