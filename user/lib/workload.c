// SPDX-License-Identifier: GPL-2.0
/*
 * The command tlob mon runs (workload.h). The child waits on a pipe for
 * the go byte, so that tlob can bind the sections to its pid before the
 * command's first instruction; a second pipe, closed by the exec itself
 * (O_CLOEXEC), tells tlob whether the exec happened or why not.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/utils.h"
#include "lib/workload.h"

/* In the child, after fork: only async-signal-safe calls until the exec. */
static void __attribute__((noreturn)) child(char *const argv[], int go, int err,
					    bool stdout_to_stderr)
{
	char c;
	ssize_t n;
	int e;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigprocmask(SIG_SETMASK, tlob_wait_sigmask(), NULL);
	if (stdout_to_stderr)
		dup2(2, 1);
	do {
		n = read(go, &c, 1);
	} while (n < 0 && errno == EINTR);
	/* tlob gave up before the session began: the command does not run. */
	if (n != 1)
		_exit(127);
	execvp(argv[0], argv);
	e = errno;
	(void)!write(err, &e, sizeof(e));
	_exit(e == ENOENT ? 127 : 126);
}

int tlob_workload_prepare(struct tlob_workload *w, char *const argv[], bool stdout_to_stderr)
{
	int go[2], err[2], e;
	pid_t pid;

	*w = (struct tlob_workload){ .go_fd = -1, .err_fd = -1 };
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		e = errno;
		close(go[0]);
		close(go[1]);
		return -e;
	}
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(err[0]);
		child(argv, go[0], err[1], stdout_to_stderr);
	}
	e = errno;
	close(go[0]);
	close(err[1]);
	if (pid < 0) {
		close(go[1]);
		close(err[0]);
		return -e;
	}
	w->pid = pid;
	w->go_fd = go[1];
	w->err_fd = err[0];
	return 0;
}

static void reap(struct tlob_workload *w)
{
	while (waitpid(w->pid, &w->status, 0) < 0 && errno == EINTR)
		;
	w->reaped = true;
}

int tlob_workload_start(struct tlob_workload *w)
{
	ssize_t n;
	int e = 0;

	do {
		n = write(w->go_fd, "", 1);
	} while (n < 0 && errno == EINTR);
	close(w->go_fd);
	w->go_fd = -1;
	if (n != 1) {
		e = errno ? errno : EIO;
		reap(w);
		close(w->err_fd);
		w->err_fd = -1;
		return -e;
	}
	do {
		n = read(w->err_fd, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (n == 0)
		return 0;
	if (n != sizeof(e) || !e)
		e = EIO;
	w->exec_errno = e;
	reap(w);
	return -e;
}

bool tlob_workload_done(struct tlob_workload *w)
{
	if (!w->pid || w->reaped)
		return true;
	if (waitpid(w->pid, &w->status, WNOHANG) == w->pid)
		w->reaped = true;
	return w->reaped;
}

void tlob_workload_stop(struct tlob_workload *w, unsigned int grace_ms)
{
	const struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };

	if (!w->pid || w->reaped)
		return;
	if (w->go_fd >= 0) {
		/* Never released: end of file on its pipe makes it exit. */
		close(w->go_fd);
		w->go_fd = -1;
	} else {
		kill(w->pid, SIGTERM);
		for (unsigned int ms = 0; ms < grace_ms; ms += 10) {
			if (tlob_workload_done(w))
				break;
			nanosleep(&tick, NULL);
		}
		if (!w->reaped)
			kill(w->pid, SIGKILL);
	}
	if (!w->reaped)
		reap(w);
	if (w->err_fd >= 0) {
		close(w->err_fd);
		w->err_fd = -1;
	}
}

int tlob_workload_exit_code(const struct tlob_workload *w)
{
	if (WIFEXITED(w->status))
		return WEXITSTATUS(w->status);
	if (WIFSIGNALED(w->status))
		return 128 + WTERMSIG(w->status);
	return 1;
}
