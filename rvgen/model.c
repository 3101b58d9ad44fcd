// SPDX-License-Identifier: GPL-2.0
/*
 * From DOT text to the model object. graphviz cgraph does the DOT parsing;
 * this file walks its graph: "__init_X" marks the initial state X, every
 * other node is a state, a doublecircle or ellipse shape (on the node or
 * as the default of a node group it belongs to) marks a final state, and
 * every edge label holds one or more "\n"-separated events. cgraph keeps
 * no line numbers, so rvgen hands it the text one line at a time and
 * records, as cgraph creates each node and edge and sets each label, the
 * line it is reading (see struct reader).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <graphviz/cgraph.h>

#include "fileio.h"
#include "label.h"
#include "model.h"
#include "srcline.h"

#define INIT_MARKER "__init_"

const char *rv_timer_str(enum rv_timer t)
{
	static const char * const s[] = { "keep", "arm", "cancel" };

	return s[t];
}

/*
 * cgraph reports errors and warnings through its error callback, in pieces
 * ("Error", ": ", "syntax error in line N near 'x'\n"). Collect them so the
 * first message can be turned into "file:N: ...".
 */
static char cg_msg[1024];

static int cg_collect(char *msg)
{
	size_t len = strlen(cg_msg);

	snprintf(cg_msg + len, sizeof(cg_msg) - len, "%s", msg);
	return 0;
}

/*
 * cgraph's own reason, whatever it is: "syntax error near 'x'", "memory
 * exhausted near '{'" (its parser's stack is full) or a warning such as a
 * badly delimited number, which cgraph reads as two tokens. Its "in line
 * N" becomes the line of the message.
 */
static void cgraph_error(struct rv_error *err)
{
	char *msg = cg_msg, *at, *rest;
	int line = 1;

	at = strstr(msg, ": ");
	if (at && (!strncmp(msg, "Error", 5) || !strncmp(msg, "Warning", 7)))
		msg = at + 2;
	at = strchr(msg, '\n');
	if (at)
		*at = '\0';
	at = strstr(msg, " in line ");
	if (at) {
		line = atoi(at + 9);
		for (rest = at + 9; isdigit((unsigned char)*rest); rest++)
			;
		if (!*rest || !strncmp(rest, " near", 5))
			memmove(at, rest, strlen(rest) + 1);
	}
	if (!strncmp(msg, "syntax error", 12))
		rv_error_set(err, line, "DOT syntax error%s", msg + 12);
	else
		rv_error_set(err, line, "DOT error: %s%s", *msg ? msg : "unreadable",
			     strncmp(msg, "memory exhausted", 16) ? "" :
			     " (cgraph's parser ran out of stack: the graph nests too deeply)");
}

/*
 * What rvgen learns about a node or an edge while cgraph reads it, bound
 * to the object with agbindrec() so that looking it up costs nothing.
 */
#define RV_REC "rvgen"
struct rv_rec {
	Agrec_t h;
	int line;		/* line cgraph was reading when it created it */
	int label_line;		/* same, when it set the label; 0: never */
	char *label;		/* first label set (a cgraph string), or NULL */
	int state;		/* index into model->states, -1 if none */
};

static struct rv_rec *rec_of(void *obj)
{
	return (struct rv_rec *)aggetrec(obj, RV_REC, 0);
}

/*
 * The input cgraph reads, one line per afread() call, so that the line
 * being read is known when cgraph creates an object or sets an attribute.
 * It is the line of the parser's lookahead token: for the usual "...];"
 * statement the object's own line, else the line of the next token.
 * cgraph's own state is global (its lexer and parser are), and its
 * identifier discipline gets no closure of ours, hence one global reader.
 */
static struct reader {
	const char *text;
	size_t pos;
	int line;		/* line of the text handed to cgraph last */
	bool eof;		/* cgraph asked for more after the end */
	bool trailing;		/* reading past the first graph */
	int trailing_line;	/* where a graph after the first one began */
	struct rv_error *err;
	bool failed;		/* err set by a callback below */
} rd;

