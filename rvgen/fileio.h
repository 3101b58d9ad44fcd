/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a file someone else may have named: rvgen's models and, through
 * the model reader the tool links (model.mk), every file the tool reads
 * (binaries, configuration, models). Only a regular file is opened, so a
 * FIFO cannot block the open nor a device feed the reader forever, and a
 * read stops at a bound the caller chooses for the kind of file.
 */
#ifndef RVGEN_FILEIO_H
#define RVGEN_FILEIO_H

#include <stddef.h>

/*
 * The errno for a path that names something other than a regular file:
 * open() itself gives it only for a device without a driver, which is no
 * regular file either. rv_file_strerror() says it in words.
 */
#define RV_ENOTREG	ENODEV

/*
 * path opened read-only and close-on-exec, without blocking and without
 * becoming a controlling terminal; then, as a regular file, returned as a
 * blocking descriptor. A negative errno on failure (-RV_ENOTREG: not a
 * regular file).
 */
int rv_open_regular(const char *path);

/*
 * All of fd's file into *text (malloc'd, NUL-terminated, *len bytes before
 * the NUL), if it holds at most max bytes. 0, -EFBIG when it holds more,
 * -ENOMEM, or the read's negative errno; *text is NULL on failure.
 */
int rv_read_bounded(int fd, size_t max, char **text, size_t *len);

/* strerror(err) (err positive), but "not a regular file" for RV_ENOTREG. */
const char *rv_file_strerror(int err);

#endif /* RVGEN_FILEIO_H */
