/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The configuration layer: what is in force for the next decision.  The
 * policy file (read once per process, again on request), the environment and
 * the caller, which can only strengthen it, and the securebits, read at every
 * decision because they change at run time.  All of its state is one struct.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <syslog.h>
#include <unistd.h>

#include "internal.h"
#include "missing.h"
#include "printable.h"

#ifndef TRUSTEDFOR_POLICY_FILE
#define TRUSTEDFOR_POLICY_FILE "/etc/trustedfor.conf"
#endif

/*
 * The check policy trusted_for() applies, its source and the backend that
 * applies it, packed in one word: trusted_for() reads it on every call, and
 * a lock or a copy of the state there would cost more than the denied check
 * itself.
 */
#define WORD_SET (1U << 31)

static struct {
	atomic_int loaded; /* the file and the environment, read at first */
	/* Held while file and word are replaced together, so that a snapshot
	 * never pairs one file's check policy with another's enforcement. */
	pthread_mutex_t lock;
	struct tf_policy_file file;
	atomic_uint word;
	unsigned int env_enforce; /* TRUSTEDFOR_ENFORCE, read once */
	atomic_uint process_enforce;
	/*
	 * Problems are logged once, after the state is in place and outside
	 * the lock: the caller's log function may call the library.
	 */
	atomic_int file_problem_pending, env_problem_pending;
} state = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

static unsigned int pack(const struct tf_policy_file *f)
{
	struct tf_kernel k;
	unsigned int policy = f->check_policy;
	unsigned int source = f->state == TRUSTED_FOR_FILE_READ ? TRUSTED_FOR_SOURCE_FILE :
			      f->state == TRUSTED_FOR_FILE_FAIL_CLOSED ?
								  TRUSTED_FOR_SOURCE_FAIL_CLOSED :
								  TRUSTED_FOR_SOURCE_DEFAULT;

	tf_kernel_probe(&k);
	if (k.patched) {
		tf_kernel_policy(&policy);
		source = TRUSTED_FOR_SOURCE_KERNEL;
	}
	return WORD_SET | policy | tf_backend_for(policy, k.patched) << 4 |
	       source << 8;
}

/*
 * Called with the lock held.  The word is packed when a decision first
 * needs it (word_locked()): packing probes the kernel, which a process
 * that only asks what is enforced never needs.
 */
static void install(const struct tf_policy_file *f)
{
	state.file = *f;
	atomic_store(&state.word, 0);
	tf_log_set_target(f->log_target);
	if (f->state == TRUSTED_FOR_FILE_FAIL_CLOSED)
		atomic_store(&state.file_problem_pending, 1);
}

/*
 * For those a bad file does not bind (spared.c), it counts as no file: the
 * built-in check policy (where the file would give it) and nothing
 * enforced by it.  Auditing stays on, and the file is still reported bad.
 */
static void spare(unsigned int *policy, enum trusted_for_backend *backend,
		       enum trusted_for_source *source)
{
	if (*source != TRUSTED_FOR_SOURCE_FAIL_CLOSED)
		return;
	*policy = TF_DEFAULT_POLICY;
	*backend = tf_backend_for(*policy, 0);
	*source = TRUSTED_FOR_SOURCE_DEFAULT;
}

/* Out of line: the room for the messages is taken only when one is due. */
__attribute__((noinline, cold)) static void report_file_problem(void)
{
	char problem[TRUSTED_FOR_MESSAGE_MAX], shown[TRUSTED_FOR_MESSAGE_MAX];

	pthread_mutex_lock(&state.lock);
	memcpy(problem, state.file.problem, sizeof(problem));
	pthread_mutex_unlock(&state.lock);
	/* It quotes the file, which may hold a terminal's controls. */
	tf_printable(shown, sizeof(shown), problem);
	if (tf_spared_by_bad_file()) {
		char who[64];

		tf_spared_who(who, sizeof(who), NULL);
		tf_log(LOG_ERR, "bad policy file, not enforced for %s (every other user: "
				"everything enforced); fix it with '" TF_POLICY_FIX "': %s",
		       who, shown);
	} else
		tf_log(LOG_ERR, "bad policy file, enforcing everything: %s", shown);
}

static void report_problems(void)
{
	/* Looked at before it is taken: a locked exchange at every decision
	 * would cost more than the rest of this function. */
	if (atomic_load(&state.file_problem_pending) &&
	    atomic_exchange(&state.file_problem_pending, 0))
		report_file_problem();
	if (atomic_load(&state.env_problem_pending) &&
	    atomic_exchange(&state.env_problem_pending, 0))
		tf_log(LOG_ERR, "bad TRUSTEDFOR_ENFORCE, enforcing everything");
}

