// SPDX-License-Identifier: GPL-2.0
/*
 * Prints every table of the committed kernel/shared/tlob_model.h for
 * tests/unit/rvgen/cells.t (model_table.h). cells.t builds the same for
 * alive_model.h itself.
 */
#include "tlob_model.h"

#define MON tlob
#define INVALID INVALID_STATE_TLOB
#include "model_table.h"
