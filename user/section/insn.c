// SPDX-License-Identifier: GPL-2.0
/* Instruction boundaries with capstone's linear decoder (cs_disasm_iter). */
#include <capstone/capstone.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>

#include "section/insn.h"

const char *tlob_insn_machine_name(uint16_t machine, char *buf, size_t len)
{
	if (machine == EM_X86_64)
		return "x86-64";
	snprintf(buf, len, "ELF machine %u", machine);
	return buf;
}

int tlob_insn_find(uint16_t machine, const uint8_t *code, size_t size, uint64_t base,
		   uint64_t target, struct tlob_insn *insn)
{
	uint64_t addr = base;
	cs_insn *ci;
	csh cs;
	int ret;

	if (machine != EM_X86_64)
		return -ENOTSUP;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return -ENOMEM;
	ci = cs_malloc(cs);
	if (!ci) {
		cs_close(&cs);
		return -ENOMEM;
	}
	*insn = (struct tlob_insn){ .addr = base, .next = base };
	/* cs_disasm_iter() moves code, size and addr past each instruction. */
	while (addr < target && size) {
		if (!cs_disasm_iter(cs, &code, &size, &addr, ci)) {
			*insn = (struct tlob_insn){ .addr = addr, .next = addr };
			break;
		}
		insn->addr = ci->address;
		insn->next = addr;
		snprintf(insn->text, sizeof(insn->text), "%s%s%s", ci->mnemonic,
			 ci->op_str[0] ? " " : "", ci->op_str);
	}
	if (addr == target)
		ret = 0;
	else if (insn->next == insn->addr)
		ret = -EBADMSG;
	else if (addr > target)
		ret = -EILSEQ;
	else
		ret = -ERANGE;
	cs_free(ci, 1);
	cs_close(&cs);
	return ret;
}
