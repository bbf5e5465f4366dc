/* env.c - strict readers for environment variables (Note [Environment variables]). */
#include "env.h"

#include <errno.h>
#include <stdlib.h>

int dt_env_int(const char *name, long long lo, long long hi, long long *out)
{
    const char *s = getenv(name);
    if (s == NULL || *s == '\0')
        return 0;
    const char *digits = *s == '-' || *s == '+' ? s + 1 : s;
    if (*digits < '0' || *digits > '9') /* strtoll would skip spaces and accept "" */
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end != '\0' || errno != 0 || v < lo || v > hi)
        return -1;
    *out = v;
    return 1;
}

int dt_env_flag(const char *name, int *out)
{
    const char *s = getenv(name);
    if (s == NULL || *s == '\0')
        return 0;
    if ((s[0] != '0' && s[0] != '1') || s[1] != '\0')
        return -1;
    *out = s[0] == '1';
    return 1;
}
