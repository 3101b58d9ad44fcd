// SPDX-License-Identifier: GPL-2.0
/*
 * ELF symbol resolution with libelf, and the checks that keep a probe on
 * the code a user means: symbol versions from .gnu.version/.gnu.version_d
 * (gelf_getversym, gelf_getverdef), symbol types, and instruction
 * boundaries (insn.c). The closest-name suggestion scans the same tables,
 * so what it suggests is always something resolve accepts.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "lib/utils.h"
#include "section/elfsym.h"
#include "tlob_parse.h"
#include "section/insn.h"

#define SUGGEST_MAX	3
#define IMPLS_MAX	6
#define FORCE_HINT	"pass --force-offset to bind it anyway"
/* The longest NAME[@VERSION] a lookup takes, with its NUL. */
#define SPEC_LEN	512

/* A .gnu.version entry: the version index, and the bit of a non-default (NAME@V) version. */
#define VERSYM_VERSION	0x7fff
#define VERSYM_HIDDEN	0x8000

unsigned int tlob_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned int *row, ret;

	row = malloc((lb + 1) * sizeof(*row));
	if (!row)
		return UINT32_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned int)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned int diag = row[0];

		row[0] = (unsigned int)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned int up = row[j], best;

			best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	ret = row[lb];
	free(row);
	return ret;
}

struct elf_file {
	const char *path;
	int fd;
	Elf *elf;
	const uint8_t *image;	/* the whole file, mapped by libelf */
	size_t size;
	uint16_t machine;
};

static int elf_file_open(struct elf_file *f, const char *path, char *err, size_t len)
{
	GElf_Ehdr ehdr;
	int ret;

	*f = (struct elf_file){ .path = path, .fd = -1 };
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, len, "libelf: %s", elf_errmsg(-1));
		return -ENOSYS;
	}
	/* A regular file only: a FIFO would block the open, a device is no binary. */
	ret = rv_open_regular(path);
	if (ret < 0) {
		snprintf(err, len, "cannot open %s: %s", TLOB_SHOWN(path), rv_file_strerror(-ret));
		return ret;
	}
	f->fd = ret;
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF || !gelf_getehdr(f->elf, &ehdr)) {
		snprintf(err, len, "%s: not an ELF file", TLOB_SHOWN(path));
		return -ENOEXEC;
	}
	f->machine = ehdr.e_machine;
	f->image = (const uint8_t *)elf_rawfile(f->elf, &f->size);
	return 0;
}

static void elf_file_close(struct elf_file *f)
{
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
}

/* One symbol as the lookups see it. */
struct sym {
	const char *name;	/* as stored: a .symtab name may end in @VER or @@VER */
	int base_len;		/* the name without its version */
	const char *version;	/* NULL: unversioned */
	bool hidden;		/* NAME@VER: a version that is not the default */
	GElf_Sym s;
};

static bool sym_is(const struct sym *sym, const char *name)
{
	return strlen(name) == (size_t)sym->base_len && !strncmp(sym->name, name, sym->base_len);
}

/* The first section of this type (linked to section link, unless link is SIZE_MAX). */
static Elf_Scn *find_section(Elf *elf, Elf64_Word type, size_t link)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == type &&
		    (link == SIZE_MAX || shdr.sh_link == link))
			return scn;
	return NULL;
}

/* The name .gnu.version_d gives version index ndx (NULL for the file's base version). */
static const char *verdef_name(Elf *elf, Elf_Scn *verdef, unsigned int ndx)
{
	GElf_Shdr shdr;
	Elf_Data *data;
	size_t off = 0;

	if (!verdef || !gelf_getshdr(verdef, &shdr) || !(data = elf_getdata(verdef, NULL)))
		return NULL;
	for (;;) {
		GElf_Verdef vd;
		GElf_Verdaux vda;

		if (!gelf_getverdef(data, (int)off, &vd))
			return NULL;
		if (vd.vd_ndx == ndx) {
			if ((vd.vd_flags & VER_FLG_BASE) ||
			    !gelf_getverdaux(data, (int)(off + vd.vd_aux), &vda))
				return NULL;
			return elf_strptr(elf, shdr.sh_link, vda.vda_name);
		}
		if (!vd.vd_next)
			return NULL;
		off += vd.vd_next;
	}
}

/*
 * .symtab spells a version into the name (the assembler's NAME@V and
 * NAME@@V); .dynsym has plain names and a parallel .gnu.version table.
 */
