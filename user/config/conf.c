// SPDX-License-Identifier: GPL-2.0
/*
 * Reading configuration files: each line is "KEYWORD VALUE". The value of
 * a section goes to section.c's parser unchanged, so a line means what the
 * same text means after `tlob bind -b`; this file only finds the lines,
 * strips comments and says where a bad one is.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/monline.h"
#include "config/conf.h"
#include "fileio.h"
#include "lib/utils.h"
#include "options/params.h"
#include "section/section.h"

void tlob_conf_init(struct tlob_conf *c, enum tlob_conf_mode mode)
{
	memset(c, 0, sizeof(*c));
	c->mode = mode;
}

void tlob_conf_free(struct tlob_conf *c)
{
	for (size_t i = 0; i < c->nr_sections; i++)
		free(c->sections[i].text);
	free(c->sections);
	for (size_t i = 0; i < c->nr_files; i++)
		free(c->files[i]);
	free(c->files);
	memset(c, 0, sizeof(*c));
}

/* USAGE is the worst: a malformed line is the configuration's fault, not the system's. */
static void worsen(struct tlob_conf *c, int status)
{
	if (status == TLOB_EXIT_USAGE || c->status == TLOB_EXIT_OK)
		c->status = status;
}

static void bad_line(struct tlob_conf *c, const struct tlob_conf_where *at, int status,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void bad_line(struct tlob_conf *c, const struct tlob_conf_where *at, int status,
		     const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%u: ", TLOB_SHOWN(at->file), at->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	worsen(c, status);
}

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\v' || ch == '\f';
}

/*
 * A '#' starts a comment at the start of a line or after a blank: no value
 * tlob takes has a blank before a '#' (a path has no whitespace), so
 * "/opt/a#1/app" stays a path.
 */
static void strip_comment(char *s)
{
	for (char *p = s; *p; p++) {
		if (*p == '#' && (p == s || is_blank(p[-1]))) {
			*p = '\0';
			return;
		}
	}
}

static char *trim(char *s)
{
	char *end;

	while (is_blank(*s))
		s++;
	end = s + strlen(s);
	while (end > s && is_blank(end[-1]))
		*--end = '\0';
	return s;
}

static const struct tlob_conf_section *find_section(const struct tlob_conf *c,
						    const struct tlob_binding_spec *spec)
{
	for (size_t i = 0; i < c->nr_sections; i++)
		if (tlob_same_binding(c->sections[i].spec.path, c->sections[i].spec.start,
				      spec->path, spec->start))
			return &c->sections[i];
	return NULL;
}

static void add_section(struct tlob_conf *c, const struct tlob_conf_where *at, const char *value)
{
	struct tlob_conf_section *s, *more;
	const struct tlob_conf_section *dup;
	struct tlob_binding_spec spec;
	unsigned int flags = 0;
	char err[1024];
	int ret;

	/*
	 * systemd starts tlob in /: a relative path would name a file there.
	 * The kernel's lines (a section's `p`, an alive binding's `a`, a
	 * logical binding's `l`, which the state file records too) are
	 * absolute by their own rule.
	 */
	if (value[0] != '/' && strncmp(value, "p ", 2) && strncmp(value, "a ", 2) &&
	    strncmp(value, "l ", 2)) {
		bad_line(c, at, TLOB_EXIT_USAGE, "section '%s': the path must be absolute "
			 "(PATH:START,STOP,BUDGET[,tag=NAME], PATH:CHECKPOINT,alive=PERIOD,"
			 "expect=N[,...] or the kernel's 'p PATH:...', 'a PATH:...' or "
			 "'l PATH ...' line)", TLOB_SHOWN(value));
		return;
	}
	if (c->mode == TLOB_CONF_STATE)
		flags |= TLOB_SECTION_START_ONLY;
	if (c->force_offset)
		flags |= TLOB_SECTION_FORCE;
	ret = tlob_section_parse(value, flags, &spec, err, sizeof(err));
	if (ret) {
		bad_line(c, at, ret == TLOB_SECTION_SYNTAX ? TLOB_EXIT_USAGE : TLOB_EXIT_ERROR,
			 "%s", err);
		return;
	}
	/* The kernel keys a binding by file and START: a second one could never be bound. */
	dup = find_section(c, &spec);
	if (dup) {
		bad_line(c, at, TLOB_EXIT_USAGE, "%s:0x%" PRIx64 " is a section already (%s:%u)",
			 TLOB_SHOWN(spec.path), spec.start, TLOB_SHOWN(dup->at.file), dup->at.line);
		return;
	}
	more = realloc(c->sections, (c->nr_sections + 1) * sizeof(*more));
	if (!more) {
		bad_line(c, at, TLOB_EXIT_ERROR, "out of memory");
		return;
	}
	c->sections = more;
	s = &c->sections[c->nr_sections];
	s->spec = spec;
	s->at = *at;
	s->text = strdup(value);
	if (!s->text) {
		bad_line(c, at, TLOB_EXIT_ERROR, "out of memory");
		return;
	}
	c->nr_sections++;
}

