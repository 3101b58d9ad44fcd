/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Symbol name -> ELF file offset, the unit uprobes (and so tlob's monitor
 * file) take: look the symbol up in .symtab, then .dynsym, and turn its
 * virtual address into a file offset through the PT_LOAD program header
 * that maps it. Works for PIE and non-PIE executables and shared libraries.
 */
#ifndef TLOB_ELFSYM_H
#define TLOB_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

/*
 * Resolve "name" or "name+OFF" in the ELF file path. Returns 0, or
 * -ENOENT (no such symbol: err names the closest ones), -ENOEXEC (not an
 * ELF file, or the address is not in an executable PT_LOAD), -errno from
 * open(). err always gets a one-line reason on failure.
 */
int tlob_elf_resolve(const char *path, const char *name, uint64_t *offset,
		     char *err, size_t len);

/* Levenshtein distance between a and b (for "did you mean"). */
unsigned int tlob_edit_distance(const char *a, const char *b);

#endif /* TLOB_ELFSYM_H */
