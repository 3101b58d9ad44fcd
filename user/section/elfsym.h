/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbol name -> ELF file offset, the unit uprobes (and so tlob's monitor
 * file) take: look the symbol up in .symtab, then .dynsym, and turn its
 * virtual address into a file offset through the PT_LOAD program header
 * that maps it. Works for PIE and non-PIE executables and shared libraries.
 *
 * Nothing that would probe the wrong code or break the program passes:
 * the symbol must be a function (not data, not an IFUNC's resolver), of
 * the version the dynamic linker binds a call to, and every offset must
 * lie in executable code, inside its function and on an instruction
 * boundary (decoded with capstone, x86-64).
 */
#ifndef TLOB_ELFSYM_H
#define TLOB_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

enum tlob_elf_flags {
	/*
	 * Accept an offset whose instruction boundary tlob cannot check (in
	 * no function symbol, in a function of unknown size, bytes capstone
	 * does not decode, not x86-64). Never one it knows is inside an
	 * instruction.
	 */
	TLOB_ELF_FORCE = 1 << 0,
};

/*
 * Resolve "NAME[@VERSION|@@VERSION][+OFF]" in the ELF file path. NAME
 * alone is the default version (what an unversioned call binds to);
 * NAME@V is version V, NAME@@V version V if it is the default. Returns 0,
 * -EINVAL (spec malformed: a usage error), -ENOENT (no such symbol or
 * version: err names the closest), -ENOEXEC (not an ELF file, not code, or
 * not in an executable PT_LOAD), -EILSEQ (OFF not on an instruction
 * boundary), -ERANGE (OFF past the function's end), -ENOTSUP (cannot be
 * checked), -errno from open(). err always gets one sentence on failure.
 */
int tlob_elf_resolve(const char *path, const char *spec, unsigned int flags,
		     uint64_t *offset, char *err, size_t len);

/*
 * Check a raw file offset of path as tlob_elf_resolve() checks NAME+OFF:
 * an ELF file, an executable PT_LOAD, an instruction boundary of the
 * function that contains it. Same returns.
 */
int tlob_elf_check_offset(const char *path, uint64_t offset, unsigned int flags,
			  char *err, size_t len);

/*
 * The other way round, for people reading an offset (metric labels): the
 * function that holds file offset OFF of path now, as "NAME", "NAME+0xD"
 * or "NAME@VERSION" for a compat version. 0, -ENOENT (in no function
 * symbol, or not in executable code) or another -errno.
 */
int tlob_elf_symbolize(const char *path, uint64_t offset, char *buf, size_t len);

/*
 * The functions of path a -b or -e term can name, for shell completion:
 * fn(name, ctx) for each, sorted, each once, at most max. A name is
 * "NAME" as tlob_elf_resolve() takes it, "NAME@VERSION" for a compat
 * version that NAME alone does not reach; only sized functions (STT_FUNC)
 * in executable code, no name that two addresses share, and none but
 * letters, digits, '_' and '.' (what a shell line carries unquoted). Returns 0, or
 * a -errno with err set as tlob_elf_resolve() does (-ENOENT: none).
 */
int tlob_elf_functions(const char *path, size_t max,
		       void (*fn)(const char *name, void *ctx), void *ctx,
		       char *err, size_t len);

/* Levenshtein distance between a and b (for "did you mean"). */
unsigned int tlob_edit_distance(const char *a, const char *b);

#endif /* TLOB_ELFSYM_H */