static void sym_version(Elf *elf, struct sym *sym, Elf_Data *versym, Elf_Scn *verdef, size_t i)
{
	const char *at = strchr(sym->name, '@');
	GElf_Versym vs;

	sym->base_len = at ? (int)(at - sym->name) : (int)strlen(sym->name);
	sym->version = NULL;
	sym->hidden = false;
	if (at) {
		sym->hidden = at[1] != '@';
		sym->version = at + (sym->hidden ? 1 : 2);
	} else if (versym && gelf_getversym(versym, (int)i, &vs) &&
		   (vs & VERSYM_VERSION) > 1) {
		sym->version = verdef_name(elf, verdef, vs & VERSYM_VERSION);
		sym->hidden = sym->version && (vs & VERSYM_HIDDEN);
	}
}

/*
 * Calls fn(sym, ctx) for every symbol defined in the file (of any type but
 * section and file names), .symtab first, then .dynsym; stops on non-zero.
 */
static int for_each_symbol(Elf *elf, int (*fn)(const struct sym *, void *), void *ctx)
{
	static const Elf64_Word order[] = { SHT_SYMTAB, SHT_DYNSYM };
	Elf_Scn *verdef = find_section(elf, SHT_GNU_verdef, SIZE_MAX);

	for (size_t t = 0; t < sizeof(order) / sizeof(order[0]); t++) {
		Elf_Scn *scn = NULL;

		while ((scn = elf_nextscn(elf, scn))) {
			Elf_Data *data, *versym = NULL;
			Elf_Scn *vscn;
			GElf_Shdr shdr;

			if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != order[t] ||
			    !shdr.sh_entsize)
				continue;
			data = elf_getdata(scn, NULL);
			if (!data)
				continue;
			vscn = find_section(elf, SHT_GNU_versym, elf_ndxscn(scn));
			if (order[t] == SHT_DYNSYM && vscn)
				versym = elf_getdata(vscn, NULL);
			for (size_t i = 0; i < shdr.sh_size / shdr.sh_entsize; i++) {
				struct sym sym;
				int type, ret;

				if (!gelf_getsym(data, (int)i, &sym.s))
					continue;
				type = GELF_ST_TYPE(sym.s.st_info);
				if (sym.s.st_shndx == SHN_UNDEF || sym.s.st_shndx == SHN_ABS ||
				    type == STT_SECTION || type == STT_FILE)
					continue;
				sym.name = elf_strptr(elf, shdr.sh_link, sym.s.st_name);
				if (!sym.name || !*sym.name)
					continue;
				sym_version(elf, &sym, versym, verdef, i);
				ret = fn(&sym, ctx);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

/* Code is a function, an IFUNC, or an untyped label in an executable section. */
static bool is_code(Elf *elf, const GElf_Sym *s)
{
	GElf_Shdr shdr;

	switch (GELF_ST_TYPE(s->st_info)) {
	case STT_FUNC:
	case STT_GNU_IFUNC:
		return true;
	case STT_NOTYPE:
		return gelf_getshdr(elf_getscn(elf, s->st_shndx), &shdr) &&
		       (shdr.sh_flags & SHF_EXECINSTR);
	default:
		return false;
	}
}

/* ---- suggestions: closest names, versions, IFUNC implementations ---- */

struct suggest_ctx {
	Elf *elf;
	const char *name;
	char best[SUGGEST_MAX][128];
	unsigned int dist[SUGGEST_MAX];
	size_t count;
};

static int suggest_cb(const struct sym *sym, void *ctx)
{
	struct suggest_ctx *s = ctx;
	char base[128];
	unsigned int d;
	size_t i;

	if (!is_code(s->elf, &sym->s))
		return 0;
	snprintf(base, sizeof(base), "%.*s", sym->base_len, sym->name);
	d = tlob_edit_distance(s->name, base);
	/* The same name comes from .symtab and .dynsym: keep it once. */
	for (i = 0; i < s->count; i++)
		if (!strcmp(s->best[i], base))
			return 0;
	for (i = 0; i < s->count && s->dist[i] <= d; i++)
		;
	if (i >= SUGGEST_MAX)
		return 0;
	if (s->count < SUGGEST_MAX)
		s->count++;
	memmove(&s->best[i + 1], &s->best[i], (s->count - 1 - i) * sizeof(s->best[0]));
	memmove(&s->dist[i + 1], &s->dist[i], (s->count - 1 - i) * sizeof(s->dist[0]));
	strcpy(s->best[i], base);
	s->dist[i] = d;
	return 0;
}

static void suggest(const struct elf_file *f, const char *name, char *err, size_t len)
{
	struct suggest_ctx s = { .elf = f->elf, .name = name };
	size_t used, i;
	/* A suggestion further away than this is noise, not a typo. */
	unsigned int limit = (unsigned int)strlen(name) / 2 + 2;

	for_each_symbol(f->elf, suggest_cb, &s);
	used = (size_t)snprintf(err, len, "symbol '%s' not found in %s", name,
				TLOB_SHOWN(f->path));
	for (i = 0; i < s.count && used < len; i++) {
		if (s.dist[i] > limit)
			break;
		used += (size_t)snprintf(err + used, len - used, "%s%s",
					 i ? ", " : "; closest: ", s.best[i]);
	}
	if (!s.count && used < len)
		snprintf(err + used, len - used, " (it has no function symbols: stripped?)");
}

/* A list of names, each once: "a, b, c"; past max, only "more" is noted. */
struct names {
	char buf[512];
	size_t used, count, max;
	bool more;
};

static void names_add(struct names *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void names_add(struct names *n, const char *fmt, ...)
{
	char one[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(one, sizeof(one), fmt, ap);
	va_end(ap);
	for (const char *p = n->buf; (p = strstr(p, one)); p += strlen(one))
		if ((p == n->buf || p[-1] == ' ') && (!p[strlen(one)] || p[strlen(one)] == ','))
			return;
	if (n->max && n->count >= n->max) {
		n->more = true;
		return;
	}
	if (n->used < sizeof(n->buf))
		n->used += (size_t)snprintf(n->buf + n->used, sizeof(n->buf) - n->used, "%s%s",
					    n->count ? ", " : "", one);
	n->count++;
}

struct versions_ctx {
	const char *name;
	struct names list;
};

static int versions_cb(const struct sym *sym, void *ctx)
{
	struct versions_ctx *v = ctx;

	if (!sym_is(sym, v->name))
		return 0;
	if (!sym->version)
		names_add(&v->list, "%s (unversioned)", v->name);
	else
		names_add(&v->list, "%s%s%s", v->name, sym->hidden ? "@" : "@@", sym->version);
	return 0;
}

/* NAME exists, but not in the version asked for: say which versions it has. */
static bool version_error(const struct elf_file *f, const char *name, const char *spec,
			  bool versioned, char *err, size_t len)
{
	struct versions_ctx v = { .name = name };

	for_each_symbol(f->elf, versions_cb, &v);
	if (!v.list.count)
		return false;
	if (versioned)
		snprintf(err, len, "'%s' not found in %s; its versions: %s", spec, TLOB_SHOWN(f->path),
			 v.list.buf);
	else
		snprintf(err, len, "'%s' in %s has no default version, so no unversioned call "
			 "reaches it; name one: %s", name, TLOB_SHOWN(f->path), v.list.buf);
	return true;
}

struct impls_ctx {
	const char *name;
	uint64_t resolver;
	struct names list;
};

/* glibc's naming: memcpy's implementations are __memcpy_avx_unaligned, __memcpy_sse2_... */
static int impls_cb(const struct sym *sym, void *ctx)
{
	struct impls_ctx *c = ctx;
	const char *p = sym->name, *want = c->name;
	size_t n;

	if (GELF_ST_TYPE(sym->s.st_info) != STT_FUNC || sym->s.st_value == c->resolver)
		return 0;
	while (*p == '_')
		p++;
	while (*want == '_')
		want++;
	n = strlen(want);
	if ((int)(p - sym->name + n) < sym->base_len && !strncmp(p, want, n) && p[n] == '_')
		names_add(&c->list, "%.*s", sym->base_len, sym->name);
	return 0;
}

static int ifunc_error(const struct elf_file *f, const char *name, const GElf_Sym *s,
		       char *err, size_t len)
{
	struct impls_ctx c = { .name = name, .resolver = s->st_value, .list.max = IMPLS_MAX };
	size_t used;

	for_each_symbol(f->elf, impls_cb, &c);
	used = (size_t)snprintf(err, len, "'%s' in %s is an IFUNC: its address is the resolver "
				"that picks an implementation when the program loads, not the "
				"code a call runs", name, TLOB_SHOWN(f->path));
	if (used >= len)
		return -ENOEXEC;
	if (!c.list.count)
		snprintf(err + used, len - used, ", and the file's symbols name no "
			 "implementation (%s_*, __%s_*) to bind instead", name, name);
	else
		snprintf(err + used, len - used, "; bind an implementation instead: %s%s",
			 c.list.buf, c.list.more ? ", ..." : "");
	return -ENOEXEC;
}

/* Anything but code is refused, with what it is. */
static int check_kind(const struct elf_file *f, const char *name, const GElf_Sym *s,
		      char *err, size_t len)
{
	const char *what;

	if (GELF_ST_TYPE(s->st_info) == STT_GNU_IFUNC)
		return ifunc_error(f, name, s, err, len);
	if (is_code(f->elf, s))
		return 0;
	switch (GELF_ST_TYPE(s->st_info)) {
	case STT_OBJECT:
	case STT_COMMON:
		what = "a data object";
		break;
	case STT_TLS:
		what = "thread-local data";
		break;
	case STT_NOTYPE:
		what = "a label outside the code sections";
		break;
	default:
		what = "not a function";
		break;
	}
	snprintf(err, len, "'%s' in %s is %s, not code: tlob binds functions", name, TLOB_SHOWN(f->path),
		 what);
	return -ENOEXEC;
}

/* ---- addresses: segments and instruction boundaries ---- */

/* The executable PT_LOAD that maps address (or file offset, by_offset) where from the file. */
static bool exec_segment(Elf *elf, uint64_t where, bool by_offset, GElf_Phdr *out)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		uint64_t lo;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		lo = by_offset ? ph.p_offset : ph.p_vaddr;
		if (where < lo || where - lo >= ph.p_filesz || !(ph.p_flags & PF_X))
			continue;
		*out = ph;
		return true;
	}
	return false;
}

/* "0x1000..0x1a3f, 0x5000..0x50ff": the file offsets of executable code */
static void exec_ranges(Elf *elf, char *buf, size_t len)
{
	size_t n, used = 0;

	buf[0] = '\0';
	if (elf_getphdrnum(elf, &n))
		return;
	for (size_t i = 0; i < n && used < len; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X) || !ph.p_filesz)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s0x%" PRIx64 "..0x%" PRIx64,
					 used ? ", " : "", ph.p_offset,
					 ph.p_offset + ph.p_filesz - 1);
	}
}

