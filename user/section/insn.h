/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instruction boundaries, by decoding with capstone: a uprobe placed
 * inside an instruction replaces one of its bytes with int3, so the
 * program runs a different instruction (SIGILL at best). x86-64 only.
 */
#ifndef TLOB_INSN_H
#define TLOB_INSN_H

#include <stddef.h>
#include <stdint.h>

struct tlob_insn {
	uint64_t addr;		/* where the instruction starts */
	uint64_t next;		/* where the next one starts */
	char text[200];		/* "mov rbp, rsp" (capstone: mnemonic[32], op_str[160]) */
};

/*
 * Decode code[0..size), loaded at address base, from its first byte on,
 * until target. Returns 0 when an instruction starts at target; -EILSEQ
 * when target falls inside the instruction *insn; -ERANGE when target is
 * at or past base + size (*insn is the last instruction); -EBADMSG when
 * the bytes at insn->addr do not decode (insn->next == insn->addr);
 * -ENOTSUP when ELF machine is not one tlob decodes; -ENOMEM.
 */
int tlob_insn_find(uint16_t machine, const uint8_t *code, size_t size, uint64_t base,
		   uint64_t target, struct tlob_insn *insn);

/* "x86-64", or "ELF machine N" */
const char *tlob_insn_machine_name(uint16_t machine, char *buf, size_t len);

#endif /* TLOB_INSN_H */
