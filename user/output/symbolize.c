// SPDX-License-Identifier: GPL-2.0
/*
 * Names for a diagnosis' addresses (symbolize.h). The cost is the
 * reader's, once per violation: a cached process costs one module lookup
 * and one symbol lookup per frame (libdwfl's sorted tables); a process
 * seen for the first time, or a miss, costs a read of /proc/TGID/maps,
 * of /proc/TGID/map_files and of the ELF headers and symbol tables of
 * its modules (libdwfl maps them). /proc/kallsyms is parsed once.
 */
#include <dirent.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <traceevent/event-parse.h>
#include <unistd.h>

#include "lib/utils.h"
#include "output/symbolize.h"

/* Processes whose modules are kept: the last few that overran. */
#define PROC_CACHE	8
/* A GNU build-id is 20 bytes (SHA-1) by default; up to 64 in hex. */
#define BUILD_ID_HEX	(2 * 64 + 1)

/* What tlob knows of one module of a process (the module's dwfl userdata). */
struct mod_info {
	bool ok;			/* the file on disk is the one mapped: names are right */
	char build_id[BUILD_ID_HEX];	/* the mapped file's, "" none */
	char note[192];			/* why not ok */
};

struct proc {
	pid_t tgid;			/* 0: a free slot */
	int pidfd;			/* the process the modules are of */
	Dwfl *dwfl;
	unsigned long used;		/* for eviction: the least recently used goes */
};

struct tlob_symbolizer {
	struct proc procs[PROC_CACHE];
	unsigned long tick;
	struct tep_handle *tep;		/* kernel symbols; NULL: none */
	const char *kpath;		/* the kallsyms file to read */
	bool ksyms_read;
	const char *knote;		/* why there are no kernel names */
};

/*
 * Separate debug files from the local file system only: a debuginfod
 * server (DEBUGINFOD_URLS) would make the reader wait on the network
 * while violations queue up.
 */
static int find_debuginfo_local(Dwfl_Module *mod, void **userdata, const char *modname,
				Dwarf_Addr base, const char *file_name,
				const char *debuglink_file, GElf_Word debuglink_crc,
				char **debuginfo_file_name)
{
	if (getenv("DEBUGINFOD_URLS"))
		return -1;
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
					    debuglink_file, debuglink_crc, debuginfo_file_name);
}

static char *debuginfo_path;
static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = find_debuginfo_local,
	.debuginfo_path = &debuginfo_path,
};

struct tlob_symbolizer *tlob_symbolizer_new(void)
{
	struct tlob_symbolizer *s = calloc(1, sizeof(*s));

	elf_version(EV_CURRENT);
	for (int i = 0; s && i < PROC_CACHE; i++)
		s->procs[i].pidfd = -1;
	if (s)
		s->kpath = "/proc/kallsyms";
	return s;
}

static int free_mod_info(Dwfl_Module *mod, void **userdata, const char *name,
			 Dwarf_Addr start, void *arg)
{
	(void)mod;
	(void)name;
	(void)start;
	(void)arg;
	free(*userdata);
	*userdata = NULL;
	return DWARF_CB_OK;
}

static void proc_drop(struct proc *p)
{
	if (p->dwfl) {
		dwfl_getmodules(p->dwfl, free_mod_info, NULL, 0);
		dwfl_end(p->dwfl);
	}
	if (p->pidfd >= 0)
		close(p->pidfd);
	memset(p, 0, sizeof(*p));
	p->pidfd = -1;
}

void tlob_symbolizer_free(struct tlob_symbolizer *s)
{
	if (!s)
		return;
	for (int i = 0; i < PROC_CACHE; i++)
		if (s->procs[i].tgid)
			proc_drop(&s->procs[i]);
	if (s->tep)
		tep_free(s->tep);
	free(s);
}

/* The file mappings of a process: /proc/TGID/map_files entry -> the path it maps. */
struct map_file {
	char entry[40];		/* "START-END" */
	char *path;
};

struct map_files {
	int dirfd;
	struct map_file *v;
	size_t n;
};