/* A function, where its bytes lie in the file, and how to name a place in it. */
struct func {
	const struct elf_file *f;
	const struct sym *sym;
	GElf_Phdr ph;		/* the executable PT_LOAD that maps it */
};

/* "frame_begin+0x4 (file offset 0x1141)" */
static const char *func_where(const struct func *fn, uint64_t vaddr, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s+0x%" PRIx64 " (file offset 0x%" PRIx64 ")", fn->sym->base_len,
		 fn->sym->name, vaddr - fn->sym->s.st_value,
		 vaddr - fn->ph.p_vaddr + fn->ph.p_offset);
	return buf;
}

/* Decode fn from its start to vaddr (the whole of it: vaddr = UINT64_MAX). */
static int func_decode(const struct func *fn, uint64_t vaddr, struct tlob_insn *insn)
{
	uint64_t start = fn->sym->s.st_value, end = fn->ph.p_vaddr + fn->ph.p_filesz;
	uint64_t off = start - fn->ph.p_vaddr + fn->ph.p_offset;

	*insn = (struct tlob_insn){ .addr = start, .next = start };
	if (fn->sym->s.st_size && start + fn->sym->s.st_size < end)
		end = start + fn->sym->s.st_size;
	/* Bytes libelf cannot give, or a function that starts in another segment. */
	if (!fn->f->image || start < fn->ph.p_vaddr || start >= end ||
	    off + (end - start) > fn->f->size)
		return -EBADMSG;
	return tlob_insn_find(fn->f->machine, fn->f->image + off, end - start, start, vaddr,
			      insn);
}