/*
 * The first call of a process reads the file and the environment, and says
 * what was wrong.  Threads that find nothing loaded may all read the file;
 * the first to take the lock installs what it read.  (pthread_once() would
 * end in a futex wake-up, one system call more at every process's first
 * decision.)
 */
static void ensure_loaded(void)
{
	if (!atomic_load(&state.loaded)) {
		const char *env = getenv("TRUSTEDFOR_ENFORCE");
		unsigned int env_enforce = 0;
		/* The environment can only add; one it cannot parse adds everything. */
		int env_bad = env && *env && tf_enforce_parse(env, &env_enforce) < 0;
		struct tf_policy_file f;

		tf_policy_load(TRUSTEDFOR_POLICY_FILE, &f);
		pthread_mutex_lock(&state.lock);
		if (!atomic_load(&state.loaded)) {
			install(&f);
			state.env_enforce = env_bad ? TRUSTED_FOR_ENFORCE_FILE |
							      TRUSTED_FOR_ENFORCE_INTERACTIVE :
						      env_enforce;
			if (env_bad)
				atomic_store(&state.env_problem_pending, 1);
			atomic_store(&state.loaded, 1);
		}
		pthread_mutex_unlock(&state.lock);
	}
	report_problems();
}

TF_EXPORT int trusted_for_reload_policy_file(void)
{
	struct tf_policy_file f;

	ensure_loaded();
	tf_policy_load(TRUSTEDFOR_POLICY_FILE, &f);
	pthread_mutex_lock(&state.lock);
	install(&f);
	pthread_mutex_unlock(&state.lock);
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
	atomic_fetch_or(&state.process_enforce, enforce);
	return 0;
}

static void unpack(unsigned int word, unsigned int *policy,
		   enum trusted_for_backend *backend,
		   enum trusted_for_source *source)
{
	*policy = word & 0xf;
	*backend = (enum trusted_for_backend)(word >> 4 & 0xf);
	*source = (enum trusted_for_source)(word >> 8 & 0xf);
}

/* Called with the lock held, the file loaded. */
static unsigned int word_locked(void)
{
	unsigned int word = atomic_load(&state.word);

	if (!(word & WORD_SET)) {
		word = pack(&state.file);
		atomic_store(&state.word, word);
	}
	return word;
}

void tf_config_check(unsigned int *check_policy, enum trusted_for_backend *backend)
{
	enum trusted_for_source source;
	unsigned int word = atomic_load(&state.word);

	/* Once set, the word is all this needs: no lock, no load. */
	if (!(word & WORD_SET)) {
		ensure_loaded();
		pthread_mutex_lock(&state.lock);
		word = word_locked();
		pthread_mutex_unlock(&state.lock);
	}
	unpack(word, check_policy, backend, &source);
	if (source == TRUSTED_FOR_SOURCE_FAIL_CLOSED && tf_spared_by_bad_file())
		spare(check_policy, backend, &source);
}

static unsigned int securebits_enforce(unsigned int bits)
{
	return ((bits & SECBIT_EXEC_RESTRICT_FILE) ? TRUSTED_FOR_ENFORCE_FILE : 0) |
	       ((bits & SECBIT_EXEC_DENY_INTERACTIVE) ?
			TRUSTED_FOR_ENFORCE_INTERACTIVE :
			0);
}

/* 0, or -1 when they cannot be read: then they say everything is enforced. */
static int read_securebits(unsigned int *bits)
{
	int got = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);

	/* Never fails on Linux; if it did, enforce everything. */
	*bits = got < 0 ? SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_DENY_INTERACTIVE :
			  (unsigned int)got;
	return got < 0 ? -1 : 0;
}

