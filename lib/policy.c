/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The policy layer: the policy file (read once per process, again on
 * request), the environment and the caller, which can only strengthen it,
 * and the securebits, read at every decision because they change at run time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <syslog.h>

#include "internal.h"
#include "missing.h"
#include "printable.h"

#ifndef TRUSTEDFOR_POLICY_FILE
#define TRUSTEDFOR_POLICY_FILE "/etc/trustedfor.conf"
#endif

static pthread_once_t config_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tf_config config;
static unsigned int env_enforce;
static atomic_uint process_enforce;

/* "none", or a comma-separated list of "file", "interactive" and "all". */
int tf_enforce_parse(const char *list, unsigned int *enforce)
{
	unsigned int bits = 0;
	const char *p = list;

	if (!strcmp(list, "none")) {
		*enforce = 0;
		return 0;
	}
	for (;;) {
		size_t n = strcspn(p, ",");

		if (n == 4 && !strncmp(p, "file", 4))
			bits |= TRUSTED_FOR_ENFORCE_FILE;
		else if (n == 11 && !strncmp(p, "interactive", 11))
			bits |= TRUSTED_FOR_ENFORCE_INTERACTIVE;
		else if (n == 3 && !strncmp(p, "all", 3))
			bits |= TRUSTED_FOR_ENFORCE_FILE |
				TRUSTED_FOR_ENFORCE_INTERACTIVE;
		else
			return -1;
		if (!p[n])
			break;
		p += n + 1;
	}
	*enforce = bits;
	return 0;
}

/*
 * The check policy trusted_for() applies, its source and the backend that
 * applies it, packed in one word: trusted_for() reads it on every call, and
 * a lock or a copy of the configuration there would cost more than the
 * denied check itself.
 */
static atomic_uint effective;
#define EFFECTIVE_SET (1U << 31)

static void compute_effective(struct tf_config *c)
{
	struct tf_kernel k;
	unsigned int policy = c->policy, source = c->state;
	unsigned int backend = TRUSTED_FOR_BACKEND_EMULATED;

	tf_kernel_probe(&k);
	if (k.patched) {
		tf_kernel_policy(&policy);
		source = TRUSTED_FOR_SOURCE_KERNEL;
		backend = TRUSTED_FOR_BACKEND_SYSCALL;
	} else if (policy == TRUSTED_FOR_POLICY_ALL && k.execve_check) {
		backend = TRUSTED_FOR_BACKEND_EXECVE_CHECK;
	}
	c->effective = EFFECTIVE_SET | policy | backend << 4 | source << 8;
	atomic_store(&effective, c->effective);
}

static void decode_effective(unsigned int e, unsigned int *policy,
			     enum trusted_for_source *source,
			     enum trusted_for_backend *backend)
{
	*policy = e & 0xf;
	*backend = (enum trusted_for_backend)(e >> 4 & 0xf);
	*source = (enum trusted_for_source)(e >> 8 & 0xf);
}

/*
 * Problems are logged after the policy is in place, never while it is being
 * loaded: the default log function itself reads the policy's log target.
 */
static atomic_int file_problem_pending;
static atomic_int env_problem_pending;

static void load(struct tf_config *c)
{
	tf_policy_load(TRUSTEDFOR_POLICY_FILE, c);
	if (c->state == TRUSTED_FOR_SOURCE_FAIL_CLOSED)
		atomic_store(&file_problem_pending, 1);
}

static void load_once(void)
{
	const char *env = getenv("TRUSTEDFOR_ENFORCE");

	load(&config);
	compute_effective(&config);
	/* The environment can only add; one it cannot parse adds everything. */
	if (env && *env && tf_enforce_parse(env, &env_enforce) < 0) {
		env_enforce = TRUSTED_FOR_ENFORCE_FILE |
			      TRUSTED_FOR_ENFORCE_INTERACTIVE;
		atomic_store(&env_problem_pending, 1);
	}
}

