// SPDX-License-Identifier: GPL-2.0
/*
 * tlob apply [FILE | --dir DIR] [--check | --remove]: the boot-time
 * configuration (conf.h), applied all or nothing (apply.c). systemd runs
 * it from tlob.service (user/systemd/).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/monline.h"
#include "cmd/tlob.h"
#include "config/apply.h"
#include "config/conf.h"
#include "lib/utils.h"

static const char *const apply_usage[] = {
	"usage: tlob apply [FILE | --dir DIR] [--check] [--force-offset] [--state FILE]",
	"                  [common options]",
	"       tlob apply --remove [--state FILE] [common options]",
	"",
	"  binds every section of a configuration, sets its reactor and enables the",
	"  monitor; all of it or, when a line is bad or the kernel refuses one, none",
	"  of it. Default: " TLOB_CONF_DIR "/" TLOB_CONF_FILE ", then every *.conf in",
	"  " TLOB_CONF_DIR "/" TLOB_CONF_DROPINS "/ by name. One setting a line, # comments:",
	"    section /usr/bin/app:frame_begin,frame_end,10ms,tag=frame   (as bind -b)",
	"    reactor printk                     (one the backend lists)",
	"    backend kmod                       (kmod, bpf or auto; --backend and",
	"                                        $TLOB_BACKEND win over it)",
	"  FILE           that file alone",
	"      --dir DIR  DIR/" TLOB_CONF_FILE " and DIR/" TLOB_CONF_DROPINS "/*.conf",
	"      --check    resolve every line and print what would be bound; change",
	"                 nothing (needs neither root nor a backend)",
	"      --remove   undo exactly what apply did (its state file says what),",
	"                 leaving other bindings alone",
	"      --state FILE  where apply records what it changed (" TLOB_APPLY_STATE ")",
	"      --force-offset  bind offsets tlob cannot check (see tlob bind -h)",
	"",
	"  a bad line is reported as FILE:LINE: reason, every one of them",
	"exit status: 0 applied (removed, or nothing was applied); 1 an error on the",
	"             system (a file or symbol missing, a section bound already, the",
	"             kernel refused: nothing changed); 2 a malformed line or command line",
	NULL,
};

/* --check: what apply would bind, from the files alone. */
static int check_only(const struct tlob_conf *conf)
{
	char line[PATH_MAX + 512], src[PATH_MAX + 64];

	for (size_t i = 0; i < conf->nr_sections; i++) {
		const struct tlob_conf_section *s = &conf->sections[i];

		if (!tlob_monline_format(&s->spec, line, sizeof(line)))
			printf("section %s  (%s:%u)\n", line, TLOB_SHOWN(s->at.file), s->at.line);
	}
	if (conf->reactor[0])
		printf("reactor %s  (%s:%u)\n", conf->reactor, TLOB_SHOWN(conf->reactor_at.file),
		       conf->reactor_at.line);
	if (conf->backend[0])
		printf("backend %s  (%s:%u)\n", conf->backend, TLOB_SHOWN(conf->backend_at.file),
		       conf->backend_at.line);
	fprintf(stderr, "tlob: %s: %zu section(s), valid\n",
		tlob_conf_source(conf, src, sizeof(src)), conf->nr_sections);
	return TLOB_EXIT_OK;
}

/* The backend: --backend, then $TLOB_BACKEND, then the configuration's, then auto. */
static int open_for(struct tlob_params *params, const char *conf_backend, struct tlob_backend *be)
{
	struct tlob_params p = *params;

	if (!params->backend_given && !getenv("TLOB_BACKEND") && conf_backend[0])
		p.backend = conf_backend;
	/* BPF bindings must outlive tlob: they are pinned (kmod's always persist). */
	return tlob_open_backend(&p, be, false, false, true);
}

static int remove_run(struct tlob_params *params, const struct tlob_apply_opts *opts)
{
	struct tlob_backend be;
	struct tlob_conf state;
	int ret;

	if (params->operand || params->dir || params->check || params->force_offset)
		tlob_usage_error("apply: --remove reads what apply recorded (--state), "
				 "not a configuration");
	tlob_require_root("tlob apply --remove");
	if (access(opts->state, F_OK)) {
		fprintf(stderr, "tlob: nothing to remove: no configuration applied (no %s)\n",
			TLOB_SHOWN(opts->state));
		return TLOB_EXIT_OK;
	}
	tlob_conf_init(&state, TLOB_CONF_STATE);
	ret = tlob_conf_read_file(&state, opts->state);
	if (!ret && !state.backend[0]) {
		fprintf(stderr, "%s: no backend line: not written by tlob apply\n",
			TLOB_SHOWN(opts->state));
		ret = TLOB_EXIT_ERROR;
	}
	if (!ret && params->backend_given && strcmp(params->backend, state.backend)) {
		tlob_conf_free(&state);
		tlob_usage_error("apply --remove: the configuration was applied with the %s "
				 "backend (%s), not %s", state.backend, opts->state, params->backend);
	}
	if (ret) {
		/* A state it cannot read is a problem of the system, not of the command line. */
		tlob_conf_free(&state);
		return TLOB_EXIT_ERROR;
	}
	params->backend_given = true;
	params->backend = state.backend;
	if (open_for(params, "", &be)) {
		tlob_conf_free(&state);
		return TLOB_EXIT_ERROR;
	}
	ret = tlob_apply_remove(&be, &state, opts);
	tlob_backend_close(&be);
	tlob_conf_free(&state);
	return ret;
}

static int apply_run(struct tlob_params *params)
{
	struct tlob_apply_opts opts = {
		.state = params->state ? params->state : TLOB_APPLY_STATE,
		.json = params->json,
	};
	struct tlob_backend be;
	struct tlob_conf conf;
	int ret;

	if (params->remove)
		return remove_run(params, &opts);
	if (params->operand && params->dir)
		tlob_usage_error("apply: give FILE or --dir DIR, not both");
	tlob_conf_init(&conf, TLOB_CONF_CONFIG);
	conf.force_offset = params->force_offset;
	if (params->operand)
		ret = tlob_conf_read_file(&conf, params->operand);
	else
		ret = tlob_conf_read_dir(&conf, params->dir ? params->dir : TLOB_CONF_DIR);
	if (ret) {
		char src[PATH_MAX + 64];

		fprintf(stderr, "tlob: %s: nothing applied\n",
			tlob_conf_source(&conf, src, sizeof(src)));
		tlob_conf_free(&conf);
		return ret;
	}
	if (params->check) {
		ret = check_only(&conf);
		tlob_conf_free(&conf);
		return ret;
	}
	tlob_require_root("tlob apply");
	if (open_for(params, conf.backend, &be)) {
		tlob_conf_free(&conf);
		return TLOB_EXIT_ERROR;
	}
	ret = tlob_apply(&be, &conf, &opts);
	tlob_backend_close(&be);
	tlob_conf_free(&conf);
	return ret;
}

const struct tlob_command tlob_cmd_apply = {
	.name = "apply",
	.usage = apply_usage,
	.opts = TLOB_OPT_REMOVE | TLOB_OPT_CHECK | TLOB_OPT_DIR | TLOB_OPT_STATE |
		TLOB_OPT_FORCE_OFFSET | TLOB_OPT_JSON,
	.operand = "FILE",
	.run = apply_run,
};