/*
 * Is vaddr, in fn, the first byte of an instruction? what is how the user
 * named it ("'frame_begin+0x1'", "offset 0x1141").
 */
static int check_boundary(const struct func *fn, uint64_t vaddr, unsigned int flags,
			  const char *what, char *err, size_t len)
{
	char at[160], lo[160], hi[160], mach[32];
	struct tlob_insn insn;
	int ret = func_decode(fn, vaddr, &insn);

	switch (ret) {
	case 0:
		return 0;
	case -EILSEQ:
		snprintf(err, len, "%s in %s is not on an instruction boundary: it falls inside "
			 "'%s'; the nearest boundaries are %s, where that instruction starts, "
			 "and %s", what, TLOB_SHOWN(fn->f->path), insn.text,
			 func_where(fn, insn.addr, lo, sizeof(lo)),
			 func_where(fn, insn.next, hi, sizeof(hi)));
		return -EILSEQ;
	case -ENOTSUP:
		if (flags & TLOB_ELF_FORCE)
			return 0;
		snprintf(err, len, "%s in %s cannot be checked for an instruction boundary: "
			 "tlob decodes x86-64 code and this is %s; bind a function's start, or "
			 FORCE_HINT, what, TLOB_SHOWN(fn->f->path),
			 tlob_insn_machine_name(fn->f->machine, mach, sizeof(mach)));
		return -ENOTSUP;
	case -ENOMEM:
		snprintf(err, len, "capstone: out of memory");
		return -ENOMEM;
	default:
		if (flags & TLOB_ELF_FORCE)
			return 0;
		snprintf(err, len, "%s in %s cannot be checked for an instruction boundary: the "
			 "bytes at %s do not decode as x86-64 instructions; " FORCE_HINT,
			 what, TLOB_SHOWN(fn->f->path), func_where(fn, insn.addr, at, sizeof(at)));
		return -ENOTSUP;
	}
}