static void map_files_read(pid_t tgid, struct map_files *mf)
{
	char dir[64], target[PATH_MAX];
	struct dirent *de;
	DIR *d;

	memset(mf, 0, sizeof(*mf));
	snprintf(dir, sizeof(dir), "/proc/%d/map_files", (int)tgid);
	mf->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mf->dirfd < 0)
		return;
	d = fdopendir(dup(mf->dirfd));
	if (!d)
		return;
	while ((de = readdir(d))) {
		ssize_t n;
		struct map_file *v;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(v->entry))
			continue;
		n = readlinkat(mf->dirfd, de->d_name, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		v = realloc(mf->v, (mf->n + 1) * sizeof(*v));
		if (!v)
			break;
		mf->v = v;
		snprintf(v[mf->n].entry, sizeof(v[mf->n].entry), "%s", de->d_name);
		v[mf->n].path = strdup(target);
		if (v[mf->n].path)
			mf->n++;
	}
	closedir(d);
}

static void map_files_free(struct map_files *mf)
{
	for (size_t i = 0; i < mf->n; i++)
		free(mf->v[i].path);
	free(mf->v);
	if (mf->dirfd > 0)
		close(mf->dirfd);
}

static void hex(const unsigned char *b, size_t n, char *out, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n && 2 * i + 2 < len; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * i] = '\0';
}

/* The GNU build-id of the ELF file open at fd, in hex; "" none. */
static void fd_build_id(int fd, char *out, size_t len)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const void *bits;
	ssize_t n;

	out[0] = '\0';
	if (!elf)
		return;
	n = dwelf_elf_gnu_build_id(elf, &bits);
	if (n > 0)
		hex(bits, (size_t)n, out, len);
	elf_end(elf);
}

#define DELETED		" (deleted)"

static bool is_deleted(const char *name)
{
	size_t n = strlen(name), d = strlen(DELETED);

	return n > d && !strcmp(name + n - d, DELETED);
}

/* stat() of what the maps' path names now, without a " (deleted)". */
static int stat_mapped_path(const char *name, struct stat *st)
{
	char path[PATH_MAX];

	if (!is_deleted(name))
		return stat(name, st);
	snprintf(path, sizeof(path), "%.*s", (int)(strlen(name) - strlen(DELETED)), name);
	return stat(path, st);
}

/*
 * Is the file at the module's path the one the process mapped? The mapped
 * file is /proc/TGID/map_files/RANGE (root may open it): the same inode
 * and the same build-id, or the names libdwfl would read from the path
 * are another build's. libdwfl opens the path (dwfl_linux_proc_find_elf),
 * so that is what must match.
 */
static int check_module(Dwfl_Module *mod, void **userdata, const char *name,
			Dwarf_Addr start, void *arg)
{
	const struct map_files *mf = arg;
	struct mod_info *mi = calloc(1, sizeof(*mi));
	char disk_id[BUILD_ID_HEX];
	const unsigned char *bits;
	struct stat mst, dst;
	GElf_Addr vaddr, bias;
	int fd = -1, n;

	(void)start;
	if (!mi)
		return DWARF_CB_ABORT;
	*userdata = mi;
	/* [vdso] and the like: libdwfl reads them from the process's memory. */
	if (name[0] != '/') {
		mi->ok = true;
		return DWARF_CB_OK;
	}
	for (size_t i = 0; i < mf->n && fd < 0; i++)
		if (!strcmp(mf->v[i].path, name))
			fd = openat(mf->dirfd, mf->v[i].entry, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(mi->note, sizeof(mi->note), "not checked against the mapped file "
			 "(/proc/PID/map_files: %s): no names", strerror(errno));
		return DWARF_CB_OK;
	}
	fd_build_id(fd, mi->build_id, sizeof(mi->build_id));
	/*
	 * A file removed or renamed over since it was mapped is "PATH
	 * (deleted)" in the maps: libdwfl finds no file by that name, and
	 * the path may name another build now.
	 */
	if (fstat(fd, &mst) || stat_mapped_path(name, &dst)) {
		snprintf(mi->note, sizeof(mi->note), "deleted since the process mapped it: no names");
		close(fd);
		return DWARF_CB_OK;
	}
	close(fd);
	if (is_deleted(name)) {
		snprintf(mi->note, sizeof(mi->note), "replaced on disk since the process mapped "
			 "it: no names");
		return DWARF_CB_OK;
	}
	/* The ELF libdwfl opened for the module, i.e. the file at the path now. */
	disk_id[0] = '\0';
	if (dwfl_module_getelf(mod, &bias)) {
		n = dwfl_module_build_id(mod, &bits, &vaddr);
		if (n > 0)
			hex(bits, (size_t)n, disk_id, sizeof(disk_id));
	}
	if (strcmp(disk_id, mi->build_id))
		snprintf(mi->note, sizeof(mi->note), "replaced on disk since the process mapped "
			 "it (build-id %s now): no names", disk_id[0] ? disk_id : "none");
	else if (mst.st_dev != dst.st_dev || mst.st_ino != dst.st_ino)
		snprintf(mi->note, sizeof(mi->note), "replaced on disk since the process mapped "
			 "it (another file, the same build-id): no names");
	else
		mi->ok = true;
	return DWARF_CB_OK;
}

