// SPDX-License-Identifier: GPL-2.0
/*
 * A neutral line format of the validated model for tests: they compare
 * it with upstream's headers and with the DOT edges without parsing C.
 *   model NAME
 *   state INDEX NAME [initial] [final] [inv=ENV<BOUND | inv=ENV<=BOUND]
 *   event INDEX NAME
 *   env INDEX NAME clock|var
 *   cell STATE EVENT NEXT|- reset=ENV|- timer=keep|arm|cancel [guard=TEXT]
 */
#include "emit.h"

int emit_dump(const struct model *m, FILE *out)
{
	int s, e;

	fprintf(out, "model %s\n", m->name);
	for (s = 0; s < m->nstates; s++) {
		const struct rv_state *st = &m->states[s];

		fprintf(out, "state %d %s%s%s", s, st->name,
			s == m->initial ? " initial" : "",
			st->final ? " final" : "");
		if (st->inv.present)
			fprintf(out, " inv=%s%s%s", m->envs[st->inv.env].name,
				st->inv.le ? "<=" : "<", st->inv.bound);
		fputc('\n', out);
	}
	for (e = 0; e < m->nevents; e++)
		fprintf(out, "event %d %s\n", e, m->events[e]);
	for (e = 0; e < m->nenvs; e++)
		fprintf(out, "env %d %s %s\n", e, m->envs[e].name,
			m->envs[e].clock ? "clock" : "var");
	for (s = 0; s < m->nstates; s++) {
		for (e = 0; e < m->nevents; e++) {
			const struct rv_cell *c = model_cell(m, s, e);

			fprintf(out, "cell %s %s %s reset=%s timer=%s",
				m->states[s].name, m->events[e],
				c->next < 0 ? "-" : m->states[c->next].name,
				c->reset < 0 ? "-" : m->envs[c->reset].name,
				rv_timer_str(c->timer));
			if (c->guard)
				fprintf(out, " guard=%s", c->guard);
			fputc('\n', out);
		}
	}
	return ferror(out) ? -1 : 0;
}
