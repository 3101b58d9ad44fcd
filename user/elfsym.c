// SPDX-License-Identifier: GPL-2.0
/*
 * ELF symbol resolution with libelf. The closest-name suggestion scans the
 * same tables, so what it suggests is always something resolve accepts.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfsym.h"
#include "utils.h"

#define SUGGEST_MAX	3

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

static bool is_code_symbol(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS)
		return false;
	return type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_NOTYPE;
}

/* Calls fn(name, sym, ctx) for every code symbol of .symtab, then .dynsym; stops on non-zero. */
static int for_each_symbol(Elf *elf, int (*fn)(const char *, const GElf_Sym *, void *),
			   void *ctx)
{
	static const Elf64_Word order[] = { SHT_SYMTAB, SHT_DYNSYM };

	for (size_t t = 0; t < sizeof(order) / sizeof(order[0]); t++) {
		Elf_Scn *scn = NULL;

		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr shdr;
			Elf_Data *data;

			if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != order[t] ||
			    !shdr.sh_entsize)
				continue;
			data = elf_getdata(scn, NULL);
			if (!data)
				continue;
			for (size_t i = 0; i < shdr.sh_size / shdr.sh_entsize; i++) {
				GElf_Sym sym;
				const char *name;
				int ret;

				if (!gelf_getsym(data, (int)i, &sym) || !is_code_symbol(&sym))
					continue;
				name = elf_strptr(elf, shdr.sh_link, sym.st_name);
				if (!name || !*name)
					continue;
				ret = fn(name, &sym, ctx);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

struct find_ctx {
	const char *name;
	uint64_t vaddr;
};

static int find_cb(const char *name, const GElf_Sym *sym, void *ctx)
{
	struct find_ctx *f = ctx;

	if (strcmp(name, f->name))
		return 0;
	f->vaddr = sym->st_value;
	return 1;
}

struct suggest_ctx {
	const char *name;
	const char *best[SUGGEST_MAX];
	unsigned int dist[SUGGEST_MAX];
	size_t count;
};

static int suggest_cb(const char *name, const GElf_Sym *sym, void *ctx)
{
	struct suggest_ctx *s = ctx;
	unsigned int d = tlob_edit_distance(s->name, name);
	size_t i;

	(void)sym;
	/* The same name comes from .symtab and .dynsym: keep it once. */
	for (i = 0; i < s->count; i++)
		if (!strcmp(s->best[i], name))
			return 0;
	for (i = 0; i < s->count && s->dist[i] <= d; i++)
		;
	if (i >= SUGGEST_MAX)
		return 0;
	if (s->count < SUGGEST_MAX)
		s->count++;
	memmove(&s->best[i + 1], &s->best[i], (s->count - 1 - i) * sizeof(s->best[0]));
	memmove(&s->dist[i + 1], &s->dist[i], (s->count - 1 - i) * sizeof(s->dist[0]));
	s->best[i] = name;
	s->dist[i] = d;
	return 0;
}

static void suggest(Elf *elf, const char *path, const char *name, char *err, size_t len)
{
	struct suggest_ctx s = { .name = name };
	size_t used, i;
	/* A suggestion further away than this is noise, not a typo. */
	unsigned int limit = (unsigned int)strlen(name) / 2 + 2;

	for_each_symbol(elf, suggest_cb, &s);
	used = (size_t)snprintf(err, len, "symbol '%s' not found in %s", name,
				TLOB_SHOWN(path));
	for (i = 0; i < s.count && used < len; i++) {
		if (s.dist[i] > limit)
			break;
		used += (size_t)snprintf(err + used, len - used, "%s%s",
					 i ? ", " : "; closest: ", s.best[i]);
	}
	if (!s.count && used < len)
		snprintf(err + used, len - used, " (it has no function symbols: stripped?)");
}

static int vaddr_to_offset(Elf *elf, uint64_t vaddr, uint64_t *off)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return -ENOEXEC;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr < ph.p_vaddr || vaddr >= ph.p_vaddr + ph.p_filesz)
			continue;
		if (!(ph.p_flags & PF_X))
			return -ENOEXEC;
		*off = vaddr - ph.p_vaddr + ph.p_offset;
		return 0;
	}
	return -ENOEXEC;
}

/* "name+0x10" -> name, 0x10 */
static int split_addend(const char *spec, char *name, size_t len, uint64_t *addend)
{
	const char *plus = strchr(spec, '+');
	size_t n = plus ? (size_t)(plus - spec) : strlen(spec);
	char *end;

	*addend = 0;
	if (!n || n >= len)
		return -EINVAL;
	memcpy(name, spec, n);
	name[n] = '\0';
	if (plus) {
		errno = 0;
		*addend = strtoull(plus + 1, &end, 0);
		if (errno || !plus[1] || *end)
			return -EINVAL;
	}
	return 0;
}

int tlob_elf_resolve(const char *path, const char *spec, uint64_t *offset,
		     char *err, size_t len)
{
	struct find_ctx f = { 0 };
	char name[512];
	uint64_t addend;
	Elf *elf = NULL;
	int fd, ret;

	if (split_addend(spec, name, sizeof(name), &addend)) {
		snprintf(err, len, "invalid symbol '%s' (NAME or NAME+OFFSET)", spec);
		return -EINVAL;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, len, "libelf: %s", elf_errmsg(-1));
		return -ENOSYS;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, len, "cannot open %s: %s", TLOB_SHOWN(path), strerror(errno));
		return ret;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(err, len, "%s: not an ELF file", TLOB_SHOWN(path));
		ret = -ENOEXEC;
		goto out;
	}

	f.name = name;
	if (!for_each_symbol(elf, find_cb, &f)) {
		suggest(elf, path, name, err, len);
		ret = -ENOENT;
		goto out;
	}
	ret = vaddr_to_offset(elf, f.vaddr + addend, offset);
	if (ret)
		snprintf(err, len,
			 "%s: '%s' (address 0x%" PRIx64 ") is not in an executable segment",
			 path, spec, f.vaddr + addend);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