/*
 * A setting the configuration holds one of (reactor, backend, the state's
 * restore-*): a second line, in the same file or another, is refused
 * naming both, since which one was meant cannot be known. @first is where
 * it was set, line 0 while it was not.
 */
static bool first_setting(struct tlob_conf *c, const struct tlob_conf_where *at,
			  const char *key, const struct tlob_conf_where *first)
{
	if (!first->line)
		return true;
	bad_line(c, at, TLOB_EXIT_USAGE, "a second '%s' line (the first is %s:%u; a "
		 "configuration sets it once)", key, TLOB_SHOWN(first->file), first->line);
	return false;
}

/* A value that must be one word that fits buf; false (reported) if not. */
static bool one_word(struct tlob_conf *c, const struct tlob_conf_where *at, const char *key,
		     const char *value, char *buf, size_t len)
{
	if (value[strcspn(value, " \t")]) {
		bad_line(c, at, TLOB_EXIT_USAGE, "%s takes one value, not '%s'", key,
			 TLOB_SHOWN(value));
		return false;
	}
	if (strlen(value) >= len) {
		bad_line(c, at, TLOB_EXIT_USAGE, "%s '%s' is too long", key, TLOB_SHOWN(value));
		return false;
	}
	strcpy(buf, value);
	return true;
}

/* reactor and restore-reactor: one word, once. */
static void set_word(struct tlob_conf *c, const struct tlob_conf_where *at, const char *key,
		     const char *value, char *buf, size_t len, struct tlob_conf_where *first)
{
	if (first_setting(c, at, key, first) && one_word(c, at, key, value, buf, len))
		*first = *at;
}

static void set_backend(struct tlob_conf *c, const struct tlob_conf_where *at, const char *value)
{
	char name[sizeof(c->backend)];

	if (!first_setting(c, at, "backend", &c->backend_at) ||
	    !one_word(c, at, "backend", value, name, sizeof(name)))
		return;
	/* The state names the backend that was used, never auto. */
	if (strcmp(name, "kmod") && strcmp(name, "bpf") &&
	    (strcmp(name, "auto") || c->mode == TLOB_CONF_STATE)) {
		bad_line(c, at, TLOB_EXIT_USAGE, "invalid backend '%s' (kmod, bpf or auto)",
			 TLOB_SHOWN(value));
		return;
	}
	strcpy(c->backend, name);
	c->backend_at = *at;
}

static void set_restore_enable(struct tlob_conf *c, const struct tlob_conf_where *at,
			       const char *value)
{
	if (!first_setting(c, at, "restore-enable", &c->restore_enable_at))
		return;
	if (strcmp(value, "0")) {
		bad_line(c, at, TLOB_EXIT_USAGE, "restore-enable takes 0, not '%s'",
			 TLOB_SHOWN(value));
		return;
	}
	c->restore_enable = true;
	c->restore_enable_at = *at;
}

static void read_line(struct tlob_conf *c, const struct tlob_conf_where *at, char *line)
{
	char *key, *value;
	size_t klen;

	strip_comment(line);
	key = trim(line);
	if (!*key)
		return;
	klen = strcspn(key, " \t");
	value = key + klen;
	if (*value)
		*value++ = '\0';
	value = trim(value);
	if (!*value) {
		bad_line(c, at, TLOB_EXIT_USAGE, "'%s' needs a value (e.g. %s)", TLOB_SHOWN(key),
			 !strcmp(key, "section") ? "section /usr/bin/app:frame_begin,frame_end,10ms" :
			 !strcmp(key, "reactor") ? "reactor printk" : "backend kmod");
		return;
	}
	if (!strcmp(key, "section")) {
		add_section(c, at, value);
	} else if (!strcmp(key, "reactor")) {
		set_word(c, at, key, value, c->reactor, sizeof(c->reactor), &c->reactor_at);
	} else if (!strcmp(key, "backend")) {
		set_backend(c, at, value);
	} else if (c->mode == TLOB_CONF_STATE && !strcmp(key, "restore-reactor")) {
		set_word(c, at, key, value, c->restore_reactor, sizeof(c->restore_reactor),
			 &c->restore_reactor_at);
	} else if (c->mode == TLOB_CONF_STATE && !strcmp(key, "restore-enable")) {
		set_restore_enable(c, at, value);
	} else {
		bad_line(c, at, TLOB_EXIT_USAGE, "unknown setting '%s' (section, reactor or backend)",
			 TLOB_SHOWN(key));
	}
}

