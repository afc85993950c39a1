/* Replays every file in fuzz/regressions/<target>/ through the fuzz entry points (the same code
 * the libFuzzer targets run, compiled into this test from fuzz/fuzz_entries.c), so that the
 * normal and the ASan+UBSan builds catch a regression without clang or libFuzzer. Plus direct
 * assertions on the worker reply decoder for the inputs that found its bugs. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../fuzz/fuzz_entries.c"
#include "fmuc_test_util.h"

#define REG_DIR FMUC_SOURCE_DIR "/fuzz/regressions"

static size_t replay_dir(const char *sub, int (*entry)(const uint8_t *, size_t))
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", REG_DIR, sub);
    DIR *d = opendir(dir);
    cr_assert(d, "no %s", dir);
    struct dirent *de;
    size_t n = 0;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char p[2048];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        size_t len = 0;
        char *buf = fmuc_test_read_file(p, &len);
        cr_assert(buf, "read %s", p);
        cr_expect_eq(entry((const uint8_t *)buf, len), 0, "%s", p);
        free(buf);
        n++;
    }
    closedir(d);
    return n;
}

Test(fuzz_regressions, archive_inputs_replay_cleanly, .timeout = 120)
{
    char *tmp = fmuc_test_mkdtemp("fuzzreg");
    setenv("TMPDIR", tmp, 1); /* fmuc_fmu_open's private folders */
    cr_expect(replay_dir("archive", fmuc_fuzz_archive) > 0);
    cr_expect_eq(fmuc_test_count_entries(tmp), 0, "temporary folders left behind");
    fmuc_test_rm_rf(tmp);
    free(tmp);
}

Test(fuzz_regressions, md_inputs_replay_cleanly, .timeout = 120)
{
    cr_expect(replay_dir("md", fmuc_fuzz_md) > 0);
}

Test(fuzz_regressions, reply_inputs_replay_cleanly, .timeout = 120)
{
    cr_expect(replay_dir("reply", fmuc_fuzz_reply) > 0);
}

/* A reply frame around body. */
static char *frame(const char *body, size_t *len)
{
    char *s = NULL;
    int n = asprintf(&s, "FMUCRPL1 %016zx\n%s\nFMUCEND1\n", strlen(body), body);
    cr_assert(n > 0);
    *len = (size_t)n;
    return s;
}

static fmuc_worker_end decode(const char *buf, size_t len, int *fn_status)
{
    fmuc_worker_outcome o;
    memset(&o, 0, sizeof o);
    fmuc_worker__decode_reply(buf, len, 1u << 20, &o);
    fmuc_worker_end e = o.end;
    if (fn_status)
        *fn_status = o.fn_status;
    if (e == FMUC_WORKER_OK)
        cr_expect(cJSON_IsObject(o.reply));
    else
        cr_expect(o.detail && *o.detail, "a protocol error says why");
    fmuc_worker_outcome_free(&o);
    return e;
}

Test(fuzz_regressions, reply_decoder_accepts_exactly_the_protocol)
{
    size_t n;
    int st = 0;
    char *f = frame("{\"fn_status\":7,\"reply\":{\"a\":1}}", &n);
    cr_expect_eq(decode(f, n, &st), FMUC_WORKER_OK);
    cr_expect_eq(st, 7);
    cr_expect_eq(decode(f, n - 1, NULL), FMUC_WORKER_PROTOCOL, "end marker cut");
    cr_expect_eq(decode(f, 5, NULL), FMUC_WORKER_PROTOCOL, "header cut");
    cr_expect_eq(decode(NULL, 0, NULL), FMUC_WORKER_PROTOCOL, "nothing sent");
    free(f);
    /* fn_status out of int range: (int) of it was undefined behaviour (UBSan float-cast) */
    const char *bad_status[] = {"{\"fn_status\":1e300,\"reply\":{}}",
                                "{\"fn_status\":-2147483649,\"reply\":{}}",
                                "{\"fn_status\":2147483648,\"reply\":{}}",
                                "{\"fn_status\":0.5,\"reply\":{}}",
                                "{\"fn_status\":0,\"reply\":[]}"};
    for (size_t i = 0; i < sizeof bad_status / sizeof bad_status[0]; i++) {
        f = frame(bad_status[i], &n);
        cr_expect_eq(decode(f, n, NULL), FMUC_WORKER_PROTOCOL, "%s", bad_status[i]);
        free(f);
    }
    f = frame("{\"fn_status\":-2147483648,\"reply\":{}}", &n);
    cr_expect_eq(decode(f, n, &st), FMUC_WORKER_OK);
    cr_expect_eq(st, INT32_MIN);
    free(f);
    /* the length field: exactly 16 hex digits (strtoull alone also took "0x", blanks, signs) */
    const char *bad_len[] = {"FMUCRPL1 0x00000000000002\n{}\nFMUCEND1\n",
                             "FMUCRPL1 \t000000000000002\n{}\nFMUCEND1\n",
                             "FMUCRPL1 +000000000000002\n{}\nFMUCEND1\n",
                             "FMUCRPL1 ffffffffffffffff\n"};
    for (size_t i = 0; i < sizeof bad_len / sizeof bad_len[0]; i++)
        cr_expect_eq(decode(bad_len[i], strlen(bad_len[i]), NULL), FMUC_WORKER_PROTOCOL, "case %zu", i);
    const char nul_len[] = "FMUCRPL1 2\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\n{}\nFMUCEND1\n";
    cr_expect_eq(decode(nul_len, sizeof nul_len - 1, NULL), FMUC_WORKER_PROTOCOL, "NULs in the length");
}

/* The call trace is data the worker wrote (binary arguments); the parent formats it. A worker that
 * scribbles over it gets bounded, sanitised text, never a crash or an over-read. */
Test(fuzz_regressions, trace_entries_with_hostile_fields_format_safely)
{
    fmuc_w_shared *sh = calloc(1, sizeof *sh);
    cr_assert(sh);
    sh->magic = FMUC_W_MAGIC;
    sh->ncalls = 4;
    for (int i = 0; i < 4; i++) {
        fmuc_w_call *e = &sh->head[i];
        memset(e, 0xff, sizeof *e); /* no NUL anywhere, every count huge */
        e->seq = (uint64_t)i;
        e->state = FMUC_W_CALL_RETURNED;
    }
    sh->head[0].fn = 0xdeadbeefu;                       /* no such function */
    sh->head[1].fn = FMUC_W_FN_fmi2Instantiate;         /* strings without a terminator */
    sh->head[2].fn = FMUC_W_FN_fmi2GetDirectionalDerivative; /* two lists of 2^64-1 */
    sh->head[3].fn = FMUC_W_FN_DLOPEN;
    memset(sh->phase, 'p', sizeof sh->phase);          /* unterminated phase too */
    fmuc_worker_outcome out;
    memset(&out, 0, sizeof out);
    fmuc_trace__decode(sh, &out);
    cr_assert_eq(cJSON_GetArraySize(out.trace), 4);
    const char *c0 = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(out.trace, 0), "call"));
    cr_assert(c0 && strstr(c0, "unknown call"), "%s", c0 ? c0 : "(null)");
    for (int i = 1; i < 4; i++) {
        const char *c = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(out.trace, i), "call"));
        cr_assert(c && strlen(c) < FMUC_W_CALL_TEXT * 4 + 1, "call %d", i);
    }
    cr_expect(strncmp(out.last_call, "dlopen(", 7) == 0, "%s", out.last_call);
    cr_expect(strlen(out.phase) < sizeof out.phase);
    fmuc_worker_outcome_free(&out);
    free(sh);
}
