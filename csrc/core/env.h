/* env.h - reading devtensor's environment variables, strictly.
 *
 * Note [Environment variables]
 * A variable that is set but malformed ("abc", "-5", "0" where a count must
 * be positive, "3x") is never half-read: the reader reports it as invalid and
 * the caller uses its default, and devtensor._C's import warns once naming
 * the variable, its value and what is used instead (module.c).  Unset and
 * empty mean the default, silently.
 */
#ifndef DT_ENV_H
#define DT_ENV_H

#ifdef __cplusplus
extern "C" {
#endif

/* The decimal integer in variable `name`, within [lo, hi]: 1 and *out set,
 * 0 when unset or empty, -1 when malformed or out of range. */
int dt_env_int(const char *name, long long lo, long long hi, long long *out);
/* The flag in variable `name`, "0" or "1": 1 and *out set, 0 when unset or
 * empty, -1 for anything else. */
int dt_env_flag(const char *name, int *out);

#ifdef __cplusplus
}
#endif

#endif /* DT_ENV_H */