static const char *keep_name(struct tlob_conf *c, const char *path)
{
	char **more = realloc(c->files, (c->nr_files + 1) * sizeof(*more));
	char *copy = strdup(path);

	if (!more || !copy) {
		free(copy);
		if (more)
			c->files = more;
		return NULL;
	}
	c->files = more;
	c->files[c->nr_files++] = copy;
	return copy;
}

/*
 * The most a configuration file and one of its lines may hold, in bytes: a
 * line carries one binding (a path of PATH_MAX and its terms), a file some
 * thousand of them. Past these the file is refused, so that a drop-in that
 * links to a device, or one that keeps growing, cannot grow the reader.
 */
#define CONF_FILE_MAX	(1 << 20)
#define CONF_LINE_MAX	8192

/*
 * path's text as a stream (*text holds it: free it after fclose()), if it
 * is a regular file of at most CONF_FILE_MAX bytes; NULL when it is not or
 * is empty (*text NULL), said on stderr but for an empty file.
 */
static FILE *conf_open(struct tlob_conf *c, const char *path, char **text)
{
	size_t len = 0;
	FILE *f = NULL;
	int fd, ret;

	fd = rv_open_regular(path);
	ret = fd < 0 ? fd : rv_read_bounded(fd, CONF_FILE_MAX, text, &len);
	if (fd >= 0)
		close(fd);
	if (!ret && len) {
		f = fmemopen(*text, len, "r");
		ret = f ? 0 : -errno;
	}
	if (ret == -EFBIG)
		fprintf(stderr, "%s: larger than %d bytes, the most a configuration file may hold\n",
			TLOB_SHOWN(path), CONF_FILE_MAX);
	else if (ret)
		fprintf(stderr, "%s: cannot %s: %s\n", TLOB_SHOWN(path), fd < 0 ? "open" : "read",
			rv_file_strerror(-ret));
	if (ret)
		worsen(c, TLOB_EXIT_ERROR);
	if (!f) {
		free(*text);
		*text = NULL;
	}
	return f;
}

int tlob_conf_read_file(struct tlob_conf *c, const char *path)
{
	struct tlob_conf_where at = { 0 };
	size_t cap = 0;
	char *line = NULL, *text = NULL;
	ssize_t n;
	FILE *f;

	at.file = keep_name(c, path);
	if (!at.file) {
		fprintf(stderr, "tlob: out of memory\n");
		worsen(c, TLOB_EXIT_ERROR);
		return c->status;
	}
	f = conf_open(c, path, &text);
	if (!f)
		return c->status;
	errno = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		at.line++;
		if (n > CONF_LINE_MAX) {
			bad_line(c, &at, TLOB_EXIT_USAGE, "longer than %d bytes", CONF_LINE_MAX);
			continue;
		}
		if (strlen(line) != (size_t)n) {
			bad_line(c, &at, TLOB_EXIT_USAGE, "a NUL byte in the line");
			continue;
		}
		read_line(c, &at, line);
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: cannot read: %s\n", TLOB_SHOWN(path), strerror(errno));
		worsen(c, TLOB_EXIT_ERROR);
	}
	free(line);
	fclose(f);
	free(text);
	return c->status;
}

static int conf_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".conf");
}

/* Byte order, not strcoll(): the order a boot applies must not depend on the locale. */
static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int tlob_conf_read_dir(struct tlob_conf *c, const char *dir)
{
	char path[PATH_MAX];
	struct dirent **names = NULL;
	int n;

	snprintf(path, sizeof(path), "%s/%s", dir, TLOB_CONF_FILE);
	tlob_conf_read_file(c, path);
	snprintf(path, sizeof(path), "%s/%s", dir, TLOB_CONF_DROPINS);
	n = scandir(path, &names, conf_name, by_name);
	if (n < 0) {
		if (errno != ENOENT) {
			fprintf(stderr, "%s: cannot read the directory: %s\n", TLOB_SHOWN(path),
				strerror(errno));
			worsen(c, TLOB_EXIT_ERROR);
		}
		return c->status;
	}
	for (int i = 0; i < n; i++) {
		char file[PATH_MAX + 256];

		snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
		tlob_conf_read_file(c, file);
		free(names[i]);
	}
	free(names);
	return c->status;
}

const char *tlob_conf_source(const struct tlob_conf *c, char *buf, size_t len)
{
	if (!c->nr_files)
		snprintf(buf, len, "no file");
	else if (c->nr_files == 1)
		snprintf(buf, len, "%s", TLOB_SHOWN(c->files[0]));
	else
		snprintf(buf, len, "%s (+%zu drop-in%s)", TLOB_SHOWN(c->files[0]), c->nr_files - 1,
			 c->nr_files == 2 ? "" : "s");
	return buf;
}