/* ---- NAME[@VERSION|@@VERSION][+OFF] ---- */

struct lookup {
	Elf *elf;
	char name[SPEC_LEN];
	const char *version;	/* NULL: the default version */
	bool want_default;	/* NAME@@VERSION */
	uint64_t addend;
	struct sym found;	/* code beats data of the same name */
	bool have, have_code;
	uint64_t other;		/* another match of the same rank elsewhere */
};

static int parse_spec(const char *spec, struct lookup *l)
{
	const char *plus = strchr(spec, '+');
	size_t n = plus ? (size_t)(plus - spec) : strlen(spec);
	u64 addend = 0;
	char *at;

	if (!n || n >= sizeof(l->name))
		return -EINVAL;
	memcpy(l->name, spec, n);
	l->name[n] = '\0';
	at = strchr(l->name, '@');
	if (at) {
		*at++ = '\0';
		l->want_default = *at == '@';
		l->version = at + l->want_default;
		if (!*l->version || strchr(l->version, '@') || !l->name[0])
			return -EINVAL;
	}
	/*
	 * The offset as the monitor line writes one: decimal, or 0x and hex;
	 * "+010" is ten, as the kernel reads it, never octal.
	 */
	if (plus && tlob_parse_offset(plus + 1, &addend))
		return -EINVAL;
	l->addend = addend;
	return 0;
}

static bool lookup_matches(const struct lookup *l, const struct sym *sym)
{
	if (!sym_is(sym, l->name))
		return false;
	if (!l->version)
		return !sym->hidden;
	return sym->version && !strcmp(sym->version, l->version) &&
	       (!l->want_default || !sym->hidden);
}

static int lookup_cb(const struct sym *sym, void *ctx)
{
	struct lookup *l = ctx;
	bool code = is_code(l->elf, &sym->s);

	if (!lookup_matches(l, sym) || (l->have_code && !code))
		return 0;
	if (l->have && code == l->have_code) {
		if (sym->s.st_value != l->found.s.st_value && !l->other)
			l->other = sym->s.st_value;
		return 0;
	}
	l->found = *sym;
	l->have = true;
	l->have_code = code;
	l->other = 0;
	return 0;
}

static int not_found(const struct elf_file *f, const struct lookup *l, char *err, size_t len)
{
	char name[sizeof(l->name) + 64];

	snprintf(name, sizeof(name), "%s%s%s%s", l->name, l->version ? "@" : "",
		 l->want_default ? "@" : "", l->version ? l->version : "");
	if (!version_error(f, l->name, name, l->version, err, len))
		suggest(f, l->name, err, len);
	return -ENOENT;
}

