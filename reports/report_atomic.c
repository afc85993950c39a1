/* The reporter table and atomic report files: temp file in the target directory, fflush + fsync,
 * rename; any failure removes the temp file so a reader never sees a truncated report. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "report_json.h"

const fmuc_reporter fmuc_reporters[] = {
    {"json", fmuc_report_json_write, "json"},
    {"html", fmuc_report_html_write, "html"},
    {"junit", fmuc_report_junit_write, "xml"},
    {"text", fmuc_report_text_write_plain, "txt"},
    {NULL, NULL, NULL},
};

const fmuc_reporter *fmuc_reporter_find(const char *name)
{
    if (!name)
        return NULL;
    for (const fmuc_reporter *p = fmuc_reporters; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

static void fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd); /* best effort: some file systems refuse fsync on directories */
        close(fd);
    }
}

fmuc_err fmuc_report_write_atomic(const char *path, fmuc_report_writer write, const fmuc_report *r)
{
    fmuc_err err = FMUC_OK;
    char *tmp = NULL, *dir = NULL;
    FILE *f = NULL;
    int fd = -1;

    if (!path || !*path || !write || !r)
        return FMUC_ERROR;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!*base)
        return FMUC_EINPUT; /* a directory, not a file name */
    if (slash)
        dir = strndup(path, (size_t)(slash - path) + (slash == path ? 1 : 0));
    else
        dir = strdup(".");
    if (!dir) {
        err = FMUC_ENOMEM;
        goto out;
    }
    if (asprintf(&tmp, "%s/.%s.tmp.XXXXXX", dir, base) < 0) {
        tmp = NULL;
        err = FMUC_ENOMEM;
        goto out;
    }
    fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) {
        free(tmp);
        tmp = NULL; /* nothing to remove */
        err = FMUC_EIO;
        goto out;
    }
    (void)fchmod(fd, 0644);
    f = fdopen(fd, "w");
    if (!f) {
        err = FMUC_EIO;
        goto out;
    }
    fd = -1; /* owned by f */
    err = write(f, r);
    if (err < 0)
        goto out;
    if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0) {
        err = FMUC_EIO;
        goto out;
    }
    int rc = fclose(f);
    f = NULL;
    if (rc != 0) {
        err = FMUC_EIO;
        goto out;
    }
    if (rename(tmp, path) != 0) {
        err = FMUC_EIO;
        goto out;
    }
    free(tmp);
    tmp = NULL; /* renamed: nothing left to remove */
    fsync_dir(dir);
out:
    if (f)
        fclose(f);
    if (fd >= 0)
        close(fd);
    if (tmp) {
        unlink(tmp);
        free(tmp);
    }
    free(dir);
    return err;
}
