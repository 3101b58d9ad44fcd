// SPDX-License-Identifier: GPL-2.0
/*
 * tlob apply's sessions (apply.c) on a fake kernel, which refuses what
 * tlob.ko refuses and what the tests ask it to, so that the host can check
 * that apply is all or nothing and --remove takes exactly what it added:
 *
 *   apply_drv [options] apply STATE CONF      tlob_apply() of CONF
 *   apply_drv [options] remove STATE          tlob_apply_remove()
 *
 *   -b LINE     a binding the kernel has already ("p PATH:0xS 0xE threshold=NS")
 *   -f N:ERRNO  refuse the Nth bind (1-based) with -ERRNO (e.g. 3:28, ENOSPC)
 *   -u N:ERRNO  refuse the Nth unbind
 *   -e ERRNO    refuse writing enable
 *   -r ERRNO    refuse setting the reactor
 *   -a LINE     another tool binds LINE between apply's checks and its first bind
 *   -E 0|1      enable before (default 0); -R NAME the reactor before (nop)
 *
 * Like tlob.ko, bind refuses a second binding of the same file and START
 * (-EEXIST) and unbind an unknown one (-ENOENT). Every change is logged
 * ("op: ..."), then "exit N", then the kernel's table ("bound: LINE"),
 * "enable: N" and "reactor: NAME".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/monline.h"
#include "cmd/tlob.h"
#include "config/apply.h"

#define MAX_BOUND	64

static struct tlob_binding_spec table[MAX_BOUND];
static size_t nr_bound;
static uint32_t next_id = 1;
static int enable_now, fail_enable, fail_reactor;
static unsigned int binds, unbinds, fail_bind_n, fail_unbind_n;
static int fail_bind_err, fail_unbind_err;
static char reactor[64] = "nop";
static struct tlob_binding_spec racer;
static bool race;

static void show(const char *what, const struct tlob_binding_spec *spec)
{
	char line[PATH_MAX + 256];

	if (tlob_monline_format(spec, line, sizeof(line)))
		snprintf(line, sizeof(line), "(cannot format)");
	printf("%s%s\n", what, line);
}

static int lookup(const struct tlob_binding_spec *spec)
{
	for (size_t i = 0; i < nr_bound; i++)
		if (!strcmp(table[i].path, spec->path) && table[i].start == spec->start)
			return (int)i;
	return -1;
}

static int fake_get_enable(struct tlob_backend *be)
{
	(void)be;
	return enable_now;
}

static int fake_set_enable(struct tlob_backend *be, bool on)
{
	(void)be;
	if (fail_enable)
		return -fail_enable;
	printf("op: enable %d\n", on);
	enable_now = on;
	return 0;
}

static int fake_get_reactor(struct tlob_backend *be, char *buf, size_t len)
{
	(void)be;
	snprintf(buf, len, "%s", reactor);
	return 0;
}

static int fake_set_reactor(struct tlob_backend *be, const char *name)
{
	(void)be;
	if (fail_reactor)
		return -fail_reactor;
	printf("op: reactor %s\n", name);
	snprintf(reactor, sizeof(reactor), "%s", name);
	return 0;
}

static int fake_list_reactors(struct tlob_backend *be, char *buf, size_t len)
{
	(void)be;
	snprintf(buf, len, "nop printk panic signal");
	return 0;
}

static int fake_bind(struct tlob_backend *be, const struct tlob_binding_spec *spec,
		     uint32_t *id)
{
	(void)be;
	if (race) {
		race = false;
		table[nr_bound] = racer;
		table[nr_bound++].id = next_id++;
	}
	if (++binds == fail_bind_n)
		return -fail_bind_err;
	if (lookup(spec) >= 0)
		return -EEXIST;
	if (nr_bound == MAX_BOUND)
		return -ENOSPC;
	table[nr_bound] = *spec;
	table[nr_bound].id = *id = next_id++;
	nr_bound++;
	show("op: bind ", spec);
	return 0;
}

static int fake_unbind(struct tlob_backend *be, const struct tlob_binding_spec *spec)
{
	int i;

	(void)be;
	if (++unbinds == fail_unbind_n)
		return -fail_unbind_err;
	i = lookup(spec);
	if (i < 0)
		return -ENOENT;
	show("op: unbind ", &table[i]);
	memmove(&table[i], &table[i + 1], (nr_bound - (size_t)i - 1) * sizeof(table[0]));
	nr_bound--;
	return 0;
}

static int fake_list(struct tlob_backend *be, struct tlob_binding_spec **specs, size_t *n)
{
	(void)be;
	*specs = calloc(nr_bound + 1, sizeof(**specs));
	if (!*specs)
		return -ENOMEM;
	memcpy(*specs, table, nr_bound * sizeof(table[0]));
	*n = nr_bound;
	return 0;
}

static const struct tlob_backend_ops fake_ops = {
	.name = "kmod",	/* what the state file records */
	.get_enable = fake_get_enable,
	.set_enable = fake_set_enable,
	.get_reactor = fake_get_reactor,
	.set_reactor = fake_set_reactor,
	.list_reactors = fake_list_reactors,
	.bind = fake_bind,
	.unbind = fake_unbind,
	.list = fake_list,
};

static void nth(const char *arg, unsigned int *n, int *err)
{
	if (sscanf(arg, "%u:%d", n, err) != 2)
		exit(99);
}

int main(int argc, char **argv)
{
	struct tlob_backend be = { .ops = &fake_ops };
	struct tlob_apply_opts opts = { 0 };
	struct tlob_conf conf;
	char err[256];
	int i, ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		const char *v = argv[i + 1];

		if (!strcmp(argv[i], "-b")) {
			if (nr_bound == MAX_BOUND ||
			    tlob_monline_parse(v, &table[nr_bound], err, sizeof(err)))
				return 99;
			table[nr_bound++].id = next_id++;
		} else if (!strcmp(argv[i], "-a")) {
			if (tlob_monline_parse(v, &racer, err, sizeof(err)))
				return 99;
			race = true;
		} else if (!strcmp(argv[i], "-f")) {
			nth(v, &fail_bind_n, &fail_bind_err);
		} else if (!strcmp(argv[i], "-u")) {
			nth(v, &fail_unbind_n, &fail_unbind_err);
		} else if (!strcmp(argv[i], "-e")) {
			fail_enable = atoi(v);
		} else if (!strcmp(argv[i], "-r")) {
			fail_reactor = atoi(v);
		} else if (!strcmp(argv[i], "-E")) {
			enable_now = atoi(v);
		} else if (!strcmp(argv[i], "-R")) {
			snprintf(reactor, sizeof(reactor), "%s", v);
		} else {
			return 99;
		}
	}
	if (i + 2 > argc)
		return 99;
	opts.state = argv[i + 1];
	if (!strcmp(argv[i], "apply") && i + 3 == argc) {
		tlob_conf_init(&conf, TLOB_CONF_CONFIG);
		ret = tlob_conf_read_file(&conf, argv[i + 2]);
		if (!ret)
			ret = tlob_apply(&be, &conf, &opts);
	} else if (!strcmp(argv[i], "remove") && i + 2 == argc) {
		tlob_conf_init(&conf, TLOB_CONF_STATE);
		ret = tlob_conf_read_file(&conf, opts.state);
		if (!ret)
			ret = tlob_apply_remove(&be, &conf, &opts);
	} else {
		return 99;
	}
	tlob_conf_free(&conf);
	printf("exit %d\n", ret);
	for (size_t k = 0; k < nr_bound; k++)
		show("bound: ", &table[k]);
	printf("enable: %d\nreactor: %s\n", enable_now, reactor);
	return 0;
}
