// SPDX-License-Identifier: GPL-2.0
/*
 * The control tree, /sys/kernel/tlob/: the file names of the kernel's
 * rv/monitors/tlob/ (a module cannot create tracefs files on 6.1), plus
 * stats and pool.
 *
 * monitor and stats are binary attributes: a listing is generated whole
 * at each read and served from the requested offset, so it is never cut
 * at a page however many bindings there are. A monitor write is handled
 * a chunk (at most a page) at a time; a chunk that does not end a line
 * is an overlong line (-EINVAL). enable and reactors are binary
 * attributes too, so that their writes see the open file (tlob_may_control()).
 *
 * The monitor file is the persistent holder of bindings (tlob_control.c):
 * it lists and removes only the bindings written through it; stats lists
 * every binding with its holders.
 *
 * Locking: process context; listings are generated under tlob_ctl_mutex.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "tlob.h"

static struct kobject *tlob_kobj;
static const char tlob_desc[] =
	"task latency over budget: a marked code section must end within its wall-clock budget";

/*
 * Every control write needs CAP_SYS_ADMIN in the initial user namespace,
 * checked against the credentials the file was opened with, not the
 * writer's: the mode bits let uid 0 without capabilities open these files,
 * and a file opened without the capability stays powerless when handed to
 * a privileged process (a set-uid program's standard output), while one
 * opened with it may be handed to a helper. Hence binary attributes for
 * every writable file: only they are given the open file.
 */
static bool tlob_may_control(const struct file *f)
{
	return file_ns_capable(f, &init_user_ns, CAP_SYS_ADMIN);
}

static ssize_t enable_read(struct file *f, struct kobject *kobj,
			   tlob_bin_attr *attr, char *buf, loff_t off,
			   size_t count)
{
	char s[4];
	int n = scnprintf(s, sizeof(s), "%d\n", tlob_enabled());

	return memory_read_from_buffer(buf, count, &off, s, n);
}

static ssize_t enable_write(struct file *f, struct kobject *kobj,
			    tlob_bin_attr *attr, char *buf, loff_t off,
			    size_t count)
{
	bool on;
	int ret;

	if (!tlob_may_control(f))
		return -EPERM;
	ret = kstrtobool(buf, &on);
	if (ret)
		return ret;
	ret = tlob_set_enabled(on);
	return ret ? ret : count;
}

static ssize_t desc_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", tlob_desc);
}

static ssize_t reactors_read(struct file *f, struct kobject *kobj,
			     tlob_bin_attr *attr, char *buf, loff_t off,
			     size_t count)
{
	char s[64];
	int n = tlob_reactor_show(s, sizeof(s));

	return memory_read_from_buffer(buf, count, &off, s, n);
}

static ssize_t reactors_write(struct file *f, struct kobject *kobj,
			      tlob_bin_attr *attr, char *buf, loff_t off,
			      size_t count)
{
	char name[16];
	int ret;

	if (!tlob_may_control(f))
		return -EPERM;
	if (count >= sizeof(name))
		return -EINVAL;
	memcpy(name, buf, count);
	name[count] = '\0';
	ret = tlob_reactor_set(strim(name));
	return ret ? ret : count;
}

/*
 * Pool accounting: open windows, peak, STARTs dropped for want of a slot;
 * whether the scheduler probes are attached at all; the alive and the
 * logical instances.
 */
static ssize_t pool_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	int n = tlob_pool_show(buf, PAGE_SIZE);

	mutex_lock(&tlob_ctl_mutex);
	n += sysfs_emit_at(buf, n - 1,
			   " bindings=%u reactions_lost=%llu sched_probes=%d\n",
			   tlob_nr_bindings(), tlob_reactions_lost(),
			   tlob_sched_attached()) - 1;
	n += tlob_alive_pool_show(buf + n - 1, PAGE_SIZE - n + 1) - 1;
	n += tlob_logic_pool_show(buf + n - 1, PAGE_SIZE - n + 1) - 1;
	mutex_unlock(&tlob_ctl_mutex);
	return n;
}

static struct kobj_attribute desc_attr = __ATTR_RO(desc);
static struct kobj_attribute pool_attr = __ATTR_RO(pool);

/* Generate a listing whole and copy out [off, off + count). */
static ssize_t tlob_listing_read(tlob_listing_fn gen,
				 const struct tlob_holder *h, char *out,
				 loff_t off, size_t count)
{
	ssize_t ret = 0;
	size_t len;
	char *buf;

	buf = tlob_listing(gen, h, &len);
	if (!buf)
		return -ENOMEM;
	if (off < len) {
		ret = min_t(size_t, count, len - off);
		memcpy(out, buf + off, ret);
	}
	kvfree(buf);
	return ret;
}

static ssize_t monitor_read(struct file *f, struct kobject *kobj,
			    tlob_bin_attr *attr, char *buf, loff_t off,
			    size_t count)
{
	return tlob_listing_read(tlob_monitor_show, &tlob_persistent, buf, off,
				 count);
}

static ssize_t monitor_write(struct file *f, struct kobject *kobj,
			     tlob_bin_attr *attr, char *buf,
			     loff_t off, size_t count)
{
	int ret;

	if (!tlob_may_control(f))
		return -EPERM;
	if (count == PAGE_SIZE && buf[count - 1] != '\n')
		return -EINVAL;
	ret = tlob_monitor_write(&tlob_persistent, buf, count);
	return ret ? ret : count;
}

static ssize_t stats_read(struct file *f, struct kobject *kobj,
			  tlob_bin_attr *attr, char *buf, loff_t off,
			  size_t count)
{
	return tlob_listing_read(tlob_stats_show, NULL, buf, off, count);
}

/*
 * Root only: the listing names the bound binaries and their pid filters,
 * the statistics the timings of other users' tasks (tracefs gives an
 * unprivileged user neither).
 */
static BIN_ATTR_ADMIN_RW(monitor, 0);
static BIN_ATTR_ADMIN_RO(stats, 0);
static BIN_ATTR_RW(enable, 0);
static BIN_ATTR_RW(reactors, 0);

static struct attribute *tlob_attrs[] = {
	&desc_attr.attr,
	&pool_attr.attr,
	NULL,
};

static tlob_bin_attr_list tlob_bin_attrs[] = {
	&bin_attr_monitor,
	&bin_attr_stats,
	&bin_attr_enable,
	&bin_attr_reactors,
	NULL,
};

static const struct attribute_group tlob_group = {
	.attrs = tlob_attrs,
	.bin_attrs = tlob_bin_attrs,
};

int tlob_sysfs_init(void)
{
	int ret;

	tlob_kobj = kobject_create_and_add("tlob", kernel_kobj);
	if (!tlob_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(tlob_kobj, &tlob_group);
	if (ret)
		kobject_put(tlob_kobj);
	return ret;
}

void tlob_sysfs_exit(void)
{
	sysfs_remove_group(tlob_kobj, &tlob_group);
	kobject_put(tlob_kobj);
}