void tf_config_get(struct tf_config *p, char *problem, size_t size)
{
	struct tf_kernel k;
	unsigned int word;

	ensure_loaded();
	tf_kernel_probe(&k);
	pthread_mutex_lock(&state.lock);
	word = word_locked();
	p->file_enforce = state.file.enforce;
	p->audit = state.file.audit;
	p->log_target = state.file.log_target;
	p->file_state = state.file.state;
	if (problem)
		snprintf(problem, size, "%s", state.file.problem);
	pthread_mutex_unlock(&state.lock);
	unpack(word, &p->check_policy, &p->backend, &p->source);
	if (p->file_state == TRUSTED_FOR_FILE_FAIL_CLOSED && tf_spared_by_bad_file()) {
		p->file_enforce = 0;
		spare(&p->check_policy, &p->backend, &p->source);
	}
	/* The patched kernel's sysctl can change at any time. */
	if (p->source == TRUSTED_FOR_SOURCE_KERNEL)
		tf_kernel_policy(&p->check_policy);
	p->env_enforce = state.env_enforce;
	p->process_enforce = atomic_load(&state.process_enforce);
	p->securebits_known = read_securebits(&p->securebits) == 0 &&
			      /* They came with AT_EXECVE_CHECK, in 6.14. */
			      k.execve_check;
	p->enforce = p->file_enforce | p->env_enforce | p->process_enforce |
		     securebits_enforce(p->securebits);
}

TF_EXPORT int trusted_for_get_enforcement(unsigned int *enforce, bool *audit)
{
	unsigned int bits;
	int bad;

	if (!enforce || !audit) {
		errno = EINVAL;
		return -1;
	}
	ensure_loaded();
	pthread_mutex_lock(&state.lock);
	*enforce = state.file.enforce;
	*audit = state.file.audit;
	bad = state.file.state == TRUSTED_FOR_FILE_FAIL_CLOSED;
	pthread_mutex_unlock(&state.lock);
	if (bad && tf_spared_by_bad_file())
		*enforce = 0;
	read_securebits(&bits);
	*enforce |= state.env_enforce | atomic_load(&state.process_enforce) |
		    securebits_enforce(bits);
	return 0;
}

TF_EXPORT int trusted_for_get_config(struct trusted_for_config *c)
{
	struct trusted_for_config full;
	struct tf_kernel k;
	struct tf_config p;

	if (tf_abi_accepts(c, TRUSTED_FOR_CONFIG_SIZE_1) < 0)
		return -1;
	memset(&full, 0, sizeof(full));
	tf_config_get(&p, full.file_problem, sizeof(full.file_problem));
	tf_kernel_probe(&k);
	full.check_policy = p.check_policy;
	full.check_policy_source = p.source;
	full.backend = p.backend;
	full.execve_check = k.execve_check;
	full.patched_kernel = k.patched;
	full.probe_error = k.probe_error;
	full.file_enforce = p.file_enforce;
	full.env_enforce = p.env_enforce;
	full.process_enforce = p.process_enforce;
	full.securebits_known = p.securebits_known;
	full.securebits = p.securebits;
	full.enforce = p.enforce;
	full.audit = p.audit;
	full.log_target = p.log_target;
	full.file_state = p.file_state;
	snprintf(full.file_path, sizeof(full.file_path), "%s", TRUSTEDFOR_POLICY_FILE);
	tf_abi_copy(c, &full, sizeof(full));
	return 0;
}

/*
 * The policy file judged by the library's own rules, not put in force:
 * what trusted-for policy check and install say of a file.
 */
TF_EXPORT int trusted_for_read_policy_file(int fd, unsigned int flags,
					   struct trusted_for_config *c)
{
	struct trusted_for_config full;
	struct tf_policy_file f;

	if (tf_abi_accepts(c, TRUSTED_FOR_CONFIG_SIZE_1) < 0)
		return -1;
	if (fd < -1 || (fd == -1 && flags) || (flags & ~TRUSTED_FOR_POLICY_CONTENT)) {
		errno = EINVAL;
		return -1;
	}
	memset(&full, 0, sizeof(full));
	if (fd == -1) {
		tf_policy_load(TRUSTEDFOR_POLICY_FILE, &f);
		snprintf(full.file_path, sizeof(full.file_path), "%s", TRUSTEDFOR_POLICY_FILE);
	} else {
		tf_policy_read(fd, flags & TRUSTED_FOR_POLICY_CONTENT, &f);
	}
	full.check_policy = f.check_policy;
	full.check_policy_source = f.state == TRUSTED_FOR_FILE_READ ? TRUSTED_FOR_SOURCE_FILE :
				   f.state == TRUSTED_FOR_FILE_FAIL_CLOSED ?
								    TRUSTED_FOR_SOURCE_FAIL_CLOSED :
								    TRUSTED_FOR_SOURCE_DEFAULT;
	full.file_enforce = full.enforce = f.enforce;
	full.audit = f.audit;
	full.log_target = f.log_target;
	full.file_state = f.state;
	memcpy(full.file_problem, f.problem, sizeof(full.file_problem));
	tf_abi_copy(c, &full, sizeof(full));
	return 0;
}