/* Where NAME+OFF lies: inside the function, on an instruction boundary. */
static int place(const struct elf_file *f, const struct lookup *l, const char *spec,
		 unsigned int flags, uint64_t *offset, char *err, size_t len)
{
	const GElf_Sym *s = &l->found.s;
	struct func fn = { .f = f, .sym = &l->found };
	uint64_t vaddr = s->st_value + l->addend;
	char what[sizeof(l->name) + 32], last[160];
	struct tlob_insn insn;

	snprintf(what, sizeof(what), "'%s'", spec);
	if (l->addend && !s->st_size && !(flags & TLOB_ELF_FORCE)) {
		snprintf(err, len, "%s in %s: the symbol table gives %s no size, so tlob cannot "
			 "tell whether the offset is inside it; bind %s, or " FORCE_HINT,
			 what, TLOB_SHOWN(f->path), l->name, l->name);
		return -ENOTSUP;
	}
	if (s->st_size && l->addend >= s->st_size) {
		int n = snprintf(err, len, "%s in %s is past the end of %s, which is 0x%" PRIx64
				 " bytes long", what, TLOB_SHOWN(f->path), l->name, (uint64_t)s->st_size);

		if (exec_segment(f->elf, s->st_value, false, &fn.ph) &&
		    func_decode(&fn, UINT64_MAX, &insn) == -ERANGE && n > 0 && (size_t)n < len)
			snprintf(err + n, len - (size_t)n, "; its last instruction is at %s",
				 func_where(&fn, insn.addr, last, sizeof(last)));
		return -ERANGE;
	}
	if (!exec_segment(f->elf, vaddr, false, &fn.ph)) {
		snprintf(err, len, "%s: '%s' (address 0x%" PRIx64 ") is not in an executable "
			 "segment", TLOB_SHOWN(f->path), spec, vaddr);
		return -ENOEXEC;
	}
	if (l->addend) {
		int ret = check_boundary(&fn, vaddr, flags, what, err, len);

		if (ret)
			return ret;
	}
	*offset = vaddr - fn.ph.p_vaddr + fn.ph.p_offset;
	return 0;
}

/* Two functions (static, in two files) of one name: offer both, as file offsets. */
static void ambiguous(const struct elf_file *f, const struct lookup *l, char *err, size_t len)
{
	uint64_t at[2] = { l->found.s.st_value, l->other };
	GElf_Phdr ph;

	for (int i = 0; i < 2; i++)
		if (exec_segment(f->elf, at[i], false, &ph))
			at[i] = at[i] - ph.p_vaddr + ph.p_offset;
	snprintf(err, len, "'%s' names more than one symbol in %s (at file offsets 0x%" PRIx64
		 " and 0x%" PRIx64 "); bind the one you mean by its offset", l->name, TLOB_SHOWN(f->path),
		 at[0], at[1]);
}

int tlob_elf_resolve(const char *path, const char *spec, unsigned int flags,
		     uint64_t *offset, char *err, size_t len)
{
	struct lookup *l;
	struct elf_file f;
	int ret;

	l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	if (parse_spec(spec, l)) {
		snprintf(err, len, "invalid symbol '%s' (NAME, NAME@VERSION or NAME+OFFSET, "
			 "OFFSET a decimal or 0x number)", spec);
		free(l);
		return -EINVAL;
	}
	ret = elf_file_open(&f, path, err, len);
	if (ret)
		goto out;
	l->elf = f.elf;
	for_each_symbol(f.elf, lookup_cb, l);
	if (!l->have) {
		ret = not_found(&f, l, err, len);
	} else if (l->other) {
		ambiguous(&f, l, err, len);
		ret = -ENOENT;
	} else {
		ret = check_kind(&f, l->name, &l->found.s, err, len);
		if (!ret)
			ret = place(&f, l, spec, flags, offset, err, len);
	}
out:
	elf_file_close(&f);
	free(l);
	return ret;
}

/* ---- raw file offsets ---- */

struct contain_ctx {
	Elf *elf;
	uint64_t vaddr;
	struct sym found;	/* a symbol that starts at vaddr wins over one around it */
	bool have, exact;
	struct sym ifunc;	/* an IFUNC there: its resolver, whatever else names it */
	bool have_ifunc;
};

static int contain_cb(const struct sym *sym, void *ctx)
{
	struct contain_ctx *c = ctx;
	const GElf_Sym *s = &sym->s;
	bool exact = s->st_value == c->vaddr;

	if (!is_code(c->elf, s) ||
	    !(exact || (c->vaddr > s->st_value && c->vaddr - s->st_value < s->st_size)))
		return 0;
	if (GELF_ST_TYPE(s->st_info) == STT_GNU_IFUNC && !c->have_ifunc) {
		c->ifunc = *sym;
		c->have_ifunc = true;
	}
	if (c->exact || (c->have && !exact))
		return 0;
	c->found = *sym;
	c->have = true;
	c->exact = exact;
	return 0;
}

