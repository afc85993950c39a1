/* Remove a directory tree, or what a directory holds, without following symbolic links
 * (openat/unlinkat relative to dir fds). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmuc/fmuc_fmu.h"

enum { MAX_DEPTH = 256 };

/* Remove name inside dirfd (a file, a link, or a whole directory). */
static int remove_at(int parent, const char *name, int depth)
{
    if (unlinkat(parent, name, 0) == 0)
        return 0;
    if (errno == ENOENT)
        return 0;
    if (errno != EISDIR && errno != EPERM)
        return -1;
    if (depth > MAX_DEPTH)
        return -1;
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        /* our own private tree is 0700; try to make a read-only one removable */
        if (errno == EACCES && fchmodat(parent, name, 0700, 0) == 0)
            fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            return -1;
    }
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (remove_at(dirfd(d), de->d_name, depth + 1) < 0)
            rc = -1;
    }
    closedir(d);
    if (unlinkat(parent, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
        rc = -1;
    return rc;
}

fmuc_err fmuc_rmtree(const char *path)
{
    if (!path || !*path)
        return FMUC_ERROR;
    return remove_at(AT_FDCWD, path, 0) == 0 ? FMUC_OK : FMUC_EIO;
}

fmuc_err fmuc_rmtree_contents(const char *path)
{
    if (!path || !*path)
        return FMUC_ERROR;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return FMUC_EIO;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return FMUC_EIO;
    }
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (remove_at(dirfd(d), de->d_name, 1) < 0)
            rc = -1;
    }
    closedir(d);
    return rc == 0 ? FMUC_OK : FMUC_EIO;
}
