// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/tlob: sessions. Each open file is one holder of bindings
 * (tlob_control.c), in front of the control core as the sysfs files are.
 * A write takes monitor lines (the monitor file's syntax and parser, all
 * or nothing per write): `p ...` adds a reference to a binding (shared
 * with every holder of the same binding), `-PATH:START` drops the
 * session's reference on its binding at that section. A read lists the
 * session's bindings as stats lines (their ids, terms, holders and
 * statistics), then the final stats line of each binding its removals
 * freed (after their windows ended, so those count too: the tool reads its
 * statistics after removing its bindings). Closing the file, however the process ends (exit, a
 * signal, SIGKILL), drops every reference the session holds, so a session
 * never leaves a binding behind; a binding goes with its last holder.
 * While a session holds a binding it is armed whatever the enable switch
 * says.
 *
 * Only root (0600, and CAP_SYS_ADMIN in the initial user namespace at
 * open): the listings name other users' binaries and timings, as the
 * monitor file does. The check is made once, at open, in the opener's
 * context: the open file is then the credential (the control files check
 * the opener's credentials at each write, which is the same rule), so a
 * privileged process may hand it to a helper while a file opened without
 * the capability never exists.
 *
 * Locking and context: process context only; no lock of its own. The
 * holder's references belong to tlob_ctl_mutex (taken by the control
 * core and tlob_listing()). An open file holds the module, so no session
 * outlives tlob_session_exit().
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "tlob.h"

/* The longest write: many lines at once, each at most TLOB_LINE_MAX. */
#define TLOB_SESSION_WRITE_MAX	(64 * 1024)

/*
 * The final lines a session keeps, newest last: a session that binds and
 * unbinds for as long as it lives would otherwise grow them without end.
 * Room for a new line is made by dropping the oldest whole lines.
 */
#define TLOB_SESSION_FINAL_MAX	(256 * 1024)

static void tlob_session_make_room(struct tlob_holder *h, size_t need)
{
	size_t cut = 0;
	const char *nl;

	while (h->final_len - cut + need > TLOB_SESSION_FINAL_MAX) {
		nl = memchr(h->final + cut, '\n', h->final_len - cut);
		cut = nl ? nl - h->final + 1 : h->final_len;
	}
	memmove(h->final, h->final + cut, h->final_len - cut + 1);
	h->final_len -= cut;
}

/* A binding this session's removal freed: keep its final stats line. */
static void tlob_session_gone(struct tlob_holder *h,
			      const struct tlob_binding *b)
{
	size_t n = tlob_stats_line_show(b, NULL, 0);
	char *s;

	if (n + 1 > TLOB_SESSION_FINAL_MAX)
		return;
	if (h->final)
		tlob_session_make_room(h, n + 1);
	s = krealloc(h->final, h->final_len + n + 1,
		     GFP_KERNEL | __GFP_NOWARN);
	if (!s)
		return;		/* only the listing is the poorer */
	n = min_t(size_t, n, tlob_stats_line_show(b, s + h->final_len, n + 1));
	h->final = s;
	h->final_len += n;
}

/* The session's listing: its bindings, then the final lines. */
static ssize_t tlob_session_show(const struct tlob_holder *h, char *buf,
				 size_t size)
{
	ssize_t n = tlob_stats_show(h, buf, size);

	if (buf && (size_t)n < size)
		memcpy(buf + n, h->final ? h->final : "",
		       min(h->final_len + 1, size - n));
	return n + h->final_len;
}

static int tlob_session_open(struct inode *inode, struct file *f)
{
	struct tlob_holder *h;
	char comm[TASK_COMM_LEN];

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	get_task_comm(comm, current);
	tlob_holder_init(h, task_tgid_nr(current), comm);
	h->gone = tlob_session_gone;
	f->private_data = h;
	return 0;
}

static int tlob_session_release(struct inode *inode, struct file *f)
{
	struct tlob_holder *h = f->private_data;

	h->gone = NULL;		/* nobody reads the final lines now */
	tlob_holder_release(h);
	kfree(h->final);
	kfree(h);
	return 0;
}

static ssize_t tlob_session_write(struct file *f, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	char *buf;
	int ret;

	if (!count)
		return 0;
	if (count > TLOB_SESSION_WRITE_MAX)
		return -EINVAL;
	buf = vmemdup_user(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = tlob_monitor_write(f->private_data, buf, count);
	kvfree(buf);
	return ret ? ret : count;
}

static ssize_t tlob_session_read(struct file *f, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	ssize_t ret;
	size_t len;
	char *buf;

	buf = tlob_listing(tlob_session_show, f->private_data, &len);
	if (!buf)
		return -ENOMEM;
	ret = simple_read_from_buffer(ubuf, count, ppos, buf, len);
	kvfree(buf);
	return ret;
}

static const struct file_operations tlob_session_fops = {
	.owner = THIS_MODULE,
	.open = tlob_session_open,
	.release = tlob_session_release,
	.read = tlob_session_read,
	.write = tlob_session_write,
	.llseek = default_llseek,
};

static struct miscdevice tlob_session_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "tlob",
	.fops = &tlob_session_fops,
	.mode = 0600,
};

int tlob_session_init(void)
{
	return misc_register(&tlob_session_dev);
}

void tlob_session_exit(void)
{
	misc_deregister(&tlob_session_dev);
}
