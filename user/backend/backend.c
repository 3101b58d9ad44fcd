// SPDX-License-Identifier: GPL-2.0
/*
 * What every backend shares: its error message, and closing one whatever
 * it is (registry.c chooses and opens it).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "backend/backend.h"

int tlob_backend_err(struct tlob_backend *be, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(be->err, sizeof(be->err), fmt, ap);
	va_end(ap);
	return -err;
}

void tlob_backend_close(struct tlob_backend *be)
{
	if (be->ops && be->ops->close && be->priv)
		be->ops->close(be);
	be->priv = NULL;
}