static int rd_afread(void *chan, char *buf, int size)
{
	int n = 0;

	(void)chan;
	if (!rd.text[rd.pos]) {
		rd.eof = true;
		return 0;
	}
	/* a chunk never spans lines, so it has one line number */
	if (!rd.pos || rd.text[rd.pos - 1] == '\n')
		rd.line++;
	while (n < size && rd.text[rd.pos]) {
		buf[n++] = rd.text[rd.pos];
		if (rd.text[rd.pos++] == '\n')
			break;
	}
	return n;
}

static void rd_fail(int line, const char *kind, const char *name, int first)
{
	if (rd.failed)
		return;
	rd.failed = true;
	rv_error_set(rd.err, line,
		     "%s '%s' is labelled twice, differently (first on line %d): a second label would silently replace the first, invariant included; give it one label",
		     kind, name, first);
}

static void cb_insert(Agraph_t *g, Agobj_t *obj, void *arg)
{
	struct rv_rec *r;

	(void)g;
	(void)arg;
	if (rec_of(obj))
		return;		/* created once; this is it joining a subgraph */
	r = agbindrec(obj, RV_REC, sizeof(*r), 0);
	r->line = rd.line;
	r->state = -1;
}

/* A node's label set twice to different values: refuse the second one. */
static void cb_node_update(Agraph_t *g, Agobj_t *obj, void *arg, Agsym_t *sym)
{
	struct rv_rec *r = rec_of(obj);
	char *value = agxget(obj, sym);
	const char *name = agnameof(obj);

	(void)arg;
	if (!r || strcmp(sym->name, "label"))
		return;
	if (!r->label) {
		r->label = agstrdup(g, value);
		r->label_line = rd.line;
	} else if (strcmp(r->label, value)) {
		rd_fail(rd.line, strncmp(name, INIT_MARKER, strlen(INIT_MARKER)) ?
			"state" : "initial marker", name, r->label_line);
	}
}

/* Edges are created once, with their label: their line is enough. */
static Agcbdisc_t rv_callbacks = {
	.node = { cb_insert, cb_node_update, NULL },
	.edge = { cb_insert, NULL, NULL },
};

/*
 * cgraph registers every object with the identifier discipline as it
 * creates it, the root graph first: the one moment to push the callbacks
 * onto a graph agread() opens itself. Past the first graph, a graph being
 * opened is text after the graph; note where.
 */
static void rv_idregister(void *state, int objtype, void *obj)
{
	AgIdDisc.idregister(state, objtype, obj);
	if (objtype != AGRAPH || agroot(obj) != obj)
		return;
	if (rd.trailing) {
		if (!rd.trailing_line)
			rd.trailing_line = rd.line;
		return;
	}
	agpushdisc(obj, &rv_callbacks, NULL);
}

static char *xstrdup(const char *s)
{
	return strdup(s ? s : "");
}

