/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library's only way out: one log function the caller can replace, and
 * the default's target, which the configuration layer sets when it reads
 * the policy file.  This file asks nothing of the layers above it: a log line written
 * while the policy is being read cannot read the policy again.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "internal.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static trusted_for_log_fn log_fn;
static void *log_data;
static atomic_int log_target = TRUSTED_FOR_LOG_SYSLOG;

TF_EXPORT int trusted_for_set_log_fn(trusted_for_log_fn fn, void *data)
{
	pthread_mutex_lock(&log_lock);
	log_fn = fn;
	log_data = data;
	pthread_mutex_unlock(&log_lock);
	return 0;
}

void tf_log_set_target(enum trusted_for_log_target target)
{
	atomic_store(&log_target, (int)target);
}

static void default_log(int priority, const char *line)
{
	int target = atomic_load(&log_target);

	if (target == TRUSTED_FOR_LOG_SYSLOG)
		syslog(LOG_AUTHPRIV | priority, "trustedfor: %s", line);
	else if (target == TRUSTED_FOR_LOG_STDERR)
		fprintf(stderr, "trustedfor: %s\n", line);
}

/*
 * strerror() may share one buffer between threads, and the library is
 * documented thread-safe; strerrordesc_np() returns constant text.  Never
 * translated: a log line or a refusal reads the same in every locale that
 * an interpreter (bash, for one) sets from the environment.
 */
const char *tf_strerror(int error)
{
	const char *text = strerrordesc_np(error);

	return text ? text : "unknown error";
}

void tf_log(int priority, const char *fmt, ...)
{
	char line[TF_LOG_LINE_MAX];
	trusted_for_log_fn fn;
	void *data;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&log_lock);
	fn = log_fn;
	data = log_data;
	pthread_mutex_unlock(&log_lock);
	if (fn)
		fn(priority, line, data);
	else
		default_log(priority, line);
}