int tlob_elf_check_offset(const char *path, uint64_t offset, unsigned int flags,
			  char *err, size_t len)
{
	struct contain_ctx c = { 0 };
	struct func fn;
	struct elf_file f;
	char what[64], name[160], ranges[256];
	int ret;

	ret = elf_file_open(&f, path, err, len);
	if (ret)
		goto out;
	fn = (struct func){ .f = &f, .sym = &c.found };
	snprintf(what, sizeof(what), "offset 0x%" PRIx64, offset);
	if (!exec_segment(f.elf, offset, true, &fn.ph)) {
		exec_ranges(f.elf, ranges, sizeof(ranges));
		snprintf(err, len, "%s of %s is not in its executable code (file offsets %s)",
			 what, TLOB_SHOWN(path), ranges[0] ? ranges : "none");
		ret = -ENOEXEC;
		goto out;
	}
	c.elf = f.elf;
	c.vaddr = offset - fn.ph.p_offset + fn.ph.p_vaddr;
	for_each_symbol(f.elf, contain_cb, &c);
	if (!c.have) {
		if (!(flags & TLOB_ELF_FORCE)) {
			snprintf(err, len, "%s of %s is in no function symbol, so tlob cannot check "
				 "that an instruction starts there; " FORCE_HINT, what, TLOB_SHOWN(path));
			ret = -ENOTSUP;
		}
		goto out;
	}
	if (c.have_ifunc) {
		snprintf(name, sizeof(name), "%.*s", c.ifunc.base_len, c.ifunc.name);
		ret = ifunc_error(&f, name, &c.ifunc.s, err, len);
		goto out;
	}
	if (!c.exact)
		ret = check_boundary(&fn, c.vaddr, flags, what, err, len);
out:
	elf_file_close(&f);
	return ret;
}

int tlob_elf_symbolize(const char *path, uint64_t offset, char *buf, size_t len)
{
	struct contain_ctx c = { 0 };
	struct elf_file f;
	GElf_Phdr ph;
	char err[256];
	uint64_t delta;
	int ret;

	ret = elf_file_open(&f, path, err, sizeof(err));
	if (ret)
		return ret;
	ret = -ENOENT;
	if (!exec_segment(f.elf, offset, true, &ph))
		goto out;
	c.elf = f.elf;
	c.vaddr = offset - ph.p_offset + ph.p_vaddr;
	for_each_symbol(f.elf, contain_cb, &c);
	if (!c.have)
		goto out;
	delta = c.vaddr - c.found.s.st_value;
	/* NAME@V only for a compat version: plain NAME resolves to the default one. */
	snprintf(buf, len, "%.*s%s%s", c.found.base_len, c.found.name,
		 c.found.hidden && c.found.version ? "@" : "",
		 c.found.hidden && c.found.version ? c.found.version : "");
	if (delta)
		snprintf(buf + strlen(buf), len - strlen(buf), "+0x%" PRIx64, delta);
	ret = 0;
out:
	elf_file_close(&f);
	return ret;
}

/* ---- the functions a user can bind by name (shell completion) ---- */

/* One code symbol, named as tlob_elf_resolve() takes it. */
struct fn_name {
	const char *name;	/* as stored; base_len of it is the name */
	int base_len;
	const char *version;	/* a compat version: NAME@VERSION; else NULL */
	uint64_t value;
	bool listed;		/* bindable() */
};

struct functions_ctx {
	Elf *elf;
	struct fn_name *v;
	size_t n, cap, max;
};

/*
 * A name a shell line carries unquoted and the -b and -e terms whole: a
 * C identifier and the compilers' '.' suffixes (frame_begin.cold), no
 * ',' or ':' that split the terms, no '+' of an offset, no '$' or quote
 * the shell expands when a completed line runs.
 */
static bool term_safe(const char *s, size_t n)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.";

	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!s[i] || !strchr(safe, s[i]))
			return false;
	return true;
}

/* NAME, or NAME@VERSION for a compat version, as a lookup takes it whole. */
static bool spec_safe(const struct sym *sym)
{
	size_t n = (size_t)sym->base_len;

	if (!term_safe(sym->name, n))
		return false;
	if (sym->hidden)
		n += 1 + strlen(sym->version);
	return n < SPEC_LEN && (!sym->hidden || term_safe(sym->version, strlen(sym->version)));
}