static char *name_from_path(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	return strndup(base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
}

static bool shape_is_final(const char *shape)
{
	return shape && (!strcmp(shape, "doublecircle") || !strcmp(shape, "ellipse"));
}

/* Node groups: {node [shape = doublecircle] "x"} makes x final. */
static void mark_final_by_group(Agraph_t *sub, struct model *m)
{
	Agraph_t *s;

	for (s = agfstsubg(sub); s; s = agnxtsubg(s)) {
		Agsym_t *sym = agattr(s, AGNODE, "shape", NULL);
		Agnode_t *n;

		if (sym && shape_is_final(sym->defval)) {
			for (n = agfstnode(s); n; n = agnxtnode(s, n)) {
				struct rv_rec *r = rec_of(n);

				/* the node's record knows its state: no search */
				if (r && r->state >= 0)
					m->states[r->state].final = true;
			}
		}
		mark_final_by_group(s, m);
	}
}

/*
 * A node cgraph cannot name back: "%N" is its own name for anonymous
 * objects, which it forgets after the read, so looking the node up by the
 * name it gives (agnode()) finds nothing. A state's name is a C identifier
 * anyway (validate.c); refuse it here, where the name is still known.
 */
static int check_node(Agnode_t *n, const char *name, const struct rv_rec *r,
		      struct rv_error *err)
{
	if (!r || !name) {
		rv_error_set(err, 1, "out of memory");
		return -1;
	}
	if (name[0] == '%' || agnode(agraphof(n), (char *)name, 0) != n) {
		rv_error_set(err, r->line,
			     "a node name beginning with '%%' is graphviz's own (it names anonymous nodes): a state's name is a C identifier");
		return -1;
	}
	return 0;
}

static int add_states(Agraph_t *g, struct model *m, const struct rv_source *src,
		      struct rv_error *err)
{
	int nnodes = agnnodes(g), init_line = 0;
	const char *init_name = NULL;
	Agnode_t *n, *target;

	m->states = calloc(nnodes ? nnodes : 1, sizeof(*m->states));
	if (!m->states) {
		rv_error_set(err, 1, "out of memory");
		return -1;
	}
	m->initial = -1;
	for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
		const char *name = agnameof(n);
		struct rv_rec *r = rec_of(n);
		struct rv_state *st;

		if (check_node(n, name, r, err))
			return -1;
		if (!strncmp(name, INIT_MARKER, strlen(INIT_MARKER))) {
			if (init_name) {
				rv_error_set(err, r->line,
					     "second initial marker '%s': '%s' already marks the initial state",
					     name, init_name);
				return -1;
			}
			init_name = name;
			init_line = r->line;
			continue;
		}
		r->state = m->nstates;
		st = &m->states[m->nstates++];
		st->name = xstrdup(name);
		if (!st->name) {
			rv_error_set(err, 1, "out of memory");
			return -1;
		}
		st->line = r->line;
		st->final = shape_is_final(agget(n, "shape"));
	}
	if (!init_name) {
		rv_error_set(err, src_first_line(src),
			     "no initial state: mark it with a node \"__init_STATE\" and an edge \"__init_STATE\" -> \"STATE\"");
		return -1;
	}
	target = agnode(g, (char *)init_name + strlen(INIT_MARKER), 0);
	m->initial = target && rec_of(target) ? rec_of(target)->state : -1;
	if (m->initial < 0) {
		rv_error_set(err, init_line,
			     "initial marker '%s' names no state '%s'",
			     init_name, init_name + strlen(INIT_MARKER));
		return -1;
	}
	mark_final_by_group(g, m);
	return 0;
}

/* In node order, as add_states() made the states: each node's record names its state. */
static int add_state_labels(Agraph_t *g, struct model *m, struct rv_error *err)
{
	Agnode_t *n;

	for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
		struct rv_rec *r = rec_of(n);
		struct rv_state *st;
		char *label = agget(n, "label");

		if (r->state < 0)
			continue;	/* the initial marker */
		st = &m->states[r->state];
		/* point invariant errors at the label, not the first mention */
		if (label_state(st->name, label,
				r->label_line ? r->label_line : st->line,
				&st->inv, err))
			return -1;
	}
	return 0;
}

static int add_transition(struct model *m, int from, int to, const char *piece,
			  int line, struct rv_error *err)
{
	struct rv_transition *t = &m->trans[m->ntrans];

	t->from = from;
	t->to = to;
	t->line = line;
	t->order = m->ntrans;
	if (label_event(piece, line, t, err)) {
		free(t->event);
		free(t->reset);
		free(t->guard);
		rv_cmps_free(t->cmp, t->ncmp);
		return -1;
	}
	m->ntrans++;
	return 0;
}

