/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Many threads asking at once, while another re-reads the policy and swaps
 * the log function: every answer must stay exact (run it under ASan/UBSan,
 * as make check does, to see races' damage).  Then two policy files swapped
 * atomically (rename) under threads that reload and decide: every decision
 * must see one file or the other, never the check policy of one with the
 * enforcement of the other.
 */
#include "../tap.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>

#include "internal.h"

#define THREADS 6
#define ROUNDS 3000

static char dir[256];
static int good_fd, evil_fd;
static int wrong[THREADS];

static void quiet_log(int priority, const char *line, void *data)
{
	(void)priority;
	(void)line;
	(void)data;
}

static void *asker(void *arg)
{
	long id = (long)arg;
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;

	for (int i = 0; i < ROUNDS; i++) {
		if (trusted_for(good_fd, TRUSTED_FOR_EXECUTION, 0) != 0)
			wrong[id]++;
		errno = 0;
		if (trusted_for(evil_fd, TRUSTED_FOR_EXECUTION, 0) != -1 || errno != EACCES)
			wrong[id]++;
		if (trusted_for_allow_file(evil_fd, "evil", &v) != -1 ||
		    strcmp(v.message, "evil: not trusted for execution: noexec mount"))
			wrong[id]++;
	}
	return NULL;
}

/* EAGAIN is the system being short of threads for a moment: ask again. */
static void start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	int r, tries = 0;

	while ((r = pthread_create(t, NULL, fn, arg)) == EAGAIN && tries++ < 1000)
		sched_yield();
	if (r) {
		errno = r;
		tap_bail("pthread_create");
	}
}

static void *reloader(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS / 10; i++) {
		trusted_for_reload_policy_file();
		trusted_for_set_log_fn(i % 2 ? quiet_log : NULL, NULL);
		trusted_for_set_log_fn(quiet_log, NULL);
	}
	return NULL;
}

/* Two complete files: check policy 1 enforcing files, or 2 enforcing interactive code. */
static const char *const swapped[2] = {
	"trustedfor-policy 1\npolicy = 1\nenforce = file\nlog = none\nend\n",
	"trustedfor-policy 1\npolicy = 2\nenforce = interactive\nlog = none\nend\n",
};
static atomic_int deciding;
static int torn[THREADS];

static int consistent(unsigned int policy, unsigned int enforce)
{
	return (policy == 1 && enforce == TRUSTED_FOR_ENFORCE_FILE) ||
	       (policy == 2 && enforce == TRUSTED_FOR_ENFORCE_INTERACTIVE);
}

static void *decider(void *arg)
{
	long id = (long)arg;
	struct trusted_for_config p = TRUSTED_FOR_CONFIG_INIT;
	struct trusted_for_verdict v = TRUSTED_FOR_VERDICT_INIT;

	for (int i = 0; i < ROUNDS * 10; i++) {
		trusted_for_get_config(&p);
		if (!consistent(p.check_policy, p.file_enforce) || !consistent(p.check_policy, p.enforce))
			torn[id]++;
		if (i % 8)
			continue;
		trusted_for_allow_file(evil_fd, "evil", &v);
		if (!consistent(v.check_policy, v.enforce))
			torn[id]++;
	}
	atomic_fetch_sub(&deciding, 1);
	return NULL;
}

static void *swapper(void *arg)
{
	(void)arg;
	for (int i = 0; atomic_load(&deciding) > 0; i++) {
		write_file("/etc/trustedfor.conf.new", swapped[i % 2], 0644);
		if (rename("/etc/trustedfor.conf.new", "/etc/trustedfor.conf") < 0)
			tap_bail("rename");
		trusted_for_reload_policy_file();
	}
	return NULL;
}

static void *reload_loop(void *arg)
{
	(void)arg;
	while (atomic_load(&deciding) > 0)
		trusted_for_reload_policy_file();
	return NULL;
}

int main(void)
{
	pthread_t threads[THREADS + 1];
	char path[512];

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (tap_private_namespace(dir, sizeof(dir)) < 0) {
		tap_not_run("threads", "needs root or user namespaces");
		return tap_done();
	}
	if (tap_policy_file(dir, "enforce = file\nlog = none\n", 0644, 0) < 0)
		tap_bail("policy file");
	tap_exec_noexec_mounts(dir);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s/script", dir, i ? "noexec" : "exec");
		write_file(path, "+\n", 0755);
	}
	snprintf(path, sizeof(path), "%s/exec/script", dir);
	good_fd = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/noexec/script", dir);
	evil_fd = open(path, O_RDONLY | O_CLOEXEC);
	trusted_for_set_log_fn(quiet_log, NULL);
	for (long i = 0; i < THREADS; i++)
		start(&threads[i], asker, (void *)i);
	start(&threads[THREADS], reloader, NULL);
	for (int i = 0; i <= THREADS; i++)
		pthread_join(threads[i], NULL);
	for (int i = 0; i < THREADS; i++)
		tap_is_int(wrong[i], 0, "thread %d: %d rounds of three calls, every answer exact",
			   i, ROUNDS);

	write_file("/etc/trustedfor.conf", swapped[0], 0644);
	trusted_for_reload_policy_file();
	atomic_store(&deciding, THREADS - 2);
	for (long i = 0; i < THREADS - 2; i++)
		start(&threads[i], decider, (void *)i);
	start(&threads[THREADS - 2], swapper, NULL);
	start(&threads[THREADS - 1], reload_loop, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(threads[i], NULL);
	for (int i = 0; i < THREADS - 2; i++)
		tap_is_int(torn[i], 0, "thread %d: %d decisions while the file is swapped and reloaded, none torn",
			   i, ROUNDS * 10 + ROUNDS * 10 / 8);
	return tap_done();
}
