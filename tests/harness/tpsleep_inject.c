// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection for the harness self-test (scripts/selftest.sh): loading
 * this module with what=warn triggers a WARN(), so that the test command
 * can be shown to fail on a warning in the guest's console log.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/bug.h>

static char *what = "";
module_param(what, charp, 0444);
MODULE_PARM_DESC(what, "warn: WARN() at load time");

static int __init tpsleep_inject_init(void)
{
	if (!strcmp(what, "warn"))
		WARN(1, "tpsleep_inject: injected warning\n");
	return 0;
}

static void __exit tpsleep_inject_exit(void)
{
}

module_init(tpsleep_inject_init);
module_exit(tpsleep_inject_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Harness fault injection: a WARN() on demand");