static int add_edge(Agedge_t *e, struct model *m, struct rv_error *err)
{
	const char *tail = agnameof(agtail(e)), *head = agnameof(aghead(e));
	char *label = agget(e, "label");
	int from, to, cnt, i, line = rec_of(e)->line;
	char **parts;
	void *grown;

	if (!strncmp(tail, INIT_MARKER, strlen(INIT_MARKER))) {
		if (strcmp(tail + strlen(INIT_MARKER), head)) {
			rv_error_set(err, line,
				     "initial marker '%s' points to '%s': it must point to '%s'",
				     tail, head, tail + strlen(INIT_MARKER));
			return -1;
		}
		return 0;
	}
	if (!strncmp(head, INIT_MARKER, strlen(INIT_MARKER))) {
		rv_error_set(err, line,
			     "edge '%s' -> '%s' enters an initial marker", tail,
			     head);
		return -1;
	}
	from = rec_of(agtail(e))->state;
	to = rec_of(aghead(e))->state;
	if (!label || !*label) {
		rv_error_set(err, line,
			     "edge '%s' -> '%s' has no label: every edge needs at least one event",
			     tail, head);
		return -1;
	}
	parts = label_split(label, &cnt);
	if (!parts) {
		rv_error_set(err, 1, "out of memory");
		return -1;
	}
	grown = realloc(m->trans, (m->ntrans + cnt) * sizeof(*m->trans));
	if (!grown) {
		label_free_split(parts);
		rv_error_set(err, 1, "out of memory");
		return -1;
	}
	m->trans = grown;
	for (i = 0; i < cnt; i++) {
		if (add_transition(m, from, to, parts[i], line, err)) {
			label_free_split(parts);
			return -1;
		}
	}
	label_free_split(parts);
	return 0;
}

/* Reports a marker without its edge; the edges themselves come later. */
static int check_init_edge(Agraph_t *g, const struct model *m,
			   struct rv_error *err)
{
	Agnode_t *n;

	for (n = agfstnode(g); n; n = agnxtnode(g, n)) {
		const char *name = agnameof(n);

		if (strncmp(name, INIT_MARKER, strlen(INIT_MARKER)))
			continue;
		if (agdegree(g, n, 0, 1) != 1) {
			rv_error_set(err, rec_of(n)->line,
				     "initial marker '%s' needs exactly one edge, to '%s'",
				     name, m->states[m->initial].name);
			return -1;
		}
	}
	return 0;
}

/* File order, so "first" and "second" in messages mean what they say. */
static int cmp_trans_line(const void *a, const void *b)
{
	const struct rv_transition *x = a, *y = b;

	if (x->line != y->line)
		return x->line - y->line;
	/* qsort is not stable: keep cgraph's order within a line */
	return x->order - y->order;
}

static int build(Agraph_t *g, struct model *m, const struct rv_source *src,
		 struct rv_error *err)
{
	Agnode_t *n;
	Agedge_t *e;

	if (!agisdirected(g)) {
		rv_error_set(err, src_first_line(src),
			     "the model is an undirected graph: declare it as 'digraph'");
		return -1;
	}
	if (agisstrict(g)) {
		rv_error_set(err, src_first_line(src),
			     "the model is a strict digraph, which merges parallel edges: declare it as 'digraph'");
		return -1;
	}
	if (add_states(g, m, src, err) || add_state_labels(g, m, err) ||
	    check_init_edge(g, m, err))
		return -1;
	for (n = agfstnode(g); n; n = agnxtnode(g, n))
		for (e = agfstout(g, n); e; e = agnxtout(g, e))
			if (add_edge(e, m, err))
				return -1;
	if (m->ntrans)
		qsort(m->trans, m->ntrans, sizeof(*m->trans), cmp_trans_line);
	return 0;
}

/*
 * Reads the first graph of TEXT, with the line of every node, edge and
 * label recorded, and refuses anything but blanks and comments after it.
 * NULL with err set on failure. Every path reads TEXT to its end: cgraph's
 * lexer keeps whatever it has not consumed for the next agread(), which
 * would otherwise be the next model's beginning (the fuzzer parses many).
 */