/*
 * Report tgid's modules into p. The pidfd, opened before the maps are
 * read, says later whether the cached modules are still of a live
 * process. -errno when the process is gone.
 */
static int proc_report(struct proc *p, pid_t tgid)
{
	struct map_files mf;
	int fd, ret;

	fd = (int)syscall(SYS_pidfd_open, tgid, 0);
	if (fd < 0)
		return -errno;
	p->dwfl = dwfl_begin(&proc_callbacks);
	if (!p->dwfl) {
		close(fd);
		return -ENOMEM;
	}
	p->pidfd = fd;
	p->tgid = tgid;
	dwfl_report_begin(p->dwfl);
	ret = dwfl_linux_proc_report(p->dwfl, tgid);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (ret) {
		tlob_verbose("symbolize: /proc/%d/maps: %s", (int)tgid,
			     ret > 0 ? strerror(ret) : dwfl_errmsg(-1));
		return ret > 0 ? -ret : -ESRCH;
	}
	map_files_read(tgid, &mf);
	dwfl_getmodules(p->dwfl, check_module, &mf, 0);
	map_files_free(&mf);
	return 0;
}

/*
 * tgid's cached modules, or freshly reported ones (fresh: always). A
 * fresh report that fails leaves the cached ones (of the same process:
 * its pidfd) as they were and returns them. NULL: gone and not cached.
 */
static struct proc *proc_get(struct tlob_symbolizer *s, pid_t tgid, bool fresh)
{
	struct proc *p = NULL, *lru = &s->procs[0], np = { .pidfd = -1 };

	for (int i = 0; i < PROC_CACHE; i++) {
		if (s->procs[i].tgid == tgid)
			p = &s->procs[i];
		if (s->procs[i].used < lru->used)
			lru = &s->procs[i];
	}
	if (p && !fresh) {
		p->used = ++s->tick;
		return p;
	}
	if (proc_report(&np, tgid)) {
		proc_drop(&np);
		return p;
	}
	if (!p)
		p = lru;
	if (p->tgid)
		proc_drop(p);
	*p = np;
	p->used = ++s->tick;
	return p;
}

/*
 * The user frames into f; the number in no module. Frames past the first
 * are return addresses: the call is the byte before, so that is what is
 * looked up (a call at a function's end returns past it), and the offset
 * is shown from the address itself, as the kernel's backtraces do.
 */
static unsigned int resolve_user(struct proc *p, const struct tlob_diag *d,
				 struct tlob_frame *f, unsigned int n)
{
	unsigned int miss = 0;

	for (unsigned int i = 0; i < n; i++) {
		Dwarf_Addr a = d->ustack[i] - (i && d->ustack[i] ? 1 : 0);
		Dwfl_Module *m = dwfl_addrmodule(p->dwfl, a);
		const struct mod_info *mi;
		const char *name;
		void **ud;
		GElf_Off off;
		GElf_Sym sym;

		f[i] = (struct tlob_frame){ .ip = d->ustack[i] };
		if (!m) {
			miss++;
			continue;
		}
		f[i].file = dwfl_module_info(m, &ud, NULL, NULL, NULL, NULL, NULL, NULL);
		mi = *ud;
		if (!mi)
			continue;
		f[i].build_id = mi->build_id[0] ? mi->build_id : NULL;
		if (!mi->ok) {
			f[i].note = mi->note;
			continue;
		}
		name = dwfl_module_addrinfo(m, a, &off, &sym, NULL, NULL, NULL);
		if (name) {
			f[i].name = name;
			f[i].off = off + (d->ustack[i] - a);
		}
	}
	return miss;
}