/* A sized function whose code place() finds: an executable section and segment. */
static bool bindable(Elf *elf, const GElf_Sym *s)
{
	GElf_Shdr shdr;
	GElf_Phdr ph;

	return GELF_ST_TYPE(s->st_info) == STT_FUNC && s->st_size &&
	       gelf_getshdr(elf_getscn(elf, s->st_shndx), &shdr) &&
	       (shdr.sh_flags & SHF_EXECINSTR) && exec_segment(elf, s->st_value, false, &ph);
}

static int functions_cb(const struct sym *sym, void *ctx)
{
	struct functions_ctx *c = ctx;
	struct fn_name *e;

	/* Every code symbol counts: two of one name make the name ambiguous. */
	if (!is_code(c->elf, &sym->s) || !spec_safe(sym))
		return 0;
	if (c->n == c->max)
		return 1;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		struct fn_name *v = reallocarray(c->v, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->v = v;
		c->cap = cap;
	}
	e = &c->v[c->n++];
	*e = (struct fn_name){
		.name = sym->name, .base_len = sym->base_len, .value = sym->s.st_value,
		.version = sym->hidden ? sym->version : NULL,
		.listed = bindable(c->elf, &sym->s),
	};
	return 0;
}

/* Character i of the name as a user spells it, NAME or NAME@VERSION; 0 at its end. */
static char spelled(const struct fn_name *e, size_t i)
{
	size_t n = (size_t)e->base_len;

	if (i < n)
		return e->name[i];
	if (!e->version)
		return '\0';
	return i == n ? '@' : e->version[i - n - 1];
}

/* By the name as spelled, bytewise (as LC_ALL=C sort), then by address. */
static int fn_name_cmp(const void *pa, const void *pb)
{
	const struct fn_name *a = pa, *b = pb;

	/* Stops at the first difference or at both ends: never reads past one. */
	for (size_t i = 0;; i++) {
		unsigned char x = (unsigned char)spelled(a, i), y = (unsigned char)spelled(b, i);

		if (x != y)
			return x - y;
		if (!x)
			break;
	}
	return (a->value > b->value) - (a->value < b->value);
}

static bool same_name(const struct fn_name *a, const struct fn_name *b)
{
	struct fn_name x = *a;

	x.value = b->value;
	return !fn_name_cmp(&x, b);
}

/*
 * Each name once; one that names code at two addresses (static functions
 * of two files) is left out, as tlob_elf_resolve() refuses it.
 */
static size_t emit_functions(const struct functions_ctx *c, size_t max,
			     void (*fn)(const char *name, void *ctx), void *ctx)
{
	size_t count = 0;
	char buf[SPEC_LEN];

	for (size_t i = 0, j; i < c->n && count < max; i = j) {
		bool listed = false, ambiguous = false;

		for (j = i; j < c->n && same_name(&c->v[i], &c->v[j]); j++) {
			listed |= c->v[j].listed;
			ambiguous |= c->v[j].value != c->v[i].value;
		}
		if (!listed || ambiguous)
			continue;
		snprintf(buf, sizeof(buf), "%.*s%s%s", c->v[i].base_len, c->v[i].name,
			 c->v[i].version ? "@" : "", c->v[i].version ? c->v[i].version : "");
		fn(buf, ctx);
		count++;
	}
	return count;
}

int tlob_elf_functions(const char *path, size_t max,
		       void (*fn)(const char *name, void *ctx), void *ctx,
		       char *err, size_t len)
{
	struct functions_ctx c = { .max = max > SIZE_MAX / 4 ? SIZE_MAX / 2 : max * 2 };
	struct elf_file f;
	int ret;

	ret = elf_file_open(&f, path, err, len);
	if (ret)
		goto out;
	c.elf = f.elf;
	ret = for_each_symbol(f.elf, functions_cb, &c);
	if (ret < 0) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	if (c.n)
		qsort(c.v, c.n, sizeof(*c.v), fn_name_cmp);
	ret = 0;
	if (!emit_functions(&c, max, fn, ctx)) {
		snprintf(err, len, "%s has no function symbols tlob can bind (stripped?)",
			 TLOB_SHOWN(path));
		ret = -ENOENT;
	}
out:
	free(c.v);
	elf_file_close(&f);
	return ret;
}