static Agraph_t *read_graph(const char *text, struct rv_error *err)
{
	Agiodisc_t io = AgIoDisc;
	Agiddisc_t id = AgIdDisc;
	Agdisc_t disc = { &AgMemDisc, &id, &io };
	Agraph_t *g, *more;
	bool failed = false;

	io.afread = rd_afread;
	id.idregister = rv_idregister;
	rd = (struct reader){ .text = text, .err = err };
	cg_msg[0] = '\0';
	agseterrf(cg_collect);
	agreadline(1);
	g = agread(NULL, &disc);
	/* cgraph may return a graph after an error (memory exhausted) */
	if (cg_msg[0]) {
		cgraph_error(err);
		failed = true;
	} else if (rd.failed) {
		failed = true;
	} else if (!g) {
		rv_error_set(err, 1, "no graph in the file");
		failed = true;
	}
	rd.trailing = true;
	while (!rd.eof) {
		int line = rd.line;

		cg_msg[0] = '\0';
		more = agread(NULL, &disc);
		if (more)
			agclose(more);
		if (!failed && (more || cg_msg[0])) {
			/* a second graph, or what cgraph could not parse */
			if (more)
				line = rd.trailing_line;
			else if (strstr(cg_msg, " in line "))
				line = atoi(strstr(cg_msg, " in line ") + 9);
			rv_error_set(err, line,
				     "text after the graph: a file holds one model, and cgraph would ignore the rest");
			failed = true;
		}
	}
	if (failed && g) {
		agclose(g);
		g = NULL;
	}
	return g;
}

struct model *model_parse(const char *text, const char *file, const char *name,
			  struct rv_error *err)
{
	struct rv_source src;
	struct model *m;
	Agraph_t *g;

	err->file = file;
	m = calloc(1, sizeof(*m));
	if (!m || src_init(&src, text)) {
		free(m);
		rv_error_set(err, 1, "out of memory");
		return NULL;
	}
	m->file = xstrdup(file);
	m->name = name ? xstrdup(name) : name_from_path(file);
	m->initial = -1;
	if (!m->file || !m->name) {
		rv_error_set(err, 1, "out of memory");
		goto fail;
	}
	if (!rv_is_identifier(m->name)) {
		rv_error_set(err, 1,
			     "model name '%s' is not a C identifier of at most 64 characters: rename the file or pass --name",
			     m->name);
		goto fail;
	}

	g = read_graph(text, err);
	if (!g)
		goto fail;
	if (build(g, m, &src, err)) {
		agclose(g);
		goto fail;
	}
	agclose(g);
	src_free(&src);
	return m;
fail:
	src_free(&src);
	model_free(m);
	return NULL;
}

struct model *model_load(const char *path, const char *name,
			 struct rv_error *err)
{
	struct model *m;
	char *text;
	size_t len;
	int fd, ret;

	err->file = path;
	fd = rv_open_regular(path);
	ret = fd < 0 ? fd : rv_read_bounded(fd, RV_MODEL_MAX, &text, &len);
	if (fd >= 0)
		close(fd);
	if (ret) {
		err->line = 0;
		if (ret == -EFBIG)
			snprintf(err->msg, sizeof(err->msg),
				 "larger than %d bytes, the most a model may have",
				 RV_MODEL_MAX);
		else
			snprintf(err->msg, sizeof(err->msg), "cannot %s: %s",
				 fd < 0 ? "open" : "read", rv_file_strerror(-ret));
		return NULL;
	}
	if (!len || memchr(text, '\0', len)) {
		free(text);
		rv_error_set(err, 1, len ? "the file contains a NUL byte" :
			     "the file is empty");
		return NULL;
	}
	m = model_parse(text, path, name, err);
	free(text);
	return m;
}

void model_free(struct model *m)
{
	int i;

	if (!m)
		return;
	for (i = 0; i < m->nstates; i++) {
		free(m->states[i].name);
		free(m->states[i].inv.env_name);
		free(m->states[i].inv.bound);
		free(m->states[i].inv.text);
	}
	free(m->states);
	for (i = 0; i < m->ntrans; i++) {
		free(m->trans[i].event);
		free(m->trans[i].reset);
		free(m->trans[i].guard);
		rv_cmps_free(m->trans[i].cmp, m->trans[i].ncmp);
	}
	free(m->trans);
	for (i = 0; i < m->nevents; i++)
		free(m->events[i]);
	free(m->events);
	for (i = 0; i < m->nenvs; i++)
		free(m->envs[i].name);
	free(m->envs);
	free(m->cells);
	free(m->file);
	free(m->name);
	free(m);
}