/*
 * kptr_restrict shows every address as zeros: every address would then
 * fall in the last symbol, so no names is the truth. Some symbols are at
 * 0 anyway (x86-64's per-CPU ones come first), so hidden means no line
 * with another address.
 */
static bool kallsyms_hidden(const char *buf)
{
	for (const char *line = buf; *line; ) {
		const char *nl = strchr(line, '\n');

		if (strncmp(line, "0000000000000000 ", 17) && strncmp(line, "00000000 ", 9))
			return false;
		if (!nl)
			break;
		line = nl + 1;
	}
	return true;
}

/* The kallsyms file, once: tep_parse_kallsyms() keeps copies of the names. */
static void ksyms_read(struct tlob_symbolizer *s)
{
	char *buf;

	s->ksyms_read = true;
	buf = tlob_read_file(s->kpath);
	if (!buf) {
		s->knote = "no /proc/kallsyms: raw addresses";
		return;
	}
	if (kallsyms_hidden(buf)) {
		s->knote = "addresses hidden by kptr_restrict: raw addresses";
	} else {
		s->tep = tep_alloc();
		if (!s->tep || tep_parse_kallsyms(s->tep, buf)) {
			s->knote = "cannot parse /proc/kallsyms: raw addresses";
			if (s->tep)
				tep_free(s->tep);
			s->tep = NULL;
		}
	}
	free(buf);
}

void tlob_symbolizer_kallsyms(struct tlob_symbolizer *s, const char *path)
{
	if (!s->ksyms_read)
		s->kpath = path;
}

bool tlob_symbolizer_kernel_read(const struct tlob_symbolizer *s)
{
	return s->ksyms_read;
}

static void resolve_kernel(struct tlob_symbolizer *s, const struct tlob_diag *d,
			   struct tlob_frame *f, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		/* Return addresses, as above (a task off the CPU is at a call). */
		unsigned long long a = d->kstack[i] - (d->kstack[i] ? 1 : 0);
		const char *name = s->tep ? tep_find_function(s->tep, a) : NULL;

		f[i] = (struct tlob_frame){ .ip = d->kstack[i] };
		if (name) {
			f[i].name = name;
			f[i].off = d->kstack[i] - tep_find_function_address(s->tep, a);
		}
	}
}

void tlob_symbolize_user(struct tlob_symbolizer *s, const struct tlob_diag *d,
			 struct tlob_diag_syms *syms)
{
	unsigned int nu = d->nr_ustack < TLOB_DIAG_USTACK ? d->nr_ustack : TLOB_DIAG_USTACK;
	struct proc *p;
	bool cached;

	memset(syms, 0, sizeof(*syms));
	for (unsigned int i = 0; i < nu; i++)
		syms->ustack[i].ip = d->ustack[i];
	if (nu && d->ustack_when != TLOB_STACK_NONE) {
		cached = false;
		for (int i = 0; i < PROC_CACHE; i++)
			cached |= s->procs[i].tgid == (pid_t)d->tgid;
		p = proc_get(s, (pid_t)d->tgid, false);
		/* A module loaded since the process was cached: report it again. */
		if (p && resolve_user(p, d, syms->ustack, nu) && cached) {
			p = proc_get(s, (pid_t)d->tgid, true);
			resolve_user(p, d, syms->ustack, nu);
		}
		if (!p)
			syms->unote = "process gone: raw addresses";
	}
}

void tlob_symbolize_kernel(struct tlob_symbolizer *s, const struct tlob_diag *d,
			   struct tlob_diag_syms *syms)
{
	unsigned int nk = d->nr_kstack < TLOB_DIAG_KSTACK ? d->nr_kstack : TLOB_DIAG_KSTACK;

	if (!nk)
		return;
	/* Read here, once, and not at the start: symbolize.h. */
	if (!s->ksyms_read)
		ksyms_read(s);
	resolve_kernel(s, d, syms->kstack, nk);
	syms->knote = s->knote;
}

void tlob_symbolize(struct tlob_symbolizer *s, const struct tlob_diag *d,
		    struct tlob_diag_syms *syms)
{
	tlob_symbolize_user(s, d, syms);
	tlob_symbolize_kernel(s, d, syms);
}
