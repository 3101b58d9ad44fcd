// SPDX-License-Identifier: GPL-2.0
/* The one place the trace events are instantiated. */
#include "tlob.h"

#define CREATE_TRACE_POINTS
#include "tlob_trace.h"
