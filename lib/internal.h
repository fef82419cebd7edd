/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Interfaces between the library's layers; nothing here is exported. */
#ifndef TRUSTEDFOR_INTERNAL_H
#define TRUSTEDFOR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "trustedfor.h"

#define TF_EXPORT __attribute__((visibility("default")))

/* check.c: the bottom layer. */
struct tf_kernel {
	int patched;	  /* /proc/sys/fs/trusted_for_policy exists */
	int execve_check; /* execveat() knows AT_EXECVE_CHECK, or may */
	int probe_error;  /* why the probe could not tell, or 0 */
};
void tf_kernel_probe(struct tf_kernel *k);
void tf_kernel_override(const struct tf_kernel *k);
int tf_kernel_policy(unsigned int *policy);
int tf_answer(int fd, unsigned int policy, enum trusted_for_backend backend);
int tf_check_stream(int fd, unsigned int policy, enum trusted_for_backend backend,
		    const char *name, struct trusted_for_verdict *v);
int tf_check(int fd, unsigned int policy, enum trusted_for_backend backend,
	     const char *name, struct trusted_for_verdict *v);

/*
 * exec_permission.c: may the effective credentials execute this file?  0,
 * or -1 with errno (EACCES: no; anything else: the check failed, and *why
 * says how, or is NULL).
 */
int tf_exec_permission(int fd, const struct stat *st, int noexec_mount,
		       const char **why);
int tf_acl_allows(const void *acl, size_t n, const struct stat *st);

/* filesystems.c: f_type magic numbers */
const char *tf_kernel_internal_fs(long type);
int tf_fs_holds_code(long type);

/* mount_point.c */
int tf_mount_point(int fd, char *buf, size_t size);

/* userns.c: this process's uid map, read so that no mount can fake it. */
#define TF_UID_MAP_MAX 340
struct tf_uid_map {
	unsigned int n;
	uint32_t inside[TF_UID_MAP_MAX], outside[TF_UID_MAP_MAX],
		count[TF_UID_MAP_MAX];
};
int tf_uid_map_read(struct tf_uid_map *m, char *why, size_t size);
int tf_uid_map_parse(const char *buf, struct tf_uid_map *m);
int tf_uid_map_is_identity(const struct tf_uid_map *m);
int tf_uid_map_outside(const struct tf_uid_map *m, uint32_t inside,
		       uint32_t *outside);
void tf_uid_map_describe(const struct tf_uid_map *m, char *out, size_t size);

/* policy_file.c */
struct tf_config {
	unsigned int policy;
	unsigned int enforce;
	int audit;
	enum trusted_for_log_target log_target;
	enum trusted_for_source state;
	char problem[TRUSTED_FOR_MESSAGE_MAX];
	/* policy.c: the check policy, backend and source this file gives
	 * (the effective word), computed with it so that one copy is one
	 * consistent configuration. */
	unsigned int effective;
};
#define TF_POLICY_FILE_MAX (64 * 1024)
#define TF_POLICY_LINE_MAX 256
#define TF_POLICY_HEADER "trustedfor-policy 1"
#define TF_POLICY_END "end"
void tf_config_defaults(struct tf_config *c);
void tf_config_fail_closed(struct tf_config *c, const char *why);
int tf_policy_parse(const char *buf, size_t len, struct tf_config *c);
void tf_policy_load(const char *path, struct tf_config *c);

/* policy.c */
void tf_config_get(struct tf_config *c);
int tf_enforce_parse(const char *list, unsigned int *enforce);
unsigned int tf_env_enforce(void);
void tf_effective_policy(unsigned int *policy, enum trusted_for_source *source,
			 enum trusted_for_backend *backend);

/* log.c: strerror() for threads; the result is buf or a static string. */
const char *tf_strerror(int error, char *buf, size_t size);

/* log.c: a line longer than this is cut (documented in trusted_for(3)). */
#define TF_LOG_LINE_MAX 4096
void tf_log(int priority, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