static void report_problems(void)
{
	char problem[TRUSTED_FOR_MESSAGE_MAX], shown[TRUSTED_FOR_MESSAGE_MAX];

	if (atomic_exchange(&file_problem_pending, 0)) {
		pthread_mutex_lock(&config_lock);
		memcpy(problem, config.problem, sizeof(problem));
		pthread_mutex_unlock(&config_lock);
		/* It quotes the file, which may hold a terminal's controls. */
		tf_printable(shown, sizeof(shown), problem);
		tf_log(LOG_ERR, "bad policy file, enforcing everything: %s",
		       shown);
	}
	if (atomic_exchange(&env_problem_pending, 0))
		tf_log(LOG_ERR, "bad TRUSTEDFOR_ENFORCE, enforcing everything");
}

void tf_config_get(struct tf_config *c)
{
	pthread_once(&config_once, load_once);
	pthread_mutex_lock(&config_lock);
	*c = config;
	pthread_mutex_unlock(&config_lock);
	report_problems();
}

unsigned int tf_env_enforce(void)
{
	pthread_once(&config_once, load_once);
	return env_enforce;
}

TF_EXPORT int trusted_for_reload_policy(void)
{
	struct tf_config fresh;

	pthread_once(&config_once, load_once);
	load(&fresh);
	pthread_mutex_lock(&config_lock);
	config = fresh;
	compute_effective(&config);
	pthread_mutex_unlock(&config_lock);
	report_problems();
	return 0;
}

TF_EXPORT int trusted_for_strengthen(unsigned int enforce)
{
	if (enforce & ~(TRUSTED_FOR_ENFORCE_FILE |
			TRUSTED_FOR_ENFORCE_INTERACTIVE)) {
		errno = EINVAL;
		return -1;
	}
	atomic_fetch_or(&process_enforce, enforce);
	return 0;
}

void tf_effective_policy(unsigned int *policy, enum trusted_for_source *source,
			 enum trusted_for_backend *backend)
{
	unsigned int e = atomic_load(&effective);

	/* Once set, the word is all this needs: no call into pthread_once. */
	if (!(e & EFFECTIVE_SET)) {
		pthread_once(&config_once, load_once);
		e = atomic_load(&effective);
	}
	decode_effective(e, policy, source, backend);
}

static unsigned int securebits_enforce(unsigned int bits)
{
	return ((bits & SECBIT_EXEC_RESTRICT_FILE) ? TRUSTED_FOR_ENFORCE_FILE : 0) |
	       ((bits & SECBIT_EXEC_DENY_INTERACTIVE) ?
			TRUSTED_FOR_ENFORCE_INTERACTIVE : 0);
}

TF_EXPORT int trusted_for_get_policy(struct trusted_for_policy *p)
{
	struct tf_kernel k;
	struct tf_config c;
	int bits;

	memset(p, 0, sizeof(*p));
	tf_kernel_probe(&k);
	/*
	 * One copy, taken under the lock that a reload holds while it replaces
	 * both: the effective word read on its own could come from another
	 * file than the enforcement, and a decision would be torn.
	 */
	tf_config_get(&c);
	decode_effective(c.effective, &p->policy, &p->policy_source, &p->backend);
	/* The patched kernel's sysctl can change at any time. */
	if (p->policy_source == TRUSTED_FOR_SOURCE_KERNEL)
		tf_kernel_policy(&p->policy);
	p->execve_check = k.execve_check;
	p->probe_error = k.probe_error;
	p->patched_kernel = k.patched;
	p->file_enforce = c.enforce;
	p->env_enforce = tf_env_enforce();
	p->process_enforce = atomic_load(&process_enforce);
	p->audit = c.audit;
	p->log_target = c.log_target;
	p->file_state = c.state;
	snprintf(p->file_path, sizeof(p->file_path), "%s", TRUSTEDFOR_POLICY_FILE);
	snprintf(p->file_problem, sizeof(p->file_problem), "%s", c.problem);
	bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	if (bits < 0) {
		/* Never fails on Linux; if it did, enforce everything. */
		p->securebits = SECBIT_EXEC_RESTRICT_FILE |
				SECBIT_EXEC_DENY_INTERACTIVE;
	} else {
		p->securebits = (unsigned int)bits;
		/* The exec securebits came with AT_EXECVE_CHECK, in 6.14. */
		p->securebits_known = k.execve_check;
	}
	p->enforce = c.enforce | p->env_enforce | p->process_enforce |
		     securebits_enforce(p->securebits);
	return 0;
}
