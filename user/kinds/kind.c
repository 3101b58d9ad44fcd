// SPDX-License-Identifier: GPL-2.0
/*
 * The supervision kinds' table: which kind a binding is, and the one way
 * every command shows a binding and its statistics through its kind.
 */
#include "kinds/alive.h"
#include "kinds/kind.h"
#include "kinds/logic.h"
#include "output/output.h"

const struct tlob_kind tlob_kind_section = {
	.spec_json = tlob_section_spec_json,
	.stats_json = tlob_section_stats_json,
	.stats_print = tlob_section_stats_print,
};

const struct tlob_kind tlob_kind_alive = {
	.spec_json = tlob_alive_spec_json,
	.stats_json = tlob_alive_stats_json,
	.stats_print = tlob_alive_stats_print,
};

const struct tlob_kind tlob_kind_logic = {
	.spec_json = tlob_logic_spec_json,
	.stats_json = tlob_logic_stats_json,
	.stats_print = tlob_logic_stats_print,
};

const struct tlob_kind *tlob_kind_of(const struct tlob_binding_spec *s)
{
	if (s->alive)
		return &tlob_kind_alive;
	if (s->logic)
		return &tlob_kind_logic;
	return &tlob_kind_section;
}

int tlob_spec_json(const struct tlob_binding_spec *s, char *buf, size_t len)
{
	return tlob_kind_of(s)->spec_json(s, buf, len);
}

int tlob_stats_json(const struct tlob_binding_stats *st, char *buf, size_t len)
{
	return tlob_kind_of(&st->spec)->stats_json(st, buf, len);
}

void tlob_stats_print(FILE *f, const struct tlob_binding_stats *st, bool with_zeros)
{
	tlob_kind_of(&st->spec)->stats_print(f, st, with_zeros);
}

void tlob_stats_emit(FILE *f, const struct tlob_binding_stats *st, bool json, bool with_zeros)
{
	char buf[4096];

	if (!json)
		tlob_stats_print(f, st, with_zeros);
	else if (tlob_stats_json(st, buf, sizeof(buf)) > 0)
		fprintf(f, "%s\n", buf);
}
