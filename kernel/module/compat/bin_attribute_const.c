// SPDX-License-Identifier: GPL-2.0
/*
 * v6.13-v6.16, "sysfs: treewide: constify bin_attribute" and "sysfs:
 * treewide: switch back to bin_attribute::read()/write()": the read and
 * write callbacks take a const struct bin_attribute *, and
 * attribute_group::bin_attrs is a const array of const pointers.
 */
#include <linux/build_bug.h>
#include <linux/sysfs.h>

static ssize_t __maybe_unused tlob_probe_read(struct file *f,
					      struct kobject *kobj,
					      const struct bin_attribute *attr,
					      char *buf, loff_t off,
					      size_t count)
{
	return 0;
}

static const struct bin_attribute *const tlob_probe_attrs[] __maybe_unused = {
	NULL,
};

static_assert(__same_type(&tlob_probe_read,
			  ((struct bin_attribute *)NULL)->read));
static_assert(__same_type(&tlob_probe_attrs[0],
			  ((struct attribute_group *)NULL)->bin_attrs));
